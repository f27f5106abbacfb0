"""The reference-count-free kernels (``engine.leaf_kernel``, numba's ``_nrt=False``): numba
itself refuses an allocation in one, but not an array *returned* from one (the caller would
then drop a reference it was never given). Every ``@leaf_kernel`` function of every game
returns scalars or nothing: no bare array argument, no slice of one, no local array."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

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
