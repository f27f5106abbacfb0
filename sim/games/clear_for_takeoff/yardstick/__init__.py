"""The C yardstick of ``make bench`` (this game's ``GameDef.yardstick``): Clear for Takeoff's
hottest rule function, ``rules.legal_plays`` (the legal plays of the seat to move, called once
per turn and by every look-ahead simulation step), ported line for line to plain C
(``legal_plays.c``), built with ``gcc -O2`` into a temporary shared library, and timed against
the numba kernel on the same states: positions at the start of every turn of real
default-config games. The two must give the same plays for every state (:func:`compare` raises
otherwise).

Needs ``gcc`` on the path (:func:`available`); the bench writes a note instead of the line when
it is missing.
"""

from __future__ import annotations

import ctypes
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "legal_plays.c"
GCC = "gcc"
CFLAGS = ["-O2", "-shared", "-fPIC"]


def available() -> bool:
    """True when a C compiler (``gcc``) is on the path."""
    return shutil.which(GCC) is not None


def layout_header() -> str:
    """``#define`` lines for every integer constant of Clear for Takeoff's ``layout.py``
    (offsets, card ids, action kinds ...), so the C port reads the same layout."""
    import sim.games.clear_for_takeoff.layout as L

    lines = ["/* written by sim/games/clear_for_takeoff/yardstick from sim/games/clear_for_takeoff/layout.py */"]
    for name, v in sorted(vars(L).items()):
        if name.isupper() and isinstance(v, (int, np.integer)) and not isinstance(v, bool):
            lines.append(f"#define {name} ((int64_t){int(v)})")
    return "\n".join(lines) + "\n"


def build(folder: Path) -> ctypes.CDLL:
    """Compile ``legal_plays.c`` with ``gcc -O2`` into ``folder`` and load it.
    Raises ``subprocess.CalledProcessError`` when the compiler fails."""
    (folder / "layout.h").write_text(layout_header())
    so = folder / "legal_plays.so"
    subprocess.run([GCC, *CFLAGS, "-I", str(folder), "-o", str(so), str(SOURCE)], check=True,
                   capture_output=True, text=True)
    lib = ctypes.CDLL(str(so))
    P = ctypes.c_void_p
    lib.legal_plays.restype = ctypes.c_int64
    lib.legal_plays.argtypes = [P, P, P, ctypes.c_int64, P]
    lib.time_legal_plays.restype = ctypes.c_int64
    lib.time_legal_plays.argtypes = [P, ctypes.c_int64, ctypes.c_int64, P, P, ctypes.c_int64, P, P, ctypes.c_int64]
    return lib


def sample_states(games: int = 40):
    """States at the start of every turn of games ``0 .. games - 1`` of
    ``configs/clear_for_takeoff.toml`` (traced replays): int32[m, state_size], with the run's
    ``p`` (int64[NP]) and ``fleet`` (int32[S, K])."""
    from sim.compile import load_run
    from sim.games.clear_for_takeoff.hooks import run_traced

    run = load_run(HERE.parents[3] / "configs" / "clear_for_takeoff.toml")
    rows = []
    for g in range(games):
        _, _, snaps, _ = run_traced(run, g)
        rows.append(snaps[:-1])
    p, _, fleet = run.spec
    return np.ascontiguousarray(np.concatenate(rows)), np.ascontiguousarray(p), np.ascontiguousarray(fleet)


def _numba_loop():
    """The numba timing loop (compiled without reference counting, like the kernels' turn
    loop, so it adds none): ``legal_plays`` on every state ``reps`` times."""
    import numba

    from sim.games.clear_for_takeoff.rules import legal_plays

    def loop(states, p, fleet, acts, counts, reps):
        chk = 0
        for _ in range(reps):
            for i in range(states.shape[0]):
                n = legal_plays(states[i], p, fleet, acts)
                counts[i] = n
                chk += n + acts[0, 0]
        return chk

    return numba.njit(_nrt=False, error_model="numpy")(loop)


def compare(lib, states, p, fleet) -> int:
    """Check C and numba agree on every state (same count, same play rows); returns the
    number of states checked. Raises AssertionError on the first difference."""
    from sim.games.clear_for_takeoff.rules import legal_plays, max_actions

    ma = int(max_actions(p))
    a_nb = np.zeros((ma, 4), np.int32)
    a_c = np.zeros((ma, 4), np.int32)
    for i in range(states.shape[0]):
        st = np.ascontiguousarray(states[i])
        n1 = int(legal_plays(st, p, fleet, a_nb))
        n2 = int(lib.legal_plays(st.ctypes.data, p.ctypes.data, fleet.ctypes.data, fleet.shape[1], a_c.ctypes.data))
        assert n1 == n2 and np.array_equal(a_nb[:n1], a_c[:n2]), f"state {i}: numba {n1} plays, C {n2}"
    return states.shape[0]


def measure(games: int = 40, repeats: int = 5, min_seconds: float = 0.2) -> dict:
    """ns per ``legal_plays`` call, numba and C, best of ``repeats`` (each long enough to
    take ``min_seconds``), on the states of :func:`sample_states`. Returns ``{"function",
    "states", "numba_ns", "c_ns", "ratio"}`` (ratio = numba / C)."""
    from sim.games.clear_for_takeoff.rules import max_actions

    states, p, fleet = sample_states(games)
    m = states.shape[0]
    acts = np.zeros((int(max_actions(p)), 4), np.int32)
    counts_nb = np.zeros(m, np.int64)
    counts_c = np.zeros(m, np.int64)
    with tempfile.TemporaryDirectory(prefix="sim-bench-c-") as tmp:
        lib = build(Path(tmp))
        compare(lib, states, p, fleet)
        loop = _numba_loop()
        loop(states, p, fleet, acts, counts_nb, 1)  # compile

        def run_c(reps):
            return lib.time_legal_plays(states.ctypes.data, m, states.shape[1], p.ctypes.data, fleet.ctypes.data,
                                        fleet.shape[1], acts.ctypes.data, counts_c.ctypes.data, reps)

        def run_nb(reps):
            return loop(states, p, fleet, acts, counts_nb, reps)

        out = {}
        for label, fn in (("c", run_c), ("numba", run_nb)):
            reps = 1
            while True:  # calibrate
                t0 = time.perf_counter()
                fn(reps)
                dt = time.perf_counter() - t0
                if dt >= min_seconds / 4:
                    break
                reps *= 4
            reps = max(1, int(reps * min_seconds / max(dt, 1e-9)))
            best = float("inf")
            for _ in range(repeats):
                t0 = time.perf_counter()
                fn(reps)
                best = min(best, time.perf_counter() - t0)
            out[label] = 1e9 * best / (reps * m)
        assert np.array_equal(counts_nb, counts_c)
    return {"function": "clear_for_takeoff.rules.legal_plays", "states": m, "numba_ns": round(out["numba"], 1),
            "c_ns": round(out["c"], 1), "ratio": round(out["numba"] / out["c"], 3)}
