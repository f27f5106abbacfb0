"""The progress bar of ``sim run``, ``sim baseline``, ``sim check`` and ``sim compare``
(rich: games done, games/s, elapsed, ETA). The runner and the backends only call
``on_progress(n)``; drawing is the CLI's job. rich is imported only when a bar is shown.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Callable, Iterator

NOTICE_S = 2.0
"""A compiled function is named on its own line when numba spent at least this many seconds
on it (its own time, without the functions it calls)."""


def _function_name(dispatcher) -> str:
    f = getattr(dispatcher, "py_func", None)
    if f is None:
        return str(dispatcher)
    return f"{f.__module__.removeprefix('sim.games.')}.{f.__qualname__}"


@contextmanager
def compile_notices(title: str, say: Callable[[str], None] | None) -> Iterator[None]:
    """While the block runs, tell ``say`` (a line printer; None: silent) what numba compiles
    (not what it loads from its on-disk cache): a first line when compilation starts, one line
    per function that took at least :data:`NOTICE_S` seconds of its own, and the total. Uses
    numba's compile events (``numba.core.event``, "numba:compile": fired on a cache miss only),
    so a warm start prints nothing."""
    if say is None:
        yield
        return
    import time

    from numba.core import event

    class Lines(event.Listener):
        def __init__(self) -> None:
            self.stack: list[list] = []  # [name, start, seconds of the functions it compiled]
            self.t0: float | None = None

        def on_start(self, ev) -> None:
            if self.t0 is None:
                self.t0 = time.perf_counter()
                say(f"compiling {title} kernels (once per install or code change) ...")
            self.stack.append([_function_name(ev.data.get("dispatcher")), time.perf_counter(), 0.0])

        def on_end(self, ev) -> None:
            if not self.stack:
                return
            name, t, kids = self.stack.pop()
            d = time.perf_counter() - t
            if self.stack:
                self.stack[-1][2] += d
            if d - kids >= NOTICE_S:
                say(f"  compiled {name} in {d - kids:.0f} s")

    lines = Lines()
    with event.install_listener("numba:compile", lines):
        yield
    if lines.t0 is not None:
        say(f"compiled {title} kernels in {time.perf_counter() - lines.t0:.0f} s (cached for later runs)")


def games_per_second(task) -> str:
    """The bar's speed column for a rich ``Task``: games done over the seconds to the last one
    (once every game is played the clock stops: writing the report is not play)."""
    el = (task.finished_time if task.finished else task.elapsed) or 0.0
    return f"{task.completed / el if el > 0 else 0.0:,.0f} games/s"


def _stderr_line(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


@contextmanager
def progress_bar(label: str, total: int, enabled: bool | None = None, title: str | None = None,
                 quiet: bool = False) -> Iterator[Callable[[int], None] | None]:
    """A rich progress bar over ``total`` games while the block runs; yields the
    ``on_progress(n)`` callback to hand to :func:`sim.api.run_config`, or None when no bar is
    shown (``enabled`` False, or None and stderr is not a terminal). With ``title`` (the game's)
    and not ``quiet``, what numba compiles inside the block is said on stderr
    (:func:`compile_notices`), with or without a bar."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        with compile_notices(title, None if quiet or title is None else _stderr_line):
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
        def render(self, task):
            return Text(games_per_second(task))

    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  Rate(""), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                  transient=False) as bar:
        task = bar.add_task(label, total=total)
        with compile_notices(title, None if quiet or title is None else bar.console.print):
            yield lambda n: bar.advance(task, n)


def prepare_kernels(run, enabled: bool | None = None, quiet: bool = False) -> float:
    """Compile (or load from the cache) ``run``'s kernels before the progress bar starts, so
    the bar never sits at 0 games/s while numba compiles. Unless ``quiet``, what is compiled is
    said on stderr, on a terminal or not (:func:`compile_notices`: a line when compilation
    starts, one per slow function, the total); on a terminal (``enabled``) a spinner turns
    meanwhile. Returns the seconds (:func:`sim.api.prepare`)."""
    from sim.api import prepare

    if enabled is None:
        enabled = sys.stderr.isatty()
    title = getattr(run.game, "title", None) or run.game.name
    if not enabled:
        with compile_notices(title, None if quiet else _stderr_line):
            return prepare(run)
    from rich.console import Console

    console = Console(stderr=True)
    with console.status(f"loading {title} kernels ..."), compile_notices(title, console.print):
        return prepare(run)
