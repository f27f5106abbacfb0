"""Every registered game has the one package shape and everything the framework and CI
need (docs/adding-a-game.md, "checklist"): a game is checked here the day it registers.

Also: no import cycle among the modules under ``sim/`` (static, imports at any depth), and
the commands that only list things never import numba.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from sim.games import GAMES, available, get_game
from sim.games.base import LOOKAHEAD_W, GameStateBase

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_FILES = ("__init__.py", "RULES.md", "data.py", "config.py", "layout.py", "spec.py", "rules.py",
                 "policies.py", "play.py", "hooks.py", "trace.py", "state.py", "metrics.py")
TEST_FILES = ("conftest.py", "test_config.py", "test_setup.py", "test_playouts.py")
NUMBA_FREE = ("__init__", "data", "config", "layout")


def test_every_registered_game_is_present():
    assert available() == list(GAMES)


@pytest.mark.parametrize("name", list(GAMES))
def test_game_package_has_the_standard_files(name):
    pkg = ROOT / "sim" / "games" / name
    missing = [f for f in PACKAGE_FILES if not (pkg / f).is_file()]
    assert not missing, f"sim/games/{name} lacks {missing}"
    tests = ROOT / "tests" / "games" / name
    missing = [f for f in TEST_FILES if not (tests / f).is_file()]
    assert not missing, f"tests/games/{name} lacks {missing}"
    assert list(tests.glob("test_rules_*.py")), f"tests/games/{name} has no scenario tests (test_rules_*.py)"


@pytest.mark.parametrize("name", list(GAMES))
def test_game_has_config_golden_baseline_and_rules(name):
    gdef = get_game(name)
    assert gdef.name == name and gdef.version and gdef.package == f"sim.games.{name}"
    assert (ROOT / "configs" / f"{name}.toml").is_file(), "a default config configs/<game>.toml"
    assert (ROOT / "tests" / "playthroughs" / f"{name}.txt").is_file(), "a golden playthrough"
    assert (ROOT / "reports" / "baselines" / f"{name}.json").is_file(), "a committed baseline"
    assert (ROOT / "sim" / "games" / name / gdef.rules_doc).is_file()
    # the rulebook: a seed file of the shared folder, or (a game of our own, the template) a file in the package
    assert ((ROOT.parent / "shared" / "seeds" / gdef.rulebook).is_file() or not (ROOT.parent / "shared").is_dir()
            or (ROOT / "sim" / "games" / name / gdef.rulebook).is_file())
    for fn in ("compile", "play_batch", "trace", "check_playout", "metrics", "plots"):
        assert callable(getattr(gdef, fn)), fn
    assert issubclass(gdef.GameState, GameStateBase)


def test_every_shipped_config_has_a_golden_and_a_baseline():
    for cfg in sorted((ROOT / "configs").glob("*.toml")):
        assert (ROOT / "tests" / "playthroughs" / f"{cfg.stem}.txt").is_file(), cfg.name
        assert (ROOT / "reports" / "baselines" / f"{cfg.stem}.json").is_file(), cfg.name


@pytest.mark.parametrize("name", list(GAMES))
def test_policy_weights_are_declared_in_kernel_order(name):
    """The weights dict order is the kernel's index order: layout.py holds each weighted
    policy's weight list (the one its ``W_*`` indices are derived from with
    ``index_constants``); no policy has more weights than n_weights; policy ids are
    distinct."""
    import importlib

    gdef = get_game(name)
    layout = importlib.import_module(f"sim.games.{name}.layout")
    names = vars(layout)
    lists = [list(v) for v in names.values() if isinstance(v, (dict, tuple, list))]
    for p in gdef.policies:
        if p.lookahead:  # its own weights sit in the trailing slots after the base id
            assert len(p.weights) <= LOOKAHEAD_W - 1
            assert not gdef.policy(p.base).lookahead
        assert len(p.weights) <= gdef.n_weights
        if not p.weights:
            continue
        assert list(p.weights) in lists, f"{name}: layout.py has no weight list of {p.name} to derive W_* from"
    ids = [p.id for p in gdef.policies]
    assert len(set(ids)) == len(ids)


@pytest.mark.parametrize("name", list(GAMES))
def test_every_weight_says_what_it_does(name):
    """``sim policies`` prints each weight with its line of ``PolicyDef.weight_docs``: every
    weight of every policy has one (a few words at least), and there is none for a weight
    the policy does not have."""
    for p in get_game(name).policies:
        assert set(p.weight_docs) == set(p.weights), (name, p.name, set(p.weight_docs) ^ set(p.weights))
        short = [w for w, d in p.weight_docs.items() if len(d.split()) < 3]
        assert not short, (name, p.name, short)


@pytest.mark.parametrize("name", list(GAMES))
def test_init_holds_only_the_game_definition(name):
    tree = ast.parse((ROOT / "sim" / "games" / name / "__init__.py").read_text())
    body = tree.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    kinds = {type(n).__name__ for n in body}
    assert kinds <= {"ImportFrom", "Import", "Assign"}, kinds
    assigns = [n for n in body if isinstance(n, ast.Assign)]
    assert [t.id for n in assigns for t in n.targets] == ["GAME"]


def test_listing_commands_import_no_numba():
    code = ("import sys; from sim.games import available, get_game\n"
            "[get_game(n).policies for n in available()]\n"
            + "".join(f"import sim.games.{g}.{m}\n" for g in GAMES for m in NUMBA_FREE if m != "__init__")
            + "import sim.cli\n"
            "bad = [m for m in ('numba', 'polars', 'matplotlib') if m in sys.modules]\n"
            "assert not bad, bad\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr


def _module_graph(root: Path) -> dict[str, set[str]]:
    """Static import graph of the package under ``root`` (imports at any depth, TYPE_CHECKING
    blocks aside); ``from pkg import sub`` is an edge to ``pkg`` and to ``pkg.sub``."""
    mods = {}
    for f in root.rglob("*.py"):
        parts = list(f.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = f

    def resolve(name: str) -> str | None:
        parts = name.split(".")
        while parts:
            if ".".join(parts) in mods:
                return ".".join(parts)
            parts.pop()
        return None

    graph: dict[str, set[str]] = {m: set() for m in mods}
    for m, f in mods.items():
        tree = ast.parse(f.read_text())
        skip = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.dump(node.test):
                skip.update(id(n) for sub in node.body for n in ast.walk(sub))
        base = m.split(".") if f.name == "__init__.py" else m.split(".")[:-1]
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                mod = node.module or ""
                if node.level:
                    mod = ".".join(base[: len(base) - node.level + 1] + ([mod] if mod else []))
                targets = [mod] + [f"{mod}.{a.name}" for a in node.names]
            for t in targets:
                r = resolve(t)
                if r and r != m:
                    graph[m].add(r)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), except a package and
    its own child (an ``__init__`` that re-exports a submodule is not a design cycle)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            comp.sort()
            if len(comp) > 2 or (len(comp) == 2 and not comp[1].startswith(comp[0] + ".")):
                out.append(comp)

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return out


def test_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "p": {"p.x"}, "p.x": {"p"}}) == [["a", "b", "c"]]


def test_no_import_cycle_under_sim():
    cycles = _cycles(_module_graph(ROOT / "sim"))
    assert not cycles, "import cycles: " + "; ".join(" <-> ".join(c) for c in cycles)


# ---- what docs/adding-a-game.md calls required, checked for every registered game -------------
@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_offers_random_greedy_heuristic_and_rollout(name):
    """docs/adding-a-game.md, policies.py: `random`, a rule-of-thumb `greedy`, a weighted
    `heuristic` (its weights in data.py) and the look-ahead `rollout` (a PolicyDef with a
    `base`) are the policies every game offers (a game may add more)."""
    gdef = get_game(name)
    names = {p.name for p in gdef.policies}
    assert {"random", "greedy", "heuristic", "rollout"} <= names, names
    assert gdef.policy("heuristic").weights, "the heuristic has weights"
    assert gdef.policy("rollout").lookahead and {"rollouts", "depth"} <= set(gdef.policy("rollout").weights)


@pytest.mark.parametrize("name", list(GAMES))
def test_metrics_module_declares_what_the_framework_reads(name):
    """docs/adding-a-game.md, metrics.py: tally_spec / metrics / plots, a non-empty CATALOGUE of
    MetricDef, LENGTH_UNIT, and HEADLINE patterns that each name a catalogued metric, with
    per_game for them (sim check's paired comparisons)."""
    import importlib

    from sim.metrics import MetricDef, catalogue

    gdef = get_game(name)
    mod = importlib.import_module(f"{gdef.package}.metrics")
    for fn in ("tally_spec", "metrics", "plots"):
        assert callable(getattr(mod, fn, None)), fn
    assert mod.CATALOGUE and all(isinstance(m, MetricDef) for m in mod.CATALOGUE)
    assert isinstance(mod.LENGTH_UNIT, str) and mod.LENGTH_UNIT
    cat = catalogue(gdef)
    missing = [h for h in mod.HEADLINE if h.partition("[")[0] not in cat]
    assert not missing, f"{name}: HEADLINE names metrics outside the catalogue: {missing}"
    assert not mod.HEADLINE or callable(getattr(mod, "per_game", None)), "HEADLINE needs per_game"


@pytest.mark.parametrize("name", list(GAMES))
def test_rules_md_has_a_policies_section(name):
    """docs/adding-a-game.md, RULES.md: a "Policies" section says what each policy does (and
    how well it plays)."""
    import re

    text = (ROOT / "sim" / "games" / name / "RULES.md").read_text()
    assert re.search(r"^#+ Policies", text, re.M), f"sim/games/{name}/RULES.md has no Policies section"


def test_sim_games_lists_every_registered_game():
    """`sim games` lists every registered game (the template too): `make schema` writes the
    schema of exactly those."""
    from typer.testing import CliRunner

    from sim.cli import app

    out = CliRunner().invoke(app, ["games"]).output
    assert [ln.split()[0] for ln in out.splitlines() if ln.strip()] == list(GAMES)
