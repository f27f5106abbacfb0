"""The engine side of user policies (``docs/policies.md``, loaded by :mod:`sim.userpol`): the
read-only view a user's function receives and the weight-row slots that mark a user seat.

A user seat plays the game's ``USER_BASE`` built-in policy id in ``pids`` (so every hook of
the game that reads a seat's policy id sees a policy it knows), and its weight row carries,
after the game's own ``n_weights`` slots (the base policy's weights), the user policy's own
weights, then :data:`W_PROBE` and :data:`W_USER`, then the engine's and the look-ahead slots::

    [ base weights (n_weights) | user weights (U) | probe | user index | mistake | look-ahead ]

``W_USER`` is -1 on every other seat of a run with a user policy (a run without one has rows
without these slots and plays the built-in kernels). The generated ``choose`` of
:mod:`sim.userpol` reads ``w[W_USER]``: at or above 0 the seat's decision is asked of user
policy number ``w[W_USER]`` through :class:`View`.
"""

from __future__ import annotations

from collections import namedtuple

from numba.core import types
from numba.extending import intrinsic

from sim.games.base import ENGINE_W, LOOKAHEAD_W
from sim.games.engine import inline_kernel

W_USER = -(LOOKAHEAD_W + ENGINE_W + 1)
"""Weight-row index (negative) of a seat's user-policy index (-1: not a user seat)."""
W_PROBE = W_USER - 1
"""Weight-row index of the probe flag: 1 when ``sim policy-check`` checks every decision of
the seat (determinism and the hidden-information test), else 0."""
USER_SLOTS = 2
"""Slots a user row has beyond the user weights: ``W_PROBE`` and ``W_USER``."""

View = namedtuple("View", "seat state spec actions n weights u")
"""What a user policy receives (``docs/policies.md``): ``seat`` (int, the deciding seat; the
team's seat 0 in a cooperative game), ``state`` (the game's state array, read-only, layout in
the game's ``layout.py``), ``spec`` (the game's compiled spec tuple, read-only), ``actions``
(int32[rows, ACT_W] read-only: the legal action rows, the first ``n`` valid), ``n`` (int >= 1),
``weights`` (float64[U] read-only, the policy's weights in declared order) and ``u`` (float in
[0, 1): a uniform number of the seat's POLICY stream, for tie-breaks and randomness).
Returns the index of its choice in ``0 .. n - 1``, or -1: the seat's base policy decides."""


def _readonly_type(t):
    if isinstance(t, types.Array):
        return t.copy(readonly=True)
    if isinstance(t, types.UniTuple):
        return types.UniTuple(_readonly_type(t.dtype), t.count)
    if isinstance(t, types.Tuple):
        return types.Tuple([_readonly_type(x) for x in t.types])
    return t


@intrinsic
def readonly(typingctx, a):
    """``a`` (an array, or a tuple holding arrays at any depth) typed read-only: numba refuses
    to compile a write into it. The same data, no copy."""
    rt = _readonly_type(a)

    def codegen(context, builder, sig, args):
        if context.enable_nrt:
            context.nrt.incref(builder, sig.args[0], args[0])
        return args[0]

    return rt(a), codegen


@inline_kernel
def _legal_rows(state, spec, work, n):
    return work[0], n


@inline_kernel
def _row_itself(state, spec, work, acts, c):
    return c


USER_OPTIONAL = {"user_legal": _legal_rows, "user_choice": _row_itself}
"""The user-policy hooks a game may leave out, with the engine's default (as
:data:`sim.games.loop.OPTIONAL` for the loop's hooks): ``user_legal`` asks the user function
at every decision among the ``n`` legal action rows ``work[0]``; ``user_choice`` plays row
``c`` itself (the row index is what the game's ``apply`` takes). ``USER_BASE`` and
``user_redeal`` every game defines."""
