"""``sim sensitivity``: a typer command function; :mod:`sim.cli` registers it. The work is
:mod:`sim.sensitivity`. Exit 0 written (or ``--dry-run`` planned), 2 bad input (an unknown key,
a key that is not a design parameter, a step or bounds outside the key's range, a group that does
not fit, an output that cannot be written: nothing played, nothing written)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from sim.cli_common import BackendOpt, QuietOpt, SeedOpt, SetOpt, ThreadsOpt, WorkersOpt, exit_error


def sensitivity(
    config: Annotated[Path, typer.Argument(help="config TOML file", show_default=False)],
    keys: Annotated[Optional[str], typer.Option(
        "--keys", metavar="K1,K2,...",
        help="dotted design keys to move (default: [sensitivity] keys, else every design key of the game's "
             "section and each seat's policy where the config mixes policies)")] = None,
    games: Annotated[Optional[int], typer.Option(
        "--games", min=1, help="games per point (default: [sensitivity] games, else [checks] games, else the "
                               "config's)")] = None,
    method: Annotated[Optional[str], typer.Option(
        "--method", help="oat (one step down and up from the config's value, paired intervals) or morris "
                         "(SALib's Morris screening over the keys' bounds: mu*, sigma); default: [sensitivity] "
                         "method, else oat")] = None,
    trajectories: Annotated[Optional[int], typer.Option(
        "--trajectories", min=2, max=100, help="Morris trajectories (points: trajectories x (keys + 1)); default 4")] = None,
    out: Annotated[Optional[Path], typer.Option(
        "--out", help="output folder (default reports/<config name>-sensitivity)")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="print the plan and the time estimate (from a short timed run of the config), write nothing")] = False,
    seed: SeedOpt = None,
    threads: ThreadsOpt = None,
    quiet: QuietOpt = False,
    backend: BackendOpt = "local",
    workers: WorkersOpt = 2,
    sets: SetOpt = None,
) -> None:
    """Rank the config's design parameters by their effect on the balance: each key moved one
    step each way from the config's value (oat) or a Morris screening, every point on the same
    seed; writes sensitivity.html (the five knobs that move seat balance most, a tornado chart
    per headline metric, the table), sensitivity.md / .json / .parquet and every point's
    summary."""
    from sim.cli_common import play_flags_problem
    from sim.errors import ConfigError, OutputError
    from sim.outputs import check_folder_target
    from sim.sensitivity import default_folder, is_sensitivity_folder, plan_lines, plan_sensitivity

    why = play_flags_problem(threads, backend, workers)
    if why:
        raise exit_error(why)
    key_list = [k for k in (keys or "").split(",") if k.strip()] or None
    if keys is not None and not key_list:
        raise exit_error("--keys: give dotted design keys, e.g. clear_for_takeoff.hand_size,clear_for_takeoff.deck.FLR")
    try:
        plan = plan_sensitivity(config, key_list, games=games, seed=seed, sets=sets, method=method,
                                trajectories=trajectories)
    except ConfigError as e:
        raise exit_error(str(e)) from None
    dest = out if out is not None else default_folder(plan)
    if not dry_run:
        try:
            check_folder_target(dest, is_sensitivity_folder, "sensitivity")
        except OutputError as e:
            raise exit_error(f"--out: {e}" if out is not None else str(e)) from None
    from sim.sensitivity import measure_speed

    speed = measure_speed(plan, threads=threads, backend=backend, workers=workers)
    for line in plan_lines(plan, speed):
        typer.echo(line)
    if dry_run:
        return
    from sim.cli_progress import progress_bar
    from sim.sensitivity import play, ranked_table, write_sensitivity

    label = f"{plan.name} sensitivity ({len(plan.points)} points)"
    with progress_bar(label, plan.total_games, enabled=not quiet and sys.stderr.isatty(),
                      title=plan.points[0].run.game.title, quiet=quiet) as on_progress:
        play(plan, threads=threads, on_progress=on_progress, backend=backend, workers=workers)
    try:
        path, records = write_sensitivity(dest, plan)
    except OutputError as e:
        raise exit_error(f"--out: {e}" if out is not None else str(e)) from None
    from sim.cli_regress import _console

    console = _console()
    console.print(ranked_table(plan, records, width=console.width))
    typer.echo(f"sensitivity: {path / 'sensitivity.html'}")
