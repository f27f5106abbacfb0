"""Clear for Takeoff rule scenarios, part 2: playing cards from the hand (RB "Playing cards",
"Cards description"): placement, advances, taxi to D, VIP, LC, SNOW costs, FLR / DLY, Weather,
Anti-Ice.

Default fleet of every airline: k0 small, k1 and k2 medium, k3 wide-body. Stands 0-2 are A-B
stands, 3-5 A-C stands. Runway 0 is 31L, runway 1 is 31R.
"""

from __future__ import annotations

import pytest

import sim.games.clear_for_takeoff.layout as L
from sim.games.clear_for_takeoff.state import GameState

SMALL, MED, MED2, WIDE = 0, 1, 2, 3
SIZE = {SMALL: 1, MED: 2, MED2: 2, WIDE: 3}
AC0 = 3  # first A-C stand


def new(seats: int = 2, seed: int = 0, **section) -> GameState:
    gs = GameState(seats=seats, seed=seed, **section)
    for s in range(1, seats):
        gs.set_hand(s, {"B": 1, "C": 1, "D": 1})
    return gs


def discard_pile(gs: GameState) -> list[str]:
    d0 = int(gs.p[L.P_OFF_DISC])
    return sorted(L.CARD_NAMES[int(c)] for c in gs.state[d0: d0 + gs.discard_size()])


def plays(gs: GameState, kind: str, gid: int | None = None) -> list[tuple]:
    return [a for a in gs.legal() if a[0] == kind and (gid is None or a[1] == gid)]


# ---------------------------------------------------------------------------------------
# placing on A
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("k", [SMALL, MED, WIDE])
def test_place_costs_one_two_three_a_cards_by_size(k):
    """RB Position A / Movement cards A: one A card for a small aircraft, two for a medium,
    three for a wide-body; the cards go to the discard pile."""
    gs = new(seed=1)
    n = SIZE[k]
    gs.set_hand(0, {"A": n - 1, "B": 9 - n})
    assert plays(gs, "place", gs.gid(0, k)) == []
    gs.set_hand(0, {"A": n, "B": 9 - n})
    legal = plays(gs, "place", gs.gid(0, k))
    assert [a[2] for a in legal] == list(range(6))       # every free stand, 0 LC
    assert all(a[3] == 0 for a in legal)
    gs.play("place", gs.gid(0, k), 2)
    assert gs.where(0, k) == "A of stand A-B #3"
    assert gs.hand(0) == {"B": 9 - n}
    assert discard_pile(gs) == ["A"] * n
    assert gs.stat(0, L.ST_PLAYS) == 1
    assert gs.invariants() == 0


def test_lucky_captain_replaces_movement_cards():
    """RB LC: 'the LC card allows you to replace any Movement card ... B+LC+LC or even
    LC+LC+LC'; D7 real cards are spent before LC."""
    gs = new(seed=2)
    gs.put(0, WIDE, gs.slot_a(0))
    gs.set_hand(0, {"B": 1, "LC": 3, "D": 5})
    legal = plays(gs, "advance", gs.gid(0, WIDE))
    assert legal == [("advance", gs.gid(0, WIDE), gs.slot_2(0), 2)]   # B + LC + LC only
    gs.play("advance", gs.gid(0, WIDE), gs.slot_2(0))
    assert gs.where(0, WIDE) == "B of stand A-B #1"
    assert gs.hand(0) == {"LC": 1, "D": 5}
    assert discard_pile(gs) == ["B", "LC", "LC"]
    # LC+LC+LC alone pays for a wide-body
    gs2 = new(seed=2)
    gs2.set_hand(0, {"LC": 3, "D": 6})
    assert len(plays(gs2, "place", gs2.gid(0, WIDE))) == 6
    gs2.play("place", gs2.gid(0, WIDE), 1)
    assert gs2.hand(0) == {"D": 6}
    assert gs.invariants() == 0 and gs2.invariants() == 0


def test_snow_costs_one_more_movement_card():
    """RB SNOW additional effect: 'you must play one additional Movement card (A, B, C or D)
    to place or advance an aircraft'."""
    gs = new(seed=3)
    gs.set_weather("SN")
    gs.set_hand(0, {"A": 2, "D": 7})
    assert {a[1] for a in plays(gs, "place")} == {gs.gid(0, SMALL)}     # 2 A: small only
    gs.put(0, MED, gs.slot_2(AC0))
    assert plays(gs, "to_d", gs.gid(0, MED))[0][3] == 0                 # 3 D for a medium
    gs.set_hand(0, {"A": 2, "D": 2, "LC": 1})
    assert [a[3] for a in plays(gs, "to_d", gs.gid(0, MED))] == [1, 1]  # D + D + LC
    gs.play("to_d", gs.gid(0, MED), 1)
    assert gs.pos(0, MED) == gs.d(1, 0)
    assert discard_pile(gs) == ["D", "D", "LC"]
    assert gs.invariants() == 0


def test_vip_costs_exactly_one_card_under_snow():
    """D11: a VIP play takes exactly one VIP card under SNOW (VIP is not a movement card);
    RB V.I.P.: one VIP card 'regardless of its size'."""
    gs = new(seed=3)
    gs.set_weather("SN")
    gs.set_hand(0, {"VIP": 1, "B": 8})
    assert {a[1] for a in plays(gs, "vip")} == {gs.gid(0, SMALL), gs.gid(0, MED), gs.gid(0, WIDE)}
    gs.play("vip", gs.gid(0, WIDE))
    assert gs.where(0, WIDE) == "VIP1"
    assert gs.hand(0) == {"B": 8}
    assert discard_pile(gs) == ["VIP"]
    assert gs.invariants() == 0


def test_ac_stand_a_blocked_while_its_c_is_occupied():
    """RB Position A on a stand A-C, note: 'when position C on a stand A-C is occupied it is
    not possible to place another aircraft on corresponding position A'."""
    gs = new(seed=4)
    gs.put(1, MED, gs.slot_2(AC0))       # C of the first A-C stand
    gs.put(1, SMALL, gs.slot_a(1))       # A of A-B stand 1 is taken too
    gs.set_hand(0, {"A": 3, "B": 6})
    stands = [a[2] for a in plays(gs, "place", gs.gid(0, SMALL))]
    assert stands == [0, 2, 4, 5]
    with pytest.raises(ValueError):
        gs.play("place", gs.gid(0, SMALL), AC0)


def test_ab_stand_a_free_while_its_b_is_occupied():
    """D8: an A-B stand's A may be used while its B is occupied (RB restricts A-C only)."""
    gs = new(seed=4)
    gs.put(1, WIDE, gs.slot_2(0))        # B of A-B stand 0
    gs.set_hand(0, {"A": 1, "B": 8})
    assert 0 in [a[2] for a in plays(gs, "place", gs.gid(0, SMALL))]
    gs.play("place", gs.gid(0, SMALL), 0)
    assert gs.where(0, SMALL) == "A of stand A-B #1"
    assert gs.where(1, WIDE) == "B of stand A-B #1"
    assert gs.invariants() == 0


def test_ab_stand_path_a_to_b_with_b_cards_only():
    """RB Position B / note: 'A-B-D or A-C-D': from an A-B stand's A only B cards advance,
    to that stand's B; never to a C and never straight to D."""
    gs = new(seed=5)
    gs.put(0, MED, gs.slot_a(1))
    gs.set_hand(0, {"C": 3, "D": 3, "LC": 0, "A": 3})
    assert plays(gs, "advance", gs.gid(0, MED)) == []
    assert plays(gs, "to_d", gs.gid(0, MED)) == []
    gs.set_hand(0, {"B": 2, "C": 3, "D": 4})
    assert plays(gs, "advance", gs.gid(0, MED)) == [("advance", gs.gid(0, MED), gs.slot_2(1), 0)]
    gs.play("advance", gs.gid(0, MED), gs.slot_2(1))
    assert gs.where(0, MED) == "B of stand A-B #2"
    assert gs.hand(0) == {"C": 3, "D": 4}
    assert gs.invariants() == 0


def test_ac_stand_path_a_to_c_with_c_cards_only():
    """RB Position C / note: 'you are not allowed to advance an aircraft from stand A-C to
    position B': an A-C stand's A advances with C cards to its own C."""
    gs = new(seed=5)
    gs.put(0, WIDE, gs.slot_a(AC0 + 1))
    gs.set_hand(0, {"B": 3, "D": 3, "A": 3})
    assert plays(gs, "advance", gs.gid(0, WIDE)) == []
    gs.set_hand(0, {"C": 3, "B": 3, "D": 3})
    assert plays(gs, "advance", gs.gid(0, WIDE)) == [("advance", gs.gid(0, WIDE), gs.slot_2(AC0 + 1), 0)]
    gs.play("advance", gs.gid(0, WIDE), gs.slot_2(AC0 + 1))
    assert gs.where(0, WIDE) == "C of stand A-C #2"
    assert gs.hand(0) == {"B": 3, "D": 3}
    assert gs.invariants() == 0


def test_advance_needs_the_next_place_free():
    """RB Position B / C: an aircraft advances only onto a free place of its own stand."""
    gs = new(seed=5)
    gs.put(0, SMALL, gs.slot_a(0))
    gs.put(1, SMALL, gs.slot_2(0))
    gs.put(0, MED, gs.slot_a(AC0))
    gs.put(1, MED, gs.slot_2(AC0))
    gs.set_hand(0, {"B": 3, "C": 3, "LC": 3})
    assert plays(gs, "advance") == []


@pytest.mark.parametrize("k,from_slot", [(SMALL, "b"), (MED, "c"), (WIDE, "b")])
def test_taxi_to_d_by_size_choosing_runway(k, from_slot):
    """RB Position D (from B / from C), Taxi: one to three D cards by size, choosing 31L or
    31R; D6 default: an empty sequence puts the aircraft on the front D place."""
    gs = new(seed=6)
    slot = gs.slot_2(0) if from_slot == "b" else gs.slot_2(AC0)
    gs.put(0, k, slot)
    n = SIZE[k]
    gs.set_hand(0, {"D": n - 1, "A": 10 - n})
    assert plays(gs, "to_d", gs.gid(0, k)) == []
    gs.set_hand(0, {"D": n, "A": 9 - n})
    assert [a[2] for a in plays(gs, "to_d", gs.gid(0, k))] == [0, 1]
    gs.play("to_d", gs.gid(0, k), 1)
    assert gs.pos(0, k) == gs.d(1, 0)
    assert gs.occupant(slot) == -1
    assert discard_pile(gs) == ["D"] * n
    assert gs.invariants() == 0


def test_taxi_joins_back_of_sequence():
    """RB Position D: 'When the aircraft advances to position D, it is placed behind any
    other aircrafts'."""
    gs = new(seed=6)
    gs.put(1, SMALL, gs.d(0, 0))
    gs.put(1, MED, gs.d(0, 1))
    gs.put(1, WIDE, gs.to(0))
    gs.put(0, SMALL, gs.slot_2(2))
    gs.set_hand(0, {"D": 1, "A": 8})
    gs.play("to_d", gs.gid(0, SMALL), 0)
    assert gs.pos(0, SMALL) == gs.d(0, 2)
    assert gs.invariants() == 0


def test_no_d_play_when_sequence_full():
    """RB Position D: 'If every part of position D is occupied, you may not play a D card'
    (per runway: a full 31L still leaves 31R; both full: no D play)."""
    gs = new(seats=3, seed=7)
    for j, k in enumerate((SMALL, MED, WIDE)):
        gs.put(1, k, gs.d(0, j))
    gs.put(0, SMALL, gs.slot_2(0))
    gs.set_hand(0, {"D": 1, "A": 8})
    assert [a[2] for a in plays(gs, "to_d")] == [1]
    for j, k in enumerate((SMALL, MED, WIDE)):
        gs.put(2, k, gs.d(1, j))
    assert plays(gs, "to_d") == []
    with pytest.raises(ValueError):
        gs.play("to_d", gs.gid(0, SMALL), 0)
    assert gs.invariants() == 0


# ---------------------------------------------------------------------------------------
# VIP
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("where", ["hangar", "a", "b", "c"])
def test_vip_from_hangar_a_b_c_frees_the_stand(where):
    """RB V.I.P.: 'You may apply this card to an aircraft in Hangar and an aircraft on
    positions A, B or C'; the aircraft goes to VIP1 and its stand place is free."""
    gs = new(seed=8)
    slot = {"hangar": None, "a": gs.slot_a(1), "b": gs.slot_2(1), "c": gs.slot_2(AC0 + 2)}[where]
    if slot is not None:
        gs.put(0, MED, slot)
    gs.set_hand(0, {"VIP": 1, "B": 8})
    assert any(a[1] == gs.gid(0, MED) for a in plays(gs, "vip"))
    gs.play("vip", gs.gid(0, MED))
    assert gs.pos(0, MED) == gs.vip1
    if slot is not None:
        assert gs.occupant(slot) == -1
    assert gs.invariants() == 0


def test_vip_needs_vip1_and_vip2_free():
    """RB VIP positions: 'if the VIP2 position is occupied, you may not place your aircraft
    on VIP1' (nor on an occupied VIP1); never from D or takeoff."""
    gs = new(seed=8)
    gs.put(0, SMALL, gs.d(0, 0))
    gs.put(0, MED2, gs.to(1))
    gs.set_hand(0, {"VIP": 2, "B": 7})
    assert {a[1] for a in plays(gs, "vip")} == {gs.gid(0, MED), gs.gid(0, WIDE)}   # hangar only
    gs.put(1, SMALL, gs.vip2)
    assert plays(gs, "vip") == []
    gs.put(1, SMALL, gs.vip1)
    assert plays(gs, "vip") == []


# ---------------------------------------------------------------------------------------
# FLR / DLY
# ---------------------------------------------------------------------------------------
def test_flr_any_opponent_aircraft_anywhere_not_own():
    """RB FLR: 'choose any other player's aircraft from anywhere on the airfield. This
    aircraft goes back to the airline's Hangar immediately' (own aircraft are no target)."""
    gs = new(seed=9)
    gs.put(1, SMALL, gs.slot_a(0))
    gs.put(1, MED, gs.vip2)
    gs.put(1, MED2, gs.d(0, 0))
    gs.put(1, WIDE, gs.to(1))
    gs.put(0, SMALL, gs.slot_2(1))
    gs.set_hand(0, {"FLR": 1, "B": 8})
    assert sorted(a[1] for a in plays(gs, "flr")) == [gs.gid(1, k) for k in range(4)]
    gs.play("flr", gs.gid(1, WIDE))
    assert gs.where(1, WIDE) == "hangar"
    assert gs.occupant(gs.to(1)) == -1
    assert gs.stat(1, L.ST_FLR) == 1 and gs.stat(0, L.ST_FLR_PLAYED) == 1
    assert discard_pile(gs) == ["FLR"]
    assert gs.hand(0) == {"B": 8}
    assert gs.invariants() == 0


def test_flr_on_takeoff_aircraft_leaves_takeoff_empty():
    """RULES.md (Independent movement): the takeoff position is not part of the sequence; an
    aircraft removed from it leaves it empty until the front D aircraft's owner's turn ends."""
    gs = new(seed=9)
    gs.put(1, WIDE, gs.to(0))
    gs.put(1, SMALL, gs.d(0, 0))
    gs.set_hand(0, {"FLR": 1, "B": 8})
    gs.play("flr", gs.gid(1, WIDE))
    assert gs.occupant(gs.to(0)) == -1 and gs.pos(1, SMALL) == gs.d(0, 0)
    gs.end_turn()                        # seat 0's turn ends: seat 1's aircraft does not move
    assert gs.pos(1, SMALL) == gs.d(0, 0)
    gs.end_turn()                        # seat 1's turn ends: front D -> takeoff
    assert gs.pos(1, SMALL) == gs.to(0)
    assert gs.invariants() == 0


def test_dly_only_opponents_on_a_b_c_vip():
    """RB DLY: 'choose any aircraft on position A, B, C, VIP1 or VIP2'; D9 default: an
    opponent's aircraft only; aircraft on D / takeoff cannot be delayed."""
    gs = new(seed=10)
    gs.put(1, SMALL, gs.slot_a(0))
    gs.put(1, MED, gs.vip2)
    gs.put(1, MED2, gs.d(0, 0))
    gs.put(1, WIDE, gs.slot_2(AC0))
    gs.put(0, SMALL, gs.slot_2(1))
    gs.put(0, MED, gs.vip1)
    gs.set_hand(0, {"DLY": 1, "B": 8})
    assert sorted(a[1] for a in plays(gs, "dly")) == [gs.gid(1, SMALL), gs.gid(1, MED), gs.gid(1, WIDE)]
    gs.play("dly", gs.gid(1, MED))
    assert gs.where(1, MED) == "hangar"
    assert gs.stat(1, L.ST_DLY) == 1 and gs.stat(0, L.ST_DLY_PLAYED) == 1
    assert discard_pile(gs) == ["DLY"]
    assert gs.invariants() == 0


def test_dly_on_opponent_aircraft_on_vip1():
    """RB "Failure and Delay cards": 'DLY - Delay - when you play this card, you have to
    choose any aircraft on position A, B, C, VIP1 or VIP2. This aircraft goes back to the
    airline's hangar immediately' (V.I.P. note: 'the V.I.P. aircraft can be affected by
    Failure and Delay cards'): an opponent's aircraft on VIP1 is a target; delayed, it is in
    its hangar, VIP1 is free and a VIP card can be played there again."""
    gs = new(seed=10)
    gs.put(1, WIDE, gs.vip1)
    gs.set_hand(0, {"DLY": 1, "VIP": 1, "B": 7})
    assert plays(gs, "dly") == [("dly", gs.gid(1, WIDE), 0, 0)]
    assert plays(gs, "vip") == []                    # VIP1 taken
    gs.play("dly", gs.gid(1, WIDE))
    assert gs.where(1, WIDE) == "hangar"
    assert gs.occupant(gs.vip1) == -1
    assert gs.stat(1, L.ST_DLY) == 1 and gs.stat(0, L.ST_DLY_PLAYED) == 1
    assert discard_pile(gs) == ["DLY"]
    assert gs.hand(0) == {"VIP": 1, "B": 7}
    assert plays(gs, "vip")                          # the lane is free again
    gs.end_turn()
    gs.end_turn()                                    # seat 1's turn end: nothing left on VIP1 to move
    assert gs.occupant(gs.vip2) == -1
    assert gs.invariants() == 0


def test_dly_own_aircraft_option():
    """D9 option dly_own_aircraft = true: a played DLY may hit one's own aircraft on A, B, C,
    VIP1, VIP2 (FLR still only opponents')."""
    gs = new(seed=10, dly_own_aircraft=True)
    gs.put(0, SMALL, gs.slot_2(1))
    gs.put(0, MED, gs.d(1, 0))
    gs.put(1, WIDE, gs.slot_a(2))
    gs.set_hand(0, {"DLY": 1, "FLR": 1, "B": 7})
    assert sorted(a[1] for a in plays(gs, "dly")) == [gs.gid(0, SMALL), gs.gid(1, WIDE)]
    assert [a[1] for a in plays(gs, "flr")] == [gs.gid(1, WIDE)]
    gs.play("dly", gs.gid(0, SMALL))
    assert gs.where(0, SMALL) == "hangar"
    assert gs.invariants() == 0


# ---------------------------------------------------------------------------------------
# Weather and Anti-Ice plays
# ---------------------------------------------------------------------------------------
def test_weather_play_replaces_and_discards_previous():
    """RB Change the weather: the Weather card goes face up on the board, its actions resolve
    immediately, the previous Weather card is discarded."""
    gs = new(seed=11)
    gs.set_hand(0, {"FG": 1, "XW": 1, "B": 7})
    assert sorted(a[2] for a in plays(gs, "weather")) == [L.FG, L.XW]
    gs.play("weather", arg="FG")
    assert gs.weather == "FG" and discard_pile(gs) == []     # clear start: no card to discard
    gs.end_turn()
    gs.set_hand(1, {"SC": 1, "C": 8})
    gs.play("weather", arg="SC")
    assert gs.weather == "SC" and discard_pile(gs) == ["FG"]
    assert gs.invariants() == 0


@pytest.mark.parametrize("k", [SMALL, MED, WIDE])
def test_anti_ice_costs_one_two_three_by_size(k):
    """RB Anti-Ice: one AI card for small, two for medium, three for wide-body, only for an
    aircraft on a takeoff position."""
    gs = new(seed=12)
    gs.set_weather("ICE")
    gs.put(0, k, gs.to(0))
    gs.put(0, MED2, gs.d(1, 0))
    n = SIZE[k]
    gs.set_hand(0, {"AI": n - 1, "B": 10 - n})
    assert plays(gs, "ai") == []
    gs.set_hand(0, {"AI": n, "B": 9 - n})
    assert plays(gs, "ai") == [("ai", gs.gid(0, k), 0, 0)]     # not for the D aircraft
    gs.play("ai", gs.gid(0, k))
    assert gs.deiced(0, k)
    assert discard_pile(gs) == ["AI"] * n
    assert plays(gs, "ai") == []                                # already de-iced
    assert gs.invariants() == 0


def test_anti_ice_only_one_aircraft_per_turn():
    """RB "Anti-Ice card": 'Note: you may anti-ice only one aircraft per turn': with two own
    aircraft on both takeoff positions under ICE and AI cards for both (1 + 2), either may be
    de-iced, but after one AI play the other cannot be de-iced that turn; at the turn's end
    the de-iced one takes off and the other is stopped."""
    gs = new(seed=12)
    gs.set_weather("ICE")
    gs.put(0, SMALL, gs.to(0))
    gs.put(0, MED, gs.to(1))
    gs.set_hand(0, {"AI": 3, "B": 6})
    assert sorted(a[1] for a in plays(gs, "ai")) == [gs.gid(0, SMALL), gs.gid(0, MED)]
    gs.play("ai", gs.gid(0, MED))
    assert gs.deiced(0, MED) and not gs.deiced(0, SMALL)
    assert gs.hand(0) == {"AI": 1, "B": 6}
    assert gs.legal_actions() == []
    with pytest.raises(ValueError, match="already acted"):
        gs.play("ai", gs.gid(0, SMALL))
    assert not gs.deiced(0, SMALL) and gs.hand(0)["AI"] == 1
    gs.end_turn()
    assert gs.where(0, MED) == "airborne"
    assert gs.pos(0, SMALL) == gs.to(0)              # no sequence behind: it stays, blocked
    assert gs.stat(0, L.ST_TAKEOFFS) == 1 and gs.stat(0, L.ST_BLOCKED) == 1
    assert gs.invariants() == 0


def test_lucky_captain_does_not_replace_vip_or_anti_ice():
    """RB LC: it replaces a Movement card (A, B, C or D) only: no VIP play and no de-icing
    paid with LC."""
    gs = new(seed=13)
    gs.set_weather("ICE")
    gs.put(0, SMALL, gs.to(0))
    gs.set_hand(0, {"LC": 3, "B": 6})
    assert plays(gs, "vip") == [] and plays(gs, "ai") == []
    assert len(plays(gs, "place", gs.gid(0, WIDE))) == 6          # LC does pay for A cards


def test_ac_stand_a_free_again_once_its_c_leaves():
    """RB Position A on a stand A-C note: the A place is barred only *while* its C is
    occupied; after the aircraft on C taxis to D the stand takes a new aircraft."""
    gs = new(seed=13)
    gs.put(0, MED, gs.slot_2(AC0))
    gs.set_hand(0, {"D": 2, "A": 1, "B": 6})
    assert AC0 not in [a[2] for a in plays(gs, "place")]
    gs.play("to_d", gs.gid(0, MED), 0)
    assert AC0 in [a[2] for a in plays(gs, "place")]
    assert gs.invariants() == 0


def test_one_play_per_turn_any_card_kind_listed():
    """RB Playing cards: 'You may perform only one of the following actions per turn': the
    legal list offers each kind, and after one play the hand is short by that play's cards
    only (the face-down draw then refills it to nine)."""
    gs = new(seed=14)
    gs.put(1, SMALL, gs.slot_a(0))
    gs.put(0, MED, gs.slot_2(1))
    gs.set_hand(0, {"A": 1, "D": 2, "VIP": 1, "FLR": 1, "DLY": 1, "SC": 1, "B": 2})
    kinds = {a[0] for a in gs.legal()}
    assert kinds == {"place", "to_d", "vip", "flr", "dly", "weather"}
    gs.play("to_d", gs.gid(0, MED), 0)
    assert sum(gs.hand(0).values()) == 7
    gs.end_turn()
    assert sum(gs.hand(0).values()) == 9
    assert gs.invariants() == 0


# ---------------------------------------------------------------------------------------
# SNOW's additional movement card (RULES.md D17, option snow_extra)
# ---------------------------------------------------------------------------------------
ISSUE_HAND = {"D": 1, "B": 2, "A": 2, "C": 2}


def test_snow_extra_same_default_needs_one_more_card_of_the_step():
    """RB SN 'Additional effect: ... one additional Movement card (A, B, C or D) to place or
    advance an aircraft', D17 default snow_extra = "same": the extra card is one more of the
    step's own card (or LC). A small aircraft on B holding one D cannot taxi to D."""
    gs = new(seed=3)
    gs.set_weather("SN")
    gs.put(0, SMALL, gs.slot_2(0))
    gs.set_hand(0, ISSUE_HAND)
    assert plays(gs, "to_d", gs.gid(0, SMALL)) == []
    gs.set_hand(0, {"D": 1, "LC": 1})
    assert [a[3] for a in plays(gs, "to_d", gs.gid(0, SMALL))] == [1, 1]  # D + LC


def test_snow_extra_any_pays_with_any_movement_card():
    """RB SN additional effect, D17 option snow_extra = "any": the extra card may be any
    movement card. The issue's position (small on B, hand D 1, B 2, A 2, C 2) may taxi to D on
    either runway with no LC; it pays the D and one card of the most-held spare type (A, B, C
    tie: A, the first in card order)."""
    gs = new(seed=3, snow_extra="any")
    gs.set_weather("SN")
    gs.put(0, SMALL, gs.slot_2(0))
    gs.set_hand(0, ISSUE_HAND)
    assert [(a[2], a[3]) for a in plays(gs, "to_d", gs.gid(0, SMALL))] == [(0, 0), (1, 0)]
    gs.play("to_d", gs.gid(0, SMALL), 1)
    assert gs.pos(0, SMALL) == gs.d(1, 0)
    assert gs.hand(0) == {"A": 1, "B": 2, "C": 2}
    assert discard_pile(gs) == ["A", "D"]
    # the play's event names the extra card: e = 256 x (A + 1) + 16 x 0 LC + 2 cards
    assert [int(e[7]) for e in gs.events() if e[2] == L.E_PLAY] == [256 * (L.CA + 1) + 2]


def test_snow_extra_any_most_spare_type_then_lc():
    """D17 "any": a medium placement (2 A) with A 1, LC 1, B 1 pays A + LC for the step and
    the spare B for SNOW (lc = 1); "same" would need 3 A-or-LC and cannot pay. With no spare
    movement card the extra is an LC (counted in the play's LC)."""
    gs = new(seed=3, snow_extra="any")
    gs.set_weather("SN")
    gs.set_hand(0, {"A": 1, "LC": 1, "B": 1})
    placements = plays(gs, "place", gs.gid(0, MED))
    assert placements and {a[3] for a in placements} == {1}
    gs.play("place", gs.gid(0, MED), 0)
    assert gs.hand(0) == {} and discard_pile(gs) == ["A", "B", "LC"]
    same = new(seed=3)
    same.set_weather("SN")
    same.set_hand(0, {"A": 1, "LC": 1, "B": 1})
    assert plays(same, "place", same.gid(0, MED)) == []
    gs2 = new(seed=3, snow_extra="any")
    gs2.set_weather("SN")
    gs2.put(0, SMALL, gs2.slot_a(0))
    gs2.set_hand(0, {"B": 1, "LC": 1})
    assert [a[3] for a in plays(gs2, "advance", gs2.gid(0, SMALL))] == [1]
    gs2.play("advance", gs2.gid(0, SMALL), gs2.slot_2(0))
    assert discard_pile(gs2) == ["B", "LC"]


def test_snow_extra_any_costs_the_same_without_snow():
    """D17: the option changes nothing under any other weather (a small taxi costs one D)."""
    gs = new(seed=3, snow_extra="any")
    gs.put(0, SMALL, gs.slot_2(0))
    gs.set_hand(0, ISSUE_HAND)
    gs.play("to_d", gs.gid(0, SMALL), 0)
    assert gs.hand(0) == {"B": 2, "A": 2, "C": 2} and discard_pile(gs) == ["D"]
