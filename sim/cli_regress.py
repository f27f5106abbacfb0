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
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from sim.cli_common import BackendOpt, QuietOpt, SeedOpt, SetOpt, ThreadsOpt, WorkersOpt

BASELINE_DIR = Path("reports") / "baselines"
COMPARE_DIR = Path("reports") / "compare"

GamesOpt = Annotated[
    int | None,
    typer.Option("--games", min=1, help="games to play (default: [checks] games, else the config's games)"),
]
CompareGamesOpt = Annotated[
    int | None,
    typer.Option("--games", min=1, help="games for each config side (default: A's [checks] games, else A's "
                 "games; with a report folder on one side, the folder's games)"),
]


def _console(stderr: bool = False):
    import os

    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    # a terminal's own width, or COLUMNS when set (`COLUMNS=80 sim compare ...`); else 160 (CI logs)
    sized = stream.isatty() or os.environ.get("COLUMNS", "").strip().isdigit()
    return Console(file=stream, width=None if sized else 160, highlight=False)


def _fail_input(err: Exception) -> typer.Exit:
    """Print a bad-input error (one line, never wrapped, markup in it not interpreted) and
    return the Exit(2) to raise."""
    from rich.text import Text

    from sim.cli_common import one_line

    _console(stderr=True).print(Text.assemble(("error:", "bold red"), f" {one_line(str(err))}"), soft_wrap=True,
                                highlight=False)
    return typer.Exit(2)


def _flagged(flag: str, given, err: Exception) -> str:
    """``err`` prefixed with the flag that named the path (``--out: ...``) when the flag was
    given, else as it is (the default path)."""
    return f"{flag}: {err}" if given is not None else str(err)


@dataclass(frozen=True)
class Play:
    """The common play flags of a command (``--threads``, ``--quiet``, ``--backend``,
    ``--workers``: :mod:`sim.cli_common`)."""

    threads: int | None = None
    quiet: bool = False
    backend: str = "local"
    workers: int = 2


def _check_flags(play: Play) -> None:
    """Exit 2 (one line) when a common play flag is out of range."""
    from sim.cli_common import play_flags_problem

    why = play_flags_problem(play.threads, play.backend, play.workers)
    if why:
        raise _fail_input(why)


def default_baseline_path(cfg: Any) -> Path:
    """``reports/baselines/<run name>.json`` (relative to the working directory)."""
    return BASELINE_DIR / f"{cfg.run_name}.json"


def _run(run: Any, play: Play):
    """Play a CompiledRun through :func:`sim.api.run_config` on ``play``'s backend (a
    progress bar on a terminal unless ``--quiet``); returns its RunOutput."""
    from sim.api import run_config
    from sim.cli_progress import prepare_kernels, progress_bar

    shown = not play.quiet and sys.stderr.isatty()
    compile_s = prepare_kernels(run, enabled=shown, quiet=play.quiet)
    with progress_bar(run.cfg.run_name, run.cfg.games, enabled=shown) as on_progress:
        return run_config(run, threads=play.threads, on_progress=on_progress, backend=play.backend,
                          workers=play.workers, compile_s=compile_s)


def load_for_run(config: Path, games: int | None, sets: list[str] | None = None, **overrides: Any):
    """Load ``config`` with its ``--set`` overrides ``sets`` and apply ``--games`` (or
    ``[checks] games``) and ``overrides``: what ``sim baseline`` and ``sim check`` play (and
    ``sim validate`` checks).

    Returns (CompiledRun, checks). Raises ConfigError (a ``[checks] games`` too large for
    this machine names ``checks.games``).
    """
    from sim.check import checks_of
    from sim.cli_common import compile_checked
    from sim.overrides import load, parse_sets

    ovs = parse_sets(sets)
    checks = checks_of(load(config, ovs))
    origins = {"games": "checks.games"} if games is None and checks.games else None
    return compile_checked(config, sets=ovs, origins=origins, games=games or checks.games, **overrides), checks


def baseline(
    config: Annotated[Path, typer.Argument(help="config file (TOML) to run")],
    games: GamesOpt = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="baseline file to write (default: reports/baselines/<run>.json)")
    ] = None,
    seed: SeedOpt = None,
    threads: ThreadsOpt = None,
    quiet: QuietOpt = False,
    backend: BackendOpt = "local",
    workers: WorkersOpt = 2,
    sets: SetOpt = None,
) -> None:
    """Run CONFIG and record its metrics as the baseline `sim check` compares against (with
    the effective config, so a failed check can list the keys that changed). A run whose
    records are malformed (see sim.check.files) writes nothing and exits 2."""
    from sim.check import check_records, make_baseline, min_detectable_change
    from sim.check.configdiff import effective_config
    from sim.errors import ConfigError, OutputError
    from sim.jsonio import write_json
    from sim.outputs import check_target, is_sim_json
    from sim.report.format import fmt_number

    play = Play(threads, quiet, backend, workers)
    _check_flags(play)
    owned = is_sim_json("sim-baseline/")
    try:
        run, checks = load_for_run(config, games, sets, seed=seed)
        dest = check_target(out if out is not None else default_baseline_path(run.cfg))
        if dest.exists() and not owned(dest):
            raise OutputError(str(dest), "exists and is not a sim baseline; remove it or choose another --out")
        _check_metrics(run, checks)
    except ConfigError as e:
        raise _fail_input(e) from None
    except OutputError as e:
        raise _fail_input(_flagged("--out", out, e)) from None
    result = _run(run, play)
    data = make_baseline(result.summary, result.manifest)
    data["config"] = effective_config(run.cfg)
    entry = _per_game_entry(result)
    if entry is not None:
        data["per_game"] = entry
    try:
        check_records(data["metrics"], dest)  # a baseline `sim check` would refuse: do not write it
        path = write_json(data, dest, owned)
    except ConfigError as e:
        raise _fail_input(e) from None
    except OutputError as e:
        raise _fail_input(_flagged("--out", out, e)) from None
    con = _console()
    con.print(f"baseline written: {path} ({len(data['metrics'])} metrics, {data['games']} games, "
              f"seed {data['seed']}, config {data['config_hash']}, sim {data['package_version']}, "
              f"rev {data['git_revision'] or '?'})", highlight=False)
    from sim.check.paired import headline_patterns, is_headline

    pats = headline_patterns(str(data.get("game")))
    gated = [r for r in data["metrics"] if is_headline(r, pats) and r.get("kind") in ("proportion", "share", "mean")]
    rates = [r for r in gated if r.get("kind") == "proportion" and r.get("n")]
    if rates:
        m = len(gated) or 1

        def mdc(r):  # trials capped at the games: a rate per seat appearance has several a game
            n = min(int(r["n"]), int(data["games"] or r["n"]))
            return min_detectable_change(r["value"], n, n, checks.alpha / m, checks.power)

        worst = max(rates, key=mdc)
        con.print(f"planning: a check at {data['games']} games on another seed (unpaired) detects rate changes of "
                  f"about {100 * mdc(worst):.2f} pp (worst case {worst['metric']} at "
                  f"{fmt_number(worst['value'], worst)}; {100 * checks.power:.0f}% power, α/{m} over the gated "
                  f"headline metrics); the tolerance is {100 * checks.tolerance:.2f} pp", highlight=False)


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
    seed: Annotated[int | None, typer.Option(
        "--seed", help="play on this seed, not the config's: the games are then not the baseline's, the check "
        "compares unpaired")] = None,
    show_all: Annotated[bool, typer.Option(
        "--all", help="print every table and note on a pass too (a pass prints a few lines; --json has all)")] = False,
    threads: ThreadsOpt = None,
    quiet: QuietOpt = False,
    backend: BackendOpt = "local",
    workers: WorkersOpt = 2,
    sets: SetOpt = None,
) -> None:
    """Run CONFIG again and compare it with its baseline, metric by metric, and check the
    config's balance targets. Exit 0 pass, 1 regression or missed target, 2 bad input. A
    failed check lists the config keys that differ from the baseline's."""
    from sim.check import check_to_json, check_to_junit, load_baseline, render_check
    from sim.config import excerpt
    from sim.errors import ConfigError, OutputError
    from sim.jsonio import write_json
    from sim.outputs import check_target, is_sim_json, is_sim_junit, write_text

    play = Play(threads, quiet, backend, workers)
    _check_flags(play)
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
        run, checks = load_for_run(config, games, sets, seed=seed)
        cfg = run.cfg
        try:
            base = load_baseline(baseline or default_baseline_path(cfg))
        except ConfigError as e:  # the message names the flag the file is given with
            raise ConfigError(f"--baseline {e.file}", e.key, e.reason) from None
        if base["game"] != cfg.game:
            raise ConfigError(f"--baseline {base['_path']}", "game",
                              f"baseline is for {excerpt(base['game'])}, {config} plays {cfg.game!r}")
        _check_metrics(run, checks)
        _check_baseline_metrics(base, run)
    except (ConfigError, OutputError) as e:
        raise _fail_input(e) from None
    try:
        report = _sequential_check(run, base, checks, play)
    except ConfigError as e:
        raise _fail_input(e) from None
    if seed is not None and seed != base.get("seed"):
        report.notes.insert(0, f"--seed {seed}: played on seed {seed}, the baseline on seed {base.get('seed')}: "
                            "not the same games, so every metric is compared unpaired (no common random numbers)")
    if not report.passed or report.moved or base.get("config_hash") != cfg.config_hash():
        report.notes.append(_changed_keys_note(base, cfg))
    try:  # written before the table is shown: a failure is then the only output
        if json_out:
            write_json(check_to_json(report), json_out, json_owned)
        if junit:
            write_text(check_to_junit(report), junit, is_sim_junit)
    except OutputError as e:
        raise _fail_input(e) from None
    render_check(report, _console(), show_all=show_all, json_path=json_out)
    raise typer.Exit(report.exit_code)


def _refuse_unknown_metrics(records: list, names: Any, source: str, game: str, again: str) -> None:
    """Raise ConfigError (naming ``source`` and the first bad record) when records of
    ``records`` name metrics not in ``names`` (game ``game``'s catalogue): stale records or
    another game's, which no run of that game produces. ``again``: the command that makes a
    good file."""
    from sim.config import excerpt
    from sim.errors import ConfigError

    bad = [i for i, r in enumerate(records) if r.get("metric") not in names]
    if bad:
        i = bad[0]
        raise ConfigError(source, f"metrics[{i}].metric",
                          f"{excerpt(records[i].get('metric'))} is not a metric of {game} "
                          f"({len(bad):,} such record{'s' if len(bad) != 1 else ''}); {again}")


def _check_baseline_metrics(base: dict, run: Any) -> None:
    """Refuse (ConfigError naming ``--baseline``) a baseline holding records of metrics the
    game's metric catalogue does not have: they would otherwise pass unnoticed as
    baseline-only records."""
    from sim.api import metric_names

    _refuse_unknown_metrics(base["metrics"], metric_names(run), f"--baseline {base['_path']}", run.game.name,
                            "record the baseline again with `sim baseline CONFIG`")


def _looks(max_games: int, looks: int) -> list[int]:
    """Game counts of a sequential check's looks: max/2**(looks-1), ..., max/2, max (each at
    least 1, no repeats)."""
    return sorted({max(1, max_games >> k) for k in range(looks)})


def _changed_keys_note(base: dict, cfg: Any) -> str:
    """One note: the config keys whose effective values differ between the baseline and
    ``cfg`` (``key: baseline -> now``), or why they cannot be known."""
    from sim.check.configdiff import defaults_of, diff, effective_config, fmt_value, split_new_defaults

    old = base.get("config")
    if not isinstance(old, dict):
        return "changed config keys: baseline has no config to diff (recorded before baselines stored it)"
    changes, added = split_new_defaults(diff(old, effective_config(cfg)), defaults_of(cfg))
    # a key added to the code since the baseline, at its default, is not a change of the config
    tail = ("; keys the baseline predates, at their defaults now (not changes): "
            + ", ".join(f"{k} = {fmt_value(b)}" for k, _a, b in added[:8])
            + (f" and {len(added) - 8} more" if len(added) > 8 else "")) if added else ""
    if not changes:
        return "changed config keys: none (the baseline's effective config is this one)" + tail
    return ("changed config keys (baseline -> now): "
            + "; ".join(f"{k}: {fmt_value(a)} -> {fmt_value(b)}" for k, a, b in changes) + tail)


def _sequential_check(run: Any, base: dict, checks: Any, play: Play):
    """Play and check ``run`` against baseline ``base``: the full games at once when config,
    seed and rules version equal the baseline's (the instant "identical" pass) or when
    ``checks.sequential`` is false; otherwise in looks of doubling game counts (the same game
    indices from 0, so the pairing with the baseline holds) until :func:`sequential_settled`
    (:func:`sim.check.gate.sequential_decision` gives each gated metric's SPRT state); the
    verdict is always the stated rule's at the last look. Returns the CheckReport."""
    from sim.check import check_summary
    from sim.check.gate import apply_sequential, sequential_decision
    from sim.compile import compile_run

    cfg = run.cfg
    same = (base.get("config_hash") == cfg.config_hash() and base.get("seed") == cfg.seed
            and base.get("rules_version") in (None, run.game.version))
    if same or not checks.sequential or cfg.games < 2:
        result = _run(run, play)
        return check_summary(base, result.summary, checks, result.manifest, _per_game(result), cfg.games)
    looks = _looks(cfg.games, checks.looks)
    done: list[int] = []
    for k in looks:
        r = run if k == cfg.games else compile_run(cfg.with_overrides(games=k))
        result = _run(r, play)
        report = check_summary(base, result.summary, checks, result.manifest, _per_game(result), cfg.games)
        done.append(k)
        state = sequential_decision(report, checks)
        if sequential_settled(report, state):
            break
    apply_sequential(report, state, checks, k, cfg.games, done)
    return report


def sequential_settled(report: Any, state: dict[str, str]) -> bool:
    """Whether a sequential check may stop at this look (:func:`_sequential_check`). The SPRT
    only says when to stop; the verdict is the stated rule's (significant and beyond the
    tolerance, :func:`sim.check.gate.check_summary`) at the look it stops at. It stops when a
    gated metric fails by that rule and its SPRT accepts a change of the tolerance (the check
    fails whatever the others do), or when every gated metric's SPRT accepts no change. A
    metric whose SPRT leans to a change the rule does not fail (from about half the
    tolerance), or is undecided, keeps the check playing, up to the most games."""
    rows = {r.label: r for r in report.rows}
    if any(v == "outside" and rows[k].verdict == "FAIL" for k, v in state.items() if k in rows):
        return True
    return all(v == "inside" for v in state.values())


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
        summary = load_summary(path)
        _check_summary_metrics(summary, path / "summary.json")
        return "folder", summary, path
    return "config", load(path, sets), None


def _check_summary_metrics(summary: dict, path: Path) -> None:
    """Refuse (ConfigError naming ``path``) a report folder's summary of an unknown game or
    holding records of metrics its game's catalogue does not have: a comparison would show
    them as real."""
    from sim.config import excerpt
    from sim.errors import ConfigError
    from sim.games import GAMES, get_game
    from sim.metrics import catalogue_names

    if summary.get("game") not in GAMES:
        raise ConfigError(str(path), "game", f"{excerpt(summary.get('game'))} is not a game of this sim "
                          f"({', '.join(sorted(GAMES))})")
    gdef = get_game(summary["game"])
    _refuse_unknown_metrics(summary["metrics"], catalogue_names(gdef), str(path), gdef.name,
                            "run the config again with `sim run CONFIG`")


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


def _folder_config(folder: Path) -> tuple[Any, str]:
    """The RunConfig of a report folder (its ``config.toml``, the config as run), or (None,
    why) when it has none or it does not validate."""
    from sim.errors import ConfigError

    p = Path(folder) / "config.toml"
    if not p.is_file():
        return None, f"{folder} has no config.toml"
    try:
        from sim.config import load

        return load(p), ""
    except (ConfigError, OverflowError, MemoryError, ValueError):
        return None, f"{p} is not a valid config"


def _side_config(kind: str, x: Any, folder: Path | None, run: Any) -> tuple[dict | None, str]:
    """The effective config of one compare side (:func:`sim.check.configdiff.effective_config`):
    the config as played, or a report folder's ``config.toml``; (None, why) when unknown."""
    from sim.check.configdiff import effective_config

    if kind == "config":
        return effective_config(run.cfg if run is not None else x), ""
    cfg, why = _folder_config(folder)
    return (None, why) if cfg is None else (effective_config(cfg), "")


def side_labels(name: str, changes: list[tuple[str, str, str]] | None, shown: int = 2) -> dict[str, str]:
    """Labels of two compare sides of the same name: each names the changed config keys with its
    values (``A: deck.FLR=4`` / ``B: deck.FLR=2``; a key's game section prefix dropped, at most
    ``shown`` keys, then "+N more"), or ``A:name`` / ``B:name`` when no change is known."""
    if not changes:
        return {"a": f"A:{name}", "b": f"B:{name}"}
    def short(key: str) -> str:
        head, _, rest = key.partition(".")
        return rest if rest and "[" not in head and head not in ("checks", "report") and not head.startswith(
            "seats") else key

    more = f" +{len(changes) - shown} more" if len(changes) > shown else ""
    return {side: f"{side.upper()}: " + ", ".join(f"{short(k)}={v[i]}" for k, *v in changes[:shown]) + more
            for i, side in enumerate(("a", "b"))}


def compare(
    a: Annotated[Path, typer.Argument(help="config file or report folder (with summary.json)")],
    b: Annotated[Path, typer.Argument(help="config file or report folder to compare with A")],
    games: CompareGamesOpt = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="folder for compare.html, compare.md, compare.json and the plots "
                                  "(default: reports/compare/A_vs_B)")
    ] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", help="the seed both config sides play (default: A's; with a report folder on one side, "
        "the folder's)")] = None,
    threads: ThreadsOpt = None,
    quiet: QuietOpt = False,
    backend: BackendOpt = "local",
    workers: WorkersOpt = 2,
    show_all: Annotated[bool, typer.Option("--all", help="show every metric on the terminal, not only the "
                                           "headline and the significant ones (compare.md has them all)")] = False,
    sets: SetOpt = None,
    sets_b: Annotated[list[str] | None, typer.Option(
        "--set-b", metavar="KEY=VALUE",
        help="like --set, for B only: `sim compare X.toml X.toml --set-b KEY=VALUE` compares one change")] = None,
) -> None:
    """Compare A with B for people: the verdict first (did anything change significantly?),
    the config keys that differ, then the metrics grouped by question (seats, skill, length,
    failures, game metrics), each group with a one-line answer; compare.html (self-contained),
    compare.md, compare.json and overlaid plots in the output folder. Config sides play the
    same seed and games (common random numbers; headline metrics paired per game index);
    --games defaults to A's [checks] games (e.g. 20,000), not its full games. --set applies to
    every config side, --set-b to B only (after --set)."""
    from sim.check import CRN_NOTE, checks_of, compare_summaries, compare_to_json
    from sim.check.compare_view import build_view, render, render_markdown, view_to_json
    from sim.compile import compile_run
    from sim.errors import ConfigError, OutputError
    from sim.jsonio import write_json
    from sim.outputs import atomic_folder, check_folder_target, is_compare_folder
    from sim.report.compare_plots import compare_plots
    from sim.report.writer import render_html

    play = Play(threads, quiet, backend, workers)
    _check_flags(play)
    con = _console()
    try:
        from sim.overrides import parse_sets

        ovs, ovs_b = parse_sets(sets), parse_sets(sets_b, "--set-b")
        ka, xa, fa = _side(a, ovs)
        kb, xb, fb = _side(b, ovs + ovs_b)
        if ka == "config" and kb == "config" and xa.game != xb.game:
            raise ConfigError(str(b), "game", f"{a} plays {xa.game!r}, {b} plays {xb.game!r}")
        # The side(s) to run take their seed and games count from the other side when it is a
        # report folder (so both share the deals), else from A: [checks] games, else games.
        from_checks = False  # n is A's [checks] games: an error about it names checks.games
        if ka == "folder":
            seed_, n = xa.get("seed"), games or xa.get("games")
        elif kb == "folder":
            seed_, n = xb.get("seed"), games or xb.get("games")
        else:
            seed_, n = xa.seed, games or checks_of(xa).games or xa.games
            from_checks = games is None and bool(checks_of(xa).games)
        if seed is not None:
            seed_ = seed
        runs = {}
        for key, kind, x in (("a", ka, xa), ("b", kb, xb)):
            if kind == "config":
                origins = {"games": "checks.games"} if key == "a" and from_checks else None
                runs[key] = compile_run(x.with_overrides(origins, games=n, seed=seed_))
        if out is not None:
            check_folder_target(out, is_compare_folder, "compare")
    except ConfigError as e:
        raise _fail_input(e) from None
    except OutputError as e:
        raise _fail_input(_flagged("--out", out, e)) from None
    except (OverflowError, MemoryError, ValueError) as e:  # a game set-up numpy cannot hold
        raise _fail_input(f"the game cannot be set up from these values ({type(e).__name__})") from None

    from sim.check.paired import folder_per_game

    summaries, dfs, labels, pgs, why = {}, {}, {}, {}, {}
    for key, kind, x, folder in (("a", ka, xa, fa), ("b", kb, xb, fb)):
        if kind == "folder":
            try:
                summaries[key], dfs[key] = x, _read_df(folder)
            except ConfigError as e:
                raise _fail_input(e) from None
            labels[key] = folder.name
            pgs[key], why[key] = folder_per_game(folder, x, dfs[key])
        else:
            result = _run(runs[key], play)
            summaries[key], dfs[key] = result.summary, result.df
            pgs[key] = _per_game(result)
            labels[key] = runs[key].cfg.run_name
    conf_a, why_a = _side_config(ka, xa, fa, runs.get("a"))
    conf_b, why_b = _side_config(kb, xb, fb, runs.get("b"))
    if conf_a is not None and conf_b is not None:
        from sim.check.configdiff import diff_lines

        changes, changes_why = diff_lines(conf_a, conf_b), ""
    else:
        changes, changes_why = None, "; ".join(w for w in (why_a, why_b) if w)
    default_folder = COMPARE_DIR / _safe_name(f"{labels['a']}_vs_{labels['b']}" if labels["a"] != labels["b"]
                                              else f"A:{labels['a']}_vs_B:{labels['b']}")
    if labels["a"] == labels["b"]:
        labels = side_labels(labels["a"], changes)
    try:
        rep = compare_summaries(summaries["a"], summaries["b"], labels["a"], labels["b"],
                                per_game_a=pgs.get("a"), per_game_b=pgs.get("b"),
                                unpaired_why="; ".join(w for w in why.values() if w))
    except ConfigError as e:
        raise _fail_input(e) from None
    if "a" in runs or "b" in runs:
        rep.notes = [x for x in rep.notes if x != CRN_NOTE]
        rep.notes.insert(0, f"ran on seed {seed_}, {n} games for both sides: " + CRN_NOTE)
    view = build_view(rep, summaries["a"], summaries["b"], changes, changes_why, show_all=show_all)
    folder = out or default_folder
    try:  # written before the table is shown: a failure is then the only output
        with atomic_folder(folder, is_compare_folder, "compare") as tmp:
            plots = compare_plots(summaries["a"], summaries["b"], labels["a"], labels["b"], tmp,
                                  a_df=dfs["a"], b_df=dfs["b"])
            names = [Path(p).name for p in plots]
            write_json({**compare_to_json(rep), **view_to_json(view)}, tmp / "compare.json")
            (tmp / "compare.md").write_text(render_markdown(view, names), encoding="utf-8")
            title = f"sim compare: {labels['a']} vs {labels['b']}"
            html = render_html(render_markdown(view, names, img_prefix="plots/"), title, tmp)
            (tmp / "compare.html").write_text(html, encoding="utf-8")
    except OutputError as e:
        raise _fail_input(_flagged("--out", out, e)) from None
    render(view, con)
    con.print(f"written: {Path(folder) / 'compare.html'} (and compare.md, compare.json"
              + (f", {len(plots)} plot(s))" if plots else ")"), highlight=False, markup=False)
