"""``sim replay`` for Dice Race: events and turn snapshots -> readable lines.

Each turn shows the seat, its dice and every token's space, then the moves the dice allowed
(``rules.legal_moves`` on the turn's snapshot: why the move made was legal), the move made,
any bump and the finish. ``check_playout`` is the engine's (``hooks.py``).
"""

from __future__ import annotations

import numpy as np

import sim.games.dice_race.layout as L
from sim.games.base import TraceResult
from sim.games.dice_race.hooks import run_traced
from sim.games.dice_race.rules import legal_moves


def move_text(kind: int, steps: int, dest: int) -> str:
    """``"die 1 (4) -> 9"``, ``"sum (7) -> finish"``."""
    return f"{L.KIND_NAMES[kind]} ({steps}) -> {dest}"


def options(snap: np.ndarray, spec) -> str:
    """The moves the dice allowed at the start of the turn in ``snap``."""
    acts = np.zeros((L.MAX_ACTS, L.ACT_W), np.int32)
    n = int(legal_moves(snap.copy(), spec, acts))
    return "; ".join(move_text(int(a[0]), int(a[1]), int(a[2])) for a in acts[:n])


def trace(run, game_index: int) -> TraceResult:
    """Replay game ``game_index`` of ``run`` (a ``sim.compile.CompiledRun``) and render it
    (see the module docstring); the result row is exactly row ``game_index`` of the run."""
    spec = run.spec
    p = spec[0]
    state, ev, snaps, row = run_traced(run, game_index)
    labels = run.seat_labels(game_index)
    S = int(p[L.P_S])
    track = int(p[L.P_TRACK])
    lines = [f"Dice Race: game {game_index} of seed {run.seed}; track 0..{track}, bump {int(p[L.P_BUMP])}, "
             f"exact finish {'yes' if p[L.P_EXACT] else 'no'}; seats: "
             + ", ".join(f"{s}={labels[s]}" for s in range(S))]
    for e in ev:
        t, s, code, a, b, c, d = (int(x) for x in e[:7])
        if code == L.E_TURN:
            snap = snaps[t]
            where = ", ".join(f"{q}:{int(snap[int(p[L.P_OFF_POS]) + q])}" for q in range(S))
            lines += ["", f"turn {t + 1}: seat {s} ({labels[s]}) rolls {a} and {b} | spaces {where}",
                      f"  allowed: {options(snap, spec)}"]
        elif code == L.E_MOVE:
            lines.append(f"  moves by {move_text(a, b, d)} (from {c})")
        elif code == L.E_BUMP:
            lines.append(f"  lands on seat {a} ({labels[a]}): it goes back {b} -> {c}")
        elif code == L.E_PASS:
            lines.append("  no move is allowed (exact finish): passes")
        elif code == L.E_FINISH:
            lines.append(f"  == seat {a} reaches the finish on turn {b}: wins")
        elif code == L.E_STALL:
            lines.append("  == turn cap reached: the race is a stall")
        # E_ROLL: the next turn's heading shows the dice
    rowd = {n: int(v) for n, v in zip(run.game.column_names(S), row, strict=True)}
    ranks = ", ".join(f"seat {q}: {rowd[f'rank_s{q}'] or '-'}" for q in range(S))
    lines += ["", f"result: winner seat {rowd['winner']}, {rowd['turns']} turns, stalled {rowd['stalled']}; "
              f"ranks {ranks}"]
    return TraceResult(lines, rowd)
