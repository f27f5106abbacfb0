"""Clear for Takeoff rule scenarios, part 0: the game turn (RB "The game turn"): who plays
next, and the one action a turn (no pass while holding cards, RULES.md D5).

Default fleet of every airline: k0 small, k1 and k2 medium, k3 wide-body.
"""

from __future__ import annotations

import numpy as np
import pytest

import sim.games.clear_for_takeoff.layout as L
from sim.games.clear_for_takeoff.state import GameState
from tests.games.clear_for_takeoff.conftest import NO_PLAY_HAND, exchange_only

SMALL, MED, MED2, WIDE = 0, 1, 2, 3


def test_play_proceeds_clockwise():
    """RB "The game turn": 'Play proceeds clockwise around the table' (D1: seat 0 begins,
    then seat 1, 2, ...): with four airlines the turn passes 0 -> 1 -> 2 -> 3 -> 0, one
    player turn counted each time."""
    gs = GameState(seats=4, seed=1)
    assert gs.cur == 0 and gs.snapshot()["turn"] == 0
    order = []
    for _ in range(8):
        gs.end_turn()
        order.append(gs.cur)
    assert order == [1, 2, 3, 0, 1, 2, 3, 0]
    assert gs.snapshot()["turn"] == 8


def test_no_pass_while_holding_cards():
    """RB "The game turn": 'During your turn, you must perform (only) one of the following
    two actions: 1. Exchange cards ... 2. Play cards' (D5: no pass): a seat holding cards but
    with no legal play is offered exchanges only, never a pass, and a pass is refused; only
    an empty hand with no play passes."""
    gs = GameState(seats=2, seed=2)
    gs.set_hand(0, NO_PLAY_HAND)
    assert gs.legal() == []
    acts = gs.legal_actions()
    assert (L.K_PASS,) not in acts
    assert acts and {a[0] for a in acts} == {L.K_EXCHANGE}
    with pytest.raises(ValueError, match="pass is legal only"):
        gs.apply((L.K_PASS,))
    assert gs.hand(0) == NO_PLAY_HAND
    gs.set_hand(0, {})
    assert gs.legal_actions() == [(L.K_PASS,)]


@pytest.mark.parametrize("policy", ["random", "greedy", "heuristic", "rollout"])
def test_no_policy_passes_while_holding_cards(policy):
    """RB "The game turn": 'you must perform (only) one of the following two actions' (D5):
    the playout's own decision (``play.decide``) for a seat holding cards but with no play is
    an exchange of held cards, for every policy, whatever its stream draws."""
    gs = exchange_only(policy, 3)
    for i in range(4):
        a = gs.choose(np.array([i + 1, 7 * i + 3], np.uint64))
        assert a[0] == L.K_EXCHANGE and 1 <= len(a) - 1 <= 4
        assert set(a[1:]) <= {L.CARD_NAMES.index("AI"), L.CARD_NAMES.index("B")}
    gs.apply(gs.choose())
    gs.end_turn()
    assert gs.stat(0, L.ST_EXCH) == 1
    assert int(np.sum(gs.events()[:, 2] == L.E_PASS)) == 0
    assert gs.invariants() == 0
