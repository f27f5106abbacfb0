"""Counter-based random streams for @njit code.

Every playout owns a tiny generator state: a ``uint64[2]`` array holding one splitmix64
counter per stream. Stream :data:`CHANCE` drives shuffles and dice, stream :data:`POLICY`
drives policy randomness (tie-breaks, the random policy). Both are derived from
``(seed, game_index)`` alone, so a game's luck does not depend on thread count, batch
size or backend, a policy change never changes the deal (common random numbers), and any
game can be replayed from its index.
"""

from __future__ import annotations

import numpy as np

from sim.jit import jit

CHANCE = 0
POLICY = 1

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_INV53 = 1.0 / 9007199254740992.0  # 2**-53


@jit(cache=True, inline="always")
def _mix(z):
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@jit(cache=True, _nrt=False)
def seed_streams(rng, seed, game_index):
    """Fill ``rng`` (uint64[2]) with the two stream states of game ``game_index``.

    ``seed`` and ``game_index`` are non-negative ints (int64). The chance stream and the
    policy stream are independent splitmix64 sequences.
    """
    s = _mix(np.uint64(seed) + _GOLDEN)
    g = _mix(s ^ (np.uint64(game_index) * _M2 + _GOLDEN))
    rng[0] = _mix(g ^ np.uint64(0x243F6A8885A308D3))
    rng[1] = _mix(g ^ np.uint64(0x13198A2E03707344))


@jit(cache=True, inline="always")
def next_u64(rng, stream):
    """Next uint64 of stream ``stream`` (0 chance, 1 policy); advances ``rng[stream]``."""
    rng[stream] += _GOLDEN
    return _mix(rng[stream])


@jit(cache=True, inline="always")
def uniform(rng, stream):
    """A float64 in [0, 1) with 53 random bits."""
    return np.float64(next_u64(rng, stream) >> _S11) * _INV53


@jit(cache=True, inline="always")
def randint(rng, stream, n):
    """An int64 uniform in [0, n) for n >= 1 (multiply-shift on 53 bits; bias < 2**-40)."""
    return np.int64(uniform(rng, stream) * n)


@jit(cache=True, _nrt=False)
def shuffle(arr, start, stop, rng, stream):
    """Fisher-Yates shuffle of ``arr[start:stop]`` in place (any int array)."""
    for i in range(stop - 1, start, -1):
        j = start + randint(rng, stream, i - start + 1)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t


def py_next_u64(state: int) -> tuple[int, int]:
    """Pure-Python twin of :func:`next_u64` for tests: returns (new_state, value)."""
    mask = (1 << 64) - 1
    state = (state + 0x9E3779B97F4A7C15) & mask
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return state, z ^ (z >> 31)
