"""``sim skill --ladder`` (:mod:`sim.skill_ladder`): plan, play, write and print a skill ladder."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from sim.cli_common import exit_error


def run_ladder(run_, policies, games, lookahead_games, out, threads, quiet, backend, workers) -> None:
    """Play the ladder of the loaded run's config and write ``skill.html/md/json`` and its chart
    into ``out`` (default ``reports/<config name>-ladder``); bad input exits 2 naming the key."""
    from sim import skill_ladder as LD
    from sim.errors import ConfigError, OutputError
    from sim.outputs import check_folder_target, is_skill_folder

    cfg = run_.cfg
    if policies is not None:
        raise exit_error(f"{cfg.source}: key '--policies': not with --ladder (the ladder names its levels: [skill] ladder)")
    try:
        ladder = LD.plan(cfg, LD.DEFAULT_GAMES if games is None else games, lookahead_games)
    except ConfigError as e:
        raise exit_error(str(e)) from None
    dest = Path("reports") / f"{cfg.run_name}-ladder" if out is None else out
    try:
        check_folder_target(dest, is_skill_folder, "skill")
    except OutputError as e:
        raise exit_error(f"--out: {e}" if out is not None else str(e)) from None
    from sim.cli_progress import progress_bar

    with progress_bar(f"{cfg.run_name} ladder", ladder.total_games, enabled=not quiet and sys.stderr.isatty(),
                      title=run_.game.title, quiet=quiet) as on_progress:
        LD.play(ladder, threads=threads, on_progress=on_progress, backend=backend, workers=workers)
    data = LD.summary(ladder)
    try:
        path = LD.write_report(dest, data)
    except OutputError as e:
        raise exit_error(f"--out: {e}" if out is not None else str(e)) from None
    print_ladder(data)
    typer.echo(f"report: {path / 'skill.html'}")


def print_ladder(data: dict) -> None:
    """The ladder on the terminal: the verdict and the seat win rates per level."""
    from rich.console import Console
    from rich.markdown import Markdown
    from rich.table import Table

    from sim.report.format import fmt_interval

    con = Console(width=None if sys.stdout.isatty() else 160)
    con.print(Markdown(data["verdict"]))
    recs = [r for r in data["metrics"] if r["metric"] == "skill_ladder"]
    seats = sorted({r["by"].get("seat", 0) for r in recs})
    t = Table(title=f"{data['title']}: win rate [95% interval] at each skill level")
    t.add_column("level")
    for s in seats:
        t.add_column(f"seat {s}" if data["mode"] == "competitive" else "team", justify="right")
    for lv in data["levels"]:
        t.add_row(lv, *(fmt_interval(next(r for r in recs if r["by"]["level"] == lv and r["by"].get("seat", 0) == s))
                        for s in seats))
    con.print(t)
