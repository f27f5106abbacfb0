"""`make bench`: games per second of each game's default config, with 1 and 2 threads,
for every seat on `random` and every seat on `greedy`. Kernels are compiled (or loaded)
before timing; each figure is the best of 3 runs of ``--games`` games."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from sim.compile import compile_run
from sim.config import load
from sim.games import available
from sim.runner import run_games, set_threads

ROOT = Path(__file__).resolve().parents[1]


def bench(games: int, repeats: int = 3) -> list[tuple[str, str, int, float]]:
    rows = []
    for name in available():
        path = ROOT / "configs" / f"{name}.toml"
        if not path.is_file():
            continue
        base = load(path)
        for policy in ("random", "greedy"):
            seats = [policy] * base.n_seats
            run = compile_run(base.with_overrides(seats=seats, games=games))
            run_games(run, count=64)  # compile / load
            for threads in (1, 2):
                set_threads(threads)
                best = float("inf")
                for _ in range(repeats):
                    t0 = time.perf_counter()
                    run_games(run)
                    best = min(best, time.perf_counter() - t0)
                rows.append((name, policy, threads, games / best))
                print(f"{name:20s} {policy:8s} {threads} thread(s): {games / best:12,.0f} games/s "
                      f"({games / best * 60:,.0f} games/min)", flush=True)
    set_threads(None)
    return rows


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=50_000)
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    bench(a.games, a.repeats)
