"""The progress bar of ``sim run``, ``sim baseline``, ``sim check`` and ``sim compare``
(rich: games done, games/s, elapsed, ETA). The runner and the backends only call
``on_progress(n)``; drawing is the CLI's job. rich is imported only when a bar is shown.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Callable, Iterator


@contextmanager
def progress_bar(label: str, total: int, enabled: bool | None = None) -> Iterator[Callable[[int], None] | None]:
    """A rich progress bar over ``total`` games while the block runs; yields the
    ``on_progress(n)`` callback to hand to :func:`sim.api.run_config`, or None when no bar is
    shown (``enabled`` False, or None and stderr is not a terminal)."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        yield None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class Rate(TextColumn):
        def render(self, task):  # games per second so far
            el = task.elapsed or 0.0
            return Text(f"{task.completed / el if el > 0 else 0.0:,.0f} games/s")

    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  Rate(""), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                  transient=False) as bar:
        task = bar.add_task(label, total=total)
        yield lambda n: bar.advance(task, n)


def prepare_kernels(run, enabled: bool | None = None) -> float:
    """Compile (or load from the cache) ``run``'s kernels before the progress bar starts, so
    the bar never sits at 0 games/s while numba compiles: on a terminal a spinner says
    "compiling kernels (first run only ...)" and, when it took more than a few seconds, one
    line gives the time. Returns the seconds (:func:`sim.api.prepare`)."""
    from sim.api import prepare

    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        return prepare(run)
    from rich.console import Console

    console = Console(stderr=True)
    with console.status(f"compiling {run.game.name} kernels (first run after a code change only: "
                        "up to a minute or two; later runs load them from the cache)"):
        s = prepare(run)
    if s > 3.0:
        console.print(f"compiled {run.game.name} kernels in {s:.0f} s (cached for later runs)")
    return s
