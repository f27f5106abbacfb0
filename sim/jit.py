"""The project's numba decorator: ``jit(**flags)`` is ``numba.njit(**flags)`` whose dispatcher
compiles a large function once per argument *type*, not once per constant argument
(:class:`WideDispatcher`). Every kernel (``sim.games.engine``'s decorators, the bound turn
loops of ``sim.games.loop``, the streams of ``sim.rng``) is decorated through it. This module is part
of the source hash that keys numba's cache (``sim.source_hash``)."""

from __future__ import annotations

from numba import njit
from numba.core import types
from numba.core.registry import CPUDispatcher

WIDEN_BYTES = 300
"""A function whose bytecode is at most this long (an accessor, ``engine.emit``) keeps numba's
one copy per constant argument: such a copy is cheap to compile, and constants fold there. The
games per second measured the same (within the noise, about 3 %) whether every function was
widened or only those longer than 2,000 bytes; the cold compile was not (Now Boarding 140 s
against 188 s)."""


class WideDispatcher(CPUDispatcher):
    """numba's CPU dispatcher, except that a call from compiled code compiles a *widened*
    function (``self.widen``) for its argument types widened from literals
    (``Literal[int](14)`` -> ``int64``). numba otherwise compiles one copy of a function per
    distinct constant argument: Now Boarding's planner held six copies of ``_commit_steps``
    and Clear for Takeoff 83 duplicates among 165 compiled signatures; a copy of a function
    that calls others also re-optimises all of them. A kernel never needs a literal
    argument (it would not compile otherwise)."""

    widen = True

    def get_call_template(self, args, kws):
        if not self.widen:
            return super().get_call_template(args, kws)
        return super().get_call_template(tuple(types.unliteral(a) for a in args),
                                         {k: types.unliteral(v) for k, v in kws.items()})


def jit(**flags):
    """``numba.njit(**flags)`` whose dispatcher is a :class:`WideDispatcher`: widened (one
    compiled copy per argument type) when its bytecode is longer than :data:`WIDEN_BYTES`, else
    a copy per constant argument as numba does. The decorator of every kernel of the engine
    and the games."""
    def wrap(f):
        d = njit(**flags)(f)
        d.__class__ = WideDispatcher  # a subclass without state of its own: numba's own dispatcher
        d.widen = len(f.__code__.co_code) > WIDEN_BYTES
        return d

    return wrap
