"""``sim replay`` for Now Boarding: replay one game with event recording and render it, plus
``check_playout`` (the same playout with invariants checked after every step)."""

from __future__ import annotations

import numpy as np

from sim.games.base import TraceResult
from sim.games.now_boarding.data import AIRPORTS, COLOURS, STAGES, UPGRADE_KINDS, VIP_NAMES
from sim.games.now_boarding.layout import (
    EV_ANGER,
    EV_BUY,
    EV_COMPLAINT,
    EV_DELIVER,
    EV_DRAW,
    EV_DROP,
    EV_END,
    EV_FINAL,
    EV_LEFT,
    EV_MOVE,
    EV_ORDER,
    EV_PAY,
    EV_PICK,
    EV_ROUND,
    EV_STAGE,
    EV_TEMP,
    EV_VIP,
    EV_W,
    EV_WEATHER,
    K_CDEST,
    K_CFARE,
    K_CORIG,
    K_NP,
    K_RA,
    K_RB,
    S_NEV,
    STATE_SIZE,
)

MAX_EVENTS = 20000
CAUSES = ["anger", "left over", "VIP not taken"]


def _card(spec, c) -> str:
    return f"#{c} {AIRPORTS[spec[K_CORIG + c]]}>{AIRPORTS[spec[K_CDEST + c]]} ${spec[K_CFARE + c]}"


def _pos(spec, code) -> str:
    if code < 1000:
        return AIRPORTS[code]
    r, o = divmod(code - 1000, 32)
    return f"{AIRPORTS[spec[K_RA + r]]}-{AIRPORTS[spec[K_RB + r]]}+{o}"


def _route(spec, r) -> str:
    return f"{AIRPORTS[spec[K_RA + r]]}-{AIRPORTS[spec[K_RB + r]]}"


def render(spec, ev: np.ndarray, n: int) -> list[str]:
    """Event rows -> human-readable lines (one event a line, rounds as headers)."""
    lines = []
    for i in range(n):
        code, a, b, c, d, e = (int(x) for x in ev[i])
        if code == EV_ROUND:
            lines.append(f"== round {a} ({STAGES[b]}), complaints {c}")
        elif code == EV_ORDER:
            order = [x for x in (a, b, c, d, e) if x >= 0]
            lines.append("  order: " + " ".join(f"P{x}" for x in order))
        elif code == EV_MOVE:
            extra = " (+1 temporary speed)" if e else ""
            lines.append(f"  P{a} {_pos(spec, b)} -> {_pos(spec, c)} ({d} pts){extra}")
        elif code == EV_PICK:
            tok = " [temporary seat]" if e == 2 else ""
            lines.append(f"  P{a} picks up {_card(spec, b)} at {AIRPORTS[c]} (anger {d}){tok}")
        elif code == EV_DROP:
            lines.append(f"  P{a} drops {_card(spec, b)} at {AIRPORTS[c]} (hand-off)")
        elif code == EV_DELIVER:
            lines.append(f"  P{a} delivers {_card(spec, b)} at {AIRPORTS[c]} (+${d})")
        elif code == EV_ANGER:
            lines.append(f"  anger {_card(spec, a)} at {AIRPORTS[b]}: {c}")
        elif code == EV_COMPLAINT:
            what = _card(spec, b) if a == 0 else (f"VIP card {b}" if a == 2 else "end count")
            lines.append(f"  COMPLAINT ({CAUSES[a]}): {what} -> pile {c}")
        elif code == EV_DRAW:
            where = "start" if e < 0 else STAGES[e]
            lines.append(f"  new passenger ({where}) {_card(spec, a)}")
        elif code == EV_VIP:
            lines.append(f"  VIP {VIP_NAMES[b]} joins {_card(spec, a)}")
        elif code == EV_STAGE:
            lines.append(f"  -- stage {STAGES[a]} begins")
        elif code == EV_FINAL:
            lines.append(f"  -- evening pile empty: round {a} is the final round")
        elif code == EV_WEATHER:
            lines.append(f"  weather ({STAGES[a]}): {'storm' if c == 1 else 'tailwind'} on {_route(spec, b)} space {d}")
        elif code == EV_BUY:
            kind = UPGRADE_KINDS[b]
            if kind == "route":
                kind = f"route {COLOURS[c]}"
            lines.append(f"  P{a} {'takes free' if d == 0 else 'buys'} {kind}" + (f" (${d})" if d else ""))
        elif code == EV_PAY:
            lines.append(f"  P{a} pays ${b} for ${c}")
        elif code == EV_TEMP:
            lines.append(f"  P{a} uses the {UPGRADE_KINDS[b].replace('_', ' ')} token")
        elif code == EV_LEFT:
            lines.append(f"  end count: {a} passengers left over")
        elif code == EV_END:
            res = "WIN" if a else "LOSS"
            lines.append(f"== {res}: {b} complaints after {c} rounds")
    return lines


def replay_events(spec, entry_policy, entry_weights, seed, game_index, check=False):
    """Play one game with events on; returns (state int32[STATE_SIZE], events int32[n, EV_W])."""
    st = np.zeros(STATE_SIZE, np.int32)
    ev = np.zeros((MAX_EVENTS if not check else 0, EV_W), np.int32)
    _run(spec, entry_policy, entry_weights, seed, game_index, ev, check, st)
    return st, ev[: st[S_NEV]]


def _run(spec, entry_policy, entry_weights, seed, game_index, ev, check, st):
    from sim.games.now_boarding.play import OP_PLAYOUT, gs_op

    w = np.ascontiguousarray(entry_weights[0], dtype=np.float64)
    rng = np.zeros(2, np.uint64)
    return int(gs_op(np.int64(OP_PLAYOUT), st, spec, np.int64(entry_policy[0]), w, rng, ev,
                     np.int64(seed), np.int64(game_index), np.int64(1 if check else 0)))


def trace(cfg, spec, entry_policy, entry_weights, perms, seed, game_index) -> TraceResult:
    """Round-by-round log of game ``game_index`` (moves, pickups, drop-offs, anger, complaints,
    purchases) and its result row (equal to play_batch's row for that game)."""
    from sim.games.now_boarding import GAME
    from sim.games.now_boarding.play import write_row

    st, ev = replay_events(spec, entry_policy, entry_weights, seed, game_index)
    n = int(spec[K_NP])
    names = GAME.column_names(n)
    row = np.zeros(len(names), np.int32)
    write_row(st, spec, row)
    head = [f"Now Boarding, {n} players, seed {seed}, game {game_index}, policy id {int(entry_policy[0])}"]
    return TraceResult(head + render(spec, ev, len(ev)), {k: int(v) for k, v in zip(names, row, strict=True)})


def check_playout(spec, entry_policy, entry_weights, perms, seed, game_index) -> int:
    """Play game ``game_index`` as play_batch does, checking invariants after every step; 0 or
    the first violation code (layout.V_*: 1 card place, 2 active list, 3 capacity, 4 money,
    5 plane position, 6 anger, 7 complaints, 8 tokens, 9 upgrade caps)."""
    st = np.zeros(STATE_SIZE, np.int32)
    ev = np.zeros((0, EV_W), np.int32)
    return _run(spec, entry_policy, entry_weights, seed, game_index, ev, True, st)
