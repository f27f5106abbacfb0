"""Backends that play a run's game range: ``local`` (numba threads in this process, see
:mod:`sim.runner`) and ``dask`` (:mod:`sim.backends.dask`, worker processes). Every game
seeds its own streams from (seed, game index), so both give the same result matrix bit for
bit; tests prove it."""

BACKENDS = ("local", "dask")
