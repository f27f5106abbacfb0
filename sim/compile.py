"""One compilation per run: a validated config, its game, the game's spec and the seat
tables, made once and handed to every consumer (runner, backends, replay, warm-up,
``GameState``). Nothing downstream compiles a spec again.

``sim.config`` only validates; feasibility (a deck too small to deal, an impossible board)
is the game's ``compile_spec``, so :func:`compile_run` is where those errors are raised.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sim.config import RunConfig, load, load_dict
from sim.games import get_game
from sim.games.base import ENGINE_W, ENGINE_WEIGHTS, LOOKAHEAD_W, GameDef


@dataclass(frozen=True)
class CompiledRun:
    """A run ready to play.

    ``spec``: the game's compiled spec; ``entry_policy`` int64[E], ``entry_weights``
    float64[E, W], ``perms`` int64[P, E] and ``labels`` (E names) are the seat tables of the
    kernel contract (:mod:`sim.games.base`).
    """

    cfg: RunConfig
    game: GameDef
    spec: Any
    entry_policy: np.ndarray
    entry_weights: np.ndarray
    perms: np.ndarray
    labels: list[str]
    users: Any = None
    """The run's user policies (:class:`sim.userpol.UserSet`: the files, their binding of the
    engine loop), or None when every seat plays a built-in policy. With user policies ``game``
    is the game's definition with the user binding's kernels as its ``play_batch``,
    ``check_playout`` and ``progress_trace``."""

    @property
    def policy_files(self) -> list[dict[str, str]]:
        """``[{"name", "path", "sha256"}]`` of the user policy files (manifest.json, report)."""
        return [] if self.users is None else self.users.records()

    @property
    def seed(self) -> int:
        return self.cfg.seed

    @property
    def n_seats(self) -> int:
        return self.cfg.n_seats

    def seat_labels(self, game_index: int) -> list[str]:
        """Label of the entry playing each seat in game ``game_index``."""
        row = self.perms[game_index % self.perms.shape[0]]
        return [self.labels[int(i)] for i in row]

    def with_overrides(self, **kw: Any) -> CompiledRun:
        """The same run with common keys overridden (``games``, ``seed`` ...), compiled again
        only when they change the game."""
        cfg = self.cfg.with_overrides(**kw)
        if cfg is self.cfg:
            return self
        return compile_run(cfg)


def seat_tables(cfg: RunConfig, gdef: GameDef, users: Any = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
    """Arrays the kernel takes for the seats of ``cfg``.

    Returns ``entry_policy`` int64[E], ``entry_weights`` float64[E, n_weights + ENGINE_W +
    LOOKAHEAD_W] (defaults overlaid with the seat's weights, in the policy's declared order;
    then the engine's weights, ``base.ENGINE_WEIGHTS``, every policy's; for a look-ahead
    policy the leading slots are its base policy's weights and the trailing slots the base id
    and its own weights, see :mod:`sim.games.base`), ``perms`` int64[P, E]
    (every permutation when ``rotate_seats``, else the identity) and the entry labels.

    With ``users`` (a :class:`sim.userpol.UserSet`) every row also has the user slots of
    :mod:`sim.games.user` before the engine's: a user seat plays the base policy's id with
    the base's default weights, its own weights in the user slots and its index in
    ``W_USER``; every other seat has -1 there.
    """
    from sim.games.user import USER_SLOTS, W_USER
    from sim.userpol import is_user_spec

    n = len(cfg.seats)
    user_w = 0 if users is None else users.n_user_weights + USER_SLOTS
    eng = gdef.n_weights + user_w  # the engine's slots
    la = eng + ENGINE_W  # the look-ahead slots
    width = la + LOOKAHEAD_W
    entry_policy = np.zeros(n, dtype=np.int64)
    entry_weights = np.zeros((n, width), dtype=np.float64)
    entry_weights[:, la] = -1.0
    if users is not None:
        entry_weights[:, W_USER] = -1.0
    labels = []
    for i, seat in enumerate(cfg.seats):
        if users is not None and is_user_spec(seat.policy):
            k = users.index(seat.policy)
            base = next(p for p in gdef.policies if p.id == users.base)
            entry_policy[i] = base.id
            for j, (_wname, wdef) in enumerate(base.weights.items()):
                entry_weights[i, j] = wdef
            for j, (wname, wdef) in enumerate(users.policies[k].weights.items()):
                entry_weights[i, gdef.n_weights + j] = seat.weights.get(wname, wdef)
            for j, (wname, wdef) in enumerate(ENGINE_WEIGHTS.items()):
                entry_weights[i, eng + j] = seat.weights.get(wname, wdef)
            entry_weights[i, W_USER] = k
            labels.append(seat.name)
            continue
        p = gdef.policy(seat.policy)
        entry_policy[i] = p.id
        for j, (wname, wdef) in enumerate(ENGINE_WEIGHTS.items()):
            entry_weights[i, eng + j] = seat.weights.get(wname, wdef)
        if p.lookahead:
            base = gdef.policy(seat.base or p.base)
            for j, (wname, wdef) in enumerate(base.weights.items()):
                entry_weights[i, j] = seat.base_weights.get(wname, wdef)
            entry_weights[i, la] = base.id
            for j, (wname, wdef) in enumerate(p.weights.items()):
                entry_weights[i, la + 1 + j] = seat.weights.get(wname, wdef)
        else:
            for j, (wname, wdef) in enumerate(p.weights.items()):
                entry_weights[i, j] = seat.weights.get(wname, wdef)
        labels.append(seat.name)
    if cfg.rotate_seats:
        perms = np.array(list(itertools.permutations(range(n))), dtype=np.int64)
    else:
        perms = np.arange(n, dtype=np.int64)[None, :]
    return entry_policy, entry_weights, perms, labels


def compile_run(cfg: RunConfig) -> CompiledRun:
    """Compile ``cfg`` once: game, spec, seat tables, and the binding of its user policies
    (:mod:`sim.userpol`) when a seat names one. Raises :class:`sim.errors.ConfigError` for a
    set-up the game cannot play."""
    from dataclasses import replace

    from sim.userpol import bind_policies, seat_policies_of

    gdef = get_game(cfg.game)
    spec = gdef.compile(cfg)
    policies = seat_policies_of(cfg)
    users = bind_policies(cfg.game, policies) if policies else None
    if users is not None:
        k = users.kernels
        gdef = replace(gdef, overrides={**gdef.overrides, "play_batch": k.play_batch,
                                        "check_playout": k.check_playout, "progress_trace": k.run_progress})
    ep, ew, perms, labels = seat_tables(cfg, gdef, users)
    return CompiledRun(cfg, gdef, spec, ep, ew, perms, labels, users)


def base_run(run: CompiledRun) -> CompiledRun:
    """``run`` with every user seat on its base policy (``USER_BASE``, default weights but its
    ``mistake``): the built-in kernels and rows, the yardstick of ``sim policy-check``'s
    speed."""
    from sim.userpol import is_user_spec

    if run.users is None:
        return run
    base = next(p.name for p in run.game.policies if p.id == run.users.base)
    seats = [s.model_copy(update={"policy": base, "label": s.name,
                                  "weights": {k: v for k, v in s.weights.items() if k == "mistake"}})
             if is_user_spec(s.policy) else s for s in run.cfg.seats]
    return compile_run(run.cfg.model_copy(update={"seats": seats}))


def load_run(path: str | Path, **overrides: Any) -> CompiledRun:
    """Read, validate (with overrides) and compile a config file; raises ConfigError."""
    return compile_run(load(path).with_overrides(**overrides))


def run_from_dict(raw: dict[str, Any], source: str = "<memory>") -> CompiledRun:
    """Validate and compile a parsed config dict; raises ConfigError."""
    return compile_run(load_dict(raw, source))
