"""Clear for Takeoff set-up (RB "Setting up the game"): the deal, the weather, the hangars,
the first player, and the rigging hook (``Rig.deck`` = the deck in draw order).

Default fleet of every airline: k0 small, k1 and k2 medium, k3 wide-body.
"""

from __future__ import annotations

import numpy as np
import pytest

import sim.games.clear_for_takeoff.layout as L
from sim.compile import run_from_dict
from sim.games.base import Rig
from sim.games.clear_for_takeoff.state import GameState


def total_cards(gs: GameState) -> int:
    S = int(gs.p[L.P_S])
    return (sum(sum(gs.hand(s).values()) for s in range(S)) + gs.deck_size() + gs.discard_size()
            + int(gs.state[L.H_WCARD]))


def _run(seats=3, **section):
    return run_from_dict({"game": "clear_for_takeoff", "seats": ["greedy"] * seats, "seed": 5,
                          "clear_for_takeoff": section}, "<setup>")


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_setup_nine_cards_clear_weather_all_in_hangar(seats):
    """RB Setting up the game: nine cards to each player, the rest is the deck; RB Weather
    cards: the weather is clear at the start (no Weather card on the board); every aircraft
    in its hangar; D1: seat 0 begins."""
    gs = GameState(seats=seats, seed=3)
    for s in range(seats):
        assert sum(gs.hand(s).values()) == 9
        assert [gs.where(s, k) for k in range(4)] == ["hangar"] * 4
        assert gs.rank(s) == 0
    assert gs.deck_size() == 108 - 9 * seats
    assert gs.discard_size() == 0
    assert gs.weather == "SC" and int(gs.state[L.H_WCARD]) == 0
    assert gs.cur == 0
    assert all(gs.occupant(sl) == -1 for sl in range(int(gs.p[L.P_NSLOT])))
    assert gs.invariants() == 0


def test_setup_card_conservation():
    """RB Setting up / Deck notes: the single 108-card deck (research default) is shared out
    between hands and deck; every card type keeps its count."""
    gs = GameState(seats=3, seed=11)
    counts = {n: 0 for n in L.CARD_NAMES}
    d0 = int(gs.p[L.P_OFF_DECK])
    for c in gs.state[d0: d0 + gs.deck_size()]:
        counts[L.CARD_NAMES[int(c)]] += 1
    for s in range(3):
        for n, k in gs.hand(s).items():
            counts[n] += k
    assert counts == {"A": 17, "B": 11, "C": 11, "D": 17, "LC": 8, "VIP": 6, "AI": 8, "FLR": 4,
                      "DLY": 6, "SC": 5, "FG": 2, "31L": 2, "31R": 2, "SN": 3, "XW": 3, "ICE": 3}
    assert total_cards(gs) == 108


def test_rigged_deck_is_dealt_one_card_at_a_time_around_the_table():
    """RB Setting up: deal nine cards to each player (one at a time, seat 0 first, D1);
    ``Rig.deck`` is the draw order, so card i goes to seat i % S and the rest stays the
    deck with its next card on top."""
    run = _run(seats=3)
    deck = [int(c) for c in run.spec[1]]          # sorted by card type: A x17, B x11, ...
    order = deck[::-1]                            # draw ICE, ICE, ICE, XW, ... first
    gs = GameState.from_run(run, 0, Rig(deck=order))
    for s in range(3):
        want = {}
        for c in order[s:27:3]:
            want[L.CARD_NAMES[c]] = want.get(L.CARD_NAMES[c], 0) + 1
        assert gs.hand(s) == want
    assert gs.hand(0) == {"ICE": 1, "XW": 1, "SN": 1, "31R": 1, "31L": 1, "SC": 2, "DLY": 2}
    d0, n = int(gs.p[L.P_OFF_DECK]), gs.deck_size()
    assert n == 108 - 27
    assert [int(c) for c in gs.state[d0: d0 + n][::-1]] == order[27:]
    assert gs.invariants() == 0


def test_deck_order_builder_puts_named_cards_on_top():
    """RB Setting up: the deal takes the top cards; ``deck_order`` names them, first drawn
    first: with two seats, seat 0 gets the 1st, 3rd, ... cards."""
    gs = GameState(seats=2, deck_order=["VIP", "FLR", "VIP", "FLR"] + ["A"] * 14)
    assert gs.hand(0) == {"VIP": 2, "A": 7}
    assert gs.hand(1) == {"FLR": 2, "A": 7}


def test_rig_rejects_another_deck_and_dice():
    """Rigging hook: a rigged deck must be the config's deck; the game has no dice."""
    run = _run(seats=2)
    deck = [int(c) for c in run.spec[1]]
    with pytest.raises(ValueError, match="exactly the cards"):
        GameState.from_run(run, 0, Rig(deck=deck[:-1] + [L.CA]))
    with pytest.raises(ValueError, match="no dice"):
        GameState.from_run(run, 0, Rig(dice=[1, 2]))


def test_unrigged_deal_depends_on_game_index_only_through_the_chance_stream():
    """RB Setting up: shuffle; game g of a seed always gets the same deal, another g another."""
    run = _run(seats=4)
    a = GameState.from_run(run, 3)
    b = GameState.from_run(run, 3)
    c = GameState.from_run(run, 4)
    assert np.array_equal(a.state, b.state)
    assert not np.array_equal(a.state, c.state)
