"""User policies: a seat of a config plays a function written in a Python file beside it
(``policy = "my_policies.py:hoarder"``, a path relative to the config). ``docs/policies.md`` is
the designer's guide; this module loads, compiles, caches and checks such a function.

**Trust.** A policy file is code: it runs with the user's rights, like a pytest ``conftest.py``.
``sim`` imports one only when a config (or ``sim skill --policies``) names it; a config that
names none runs no code of its own.

**Writing one.** The file decorates a plain function with :func:`user_policy`, naming its game
and its weights (name -> default)::

    from sim.userpol import user_policy

    @user_policy("dice_race", weights={"reach": 1.0})
    def hoarder(view):
        ...
        return best  # an index into view.actions[:view.n], or -1: the base policy decides

The function receives one argument, a read-only :class:`sim.games.user.View` (the deciding
seat, the game's state and spec arrays, the legal action rows and their count, its weights and
a uniform number of the seat's POLICY stream) and returns an int. numba compiles it (nopython):
loops, arithmetic and numpy on the arrays; a write into the view does not compile.

**How it plays.** A user seat plays the game's ``USER_BASE`` built-in policy id, its weight
row marked with the user policy's index (:mod:`sim.games.user`: ``W_USER``). The game's engine
loop (:func:`sim.games.loop.bind`) is bound once more for the run, with a ``choose`` hook that
asks the user function at every decision of a user seat where the game's ``user_legal`` hook
gives rows (the others, and a return of -1, are the base's). That binding's kernels are named
``<game>__user_<key>__<template>``, ``key`` a hash of the policy files' contents and function
names (:func:`set_key`): numba's on-disk cache keeps one entry per set of file contents, so a
second run of the same file loads the compiled loop and compiles nothing; a changed file gets a
new key and compiles again.

**Checks.** A choice outside ``-1 .. n - 1`` stops the run (:class:`IllegalChoice`, naming the
file, the seat, the turn and the choice). :func:`check` (``sim policy-check``; every ``sim run``
does a short one) plays games with every decision of the user seats probed: the function is
asked again with the same view (determinism) and after each of a few re-deals of everything
the seat cannot see (the game's ``user_redeal``: the rollout's re-deal), and must choose the
same each time (it reads no hidden information).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import math
import re
import sys
import time
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from sim.errors import ConfigError

GENERATOR_VERSION = "4"
"""Part of every binding key (with the generated code's text, :func:`set_key`)."""
SPEC_RE = re.compile(r"^(?P<path>[^:]+\.py):(?P<fn>[A-Za-z_][A-Za-z0-9_]*)$")
"""A user policy as a config names it: ``<path>.py:<function>``."""
MAX_WEIGHTS = 16
"""Weights a user policy may declare at most."""


def is_user_spec(name: str) -> bool:
    """True when ``name`` names a user policy (``file.py:function``), not a built-in one."""
    return ":" in name or name.endswith(".py")


@dataclass(frozen=True)
class UserPolicy:
    """What :func:`user_policy` makes of a function: the function, its game and its weights
    (name -> default, in the order the function's ``view.weights`` holds them)."""

    func: Callable
    game: str
    weights: dict[str, float] = field(default_factory=dict)

    def __call__(self, view: Any) -> int:  # plain Python: a test or a notebook may call it
        return self.func(view)


def user_policy(game: str, weights: dict[str, float] | None = None) -> Callable[[Callable], UserPolicy]:
    """Decorator of a user policy function (module docstring, ``docs/policies.md``): ``game``
    the game it plays (``sim games``), ``weights`` its weights and their defaults (a config's
    seat may set them: ``weights = { reach = 2.0 }``). Raises TypeError for a malformed
    declaration."""
    if not isinstance(game, str):
        raise TypeError("user_policy(game, weights=...): game must be the game's name, e.g. \"dice_race\"")
    ws = dict(weights or {})
    for k, v in ws.items():
        if not isinstance(k, str) or not k.isidentifier():
            raise TypeError(f"user_policy: weight name {k!r} is not a plain name")
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise TypeError(f"user_policy: weight {k!r} must have a finite number as default, got {v!r}")
    if len(ws) > MAX_WEIGHTS:
        raise TypeError(f"user_policy: at most {MAX_WEIGHTS} weights")

    def wrap(f: Callable) -> UserPolicy:
        if not inspect.isfunction(f):
            raise TypeError("@user_policy decorates a plain function (def name(view): ...)")
        return UserPolicy(f, game, {k: float(v) for k, v in ws.items()})

    return wrap


@dataclass(frozen=True)
class LoadedPolicy:
    """A user policy loaded from its file: ``spec`` as the config wrote it, ``path`` the file
    (absolute), ``function`` its name, ``sha256`` of the file's bytes, and the decorated
    :class:`UserPolicy`."""

    spec: str
    path: Path
    function: str
    sha256: str
    policy: UserPolicy

    @property
    def game(self) -> str:
        return self.policy.game

    @property
    def weights(self) -> dict[str, float]:
        return self.policy.weights

    @property
    def label(self) -> str:
        """``file.py:function`` with the file's name only."""
        return f"{self.path.name}:{self.function}"

    def record(self) -> dict[str, str]:
        """What manifest.json, the report and a baseline keep: ``{"name", "path", "sha256"}``;
        ``path`` relative to the current folder when the file is below it (a baseline committed
        with the repository names no machine's folder), else absolute."""
        try:
            where = self.path.relative_to(Path.cwd().resolve()).as_posix()
        except ValueError:
            where = str(self.path)
        return {"name": self.spec, "path": where, "sha256": self.sha256}


_MODULES: dict[tuple[str, str], Any] = {}


def _import_file(path: Path, digest: str, source: str, key: str) -> Any:
    hit = _MODULES.get((str(path), digest))
    if hit is not None:
        return hit
    name = f"sim_user_policy_{digest[:12]}_{re.sub(r'[^A-Za-z0-9_]', '_', path.stem)}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ConfigError(source, key, f"cannot import {path}")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)
    except SyntaxError as e:
        sys.modules.pop(name, None)
        raise ConfigError(source, key, f"policy file {path} has a syntax error at line {e.lineno}: {e.msg}") from None
    except Exception as e:  # the user's code: any error is the file's
        sys.modules.pop(name, None)
        raise ConfigError(source, key, f"policy file {path} failed to import: {type(e).__name__}: {e}") from None
    _MODULES[(str(path), digest)] = mod
    return mod


def load_policy(spec: str, base_dir: Path, game: str, source: str = "<memory>", key: str = "policy") -> LoadedPolicy:
    """Load user policy ``spec`` (``path.py:function``, ``path`` relative to ``base_dir``) of
    ``game``. Raises :class:`ConfigError` naming ``source`` and ``key``: a malformed spec, a
    missing or unreadable file, an import error, no such function, a function not decorated
    with :func:`user_policy`, another game's policy, or the wrong signature (one parameter)."""
    m = SPEC_RE.match(spec)
    if not m:
        raise ConfigError(source, key, f"{spec!r} is neither a built-in policy nor a user policy "
                                       "'path/to/file.py:function' (docs/policies.md)")
    path = (base_dir / m["path"]).resolve()
    fn = m["fn"]
    if not path.is_file():
        raise ConfigError(source, key, f"policy file {path} does not exist (a path relative to the config's folder)")
    try:
        data = path.read_bytes()
    except OSError as e:
        raise ConfigError(source, key, f"cannot read policy file {path}: {e.strerror or e}") from None
    digest = hashlib.sha256(data).hexdigest()
    mod = _import_file(path, digest, source, key)
    obj = getattr(mod, fn, None)
    if obj is None:
        found = sorted(n for n, v in vars(mod).items() if isinstance(v, UserPolicy))
        raise ConfigError(source, key, f"policy file {path} defines no function {fn!r}"
                          + (f"; its policies: {found}" if found else "; it decorates none with @user_policy"))
    if not isinstance(obj, UserPolicy):
        raise ConfigError(source, key, f"{path.name}:{fn} is not decorated with @user_policy(\"{game}\") "
                                       "(from sim.userpol import user_policy; docs/policies.md)")
    if obj.game != game:
        raise ConfigError(source, key, f"{path.name}:{fn} is a policy of {obj.game!r}, not of {game!r}")
    params = list(inspect.signature(obj.func).parameters.values())
    ok = (len(params) == 1 and params[0].kind in (params[0].POSITIONAL_ONLY, params[0].POSITIONAL_OR_KEYWORD)
          and params[0].default is params[0].empty)
    if not ok:
        sig = f"{fn}{inspect.signature(obj.func)}"
        raise ConfigError(source, key, f"{path.name}:{sig} has the wrong signature: a policy takes one "
                                       f"argument, the view (def {fn}(view): ...)")
    return LoadedPolicy(spec, path, fn, digest, obj)


def config_dir(source: str) -> Path:
    """The folder a config's policy paths are relative to: the config file's (the current
    folder for a config built in memory)."""
    return Path.cwd() if source in ("", "<memory>") else Path(source).resolve().parent


def seat_policies_of(cfg: Any) -> list[LoadedPolicy]:
    """The user policies the seats of ``cfg`` (a validated RunConfig) name, each once, in the
    order of their names (so the same files bind the same loop whichever seat names them
    first); raises ConfigError (the file changed since validation, ...)."""
    out: dict[str, LoadedPolicy] = {}
    for i, seat in enumerate(cfg.seats):
        if is_user_spec(seat.policy) and seat.policy not in out:
            out[seat.policy] = load_policy(seat.policy, config_dir(cfg.source), cfg.game, cfg.source,
                                           f"seats[{i}].policy")
    return [out[k] for k in sorted(out)]


# ---- the binding --------------------------------------------------------------------------
def set_key(game: str, policies: list[LoadedPolicy]) -> str:
    """12 hex digits naming one binding: the generator (its version and template text: an edit
    of this module's generated ``choose`` never loads a loop cached with the old one; the
    engine's own source is the cache folder's key, ``sim.source_hash``), the game and every
    policy's file hash, function name and weight count, in the order given."""
    h = hashlib.sha256(f"{GENERATOR_VERSION}|{game}|{_GENERATED}|{_CALL}".encode())
    for p in policies:
        h.update(f"|{p.sha256}:{p.function}:{len(p.weights)}".encode())
    return h.hexdigest()[:12]


PROBE_REDEALS = 4
"""Re-deals of the unseen information per probed decision (:func:`check`)."""
PROBE_REPEATS = 4
"""Times a probed decision is asked again on the same view (determinism): a function that
draws its own random numbers agrees with itself four times with a chance of at most 1/16."""

_GENERATED = '''
@kernel
def _call(k, seat, state, spec, w, acts, m, u):
{calls}
    return np.int64(-1)


@kernel
def _same(k, seat, state, spec, w, acts, m, u, c):
    for _ in range(PROBE_REPEATS):
        again = _call(k, seat, state, spec, w, acts, m, u)
        if again != c:
            return again
    return c


@kernel
def _probe(state, spec, w, acts, m, k, u, seat, c):
    again = _same(k, seat, state, spec, w, acts, m, u, c)
    if again != c:
        raise ValueError("sim-user-nondeterministic", k, c, again, seat, clock(state))
    cp = np.empty_like(state)
    sub = np.zeros(2, np.uint64)
    for r in range(PROBE_REDEALS):
        cp[:] = state
        seed_streams(sub, np.int64(r + 1), np.int64(u * 2147483647.0))
        user_redeal(cp, spec, seat, sub)
        other = _call(k, seat, cp, spec, w, acts, m, u)
        if other != c:
            # hidden information, unless the function is not deterministic after all
            again = _same(k, seat, state, spec, w, acts, m, u, c)
            if again != c:
                raise ValueError("sim-user-nondeterministic", k, c, again, seat, clock(state))
            again = _same(k, seat, cp, spec, w, acts, m, u, other)
            if again != other:
                raise ValueError("sim-user-nondeterministic", k, other, again, seat, clock(state))
            raise ValueError("sim-user-hidden", k, c, other, seat, clock(state))


@kernel
def _ask(state, spec, w, acts, m, k, u):
    seat = actor(state, spec)
    c = _call(k, seat, state, spec, w, acts, m, u)
    if c < -1 or c >= m:
        raise ValueError("sim-user-illegal", k, c, m, seat, clock(state))
    if w[W_PROBE] > 0.5:
        _probe(state, spec, w, acts, m, k, u, seat, c)
    return c


@inline_kernel
def choose(state, spec, pid, w, work, n, rng):
    k = w[W_USER]
    if pid != USER_BASE or k < 0.0:
        return game_choose(state, spec, pid, w, work, n, rng)
    acts, m = user_legal(state, spec, work, n)
    if m <= 0:
        return game_choose(state, spec, pid, w, work, n, rng)
    c = _ask(state, spec, w, acts, m, np.int64(k), uniform(rng, POLICY))
    if c < 0:
        return game_choose(state, spec, pid, w, work, n, rng)
    return user_choice(state, spec, work, acts, c)
'''
_CALL = '''    if k == {i}:
        return np.int64(U{i}(View(seat, readonly(state), readonly(spec), readonly(acts), m,
                                  readonly(w[NW:NW + {nu}]), u)))'''


@dataclass(frozen=True)
class UserSet:
    """The user policies of one run and their binding: ``policies`` (index = the ``W_USER``
    value of their seats), ``kernels`` (the :class:`sim.games.loop.Kernels` bound with them),
    ``key`` (:func:`set_key`) and ``base`` (the game's ``USER_BASE`` policy id)."""

    game: str
    policies: list[LoadedPolicy]
    kernels: Any
    key: str
    base: int

    def index(self, spec: str) -> int:
        for i, p in enumerate(self.policies):
            if p.spec == spec:
                return i
        raise KeyError(spec)

    @property
    def n_user_weights(self) -> int:
        return max((len(p.weights) for p in self.policies), default=0)

    def records(self) -> list[dict[str, str]]:
        return [p.record() for p in self.policies]


_SETS: dict[str, UserSet] = {}


def bind_policies(game: str, policies: list[LoadedPolicy]) -> UserSet:
    """The engine loop of ``game`` bound with ``policies`` (compiled lazily, cached on disk
    under ``<game>__user_<key>``; one object per key in a process)."""
    key = set_key(game, policies)
    hit = _SETS.get(f"{game}:{key}")
    if hit is not None:
        return hit
    import numpy as np

    from sim.games import get_game
    from sim.games.engine import jit
    from sim.games.loop import bind
    from sim.games.user import USER_OPTIONAL, W_PROBE, W_USER, View, readonly
    from sim.rng import POLICY, seed_streams, uniform

    gdef = get_game(game)
    hooks = importlib.import_module(f"{gdef.package}.hooks")
    plain = jit(error_model="numpy")  # no cache: the bound loop that calls them is cached
    ns: dict[str, Any] = {
        "np": np, "kernel": plain, "inline_kernel": jit(inline="always", error_model="numpy"),
        "game_choose": hooks.choose, **{h: vars(hooks).get(h, d) for h, d in USER_OPTIONAL.items()},
        "user_redeal": hooks.user_redeal, "actor": hooks.actor, "clock": hooks.clock,
        "USER_BASE": hooks.USER_BASE, "W_USER": W_USER, "W_PROBE": W_PROBE, "View": View,
        "readonly": readonly, "POLICY": POLICY, "uniform": uniform, "seed_streams": seed_streams,
        "PROBE_REDEALS": PROBE_REDEALS, "PROBE_REPEATS": PROBE_REPEATS, "NW": gdef.n_weights,
    }
    for i, p in enumerate(policies):
        ns[f"U{i}"] = jit(error_model="numpy")(p.policy.func)
    calls = "\n".join(_CALL.format(i=i, nu=len(p.weights)) for i, p in enumerate(policies))
    # a module name of the binding's own: numba names compiled code by module, qualname and a
    # per-process counter, and a loop loaded from the cache finds its callees by those names
    # (two bindings' "_call" in one process must never share one)
    # (two bindings' "_call" in one process must never share one). The module is registered in
    # sys.modules: a kernel loaded from the cache rebuilds its environment by importing it.
    modname = f"sim_userpol_{game}_{key}"
    mod = types.ModuleType(modname)
    mod.__dict__.update(ns)
    mod.__name__ = modname
    sys.modules[modname] = mod
    ns = mod.__dict__
    code = compile(_GENERATED.format(calls=calls), f"<sim.userpol {game} {key}>", "exec")
    exec(code, ns)  # noqa: S102  (our own template; the user's code is only the U<i> functions)
    hns = dict(vars(hooks))
    same = hooks.choose_sim is hooks.choose
    hns["choose"] = ns["choose"]
    if same:
        hns["choose_sim"] = ns["choose"]
    # a user function may allocate (np.zeros ...): its decisions are compiled with numba's
    # reference counting (the built-in loops of most games are not, engine.leaf_kernel)
    hns["LEAF_STEP"] = False
    kernels = bind(f"{game}__user_{key}", hns, hooks.trace_rows, hooks.snaps_used)
    out = UserSet(game, list(policies), kernels, key, int(hooks.USER_BASE))
    _SETS[f"{game}:{key}"] = out
    return out


# ---- errors raised by the kernels -----------------------------------------------------------
class IllegalChoice(Exception):
    """A user policy broke its contract during a run or a check: ``kind`` ``illegal`` (a
    choice outside -1 .. n - 1), ``nondeterministic`` or ``hidden`` (another choice after a
    re-deal of what the seat cannot see); the message names the file, the seat, the turn and
    the choices."""

    def __init__(self, kind: str, message: str):
        self.kind = kind
        super().__init__(message)


def user_error(e: BaseException, users: UserSet) -> IllegalChoice | None:
    """The :class:`IllegalChoice` a kernel's exception ``e`` stands for (numba's parallel batch
    wraps it in a SystemError whose cause it is), or None when it is not a user policy's."""
    for x in (e, e.__cause__, e.__context__):
        if isinstance(x, ValueError) and x.args and isinstance(x.args[0], str) and x.args[0].startswith("sim-user-"):
            kind = x.args[0][len("sim-user-"):]
            k, a, b, seat, turn = (int(v) for v in x.args[1:6])
            p = users.policies[k] if 0 <= k < len(users.policies) else None
            name = f"{p.path}:{p.function}" if p else f"user policy {k}"
            if kind == "illegal":
                msg = (f"{name} chose action {a} at seat {seat}, turn {turn}, where the legal choices are "
                       f"0 .. {b - 1} (or -1: the base policy decides)")
            elif kind == "nondeterministic":
                msg = (f"{name} is not deterministic: asked twice with the same view at seat {seat}, turn "
                       f"{turn}, it chose {a}, then {b} (draw randomness from view.u only)")
            else:
                msg = (f"{name} reads hidden information: at seat {seat}, turn {turn} it chose {a}, and {b} "
                       "after the cards the seat cannot see were re-dealt (read only what the seat sees: "
                       "docs/policies.md)")
            return IllegalChoice(kind, msg)
    return None


def locate(run: Any, limit: int = 5000) -> int | None:
    """The first game index of ``run`` (below ``limit``) in which a user policy breaks its
    contract (played one game at a time, as the batch plays it), or None."""
    import numpy as np

    k = run.users.kernels
    sh = k.shared_of(run.spec)
    for g in range(min(limit, run.cfg.games)):
        try:
            k.check_index(run.spec, sh, run.entry_policy, run.entry_weights, run.perms, np.int64(run.seed),
                          np.int64(g))
        except Exception as e:
            if user_error(e, run.users) is not None:
                return g
            raise
    return None


def compile_error(e: BaseException, users: UserSet) -> IllegalChoice | None:
    """An :class:`IllegalChoice` (kind ``compile``) for numba's refusal ``e`` to compile a user
    policy (a write into the read-only view, a Python object numba does not know ...): the
    policy files and the lines of numba's message that name them. None for another error."""
    try:
        from numba.core.errors import NumbaError
    except ImportError:  # pragma: no cover
        return None
    if not isinstance(e, NumbaError):
        return None
    text = str(e)
    files = [str(p.path) for p in users.policies]
    if not any(f in text for f in files):
        return None
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    what = next((ln for ln in lines if not ln.startswith(("Failed in", "During:", "File "))), lines[0] if lines else "")
    where = [ln for ln in lines if any(f in ln for f in files)]
    names = ", ".join(p.label for p in users.policies)
    return IllegalChoice("compile", f"{names} does not compile with numba (docs/policies.md, 'Writing one'): "
                         f"{what[:300]}" + (f"; at {where[-1][:200]}" if where else ""))


# ---- the check ----------------------------------------------------------------------------
@dataclass
class CheckResult:
    """What :func:`check` measured: ``games`` probed, ``seconds`` they took, and the speed of
    the run's seats unprobed (``games_per_s``) against the same seats with every user seat on
    its base policy (``base_games_per_s``); ``compile_s`` the time to load or compile."""

    games: int
    seconds: float
    compile_s: float
    games_per_s: float
    base_games_per_s: float


def probe_run(run: Any) -> Any:
    """``run`` with the probe flag set on every user seat's row (:data:`W_PROBE`)."""
    from dataclasses import replace

    from sim.games.user import W_PROBE, W_USER

    ew = run.entry_weights.copy()
    for i in range(ew.shape[0]):
        if ew[i, W_USER] >= 0:
            ew[i, W_PROBE] = 1.0
    return replace(run, entry_weights=ew)


def check(run: Any, games: int = 200, speed_games: int = 2000, base: Any = None) -> CheckResult:
    """Check the user policies of ``run`` (a CompiledRun with ``users``): play ``games`` games
    (from game 0 of the run's seed) with every user decision probed (legal, deterministic, blind
    to the unseen: module docstring), then, with ``base`` (``sim.compile.base_run(run)``: the
    user seats on their base policy), time ``speed_games`` games of each. Raises
    :class:`IllegalChoice` for the first broken decision."""
    import numpy as np

    users = run.users
    ncol = len(run.game.column_names(run.n_seats))
    pr = probe_run(run)
    t0 = time.perf_counter()
    out = np.zeros((1, ncol), np.int32)
    try:
        users.kernels.play_batch(pr.spec, pr.entry_policy, pr.entry_weights, pr.perms, np.int64(run.seed),
                                 np.int64(0), np.int64(1), out)
    except Exception as e:
        err = compile_error(e, users)
        if err is not None:
            raise err from None
        err = user_error(e, users)
        if err is None:
            raise
        raise IllegalChoice(err.kind, f"{err} (game 0 of seed {run.seed})") from None
    compile_s = time.perf_counter() - t0
    out = np.zeros((games, ncol), np.int32)
    t0 = time.perf_counter()
    try:
        users.kernels.play_batch(pr.spec, pr.entry_policy, pr.entry_weights, pr.perms, np.int64(run.seed),
                                 np.int64(0), np.int64(games), out)
    except Exception as e:
        err = user_error(e, users)
        if err is None:
            raise
        g = locate(pr, games)
        where = f" (game {g} of seed {run.seed})" if g is not None else ""
        raise IllegalChoice(err.kind, f"{err}{where}") from None
    secs = time.perf_counter() - t0
    if speed_games <= 0 or base is None:
        return CheckResult(games, secs, compile_s, 0.0, 0.0)
    gps = _speed(users.kernels.play_batch, run, speed_games, users)
    bps = _speed(base.game.play_batch, base, speed_games, None)
    return CheckResult(games, secs, compile_s, gps, bps)


def _speed(play_batch: Callable, run: Any, n: int, users: UserSet | None) -> float:
    import numpy as np

    out = np.zeros((max(1, n // 20), len(run.game.column_names(run.n_seats))), np.int32)
    play_batch(run.spec, run.entry_policy, run.entry_weights, run.perms, np.int64(run.seed), np.int64(0),
               np.int64(out.shape[0]), out)  # compiled or loaded before the clock starts
    out = np.zeros((n, out.shape[1]), np.int32)
    t0 = time.perf_counter()
    try:
        play_batch(run.spec, run.entry_policy, run.entry_weights, run.perms, np.int64(run.seed), np.int64(0),
                   np.int64(n), out)
    except Exception as e:
        err = user_error(e, users) if users is not None else None
        if err is None:
            raise
        raise err from None
    return n / max(time.perf_counter() - t0, 1e-9)
