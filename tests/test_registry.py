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

import sim.games
from sim.games import GAMES, available, get_game
from sim.games.base import HOOKS, LOOKAHEAD_W, GameDef, GameStateBase, SpeedTarget, missing_hooks

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_FILES = ("__init__.py", "RULES.md", "data.py", "config.py", "layout.py", "catalogue.py", "spec.py",
                 "rules.py", "policies.py", "play.py", "hooks.py", "trace.py", "state.py", "metrics.py")
TEST_FILES = ("conftest.py", "test_config.py", "test_setup.py", "test_playouts.py")
NUMBA_FREE = ("__init__", "data", "config", "layout", "catalogue")
REQUIRED_POLICIES = ("random", "greedy", "heuristic", "rollout")
"""The built-in policies docs/adding-a-game.md requires of every game (``rollout`` a look-ahead one)."""


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
    assert missing_hooks(gdef) == []
    for hook in HOOKS:
        assert callable(getattr(gdef, hook)), hook
    assert issubclass(gdef.GameState, GameStateBase)


@pytest.mark.parametrize("name", list(GAMES))
def test_the_engine_plays_the_game_through_its_hooks(name):
    """Issue 32: the engine owns the turn loop (``sim.games.loop``). A game binds it in
    ``hooks.py`` and defines every hook of ``loop.HOOKS`` / ``loop.CONSTANTS`` there (but those
    of ``loop.OPTIONAL``, which default to doing nothing); the
    contract's kernel and entry points are the bound loop's; no module of the package defines
    a playout, batch or traced / checked entry point of its own."""
    import ast
    import importlib

    from sim.games import loop

    hooks = importlib.import_module(f"sim.games.{name}.hooks")
    k = hooks.KERNELS
    assert isinstance(k, loop.Kernels) and k.game == name
    assert hooks.play_batch is k.play_batch and get_game(name).play_batch is k.play_batch
    for h in loop.HOOKS:  # a hook the game leaves out is the engine's default (loop.OPTIONAL)
        assert k.hooks[h] is getattr(hooks, h, loop.OPTIONAL.get(h)), h
    own = {"playout", "play_index", "play_batch", "play_game", "play_traced", "traced_playout", "check_game",
           "check_one", "check_index", "traced_index"}
    for path in sorted((ROOT / "sim" / "games" / name).glob("*.py")):
        defined = {n.name for n in ast.parse(path.read_text()).body if isinstance(n, ast.FunctionDef)}
        assert not defined & own, f"{path.name} defines {sorted(defined & own)}: the engine's loop plays the game"


@pytest.mark.parametrize("name", list(GAMES))
def test_game_has_the_required_policies(name):
    """random, greedy, heuristic and the look-ahead rollout (docs/adding-a-game.md, §2 and
    "A look-ahead policy"), whatever else the game offers."""
    gdef = get_game(name)
    have = {p.name: p for p in gdef.policies}
    missing = [p for p in REQUIRED_POLICIES if p not in have]
    assert not missing, f"{name} lacks the policies {missing}"
    assert have["rollout"].lookahead and not have["heuristic"].lookahead


@pytest.mark.parametrize("name", list(GAMES))
def test_report_fields_name_catalogued_metrics(name):
    """Every metric a GameDef field names (headline patterns, sweep headline, failure and
    rounds metrics, duplicates) is in the game's catalogue (common metrics of its mode included); a
    catalogue entry has a kind (or adds groupings to a common metric)."""
    from sim.metrics import RECORD_KINDS, catalogue

    gdef = get_game(name)
    cat = catalogue(gdef)
    named = [p.partition("[")[0] for p in gdef.headline] + list(gdef.sweep_headline) + list(gdef.failure_metrics)
    named += [gdef.rounds_metric] if gdef.rounds_metric else []
    named += [p.partition("[")[0] for p in gdef.duplicates]
    assert not [m for m in named if m not in cat], f"{name}: not catalogued"
    assert all(m.kind in RECORD_KINDS for m in cat.values())
    assert gdef.length_unit and gdef.seat_note and gdef.seat_axis and gdef.compile_seconds > 0
    assert gdef.speed_target is None or (isinstance(gdef.speed_target, SpeedTarget)
                                         and gdef.policy(gdef.speed_target.policy))


@pytest.mark.parametrize("name", list(GAMES))
def test_a_declared_yardstick_offers_available_and_measure(name):
    gdef = get_game(name)
    if gdef.yardstick is None:
        pytest.skip("no C yardstick")
    mod = gdef.yardstick_module()
    assert callable(mod.available) and callable(mod.measure)


def test_a_game_missing_a_hook_is_refused_when_it_registers(monkeypatch, tmp_path):
    """The registry checks the hooks of HOOKS when a game registers, statically (nothing
    imported), and names the game and every missing hook."""
    import dataclasses
    import types

    real = get_game("flying_carpet")
    pkg = tmp_path / "_half_game"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for module in {m for m, _f in HOOKS.values()}:
        defs = "".join(f"def {f}(*a):\n    pass\n" for h, (m, f) in HOOKS.items() if m == module and h != "per_game")
        (pkg / f"{module}.py").write_text(defs or "X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    half = dataclasses.replace(real, name="half", package="_half_game")
    assert missing_hooks(half) == ["per_game: _half_game.metrics defines no per_game"]
    assert missing_hooks(dataclasses.replace(half, overrides={"per_game": lambda df, cfg: {}})) == []
    assert missing_hooks(dataclasses.replace(half, yardstick="yardstick")) == [
        "per_game: _half_game.metrics defines no per_game", "yardstick.available: _half_game.yardstick does not exist",
        "yardstick.measure: _half_game.yardstick does not exist"]
    mod = types.ModuleType("_half_game_def")
    mod.GAME = half
    monkeypatch.setitem(sys.modules, "_half_game_def", mod)
    monkeypatch.setitem(sim.games.GAMES, "half", "_half_game_def")
    with pytest.raises(ValueError, match=r"game 'half' does not meet the contract .*per_game: _half_game.metrics "
                                         r"defines no per_game"):
        get_game("half")


def test_warm_compiles_the_slowest_games_first():
    """sim.warm's order comes from ``GameDef.compile_seconds``, not from a list of games."""
    from sim.warm import compile_order

    order = compile_order(list(GAMES))
    secs = [get_game(n).compile_seconds for n in order]
    assert sorted(order) == sorted(GAMES) and secs == sorted(secs, reverse=True)


def test_game_def_fields_default_to_a_game_in_seat_order():
    """A GameDef that declares none of the report fields reads as a competitive game played
    in seat order with no game metrics (what the report, check and sweep then show)."""
    g = GameDef(name="x", title="X", rulebook="", version="1", mode="competitive", min_seats=2, max_seats=4,
                section=object, policies=(), columns=())
    assert (g.catalogue, g.headline, g.sweep_headline, g.failure_metrics, g.rounds_metric) == ((), (), (), (), None)
    assert g.length_unit == "player turns" and g.seat_note.startswith("Seats are numbered from 0")
    assert g.yardstick is None and g.speed_target is None


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
    """Static import graph of the package under ``root``: imports at any depth, those under
    ``if TYPE_CHECKING:`` too (a type-only import is still a dependency, and a cycle through
    one is a design cycle); ``from pkg import sub`` is an edge to ``pkg`` and to ``pkg.sub``."""
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
        base = m.split(".") if f.name == "__init__.py" else m.split(".")[:-1]
        for node in ast.walk(tree):
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


def test_module_graph_counts_type_checking_imports(tmp_path):
    """A cycle closed only by an ``if TYPE_CHECKING:`` import is found (``sim.games.base`` ->
    ``sim.compile`` -> ``sim.config`` -> ``sim.games`` -> ``sim.games.base`` was one)."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg import b\n")
    (pkg / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import A\n")
    assert _cycles(_module_graph(pkg)) == [["pkg.a", "pkg.b"]]


def test_no_import_cycle_under_sim():
    cycles = _cycles(_module_graph(ROOT / "sim"))
    assert not cycles, "import cycles: " + "; ".join(" <-> ".join(c) for c in cycles)


# ---- what docs/adding-a-game.md calls required, checked for every registered game -------------
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
