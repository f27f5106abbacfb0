"""``sim sweep``: a typer command function; :mod:`sim.cli` registers it
(``app.command("sweep")(sweep)``). The work is :mod:`sim.sweep`. Exit 0 written, 2 bad
input (a bad ``--param`` / ``[sweep]`` key or value at any point, an output that cannot be
written; nothing played, nothing written)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from sim.cli_common import BackendOpt, QuietOpt, SeedOpt, SetOpt, ThreadsOpt, WorkersOpt, exit_error


def sweep(
    config: Annotated[Path, typer.Argument(help="config TOML file", show_default=False)],
    param: Annotated[Optional[list[str]], typer.Option(
        "--param", metavar="KEY=V1,V2,...",
        help="a dotted config key and its values (TOML values, comma-separated; repeatable: the grid is every "
             "combination); default: the config's [sweep] table")] = None,
    games: Annotated[Optional[int], typer.Option(
        "--games", min=1, help="games per point (default: [sweep] games, else [checks] games, else the config's)")] = None,
    seed: SeedOpt = None,
    out: Annotated[Optional[Path], typer.Option("--out", help="sweep folder (default reports/<config name>-sweep)")] = None,
    threads: ThreadsOpt = None,
    quiet: QuietOpt = False,
    backend: BackendOpt = "local",
    workers: WorkersOpt = 2,
    reference: Annotated[Optional[str], typer.Option(
        "--reference", metavar="V",
        help="the point the changes are measured from: pNN, or a value of the swept key (one-parameter grids); "
             "default: the config's own value when the grid holds it, else the first point")] = None,
    zip_keys: Annotated[bool, typer.Option(
        "--zip", help="the --param keys move in lockstep (point i takes the i-th value of each; every list as "
                      "long) instead of every combination: linked keys such as a start speed and its price list")] = False,
    sets: SetOpt = None,
) -> None:
    """Play the config at every point of a grid of key values, all on the same seed (--seed,
    default the config's), and write sweep.html / sweep.md (headline metrics per point, their
    changes from the reference point paired game by game, plots against the parameter),
    sweep.parquet and each point's summary and config."""
    from sim.cli_common import play_flags_problem
    from sim.errors import ConfigError, OutputError
    from sim.outputs import check_folder_target
    from sim.sweep import default_folder, is_sweep_folder, plan_sweep, resolve_reference

    why = play_flags_problem(threads, backend, workers)
    if why:
        raise exit_error(why)
    try:
        plan = plan_sweep(config, param, games=games, seed=seed, sets=sets, zip_keys=zip_keys or None)
        ref = resolve_reference(plan, reference)
    except ConfigError as e:
        raise exit_error(str(e)) from None
    dest = out if out is not None else default_folder(plan)
    try:
        check_folder_target(dest, is_sweep_folder, "sweep")
    except OutputError as e:
        raise exit_error(f"--out: {e}" if out is not None else str(e)) from None
    from sim.cli_progress import progress_bar
    from sim.sweep import play_sweep, write_sweep

    label = f"{plan.name} sweep ({len(plan.points)} points)"
    with progress_bar(label, plan.total_games, enabled=not quiet and sys.stderr.isatty(),
                      title=plan.points[0].run.game.title if plan.points else None, quiet=quiet) as on_progress:
        play_sweep(plan, threads=threads, on_progress=on_progress, backend=backend, workers=workers)
    try:
        path = write_sweep(dest, plan, reference=ref)
    except OutputError as e:
        raise exit_error(f"--out: {e}" if out is not None else str(e)) from None
    from sim.cli_regress import _console
    from sim.sweep import sweep_table

    console = _console()
    console.print(sweep_table(plan, ref, width=console.width))
    typer.echo(f"sweep: {path / 'sweep.html'}")
