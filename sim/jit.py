"""The project's numba decorator: ``jit(**flags)`` is ``numba.njit(**flags)`` whose dispatcher
compiles a large function once per argument *type*, not once per constant argument
(:class:`WideDispatcher`). Every kernel (``sim.games.engine``'s decorators, the bound turn
loops of ``sim.games.loop``, the streams of ``sim.rng``) is decorated through it. This module is part
of the source hash that keys numba's cache (``sim.source_hash``)."""

from __future__ import annotations

from numba import njit
from numba.core import types
from numba.core.registry import CPUDispatcher

WIDE_HISTORY = """Every function is widened. Until 2026-12-07 a function of at most 300 bytes of
bytecode kept numba's copy per constant argument, on the view that such a copy is cheap and
its constants fold; measured on Clear for Takeoff's cold compile that left 48 extra copies
(``engine.emit`` 26 of them, and the turn loop ``_turns`` twice, for ``last = -1``: its
bytecode is short because what it calls is inlined) and cost 7 % of the compile's CPU time
(60.4 s -> 56.1 s user); games per second measured the same within the noise."""


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
    """``numba.njit(**flags)`` whose dispatcher is a :class:`WideDispatcher` (one compiled copy
    per argument type, :data:`WIDE_HISTORY`). The decorator of every kernel of the engine and
    the games."""
    def wrap(f):
        d = njit(**flags)(f)
        d.__class__ = WideDispatcher  # a subclass without state of its own: numba's own dispatcher
        return d

    return wrap
