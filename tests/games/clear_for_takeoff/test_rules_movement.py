"""Clear for Takeoff rule scenarios, part 3: the D sequences, independent aircraft movement
and the weather at takeoff (RB "Position D", "Independent aircraft movement", "Weather
cards", "Anti-Ice card").

Default fleet of every airline: k0 small, k1 and k2 medium, k3 wide-body. Runway 0 is 31L,
runway 1 is 31R. ``end_turn`` is the end of the current seat's turn (face-down draw,
independent movement of that seat's aircraft, next seat).
"""

from __future__ import annotations

import pytest

import sim.games.clear_for_takeoff.layout as L
from sim.games.clear_for_takeoff.state import GameState

SMALL, MED, MED2, WIDE = 0, 1, 2, 3


def new(seats: int = 2, seed: int = 0, **section) -> GameState:
    gs = GameState(seats=seats, seed=seed, **section)
    for s in range(seats):
        gs.set_hand(s, {"B": 3, "C": 3, "D": 3} if s else {"A": 3, "LC": 3, "VIP": 3})
    return gs


def round_trip(gs: GameState, n: int = 1) -> None:
    """End the current turn, then the other seats' turns, n times (back to the same seat)."""
    S = int(gs.p[L.P_S])
    for _ in range(n * S):
        gs.end_turn()


# ---------------------------------------------------------------------------------------
# the D sequences
# ---------------------------------------------------------------------------------------
def test_sequence_moves_up_on_another_players_turn():
    """RB Position D: 'When the sequence moves, so does your aircraft, even if it's not your
    turn': seat 0 fails the front D aircraft, seat 1's aircraft behind move up at once."""
    gs = new(seed=1)
    gs.put(1, WIDE, gs.d(0, 0))
    gs.put(1, SMALL, gs.d(0, 1))
    gs.put(1, MED, gs.d(0, 2))
    gs.set_hand(0, {"FLR": 1, "A": 8})
    gs.play("flr", gs.gid(1, WIDE))
    assert gs.pos(1, SMALL) == gs.d(0, 0) and gs.pos(1, MED) == gs.d(0, 1)
    assert gs.occupant(gs.d(0, 2)) == -1
    assert gs.invariants() == 0


def test_fog_holds_both_sequences_until_weather_changes():
    """RB FG: 'When FOG is in play the sequence on D does not move and all aircrafts hold
    their positions'; RULES.md: gaps stay, and close at once when the hold ends."""
    gs = new(seed=2)
    gs.set_weather("FG")
    gs.put(1, SMALL, gs.d(0, 0))
    gs.put(1, MED, gs.d(0, 1))
    gs.put(1, MED2, gs.d(1, 0))
    gs.put(1, WIDE, gs.d(1, 1))
    gs.set_hand(0, {"FLR": 2, "A": 7})
    gs.play("flr", gs.gid(1, SMALL))
    assert gs.pos(1, MED) == gs.d(0, 1) and gs.occupant(gs.d(0, 0)) == -1
    assert gs.invariants() == 0                      # a gap is allowed while held
    gs.end_turn()
    gs.set_hand(1, {"SC": 1, "B": 8})
    gs.play("weather", arg="SC")
    assert gs.pos(1, MED) == gs.d(0, 0)
    assert gs.pos(1, MED2) == gs.d(1, 0) and gs.pos(1, WIDE) == gs.d(1, 1)
    assert gs.invariants() == 0


def test_fog_front_d_does_not_move_to_takeoff_but_joining_back_works():
    """RB FG: the D sequence does not move (front D stays off the takeoff position);
    RULES.md: aircraft may still join the back of a held sequence."""
    gs = new(seed=3)
    gs.set_weather("FG")
    gs.put(0, SMALL, gs.d(1, 0))
    gs.put(0, MED, gs.slot_2(0))
    gs.set_hand(0, {"D": 2, "A": 7})
    gs.play("to_d", gs.gid(0, MED), 1)
    assert gs.pos(0, MED) == gs.d(1, 1)
    gs.end_turn()
    assert gs.pos(0, SMALL) == gs.d(1, 0)
    assert gs.occupant(gs.to(1)) == -1
    assert gs.invariants() == 0


def test_31l_closed_holds_only_31l():
    """RB 31L CLOSED: 'the sequence on the corresponding D position does not move ... Runway
    31R is in use without restrictions'."""
    gs = new(seed=4)
    gs.set_weather("31L")
    gs.put(1, SMALL, gs.d(0, 0))
    gs.put(1, MED, gs.d(0, 1))
    gs.put(1, MED2, gs.d(1, 0))
    gs.put(1, WIDE, gs.d(1, 1))
    gs.set_hand(0, {"FLR": 2, "A": 7})
    gs.play("flr", gs.gid(1, SMALL))
    assert gs.pos(1, MED) == gs.d(0, 1)              # 31L held: gap stays
    gs.end_turn()
    gs.set_current(0)
    gs.play("flr", gs.gid(1, MED2))
    assert gs.pos(1, WIDE) == gs.d(1, 0)             # 31R moves up
    assert gs.invariants() == 0


def test_31r_closed_takeoff_and_front_d_hold_on_31r_only():
    """RB 31R CLOSED: no takeoff from 31R and its sequence holds (front D does not move on);
    31L takes off and moves on normally."""
    gs = new(seed=4)
    gs.set_weather("31R")
    gs.put(0, SMALL, gs.to(0))
    gs.put(0, MED, gs.to(1))
    gs.put(0, MED2, gs.d(0, 0))
    gs.put(1, SMALL, gs.d(1, 0))
    gs.put(0, WIDE, gs.d(1, 1))
    gs.end_turn()
    assert gs.where(0, SMALL) == "airborne"
    assert gs.pos(0, MED) == gs.to(1)                # holds on 31R
    assert gs.pos(0, MED2) == gs.to(0)               # 31L front D moves on
    assert gs.pos(0, WIDE) == gs.d(1, 1)
    assert gs.stat(0, L.ST_BLOCKED) == 1
    assert gs.invariants() == 0


# ---------------------------------------------------------------------------------------
# independent movement
# ---------------------------------------------------------------------------------------
def test_vip1_to_vip2_only_from_next_turn():
    """RB VIP positions: 'From your next turn the aircraft will move independently'; RB
    Independent movement: VIP1 at the start of the turn -> VIP2 at its end."""
    gs = new(seed=5)
    gs.play("vip", gs.gid(0, WIDE))
    gs.end_turn()
    assert gs.pos(0, WIDE) == gs.vip1                # placed this turn: no own move
    gs.end_turn()                                    # seat 1's turn: not moved either
    assert gs.pos(0, WIDE) == gs.vip1
    gs.end_turn()
    assert gs.pos(0, WIDE) == gs.vip2
    assert gs.invariants() == 0


def test_vip2_to_d_on_chosen_runway():
    """RB Independent movement: VIP2 at the start of the turn: 'you may choose which runway
    the aircraft will use (31L or 31R) and advance the aircraft to position D', at the end of
    the sequence."""
    gs = new(seed=5)
    gs.put(0, MED, gs.vip2)
    gs.put(1, SMALL, gs.d(1, 0))
    gs.end_turn(vip_runway=1)
    assert gs.pos(0, MED) == gs.d(1, 1)
    assert gs.occupant(gs.vip2) == -1
    assert gs.invariants() == 0


def test_vip2_to_other_runway_when_chosen_full_waits_when_both_full():
    """RB VIP positions: 'If all positions at point D are occupied, your aircraft can not
    leave VIP2'; RULES.md: the other runway when the chosen sequence is full."""
    gs = new(seats=3, seed=6)
    for j, k in enumerate((SMALL, MED, WIDE)):
        gs.put(1, k, gs.d(1, j))
    gs.put(0, MED, gs.vip2)
    gs.end_turn(vip_runway=1)
    assert gs.pos(0, MED) == gs.d(0, 0)
    gs2 = new(seats=3, seed=6)
    for j, k in enumerate((SMALL, MED, WIDE)):
        gs2.put(1, k, gs2.d(1, j))
        gs2.put(2, k, gs2.d(0, j))
    gs2.put(0, MED, gs2.vip2)
    gs2.put(0, SMALL, gs2.vip1)
    gs2.end_turn(vip_runway=0)
    assert gs2.pos(0, MED) == gs2.vip2
    assert gs2.pos(0, SMALL) == gs2.vip1             # VIP2 still occupied: VIP1 waits
    assert gs.invariants() == 0 and gs2.invariants() == 0


def test_front_d_to_takeoff_at_end_of_own_turn():
    """RB Independent movement: an aircraft on the front D place at the start of the turn
    moves to the takeoff position of its runway when the turn ends; the sequence moves up."""
    gs = new(seed=7)
    gs.put(0, MED, gs.d(0, 0))
    gs.put(1, SMALL, gs.d(0, 1))
    gs.end_turn()
    assert gs.pos(0, MED) == gs.to(0)
    assert gs.pos(1, SMALL) == gs.d(0, 0)
    assert gs.invariants() == 0


def test_front_d_waits_while_takeoff_position_occupied():
    """RB Independent movement: the front D aircraft advances only onto a free takeoff
    position (an opponent holding there under FG blocks it)."""
    gs = new(seed=7)
    gs.put(1, WIDE, gs.to(0))
    gs.put(0, MED, gs.d(0, 0))
    gs.end_turn()
    assert gs.pos(0, MED) == gs.d(0, 0)


def test_takeoff_position_to_airborne():
    """RB Independent movement: on the takeoff position at the start of the turn -> takes off
    when the turn ends (clear weather)."""
    gs = new(seed=8)
    gs.put(0, WIDE, gs.to(1))
    gs.end_turn()
    assert gs.where(0, WIDE) == "airborne"
    assert gs.occupant(gs.to(1)) == -1
    assert gs.stat(0, L.ST_TAKEOFFS) == 1
    assert gs.invariants() == 0


def test_aircraft_moved_this_turn_does_not_also_move_on_its_own():
    """RB Independent movement: each step applies to where the aircraft stood 'at the start
    of your turn': taxied to an empty D this turn, it stays on the front D place."""
    gs = new(seed=8)
    gs.put(0, SMALL, gs.slot_2(0))
    gs.set_hand(0, {"D": 1, "A": 8})
    gs.play("to_d", gs.gid(0, SMALL), 0)
    assert gs.pos(0, SMALL) == gs.d(0, 0)
    gs.end_turn()
    assert gs.pos(0, SMALL) == gs.d(0, 0)
    gs.end_turn()
    gs.end_turn()
    assert gs.pos(0, SMALL) == gs.to(0)
    gs.end_turn()
    gs.end_turn()
    assert gs.where(0, SMALL) == "airborne"


def test_moved_up_in_sequence_this_turn_does_not_reach_takeoff():
    """RB Independent movement: only an aircraft on the front D place at the start of the
    turn advances to takeoff; one that moved up to the front during the turn waits."""
    gs = new(seed=8)
    gs.put(1, MED, gs.d(0, 0))
    gs.put(0, MED, gs.d(0, 1))
    gs.set_hand(0, {"FLR": 1, "A": 8})
    gs.play("flr", gs.gid(1, MED))
    assert gs.pos(0, MED) == gs.d(0, 0)
    gs.end_turn()
    assert gs.pos(0, MED) == gs.d(0, 0)


def test_opponent_aircraft_do_not_move_on_my_turn():
    """RB Independent movement happens at the end of the owner's turn: an opponent's
    aircraft on VIP1 / VIP2 / front D / takeoff stays during my turn end."""
    gs = new(seed=9)
    gs.put(1, SMALL, gs.vip1)
    gs.put(1, MED, gs.d(0, 0))
    gs.put(1, WIDE, gs.to(1))
    gs.end_turn()
    assert (gs.pos(1, SMALL), gs.pos(1, MED), gs.pos(1, WIDE)) == (gs.vip1, gs.d(0, 0), gs.to(1))


def test_both_runways_take_off_together():
    """RB Weather cards: 'If you have two aircrafts on both takeoff positions ... they will
    take off simultaneously at the end of your turn'."""
    gs = new(seed=10)
    gs.put(0, MED, gs.to(0))
    gs.put(0, WIDE, gs.to(1))
    gs.end_turn()
    assert gs.where(0, MED) == "airborne" and gs.where(0, WIDE) == "airborne"
    assert gs.stat(0, L.ST_TAKEOFFS) == 2
    assert gs.invariants() == 0


def test_independent_movement_also_after_an_exchange():
    """RB "Independent aircraft movement": 'Independent aircraft movement occurs at the end
    of your turn after you have: exchanged face-up cards, played cards from your hand, drawn
    face-down replacement cards': a turn spent exchanging still ends with every automatic
    step (takeoff, front D -> takeoff, VIP2 -> D, VIP1 -> VIP2)."""
    gs = new(seed=22)
    gs.put(0, SMALL, gs.to(1))
    gs.put(0, MED, gs.d(0, 0))
    gs.put(0, MED2, gs.vip2)
    gs.put(0, WIDE, gs.vip1)
    gs.stack_deck(["A", "C"])
    assert gs.exchange({"VIP": 2}) == 0
    assert gs.hand(0) == {"A": 4, "LC": 3, "VIP": 1, "C": 1}
    assert gs.stat(0, L.ST_EXCH) == 1
    assert (gs.pos(0, SMALL), gs.pos(0, MED), gs.pos(0, MED2), gs.pos(0, WIDE)) == (
        gs.to(1), gs.d(0, 0), gs.vip2, gs.vip1)
    gs.end_turn(vip_runway=1)
    assert gs.where(0, SMALL) == "airborne"
    assert gs.pos(0, MED) == gs.to(0)
    assert gs.pos(0, MED2) == gs.d(1, 0)
    assert gs.pos(0, WIDE) == gs.vip2
    assert gs.stat(0, L.ST_TAKEOFFS) == 1
    assert sum(gs.hand(0).values()) == 9
    assert gs.invariants() == 0


# ---------------------------------------------------------------------------------------
# weather at takeoff
# ---------------------------------------------------------------------------------------
def test_snow_blocks_wide_body_to_back_of_sequence_next_moves_up():
    """RB SN: a wide-body 'is not allowed to take off and moves to the end of the sequence.
    Its place is immediately occupied by the next aircraft'."""
    gs = new(seed=11)
    gs.set_weather("SN")
    gs.put(0, WIDE, gs.to(0))
    gs.put(1, SMALL, gs.d(0, 0))
    gs.put(1, MED, gs.d(0, 1))
    gs.end_turn()
    assert gs.pos(1, SMALL) == gs.to(0)
    assert gs.pos(1, MED) == gs.d(0, 0)
    assert gs.pos(0, WIDE) == gs.d(0, 1)
    assert gs.stat(0, L.ST_BLOCKED) == 1 and gs.stat(0, L.ST_TAKEOFFS) == 0
    assert gs.invariants() == 0


def test_blocked_replacement_of_same_player_does_not_take_off_that_turn():
    """RB SN / XW / ICE: 'If that aircraft is also yours, it doesn't take off that turn' (it
    takes off at the end of the owner's next turn)."""
    gs = new(seed=11)
    gs.set_weather("SN")
    gs.put(0, WIDE, gs.to(0))
    gs.put(0, SMALL, gs.d(0, 0))
    gs.end_turn()
    assert gs.pos(0, SMALL) == gs.to(0)
    assert gs.pos(0, WIDE) == gs.d(0, 0)
    gs.end_turn()
    gs.end_turn()
    assert gs.where(0, SMALL) == "airborne"
    assert gs.invariants() == 0


@pytest.mark.parametrize("weather, size, runway, other, other_size", [
    ("SN", WIDE, 1, (0, 0), SMALL), ("XW", MED, 1, (0, 0), SMALL), ("ICE", WIDE, 0, (1, 0), MED)])
def test_blocked_with_no_sequence_behind_stays(weather, size, runway, other, other_size):
    """RB SN: 'If there is not a sequence after the wide-body aircraft, it stays in the
    takeoff position, but doesn't take off'; RB XW the same for the medium aircraft; RB ICE /
    Anti-Ice card: 'If there is not a sequence after the aircraft, it stays in the takeoff
    position, but doesn't take off'. The only sequence is on the other runway."""
    gs = new(seed=12)
    gs.set_weather(weather)
    gs.put(0, size, gs.to(runway))
    gs.put(1, other_size, gs.d(*other))
    gs.end_turn()
    assert gs.pos(0, size) == gs.to(runway)
    assert gs.pos(1, other_size) == gs.d(*other)
    assert gs.stat(0, L.ST_BLOCKED) == 1 and gs.stat(0, L.ST_TAKEOFFS) == 0
    assert gs.invariants() == 0


def test_crosswind_replacement_of_same_player_does_not_take_off_that_turn():
    """RB XW: 'Its place is immediately occupied by the next aircraft. If that aircraft is
    also yours, it doesn't take off that turn': the small aircraft moved up (which XW lets
    take off) waits for the end of its owner's next turn."""
    gs = new(seed=11)
    gs.set_weather("XW")
    gs.put(0, MED, gs.to(0))
    gs.put(0, SMALL, gs.d(0, 0))
    gs.end_turn()
    assert gs.pos(0, SMALL) == gs.to(0)
    assert gs.pos(0, MED) == gs.d(0, 0)
    assert gs.stat(0, L.ST_TAKEOFFS) == 0 and gs.stat(0, L.ST_BLOCKED) == 1
    gs.end_turn()
    gs.end_turn()
    assert gs.where(0, SMALL) == "airborne"
    assert gs.stat(0, L.ST_TAKEOFFS) == 1
    assert gs.invariants() == 0


def test_ice_replacement_of_same_player_does_not_take_off_that_turn():
    """RB ICE / Anti-Ice card: 'Its place is immediately occupied by the next aircraft. If
    that aircraft is also yours, it doesn't take off that turn': the replacement makes no
    attempt that turn (one blocked attempt, it stays on the takeoff position); de-iced on
    its owner's next turn, it takes off then."""
    gs = new(seed=11)
    gs.set_weather("ICE")
    gs.put(0, MED, gs.to(0))
    gs.put(0, SMALL, gs.d(0, 0))
    gs.end_turn()
    assert gs.pos(0, SMALL) == gs.to(0)
    assert gs.pos(0, MED) == gs.d(0, 0)
    assert gs.stat(0, L.ST_BLOCKED) == 1 and gs.stat(0, L.ST_TAKEOFFS) == 0
    gs.end_turn()
    gs.set_hand(0, {"AI": 1, "A": 8})
    gs.play("ai", gs.gid(0, SMALL))
    gs.end_turn()
    assert gs.where(0, SMALL) == "airborne"
    assert gs.pos(0, MED) == gs.to(0)                # front D moved on in the same turn end
    assert gs.invariants() == 0


def test_snow_lets_small_and_medium_take_off():
    """RB SN: only wide-body aircraft are not allowed to take off."""
    gs = new(seed=12)
    gs.set_weather("SN")
    gs.put(0, SMALL, gs.to(0))
    gs.put(0, MED, gs.to(1))
    gs.end_turn()
    assert gs.where(0, SMALL) == "airborne" and gs.where(0, MED) == "airborne"


def test_crosswind_blocks_medium_only():
    """RB XW: 'medium aircrafts are not allowed to take off ... goes to the end of the
    sequence'; small and wide-body take off."""
    gs = new(seed=13)
    gs.set_weather("XW")
    gs.put(0, MED, gs.to(0))
    gs.put(1, SMALL, gs.d(0, 0))
    gs.put(0, WIDE, gs.to(1))
    gs.end_turn()
    assert gs.pos(0, MED) == gs.d(0, 0)
    assert gs.pos(1, SMALL) == gs.to(0)
    assert gs.where(0, WIDE) == "airborne"
    assert gs.stat(0, L.ST_BLOCKED) == 1
    assert gs.invariants() == 0


def test_ice_without_anti_ice_blocked_with_anti_ice_takes_off():
    """RB ICE / Anti-Ice card: 'If you don't anti-ice your aircraft, it is not allowed to take
    off and moves to the end of the sequence'; de-iced (AI played) it takes off."""
    gs = new(seed=14)
    gs.set_weather("ICE")
    gs.put(0, SMALL, gs.to(0))
    gs.put(1, SMALL, gs.d(0, 0))
    gs.put(0, MED, gs.to(1))
    gs.set_hand(0, {"AI": 2, "A": 7})
    gs.play("ai", gs.gid(0, MED))
    gs.end_turn()
    assert gs.where(0, MED) == "airborne"
    assert gs.pos(0, SMALL) == gs.d(0, 0) and gs.pos(1, SMALL) == gs.to(0)
    assert not gs.deiced(0, MED)
    assert gs.stat(0, L.ST_BLOCKED) == 1 and gs.stat(0, L.ST_TAKEOFFS) == 1
    assert gs.invariants() == 0


def test_deicing_consumed_by_blocked_attempt():
    """D10: the de-icing holds for the aircraft's next takeoff attempt only, then is cleared
    whether it took off or not (here SN stops the de-iced wide-body)."""
    gs = new(seed=15)
    gs.set_weather("SN")
    gs.put(0, WIDE, gs.to(0))
    gs.put(1, SMALL, gs.d(0, 0))
    gs.deice(0, WIDE)
    gs.end_turn()
    assert gs.pos(0, WIDE) == gs.d(0, 0)
    assert not gs.deiced(0, WIDE)
    assert gs.invariants() == 0


def test_deicing_under_other_weather_allowed_and_kept_until_attempt():
    """D10: AI played under other weather is allowed; the de-icing also holds if the weather
    changes to ICE before the attempt."""
    gs = new(seed=15)
    gs.put(0, MED, gs.to(0))
    gs.set_hand(0, {"AI": 2, "A": 7})
    gs.play("ai", gs.gid(0, MED))        # clear weather: allowed, would be wasted
    assert gs.deiced(0, MED)
    gs.set_weather("ICE")
    gs.end_turn()
    assert gs.where(0, MED) == "airborne"
    assert not gs.deiced(0, MED)


def test_fog_takeoff_holds_not_sent_back():
    """RB FG: 'aircrafts are not allowed to take off ... all aircrafts hold their positions':
    the aircraft on the takeoff position stays there (not to the back of the sequence)."""
    gs = new(seed=16)
    gs.set_weather("FG")
    gs.put(0, MED, gs.to(0))
    gs.put(1, SMALL, gs.d(0, 0))
    gs.end_turn()
    assert gs.pos(0, MED) == gs.to(0)
    assert gs.pos(1, SMALL) == gs.d(0, 0)
    assert gs.stat(0, L.ST_BLOCKED) == 1
    assert gs.invariants() == 0


def test_weather_checked_only_for_owner_at_end_of_its_turn():
    """RB Weather cards: 'The weather is applied to the aircraft which is ready to take off
    at the end of each turn' (RULES.md: the owner's turn): a weather card played to clear
    the way takes effect at the end of that same turn."""
    gs = new(seed=17)
    gs.set_weather("FG")
    gs.put(0, WIDE, gs.to(1))
    gs.set_hand(0, {"SC": 1, "A": 8})
    gs.play("weather", arg="SC")
    gs.end_turn()
    assert gs.where(0, WIDE) == "airborne"
    assert gs.invariants() == 0


def test_deicing_kept_through_a_fog_hold():
    """D10 (as implemented): a FG / closed-runway hold is not a takeoff attempt: the
    aircraft stays on the takeoff position and keeps its de-icing for the next attempt."""
    gs = new(seed=18)
    gs.set_weather("FG")
    gs.put(0, MED, gs.to(0))
    gs.deice(0, MED)
    gs.end_turn()
    assert gs.pos(0, MED) == gs.to(0) and gs.deiced(0, MED)
    gs.end_turn()
    gs.set_weather("ICE")
    gs.end_turn()
    assert gs.where(0, MED) == "airborne"
    assert not gs.deiced(0, MED)


def test_vip2_to_d_still_works_under_fog():
    """RULES.md Independent movement (research D8): VIP2 -> D still works while FG holds the
    sequences; the aircraft joins the back of the held sequence."""
    gs = new(seed=19)
    gs.set_weather("FG")
    gs.put(1, SMALL, gs.d(0, 0))
    gs.put(0, WIDE, gs.vip2)
    gs.end_turn(vip_runway=0)
    assert gs.pos(0, WIDE) == gs.d(0, 1)
    assert gs.occupant(gs.vip2) == -1
    assert gs.invariants() == 0


def test_vip2_to_empty_runway_with_direct_to_takeoff():
    """D6 option direct_to_takeoff = true also applies to VIP2 -> D: an empty sequence with a
    free takeoff position sends the aircraft straight onto it (it takes off next own turn)."""
    gs = new(seed=19, direct_to_takeoff=True)
    gs.put(0, MED, gs.vip2)
    gs.end_turn(vip_runway=1)
    assert gs.pos(0, MED) == gs.to(1)
    gs.end_turn()
    gs.end_turn()
    assert gs.where(0, MED) == "airborne"


def test_hit_on_vip_lane_frees_it_for_a_new_vip():
    """RB V.I.P. note 'the V.I.P. aircraft can be affected by Failure and Delay cards': a DLY on
    the opponent's VIP2 aircraft empties the lane, so a VIP card can be played next."""
    gs = new(seed=20)
    gs.put(1, MED, gs.vip2)
    gs.set_hand(0, {"DLY": 1, "VIP": 1, "A": 7})
    assert not any(a[0] == "vip" for a in gs.legal())
    gs.play("dly", gs.gid(1, MED))
    assert gs.where(1, MED) == "hangar"
    assert any(a[0] == "vip" for a in gs.legal())
    assert gs.invariants() == 0


def test_all_four_independent_steps_in_one_turn_end():
    """RB Independent aircraft movement: the automatic steps apply together at one turn end,
    each aircraft one step from where it stood at the start: takeoff -> airborne, front D ->
    the takeoff position it freed, VIP2 -> back of the D sequence (behind the opponent that
    moved up)."""
    gs = new(seed=21)
    gs.put(0, SMALL, gs.to(0))
    gs.put(0, MED, gs.d(0, 0))
    gs.put(0, WIDE, gs.vip2)
    gs.put(1, SMALL, gs.d(0, 1))
    gs.end_turn(vip_runway=0)
    assert gs.where(0, SMALL) == "airborne"
    assert gs.pos(0, MED) == gs.to(0)
    assert gs.pos(1, SMALL) == gs.d(0, 0)
    assert gs.pos(0, WIDE) == gs.d(0, 1)
    assert gs.stat(0, L.ST_TAKEOFFS) == 1


# ---------------------------------------------------------------------------------------
# New aircraft joining a held sequence (RULES.md D18, option join_held_sequence)
# ---------------------------------------------------------------------------------------
def _on_b_with_d(gs: GameState) -> None:
    gs.put(0, SMALL, gs.slot_2(0))
    gs.set_hand(0, {"D": 2})


def test_held_sequence_joinable_by_default():
    """RB FOG 'the sequence on D does not move and all aircrafts hold their positions', D18
    default join_held_sequence = true: aircraft already in the sequence hold; a new one may
    still join its back (a D play under FG on either runway, under 31L CLOSED on 31L)."""
    gs = new(seed=19)
    gs.set_weather("FG")
    _on_b_with_d(gs)
    assert sorted(a[2] for a in gs.legal() if a[0] == "to_d") == [0, 1]
    gs.play("to_d", gs.gid(0, SMALL), 0)
    assert gs.pos(0, SMALL) == gs.d(0, 0)


def test_held_sequence_closed_to_newcomers_option():
    """RB FOG / 31L CLOSED 'all aircrafts hold their positions', D18 option
    join_held_sequence = false: no D play onto a held sequence (FG: none at all; 31L CLOSED:
    31R only; 31R CLOSED: 31L only)."""
    for weather, runways in (("FG", []), ("31L", [1]), ("31R", [0]), ("SN", [0, 1])):
        gs = new(seed=19, join_held_sequence=False)
        gs.set_weather(weather)
        _on_b_with_d(gs)
        assert sorted(a[2] for a in gs.legal() if a[0] == "to_d") == runways, weather


def test_vip2_waits_or_takes_the_open_runway_when_held_sequences_are_closed():
    """RB VIP2 ('can not leave VIP2' when D is full) with D18 join_held_sequence = false:
    under FG the aircraft waits on VIP2; under 31L CLOSED it goes to 31R even when 31L was
    chosen; once the hold ends it leaves at its owner's next end of turn."""
    gs = new(seed=19, join_held_sequence=False)
    gs.set_weather("FG")
    gs.put(0, WIDE, gs.vip2)
    gs.end_turn(vip_runway=0)
    assert gs.pos(0, WIDE) == gs.vip2
    gs.end_turn()
    gs.set_weather("31L")
    gs.end_turn(vip_runway=0)
    assert gs.pos(0, WIDE) == gs.d(1, 0)
    assert gs.invariants() == 0
