"""`make bench`: the whole speed story of every game's default config (``configs/<game>.toml``),
written to ``reports/bench/bench.json`` and as tables into README.md between the markers
``<!-- bench:start -->`` and ``<!-- bench:end -->``. A target, not a test: nothing fails on a
slow figure; the tables say which targets are met.

* **Speed**: games per second and ns per turn (per thread) with 1 and 2 numba threads, for every
  seat on ``greedy``, for the config's shipped seats (its mix of policies) and, for a game with a
  look-ahead policy (``PolicyDef.lookahead``, e.g. ``rollout``), one seat of it at its default
  budget with its base policy in the other seats (the whole team for a cooperative game) on
  ``max(50, --games // 2000)`` games (or ``--lookahead-games``), played once. Kernels are compiled
  (or loaded) before timing; each other figure is the best of ``--repeats`` runs of ``--games``
  games; the 2-thread scaling is their ratio.
* **Start**: cold compile time (``sim run <config> --games 100 --quiet`` in a subprocess with an
  empty temporary ``SIM_CACHE_DIR``, so numba compiles every kernel the run needs) and warm start
  time (the same command again, the cache now filled). ``--against REV`` also times the cold
  compile of git revision ``REV``'s own default configs with its own source (``git archive``
  into a temporary folder, run with the same interpreter and packages), game by game right
  after this source's: a same-host comparison, since this shared machine's speed moves by a
  third between days and a figure from another day compares hosts, not code.
* **C yardstick**: ns per call of one hot rule function in numba and in a plain C port built
  with ``gcc -O2``, on the same states: the module named by ``GameDef.yardstick`` of the first
  registered game that declares one (its ``available()`` and ``measure()``).
* **Memory**: peak resident memory (``ru_maxrss`` of the child, from ``os.wait4``) and wall time
  of ``sim run <config> --games N --quiet`` in a subprocess for each N of ``--memory-games``
  (default 1,000,000; ``--memory-games 1000000,10000000`` adds the 10 M run, which takes many
  minutes per game and is therefore not in the routine bench; ``--memory-games ''`` skips it).
  The memory runs put every seat on ``greedy`` (``--memory-seats greedy``, the default): the
  runner keeps the same columns and chunks whatever the seats play, so the peak does not depend
  on the policy, but a look-ahead or planning team would make 10 M games take hours (Now
  Boarding's shipped planner plays about 20,000 games a minute). ``--memory-seats shipped`` runs
  the configs as shipped.

``--quick`` (for the plumbing test) times only the greedy and shipped seats with one repeat and
skips the start, C and memory measurements unless asked for explicitly.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as _dt
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BENCH_JSON = ROOT / "reports" / "bench" / "bench.json"
README = ROOT / "README.md"
START, END = "<!-- bench:start -->", "<!-- bench:end -->"
TARGET_PER_MIN = 1_000_000
"""Games a minute every default config must reach with greedy players on 2 threads (issue 12)."""
START_GAMES = 100
"""Games of the start-time runs: ``sim run --games 1`` fails in the report's plots (an axis of
one value), so the cold / warm start runs play 100 games (well under a second once compiled)."""
FIRST_GAMES = 1000
"""Games of the first-run measurement (issue 34: ``time sim run configs/<game>.toml --games 1000``
with an empty cache, at most 60 s)."""
TARGET_FIRST_S = 60
TARGET_SCALING = 1.9
TARGET_C_RATIO = 1.3


def load_avg() -> float:
    """The 1-minute load average (the machine is shared: every figure is stated beside it)."""
    return round(os.getloadavg()[0], 2)


def default_configs(names: list[str] | None = None) -> list[tuple[str, Path]]:
    """``(game, configs/<game>.toml)`` of every registered game with a default config, or of
    the games in ``names``."""
    from sim.games import available

    out = []
    for name in available():
        path = ROOT / "configs" / f"{name}.toml"
        if path.is_file() and (not names or name in names):
            out.append((name, path))
    return out


def speed(games: int, repeats: int = 3, names: list[str] | None = None, lookahead: bool = True,
          lookahead_games: int | None = None) -> list[dict]:
    """Rows ``{"game", "seats", "policies", "threads", "games", "games_per_s", "games_per_min",
    "turns_per_game", "ns_per_turn", "scaling", "load"}`` (``ns_per_turn`` per thread;
    ``scaling`` on the 2-thread row: its games/s over the 1-thread row's). A look-ahead line plays
    ``lookahead_games`` games (default ``max(50, games // 2000)``) once per thread count."""
    from sim.compile import compile_run
    from sim.config import load
    from sim.games import get_game
    from sim.runner import run_games, set_threads

    rows = []
    for name, path in default_configs(names):
        base = load(path)
        gdef = get_game(name)
        mixes = {"greedy": (["greedy"] * base.n_seats, games), "shipped": (None, games)}
        if lookahead:
            for p in gdef.policies:
                if p.lookahead:  # one look-ahead seat against its base policy (a team plays it whole)
                    others = p.name if gdef.mode == "cooperative" else p.base
                    n_la = lookahead_games if lookahead_games else max(50, games // 2000)
                    mixes[p.name] = ([p.name] + [others] * (base.n_seats - 1), n_la)
        for label, (seats, n_games) in mixes.items():
            cfg = base.with_overrides(games=n_games, **({"seats": seats} if seats else {}))
            run = compile_run(cfg)
            out = run_games(run, count=min(64, n_games))  # compile / load
            one = None
            for threads in (1, 2):
                set_threads(threads)
                best = float("inf")
                for _ in range(repeats if label in ("greedy", "shipped") else 1):
                    t0 = time.perf_counter()
                    out = run_games(run)
                    best = min(best, time.perf_counter() - t0)
                turns = float(out[:, 0].mean())
                gps = n_games / best
                row = {"game": name, "seats": label, "policies": sorted({s.policy for s in cfg.seats}),
                       "threads": threads, "games": n_games, "games_per_s": round(gps, 1),
                       "games_per_min": round(gps * 60), "turns_per_game": round(turns, 2),
                       "ns_per_turn": round(1e9 * best * threads / (n_games * turns), 1),
                       "scaling": round(gps / one, 3) if one else None, "load": load_avg()}
                one = one or gps
                rows.append(row)
                print(f"{name:18s} {label:8s} {threads} thread(s): {gps:10,.0f} games/s  {gps * 60 / 1e6:6.2f} M/min  "
                      f"{turns:6.1f} turns/game  {row['ns_per_turn']:8.1f} ns/turn/thread  load {row['load']}",
                      flush=True)
    set_threads(None)
    return rows


def _sim_run(config: Path, games: int, out: Path, env: dict[str, str] | None = None,
             sets: list[str] | None = None, cwd: Path = ROOT) -> tuple[float, float, int]:
    """Run ``sim run <config> --games N --quiet --out <out>`` (plus ``--set`` for each of
    ``sets``) in a subprocess in ``cwd`` (the ``sim`` package imported from there); returns
    ``(wall seconds, peak resident memory in GiB, exit code)`` (``ru_maxrss`` of that child).
    Raises RuntimeError (with the child's stderr) when it fails."""
    cmd = [sys.executable, "-m", "sim.cli", "run", str(config), "--games", str(games), "--quiet", "--out", str(out)]
    for x in sets or []:
        cmd += ["--set", x]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        err = proc.stderr.read().decode(errors="replace")[-2000:] if proc.stderr else ""
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}):\n{err}")
    if proc.stderr:
        proc.stderr.close()
    return wall, usage.ru_maxrss / 2**20, proc.returncode  # ru_maxrss is in KiB on Linux


def source_at(rev: str, dest: Path) -> str:
    """Write git revision ``rev``'s tree (``git archive``) into the folder ``dest``; returns its
    full commit hash. Raises ValueError naming ``rev`` when git does not know it (or this is no
    git checkout)."""
    import tarfile

    try:
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                                capture_output=True, text=True, check=True).stdout.strip()
        tar = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit],
                             capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        raise ValueError(f"--against {rev}: not a commit of the git checkout {ROOT} ({e})") from None
    import io

    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        t.extractall(dest, filter="data")
    return commit


def cold_env(cache: Path, tree: Path = ROOT, prebuilt: bool = False) -> dict[str, str]:
    """The environment of a start-time run: ``SIM_CACHE_DIR`` ``cache`` (give it an empty
    folder), the shipped cache ignored (``SIM_PREBUILT=0``, a cold compile) unless ``prebuilt``
    and, for another source ``tree``, ``PYTHONPATH`` at it, so a child run in ``tree`` imports
    that tree's ``sim``, not this one."""
    env = dict(os.environ, SIM_CACHE_DIR=str(cache), SIM_PREBUILT="1" if prebuilt else "0")
    env.pop("NUMBA_CACHE_DIR", None)
    if tree != ROOT:
        env["PYTHONPATH"] = str(tree)
    return env


def start_times(names: list[str] | None = None, against: Path | None = None) -> list[dict]:
    """Rows ``{"game", "cold_s", "warm_s", "shipped_s", "shipped", "load"}``: ``sim run <config>
    --games 100 --quiet`` with an empty temporary cache (``SIM_CACHE_DIR``) and the shipped cache
    ignored (``SIM_PREBUILT=0``: numba compiles every kernel the run needs), then again with that
    cache filled; and ``sim run <config> --games 1000 --quiet`` with another empty cache and the
    shipped cache (:mod:`sim.prebuilt`) in use, a new user's first run (``shipped``: whether this
    source has an archive for this platform; without one that run compiles too).

    ``against``: a source tree (:func:`source_at`); each row then also has ``against_cold_s``,
    the same cold compile of that tree's ``configs/<game>.toml`` run from that tree, right after
    this source's (None when the tree has no such config or the run fails, with the reason in
    ``against_error``)."""
    import sim
    from sim.prebuilt import archive_for

    shipped = archive_for(sim.source_hash()).is_file()
    rows = []
    for name, path in default_configs(names):
        with tempfile.TemporaryDirectory(prefix="sim-bench-cache-") as tmp:
            env = cold_env(Path(tmp) / "cache")
            cold, _, _ = _sim_run(path, START_GAMES, Path(tmp) / "out", env)
            warm, _, _ = _sim_run(path, START_GAMES, Path(tmp) / "out", env)
        extra: dict[str, Any] = {}
        if against is not None:
            old = against / "configs" / f"{name}.toml"
            extra = {"against_cold_s": None}
            if not old.is_file():
                extra["against_error"] = f"no configs/{name}.toml there"
            else:
                with tempfile.TemporaryDirectory(prefix="sim-bench-cache-") as tmp:
                    try:
                        env = cold_env(Path(tmp) / "cache", against)
                        extra["against_cold_s"] = round(_sim_run(old, START_GAMES, Path(tmp) / "out", env, cwd=against)[0], 1)
                    except RuntimeError as e:
                        extra["against_error"] = str(e).splitlines()[-1][:300]
            print(f"{name:18s} cold start at the --against revision: "
                  + (f"{extra['against_cold_s']:.1f} s" if extra["against_cold_s"] is not None
                     else extra["against_error"]), flush=True)
        with tempfile.TemporaryDirectory(prefix="sim-bench-cache-") as tmp:
            first, _, _ = _sim_run(path, FIRST_GAMES, Path(tmp) / "out", cold_env(Path(tmp) / "cache", prebuilt=True))
        rows.append({"game": name, "cold_s": round(cold, 1), "warm_s": round(warm, 2), "shipped_s": round(first, 1),
                     "shipped": shipped, "load": load_avg(), **extra})
        print(f"{name:18s} cold start {cold:7.1f} s   warm start {warm:6.2f} s   first run with the shipped cache "
              f"({FIRST_GAMES:,} games) {first:6.1f} s   load {rows[-1]['load']}", flush=True)
    return rows


def greedy_seats(config: Path) -> str:
    """The ``--set`` override that puts every seat of ``config`` on ``greedy``:
    ``'seats=["greedy", ...]'`` with the config's seat count."""
    from sim.config import load

    n = load(config).n_seats
    return "seats=[" + ", ".join(['"greedy"'] * n) + "]"


def memory(counts: list[int], names: list[str] | None = None, seats: str = "greedy") -> list[dict]:
    """Rows ``{"game", "seats", "games", "peak_gib", "wall_s", "load"}``: ``sim run <config>
    --games N --quiet`` in a subprocess for each N of ``counts`` (kernels from the normal cache),
    with every seat on greedy (``seats`` "greedy") or as shipped ("shipped")."""
    rows = []
    for name, path in default_configs(names):
        sets = [greedy_seats(path)] if seats == "greedy" else []
        for n in counts:
            with tempfile.TemporaryDirectory(prefix="sim-bench-mem-") as tmp:
                wall, peak, _ = _sim_run(path, n, Path(tmp) / "out", sets=sets)
            rows.append({"game": name, "seats": seats, "games": n, "peak_gib": round(peak, 3),
                         "wall_s": round(wall, 1), "load": load_avg()})
            print(f"{name:18s} {seats:8s} {n:>11,} games: peak {peak:6.2f} GiB  wall {wall:7.1f} s  "
                  f"load {rows[-1]['load']}", flush=True)
    return rows


def yardstick_game() -> str | None:
    """The first registered game that declares a C yardstick (``GameDef.yardstick``), or None."""
    from sim.games import available, get_game

    return next((n for n in available() if get_game(n).yardstick is not None), None)


def c_yardstick() -> dict:
    """The ``measure()`` of the yardstick module of :func:`yardstick_game` (numba vs C ns per
    call, plus ``"game"``), or ``{"skipped": reason}``."""
    from sim.games import get_game

    game = yardstick_game()
    if game is None:
        return {"skipped": "no registered game declares a C yardstick"}
    bc = get_game(game).yardstick_module()
    if not bc.available():
        return {"skipped": "no gcc on the path"}
    res = {"game": game, **bc.measure()}
    res["load"] = load_avg()
    print(f"C yardstick {res['function']}: numba {res['numba_ns']} ns/call, C {res['c_ns']} ns/call, "
          f"ratio {res['ratio']} ({res['states']} states)  load {res['load']}", flush=True)
    return res


# ---- the README tables -----------------------------------------------------------------------
def _title(game: str) -> str:
    try:
        from sim.games import get_game

        return get_game(game).title
    except Exception:  # noqa: BLE001 - an unknown name in a hand-made result
        return game


def _speed_targets(games: list[str]) -> list[tuple[str, Any]]:
    """``(game, GameDef.speed_target)`` of the registered ones of ``games`` that declare one."""
    from sim.games import GAMES, get_game

    return [(g, get_game(g).speed_target) for g in games if g in GAMES and get_game(g).speed_target is not None]


def _yardstick_path(game: str | None) -> str:
    """The folder of ``game``'s yardstick module, relative to the repository ('' if unknown)."""
    from sim.games import GAMES, get_game

    if game is None or game not in GAMES or get_game(game).yardstick is None:
        return ""
    gdef = get_game(game)
    return "/".join([*gdef.package.split("."), gdef.yardstick]) + "/"


def render_markdown(result: dict[str, Any]) -> str:
    """The README section (between the markers) for a bench ``result`` (the bench.json dict)."""
    lines = [f"Measured by `make bench` on {result['date']} ({result['machine']['cpus']} cores, "
             f"{result['machine']['platform']}); best of {result['repeats']} runs of {result['games']:,} games "
             f"(look-ahead lines: fewer games); the machine is shared, so each figure carries the 1-minute load "
             f"average it was taken at. ns per turn is per thread.", ""]
    rows = result.get("speed", [])
    if rows:
        lines += ["| game | seats | 1 thread | 2 threads | scaling | games per minute (2 threads) | turns per game "
                  "| ns per turn (1 thread) | load |", "|---|---|---|---|---|---|---|---|---|"]
        by = {}
        for r in rows:
            by.setdefault((r["game"], r["seats"]), {})[r["threads"]] = r
        for (game, seats), d in by.items():
            r1, r2 = d.get(1), d.get(2)
            if not r1 or not r2:
                continue
            lines.append(f"| {_title(game)} | {seats} | {r1['games_per_s']:,.0f} /s | {r2['games_per_s']:,.0f} /s | "
                         f"{r2['scaling']:.2f}x | {r2['games_per_min'] / 1e6:.2f} M | {r2['turns_per_game']:.0f} | "
                         f"{r1['ns_per_turn']:,.0f} | {r1['load']:.1f} / {r2['load']:.1f} |")
        greedy = [d[2] for (g, s), d in by.items() if s == "greedy" and 2 in d]
        miss = [r for r in greedy if r["games_per_min"] < TARGET_PER_MIN]
        bad_scale = [r for (g, s), d in by.items() if s in ("greedy", "shipped") and 2 in d
                     for r in [d[2]] if r["scaling"] is not None and r["scaling"] < TARGET_SCALING]
        lines += ["", f"Target {TARGET_PER_MIN / 1e6:.0f} M greedy games a minute on 2 threads: "
                  + ("met by every game." if not miss else "missed by " + ", ".join(
                      f"{_title(r['game'])} ({r['games_per_min'] / 1e6:.2f} M, {100 * (1 - r['games_per_min'] / TARGET_PER_MIN):.0f} % short)"
                      for r in miss) + ".")
                  + f" Target 2-thread scaling {TARGET_SCALING}x: "
                  + ("met." if not bad_scale else "missed by " + ", ".join(
                      f"{_title(r['game'])} {r['seats']} ({r['scaling']:.2f}x)" for r in bad_scale) + ".")]
        for game, target in _speed_targets(list(dict.fromkeys(g for g, _s in by))):
            shipped = by.get((game, "shipped"), {}).get(2)
            if shipped and target.policy in shipped.get("policies", [target.policy]):
                gpm, want = shipped["games_per_min"], target.games_per_min
                lines[-1] += (f" Target {want:,} {_title(game)} {target.what}: "
                              + ("met." if gpm >= want else f"missed ({gpm:,.0f}, {100 * (1 - gpm / want):.0f} % short)."))
    st = result.get("start", [])
    if st:
        against = result.get("against")
        ref = f"`{against['rev']}`" + (f" ({against['commit'][:7]})" if against["commit"][:7] != against["rev"] else "") \
            if against else ""
        lines += ["", f"| game | cold compile (`sim run --games {START_GAMES}`, empty cache, `SIM_PREBUILT=0`) "
                  + (f"| the same at {ref} |" if against else "|")
                  + f" warm start (cache filled) | first run (`sim run --games {FIRST_GAMES:,}`, empty cache, "
                  "shipped cache) | load |", "|---|---|---|---|---|" + ("---|" if against else "")]
        lines += [f"| {_title(r['game'])} | {r['cold_s']:.0f} s | "
                  + ((f"{r['against_cold_s']:.0f} s | " if r.get("against_cold_s") is not None
                      else f"- ({r.get('against_error', 'not run')}) | ") if against else "")
                  + f"{r['warm_s']:.1f} s | "
                  + (f"{r['shipped_s']:.1f} s" if r.get("shipped") else
                     f"{r['shipped_s']:.0f} s (no archive for this source: compiled)" if "shipped_s" in r else "-")
                  + f" | {r['load']:.1f} |" for r in st]
        if against:
            pairs = [(r, r["cold_s"] / r["against_cold_s"]) for r in st if r.get("against_cold_s")]
            slower = [(r, x) for r, x in pairs if x > 1]
            ratios = ", ".join(f"{_title(r['game'])} {x:.2f}x" for r, x in pairs)
            verdict = ("no game ran at both." if not pairs else f"{ratios}; no game compiles slower." if not slower
                       else f"{ratios}; slower: "
                       + ", ".join(f"{_title(r['game'])} (+{100 * (x - 1):.0f} %)" for r, x in slower) + ".")
            lines += ["", f"Cold compile against {ref} on this host in the same run, each game's two runs "
                      f"minutes apart (this source's time / that one's): {verdict}"]
        if any("shipped_s" in r for r in st):
            slow = [r for r in st if r["shipped_s"] > TARGET_FIRST_S]
            lines += ["", f"Target: a new user's first run of {FIRST_GAMES:,} games in at most {TARGET_FIRST_S} s "
                      "(issue 34): " + ("met." if not slow else "missed by " + ", ".join(
                          f"{_title(r['game'])} ({r['shipped_s']:.0f} s)" for r in slow) + ".")]
    c = result.get("c_yardstick")
    if c and "skipped" not in c:
        verdict = "within" if c["ratio"] <= TARGET_C_RATIO else "outside"
        path = _yardstick_path(c.get("game") or yardstick_game())  # a result of before the "game" key
        where = f" (`{path}`)" if path else ""
        lines += ["", f"C yardstick{where}: `{c['function']}` on {c['states']:,} turn-start states: "
                  f"numba {c['numba_ns']:.0f} ns per call, plain C (`gcc -O2`) {c['c_ns']:.0f} ns per call: "
                  f"{c['ratio']:.2f}x, {verdict} the {TARGET_C_RATIO}x target (load {c['load']:.1f})."]
    elif c:
        lines += ["", f"C yardstick skipped: {c['skipped']}."]
    mem = result.get("memory", [])
    if mem:
        lines += ["", "Peak memory (limit 1.5 GiB at 10 M games; the seats change the speed, not the columns "
                  "kept):", "", "| game | seats | `sim run --games N --quiet` | peak memory | wall | load |",
                  "|---|---|---|---|---|---|"]
        lines += [f"| {_title(r['game'])} | {r.get('seats', 'shipped')} | {r['games']:,} | {r['peak_gib']:.2f} GiB | "
                  f"{r['wall_s']:.0f} s | {r['load']:.1f} |" for r in mem]
    return "\n".join(lines)


def replace_section(text: str, section: str) -> str:
    """``text`` with everything between the bench markers replaced by ``section``. Raises
    ValueError when the markers are missing or out of order."""
    a, b = text.find(START), text.find(END)
    if a < 0 or b < a:
        raise ValueError(f"README has no {START} ... {END} markers")
    return text[: a + len(START)] + "\n" + section.strip() + "\n" + text[b:]


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=50_000, help="games per speed figure")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--game", action="append", help="only this game (repeatable)")
    ap.add_argument("--lookahead-games", type=int, default=None,
                    help="games of each look-ahead line (default max(50, --games // 2000); played once)")
    ap.add_argument("--quick", action="store_true", help="greedy and shipped seats, one repeat, nothing else")
    ap.add_argument("--memory-games", default=None, help="comma-separated game counts (default 1000000; '' = none)")
    ap.add_argument("--memory-seats", choices=("greedy", "shipped"), default="greedy",
                    help="seats of the memory runs (default every seat greedy: the peak does not depend on them)")
    ap.add_argument("--start", action=argparse.BooleanOptionalAction, default=None, help="cold / warm start times")
    ap.add_argument("--c", action=argparse.BooleanOptionalAction, default=None, help="the C yardstick")
    ap.add_argument("--against", metavar="REV", default=None,
                    help="also time the cold compile of git revision REV's default configs (same host, same run)")
    ap.add_argument("--out", type=Path, default=BENCH_JSON)
    ap.add_argument("--readme", type=Path, default=README, help="README to update ('-': none)")
    a = ap.parse_args(argv)
    quick = a.quick
    repeats = 1 if quick else a.repeats
    mem_arg = a.memory_games if a.memory_games is not None else ("" if quick else "1000000")
    mem_counts = [int(x.replace("_", "")) for x in mem_arg.split(",") if x.strip()]
    do_start = a.start if a.start is not None else not quick
    do_c = a.c if a.c is not None else not quick
    stack = contextlib.ExitStack()
    against_dir = against_commit = None
    if a.against and do_start:  # before the speed runs: a bad revision fails at once
        against_dir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="sim-bench-against-")))
        try:
            against_commit = source_at(a.against, against_dir)
        except ValueError as e:
            stack.close()
            ap.error(str(e))
    result: dict[str, Any] = {"date": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                              "games": a.games, "repeats": repeats,
                              "machine": {"platform": platform.platform(), "cpus": os.cpu_count()},
                              "load_start": load_avg()}
    result["speed"] = speed(a.games, repeats, a.game, lookahead=not quick, lookahead_games=a.lookahead_games)
    if do_c:
        result["c_yardstick"] = c_yardstick()
    if do_start:
        result["start"] = start_times(a.game, against=against_dir)
        if against_dir is not None:
            result["against"] = {"rev": a.against, "commit": against_commit}
    if mem_counts:
        result["memory"] = memory(mem_counts, a.game, a.memory_seats)
    stack.close()
    result["load_end"] = load_avg()
    from sim.jsonio import write_json

    a.out.parent.mkdir(parents=True, exist_ok=True)
    write_json(result, a.out)
    print(f"written: {a.out}")
    if str(a.readme) != "-":
        a.readme.write_text(replace_section(a.readme.read_text(), render_markdown(result)))
        print(f"written: {a.readme} (between {START} and {END})")
    return result


if __name__ == "__main__":
    main()
