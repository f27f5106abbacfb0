"""Helpers shared by :mod:`sim.cli` and :mod:`sim.cli_regress` (no heavy imports): one-line
messages, the ranges of ``--threads`` and ``--workers``, the ``--set`` option, loading a config
(with its ``--set`` overrides) with the game's set-up failures turned into
:class:`sim.errors.ConfigError`.

Adding ``--set`` to a command is one parameter, ``sets: SetOpt = None``, passed on as
``compile_checked(path, sets=sets, ...)`` (or ``sim.config.load(path, sets)``).

**The common flags of every command that plays games** (``run``, ``baseline``, ``check``,
``compare``, ``sweep``, ``skill``, ``replay``) are defined here once: ``--seed``
(:data:`SeedOpt`), ``--threads`` (:data:`ThreadsOpt`), ``--quiet`` (:data:`QuietOpt`),
``--backend`` (:data:`BackendOpt`, default ``"local"``) and ``--workers`` (:data:`WorkersOpt`,
default 2); :func:`play_flags_problem` says why a combination is out of range.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Optional

import typer

SetOpt = Annotated[Optional[list[str]], typer.Option(
    "--set", metavar="KEY=VALUE",
    help="override one config key before validation (repeatable): a dotted path "
         "(clear_for_takeoff.hand_size=8, seats[2].policy=greedy, seats[0].weights.attack=0.5) and a TOML "
         "value (7, 0.5, true, \"x\", [1,2,3]; a bare word is a string)")]
"""The ``--set KEY=VALUE`` option every command that loads a config takes."""

SeedOpt = Annotated[Optional[int], typer.Option("--seed", help="master seed (overrides the config)")]
"""``--seed N``: play on seed N instead of the config's."""
ThreadsOpt = Annotated[Optional[int], typer.Option("--threads", help="worker threads (default: all cores)")]
"""``--threads N``: numba threads of the local backend (1 .. :func:`max_threads`)."""
QuietOpt = Annotated[bool, typer.Option("--quiet", help="no progress bar")]
"""``--quiet``: no progress bar and no compile notice (results unchanged)."""
BackendOpt = Annotated[str, typer.Option("--backend", help="local (numba threads) or dask (worker processes)")]
"""``--backend NAME``: a name of :data:`sim.backends.BACKENDS` (default ``"local"``)."""
WorkersOpt = Annotated[int, typer.Option("--workers", help="dask worker processes")]
"""``--workers N``: processes of the dask backend (default 2)."""


def one_line(msg: str) -> str:
    """``msg`` on one line (newlines and other control characters shown as spaces)."""
    return "".join(c if c.isprintable() else " " for c in str(msg))


def exit_error(msg: str, code: int = 2):
    """Print ``error: msg`` (on one line) to stderr and return the ``typer.Exit(code)`` to
    raise: every command's bad-input exit."""
    import typer

    typer.echo(f"error: {one_line(msg)}", err=True)
    return typer.Exit(code)


def compile_checked(path: Path, sets=None, origins: dict[str, str] | None = None, **overrides):
    """:func:`sim.compile.load_run` with ``--set`` overrides ``sets`` (``"KEY=VALUE"``
    strings or :class:`sim.overrides.Override`; None = none) written into the file before
    validation and then ``overrides`` (``games=``, ``seed=`` ...; None values ignored);
    an error about a key a flag set names the flag, one about an override read from a config
    key (``origins``: ``{"games": "checks.games"}``) names that key. A game's set-up that fails on a number it
    cannot hold (OverflowError, MemoryError, ValueError from numpy) is raised as ConfigError."""
    from sim.compile import compile_run
    from sim.config import cut
    from sim.errors import ConfigError
    from sim.overrides import Override, load, parse_sets, tag

    ovs = [s for s in sets or () if isinstance(s, Override)] + parse_sets(
        [s for s in sets or () if not isinstance(s, Override)])
    try:
        return compile_run(load(path, ovs).with_overrides(origins, **overrides))
    except ConfigError as e:
        raise tag(e, ovs) from None
    except (OverflowError, MemoryError, ValueError) as e:
        raise tag(ConfigError(str(path), "", f"the game cannot be set up from these values ({type(e).__name__}: "
                              f"{cut(str(e), 120)})"), ovs) from None


def max_threads() -> int:
    """Worker threads a run may use: numba's NUMBA_NUM_THREADS when set, else the cores."""
    env = os.environ.get("NUMBA_NUM_THREADS", "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    return os.cpu_count() or 1


def threads_problem(threads: int | None) -> str | None:
    """Why ``--threads`` is out of range (1 .. :func:`max_threads`), or None."""
    if threads is not None and not 1 <= threads <= max_threads():
        return f"--threads: must be 1..{max_threads()}, got {threads}"
    return None


def workers_problem(workers: int) -> str | None:
    """Why ``--workers`` is out of range (1 .. max(2, cores)), or None."""
    hi = max(2, os.cpu_count() or 1)
    if not 1 <= workers <= hi:
        return f"--workers: must be 1..{hi}, got {workers}"
    return None


def play_flags_problem(threads: int | None = None, backend: str = "local", workers: int = 2) -> str | None:
    """Why the common play flags are out of range (``--threads``, ``--backend`` not a name of
    :data:`sim.backends.BACKENDS`, ``--workers``), or None."""
    from sim.backends import BACKENDS
    from sim.config import excerpt

    why = threads_problem(threads)
    if why:
        return why
    if backend not in BACKENDS:
        return f"--backend: must be one of {', '.join(BACKENDS)}, got {excerpt(backend)}"
    return workers_problem(workers)
