"""Clear for Takeoff rule scenarios, part 4: finishing, the end of the game, options that
change it (play_out_ranks, finished_hand, direct_to_takeoff).

Default fleet of every airline: k0 small, k1 and k2 medium, k3 wide-body.
"""

from __future__ import annotations

import sim.games.clear_for_takeoff.layout as L
from sim.compile import run_from_dict
from sim.games.clear_for_takeoff.state import GameState

SMALL, MED, MED2, WIDE = 0, 1, 2, 3


def new(seats: int = 3, seed: int = 0, **section) -> GameState:
    gs = GameState(seats=seats, seed=seed, **section)
    for s in range(seats):
        gs.set_hand(s, {"B": 3, "C": 3, "D": 3} if s % 2 else {"A": 3, "LC": 2, "AI": 2, "VIP": 2})
    return gs


def last_one_on_takeoff(gs: GameState, seat: int, runway: int = 0) -> None:
    """Every aircraft of ``seat`` airborne but the wide-body, which is on a takeoff position."""
    for k in (SMALL, MED, MED2):
        gs.put(seat, k, L.POS_AIRBORNE)
    gs.put(seat, WIDE, gs.to(runway))


def test_first_all_airborne_wins_and_leaves_turn_order():
    """RB Welcome on board: 'The player who makes all of their aircrafts take off from the
    airfield first is declared the winner. But, the game doesn't stop there'; D12: a finished
    airline leaves the turn order."""
    gs = new(seats=3, seed=1)
    last_one_on_takeoff(gs, 0)
    gs.end_turn()
    assert gs.rank(0) == 1
    assert int(gs.state[L.H_WINNER]) == 0 and int(gs.state[L.H_WINNER_TURN]) == 1
    assert int(gs.state[L.H_DONE]) == 0
    assert gs.cur == 1
    gs.end_turn()
    assert gs.cur == 2
    gs.end_turn()
    assert gs.cur == 1                               # seat 0 is skipped
    assert gs.hand(0) == {}                          # D12 default: the hand went to the discard pile
    assert gs.invariants() == 0


def test_game_ends_when_one_airline_remains_with_last_rank():
    """RB Welcome on board: 'Play continues until there is just one airline remaining on the
    airfield'; that airline gets the last rank."""
    gs = new(seats=3, seed=2)
    last_one_on_takeoff(gs, 0)
    gs.end_turn()
    last_one_on_takeoff(gs, 1, runway=1)
    gs.set_current(1)
    gs.end_turn()
    assert (gs.rank(0), gs.rank(1), gs.rank(2)) == (1, 2, 3)
    assert int(gs.state[L.H_DONE]) == 1
    assert int(gs.state[L.H_WINNER]) == 0
    assert gs.invariants() == 0


def test_rank_order_follows_finishing_order_not_seat_order():
    """RB Welcome on board: the finishing order is the order in which airlines get every
    aircraft airborne (seat 2 first here)."""
    gs = new(seats=4, seed=3)
    gs.set_current(2)
    last_one_on_takeoff(gs, 2)
    gs.end_turn()
    assert gs.cur == 3
    last_one_on_takeoff(gs, 0, runway=1)
    gs.end_turn()                                    # seat 3
    gs.end_turn()                                    # seat 0 finishes
    assert (gs.rank(2), gs.rank(0)) == (1, 2)
    assert gs.rank(1) == 0 and gs.rank(3) == 0
    assert int(gs.state[L.H_DONE]) == 0
    assert int(gs.state[L.H_WINNER]) == 2
    assert gs.cur == 1


def test_no_rank_while_an_aircraft_is_on_the_airfield():
    """RB Welcome on board: 'all of your aircrafts' must take off; one in the hangar means no
    finish."""
    gs = new(seats=2, seed=4)
    gs.put(0, SMALL, L.POS_AIRBORNE)
    gs.put(0, MED, L.POS_AIRBORNE)
    gs.put(0, WIDE, gs.to(0))                        # MED2 still in the hangar
    gs.end_turn()
    assert gs.where(0, WIDE) == "airborne"
    assert gs.rank(0) == 0 and int(gs.state[L.H_DONE]) == 0


def test_play_out_ranks_false_stops_at_first_finisher():
    """RULES.md End of the game: option play_out_ranks = false stops at the first finisher;
    the ranks after the first stay 0 (three airlines)."""
    gs = new(seats=3, seed=5, play_out_ranks=False)
    last_one_on_takeoff(gs, 0)
    gs.end_turn()
    assert int(gs.state[L.H_DONE]) == 1
    assert (gs.rank(0), gs.rank(1), gs.rank(2)) == (1, 0, 0)
    assert int(gs.state[L.H_WINNER]) == 0


def test_finished_hand_discard_default():
    """D12 default finished_hand = "discard": a finished airline's hand goes to the discard
    pile, so its cards come back into play at the next reshuffle."""
    gs = new(seats=3, seed=6)
    last_one_on_takeoff(gs, 0)
    before = gs.discard_size()
    gs.end_turn()
    assert gs.hand(0) == {}
    assert gs.discard_size() == before + 9
    assert gs.invariants() == 0


def test_finished_hand_out_of_play_option():
    """D12 option finished_hand = "out_of_play": a finished airline keeps its hand, out of
    play for the rest of the game (the discard pile does not grow)."""
    gs = new(seats=3, seed=6, finished_hand="out_of_play")
    last_one_on_takeoff(gs, 0)
    before = gs.discard_size()
    gs.end_turn()
    assert sum(gs.hand(0).values()) == 9
    assert gs.discard_size() == before
    assert gs.invariants() == 0


def test_direct_to_takeoff_option():
    """D6 option direct_to_takeoff = true: taxiing to an empty sequence goes straight to the
    empty takeoff position ('goes to the closest takeoff position'); it takes off at the end of
    the owner's next turn, not this one."""
    gs = new(seats=2, seed=7, direct_to_takeoff=True)
    gs.put(0, MED, gs.slot_2(0))
    gs.set_hand(0, {"D": 2, "A": 7})
    gs.play("to_d", gs.gid(0, MED), 1)
    assert gs.pos(0, MED) == gs.to(1)
    gs.end_turn()
    assert gs.pos(0, MED) == gs.to(1)
    gs.end_turn()
    gs.end_turn()
    assert gs.where(0, MED) == "airborne"
    # with a sequence (or an occupied takeoff position) it joins the back as usual
    gs.put(1, SMALL, gs.to(0))
    gs.put(0, SMALL, gs.slot_2(1))
    gs.set_current(0)
    gs.set_hand(0, {"D": 1, "A": 8})
    gs.play("to_d", gs.gid(0, SMALL), 0)
    assert gs.pos(0, SMALL) == gs.d(0, 0)
    assert gs.invariants() == 0


def test_default_empty_sequence_goes_to_front_d_not_takeoff():
    """D6 default: an aircraft taxiing to an empty sequence stops on the front D place."""
    gs = new(seats=2, seed=7)
    gs.put(0, MED, gs.slot_2(0))
    gs.set_hand(0, {"D": 2, "A": 7})
    gs.play("to_d", gs.gid(0, MED), 1)
    assert gs.pos(0, MED) == gs.d(1, 0)
    assert gs.occupant(gs.to(1)) == -1


def test_play_out_ranks_false_two_airlines_last_rank_known():
    """RULES.md End of the game: with two airlines the first finisher leaves one airline, so
    play_out_ranks = false still gives it the last rank (2)."""
    gs = new(seats=2, seed=8, play_out_ranks=False)
    last_one_on_takeoff(gs, 0)
    gs.end_turn()
    assert int(gs.state[L.H_DONE]) == 1
    assert (gs.rank(0), gs.rank(1)) == (1, 2)


def test_smaller_fleet_finishes_with_its_own_aircraft():
    """RB Welcome on board: an airline finishes when all of *its* aircraft are airborne (an
    airline with one small aircraft only, config ``airlines``)."""
    airlines = [{"small": 1, "medium": 0, "wide": 0}, {}, {}]
    gs = new(seats=3, seed=9, airlines=airlines)
    assert gs.pos(0, MED) == L.POS_NONE and gs.pos(0, WIDE) == L.POS_NONE
    gs.put(0, SMALL, gs.to(1))
    gs.end_turn()
    assert gs.rank(0) == 1
    assert gs.invariants() == 0


def _capped(cap: int) -> GameState:
    raw = {"game": "clear_for_takeoff", "seats": ["greedy"] * 3, "seed": 2, "turn_cap": cap, "clear_for_takeoff": {}}
    return GameState.from_run(run_from_dict(raw, "<cap>"))


def test_cap_after_the_winner_cuts_the_order_short_and_is_no_stall():
    """RB Welcome on board (the first airline with every aircraft airborne wins) and the
    turn cap (RULES.md End of the game): a cap reached after the winner finished ends a won
    game with its finishing order cut off (snapshot ``cut_off``), not a stall."""
    gs = _capped(3)
    for k in range(4):
        gs.put(0, k, L.POS_AIRBORNE if k else gs.to(0))
    gs.end_turn()
    assert gs.rank(0) == 1 and gs.snapshot()["winner"] == 0
    gs.end_turn()
    gs.end_turn()
    snap = gs.snapshot()
    assert gs.over and snap["cut_off"] and not snap["stalled"]
    assert [gs.rank(s) for s in range(3)] == [1, 0, 0]
    assert [int(e[3]) for e in gs.events() if e[2] == L.E_STALL] == [1]


def test_cap_before_any_winner_is_a_stall():
    """RULES.md End of the game: a cap reached before any airline finished is a stall."""
    gs = _capped(2)
    gs.end_turn()
    gs.end_turn()
    snap = gs.snapshot()
    assert gs.over and snap["stalled"] and not snap["cut_off"] and snap["winner"] == -1
