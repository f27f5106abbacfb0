"""``sim tune``: a typer command function; :mod:`sim.cli` registers it. The work is
:mod:`sim.tune` (the search and the proof) and :mod:`sim.tune_report` (the files). Exit 0
written (or ``--dry-run`` planned), 2 bad input (nothing played, nothing written), 130 / 143
interrupted (the finished trials stay in ``tune.db``; ``--resume`` continues)."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from sim.cli_common import BackendOpt, QuietOpt, SeedOpt, SetOpt, ThreadsOpt, WorkersOpt, exit_error


def tune(
    config: Annotated[Path, typer.Argument(help="config TOML file with a [tune] table", show_default=False)],
    budget: Annotated[Optional[int], typer.Option(
        "--budget", min=1, metavar="TRIALS",
        help="trials of the search, in all (with --resume: including the finished ones); default: [tune] budget")] = None,
    games: Annotated[Optional[int], typer.Option(
        "--games", min=100, help="games of the last rung (the rungs keep their count, each a quarter of the next); "
                                 "default: [tune] rungs")] = None,
    confirm_games: Annotated[Optional[int], typer.Option(
        "--confirm-games", min=1, help="games of the proof on the fresh seed (default: [tune] confirm_games)")] = None,
    minutes: Annotated[Optional[float], typer.Option(
        "--minutes", min=0.01, help="stop the search after this many minutes (the proof follows)")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="continue the search in OUT/tune.db")] = False,
    out: Annotated[Optional[Path], typer.Option(
        "--out", help="output folder (default reports/<config name>-tune)")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="print the plan and the time estimate (from one timed "
                                                           "rung of the config), write nothing")] = False,
    seed: SeedOpt = None,
    threads: ThreadsOpt = None,
    quiet: QuietOpt = False,
    backend: BackendOpt = "local",
    workers: WorkersOpt = 2,
    sets: SetOpt = None,
) -> None:
    """Search the [tune] table's keys for values that meet the targets (every candidate on the
    same games, raced in rungs), prove the best on a fresh seed and compare the recommendation
    with the current config game by game; writes tuned.toml, tune.html / .md / .json and the
    optuna study tune.db."""
    from sim.cli_common import play_flags_problem
    from sim.errors import ConfigError, OutputError
    from sim.outputs import check_folder_target
    from sim.tune import measure_speed, plan_lines, plan_tune
    from sim.tune_report import default_folder, is_tune_folder

    why = play_flags_problem(threads, backend, workers)
    if why:
        raise exit_error(why)
    if out is not None:  # a path that cannot be written is named before anything else is read
        try:
            check_folder_target(out, is_tune_folder, "tune")
        except OutputError as e:
            raise exit_error(f"--out: {e}") from None
    try:
        plan = plan_tune(config, sets=sets, budget=budget, games=games, minutes=minutes, seed=seed,
                         confirm_games=confirm_games)
    except ConfigError as e:
        raise exit_error(str(e)) from None
    dest = out if out is not None else default_folder(plan)
    try:
        dest = check_folder_target(dest, is_tune_folder, "tune")
    except OutputError as e:
        raise exit_error(f"--out: {e}" if out is not None else str(e)) from None
    db = dest / "tune.db"
    if resume and not db.is_file():
        raise exit_error(f"--resume: no search to resume: {db} does not exist")
    if not resume and db.exists() and not dry_run:
        raise exit_error(f"--out: {db} holds a search already: --resume continues it; remove the folder or choose "
                         "another --out to start afresh")
    from sim.cli_common import compile_checked
    from sim.cli_progress import prepare_kernels

    prepare_kernels(compile_checked(config, sets=plan.base_sets, games=plan.rungs[0], seed=plan.seed), quiet=quiet)
    try:
        measure_speed(plan, threads=threads, backend=backend, workers=workers)
    except ConfigError as e:
        raise exit_error(str(e)) from None
    for line in plan_lines(plan):
        typer.echo(line)
    if dry_run:
        return
    from sim.tune import open_study

    dest_existed = dest.exists()
    try:
        dest.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise exit_error(f"--out: {dest}: cannot write: {e.strerror or e}") from None
    created = not db.exists()
    study = None
    t0 = time.perf_counter()
    try:
        study = open_study(plan, db, resume)
        _search(plan, study, threads, backend, workers, quiet)
        finalists, current, comparison = _prove(plan, study, threads, backend, workers, quiet)
    except ConfigError as e:
        raise exit_error(str(e)) from None
    except BaseException as e:
        if isinstance(e, KeyboardInterrupt) or type(e).__name__ == "Interrupted":
            n = _kept(study)
            if n == 0 and created:  # nothing finished: leave nothing behind
                _remove_new(db, None if dest_existed else dest)
                raise
            sys.stderr.write(f"\nstopped ({e or 'interrupted'}): {n} finished trial{'s' if n != 1 else ''} kept in "
                             f"{db}; `sim tune {config} --resume"
                             + (f" --out {out}" if out is not None else "") + "` continues\n")
            sys.stderr.flush()
            raise SystemExit(getattr(e, "code", 130)) from None
        raise
    from sim.tune_report import write_tune

    try:
        path = write_tune(dest, plan, study, finalists, current, comparison, time.perf_counter() - t0, db)
    except OutputError as e:
        raise exit_error(f"--out: {e}" if out is not None else str(e)) from None
    from sim.tune import target_rows
    from sim.tune_report import verdict_lines

    for line in verdict_lines(plan, finalists, target_rows(current.summary, plan.targets), comparison):
        typer.echo(line.replace("**", "").replace("`", ""))
    if (path / "tuned.toml").is_file():
        typer.echo(f"tuned config: {path / 'tuned.toml'}")
    typer.echo(f"tune: {path / 'tune.html'}")


def _kept(study) -> int:
    """Trials of ``study`` that finished (complete or dropped), after marking a running one failed."""
    if study is None:
        return 0
    import optuna

    _close_running(study)
    S = optuna.trial.TrialState
    return len(study.get_trials(deepcopy=False, states=(S.COMPLETE, S.PRUNED)))


def _remove_new(db: Path, dest: Path | None) -> None:
    for p in (db, db.with_name(db.name + "-journal")):
        try:
            p.unlink()
        except OSError:
            pass
    if dest is not None:
        try:
            dest.rmdir()  # the folder this run made, when nothing else is in it
        except OSError:
            pass


def _close_running(study) -> None:
    """Mark a trial the interruption left running as failed, so the study stays clean."""
    import optuna

    for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.RUNNING,)):
        try:
            study._storage.set_trial_state_values(t._trial_id, optuna.trial.TrialState.FAIL)
        except Exception:  # noqa: BLE001 - best effort: a resumed study skips it anyway
            pass


def _say(quiet: bool):
    return (lambda s: None) if quiet else (lambda s: (sys.stderr.write(s + "\n"), sys.stderr.flush()))


def _search(plan, study, threads, backend, workers, quiet) -> None:
    from sim.tune import miss_words, search, simplify

    state = {"best": None}
    bar = _TrialBar(plan.budget, quiet)
    say = bar.say

    def on_trial(t) -> None:
        a = t.user_attrs
        if "infeasible" in a:
            what = f"cannot be set up ({a['infeasible'][:90]})"
        elif a.get("dropped_at") is not None:
            what = f"dropped at rung {a['dropped_at'] + 1} (its miss there {miss_words(plan, a['miss_by_rung'][-1])})"
        elif "objectives" in a:
            m = a["objectives"][0]
            if state["best"] is None or m < state["best"]:
                state["best"] = m
            what = f"miss {miss_words(plan, m)}"
        else:
            what = t.state.name.lower()
        tag = " (simplifying)" if t.user_attrs.get("simplify") else ""
        say(f"trial {t.number:>3}{tag}: {what}; best so far {miss_words(plan, state['best'])}")
        bar.advance()

    with bar:
        search(plan, study, threads=threads, backend=backend, workers=workers, on_trial=on_trial)
        say("simplifying: the best candidate's changes put back one at a time while its miss holds ...")
        simplify(plan, study, threads=threads, backend=backend, workers=workers, on_trial=on_trial)


class _TrialBar:
    """A rich progress bar over the trials on a terminal (the trial lines print above it);
    off a terminal the trial lines alone, on stderr; nothing with ``quiet``."""

    def __init__(self, total: int, quiet: bool):
        self.total, self.quiet = total, quiet
        self.progress = None
        self.task = None

    def __enter__(self):
        if not self.quiet and sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self.progress = Progress(TextColumn("[bold]trials"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                                     console=Console(stderr=True))
            self.progress.__enter__()
            self.task = self.progress.add_task("trials", total=self.total)
        return self

    def __exit__(self, *exc):
        if self.progress is not None:
            self.progress.__exit__(*exc)
        return False

    def say(self, line: str) -> None:
        if self.quiet:
            return
        if self.progress is not None:
            self.progress.console.print(line, markup=False, highlight=False)
        else:
            sys.stderr.write(line + "\n")
            sys.stderr.flush()

    def advance(self) -> None:
        if self.progress is not None:
            self.progress.advance(self.task)


def _prove(plan, study, threads, backend, workers, quiet):
    from sim.tune import paired_comparison, prove, recommendation

    say = _say(quiet)
    say(f"proof: the best {plan.table.top} candidates and the config on {plan.confirm_games:,} games of seed "
        f"{plan.confirm_seed} ...")
    finalists, current = prove(plan, study, threads=threads, backend=backend, workers=workers)
    rec = recommendation(finalists)
    comparison = paired_comparison(current, rec) if rec is not None else None
    return finalists, current, comparison
