"""Compile (or load from the on-disk cache) every registered game's kernels: one tiny run
per game with every built-in policy, and one invariant-checked playout. `make test` runs
this first so parallel test workers find the cache filled instead of compiling twice."""

from __future__ import annotations

import time

from sim.compile import run_from_dict
from sim.games import available, get_game
from sim.runner import run_games


def warm() -> None:
    for name in available():
        t0 = time.perf_counter()
        gdef = get_game(name)
        seats = [p.name for p in gdef.policies][: gdef.max_seats]
        while len(seats) < gdef.min_seats:
            seats.append(seats[-1])
        if gdef.mode == "cooperative":
            seats = [seats[0]] * gdef.min_seats
        run = run_from_dict({"game": name, "games": 4, "seed": 1, "seats": seats}, f"<warm {name}>")
        run_games(run)
        gdef.check_playout(run, 0)
        print(f"warm: {name} ready in {time.perf_counter() - t0:.1f} s", flush=True)


if __name__ == "__main__":
    warm()
