"""Clear for Takeoff rule scenarios: the rulebook's forgetting (RULES.md D13), the options
``forget_draw`` and ``forget_takeoff``.

RB "How to play", note: "forgetfulness is dangerous in aviation! Remember to make sure that you
have nine cards in your hand at the end of your turn. If you forget you will have to wait until
the end of your next turn." RB Deck notes: "Players who forget to move their aircraft or draw
cards from the deck must wait until the end of their next turn. For example, if the weather was
clear, but the player forgot to take off his/her aircraft, it must be placed at the end of the
sequence on position D near the corresponding runway." RB Independent aircraft movement: "If the
aircraft is clear to take off, but the player forgot to take off his/her aircraft, it must be
placed at the end of the sequence on position D near the corresponding runway."

A probability of 1 makes every forgetting happen, so each scenario is exact; the spec's
``P_FORGET_*`` slot is set to 0 in place to let the same position go on without forgetting.
Default fleet: k0 small, k1 and k2 medium, k3 wide-body; runway 0 is 31L.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import sim.games.clear_for_takeoff.layout as L
from sim.compile import load_run
from sim.games.clear_for_takeoff.state import GameState
from sim.runner import run_games
from tests.games.clear_for_takeoff.test_rules_movement import MED, SMALL, WIDE, new


def _events(gs: GameState, code: int) -> list:
    return [e for e in gs.events() if int(e[2]) == code]


def test_forgotten_draw_waits_until_the_end_of_the_next_turn():
    """RB: "Remember to make sure that you have nine cards in your hand at the end of your
    turn. If you forget you will have to wait until the end of your next turn": seat 0 plays
    three A cards and forgets its draw (6 cards after its turn, the event and the count say
    so); at the end of its next turn (no forgetting then) it draws back to nine."""
    gs = new(forget_draw=1.0)
    gs.set_hand(0, {"A": 3, "LC": 3, "B": 3})
    deck0 = gs.deck_size()
    gs.play("place", gs.gid(0, WIDE), 0)  # stand 0
    gs.end_turn()
    assert sum(gs.hand(0).values()) == 6 and gs.deck_size() == deck0
    assert gs.stat(0, L.ST_FORGOT_DRAW) == 1
    ev = _events(gs, L.E_FORGOT_DRAW)
    assert len(ev) == 1 and int(ev[0][1]) == 0 and int(ev[0][3]) == 3  # seat 0, three cards short
    gs.p[L.P_FORGET_DRAW] = 0  # seat 1 and seat 0's next turn remember
    gs.end_turn()  # seat 1
    assert sum(gs.hand(0).values()) == 6  # seat 0's next turn begins short
    gs.end_turn()  # and ends: the draw it owed is made
    assert sum(gs.hand(0).values()) == 9
    assert gs.stat(0, L.ST_FORGOT_DRAW) == 1 and gs.stat(0, L.ST_FORGOT_TOFF) == 0


def test_a_full_hand_has_no_draw_to_forget():
    """A turn ending with nine cards in the hand has nothing to draw: nothing is forgotten
    (and no random number drawn for it)."""
    gs = new(forget_draw=1.0)
    gs.set_hand(0, {"A": 3, "LC": 3, "B": 3})
    rng0 = gs.rng.copy()
    gs.end_turn()  # no play: still nine cards
    assert gs.stat(0, L.ST_FORGOT_DRAW) == 0 and sum(gs.hand(0).values()) == 9
    assert np.array_equal(gs.rng, rng0)


def test_forgotten_takeoff_goes_to_the_end_of_the_sequence():
    """RB Independent aircraft movement: "If the aircraft is clear to take off, but the player
    forgot to take off his/her aircraft, it must be placed at the end of the sequence on
    position D near the corresponding runway": under a clear sky seat 0's small aircraft on the
    31L takeoff position does not take off; it goes behind seat 1's two aircraft on D 31L, and
    the front one moves onto the takeoff position at once (as for a weather stop)."""
    gs = new(forget_takeoff=1.0)
    gs.put(0, SMALL, gs.to(0))
    gs.put(1, SMALL, gs.d(0, 0))
    gs.put(1, MED, gs.d(0, 1))
    gs.end_turn()
    assert gs.pos(0, SMALL) == gs.d(0, 1)
    assert gs.pos(1, SMALL) == gs.to(0) and gs.pos(1, MED) == gs.d(0, 0)
    assert gs.stat(0, L.ST_FORGOT_TOFF) == 1 and gs.stat(0, L.ST_TAKEOFFS) == 0
    assert gs.stat(0, L.ST_BLOCKED) == 0  # not a weather stop
    ev = _events(gs, L.E_FORGOT_TAKEOFF)
    assert len(ev) == 1 and int(ev[0][3]) == gs.gid(0, SMALL) and int(ev[0][5]) == gs.gid(1, SMALL)
    assert gs.invariants() == 0


def test_forgotten_takeoff_with_no_sequence_waits_on_the_front_of_d():
    """RB: "it must be placed at the end of the sequence on position D": with nobody on D 31L
    the end of the sequence is its front place; the aircraft reaches the takeoff position again
    at the end of its owner's next turn and takes off the turn after (here remembered)."""
    gs = new(forget_takeoff=1.0)
    gs.put(0, MED, gs.to(0))
    gs.end_turn()
    assert gs.pos(0, MED) == gs.d(0, 0) and gs.occupant(gs.to(0)) == -1
    gs.p[L.P_FORGET_TOFF] = 0
    gs.end_turn()  # seat 1
    gs.end_turn()  # seat 0: front of D -> takeoff position
    assert gs.pos(0, MED) == gs.to(0)
    gs.end_turn()
    gs.end_turn()  # seat 0: takes off
    assert gs.where(0, MED) == "airborne"
    assert gs.stat(0, L.ST_FORGOT_TOFF) == 1 and gs.stat(0, L.ST_TAKEOFFS) == 1


def test_an_aircraft_the_weather_stops_is_not_forgotten():
    """Only an aircraft "clear to take off" can be forgotten: under SNOW a wide-body is stopped
    by the weather (counted as blocked, RB SN), not by forgetting."""
    gs = new(forget_takeoff=1.0)
    gs.set_weather("SN")
    gs.put(0, WIDE, gs.to(0))
    gs.put(1, SMALL, gs.d(0, 0))
    gs.end_turn()
    assert gs.stat(0, L.ST_BLOCKED) == 1 and gs.stat(0, L.ST_FORGOT_TOFF) == 0
    assert gs.pos(0, WIDE) == gs.d(0, 0) and gs.pos(1, SMALL) == gs.to(0)


def test_forgetting_is_off_by_default_and_counted_when_on():
    """Default (0): no forgetting and no column counts; with forget_draw = 0.1 and
    forget_takeoff = 0.2 the counts are in the result columns and the deals are the same
    (forgetting draws from the policy stream). Seeded figures of 300 default games (the same on
    any thread count: every game seeds its own streams)."""
    base = load_run(Path(__file__).resolve().parents[3] / "configs" / "clear_for_takeoff.toml", games=300)
    on = base.with_overrides(clear_for_takeoff={**base.cfg.raw["clear_for_takeoff"], "forget_draw": 0.1,
                                                "forget_takeoff": 0.2})
    cols = base.game.column_names(base.n_seats)
    a, b = run_games(base), run_games(on)
    fd = [cols.index(f"forgot_draw_s{s}") for s in range(4)]
    ft = [cols.index(f"forgot_takeoff_s{s}") for s in range(4)]
    assert a[:, fd].sum() == 0 and a[:, ft].sum() == 0
    draws, takeoffs = int(b[:, fd].sum()), int(b[:, ft].sum())
    turns = int(b[:, cols.index("turns")].sum())
    tk = int(b[:, [cols.index(f"takeoffs_s{s}") for s in range(4)]].sum())
    # seeded figures: 2,924 draws forgotten in 47,905 turns (6.1 %: a tenth of the turns that end
    # short of nine), 1,139 of 5,535 cleared take-offs forgotten (20.6 %, the chance asked for)
    assert (draws, takeoffs, tk, turns) == (2924, 1139, 4396, 47905)
    assert 0.15 < takeoffs / (takeoffs + tk) < 0.25
    for g in range(20):
        assert GameState.from_run(base, g).dealt() == GameState.from_run(on, g).dealt()
