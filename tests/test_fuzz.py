"""Fuzzing the CLI over the config schema of every registered game and every command (issues 15, 33).

Hypothesis builds configs from a small valid one by one hostile change drawn from the schema
itself (the pydantic models of :mod:`sim.config` and each game's ``Section``, walked
recursively): a wrong type or an out-of-range / non-finite number at any field, an unknown
key at every level of tables, nesting far too deep, a hostile run name; and flags: bad
``--games`` / ``--seed`` / ``--threads`` / ``--workers`` / ``--game`` values, paths that
cannot be written or read for every path option, and hostile game names. Every case must
give exit code 2, ONE line ``error: ...`` naming the file (or the flag), no traceback, and
nothing written in the working folder.

The commands come from the typer app itself (:data:`CLI`): every command with a config-file
argument gets the hostile configs, every command with a play flag the hostile flags, every
path option the bad paths, every command with a game-name argument the bad names; the games
come from the registry (:func:`sim.games.available`). A new game, config key, command or flag
is fuzzed as soon as it exists. Only the tables whose contents some commands alone read
(:data:`READS`: ``[sweep]``'s grid, ``[checks]``' metric names and games) are fuzzed on
those commands (and ``validate``, which must refuse whatever they refuse).

Each (test, game, command) draws its cases from its own fixed seed (:func:`fixed_seed`, a CRC
of the names), so the cases do not depend on which other tests ran or on another game being
registered. Nothing is played: every case is refused while the config or the flags are read
(``games`` is 8 where a case could run).
"""

from __future__ import annotations

import contextlib
import math
import os
import tempfile
import typing
import zlib
from pathlib import Path

import annotated_types as at
import pytest
import typer
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st
from pydantic import BaseModel
from typer.testing import CliRunner

from sim.cli import app
from sim.config import MAX_INT64, CheckConfig, RunConfig, SeatConfig, Target
from sim.games import available, get_game

GAMES = available()
runner = CliRunner()


def fuzz(examples: int):
    """Hypothesis settings of a fuzz test: ``examples`` cases, no deadline, no example
    database (the cases are the seed's alone)."""
    return settings(max_examples=examples, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def fixed_seed(*names: str):
    """``@seed`` of the cases of one (test, game, command): a CRC of the names."""
    return seed(zlib.crc32("/".join(names).encode()))


# --- a TOML writer for anything (inline tables, quoted keys, nan/inf, huge integers) -----------


def _s(text: str) -> str:
    out = ['"']
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def tv(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return _s(v)
    if isinstance(v, list):
        return "[" + ", ".join(tv(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_s(k)} = {tv(x)}" for k, x in v.items()) + "}"
    raise TypeError(type(v))


def toml(raw: dict) -> str:
    return "".join(f"{_s(k)} = {tv(v)}\n" for k, v in raw.items())


# --- the schema, walked ------------------------------------------------------------------------


def base_config(game: str) -> dict:
    g = get_game(game)
    return {"game": game, "games": 8, "seed": 1, "seats": ["greedy"] * g.min_seats,
            "sweep": {"params": {"seed": [1]}}}


def _strip_optional(ann):
    args = typing.get_args(ann)
    if typing.get_origin(ann) in (typing.Union, getattr(__import__("types"), "UnionType", None)) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        return rest[0] if len(rest) == 1 else typing.Union[tuple(rest)]
    return ann


def fields(model: type[BaseModel], prefix: list) -> list[tuple[list, object, list]]:
    """(path, annotation, metadata) of every field of ``model`` and of its nested models; a
    list of models contributes the fields of its first element (``path`` ends in 0)."""
    out = []
    for name, f in model.model_fields.items():
        if f.exclude:
            continue  # loader-filled fields (source, raw, section)
        key = f.alias or name
        ann = _strip_optional(f.annotation)
        path = [*prefix, key]
        out.append((path, ann, list(f.metadata)))
        if isinstance(ann, type) and issubclass(ann, BaseModel):
            out += fields(ann, path)
        elif typing.get_origin(ann) is list:
            (item,) = typing.get_args(ann) or (None,)
            if isinstance(item, type) and issubclass(item, BaseModel):
                out += fields(item, [*path, 0])
    return out


def read_by(path: list, command: str | None) -> bool:
    """Whether ``command`` (None: any) reads what is at ``path`` beyond its type (:data:`READS`)."""
    return command is None or not path or path[0] not in READS or command in READS[path[0]]


def schema(game: str, command: str | None = None) -> list[tuple[list, object, list]]:
    g = get_game(game)
    out = [(p, a, m) for p, a, m in fields(RunConfig, []) if p[0] not in ("seats", "checks")]
    out += fields(SeatConfig, ["seats", 0])
    out += [(["checks", *p], a, m) for p, a, m in fields(CheckConfig, []) if p != ["targets"]]
    out += fields(Target, ["checks", "targets", 0])
    out += fields(g.section, [game])
    return [(p, a, m) for p, a, m in out if read_by(p, command)]


def tables(game: str, command: str | None = None) -> list[list]:
    """Paths of every table of the schema (where an unknown key can be put)."""
    paths = [[], ["checks"], ["checks", "targets", 0], ["sweep"], ["seats", 0], [game]]
    for p, ann, _m in fields(get_game(game).section, [game]):
        if isinstance(ann, type) and issubclass(ann, BaseModel):
            paths.append(p)
        elif typing.get_origin(ann) is list and any(isinstance(a, type) and issubclass(a, BaseModel)
                                                     for a in typing.get_args(ann)):
            paths.append([*p, 0])
    return [p for p in paths if read_by(p, command)]


def put(raw: dict, path: list, value) -> dict:
    """``raw`` with ``value`` at ``path`` (tables and one-element lists made on the way; a
    string seat becomes a table)."""
    node = raw
    for i, k in enumerate(path[:-1]):
        nxt = path[i + 1]
        if isinstance(k, int):
            while len(node) <= k:
                node.append({})
            if not isinstance(node[k], dict):
                node[k] = {"policy": node[k]} if isinstance(node[k], str) else {}
            node = node[k]
        else:
            if k not in node or not isinstance(node[k], dict | list):
                node[k] = [] if isinstance(nxt, int) else {}
            node = node[k]
    last = path[-1]
    if isinstance(last, int):
        while len(node) <= last:
            node.append({})
        node[last] = value
    else:
        node[last] = value
    if path[:2] == ["checks", "targets"] and isinstance(raw["checks"]["targets"][0], dict):
        raw["checks"]["targets"][0].setdefault("metric", "win_rate")
        raw["checks"]["targets"][0].setdefault("max", 0.9)
    return raw


def out_of_range(meta: list, integer: bool) -> list[st.SearchStrategy]:
    """Strategies for numbers outside the Ge/Gt/Le/Lt bounds in ``meta``."""
    out = []
    finite = {"allow_nan": False, "allow_infinity": False}
    for m in meta:
        if isinstance(m, at.Ge | at.Gt):
            b = m.ge if isinstance(m, at.Ge) else m.gt
            strict = isinstance(m, at.Ge)  # below ge is bad; gt itself is bad too
            if integer:
                out.append(st.integers(-MAX_INT64 - 1, int(b) - 1 if strict else int(b)))
            else:
                out.append(st.floats(min_value=-1e300, max_value=b, exclude_max=strict, **finite))
        elif isinstance(m, at.Le | at.Lt):
            b = m.le if isinstance(m, at.Le) else m.lt
            strict = isinstance(m, at.Le)
            if integer:
                lo = int(b) + 1 if strict else int(b)
                if lo <= MAX_INT64:
                    out.append(st.integers(lo, MAX_INT64))
            else:
                out.append(st.floats(min_value=b, max_value=1e300, exclude_min=strict, **finite))
    return out


# --- the commands, read from the typer app ------------------------------------------------------

CLI = typer.main.get_command(app)
CALLBACKS = {c.name or c.callback.__name__: c.callback for c in app.registered_commands}


def _annotation(command: str, param: str):
    ann = typing.get_type_hints(CALLBACKS[command])[param]
    return _strip_optional(ann)


def config_args(command: str) -> int:
    """How many config files ``command`` takes (its positional Path arguments; `sim export`'s
    REPORT_DIR is a report folder, not a config)."""
    return sum(1 for p in CLI.commands[command].params
               if p.param_type_name == "argument" and _annotation(command, p.name) is Path
               and p.name != "report_dir")


def option(command: str, name: str) -> str | None:
    """The flag of ``command``'s parameter ``name`` (``--games``), or None."""
    for p in CLI.commands[command].params:
        if p.name == name and p.param_type_name == "option":
            return p.opts[0]
    return None


def path_options(command: str) -> list[str]:
    """Flags of ``command`` that take a path (outputs and inputs alike)."""
    return [p.opts[0] for p in CLI.commands[command].params
            if p.param_type_name == "option" and _annotation(command, p.name) is Path]


def game_args(command: str) -> bool:
    """True when ``command`` takes a game name as an argument (``sim schema GAME``)."""
    return any(p.param_type_name == "argument" and p.name == "game" for p in CLI.commands[command].params)


COMMANDS = sorted(CLI.commands)
CONFIG_COMMANDS = [c for c in COMMANDS if config_args(c)]
PLAY_COMMANDS = [c for c in CONFIG_COMMANDS if option(c, "threads")]
SELECT = {"replay": ["--game", "0"]}
"""Arguments a command needs besides its configs before it reads them (replay: which game)."""
READS = {"sweep": {"validate", "sweep"}, "checks": {"validate", "check", "baseline"}}
"""Tables whose contents beyond their types only these commands read (the grid of points,
the metric names and games of the checks): fuzzed on them only; every other table is read by
every command that takes a config."""


def argv(command: str, cfg: Path | str) -> list[str]:
    return [command, *[str(cfg)] * config_args(command), *SELECT.get(command, [])]


UNKNOWN = {"zz_unknown": 1}
BEYOND_INT64 = st.one_of(st.integers(MAX_INT64 + 1, 2**200), st.integers(-(2**200), -MAX_INT64 - 2))
NON_FINITE = st.sampled_from([math.nan, math.inf, -math.inf])


def bad_values(ann, meta: list) -> st.SearchStrategy:
    """Values no field of annotation ``ann`` with ``meta`` bounds accepts."""
    origin = typing.get_origin(ann)
    wrong_table = st.just({"zz": [[1]]})  # a table for a scalar or a list; a list value in a dict
    options = [wrong_table, BEYOND_INT64, NON_FINITE]
    if ann is int:
        options += [st.text(max_size=5), st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: x != int(x)),
                    st.booleans(), st.lists(st.integers(), max_size=2), *out_of_range(meta, True)]
    elif ann is float:
        options += [st.text(max_size=5), st.booleans(), *out_of_range(meta, False)]
    elif ann is bool:
        options += [st.integers(0, 1), st.text(max_size=5)]
    elif ann is str:
        options += [st.integers(-5, 5), st.booleans(), st.lists(st.text(max_size=3), max_size=2)]
    elif origin is typing.Literal:
        options += [st.text(max_size=8).filter(lambda x: x not in typing.get_args(ann)), st.integers()]
    elif origin is list:
        options += [st.text(max_size=4), st.integers(), st.lists(st.just({"zz": [[1]]}), min_size=1, max_size=3)]
    elif isinstance(ann, type) and issubclass(ann, BaseModel):
        options += [st.just(UNKNOWN), st.integers(), st.text(max_size=4), st.just([1])]
    elif origin is dict:
        options += [st.integers(), st.text(max_size=4), st.just([1])]
    return st.one_of(options)


def deep(depth: int, leaf=1):
    v = leaf
    for i in range(depth):
        v = [v] if i % 2 else {"d": v}
    return v


HOSTILE_NAMES = st.one_of(
    st.sampled_from([".", "..", "", "../x", "../../escape", "/abs", "a/b", "x\x00y", "a b", "~root", "n" * 101,
                     "\u202e", "rep\n", "C:\\x"]),
    st.text(min_size=101, max_size=400, alphabet="abc"),
    st.text(min_size=1, max_size=20).filter(lambda s: any(not (c.isascii() and (c.isalnum() or c in "-_."))
                                                          for c in s)),
)


@st.composite
def hostile_config(draw, game: str, command: str | None = None):
    """(raw config, what the message must name) with exactly one hostile change, in what
    ``command`` reads (None: anywhere)."""
    raw = base_config(game)
    kinds = ["field", "unknown", "deep", "name"] + (["grid"] * 2 if read_by(["sweep"], command) else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "grid":  # a [sweep] point that sets any key of the schema to a bad value, or an unknown key
        path, ann, meta = draw(st.sampled_from([x for x in schema(game) if x[0][0] != "sweep"]))
        key = "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else p) for i, p in enumerate(path))
        value = draw(st.one_of(bad_values(ann, meta), st.just({"zz": [[1]]})))
        key = draw(st.sampled_from([key, "zz", f"{key}.zz"]))
        raw["sweep"] = {"params": {key: [1, value] if value != 1 else [value]}}
        return raw, "sweep"
    if kind == "field":
        path, ann, meta = draw(st.sampled_from(schema(game, command)))
        if path[:2] == ["seats", 0] and path[-1] == "weights":
            ann = dict
        if path == ["seats", 0, "policy"]:
            value = draw(st.one_of(bad_values(str, []), st.text(min_size=1, max_size=30).filter(
                lambda p: p not in {x.name for x in get_game(game).policies})))
        elif path[:2] == ["seats", 0] and path[-1] == "label":
            value = draw(st.one_of(bad_values(str, []), st.just(""), st.sampled_from(
                [p.name for p in get_game(game).policies if p.name != "greedy"]), st.just("x" * 101)))
        elif path == ["checks", "targets", 0, "metric"]:
            value = draw(st.one_of(bad_values(str, []), st.just("m" * 101)))
        else:
            value = draw(bad_values(ann, meta))
        if path == ["game"]:
            return put(raw, path, value), "game"
        return put(raw, path, value), str(path[0])
    if kind == "unknown":
        path = draw(st.sampled_from(tables(game, command)))
        key = draw(st.one_of(st.just("zz_unknown"), st.text(min_size=1, max_size=30).map(lambda s: "zz" + s),
                             st.just("")))
        if path == []:
            raw[key] = 1
            return raw, ""
        return put(raw, [*path, key], 1), str(path[0])
    if kind == "deep":
        path, _ann, _meta = draw(st.sampled_from(schema(game)))
        return put(raw, path, deep(draw(st.integers(17, 120)))), ""
    name = draw(HOSTILE_NAMES)
    raw["name"] = name
    return raw, "name"


@contextlib.contextmanager
def scratch():
    """A fresh working folder (the cwd while the block runs)."""
    old = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="sim-fuzz-") as d:
        os.chdir(d)
        try:
            yield Path(d)
        finally:
            os.chdir(old)


def tree(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def assert_refused(res, *needles: str) -> None:
    out = res.output.strip()
    assert res.exit_code == 2, (res.exit_code, out[-1500:], repr(res.exception)[:500])
    assert "Traceback" not in out
    lines = out.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), out[-1500:]
    assert len(lines[0]) < 1000
    for n in needles:
        assert n in lines[0], (n, lines[0])


def _write(folder: Path, raw: dict) -> Path:
    p = folder / "fz.toml"
    p.write_text(toml(raw), encoding="utf-8")
    return p


@pytest.mark.parametrize("command", CONFIG_COMMANDS)
@pytest.mark.parametrize("game", GAMES)
def test_a_hostile_config_is_refused(game, command):
    @fuzz(30)
    @fixed_seed("config", game, command)
    @given(case=hostile_config(game, command))
    def one(case):
        raw, key = case
        with scratch() as d:
            cfg = _write(d, raw)
            before = tree(d)
            assert_refused(runner.invoke(app, argv(command, cfg)), str(cfg), key)
            assert tree(d) == before

    one()


def test_the_commands_are_read_from_the_app():
    """The fuzz tests' command lists are the app's: a command that takes a config is fuzzed."""
    assert set(CONFIG_COMMANDS) == {"run", "replay", "validate", "skill", "baseline", "check", "compare", "sweep",
                                    "sensitivity", "tune", "policy-check"}
    assert config_args("compare") == 2 and config_args("run") == 1 and config_args("schema") == 0
    assert set(PLAY_COMMANDS) == set(CONFIG_COMMANDS) - {"validate", "policy-check"}
    assert path_options("check") == ["--baseline", "--junit", "--json"] and path_options("replay") == ["--run"]
    assert [c for c in COMMANDS if game_args(c)] == ["policies", "schema"]


def test_the_base_configs_are_valid():
    """The fuzz cases start from configs that pass: the one change is what is refused."""
    for game in GAMES:
        with scratch() as d:
            res = runner.invoke(app, ["validate", str(_write(d, base_config(game)))])
            assert res.exit_code == 0, res.output
            assert res.output.rstrip().endswith("[sweep] 1 point)"), res.output


@st.composite
def hostile_flags(draw, command: str, cfg: str):
    """(argv, needle): one out-of-range play flag of ``command`` on a valid config."""
    cores = os.cpu_count() or 1
    choices = [c for c in ("games", "seed", "threads", "workers", "game") if option(command, c)]
    choice = draw(st.sampled_from(choices))
    # replay picks the longest game, so that --games is the count it plays to pick from
    head = [command, *[cfg] * config_args(command)] + (["--longest"] if command == "replay" and choice != "game" else [])
    if choice == "games":
        v = draw(st.one_of(st.integers(max_value=0), st.integers(MAX_INT64 + 1, 2**300),
                           st.integers(10**15, MAX_INT64)))  # the last: too large for memory
        return [*head, "--games", str(v)], "games"
    if choice == "seed":
        v = draw(st.one_of(st.integers(max_value=-1), st.integers(2**63, 2**300)))
        return [*head, "--seed", str(v)], "seed"
    if choice == "threads":
        v = draw(st.one_of(st.integers(max_value=0), st.integers(cores + 1, 2**70)))
        return [*head, "--threads", str(v)], "threads"
    if choice == "workers":
        v = draw(st.one_of(st.integers(max_value=0), st.integers(max(2, cores) + 1, 2**70)))
        return [*head, "--backend", "dask", "--workers", str(v)], "--workers"
    v = draw(st.one_of(st.integers(max_value=-1), st.integers(2**63, 2**300)))
    return [*head, "--game", str(v)], "--game"


@pytest.mark.parametrize("command", PLAY_COMMANDS)
@pytest.mark.parametrize("game", GAMES)
def test_a_hostile_flag_is_refused(game, command):
    @fuzz(15)
    @fixed_seed("flags", game, command)
    @given(data=st.data())
    def one(data):
        with scratch() as d:
            cfg = _write(d, base_config(game))
            args, needle = data.draw(hostile_flags(command, str(cfg)))
            before = tree(d)
            assert_refused(runner.invoke(app, args), needle)
            assert tree(d) == before

    one()


BAD_PATHS = st.one_of(
    st.sampled_from(["", ".", "..", "/", "./", "../", "/dev/null/x", "/dev/null", "/proc/x/y", "/proc/version",
                     "/sys/x", "afile/x", "afile/x/y", "adir/..", "x\x00y"]),
    st.text(min_size=256, max_size=600, alphabet="abcdef"),
    st.text(min_size=1, max_size=40, alphabet="abc").map(lambda s: f"afile/{s}"),
)
PATH_FLAGS = [(c, f) for c in COMMANDS for f in path_options(c)]


@pytest.mark.parametrize("command, flag", PATH_FLAGS)
def test_a_path_that_cannot_be_used_is_refused(command, flag):
    """Every path option of every command (outputs and inputs: --out, --json, --junit,
    --baseline, --run) refuses a path it cannot write or read, naming the flag."""
    @fuzz(25)
    @fixed_seed("paths", command, flag)
    @given(target=BAD_PATHS, game=st.sampled_from(GAMES))
    def one(target, game):
        with scratch() as d:
            cfg = _write(d, base_config(game))
            (d / "afile").write_text("x")
            (d / "adir").mkdir()
            before = tree(d)
            head = ([command, game] if game_args(command) else [command, "adir"] if command == "export"
                    else argv(command, cfg))  # export reads a report folder: the path is refused first
            assert_refused(runner.invoke(app, [*head, flag, target]), flag)
            assert tree(d) == before

    one()


@pytest.mark.parametrize("command", [c for c in COMMANDS if game_args(c)])
def test_a_hostile_game_name_is_refused(command):
    @fuzz(20)
    @fixed_seed("game-name", command)
    @given(name=st.one_of(st.text(max_size=30), st.sampled_from(["", ".", "..", "../x", "/etc/passwd", "x" * 5000]))
           .filter(lambda n: n not in GAMES and "\x00" not in n))
    def one(name):
        with scratch() as d:
            before = tree(d)
            assert_refused(runner.invoke(app, [command, name]), "unknown game")
            assert tree(d) == before

    one()
