"""`make bench`: games per second of each game's default config, with 1 and 2 threads, for
every seat on `greedy` and for the config's shipped seats (its mix of policies), and, for a game
with a look-ahead policy (``PolicyDef.lookahead``, e.g. ``rollout``), one seat of it at its
default budget with its base policy in the other seats (the whole team for a cooperative game)
on ``max(50, --games // 2000)`` games. Kernels are compiled (or loaded) before timing; each
figure is the best of ``--repeats`` runs of ``--games`` games. Writes ``reports/bench/bench.json`` (atomically) and prints a table."""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

from sim.compile import compile_run
from sim.config import load
from sim.games import available, get_game
from sim.jsonio import write_json
from sim.runner import run_games, set_threads

ROOT = Path(__file__).resolve().parents[1]


def bench(games: int, repeats: int = 3) -> list[dict]:
    """Rows ``{"game", "seats", "threads", "games_per_s", "games_per_min", "turns_per_game",
    "ns_per_turn"}`` for every registered game with a default config."""
    rows = []
    for name in available():
        path = ROOT / "configs" / f"{name}.toml"
        if not path.is_file():
            continue
        base = load(path)
        gdef = get_game(name)
        mixes = {"greedy": (["greedy"] * base.n_seats, games), "shipped": (None, games)}
        for p in gdef.policies:
            if p.lookahead:  # one look-ahead seat against its base policy (a team plays it whole)
                others = p.name if gdef.mode == "cooperative" else p.base
                mixes[p.name] = ([p.name] + [others] * (base.n_seats - 1), max(50, games // 2000))
        for label, (seats, n_games) in mixes.items():
            cfg = base.with_overrides(games=n_games, **({"seats": seats} if seats else {}))
            run = compile_run(cfg)
            out = run_games(run, count=min(64, n_games))  # compile / load
            for threads in (1, 2):
                set_threads(threads)
                best = float("inf")
                for _ in range(repeats):
                    t0 = time.perf_counter()
                    out = run_games(run)
                    best = min(best, time.perf_counter() - t0)
                turns = float(out[:, 0].mean())
                gps = n_games / best
                row = {"game": name, "seats": label, "policies": sorted({s.policy for s in cfg.seats}),
                       "threads": threads, "games_per_s": round(gps, 1), "games_per_min": round(gps * 60),
                       "turns_per_game": round(turns, 2), "ns_per_turn": round(1e9 * best * threads / (n_games * turns), 1),
                       "games": n_games}
                rows.append(row)
                print(f"{name:18s} {label:8s} {threads} thread(s): {gps:10,.0f} games/s  {gps * 60 / 1e6:6.2f} M/min  "
                      f"{turns:6.1f} turns/game  {row['ns_per_turn']:7.1f} ns/turn/thread", flush=True)
    set_threads(None)
    return rows


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=50_000)
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    rows = bench(a.games, a.repeats)
    out = ROOT / "reports" / "bench" / "bench.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    write_json({"games": a.games, "repeats": a.repeats, "machine": {"platform": platform.platform(),
                "cpus": os.cpu_count()}, "rows": rows}, out)
    print(f"written: {out}")
