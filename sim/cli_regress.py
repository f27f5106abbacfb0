"""``sim baseline``, ``sim check`` and ``sim compare``: balance regression for CI.

Plain typer command functions; :mod:`sim.cli` registers them (``app.command("check")(check)``).
Exit codes: 0 pass, 1 a regression or a missed balance target, 2 bad input (config errors,
missing or malformed baseline, a baseline of another game, a target matching no metric, an
output that cannot be written). Every output is checked before a game is played and written
atomically (:mod:`sim.outputs`).

Heavy modules (numba kernels, polars, statsmodels, rich) load inside the commands.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from sim.cli_common import SetOpt

BASELINE_DIR = Path("reports") / "baselines"
COMPARE_DIR = Path("reports") / "compare"

GamesOpt = Annotated[
    int | None,
    typer.Option("--games", min=1, help="games to play (default: \\[checks] games, else the config's games)"),
]
CompareGamesOpt = Annotated[
    int | None,
    typer.Option("--games", min=1, help="games for each config run (default: A's games, or the report's)"),
]
ThreadsOpt = Annotated[int | None, typer.Option("--threads", min=1, help="worker threads (default: all cores)")]


def _console(stderr: bool = False):
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    return Console(file=stream, width=None if stream.isatty() else 160, highlight=False)


def _fail_input(err: Exception) -> typer.Exit:
    """Print a bad-input error (one line, never wrapped, markup in it not interpreted) and
    return the Exit(2) to raise."""
    from rich.text import Text

    from sim.cli_common import one_line

    _console(stderr=True).print(Text.assemble(("error:", "bold red"), f" {one_line(str(err))}"), soft_wrap=True,
                                highlight=False)
    return typer.Exit(2)


def _check_flags(threads: int | None) -> None:
    """Raise ConfigError-like exits for flags out of range (``--threads``)."""
    from sim.cli_common import threads_problem

    why = threads_problem(threads)
    if why:
        raise _fail_input(why)


def default_baseline_path(cfg: Any) -> Path:
    """``reports/baselines/<run name>.json`` (relative to the working directory)."""
    return BASELINE_DIR / f"{cfg.run_name}.json"


def _run(run: Any, threads: int | None):
    """Play a CompiledRun through :func:`sim.api.run_config` (a progress bar on a terminal);
    returns its RunOutput."""
    from sim.api import run_config
    from sim.cli_progress import prepare_kernels, progress_bar

    compile_s = prepare_kernels(run)
    with progress_bar(run.cfg.run_name, run.cfg.games) as on_progress:
        return run_config(run, threads=threads, on_progress=on_progress, compile_s=compile_s)


def _load_for_run(config: Path, games: int | None, sets: list[str] | None = None, **overrides: Any):
    """Load ``config`` with its ``--set`` overrides ``sets`` and apply ``--games`` (or
    ``[checks] games``) and ``overrides``.

    Returns (CompiledRun, checks). Raises ConfigError.
    """
    from sim.check import checks_of
    from sim.cli_common import compile_checked
    from sim.overrides import load, parse_sets

    ovs = parse_sets(sets)
    checks = checks_of(load(config, ovs))
    return compile_checked(config, sets=ovs, games=games or checks.games, **overrides), checks


def baseline(
    config: Annotated[Path, typer.Argument(help="config file (TOML) to run")],
    games: GamesOpt = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="baseline file to write (default: reports/baselines/<run>.json)")
    ] = None,
    threads: ThreadsOpt = None,
    sets: SetOpt = None,
) -> None:
    """Run CONFIG and record its metrics as the baseline `sim check` compares against.
    A run whose records are malformed (see sim.check.files) writes nothing and exits 2."""
    from sim.check import check_records, make_baseline, min_detectable_change
    from sim.errors import ConfigError, OutputError
    from sim.jsonio import write_json
    from sim.outputs import check_target, is_sim_json
    from sim.report.format import fmt_number

    _check_flags(threads)
    owned = is_sim_json("sim-baseline/")
    try:
        run, checks = _load_for_run(config, games, sets)
        dest = check_target(out if out is not None else default_baseline_path(run.cfg))
        if dest.exists() and not owned(dest):
            raise OutputError(str(dest), "exists and is not a sim baseline; remove it or choose another --out")
        _check_metrics(run, checks)
    except (ConfigError, OutputError) as e:
        raise _fail_input(e) from None
    result = _run(run, threads)
    data = make_baseline(result.summary, result.manifest)
    entry = _per_game_entry(result)
    if entry is not None:
        data["per_game"] = entry
    try:
        check_records(data["metrics"], dest)  # a baseline `sim check` would refuse: do not write it
        path = write_json(data, dest, owned)
    except (ConfigError, OutputError) as e:
        raise _fail_input(e) from None
    con = _console()
    con.print(f"baseline written: {path} ({len(data['metrics'])} metrics, {data['games']} games, "
              f"seed {data['seed']}, config {data['config_hash']}, sim {data['package_version']}, "
              f"rev {data['git_revision'] or '?'})", highlight=False)
    rates = [r for r in data["metrics"] if r.get("kind") == "proportion" and r.get("n")]
    if rates:
        m = sum(1 for r in data["metrics"] if r.get("kind") in ("proportion", "share", "mean")) or 1
        worst = max(rates, key=lambda r: min_detectable_change(r["value"], r["n"], r["n"], checks.alpha / m,
                                                               checks.power))
        d = min_detectable_change(worst["value"], worst["n"], worst["n"], checks.alpha / m, checks.power)
        con.print(f"planning: a check at {data['games']} games detects rate changes of about "
                  f"{100 * d:.2f} pp (worst case {worst['metric']} at {fmt_number(worst['value'], worst)}; "
                  f"{100 * checks.power:.0f}% power, α/{m}); the tolerance is {100 * checks.tolerance:.2f} pp",
                  highlight=False)


def _per_game(result: Any) -> dict | None:
    """Per-game headline outcomes of a finished run (:func:`sim.check.paired.per_game`);
    None for a result without a games frame or a run."""
    from sim.check.paired import per_game

    run, df = getattr(result, "run", None), getattr(result, "df", None)
    if run is None or df is None:
        return None
    return per_game(df, run.cfg, run.game.mode, run.game.name)


def _per_game_entry(result: Any) -> dict | None:
    """The baseline's compact ``per_game`` entry (what a paired check needs), or None."""
    from sim.check.paired import encode

    pg = _per_game(result)
    return None if pg is None else encode(pg)


def check(
    config: Annotated[Path, typer.Argument(help="config file (TOML) to run and check")],
    games: GamesOpt = None,
    baseline: Annotated[
        Path | None, typer.Option("--baseline", help="baseline file (default: reports/baselines/<run>.json)")
    ] = None,
    junit: Annotated[Path | None, typer.Option("--junit", help="also write JUnit XML here (for CI)")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="also write the check as JSON here")] = None,
    threads: ThreadsOpt = None,
    sets: SetOpt = None,
) -> None:
    """Run CONFIG again and compare it with its baseline, metric by metric, and check the
    config's balance targets. Exit 0 pass, 1 regression or missed target, 2 bad input."""
    from sim.check import check_to_json, check_to_junit, load_baseline, render_check
    from sim.config import excerpt
    from sim.errors import ConfigError, OutputError
    from sim.jsonio import write_json
    from sim.outputs import check_target, is_sim_json, is_sim_junit, write_text

    _check_flags(threads)
    json_owned = is_sim_json("sim-check/")
    try:
        for flag, p, owned, what in (("--json", json_out, json_owned, "sim check JSON"),
                                     ("--junit", junit, is_sim_junit, "sim check JUnit file")):
            if p is None:
                continue
            try:
                t = check_target(p)
                if t.exists() and not owned(t):
                    raise OutputError(str(t), f"exists and is not a {what}; remove it or choose another path")
            except OutputError as e:
                raise OutputError(f"{flag} {e.path}", e.reason) from None
        if json_out is not None and junit is not None and check_target(json_out) == check_target(junit):
            raise OutputError(str(junit), "--json and --junit name the same file")
        run, checks = _load_for_run(config, games, sets)
        cfg = run.cfg
        base = load_baseline(baseline or default_baseline_path(cfg))
        if base["game"] != cfg.game:
            raise ConfigError(base["_path"], "game",
                              f"baseline is for {excerpt(base['game'])}, {config} plays {cfg.game!r}")
        _check_metrics(run, checks)
    except (ConfigError, OutputError) as e:
        raise _fail_input(e) from None
    try:
        report = _sequential_check(run, base, checks, threads)
    except ConfigError as e:
        raise _fail_input(e) from None
    try:  # written before the table is shown: a failure is then the only output
        if json_out:
            write_json(check_to_json(report), json_out, json_owned)
        if junit:
            write_text(check_to_junit(report), junit, is_sim_junit)
    except OutputError as e:
        raise _fail_input(e) from None
    render_check(report, _console())
    raise typer.Exit(report.exit_code)


def _looks(max_games: int, looks: int) -> list[int]:
    """Game counts of a sequential check's looks: max/2**(looks-1), ..., max/2, max (each at
    least 1, no repeats)."""
    return sorted({max(1, max_games >> k) for k in range(looks)})


def _sequential_check(run: Any, base: dict, checks: Any, threads: int | None):
    """Play and check ``run`` against baseline ``base``: the full games at once when config,
    seed and rules version equal the baseline's (the instant "identical" pass) or when
    ``checks.sequential`` is false; otherwise in looks of doubling game counts (the same game
    indices from 0, so the pairing with the baseline holds) until every gated metric's SPRT
    is decided or one of them is outside its tolerance (the check fails whatever the others
    do) (:func:`sim.check.gate.sequential_decision`). Returns the CheckReport."""
    from sim.check import check_summary
    from sim.check.gate import apply_sequential, sequential_decision
    from sim.compile import compile_run

    cfg = run.cfg
    same = (base.get("config_hash") == cfg.config_hash() and base.get("seed") == cfg.seed
            and base.get("rules_version") in (None, run.game.version))
    if same or not checks.sequential or cfg.games < 2:
        result = _run(run, threads)
        return check_summary(base, result.summary, checks, result.manifest, _per_game(result))
    looks = _looks(cfg.games, checks.looks)
    done: list[int] = []
    for k in looks:
        r = run if k == cfg.games else compile_run(cfg.with_overrides(games=k))
        result = _run(r, threads)
        report = check_summary(base, result.summary, checks, result.manifest, _per_game(result))
        done.append(k)
        state = sequential_decision(report, checks)
        # the question is answered when every gated metric is decided, or one is outside (FAIL)
        if all(v != "open" for v in state.values()) or "outside" in state.values():
            break
    apply_sequential(report, state, checks, k, cfg.games, done)
    return report


def _check_metrics(run: Any, checks: Any) -> None:
    """An unknown ``[checks]`` metric is an error before anything is played (the catalogue is
    :func:`sim.api.metric_names`: a tiny run of the config)."""
    if not checks.targets and not checks.tolerances:
        return
    from sim.api import metric_names
    from sim.check.gate import check_metric_names

    check_metric_names(checks, metric_names(run), run.cfg.source)


def _side(path: Path, sets: Any = ()):
    """Classify a compare argument: ("folder", summary, folder) or ("config", cfg, None);
    ``sets`` (``--set`` overrides) apply to a config only."""
    from sim.check import load_summary
    from sim.overrides import load

    if path.is_dir():
        return "folder", load_summary(path), path
    return "config", load(path, sets), None


def _read_df(folder: Path | None):
    """The games of a report folder (polars), or None when it has none; raises ConfigError
    for a games.parquet polars cannot read."""
    if folder is None or not (folder / "games.parquet").is_file():
        return None
    import polars as pl

    from sim.errors import ConfigError

    try:
        return pl.read_parquet(folder / "games.parquet")
    except (pl.exceptions.PolarsError, OSError) as e:
        from sim.config import cut

        raise ConfigError(str(folder / "games.parquet"), "", f"not a readable parquet file ({cut(str(e), 100)})") \
            from None


def _safe_name(name: str) -> str:
    """A compare folder name from two labels: letters, digits, -, _ and . only, at most 120
    characters."""
    import re

    name = re.sub(r"[^A-Za-z0-9_.-]", "_", name.replace(":", ""))
    if name in ("", ".", ".."):
        name = "compare"
    return name[:120]


def compare(
    a: Annotated[Path, typer.Argument(help="config file or report folder (with summary.json)")],
    b: Annotated[Path, typer.Argument(help="config file or report folder to compare with A")],
    games: CompareGamesOpt = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="folder for compare.json and plots (default: reports/compare/A_vs_B)")
    ] = None,
    threads: ThreadsOpt = None,
    sets: SetOpt = None,
    sets_b: Annotated[list[str] | None, typer.Option(
        "--set-b", metavar="KEY=VALUE",
        help="like --set, for B only: `sim compare X.toml X.toml --set-b KEY=VALUE` compares one change")] = None,
) -> None:
    """Side-by-side table of every metric of A and B with its change and significance, plus
    overlaid plots. Configs are played on the same seed (common random numbers). --set
    applies to every config side, --set-b to B only (after --set)."""
    from sim.check import CRN_NOTE, compare_summaries, compare_to_json, render_compare
    from sim.compile import compile_run
    from sim.errors import ConfigError, OutputError
    from sim.jsonio import write_json
    from sim.outputs import atomic_folder, check_folder_target, is_compare_folder
    from sim.report.compare_plots import compare_plots

    _check_flags(threads)
    con = _console()
    try:
        from sim.overrides import parse_sets

        ovs, ovs_b = parse_sets(sets), parse_sets(sets_b, "--set-b")
        ka, xa, fa = _side(a, ovs)
        kb, xb, fb = _side(b, ovs + ovs_b)
        if ka == "config" and kb == "config" and xa.game != xb.game:
            raise ConfigError(str(b), "game", f"{a} plays {xa.game!r}, {b} plays {xb.game!r}")
        # The side(s) to run take their seed and games count from the other side when it is a
        # report folder, else from A: both runs then share the seed (common random numbers).
        if ka == "folder":
            seed, n = xa.get("seed"), games or xa.get("games")
        elif kb == "folder":
            seed, n = xb.get("seed"), games or xb.get("games")
        else:
            seed, n = xa.seed, games or xa.games
        runs = {}
        for key, kind, x in (("a", ka, xa), ("b", kb, xb)):
            if kind == "config":
                runs[key] = compile_run(x.with_overrides(games=n, seed=seed))
        if out is not None:
            check_folder_target(out, is_compare_folder, "compare")
    except (ConfigError, OutputError) as e:
        raise _fail_input(e) from None
    except (OverflowError, MemoryError, ValueError) as e:  # a game set-up numpy cannot hold
        raise _fail_input(f"the game cannot be set up from these values ({type(e).__name__})") from None

    summaries, dfs, labels, pgs = {}, {}, {}, {}
    for key, kind, x, folder in (("a", ka, xa, fa), ("b", kb, xb, fb)):
        if kind == "folder":
            try:
                summaries[key], dfs[key] = x, _read_df(folder)
            except ConfigError as e:
                raise _fail_input(e) from None
            labels[key] = folder.name
        else:
            result = _run(runs[key], threads)
            summaries[key], dfs[key] = result.summary, result.df
            pgs[key] = _per_game(result)
            labels[key] = runs[key].cfg.run_name
    if labels["a"] == labels["b"]:
        labels = {"a": f"A:{labels['a']}", "b": f"B:{labels['b']}"}
    try:
        rep = compare_summaries(summaries["a"], summaries["b"], labels["a"], labels["b"],
                                per_game_a=pgs.get("a"), per_game_b=pgs.get("b"))
    except ConfigError as e:
        raise _fail_input(e) from None
    if "a" in runs or "b" in runs:
        rep.notes = [n for n in rep.notes if n != CRN_NOTE]
        rep.notes.insert(0, f"ran on seed {seed}, {n} games for both sides: " + CRN_NOTE)
    folder = out or COMPARE_DIR / _safe_name(f"{labels['a']}_vs_{labels['b']}")
    try:  # written before the table is shown: a failure is then the only output
        with atomic_folder(folder, is_compare_folder, "compare") as tmp:
            write_json(compare_to_json(rep), tmp / "compare.json")
            plots = compare_plots(summaries["a"], summaries["b"], labels["a"], labels["b"], tmp,
                                  a_df=dfs["a"], b_df=dfs["b"])
    except OutputError as e:
        raise _fail_input(e) from None
    render_compare(rep, con)
    con.print(f"written: {Path(folder) / 'compare.json'}" + (f" and {len(plots)} plot(s)" if plots else ""),
              highlight=False)
