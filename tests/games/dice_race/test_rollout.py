"""The ``rollout`` policy (RULES.md "Policies"): its simulations never draw from the game's
CHANCE stream, so every policy sees the same dice (RULES.md 2); its choice is fixed by the
position and the POLICY stream."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.api import replay
from sim.compile import load_run
from sim.games.dice_race.hooks import rollout_choice
from sim.games.dice_race.state import GameState
from sim.rng import CHANCE, POLICY
from tests.games.dice_race.conftest import race

CONFIG = Path(__file__).resolve().parents[3] / "configs" / "dice_race.toml"
ROLLOUT = {"policy": "rollout", "weights": {"rollouts": 8}}


def _decide(g: GameState, rng: np.ndarray) -> int:
    acts = np.zeros_like(g.acts)
    n = int(g.rows().shape[0])
    acts[:n] = g.rows()
    return int(rollout_choice(g.state.copy(), g.spec, g.W[0], acts, n, rng))


def test_the_rollout_never_draws_the_chance_stream():
    """engine.lookahead_streams: a decision advances only the deciding seat's POLICY stream."""
    g = race(dice=[3, 5], policies=[ROLLOUT, "heuristic"])
    g.put(1, 8)
    rng = g.rng.copy()
    _decide(g, rng)
    assert rng[CHANCE] == g.rng[CHANCE] and rng[POLICY] != g.rng[POLICY]


def test_the_same_position_and_policy_stream_give_the_same_choice():
    g = race(dice=[6, 5], policies=[ROLLOUT, "heuristic"])
    g.put(0, 3)
    g.put(1, 9)
    assert len({_decide(g, g.rng.copy()) for _ in range(3)}) == 1


def test_every_policy_rolls_the_same_dice():
    """RULES.md 2: turn t's dice depend on (seed, game index) only: the replays of a game with
    random seats and with rollout seats show the same dice on every turn both reach, and
    GameState.dealt() lists them."""
    base = load_run(CONFIG, games=10, rotate_seats=False)
    dice = []
    for seats in (["random"] * 3, [ROLLOUT, ROLLOUT, "greedy"]):
        run = base.with_overrides(seats=seats)
        for g in range(4):
            ev = replay(run, g).lines
            dice.append([ln.split(" rolls ")[1].split(" |")[0] for ln in ev if " rolls " in ln])
    for g in range(4):
        a, b = dice[g], dice[4 + g]
        k = min(len(a), len(b))
        assert k >= 7 and a[:k] == b[:k]
    dealt = GameState.from_run(base, 0).dealt()["dice"]
    assert [f"{x} and {y}" for x, y in dealt[: len(dice[0])]] == dice[0][: len(dealt)]
