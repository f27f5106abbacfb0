"""``[clear_for_takeoff]`` validation (config.Section) and the feasibility checks of
``spec.compile_spec``: bad input raises ConfigError naming the key."""

from __future__ import annotations

import pytest

import sim.games.clear_for_takeoff.data as data
from sim.compile import run_from_dict
from sim.config import load_dict
from sim.errors import ConfigError
from sim.games.clear_for_takeoff.config import Section
from sim.games.clear_for_takeoff.layout import NCT, NP, P_HAND, P_K, P_NCARDS, P_NSLOT, P_S


def raw(seats=2, **section):
    return {"game": "clear_for_takeoff", "seats": ["greedy"] * seats, "seed": 1, "clear_for_takeoff": section}


def test_defaults_come_from_data():
    """Every default of the section is data.py's (RB nine cards, exchange 1-4; the research
    notes' 108-card deck and six 1-2-1 airlines, ASSUMPTION)."""
    sec = Section()
    assert sec.hand_size == data.HAND_SIZE == 9
    assert sec.exchange_max == data.EXCHANGE_MAX == 4
    assert sec.deck.counts() == list(data.DECK.values())
    assert sum(sec.deck.counts()) == 108
    assert len(sec.airlines) == data.N_AIRLINES
    assert (sec.airlines[0].small, sec.airlines[0].medium, sec.airlines[0].wide) == (1, 2, 1)
    # the readings of RULES.md D17-D19 (the table's readings)
    assert (sec.snow_extra, sec.join_held_sequence, sec.reshuffle) == \
        (data.SNOW_EXTRA, data.JOIN_HELD_SEQUENCE, data.RESHUFFLE) == ("same", True, "on_draw")


@pytest.mark.parametrize("section,key", [
    ({"hand_size": 0}, "clear_for_takeoff.hand_size"),
    ({"move_cards": [1, 2]}, "clear_for_takeoff.move_cards"),
    ({"stands_ab": 9}, "clear_for_takeoff.stands_ab"),
    ({"finished_hand": "burn"}, "clear_for_takeoff.finished_hand"),
    ({"snow_extra": "D"}, "clear_for_takeoff.snow_extra"),
    ({"reshuffle": "never"}, "clear_for_takeoff.reshuffle"),
    ({"join_held_sequence": "maybe"}, "clear_for_takeoff.join_held_sequence"),
    ({"deck": {"A": -1}}, "clear_for_takeoff.deck.A"),
    ({"deck": {"Z": 3}}, "clear_for_takeoff.deck.Z"),
    ({"no_such_key": 1}, "clear_for_takeoff.no_such_key"),
])
def test_bad_value_names_its_key(section, key):
    """A value out of range, of the wrong type or an unknown key names its dotted key."""
    with pytest.raises(ConfigError) as e:
        load_dict(raw(**section), "<t>")
    assert e.value.key == key


@pytest.mark.parametrize("section", [
    {"move_cards": [1, 2, 6]},
    {"stands_ab": 0, "stands_ac": 0},
    {"airlines": [{"small": 0, "medium": 0, "wide": 0}, {}]},
])
def test_section_wide_checks(section):
    """RB Movement cards (1-3 cards), a board with a stand, an airline with an aircraft."""
    with pytest.raises(ConfigError) as e:
        load_dict(raw(**section), "<t>")
    assert e.value.key.startswith("clear_for_takeoff")


def test_more_seats_than_airlines():
    """Seat i flies airline i: more seats than airlines is a feasibility error on ``seats``."""
    with pytest.raises(ConfigError) as e:
        run_from_dict(raw(seats=3, airlines=[{}, {}]), "<t>")
    assert e.value.key == "seats"


def test_deck_too_small_to_deal():
    """RB Setting up: nine cards to each player need at least 9 x seats cards."""
    deck = {k: 0 for k in data.DECK}
    deck.update({"A": 10, "B": 7})
    with pytest.raises(ConfigError) as e:
        run_from_dict(raw(seats=2, deck=deck), "<t>")
    assert e.value.key == "clear_for_takeoff.deck" and "cannot deal" in e.value.reason


def test_deck_without_keepable_cards():
    """RB Exchanging: an exchange keeps only movement, LC, VIP or AI cards; a deck with
    fewer than exchange-max of them cannot be played."""
    deck = {k: 0 for k in data.DECK}
    deck.update({"A": 1, "SC": 30})
    with pytest.raises(ConfigError) as e:
        run_from_dict(raw(seats=2, deck=deck), "<t>")
    assert e.value.key == "clear_for_takeoff.deck" and "movement" in e.value.reason


def test_compiled_spec_shapes():
    """compile_spec: p int64[NP], deck_cards one entry per card, fleet int32[S, K] padded
    with 0 to the largest fleet; slot ids as layout.py documents."""
    run = run_from_dict(raw(seats=3, airlines=[{"small": 2, "medium": 0, "wide": 0}, {}, {"wide": 3}]), "<t>")
    p, deck_cards, fleet = run.spec
    assert p.shape == (NP,) and p[P_S] == 3 and p[P_HAND] == 9 and p[P_NCARDS] == 108
    assert p[P_K] == 6  # the largest fleet: 1 small, 2 medium, 3 wide-body
    assert fleet.tolist() == [[1, 1, 0, 0, 0, 0], [1, 2, 2, 3, 0, 0], [1, 2, 2, 3, 3, 3]]
    assert deck_cards.shape == (108,) and deck_cards.min() == 0 and deck_cards.max() == NCT - 1
    assert p[P_NSLOT] == 2 * 6 + 2 + 2 * 3 + 2  # stands, VIP1/2, two D sequences of 3, takeoffs
