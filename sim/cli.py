"""`sim` command line (typer). Commands are thin: they parse, call :mod:`sim.api`, print.

Exit codes: 0 success, 1 a failed check (``sim check``), 2 bad input or an output that
cannot be written (one message naming the file, the key and the reason; nothing written),
130 interrupted (SIGINT, Ctrl-C), 143 terminated (SIGTERM): :func:`main` turns both signals
into an exception, so every temporary file and folder is removed on the way out.
"""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from typer.core import TyperGroup
from typer.core import _click as click  # the click typer runs on (typer >= 0.2x vendors its own)

from sim.cli_common import (  # noqa: F401
    BackendOpt,
    QuietOpt,
    SeedOpt,
    SetOpt,
    ThreadsOpt,
    WorkersOpt,
    compile_checked,
    exit_error,
    max_threads,
    one_line,
    play_flags_problem,
    threads_problem,
    workers_problem,
)


class _OneLineGroup(TyperGroup):
    """The app's click group: a usage error (a flag that is not a number, a missing argument)
    is one line ``error: ...`` on stderr with exit code 2, as every other bad input."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        try:
            rv = super().main(args=args, prog_name=prog_name, complete_var=complete_var,
                              standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as e:
            typer.echo(e.ctx.get_help() if e.ctx else e.format_message())
            sys.exit(2)
        except click.exceptions.ClickException as e:
            where = f"{e.ctx.command_path}: " if getattr(e, "ctx", None) is not None else ""
            typer.echo(f"error: {where}{one_line(e.format_message())}", err=True)
            sys.exit(e.exit_code)
        except typer.Abort:
            typer.echo("error: aborted", err=True)
            sys.exit(1)
        if not standalone_mode:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)


app = typer.Typer(cls=_OneLineGroup, no_args_is_help=True, add_completion=True, pretty_exceptions_enable=False,
                  rich_markup_mode=None,
                  help="Monte-Carlo balance simulator for board and card games: `sim run` a config for its "
                       "balance report, `sim check` it in CI, `sim compare` two, `sim skill` to see how much "
                       "skill matters.")


def _version(value: bool) -> None:
    if not value:
        return
    import sim
    from sim.games import available, get_game

    rules = ", ".join(f"{n} rules v{get_game(n).version}" for n in available())
    typer.echo(f"sim {sim.__version__} ({rules})")
    raise typer.Exit(0)


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="print the version of sim and of each game's rules, then exit")] = False,
) -> None:
    """Monte-Carlo balance simulator for board and card games."""


ConfigArg = Annotated[Path, typer.Argument(help="config TOML file", show_default=False)]
GamesOpt = Annotated[Optional[int], typer.Option("--games", help="number of playouts (overrides the config)")]


class Interrupted(BaseException):
    """Raised by the SIGINT / SIGTERM handlers of :func:`main` (a BaseException, like
    KeyboardInterrupt, so no ``except Exception`` swallows it); ``code`` is the exit code."""

    def __init__(self, signum: int):
        self.signum = signum
        self.code = 128 + signum
        super().__init__(signal.Signals(signum).name)


def _on_signal(signum, _frame):
    raise Interrupted(signum)


def main(argv: list[str] | None = None) -> None:
    """The ``sim`` entry point: the typer app with SIGINT and SIGTERM turned into
    :class:`Interrupted` (exit 130 / 143, one line on stderr, temporary outputs removed)."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, _on_signal)
    try:
        app(args=argv, prog_name="sim")
    except Interrupted as e:
        # no second signal may interrupt the clean-up below
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, signal.SIG_IGN)
        sys.stderr.write(f"\nerror: interrupted ({e}); nothing written\n")
        sys.stderr.flush()
        sys.exit(e.code)


def fail(msg: str, code: int = 2) -> None:
    """Print ``error: msg`` (on one line) to stderr and exit with ``code``."""
    raise exit_error(msg, code)


def load_config(path: Path, sets=None, **overrides):
    """Load, validate (with ``--set`` overrides ``sets`` and CLI overrides) and compile a
    config: a :class:`sim.compile.CompiledRun`; exits 2 with one message on bad input."""
    from sim.errors import ConfigError

    try:
        return compile_checked(path, sets=sets, **overrides)
    except ConfigError as e:
        fail(str(e))


def check_threads(threads: int | None) -> None:
    """Exit 2 when ``--threads`` is out of range."""
    why = threads_problem(threads)
    if why:
        fail(why)


def check_play_flags(threads: int | None, backend: str, workers: int) -> None:
    """Exit 2 when a common play flag (``--threads``, ``--backend``, ``--workers``) is out
    of range (:func:`sim.cli_common.play_flags_problem`)."""
    why = play_flags_problem(threads, backend, workers)
    if why:
        fail(why)


@app.command(short_help="Play the config's games and write the balance report")
def run(
    config: ConfigArg,
    games: GamesOpt = None,
    seed: SeedOpt = None,
    out: Annotated[Optional[Path], typer.Option("--out", help="report folder (default reports/<config name>)")] = None,
    threads: ThreadsOpt = None,
    quiet: QuietOpt = False,
    backend: BackendOpt = "local",
    workers: WorkersOpt = 2,
    rows: Annotated[Optional[int], typer.Option(
        "--rows", min=1, help="most rows games.parquet holds (default the config's [report] rows, 1,000,000): a "
        "larger run keeps a sample (every k-th game, every stalled game, the longest); metrics count every game")] = None,
    sets: SetOpt = None,
) -> None:
    """Play the config's games and write the report (html, md, json, parquet, plots)."""
    run_ = load_config(config, sets, games=games, seed=seed)
    cfg = run_.cfg
    check_play_flags(threads, backend, workers)
    from sim.errors import OutputError
    from sim.outputs import check_folder_target, is_sim_report

    dest = Path("reports") / cfg.run_name if out is None else out
    try:
        # the report replaces its folder: never a folder that holds something else
        check_folder_target(dest, is_sim_report, "report")
    except OutputError as e:
        fail(f"--out: {e}" if out is not None else str(e))
    from sim.api import run_config
    from sim.cli_progress import prepare_kernels, progress_bar
    from sim.report import write_report

    try:
        compile_s = prepare_kernels(run_, enabled=not quiet and sys.stderr.isatty(), quiet=quiet)
    except Exception as e:
        _user_policy_failure(run_, e)
        raise
    if run_.users is not None:
        quick_policy_check(run_, quiet)
    with progress_bar(cfg.run_name, cfg.games, enabled=not quiet and sys.stderr.isatty()) as on_progress:
        try:
            result = run_config(run_, threads=threads, on_progress=on_progress, backend=backend, workers=workers,
                                compile_s=compile_s, rows=rows, keep_frame=False)
        except Exception as e:
            _user_policy_failure(run_, e)
            raise
    try:
        path = write_report(dest, cfg, result.gdef, result.rows, result.summary, result.manifest, result.tally)
    except OutputError as e:
        fail(f"--out: {e}" if out is not None else str(e))
    print_summary(result.summary, result.manifest)
    typer.echo(f"report: {path / 'report.html'}")


def quick_policy_check(run_, quiet: bool = False) -> None:
    """The short check of a run's user policies before it plays (``sim policy-check`` with 30
    games, no speed): exits 2 naming the file, the seat, the turn and the choice."""
    from sim.userpol import IllegalChoice, check

    try:
        res = check(run_, games=30, speed_games=0)
    except IllegalChoice as e:
        fail(f"{e} (sim policy-check {run_.cfg.source})")
    if not quiet:
        names = ", ".join(f"{p.label} (sha256 {p.sha256[:12]})" for p in run_.users.policies)
        typer.echo(f"user policies {names}: checked on {res.games} games", err=True)


def _user_policy_failure(run_, e: BaseException) -> None:
    """Exit 2 with the message of a user policy's broken contract when ``e`` is one."""
    if run_.users is None:
        return
    from sim.userpol import compile_error, user_error

    err = compile_error(e, run_.users)
    if err is not None:
        fail(str(err))
    err = user_error(e, run_.users)
    if err is not None:
        from sim.userpol import locate

        g = locate(run_)
        where = f" (game {g} of seed {run_.cfg.seed})" if g is not None else ""
        fail(f"{err}{where}; the run stopped, nothing written")


def progress_unit(summary: dict) -> str:
    """What the tension records of the summary's game count (``GameDef.progress_unit``)."""
    from sim.games import GAMES, get_game

    game = summary.get("game")
    return get_game(game).progress_unit if game in GAMES else "progress points"


def print_summary(summary: dict, manifest: dict) -> None:
    """The short end-of-run table: win rate per seat (or team) with 95 % intervals,
    first-player advantage, stall rate, game length, and the tension (docs/tension.md)."""
    from rich.console import Console
    from rich.table import Table

    from sim.report.format import find, fmt_interval, reshuffles_shown

    recs = summary["metrics"]
    t = Table(title=f"{summary['title']}: {summary['games']:,} games, seed {summary['seed']}")
    t.add_column("metric")
    t.add_column("value [95% interval]", justify="right")
    if summary["mode"] == "competitive":
        rotated = summary.get("rotate_seats", False)
        traits = [str(x) for x in summary.get("seat_traits") or []]  # Yukon's planes: what else sets a seat apart
        for s, label in enumerate(summary["seats"]):
            r = find(recs, "win_rate", seat=s)
            what = ([] if rotated else [label]) + ([traits[s]] if s < len(traits) else [])
            t.add_row(f"win rate seat {s}" + (f" ({'; '.join(what)})" if what else ""), fmt_interval(r))
        for r in recs:
            if r["metric"] == "win_rate" and "policy" in r["by"]:
                t.add_row(f"win rate policy {r['by']['policy']}", fmt_interval(r))
        starts = sorted((r for r in recs if r["metric"] == "win_rate" and set(r["by"]) == {"start_pos"}),
                        key=lambda r: r["by"]["start_pos"])
        for r in starts:  # a game whose first player is drawn (Yukon Airways): by place in the turn order
            k = r["by"]["start_pos"]
            where = " (starts)" if k == 0 else (" (last)" if k == len(starts) - 1 else "")
            t.add_row(f"win rate start position {k}{where}", fmt_interval(r))
        fpa = find(recs, "first_player_advantage")
        label = "start player's advantage" if fpa and fpa.get("doc") else "first-player advantage"
        if fpa and fpa.get("doc") and traits:  # the seats' rates above are their set-ups', not the turn order's
            label += f" (drawn; seats differ by {traits[0].split(':')[0]})"
        t.add_row(label, fmt_interval(fpa))
    else:
        t.add_row("team win rate", fmt_interval(find(recs, "win_rate")))
        t.add_row("loss rate", fmt_interval(find(recs, "loss_rate")))
    t.add_row("stall rate", fmt_interval(find(recs, "stall_rate")))
    unit = (summary.get("catalogue") or {}).get("turns_mean", {}).get("unit", "turns")  # "player turns", "rounds"
    t.add_row(f"{unit} (mean)", fmt_interval(find(recs, "turns_mean")))
    p05, p50, p95 = (find(recs, k) for k in ("turns_p05", "turns_p50", "turns_p95"))
    t.add_row(f"{unit} p05 / p50 / p95", f"{p05['value']:.0f} / {p50['value']:.0f} / {p95['value']:.0f}")
    resh = find(recs, "reshuffles_mean")
    if resh is not None and reshuffles_shown(summary["mode"], resh["value"] > 0):
        t.add_row("reshuffles per game", fmt_interval(resh))
    tension = (("lead_changes", "lead changes per game"), ("decisive_point", "winner led for good after"),
               ("comeback_rate", "comebacks (behind at midpoint)"), ("runaway_rate", "midpoint leader won"),
               ("margin", f"final margin ({progress_unit(summary)})"),
               ("one_short_rate", "lost at the final count by one"), ("closest_call", "closest call (won games)"),
               ("lost_round", "round lost (lost games)"))
    for name, label in tension:
        r = find(recs, name)
        if r is not None and r.get("n"):
            t.add_row(label, fmt_interval(r))
    gps = manifest.get("games_per_s")
    where = (f"{manifest['workers']} dask workers" if manifest.get("backend") == "dask"
             else f"{manifest['threads']} thread(s)")
    t.add_row("speed", f"{gps:,.0f} games/s on {where} ({manifest['wall_s']:.1f} s)" if gps else "-")
    con = Console()
    con.print(t)
    from sim.check.gate import first_player_caveat

    caveat = first_player_caveat(summary)
    if caveat:
        con.print(f"note: first-player advantage: {caveat}", markup=False, highlight=False)
    if summary["mode"] == "competitive" and summary.get("seat_traits"):
        con.print(seat_traits_note(summary), markup=False, highlight=False)


def seat_traits_note(summary: dict) -> str:
    """The terminal's note under a run whose seats start differently (``seat_traits``): the seat
    win rates measure those set-ups, the start positions the turn order."""
    traits = [str(x) for x in summary["seat_traits"]]
    kind = traits[0].split(":")[0] if ":" in traits[0] else "set-up"
    fpa = find_record(summary, "first_player_advantage")
    each = ", ".join(f"seat {i} {t.split(': ', 1)[-1]}" for i, t in enumerate(traits))
    text = f"note: each seat keeps its {kind} ({each}), so the seat win rates compare {kind}s"
    if fpa is not None and fpa.get("doc"):
        text += ("; the start player is drawn each game, so its advantage and the start-position rows measure "
                 "the turn order")
    return text + "."


def find_record(summary: dict, metric: str, **by):
    from sim.report.format import find

    return find(summary.get("metrics") or [], metric, **by)


@app.command(short_help="Print the turn-by-turn log of one game")
def replay(
    config: ConfigArg,
    game_index: Annotated[Optional[int], typer.Argument(
        help="game index to replay (0-based; the same as --game)", show_default=False)] = None,
    game: Annotated[Optional[int], typer.Option("--game", help="game index to replay (0-based)")] = None,
    longest: Annotated[bool, typer.Option("--longest", help="replay the longest game (most turns) of the run")] = False,
    stalled: Annotated[bool, typer.Option("--stalled", help="replay a stalled game of the run (the first)")] = False,
    where: Annotated[Optional[str], typer.Option(
        "--where", metavar="EXPR", help="replay the first game (the longest with --longest) matching a "
        "boolean expression over the games.parquet columns (comparisons, AND, OR, NOT, IN (list), + - * / %; "
        "no functions), e.g. 'flr_played_on_s1 > 10 AND winner = 3'")] = None,
    run_dir: Annotated[Optional[Path], typer.Option(
        "--run", help="report folder to pick from: what `sim run --out` wrote, or a folder holding such folders "
        "(its newest run of this config); default reports/<config name> when it is a run of this config, else "
        "the newest run of it in reports/, else games are played now")] = None,
    games: Annotated[Optional[int], typer.Option(
        "--games", min=1, help="games to play now to pick from when there is no run (default: the config's, at "
        "most 20,000)")] = None,
    seed: SeedOpt = None,
    threads: ThreadsOpt = None,
    quiet: QuietOpt = False,
    backend: BackendOpt = "local",
    workers: WorkersOpt = 2,
    sets: SetOpt = None,
) -> None:
    """Print the turn-by-turn log of one game of the config (same seed, same game index:
    the same game as row N of `sim run`), opening with a summary of the game against the
    run's averages. Pick it by index (`sim replay CONFIG N` or --game N) or from a run
    (--longest, --stalled, --where).
    --threads, --backend and --workers apply when the games to pick from are played now."""
    if game_index is not None and game is not None and game_index != game:
        fail(f"the game index is given twice ({game_index} and --game {game}): give one")
    if game is None:
        game = game_index
    picking = longest or stalled or where is not None
    if game is not None and picking:
        fail("--game names one game; --longest, --stalled and --where pick one from a run: give one or the other")
    if game is None and not picking:
        fail("which game? give --game N, --longest, --stalled or --where EXPR")
    if game is not None and not 0 <= game <= 2**63 - 1:
        fail(f"--game: must be 0..2**63-1, got {game}")
    check_play_flags(threads, backend, workers)
    run_ = load_config(config, sets, seed=seed)
    cfg = run_.cfg
    from sim.api import replay as do_replay
    from sim.errors import ConfigError
    from sim.replay_pick import Games, find_games, select, summary_lines

    try:
        found, why = find_games(cfg, run_dir)
    except ConfigError as e:
        fail(str(e))
    pick = None
    if picking:
        if where is not None:  # refused before anything is played
            from sim.replay_pick import parse_where, play_columns

            try:
                parse_where(where, found.df.columns if found is not None else play_columns(cfg))
            except ConfigError as e:
                fail(str(e))
        if found is None:
            from sim.api import run_config
            from sim.cli_progress import progress_bar
            from sim.replay_pick import PLAY_NOW_MAX

            if games is None and cfg.games > PLAY_NOW_MAX:  # bounded: a million games took minutes
                play = load_config(config, sets, seed=seed, games=PLAY_NOW_MAX)
                typer.echo(f"warning: {why}; playing only the first {PLAY_NOW_MAX:,} of its {cfg.games:,} games now "
                           f"to pick from (`sim run {config}` keeps a run of all of them to pick from; --games N "
                           "plays N now)", err=True)
            else:
                play = run_ if games is None else load_config(config, sets, seed=seed, games=games)
                typer.echo(f"note: {why}; playing its {play.cfg.games:,} games now to pick from (`sim run {config}` "
                           "keeps a run to pick from; --games plays fewer)", err=True)
            n = play.cfg.games
            with progress_bar(cfg.run_name, n, enabled=not quiet and sys.stderr.isatty(), title=play.game.title,
                              quiet=quiet) as on_progress:
                result = run_config(play, threads=threads, on_progress=on_progress, backend=backend, workers=workers,
                                    write_rows=False, keep_frame=True)
            found = Games(result.df, None, f"{n:,} games played now")
        try:
            game, pick, _n = select(found.df, longest=longest, stalled=stalled, where=where)
        except ConfigError as e:
            fail(str(e))
    elif game >= cfg.games:
        typer.echo(f"note: the config plays games 0..{cfg.games - 1}; game {game} is replayed from the same "
                   "seed but has no row in its report", err=True)
    res = do_replay(run_, game)
    head = summary_lines(run_, game, res.row, found, pick, note=why)
    from sim.replay_progress import progress_lines

    show_long(head + res.lines + progress_lines(run_, game))


def _stdout_is_terminal() -> bool:
    return sys.stdout.isatty()


def show_long(lines: list[str]) -> None:
    """Print ``lines``; on a terminal, more lines than it is high go through the pager
    ($PAGER, else less), so a game of thousands of lines can be read and left with q. Piped or
    redirected output is printed whole."""
    import shutil

    text = "\n".join(lines)
    if not (_stdout_is_terminal() and len(lines) > shutil.get_terminal_size((80, 24)).lines and page(text + "\n")):
        typer.echo(text)


def page(text: str) -> bool:
    """Show ``text`` in the pager ($PAGER, else ``less -R``); False when there is none to run
    (the caller prints it)."""
    import os
    import shlex
    import shutil
    import subprocess

    cmd = shlex.split(os.environ.get("PAGER", "")) or (["less", "-R"] if shutil.which("less") else [])
    if not cmd or shutil.which(cmd[0]) is None:
        return False
    try:
        subprocess.run(cmd, input=text, text=True, check=False)
    except OSError:
        return False
    return True


@app.command("export", short_help="Write a report's games and summary as spreadsheets (CSV or Excel)")
def export_cmd(
    report_dir: Annotated[Path, typer.Argument(help="report folder of `sim run` (e.g. reports/<config name>)",
                                               show_default=False)],
    fmt: Annotated[Optional[str], typer.Option(
        "--format", metavar="csv|xlsx", help="csv: a folder of run.csv, summary.csv and games.csv; xlsx: one "
        "workbook with the sheets run, summary and games (default csv)")] = None,
    csv: Annotated[bool, typer.Option("--csv", help="the same as --format csv")] = False,
    out: Annotated[Optional[Path], typer.Option(
        "--out", help="where to write (default beside the report: REPORT_DIR-csv/ or REPORT_DIR.xlsx)")] = None,
) -> None:
    """Write a report folder's games (games.parquet, one row per game) and summary (one row per
    metric record, with its interval and trials) as spreadsheets a designer can open: CSV files
    or an Excel workbook. Only a report folder `sim run` wrote is read."""
    from sim.errors import ConfigError, OutputError
    from sim.export import FORMATS, export

    fmt = None if fmt is None else fmt.lower()
    if csv and fmt not in (None, "csv"):
        fail(f"--csv and --format {fmt} ask for two formats: give one")
    fmt = "csv" if fmt is None else fmt
    if fmt not in FORMATS:
        fail(f"--format: must be one of {', '.join(FORMATS)}, got {fmt!r}")
    try:
        path, n_games, n_metrics = export(report_dir, fmt, out)
    except ConfigError as e:
        fail(str(e))
    except OutputError as e:
        fail(f"--out: {e}" if out is not None else str(e))
    what = "run.csv, summary.csv, games.csv" if fmt == "csv" else "sheets run, summary, games"
    typer.echo(f"exported: {path} ({what}: {n_metrics:,} metric records, {n_games:,} games)")


@app.command(short_help="Check a config without playing it")
def validate(config: ConfigArg, sets: SetOpt = None) -> None:
    """Check a config (syntax, keys, types, feasibility, the metrics its [checks] names
    against the game's metric catalogue) without playing anything: what `sim run` reads, the
    [checks] table as `sim check` / `sim baseline` read it, every point of the [sweep]
    grid as `sim sweep` reads it, the [sensitivity] table's keys, steps, bounds and groups and
    the [tune] table's space, targets and preferences."""
    run_ = load_config(config, sets)
    cfg = run_.cfg
    from sim.cli_regress import load_for_run
    from sim.errors import ConfigError
    from sim.sweep import plan_sweep

    sweep_note = ""
    try:
        check_metric_names(run_)
        load_for_run(config, None, sets)  # [checks] games, as sim check and sim baseline play it
        if cfg.sweep is not None:  # the grid sim sweep plays without --param, every point
            n = len(plan_sweep(config, None, sets=sets).points)
            sweep_note = f", [sweep] {n} point{'s' if n != 1 else ''}"
        if cfg.sensitivity is not None:  # the keys, steps, bounds and groups sim sensitivity reads
            from sim.sensitivity import plan_sensitivity

            sp = plan_sensitivity(config, None, sets=sets)
            nk = len(sp.keys)
            sweep_note += f", [sensitivity] {nk} key{'s' if nk != 1 else ''}, {len(sp.points)} points"
        if cfg.tune is not None:  # the space, targets and preferences sim tune reads
            from sim.tune import plan_tune

            tp = plan_tune(config, sets=sets)
            size = tp.space_size()
            sweep_note += f", [tune] {len(tp.dims)} key{'s' if len(tp.dims) != 1 else ''}, " + \
                ("a continuous space" if size == float("inf") else f"{size:,.0f} candidates")
    except ConfigError as e:
        fail(str(e))
    typer.echo(f"ok: {config} ({cfg.game}, {cfg.n_seats} seats, {cfg.games:,} games, seed {cfg.seed}, "
               f"config hash {cfg.config_hash()}{sweep_note})")


def check_metric_names(run_) -> None:
    """Raise ConfigError when ``[checks]`` names a metric (a target's ``metric`` or a
    tolerance key) that is not in the game's metric catalogue (:func:`sim.metrics.catalogue`),
    naming the key and the closest catalogue names, or a target's ``by`` grouping the metric
    never has. Nothing is played."""
    from sim.check import checks_of
    from sim.check.gate import check_metric_names as check_names
    from sim.config import excerpt
    from sim.errors import ConfigError
    from sim.metrics import catalogue_names, closest_names

    checks = checks_of(run_.cfg)
    if not checks.targets and not checks.tolerances:
        return
    names = catalogue_names(run_.game)
    source = run_.cfg.source
    asked = [(f"checks.targets[{i}].metric", t.metric) for i, t in enumerate(checks.targets)]
    asked += [(f"checks.tolerances.{excerpt(k)[1:-1]}", k.split("[", 1)[0]) for k in checks.tolerances]
    for key, name in asked:
        if name not in names:
            close = closest_names(name, names)
            hint = f"; did you mean {' or '.join(close)}?" if close else ""
            raise ConfigError(source, key, f"unknown metric {excerpt(name)} (not in {run_.game.name}'s "
                              f"metric catalogue){hint}")
    check_names(checks, names, source)


@app.command()
def games() -> None:
    """List the games the simulator knows."""
    from sim.games import available, get_game

    for name in available():
        g = get_game(name)
        typer.echo(f"{name:20s} {g.title} ({g.mode}, {g.min_seats}-{g.max_seats} seats)")


@app.command(short_help="List a game's policies and their weights")
def policies(game: Annotated[str, typer.Argument(help="game name (see `sim games`)")]) -> None:
    """List a game's built-in policies and their weights."""
    import shutil
    import textwrap

    from sim.config import excerpt
    from sim.games import GAMES, get_game

    if game not in GAMES:
        fail(f"unknown game {excerpt(game)}; one of {sorted(GAMES)}")
    g = get_game(game)
    cols = max(60, min(shutil.get_terminal_size((100, 24)).columns, 120))
    for p in g.policies:
        mark = " [scores its options: temperature softens it]" if p.scored else ""
        typer.echo(textwrap.fill(f"{p.name}: {p.doc}{mark}", cols, subsequent_indent="  "))
        if p.lookahead:
            typer.echo(f"    base = {p.base!r}   (the policy its simulations play; a seat may set base = \"...\" "
                       "and base_weights = {...})")
        width = max((len(f"{w} = {v}") for w, v in p.weights.items()), default=0)
        for w, v in p.weights.items():
            head = f"    {f'{w} = {v}':<{width}}   "
            doc = p.weight_docs.get(w, "").replace("``", "")
            typer.echo(textwrap.fill(doc, cols, initial_indent=head, subsequent_indent=" " * len(head)) if doc
                       else head.rstrip())
    from sim.games.base import ENGINE_WEIGHT_DOCS, ENGINE_WEIGHTS

    typer.echo("every policy also takes (the engine's, docs/mistakes.md):")
    for w, v in ENGINE_WEIGHTS.items():
        head = f"    {w} = {v}   "
        typer.echo(textwrap.fill(ENGINE_WEIGHT_DOCS[w], cols, initial_indent=head, subsequent_indent=" " * len(head)))
    typer.echo(textwrap.fill(f"your own: a seat may name a user policy, policy = \"file.py:function\" (a function "
                             f"decorated @user_policy(\"{g.name}\"); docs/policies.md, configs/policies/"
                             f"{g.name}_example.py; check it with sim policy-check CONFIG)", cols))


@app.command(short_help="Print or write the JSON Schema of a game's config")
def schema(
    game: Annotated[str, typer.Argument(help="game name (see `sim games`)")],
    out: Annotated[Optional[Path], typer.Option("--out", help="write the schema to this file (default: stdout)")] = None,
) -> None:
    """Print (or write) the JSON Schema of a game's config file, for editor completion: put
    `#:schema <path to the file>` on the config's first line (taplo / Even Better TOML)."""
    from sim.config import excerpt, json_schema
    from sim.games import GAMES

    if game not in GAMES:
        fail(f"unknown game {excerpt(game)}; one of {sorted(GAMES)}")
    from sim.jsonio import dumps, write_json

    obj = json_schema(game)
    if out is None:
        typer.echo(dumps(obj), nl=False)
        return
    from sim.errors import OutputError
    from sim.outputs import check_target

    def is_schema(p: Path) -> bool:  # replace only a schema file this command wrote: its exact shape
        import json
        import re

        try:
            d = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            return False
        if not isinstance(d, dict) or p.is_symlink() or set(d) != set(obj):
            return False
        m = re.fullmatch(r"sim config: .* \((\w+)\)", str(d.get("title", "")))
        props = d.get("properties")
        return (m is not None and d.get("$schema") == obj["$schema"] and isinstance(props, dict)
                and isinstance(props.get("game"), dict) and props["game"].get("const") == m.group(1)
                and m.group(1) in GAMES)

    try:
        check_target(out)
        write_json(obj, out, owned=is_schema)
    except OutputError as e:
        fail(f"--out: {e}")
    typer.echo(f"schema: {out}")


@app.command(short_help="Does skill matter? Each policy against a field of each other")
def skill(
    config: ConfigArg,
    policies: Annotated[Optional[str], typer.Option(
        "--policies", help="comma-separated policies (or seat labels of the config) to table; default: every policy "
        "of the game")] = None,
    games: Annotated[Optional[int], typer.Option(
        "--games", help="games per cell (default 2000; a competitive game rounds up to a multiple of its number of "
        "seat orders, so that the tested policy sits in every seat equally often: 4 seats, 4! = 24 orders, 2000 "
        "becomes 2016)")] = None,
    lookahead_games: Annotated[Optional[int], typer.Option(
        "--lookahead-games", help="games per cell in which a look-ahead policy (rollout) plays (default: --games)")] = None,
    seed: SeedOpt = None,
    out: Annotated[Optional[Path], typer.Option("--out", help="report folder (default reports/<config name>-skill)")] = None,
    threads: ThreadsOpt = None,
    quiet: QuietOpt = False,
    backend: BackendOpt = "local",
    workers: WorkersOpt = 2,
    sets: SetOpt = None,
    ladder: Annotated[bool, typer.Option(
        "--ladder", help="play the game's skill ladder instead (or the config's [skill] ladder): the whole table at "
        "each level on the same deals, seat win rates, first-player advantage and length per level, and whether each "
        "step of skill pays (docs/mistakes.md)")] = False,
) -> None:
    """Does skill matter? Play one seat of each policy against a field of each policy (rotated
    seats, the same deals in every cell; a cooperative game: each policy as the whole team) and
    write the win-rate table (skill.html, skill.md, skill.json, a heat map). With --ladder: does
    the balance hold for novices and for experts (a chart of seat win rates against level)."""
    run_ = load_config(config, sets=sets, seed=seed)
    cfg = run_.cfg
    check_play_flags(threads, backend, workers)
    if ladder:
        from sim.cli_ladder import run_ladder

        run_ladder(run_, policies, games, lookahead_games, out, threads, quiet, backend, workers)
        return
    from sim import skill as K
    from sim.errors import ConfigError, OutputError
    from sim.outputs import check_folder_target, is_skill_folder

    names = None
    if policies is not None:
        names = [p.strip() for p in policies.split(",") if p.strip()]
    try:
        table = K.plan(cfg, names, K.DEFAULT_GAMES if games is None else games, lookahead_games)
    except ConfigError as e:
        fail(str(e))
    dest = Path("reports") / f"{cfg.run_name}-skill" if out is None else out
    try:
        check_folder_target(dest, is_skill_folder, "skill")
    except OutputError as e:
        fail(f"--out: {e}" if out is not None else str(e))
    from sim.cli_progress import progress_bar

    with progress_bar(f"{cfg.run_name} skill", table.total_games, enabled=not quiet and sys.stderr.isatty(),
                      title=run_.game.title, quiet=quiet) as on_progress:
        K.play_table(table, threads=threads, on_progress=on_progress, backend=backend, workers=workers)
    data = K.summary(table)
    try:
        path = K.write_skill_report(dest, data)
    except OutputError as e:
        fail(f"--out: {e}" if out is not None else str(e))
    print_skill(data)
    typer.echo(f"report: {path / 'skill.html'}")


def print_skill(data: dict) -> None:
    """The skill table on the terminal: the verdict and the win-rate matrix with intervals."""
    from rich.console import Console
    from rich.markdown import Markdown
    from rich.table import Table

    from sim.report.format import fmt_interval

    recs = {(r["by"]["policy"], r["by"].get("field")): r for r in data["metrics"]}
    names = data["policies"]
    con = Console(width=None if sys.stdout.isatty() else 160)
    con.print(Markdown(data["verdict"]))
    if data["mode"] == "competitive":
        t = Table(title=f"{data['title']}: one seat's win rate [95% interval], fair share {data['fair_share']:.1%}")
        t.add_column("policy \\ field")
        for f in names:
            t.add_column(f, justify="right")
        for p in names:
            t.add_row(p, *(fmt_interval(recs[(p, f)]) for f in names))
    else:
        t = Table(title=f"{data['title']}: team win rate [95% interval]")
        t.add_column("team policy")
        t.add_column("win rate", justify="right")
        for p in names:
            t.add_row(p, fmt_interval(recs[(p, None)]))
    con.print(t)


def _register_regression() -> None:
    from sim import cli_regress

    app.command("baseline", short_help="Record the config's metrics as its baseline for `sim check`")(
        cli_regress.baseline)
    app.command("check", short_help="Play the config again and test every metric against its baseline")(
        cli_regress.check)
    app.command("compare", short_help="Compare two configs or runs, the verdict first")(cli_regress.compare)


_register_regression()


def _register_sweep() -> None:
    from sim import cli_sweep

    app.command("sweep", short_help="Play the config at every point of a grid of key values")(cli_sweep.sweep)


_register_sweep()


def _register_sensitivity() -> None:
    from sim import cli_sensitivity

    app.command("sensitivity", short_help="Rank the config's design parameters by their effect on the balance")(
        cli_sensitivity.sensitivity)


_register_sensitivity()


def _register_tune() -> None:
    from sim import cli_tune

    app.command("tune", short_help="Search the config's [tune] keys for values that meet its targets, and prove them")(
        cli_tune.tune)


_register_tune()


def _register_policy() -> None:
    from sim import cli_policy

    app.command("policy-check", short_help="Check a config's user policies (legal, deterministic, blind) and time them")(
        cli_policy.policy_check)


_register_policy()

if __name__ == "__main__":
    main()
