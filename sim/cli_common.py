"""Helpers shared by :mod:`sim.cli` and :mod:`sim.cli_regress` (no typer, no heavy imports):
one-line messages, the ranges of ``--threads`` and ``--workers``, loading a config with the
game's set-up failures turned into :class:`sim.errors.ConfigError`."""

from __future__ import annotations

import os
from pathlib import Path


def one_line(msg: str) -> str:
    """``msg`` on one line (newlines and other control characters shown as spaces)."""
    return "".join(c if c.isprintable() else " " for c in str(msg))


def compile_checked(path: Path, **overrides):
    """:func:`sim.compile.load_run`, with a game's set-up that fails on a number it cannot
    hold (OverflowError, MemoryError, ValueError from numpy) raised as ConfigError."""
    from sim.compile import load_run
    from sim.config import cut
    from sim.errors import ConfigError

    try:
        return load_run(path, **overrides)
    except (OverflowError, MemoryError, ValueError) as e:
        raise ConfigError(str(path), "", f"the game cannot be set up from these values ({type(e).__name__}: "
                          f"{cut(str(e), 120)})") from None


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
