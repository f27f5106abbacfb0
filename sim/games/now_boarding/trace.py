"""``sim replay`` for Now Boarding: one game with events recorded, rendered line by line, and
``check_playout`` (the same playout with invariants checked after every step)."""

from __future__ import annotations

import numpy as np

from sim.games.base import TraceResult
from sim.games.now_boarding.data import AIRPORTS, COLOURS, STAGES, UPGRADE_KINDS, VIP_NAMES
from sim.games.now_boarding.hooks import run_traced
from sim.games.now_boarding.layout import (
    E_ANGER,
    E_BUY,
    E_COMPLAINT,
    E_DELIVER,
    E_DRAW,
    E_DROP,
    E_END,
    E_FINAL,
    E_LEFT,
    E_MOVE,
    E_ORDER,
    E_PAY,
    E_PICK,
    E_ROUND,
    E_STAGE,
    E_STALL,
    E_TEMP,
    E_VIP,
    E_WEATHER,
    P_CDEST,
    P_CFARE,
    P_CORIG,
    P_NP,
    P_RA,
    P_RB,
    POLICIES,
)

MAX_EVENTS = 20000
CAUSES = ["anger", "left over", "VIP not taken"]


def _card(spec, c) -> str:
    return f"#{c} {AIRPORTS[spec[P_CORIG + c]]}>{AIRPORTS[spec[P_CDEST + c]]} ${spec[P_CFARE + c]}"


def _pos(spec, code) -> str:
    """An airport, or a route space as the route and how many spaces the plane is from its
    first airport (``SEA-ORD 1 space from SEA``)."""
    if code < 1000:
        return AIRPORTS[code]
    r, o = divmod(code - 1000, 32)
    a = AIRPORTS[spec[P_RA + r]]
    return f"{a}-{AIRPORTS[spec[P_RB + r]]} {o} space{'' if o == 1 else 's'} from {a}"


def _route(spec, r) -> str:
    return f"{AIRPORTS[spec[P_RA + r]]}-{AIRPORTS[spec[P_RB + r]]}"


def render(spec, ev: np.ndarray, n: int) -> list[str]:
    """The first ``n`` event rows of ``ev`` int32[E, EV_W] -> human-readable lines (one event a
    line, rounds as headers); ``spec`` is the flat K array."""
    lines = []
    for i in range(n):
        _turn, _seat, code, a, b, c, d, e = (int(x) for x in ev[i])
        if code == E_ROUND:
            lines.append(f"== round {a} ({STAGES[b]}), complaints {c}")
        elif code == E_ORDER:
            order = [x for x in (a, b, c, d, e) if x >= 0]
            lines.append("  order: " + " ".join(f"P{x}" for x in order))
        elif code == E_MOVE:
            extra = " (+1 temporary speed)" if e else ""
            lines.append(f"  P{a} {_pos(spec, b)} -> {_pos(spec, c)} ({d} pts){extra}")
        elif code == E_PICK:
            tok = " [temporary seat]" if e == 2 else ""
            lines.append(f"  P{a} picks up {_card(spec, b)} at {AIRPORTS[c]} (anger {d}){tok}")
        elif code == E_DROP:
            lines.append(f"  P{a} drops {_card(spec, b)} at {AIRPORTS[c]} (hand-off)")
        elif code == E_DELIVER:
            lines.append(f"  P{a} delivers {_card(spec, b)} at {AIRPORTS[c]} (+${d})")
        elif code == E_ANGER:
            lines.append(f"  anger {_card(spec, a)} at {AIRPORTS[b]}: {c}")
        elif code == E_COMPLAINT:
            what = _card(spec, b) if a == 0 else (f"VIP card {b}" if a == 2 else "end count")
            lines.append(f"  COMPLAINT ({CAUSES[a]}): {what} -> pile {c}")
        elif code == E_DRAW:
            where = "start" if e < 0 else STAGES[e]
            lines.append(f"  new passenger ({where}) {_card(spec, a)}")
        elif code == E_VIP:
            lines.append(f"  VIP {VIP_NAMES[b]} joins {_card(spec, a)}")
        elif code == E_STAGE:
            lines.append(f"  -- stage {STAGES[a]} begins")
        elif code == E_FINAL:
            lines.append(f"  -- evening pile empty: round {a} is the final round")
        elif code == E_WEATHER:
            lines.append(f"  weather ({STAGES[a]}): {'storm' if c == 1 else 'tailwind'} on {_route(spec, b)} space {d}")
        elif code == E_BUY:
            kind = UPGRADE_KINDS[b]
            if kind == "route":
                kind = f"route {COLOURS[c]}"
            lines.append(f"  P{a} {'takes free' if d == 0 else 'buys'} {kind}" + (f" (${d})" if d else ""))
        elif code == E_PAY:
            lines.append(f"  P{a} pays ${b} in fare cards for ${c}" + (f" (no change: ${b - c} lost)" if b > c else ""))
        elif code == E_TEMP:
            lines.append(f"  P{a} uses the {UPGRADE_KINDS[b].replace('_', ' ')} token")
        elif code == E_LEFT:
            lines.append(f"  end count: {a} passengers left over")
        elif code == E_STALL:
            lines.append(f"  -- turn cap reached after {a} rounds: stall")
        elif code == E_END:
            res = "WIN" if a else "LOSS"
            lines.append(f"== {res}: {b} complaints after {c} rounds")
    return lines


def _policy_name(pid: int) -> str:
    return next(p.name for p in POLICIES if p.id == pid)


def trace(run, game_index: int) -> TraceResult:
    """Round-by-round log of game ``game_index`` of ``run`` (a ``sim.compile.CompiledRun``):
    moves, pickups, drop-offs, anger, complaints, purchases; and its result row (equal to
    play_batch's row for that game)."""
    st, ev, _, row = run_traced(run, game_index)
    K = run.spec[0]
    n = int(K[P_NP])
    names = run.game.column_names(n)
    pid = int(run.entry_policy[run.perms[game_index % run.perms.shape[0], 0]])
    head = [f"Now Boarding, {n} players, seed {run.seed}, game {game_index}, policy {_policy_name(pid)}"]
    return TraceResult(head + render(K, ev, len(ev)), {k: int(v) for k, v in zip(names, row, strict=True)})
