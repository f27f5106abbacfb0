"""The tension part of ``sim replay``: every seat's progress at the end of every round of the
replayed game, with the lead changes marked (docs/tension.md). The records are the engine's
own (``GameDef.progress_trace``: the game played again exactly as the batch plays it), and the
leader and the lead changes are the kernel's (:func:`sim.games.tension.sole_leader`,
:func:`sim.games.tension.lead_step`), so the marks are the ones the run's ``lead_changes``
column counted."""

from __future__ import annotations

from typing import Any

import numpy as np


def progress_lines(run: Any, g: int) -> list[str]:
    """The lines ``sim replay`` prints after a game's log: a table with one row per tension
    record (round), the progress of every seat (competitive; the leader alone ahead, ``*`` where
    the lead changed hands) or the team's complaints (cooperative; the final count marked), and
    a closing line with the game's lead changes and decisive round as the run's columns count
    them. ``run``: a :class:`sim.compile.CompiledRun`; ``g``: the game index."""
    from sim.games.tension import lead_step, sole_leader

    gdef = run.game
    hist = np.ascontiguousarray(gdef.progress_trace(run, g), dtype=np.int32)
    unit = getattr(gdef, "progress_unit", "progress points")
    n = hist.shape[0]
    if gdef.mode != "competitive":
        out = [f"== progress by round ({unit}: the team's danger; the game is lost at the limit)",
               f"   {'round':>5}  {'complaints':>10}"]
        for k in range(n):
            mark = "  (final count)" if hist[k, 1] else ""
            out.append(f"   {k + 1:>5}  {int(hist[k, 0]):>10}{mark}")
        return out
    S = run.n_seats
    names = [f"seat {s}" for s in range(S)]
    width = max(8, *(len(x) for x in names))
    out = [f"== progress by round ({unit}; the leader is the one seat ahead, * = the lead changed hands)",
           "   " + f"{'round':>5}  " + "  ".join(f"{x:>{width}}" for x in names) + "  leader"]
    holder = -1
    changes = 0
    for k in range(n):
        lead = int(sole_leader(hist, np.int64(k), np.int64(S)))
        holder, changed = (int(x) for x in lead_step(hist, np.int64(k), np.int64(S), np.int64(holder)))
        changes += changed
        mark = " *" if changed else ""
        who = f"seat {lead}" if lead >= 0 else ("tie" if holder < 0 else f"tie (seat {holder} keeps the lead)")
        out.append("   " + f"{k + 1:>5}  " + "  ".join(f"{int(hist[k, s]):>{width}}" for s in range(S))
                   + f"  {who}{mark}")
    out.append(f"   {changes} lead change{'s' if changes != 1 else ''} in {n} round{'s' if n != 1 else ''}")
    return out
