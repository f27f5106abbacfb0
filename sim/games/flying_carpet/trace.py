"""``sim replay`` for Flying Carpet: events and turn snapshots -> readable lines.

Every turn shows the board as text (row 11 at the top; ``#`` house, tower or tree, ``~``
cloud, ``*`` a free star, ``S`` / ``F`` the platforms, a digit the carpet of that seat,
``+`` two or more carpets), the seat's hand and tokens, then what it played, the option's
arrows with the wind added at the sideways movement, and why the move was legal.
"""

from __future__ import annotations

import numpy as np

import sim.games.flying_carpet.layout as L
from sim.games.base import TraceResult
from sim.games.flying_carpet.data import CARD_KINDS, COLOURS, DIE_FACE_NAMES, ZONE_WIND
from sim.games.flying_carpet.hooks import run_traced

DIR_WORD = {"U": "up", "D": "down", "L": "left", "R": "right"}
TOKEN_WORD = ("no token", "up", "down", "left", "right")


def xy_text(c: int) -> str:
    """``(x,y)`` of cell ``c``."""
    return f"({c % L.W},{c // L.W})"


def kind_text(k: int) -> str:
    """A card kind's arrows, e.g. ``R32 [right 2, up 3 | up 3, right 2 | ...]``."""
    name = L.CARD_KIND_NAMES[k]
    opts = []
    for segs in CARD_KINDS[name]:
        if segs is not None:
            opts.append(", ".join(f"{DIR_WORD[d]} {n}" for d, n in segs))
    return f"{name} [{' | '.join(opts)}]"


def board_lines(snap: np.ndarray, spec) -> list[str]:
    """The board of one state snapshot, top row first (module docstring)."""
    p, pinfo, marks = spec[0], spec[3], spec[4]
    S = int(p[L.P_S])
    rows = []
    count = np.zeros(L.NCELL, int)
    who = np.full(L.NCELL, -1)
    for s in range(S):
        c = int(snap[int(p[L.P_OFF_POS]) + s])
        if int(snap[int(p[L.P_OFF_RANK]) + s]) == 0 or c == int(p[L.P_FINISH]):
            count[c] += 1
            who[c] = s
    for y in range(L.H - 1, -1, -1):
        line = []
        for x in range(L.W):
            c = y * L.W + x
            v = int(snap[int(p[L.P_OFF_SCEN]) + c])
            if count[c] > 1:
                ch = "+"
            elif count[c] == 1:
                ch = str(who[c])
            elif v:
                ch = "#" if pinfo[v - 1, L.PI_KIND] == L.PK_GROUND else "~"
            elif c == int(p[L.P_START]):
                ch = "S"
            elif c == int(p[L.P_FINISH]):
                ch = "F"
            elif marks[c] & L.M_STAR:
                ch = "*"
            else:
                ch = "."
            line.append(ch)
        w = ZONE_WIND[y]
        rows.append(f"    {y:2d} {''.join(line)}  {'wind ' + str(w) if w else 'no wind'}")
    return rows


def hand_text(snap, spec, s: int) -> str:
    p, card_kind = spec[0], spec[5]
    HAND = int(p[L.P_HAND])
    out = []
    for j in range(HAND):
        cid = int(snap[int(p[L.P_OFF_HAND]) + s * HAND + j])
        out.append("-" if cid < 0 else f"#{cid} {L.CARD_KIND_NAMES[card_kind[cid]]}")
    return ", ".join(out)


def move_text(spec, pos0: int, order: int, dy: int, hc: int, ht: int = 0) -> str:
    """The arrows flown and the wind added at the sideways movement (RB "The Wind Zones");
    ``ht`` a steering token's sideways space played with a card, added after the wind (D7)."""
    p, zone = spec[0], spec[9]
    y0 = pos0 // L.W
    vert = f"{'up' if dy > 0 else 'down'} {abs(dy)}" if dy else ""
    wy = y0 + dy if order == L.ORDER_V else y0
    wy = min(max(wy, 0), L.H - 1)
    w = int(zone[wy]) if (hc != 0 or ht != 0 or p[L.P_WIND_AFTER]) else 0
    if hc < 0 and not p[L.P_NET_HEADWIND]:
        net = min(0, hc + w)
    else:
        net = hc + w
    net += ht
    side = ""
    if hc or w or ht:
        card = f"{'right' if hc > 0 else 'left'} {abs(hc)}" if hc else "no sideways arrow"
        tok = f" {'+' if ht > 0 else '-'} token 1" if ht else ""
        side = f"{card} + wind {w} (row {wy}){tok} = {'right' if net >= 0 else 'left'} {abs(net)}"
    parts = [vert, side] if order == L.ORDER_V else [side, vert]
    return " then ".join(x for x in parts if x) or "no movement"


def _event_line(e, spec, labels) -> str | None:
    card_kind, kopt = spec[5], spec[6]
    code, a, b, c, d, x = (int(v) for v in e[2:8])
    if code == L.E_CARD:
        k = int(card_kind[a])
        o = kopt[k, b]
        order, dy, hc = int(o[L.KO_ORDER]), int(o[L.KO_DY]), int(o[L.KO_HC])
        tok = ""
        ht = 0
        if c:
            tok = f" + steering token {TOKEN_WORD[c]}"
            dy += 1 if c == L.T_UP else (-1 if c == L.T_DOWN else 0)
            ht = 1 if c == L.T_RIGHT else (-1 if c == L.T_LEFT else 0)
        if d == L.END_BLOWN:
            where, why = "beyond the edge", "legal: no scenery before the path leaves the board"
        else:
            where, why = xy_text(d), "legal: every space of the path on the board and free of scenery"
        return (f"  plays #{a} {kind_text(k)}, {COLOURS[b]} arrows{tok}: {move_text(spec, x, order, dy, hc, ht)}: "
                f"{xy_text(x)} -> {where} ({why})")
    if code == L.E_TOKEN:
        dy = 1 if a == L.T_UP else (-1 if a == L.T_DOWN else 0)
        hc = 1 if a == L.T_RIGHT else (-1 if a == L.T_LEFT else 0)
        where = "blown beyond the edge" if b == L.END_BLOWN else xy_text(b)
        return (f"  plays a steering token alone, {TOKEN_WORD[a]}: {move_text(spec, c, L.ORDER_V, dy, hc)}: "
                f"{xy_text(c)} -> {where} (no card drawn)")
    if code == L.E_DRIFT:
        where = "blown beyond the edge" if a == L.END_BLOWN else xy_text(a)
        how = "drifts with the wind" if ZONE_WIND[b // L.W] else "sinks (windless zone)"
        return f"  plays no card: {how}: {xy_text(b)} -> {where}"
    if code == L.E_EXCHANGE:
        return f"    exchanges #{a} {L.CARD_KIND_NAMES[card_kind[a]]}"
    if code == L.E_DRAW:
        return f"    draws #{a} {L.CARD_KIND_NAMES[card_kind[a]]}"
    if code == L.E_SKIP:
        return "  skips this turn (blocked, or the die)"
    if code == L.E_BLOWN:
        return "    blown off the board: back to the start platform"
    if code == L.E_BLOCK:
        by = "lands on it" if c >= 0 else "sinks onto it"
        return f"    seat {a} ({labels[a]}) at {xy_text(b)} is blocked: {by}; it skips its next turn"
    if code == L.E_FORCE:
        return f"    forces seat {a} ({labels[a]}) to land: {xy_text(b)} -> {xy_text(c)} (straight down)"
    if code == L.E_DIE:
        return f"    ends on a free star: rolls the special die: face {a} = {DIE_FACE_NAMES[b]}"
    if code == L.E_CLOUD:
        return f"    moves cloud {a} from {xy_text(b)} to {xy_text(c)}"
    if code == L.E_KEEP:
        return "    leaves the clouds where they are"
    if code == L.E_NO_CLOUD:
        return "    (no cloud on the board)"
    if code == L.E_NO_SWAP:
        return "    (no other carpet to swap with)"
    if code == L.E_SWAP:
        return f"    swaps places with seat {a} ({labels[a]}): now at {xy_text(b)}, it at {xy_text(c)}"
    if code == L.E_HOP:
        return f"    moves up to four spaces: {xy_text(a)} -> {xy_text(b)} (no second roll)"
    if code == L.E_TOKENS:
        return f"    takes {a} steering token(s) from the supply ({b} left there)"
    if code == L.E_EXTRA:
        return "    takes another turn at once"
    if code == L.E_FINISH:
        return f"  == seat {a} ({labels[a]}) lands exactly on the finish: place {b}"
    if code == L.E_RESHUFFLE:
        return f"    the stack is used up: the discard pile ({a} cards) is shuffled into a new stack"
    if code == L.E_STARVED:
        return "    starved draw: stack and discard pile are empty"
    if code == L.E_STALL:
        return f"  == turn cap reached after {a} turns: the race is a stall"
    return f"  event {code} {a} {b} {c} {d} {x}"


def trace(run, game_index: int) -> TraceResult:
    """Replay race ``game_index`` of the CompiledRun ``run`` and render it (module docstring)."""
    spec = run.spec
    p = spec[0]
    state, ev, snaps, row = run_traced(run, game_index)
    labels = run.seat_labels(game_index)
    S = int(p[L.P_S])
    lines = [f"Flying Carpet: race {game_index} of seed {run.seed}; city {run.cfg.section.city_name!r}; seats: "
             + ", ".join(f"{s}={labels[s]}" for s in range(S))]
    for e in ev:
        if int(e[2]) == L.E_TURN:
            t, s = int(e[0]), int(e[1])
            snap = snaps[t] if t < snaps.shape[0] else state
            lines.append("")
            skip = " | must skip this turn" if int(e[5]) > 0 else ""
            lines.append(f"turn {t}: seat {s} ({labels[s]}) at {xy_text(int(e[3]))} | tokens {int(e[4])} | "
                         f"stack {int(snap[L.H_DECK_N])}, discard {int(snap[L.H_DISC_N])}{skip}")
            lines.extend(board_lines(snap, spec))
            lines.append(f"  hand: {hand_text(snap, spec, s)}")
        else:
            line = _event_line(e, spec, labels)
            if line is not None:
                lines.append(line)
    rowd = {n: int(v) for n, v in zip(run.game.column_names(S), row, strict=True)}
    ranks = ", ".join(f"seat {s}: {rowd[f'rank_s{s}'] or '-'}" for s in range(S))
    lines.append("")
    lines.append(f"result: winner seat {rowd['winner']}, {rowd['turns']} turns, {rowd['rounds']} rounds, "
                 f"stalled {rowd['stalled']}, reshuffles {rowd['reshuffles']}; places {ranks}")
    return TraceResult(lines, rowd)
