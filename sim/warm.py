"""Compile (or load from the on-disk cache) every registered game's kernels: one tiny run
per game with every built-in policy, and one invariant-checked playout (what it plays is
derived from each game's GameDef: its policies, seat range and mode). `make test` runs
this first so parallel test workers find the cache filled instead of compiling twice.

numba compiles on one core, so the games compile in separate processes, as many at once as
there are cores (``--jobs``; default ``os.cpu_count()``): on a 2-core machine a cold start
takes about the time of the two slowest games instead of the sum of all four. Each game's
kernels are cached in their own files, so the processes never write the same cache entry
(the shared helpers of ``sim.rng`` / ``sim.games.engine`` they may both compile are written
by numba's atomic cache writes).
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

from sim.games import available


def warm_game(name: str) -> float:
    """Compile game ``name``'s kernels and return the seconds it took: both bindings of its loop
    (:func:`sim.games.loop.bind`), each with a 4-game run, one invariant-checked playout and one
    traced game: the full one with a look-ahead seat on a tiny budget (a cooperative game's whole
    team) and the plain one with every other policy; and those of its user policy config among
    the shipped configs, ``configs/<name>_example_policy.toml``, when there is one (Dice Race's
    only: the other games' examples live in ``configs/policies/`` so CI does not compile each
    game's loop once more)."""
    from sim.compile import run_from_dict
    from sim.games import get_game
    from sim.runner import run_games

    t0 = time.perf_counter()
    gdef = get_game(name)
    plain: list = [p.name for p in gdef.policies if not p.lookahead][: gdef.max_seats]
    while len(plain) < gdef.min_seats:
        plain.append(plain[-1])
    look = [{"policy": p.name, "weights": {"rollouts": 1, "depth": 1}} for p in gdef.policies if p.lookahead][:1]
    if gdef.mode == "cooperative":
        plain = [plain[0]] * gdef.min_seats
        full = look * gdef.min_seats
    else:
        full = plain[: gdef.max_seats - 1] + look if look else []
        while full and len(full) < gdef.min_seats:
            full.insert(0, plain[0])
    for seats in (full, plain):
        if not seats:
            continue
        run = run_from_dict({"game": name, "name": f"warm-{name}", "games": 4, "seed": 1, "seats": seats},
                            f"<warm {name}>")
        run_games(run)
        gdef.check_playout(run, 0)
        gdef.trace(run, 0)
    example = Path(__file__).resolve().parents[1] / "configs" / f"{name}_example_policy.toml"
    if example.is_file():  # the shipped user policy's loop (docs/policies.md): its own cache entry
        from sim.compile import load_run

        urun = load_run(example, games=4)
        run_games(urun)
        urun.game.check_playout(urun, 0)
        urun.game.trace(urun, 0)  # its golden playthrough's traced loop
    return time.perf_counter() - t0


def compile_order(names: list[str]) -> list[str]:
    """``names`` with the longest compiles first (``GameDef.compile_seconds``, registry order
    among equals), so the processes finish together."""
    from sim.games import get_game

    return sorted(names, key=lambda n: -get_game(n).compile_seconds)


def warm(jobs: int | None = None) -> None:
    import sim
    from sim.prebuilt import archive_for, portable

    names = compile_order(available())
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(names)))
    t0 = time.perf_counter()
    arc = archive_for(sim.source_hash())
    if sim.PREBUILT:
        print(f"warm: unpacked the shipped compile cache {sim.PREBUILT} into {sim.NUMBA_CACHE_DIR}", flush=True)
    elif not arc.is_file() and portable():
        print(f"warm: no shipped compile cache for this source and platform ({arc.name}): compiling "
              "(`make prebuilt` builds it)", flush=True)
    if jobs == 1:
        for name in names:
            print(f"warm: {name} ready in {warm_game(name):.1f} s", flush=True)
    else:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn")) as pool:
            for name, s in zip(names, pool.map(warm_game, names), strict=True):
                print(f"warm: {name} ready in {s:.1f} s", flush=True)
    print(f"warm: {len(names)} games in {time.perf_counter() - t0:.1f} s ({jobs} processes)", flush=True)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=None, help="compile processes (default: the cores)")
    warm(ap.parse_args().jobs)
