"""Compile a validated ``[flying_carpet]`` section into the kernel's spec, and every
feasibility check of the set-up rules (RB "Building the scenery", "Cards and tokens").

Each check raises :class:`sim.errors.ConfigError` with the dotted key and, for the city,
the cell: an unknown piece, a piece used twice, a cell off the board, a ground piece that
floats, a cloud outside the sky, two pieces on one cell, a covered platform or keep-free
cell, a star under a platform, a deck too small to deal, too few steering tokens, and a
city with no way through (breadth-first search over free cells, four neighbours).
"""

from __future__ import annotations

import heapq

import numpy as np

import sim.games.flying_carpet.data as data
from sim.errors import ConfigError
from sim.games.flying_carpet.layout import (
    CARD_KIND_NAMES,
    DF_SKIP,
    KO_DY,
    KO_HC,
    KO_ORDER,
    KO_VALID,
    KO_W,
    M_KEEP,
    M_STAR,
    MAXC,
    NCELL,
    NH,
    NK,
    NOPT,
    NP,
    NSTAT,
    ORDER_H,
    ORDER_V,
    P_CAP,
    P_CLOUDS_ANY,
    P_CLOUDS_EACH,
    P_DIE,
    P_DIE_TOKENS,
    P_DRIFT_STAY,
    P_FINISH,
    P_FORCED_ARRIVES,
    P_HAND,
    P_HOP,
    P_MAXACT,
    P_NC,
    P_NEAR,
    P_NET_HEADWIND,
    P_NFACE,
    P_NPC,
    P_OFF_ANCH,
    P_OFF_DECK,
    P_OFF_DISC,
    P_OFF_HAND,
    P_OFF_ILLEGAL,
    P_OFF_POS,
    P_OFF_RANK,
    P_OFF_SCEN,
    P_OFF_SKIP,
    P_OFF_STATS,
    P_OFF_TOK,
    P_PLACINGS,
    P_S,
    P_SKY_ROW,
    P_START,
    P_STATE_SIZE,
    P_STOP_BEFORE,
    P_TOK_EACH,
    P_TOK_TOTAL,
    P_WIND_AFTER,
    PI_ANCHOR,
    PI_KIND,
    PI_N,
    PI_W,
    PK_CLOUD,
    PK_GROUND,
    H,
    W,
)

SEC = "flying_carpet"
UNREACHABLE = 99.0
"""``dist`` of a cell from which the finish cannot be reached."""


def cell(x: int, y: int) -> int:
    """Cell index of (x, y): ``y * WIDTH + x``."""
    return y * W + x


def xy(c: int) -> tuple[int, int]:
    """(x, y) of cell index ``c``."""
    return c % W, c // W


def _on_board(x: int, y: int) -> bool:
    return 0 <= x < W and 0 <= y < H


def option_vector(segments) -> tuple[int, int, int]:
    """(order, dy, hc) of one coloured option given as ``((dir, n), ...)`` (data.CARD_KINDS):
    the signed vertical and card-sideways spaces and which is flown first."""
    dy = hc = 0
    order = ORDER_V
    for i, (d, n) in enumerate(segments):
        if d in ("U", "D"):
            dy = n if d == "U" else -n
        else:
            hc = n if d == "R" else -n
            if i == 0:
                order = ORDER_H
    return order, dy, hc


def kind_options() -> np.ndarray:
    """int32[NK, 4, KO_W]: every card kind's four options (KO_VALID 0 where the card has no
    arrows of that colour)."""
    kopt = np.zeros((NK, NOPT, KO_W), np.int32)
    for k, name in enumerate(CARD_KIND_NAMES):
        for o, segs in enumerate(data.CARD_KINDS[name]):
            if segs is None:
                continue
            order, dy, hc = option_vector(segs)
            kopt[k, o, KO_VALID] = 1
            kopt[k, o, KO_ORDER] = order
            kopt[k, o, KO_DY] = dy
            kopt[k, o, KO_HC] = hc
    return kopt


def _pieces(sec) -> dict[str, dict]:
    out = {name: {"kind": d["kind"], "cells": [tuple(c) for c in d["cells"]]} for name, d in data.PIECES.items()}
    for name, pd in sec.pieces.items():
        key = f"{SEC}.pieces.{name}"
        if name in data.PIECES:
            raise ConfigError("", key, f"{name!r} is already a piece of the box; give your piece another name")
        cells = []
        for j, c in enumerate(pd.cells):
            if len(c) != 2 or c[0] < 0 or c[1] < 0:
                raise ConfigError("", f"{key}.cells[{j}]", f"a cell is [dx, dy] with dx, dy >= 0, got {c}")
            cells.append((c[0], c[1]))
        if len(set(cells)) != len(cells):
            raise ConfigError("", f"{key}.cells", "a cell is listed twice")
        out[name] = {"kind": pd.kind, "cells": cells}
    return out


def build_city(cfg):
    """Check the city of ``cfg`` against the set-up rules and lay it out.

    Returns ``(scen int32[NCELL], pieces list of (name, kind, cells, anchor), marks
    int32[NCELL])``. Raises ConfigError naming the key and the cell (module docstring)."""
    sec = cfg.section
    src = cfg.source
    try:
        shapes = _pieces(sec)
    except ConfigError as e:
        raise ConfigError(src, e.key, e.reason) from None
    start, finish = cell(*data.START), cell(*data.FINISH)
    marks = np.zeros(NCELL, np.int32)
    marks[start] |= M_KEEP
    marks[finish] |= M_KEEP
    why = {start: "the start platform", finish: "the finish platform"}
    for i, c in enumerate(sec.keep_free):
        if len(c) != 2 or not _on_board(c[0], c[1]):
            raise ConfigError(src, f"{SEC}.keep_free[{i}]", f"cell {c} is off the {W} x {H} board")
        marks[cell(*c)] |= M_KEEP
        why.setdefault(cell(*c), "a space that must stay free beside a platform")
    for i, c in enumerate(sec.stars):
        key = f"{SEC}.stars[{i}]"
        if len(c) != 2 or not _on_board(c[0], c[1]):
            raise ConfigError(src, key, f"cell {c} is off the {W} x {H} board")
        if cell(*c) in (start, finish):
            raise ConfigError(src, key, f"cell ({c[0]},{c[1]}) is {why[cell(*c)]}, not a star space")
        if marks[cell(*c)] & M_STAR:
            raise ConfigError(src, key, f"star ({c[0]},{c[1]}) is listed twice")
        marks[cell(*c)] |= M_STAR
    scen = np.zeros(NCELL, np.int32)
    owner: dict[int, int] = {}
    pieces = []
    used: dict[str, int] = {}
    sky = 0 if sec.clouds_anywhere else data.SKY_ROW
    for i, pl in enumerate(sec.city):
        key = f"{SEC}.city[{i}]"
        if pl.piece not in shapes:
            raise ConfigError(src, f"{key}.piece",
                              f"unknown piece {pl.piece!r}; box pieces {sorted(data.PIECES)}"
                              + (f", yours {sorted(sec.pieces)}" if sec.pieces else ""))
        if pl.piece in used:
            raise ConfigError(src, f"{key}.piece",
                              f"piece {pl.piece!r} is already on the board as city[{used[pl.piece]}] "
                              f"(there is one of each; define another piece under [{SEC}.pieces])")
        used[pl.piece] = i
        kind = shapes[pl.piece]["kind"]
        ax, ay = pl.at
        cells = [(ax + dx, ay + dy) for dx, dy in shapes[pl.piece]["cells"]]
        for x, y in cells:
            if not _on_board(x, y):
                raise ConfigError(src, f"{key}.at", f"cell ({x},{y}) of {pl.piece!r} is off the {W} x {H} board")
        low = min(y for _, y in cells)
        if kind == "ground" and low != 0:
            raise ConfigError(src, f"{key}.at",
                              f"ground piece {pl.piece!r} floats: its lowest cell is in row {low}; houses, towers "
                              f"and trees stand on the bottom edge (row 0)")
        for x, y in cells:
            c = cell(x, y)
            if kind == "cloud" and y < sky:
                raise ConfigError(src, f"{key}.at",
                                  f"cloud {pl.piece!r} covers ({x},{y}) in the windless zone; clouds lie in the sky "
                                  f"(rows {data.SKY_ROW}-{H - 1}; clouds_anywhere = true allows it)")
            if c in owner:
                j = owner[c]
                raise ConfigError(src, f"{key}.at", f"cell ({x},{y}) is already covered by city[{j}] "
                                  f"{sec.city[j].piece!r}")
            if marks[c] & M_KEEP:
                raise ConfigError(src, f"{key}.at", f"{pl.piece!r} covers ({x},{y}), {why[c]}")
            owner[c] = i
            scen[c] = i + 1
        pieces.append((pl.piece, PK_GROUND if kind == "ground" else PK_CLOUD, shapes[pl.piece]["cells"],
                       cell(ax, ay)))
    seen = free_component(scen, start)
    if not seen[finish]:
        far = max(xy(c)[0] for c in range(NCELL) if seen[c])
        raise ConfigError(src, f"{SEC}.city",
                          f"no way through: no path of free spaces leads from the start ({data.START[0]},"
                          f"{data.START[1]}) to the finish ({data.FINISH[0]},{data.FINISH[1]}); the free spaces "
                          f"reachable from the start end at column {far} (RB: the carpets must always get through)")
    return scen, pieces, marks


def free_component(scen: np.ndarray, start: int) -> np.ndarray:
    """bool[NCELL]: the free cells (scen == 0) connected to ``start`` by steps to the four
    neighbours (the literal 'can always get through somewhere')."""
    seen = np.zeros(NCELL, bool)
    if scen[start]:
        return seen
    seen[start] = True
    todo = [start]
    while todo:
        c = todo.pop()
        x, y = xy(c)
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if _on_board(nx, ny):
                n = cell(nx, ny)
                if not seen[n] and scen[n] == 0:
                    seen[n] = True
                    todo.append(n)
    return seen


def distance_map(scen: np.ndarray, zone) -> np.ndarray:
    """float64[NCELL]: a wind-aware estimate of the turns from each free cell to the finish
    (policies only; not a rule). Dijkstra backwards from the finish over free cells; a step
    up or down costs 1/2 turn (cards fly 1-3 spaces vertically), a step right in a zone of
    wind w costs 1/(2 + w), a step left 1. Scenery and unreachable cells get UNREACHABLE."""
    dist = np.full(NCELL, UNREACHABLE)
    finish = cell(*data.FINISH)
    dist[finish] = 0.0
    heap = [(0.0, finish)]
    while heap:
        d, b = heapq.heappop(heap)
        if d > dist[b]:
            continue
        bx, by = xy(b)
        # predecessors a with a step a -> b
        for ax, ay in ((bx - 1, by), (bx + 1, by), (bx, by - 1), (bx, by + 1)):
            if not _on_board(ax, ay) or scen[cell(ax, ay)]:
                continue
            if ay != by:
                cost = 0.5
            elif ax < bx:
                cost = 1.0 / (2 + zone[ay])
            else:
                cost = 1.0
            a = cell(ax, ay)
            if d + cost < dist[a]:
                dist[a] = d + cost
                heapq.heappush(heap, (d + cost, a))
    return dist


def compile_spec(cfg):
    """The kernel spec of ``cfg`` (a validated RunConfig): the tuple of ``layout``'s
    docstring. Raises ConfigError for a set-up the rules forbid (module docstring)."""
    sec = cfg.section
    src = cfg.source
    S = cfg.n_seats
    # ---- the deck (RB "Cards and tokens") ----
    kind_of = {name: k for k, name in enumerate(CARD_KIND_NAMES)}
    cards: list[int] = []
    for name, n in sec.deck.items():
        if name not in kind_of:
            raise ConfigError(src, f"{SEC}.deck.{name}", f"unknown wind-card kind; kinds {list(CARD_KIND_NAMES)}")
        if n < 0:
            raise ConfigError(src, f"{SEC}.deck.{name}", f"a count is >= 0, got {n}")
        cards.extend([kind_of[name]] * n)
    if len(cards) < S * sec.hand_size:
        raise ConfigError(src, f"{SEC}.deck", f"{len(cards)} wind cards cannot deal {S} hands of {sec.hand_size}")
    if sec.tokens_total < S * sec.tokens_each:
        raise ConfigError(src, f"{SEC}.tokens_total",
                          f"{sec.tokens_total} steering tokens cannot give {S} players {sec.tokens_each} each")
    scen, pieces, marks = build_city(cfg)
    zone = np.asarray(data.ZONE_WIND, np.int32)
    NPC = len(pieces)
    pcells = np.zeros((max(NPC, 1), MAXC, 2), np.int32)
    pinfo = np.zeros((max(NPC, 1), PI_W), np.int32)
    for i, (_, kind, cells, anchor) in enumerate(pieces):
        pinfo[i, PI_KIND] = kind
        pinfo[i, PI_N] = len(cells)
        pinfo[i, PI_ANCHOR] = anchor
        for j, (dx, dy) in enumerate(cells):
            pcells[i, j] = (dx, dy)
    faces = {name: i for i, name in enumerate(data.DIE_FACE_NAMES)}
    die = np.asarray([faces[f] for f in sec.die_faces], np.int32)
    assert faces["skip_turn"] == DF_SKIP
    if sec.cloud_moves == "each" and NPC > data.MAX_CLOUD_BITS:
        raise ConfigError(src, f"{SEC}.cloud_moves",
                          f"'each' supports at most {data.MAX_CLOUD_BITS} pieces in the city, not {NPC}")
    NC = len(cards)
    HAND = sec.hand_size
    p = np.zeros(NP, np.int64)
    p[P_S] = S
    p[P_HAND] = HAND
    p[P_NC] = NC
    p[P_NPC] = NPC
    p[P_NFACE] = len(die)
    p[P_CAP] = cfg.turn_cap
    p[P_TOK_EACH] = sec.tokens_each
    p[P_TOK_TOTAL] = sec.tokens_total
    p[P_DIE_TOKENS] = data.DIE_TOKENS
    p[P_HOP] = data.HOP_RANGE
    p[P_DIE] = int(sec.special_die)
    p[P_PLACINGS] = int(sec.play_for_placings)
    p[P_STOP_BEFORE] = int(sec.blocked_option == "stop_before")
    p[P_NET_HEADWIND] = int(sec.headwind == "net")
    p[P_OFF_ILLEGAL] = int(sec.off_board == "illegal")
    p[P_WIND_AFTER] = int(sec.wind_without_sideways == "after")
    p[P_CLOUDS_ANY] = int(sec.clouds_anywhere)
    p[P_DRIFT_STAY] = int(sec.drift_blocked == "stay")
    p[P_CLOUDS_EACH] = int(sec.cloud_moves == "each")
    p[P_FORCED_ARRIVES] = int(sec.forced_finish == "arrived")
    p[P_SKY_ROW] = 0 if sec.clouds_anywhere else data.SKY_ROW
    p[P_START] = cell(*data.START)
    p[P_FINISH] = cell(*data.FINISH)
    p[P_NEAR] = data.FINISH_NEAR
    hop = 2 * data.HOP_RANGE + 1
    p[P_MAXACT] = max(HAND * NOPT * 5 * 2 + 4 * 2 + (HAND + 1) * 2, hop * hop, S, 1)
    # state blocks: each offset = the previous offset + its size
    off = NH
    for key, size in ((P_OFF_POS, S), (P_OFF_SKIP, S), (P_OFF_TOK, S), (P_OFF_RANK, S), (P_OFF_HAND, S * HAND),
                      (P_OFF_DECK, NC), (P_OFF_DISC, NC), (P_OFF_SCEN, NCELL), (P_OFF_ANCH, max(NPC, 1)),
                      (P_OFF_STATS, S * NSTAT)):
        p[key] = off
        off += size
    p[P_STATE_SIZE] = off
    card_kind = np.asarray(cards, np.int32)
    dist = distance_map(scen, zone)
    return (p, scen, pcells, pinfo, marks, card_kind, kind_options(), dist, die, zone)
