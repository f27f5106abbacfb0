"""The project's numba decorator: ``jit(**flags)`` is ``numba.njit(**flags)`` whose dispatcher
compiles a function once per argument *type*, never once per constant argument
(:class:`WideDispatcher`). Every kernel (``sim.games.engine``'s decorators, the bound turn loops
of ``sim.games.loop``, the streams of ``sim.rng``) is decorated through it. This module is part
of the source hash that keys numba's cache (``sim.source_hash``)."""

from __future__ import annotations

from numba import njit
from numba.core import types
from numba.core.registry import CPUDispatcher


class WideDispatcher(CPUDispatcher):
    """numba's CPU dispatcher, except that a call from compiled code compiles the callee for
    its argument types widened from literals (``Literal[int](14)`` -> ``int64``). numba
    otherwise compiles one copy of a function per distinct constant argument: Clear for
    Takeoff's kernels held 24 copies of ``emit`` (one per event code), 15 of ``rules._add``
    and 83 duplicates among 165 compiled signatures, a large share of its cold compile. A
    kernel never needs a literal argument (tests would not compile otherwise)."""

    def get_call_template(self, args, kws):
        return super().get_call_template(tuple(types.unliteral(a) for a in args),
                                         {k: types.unliteral(v) for k, v in kws.items()})


def jit(**flags):
    """``numba.njit(**flags)`` whose dispatcher is a :class:`WideDispatcher` (one compiled copy
    per argument type, not per constant); the decorator of every kernel of the engine and the
    games."""
    def wrap(f):
        d = njit(**flags)(f)
        d.__class__ = WideDispatcher  # a subclass without state of its own: numba's own dispatcher
        return d

    return wrap
