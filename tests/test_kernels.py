"""The reference-count-free kernels (``engine.leaf_kernel``, numba's ``_nrt=False``): numba
itself refuses an allocation in one, but not an array *returned* from one (the caller would
then drop a reference it was never given). Every ``@leaf_kernel`` function of every game
returns scalars or nothing: no bare array argument, no slice of one, no local array."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from sim.games import GAMES as GAMES_REGISTERED

GAMES = Path(__file__).resolve().parents[1] / "sim" / "games"
FILES = sorted(GAMES.rglob("*.py"))


def _leaf_functions(path: Path):
    tree = ast.parse(path.read_text())
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and any(
                isinstance(d, ast.Name) and d.id == "leaf_kernel" for d in node.decorator_list):
            yield node


def _array_like_returns(fn: ast.FunctionDef) -> list[str]:
    # the array arguments: those the body indexes
    params = {a.arg for a in fn.args.args}
    params = {n.value.id for n in ast.walk(fn) if isinstance(n, ast.Subscript)
              and isinstance(n.value, ast.Name) and n.value.id in params}
    bad = []
    for node in ast.walk(fn):
        if not isinstance(node, ast.Return) or node.value is None:
            continue
        vals = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
        for v in vals:
            if isinstance(v, ast.Name) and v.id in params:
                bad.append(f"line {node.lineno}: returns the argument {v.id}")
            if isinstance(v, ast.Subscript) and any(isinstance(s, ast.Slice) for s in ast.walk(v.slice)):
                bad.append(f"line {node.lineno}: returns a slice")
    return bad


def test_there_are_leaf_kernels():
    names = [fn.name for f in FILES for fn in _leaf_functions(f)]
    # the per-turn rules and policies of three games, and the engine's emit / roll / shuffle
    assert len(names) > 100 and {"emit", "roll", "legal_plays", "legal_actions"} <= set(names)


@pytest.mark.parametrize("path", FILES, ids=[str(f.relative_to(GAMES)) for f in FILES])
def test_leaf_kernels_return_no_array(path):
    bad = [f"{fn.name}: {b}" for fn in _leaf_functions(path) for b in _array_like_returns(fn)]
    assert not bad, f"{path.name}: a @leaf_kernel must not return an array:\n" + "\n".join(bad)


def test_a_kernel_is_compiled_once_per_argument_type_not_per_constant():
    """Issue 34: numba compiles a function called from compiled code once per distinct
    constant argument (Literal[int]); the engine's dispatcher widens literals for every
    function, small ones included (sim.jit.WIDE_HISTORY: Clear for Takeoff compiled
    engine.emit 26 times and its turn loop twice before), so three constants give one compiled
    signature where plain numba compiles one per constant."""
    from numba import njit

    from sim.games.engine import kernel
    from sim.jit import WideDispatcher

    def add(a, k):
        return a + k

    wide = kernel(add)
    plain = njit(add)
    assert isinstance(wide, WideDispatcher) and wide.widen

    @njit
    def calls(a):
        return wide(a, 1) + wide(a, 2) + wide(a, 3) + plain(a, 1) + plain(a, 2)

    assert calls(5) == 5 * 5 + 1 + 2 + 3 + 1 + 2
    assert [str(s) for s in wide.overloads] == ["(int64, int64)"]
    assert len(plain.overloads) == 2  # one copy per constant
    import sim.games.engine as engine
    import sim.games.now_boarding.planner as planner

    assert planner._commit_steps.widen and planner.plan_plane2.widen and engine.emit.widen


def test_every_game_kernel_uses_the_engine_dispatcher():
    """Every numba function of the games and the engine's bound loops is a WideDispatcher
    (decorated with the engine's kernel decorators, or bound by loop.bind), so no module
    brings back one compiled copy per constant argument."""
    import importlib
    import pkgutil

    from numba.core.registry import CPUDispatcher

    import sim.games
    from sim.jit import WideDispatcher

    seen, bad = 0, []
    names = ["sim.rng"] + [m.name for m in pkgutil.walk_packages(sim.games.__path__, "sim.games.")]
    for name in names:
        if ".yardstick" in name:
            continue  # the C yardstick's numba twin is a benchmark, not a kernel
        m = importlib.import_module(name)
        for obj in vars(m).values():
            if isinstance(obj, CPUDispatcher):
                seen += 1
                if not isinstance(obj, WideDispatcher):
                    bad.append(f"{obj.py_func.__module__}.{obj.py_func.__qualname__}")
    assert seen > 200 and bad == [], bad


def test_an_alloc_kernel_counts_its_own_references_under_a_leaf_caller():
    """numba compiles a plain ``@kernel`` with its first caller's reference counting
    (``inherit_if_not_set("nrt")``): called from a ``@leaf_kernel`` it has none, and numba
    refuses its allocation. ``@alloc_kernel`` counts its own whoever calls it, so a leaf turn
    loop can call an allocating search (Now Boarding's planner) and still count none itself."""
    import numpy as np
    from numba.core.errors import TypingError

    from sim.games.engine import alloc_kernel, kernel, leaf_kernel

    def total(n):
        a = np.arange(n)
        return a.sum()

    def total_again(n):  # a function of its own: numba's cache keys a compiled function by its code
        a = np.arange(n)
        return a.sum()

    own = alloc_kernel(total)
    inherits = kernel(total_again)

    @leaf_kernel
    def via_own(n):
        return own(n)

    @leaf_kernel
    def via_inherits(n):
        return inherits(n)

    assert via_own(5) == 10
    with pytest.raises(TypingError, match="Only accept returning of array passed"):
        via_inherits(5)


@pytest.mark.parametrize("game", sorted(GAMES_REGISTERED))
def test_every_game_turn_loop_counts_no_references(game):
    """Issue 32's speed line: a turn loop compiled with reference counting pays an atomic
    increment and decrement for every array it takes out of the spec and work tuples, every
    decision (Now Boarding's greedy team: 7 % of its games per second, 21.7k -> 23.7-24.2k
    games/s once its loop was a leaf). Every shipped game's decision and turn hooks allocate
    nothing themselves (an allocating search they call is an ``@alloc_kernel``), so the engine
    compiles its whole turn loop (``_turns``) without reference counting."""
    import importlib

    hooks = importlib.import_module(f"sim.games.{game}.hooks")
    assert hooks.LEAF_STEP is True and hooks.LEAF_TURN is True
    ns = hooks.KERNELS.play_batch.plain.py_func.__globals__
    assert ns["LEAF_LOOP"] is True and ns["_turns"].targetoptions.get("_nrt") is False
    # the look-ahead's simulations too, unless the game settles (allocates) after its turns:
    # reference counting was 12 % of Clear for Takeoff's rollout (perf)
    settles = getattr(hooks, "settle", None) is not None
    assert ns["LEAF_SIM"] is (not settles)
    assert hooks.KERNELS.simulate.targetoptions.get("_nrt") is (None if settles else False)  # None: counts them
