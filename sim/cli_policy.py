"""``sim policy-check CONFIG``: check the user policies a config names before they play
(:mod:`sim.userpol`, docs/policies.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from sim.cli_common import SetOpt, exit_error

ConfigArg = Annotated[Path, typer.Argument(help="config TOML file", show_default=False)]


def policy_check(
    config: ConfigArg,
    games: Annotated[Optional[int], typer.Option(
        "--games", min=1, help="games played with every user decision probed (default 300: a few thousand "
        "decisions)")] = None,
    speed_games: Annotated[int, typer.Option(
        "--speed-games", min=0, help="games timed with and without the user policies (0: no speed)")] = 2000,
    sets: SetOpt = None,
) -> None:
    """Check the config's user policies: every decision of a user seat in a few hundred games
    must be legal, the same when asked again (deterministic) and the same after the cards the
    seat cannot see are re-dealt (it reads no hidden information); then its speed. Exit 2 with
    one message naming the file, the seat, the turn and the choice when one is not."""
    from sim.cli_common import compile_checked
    from sim.compile import base_run
    from sim.errors import ConfigError
    from sim.userpol import IllegalChoice, check

    try:
        run_ = compile_checked(Path(config), sets=sets)
    except ConfigError as e:
        raise exit_error(str(e)) from None
    if run_.users is None:
        raise exit_error(f"{config}: names no user policy (a seat's policy = \"file.py:function\"); nothing to check")
    try:
        res = check(run_, games=games or 300, speed_games=speed_games, base=base_run(run_) if speed_games else None)
    except IllegalChoice as e:
        raise exit_error(str(e)) from None
    for p in run_.users.policies:
        typer.echo(f"policy {p.label}  sha256 {p.sha256[:16]}  ({p.path})")
    typer.echo(f"checked: {res.games} games, every decision of the user seats legal, deterministic and blind to "
               f"what the seat cannot see ({res.seconds:.1f} s; compile or cache load {res.compile_s:.1f} s)")
    if speed_games:
        typer.echo(f"speed: {res.games_per_s:,.0f} games/s with the user policies, {res.base_games_per_s:,.0f} with "
                   f"their base policy in their seats")
    typer.echo("ok")
