"""``sim baseline``, ``sim check`` and ``sim compare``: balance regression for CI.

Plain typer command functions; :mod:`sim.cli` registers them (``app.command("check")(check)``).
Exit codes: 0 pass, 1 a regression or a missed balance target, 2 bad input (config errors,
missing or malformed baseline, a baseline of another game, a target matching no metric).

Heavy modules (numba kernels, polars, statsmodels, rich) load inside the commands.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

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

    _console(stderr=True).print(Text.assemble(("error:", "bold red"), f" {err}"), soft_wrap=True, highlight=False)
    return typer.Exit(2)


def default_baseline_path(cfg: Any) -> Path:
    """``reports/baselines/<run name>.json`` (relative to the working directory)."""
    return BASELINE_DIR / f"{cfg.run_name}.json"


def _run(run: Any, threads: int | None):
    """Play a CompiledRun through :func:`sim.api.run_config` (a progress bar on a terminal);
    returns its RunOutput."""
    from sim.api import run_config
    from sim.cli_progress import progress_bar

    with progress_bar(run.cfg.run_name, run.cfg.games) as on_progress:
        return run_config(run, threads=threads, on_progress=on_progress)


def _load_for_run(config: Path, games: int | None, **overrides: Any):
    """Load ``config`` and apply ``--games`` (or ``[checks] games``) and ``overrides``.

    Returns (CompiledRun, checks). Raises ConfigError.
    """
    from sim.check import checks_of
    from sim.compile import compile_run
    from sim.config import load

    cfg = load(config)
    checks = checks_of(cfg)
    return compile_run(cfg.with_overrides(games=games or checks.games, **overrides)), checks


def baseline(
    config: Annotated[Path, typer.Argument(help="config file (TOML) to run")],
    games: GamesOpt = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="baseline file to write (default: reports/baselines/<run>.json)")
    ] = None,
    threads: ThreadsOpt = None,
) -> None:
    """Run CONFIG and record its metrics as the baseline `sim check` compares against.
    A run whose records are malformed (see sim.check.files) writes nothing and exits 2."""
    from sim.check import check_records, make_baseline, min_detectable_change
    from sim.errors import ConfigError
    from sim.jsonio import write_json
    from sim.report.format import fmt_number

    try:
        run, checks = _load_for_run(config, games)
    except ConfigError as e:
        raise _fail_input(e) from None
    cfg = run.cfg
    result = _run(run, threads)
    data = make_baseline(result.summary, result.manifest)
    dest = out or default_baseline_path(cfg)
    try:
        check_records(data["metrics"], dest)
    except ConfigError as e:  # a baseline `sim check` would refuse: do not write it
        raise _fail_input(e) from None
    path = write_json(data, dest)
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


def check(
    config: Annotated[Path, typer.Argument(help="config file (TOML) to run and check")],
    games: GamesOpt = None,
    baseline: Annotated[
        Path | None, typer.Option("--baseline", help="baseline file (default: reports/baselines/<run>.json)")
    ] = None,
    junit: Annotated[Path | None, typer.Option("--junit", help="also write JUnit XML here (for CI)")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="also write the check as JSON here")] = None,
    threads: ThreadsOpt = None,
) -> None:
    """Run CONFIG again and compare it with its baseline, metric by metric, and check the
    config's balance targets. Exit 0 pass, 1 regression or missed target, 2 bad input."""
    from sim.check import check_summary, check_to_json, check_to_junit, load_baseline, render_check
    from sim.errors import ConfigError
    from sim.jsonio import write_json

    try:
        run, checks = _load_for_run(config, games)
        cfg = run.cfg
        base = load_baseline(baseline or default_baseline_path(cfg))
        if base["game"] != cfg.game:
            raise ConfigError(base["_path"], "game", f"baseline is for {base['game']!r}, {config} plays {cfg.game!r}")
    except ConfigError as e:
        raise _fail_input(e) from None
    result = _run(run, threads)
    try:
        report = check_summary(base, result.summary, checks, result.manifest)
    except ConfigError as e:
        raise _fail_input(e) from None
    render_check(report, _console())
    if json_out:
        write_json(check_to_json(report), json_out)
    if junit:
        junit.parent.mkdir(parents=True, exist_ok=True)
        junit.write_text(check_to_junit(report), encoding="utf-8")
    raise typer.Exit(report.exit_code)


def _side(path: Path):
    """Classify a compare argument: ("folder", summary, folder) or ("config", cfg, None)."""
    from sim.check import load_summary
    from sim.config import load

    if path.is_dir():
        return "folder", load_summary(path), path
    return "config", load(path), None


def _read_df(folder: Path | None):
    if folder is None or not (folder / "games.parquet").is_file():
        return None
    import polars as pl

    return pl.read_parquet(folder / "games.parquet")


def compare(
    a: Annotated[Path, typer.Argument(help="config file or report folder (with summary.json)")],
    b: Annotated[Path, typer.Argument(help="config file or report folder to compare with A")],
    games: CompareGamesOpt = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="folder for compare.json and plots (default: reports/compare/A_vs_B)")
    ] = None,
    threads: ThreadsOpt = None,
) -> None:
    """Side-by-side table of every metric of A and B with its change and significance, plus
    overlaid plots. Configs are played on the same seed (common random numbers)."""
    from sim.check import CRN_NOTE, compare_summaries, compare_to_json, render_compare
    from sim.compile import compile_run
    from sim.errors import ConfigError
    from sim.jsonio import write_json
    from sim.report.compare_plots import compare_plots

    con = _console()
    try:
        ka, xa, fa = _side(a)
        kb, xb, fb = _side(b)
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
    except ConfigError as e:
        raise _fail_input(e) from None

    summaries, dfs, labels = {}, {}, {}
    for key, kind, x, folder in (("a", ka, xa, fa), ("b", kb, xb, fb)):
        if kind == "folder":
            summaries[key], dfs[key] = x, _read_df(folder)
            labels[key] = folder.name
        else:
            result = _run(runs[key], threads)
            summaries[key], dfs[key] = result.summary, result.df
            labels[key] = runs[key].cfg.run_name
    if labels["a"] == labels["b"]:
        labels = {"a": f"A:{labels['a']}", "b": f"B:{labels['b']}"}
    try:
        rep = compare_summaries(summaries["a"], summaries["b"], labels["a"], labels["b"])
    except ConfigError as e:
        raise _fail_input(e) from None
    if "a" in runs or "b" in runs:
        rep.notes = [n for n in rep.notes if n != CRN_NOTE]
        rep.notes.insert(0, f"ran on seed {seed}, {n} games for both sides: " + CRN_NOTE)
    render_compare(rep, con)

    folder = out or COMPARE_DIR / f"{labels['a']}_vs_{labels['b']}".replace(":", "").replace("/", "_")
    write_json(compare_to_json(rep), Path(folder) / "compare.json")
    plots = compare_plots(summaries["a"], summaries["b"], labels["a"], labels["b"], Path(folder),
                          a_df=dfs["a"], b_df=dfs["b"])
    con.print(f"written: {Path(folder) / 'compare.json'}" + (f" and {len(plots)} plot(s)" if plots else ""),
              highlight=False)
