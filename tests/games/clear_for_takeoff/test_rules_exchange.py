"""Clear for Takeoff rule scenarios: the face-up exchange and the deck (RB "Exchanging cards",
"Deck notes").

Each test rigs a position with the GameState scenario API and checks one rule of the
rulebook (RB, shared/seeds/000_513cea2297b34943.txt) or one decision of RULES.md (D1..D16).
Default fleet of every airline: k0 small, k1 and k2 medium, k3 wide-body. Stands 0-2 are
A-B stands, 3-5 A-C stands. Runway 0 is 31L, runway 1 is 31R.
"""

from __future__ import annotations

import numpy as np
import pytest

import sim.games.clear_for_takeoff.layout as L
from sim.games.clear_for_takeoff.state import GameState
from tests.games.clear_for_takeoff.conftest import exchange_only

SMALL, MED, MED2, WIDE = 0, 1, 2, 3
NO_DECK = {k: 0 for k in ("A", "B", "C", "D", "LC", "VIP", "AI", "FLR", "DLY", "SC", "FG",
                          "31L", "31R", "SN", "XW", "ICE")}


def new(seats: int = 2, seed: int = 0, **section) -> GameState:
    """A fresh game whose other seats hold only B, C and D cards (so stacked Weather / FLR /
    DLY cards are in the deck)."""
    gs = GameState(seats=seats, seed=seed, **section)
    for s in range(1, seats):
        gs.set_hand(s, {"B": 3, "C": 3, "D": 3})
    return gs


def deal(gs: GameState, *hands: dict) -> None:
    """Give seat i exactly hands[i], all hands first returned to the deck."""
    for s in range(len(hands)):
        gs.set_hand(s, {})
    for s, h in enumerate(hands):
        gs.set_hand(s, h)


def stack(gs: GameState, names: list[str]) -> None:
    """Like GameState.stack_deck, also with a card named twice (stack_deck takes the second
    copy back off the top it has just built)."""
    d0, n = int(gs.p[L.P_OFF_DECK]), gs.deck_size()
    deck = [int(c) for c in gs.state[d0: d0 + n]]
    for name in names:
        deck.remove(L.CARD_NAMES.index(name))
    deck += [L.CARD_NAMES.index(name) for name in reversed(names)]
    gs.state[d0: d0 + n] = deck


def small_deck(**counts) -> dict:
    d = dict(NO_DECK)
    d.update({k.replace("L31", "31L").replace("R31", "31R"): v for k, v in counts.items()})
    return d


def discard_pile(gs: GameState) -> list[str]:
    d0 = int(gs.p[L.P_OFF_DISC])
    return [L.CARD_NAMES[int(c)] for c in gs.state[d0: d0 + gs.discard_size()]]


def weather_events(gs: GameState) -> list[str]:
    return [L.CARD_NAMES[int(e[3])] for e in gs.events() if e[2] == L.E_WEATHER]


# ---------------------------------------------------------------------------------------
# Exchanging cards face up
# ---------------------------------------------------------------------------------------
def test_exchange_rulebook_example():
    """RB Exchanging cards, the Example: discard three, draw SN, A, DLY, AI, ICE, VIP face up:
    weather SN then ICE (SN discarded), A / AI / VIP kept, DLY hits the most prepared aircraft
    on A, B, C, VIP1 or VIP2 (not the one on D) and is discarded."""
    gs = new(seed=1)
    gs.set_hand(0, {"B": 3, "C": 2, "D": 2, "LC": 2})
    gs.put(0, SMALL, gs.d(0, 0))                         # most prepared overall, but not DLY-able
    gs.put(0, MED, gs.slot_2(gs.first_ac_stand()))       # on C: most prepared among A/B/C/VIP
    gs.put(0, WIDE, gs.slot_a(0))                        # on A
    gs.stack_deck(["SN", "A", "DLY", "AI", "ICE", "VIP"])
    deck0 = gs.deck_size()
    short = gs.exchange({"B": 3})
    assert short == 0
    assert weather_events(gs) == ["SN", "ICE"]
    assert gs.weather == "ICE"
    assert gs.hand(0) == {"A": 1, "C": 2, "D": 2, "LC": 2, "VIP": 1, "AI": 1}
    assert sorted(discard_pile(gs)) == sorted(["B", "B", "B", "SN", "DLY"])
    assert gs.deck_size() == deck0 - 6
    assert gs.where(0, MED) == "hangar"
    assert gs.where(0, SMALL) == "D 31L place 1"
    assert gs.where(0, WIDE) == "A of stand A-B #1"
    assert gs.stat(0, L.ST_DLY_DRAWN) == 1 and gs.stat(0, L.ST_DLY) == 0  # drawn by it, not played on it
    assert gs.invariants() == 0


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_exchange_one_to_four_cards(n):
    """RB Exchanging: discard one to four cards face up, draw the same number face up; kept
    cards go to the hand, the discarded ones to the discard pile."""
    gs = new(seed=2)
    gs.set_hand(0, {"LC": 5, "AI": 4})
    drawn = ["A", "B", "C", "D"][:n]
    gs.stack_deck(drawn)
    assert gs.exchange({"AI": n}) == 0
    h = gs.hand(0)
    assert sum(h.values()) == 9
    assert h.get("AI", 0) == 4 - n
    for c in drawn:
        assert h[c] == 1
    assert discard_pile(gs) == ["AI"] * n
    assert gs.stat(0, L.ST_EXCH) == 1
    assert gs.invariants() == 0


def test_exchange_offered_only_with_one_to_four_cards():
    """RB "Exchanging cards from your hand with cards from the deck": 'You may discard from
    one to four cards, face-up, from your hand' (Helpful tips 2.2.1): the legal actions offer
    exchanges of 1, 2, 3 or 4 held cards (every such multiset, each once), never 0 or 5, and
    ``apply`` refuses both; with only three cards held, at most three. The kernel's own play
    listing (``rules.legal_plays``) lists no exchange: the count is the caller's to respect."""
    gs = new(seed=3)
    gs.set_hand(0, {"AI": 5, "B": 4})
    exch = [a for a in gs.legal_actions() if a[0] == L.K_EXCHANGE]
    # multisets of AI (5 held) and B (4 held): sizes 1..4 have 2, 3, 4, 5 of them
    assert sorted(len(a) - 1 for a in exch) == [1] * 2 + [2] * 3 + [3] * 4 + [4] * 5
    assert len(set(exch)) == len(exch)
    assert all(a[0] != L.K_EXCHANGE for a in gs.legal())
    ai, b = L.CARD_NAMES.index("AI"), L.CARD_NAMES.index("B")
    for bad in [(L.K_EXCHANGE,), (L.K_EXCHANGE, ai, ai, ai, ai, ai), (L.K_EXCHANGE, ai, ai, ai, b, b)]:
        with pytest.raises(ValueError, match="an exchange is 1 to 4 cards"):
            gs.apply(bad)
    assert gs.hand(0) == {"AI": 5, "B": 4} and gs.stat(0, L.ST_EXCH) == 0
    gs.set_hand(0, {"B": 3})
    assert sorted(len(a) - 1 for a in gs.legal_actions() if a[0] == L.K_EXCHANGE) == [1, 2, 3]
    assert gs.invariants() == 0


def test_random_policy_exchanges_one_to_four_cards():
    """RB "Exchanging cards from your hand with cards from the deck": 'from one to four
    cards': the random policy's exchange (``policies.random_exchange``, through the
    playout's ``decide``) takes a uniform 1..4 of the nine held cards, never 0 or 5."""
    gs = exchange_only("random", 4)          # no play: every choice is an exchange
    sizes = set()
    for i in range(60):
        a = gs.choose(np.array([i + 1, 3 * i + 11], np.uint64))
        assert a[0] == L.K_EXCHANGE
        sizes.add(len(a) - 1)
    assert sizes == {1, 2, 3, 4}
    assert gs.invariants() == 0


def test_exchange_several_weather_cards_last_stands():
    """RB Exchanging: 'If you draw several Weather cards, the effects of the latter are
    applied and the previous cards go to the discard pile' (Helpful tips 2.2.2.1)."""
    gs = new(seed=4)
    gs.set_hand(0, {"A": 9})
    gs.stack_deck(["FG", "XW", "31R", "B"])
    assert gs.exchange({"A": 1}) == 0
    assert gs.weather == "31R"
    assert sorted(discard_pile(gs)) == ["A", "FG", "XW"]
    assert gs.hand(0) == {"A": 8, "B": 1}
    assert weather_events(gs) == ["FG", "XW", "31R"]
    assert gs.invariants() == 0


def test_exchange_weather_replaces_card_in_force():
    """RB Weather cards: 'When the weather is changed, the previous Weather card is
    discarded' (also when the new one is drawn face up)."""
    gs = new(seed=4)
    gs.set_weather("FG")
    gs.set_hand(0, {"A": 9})
    gs.stack_deck(["SC", "B"])
    gs.exchange({"A": 1})
    assert gs.weather == "SC"
    assert sorted(discard_pile(gs)) == ["A", "FG"]
    assert gs.invariants() == 0


@pytest.mark.parametrize("hi,lo", [
    ("to", "d0"),      # takeoff position > front of D
    ("d0", "d1"),      # front of D > second D place
    ("d1", "vip2"),    # any D place > VIP2
    ("vip2", "b"),     # VIP2 > B
    ("c", "vip1"),     # C > VIP1
    ("vip1", "a"),     # VIP1 > A
])
def test_exchange_flr_face_up_hits_most_prepared(hi, lo):
    """RB Exchanging: a Failure drawn face up hits the drawer's most prepared aircraft;
    D3 order takeoff > D (front first) > VIP2 > B or C > VIP1 > A, whatever the sizes
    (the small one ahead is hit, not the wide-body behind)."""
    gs = new(seed=5)
    slots = {"to": gs.to(1), "d0": gs.d(0, 0), "d1": gs.d(1, 1), "vip2": gs.vip2, "vip1": gs.vip1,
             "b": gs.slot_2(1), "c": gs.slot_2(4), "a": gs.slot_a(2)}
    if "d1" in (hi, lo):  # a D place behind someone: fill the front with an opponent
        gs.put(1, SMALL, gs.d(1, 0))
    gs.put(0, SMALL, slots[hi])
    gs.put(0, WIDE, slots[lo])
    gs.set_hand(0, {"A": 9})
    gs.stack_deck(["FLR", "B"])
    gs.exchange({"A": 1})
    assert gs.where(0, SMALL) == "hangar"
    assert gs.pos(0, WIDE) == slots[lo]
    assert gs.hand(0) == {"A": 8, "B": 1}
    assert "FLR" in discard_pile(gs)
    assert gs.stat(0, L.ST_FLR_DRAWN) == 1 and gs.stat(0, L.ST_FLR) == 0
    assert gs.invariants() == 0


@pytest.mark.parametrize("target,hit,kept", [("front", SMALL, WIDE), ("largest", WIDE, SMALL)])
def test_failure_target_in_d_front_or_largest(target, hit, kept):
    """RB Exchanging (2.2.2.2): 'If you have several aircrafts at the same preparation step,
    the largest aircraft is damaged or delayed.' D3 option ``failure_target``: the small
    aircraft at D 31L place 1 and the wide-body at D 31R place 2 (an opponent in front of
    it). "front" (default) ranks the D places front first and hits the small one; "largest"
    takes every D place as one preparation step and hits the wide-body."""
    gs = new(seed=5, failure_target=target)
    gs.put(1, SMALL, gs.d(1, 0))
    gs.put(0, SMALL, gs.d(0, 0))
    gs.put(0, WIDE, gs.d(1, 1))
    gs.set_hand(0, {"A": 9})
    gs.stack_deck(["FLR", "B"])
    gs.exchange({"A": 1})
    assert gs.where(0, hit) == "hangar"
    assert gs.where(0, kept) != "hangar"
    assert gs.stat(0, L.ST_FLR_DRAWN) == 1
    if target == "largest":   # the sequence closed up behind the opponent
        assert gs.pos(0, SMALL) == gs.d(0, 0)
    else:
        assert gs.pos(0, WIDE) == gs.d(1, 1)
    assert gs.invariants() == 0


def test_failure_target_largest_keeps_the_other_steps():
    """D3 ``failure_target = "largest"``: only the D places merge into one step; the takeoff
    position still outranks D (the small aircraft there is hit before the wide-body in D),
    and of two same-size aircraft in D the one nearer the front is hit."""
    gs = new(seed=5, failure_target="largest")
    gs.put(0, SMALL, gs.to(0))
    gs.put(0, WIDE, gs.d(1, 0))
    gs.put(0, MED, gs.d(0, 1))
    gs.put(1, SMALL, gs.d(0, 0))
    gs.put(0, MED2, gs.d(1, 1))
    gs.set_hand(0, {"A": 9})
    gs.stack_deck(["FLR", "FLR", "FLR", "B", "C", "D"])
    gs.exchange({"A": 3})
    assert gs.where(0, SMALL) == "hangar"          # takeoff position first
    assert gs.where(0, WIDE) == "hangar"           # then the largest in D
    assert gs.where(0, MED2) == "hangar"           # medium at 31R front (closed up) before 31L place 2
    assert gs.pos(0, MED) == gs.d(0, 1)
    assert gs.invariants() == 0


def test_exchange_hit_tie_goes_to_largest_aircraft():
    """RB Exchanging: 'If you have several aircrafts at the same preparation step, the
    largest aircraft is damaged' (B and C are the same step, D3)."""
    gs = new(seed=5)
    gs.put(0, SMALL, gs.slot_2(0))   # B
    gs.put(0, WIDE, gs.slot_2(4))    # C
    gs.put(0, MED, gs.slot_2(1))     # B
    gs.set_hand(0, {"A": 9})
    gs.stack_deck(["DLY", "FLR", "B", "C"])
    gs.exchange({"A": 2})
    assert gs.where(0, WIDE) == "hangar"     # DLY: largest first
    assert gs.where(0, MED) == "hangar"      # FLR: then the medium
    assert gs.where(0, SMALL) == "B of stand A-B #1"
    assert gs.invariants() == 0


def test_exchange_hit_full_tie_lowest_fleet_index():
    """D3: identical aircraft at the same step ('the player to your left may choose'): the
    lowest fleet index is hit."""
    gs = new(seed=5)
    gs.put(0, MED2, gs.slot_2(0))
    gs.put(0, MED, gs.slot_2(5))
    gs.set_hand(0, {"A": 9})
    gs.stack_deck(["FLR", "B"])
    gs.exchange({"A": 1})
    assert gs.where(0, MED) == "hangar"
    assert gs.where(0, MED2) == "B of stand A-B #1"


def test_exchange_dly_with_nothing_eligible_is_discarded():
    """RB Exchanging: 'If you do not have any aircrafts that can be ... delayed, discard the
    card and continue' (aircraft on D / takeoff cannot be delayed)."""
    gs = new(seed=6)
    gs.put(0, SMALL, gs.d(0, 0))
    gs.put(0, WIDE, gs.to(1))
    gs.set_hand(0, {"A": 9})
    gs.stack_deck(["DLY", "C"])
    assert gs.exchange({"A": 1}) == 0
    assert gs.pos(0, SMALL) == gs.d(0, 0) and gs.pos(0, WIDE) == gs.to(1)
    assert gs.hand(0) == {"A": 8, "C": 1}
    assert sorted(discard_pile(gs)) == ["A", "DLY"]
    assert gs.stat(0, L.ST_DLY_DRAWN) == 0 and gs.stat(0, L.ST_DLY) == 0
    assert gs.invariants() == 0


def test_exchange_flr_with_all_in_hangar_is_discarded():
    """RB Exchanging: an FLR drawn with every aircraft in the hangar is discarded and the
    drawing goes on; it never goes to the hand."""
    gs = new(seed=6)
    gs.set_hand(0, {"A": 9})
    stack(gs, ["FLR", "FLR", "D"])
    assert gs.exchange({"A": 1}) == 0
    assert gs.hand(0) == {"A": 8, "D": 1}
    assert sorted(discard_pile(gs)) == ["A", "FLR", "FLR"]
    assert gs.invariants() == 0


def test_exchange_hit_on_d_moves_sequence_up():
    """RB Position D: 'When the sequence moves, so does your aircraft': an FLR drawn face up
    that removes an aircraft from D lets the ones behind move up at once."""
    gs = new(seed=6)
    gs.put(0, WIDE, gs.d(0, 0))
    gs.put(1, SMALL, gs.d(0, 1))
    gs.put(1, MED, gs.d(0, 2))
    gs.set_hand(0, {"A": 9})
    gs.stack_deck(["FLR", "D"])
    gs.exchange({"A": 1})
    assert gs.where(0, WIDE) == "hangar"
    assert gs.pos(1, SMALL) == gs.d(0, 0) and gs.pos(1, MED) == gs.d(0, 1)
    assert gs.invariants() == 0


# ---------------------------------------------------------------------------------------
# The deck
# ---------------------------------------------------------------------------------------
def test_exchange_discards_before_reshuffle():
    """D2: the cards discarded in an exchange are in the discard pile before the first draw,
    so a reshuffle in the same exchange includes them (deck exactly dealt out)."""
    gs = GameState(seats=2, seed=7, deck=small_deck(A=10, B=8))
    deal(gs, {"A": 9}, {"A": 1, "B": 8})
    assert gs.deck_size() == 0 and gs.discard_size() == 0
    assert gs.exchange({"A": 2}) == 0
    assert gs.hand(0) == {"A": 9}
    assert int(gs.state[L.H_RESHUF]) == 1
    assert gs.deck_size() == 0 and gs.discard_size() == 0
    assert gs.invariants() == 0


def test_reshuffle_when_deck_runs_out():
    """RB Deck notes: 'If the card deck runs out of cards, reshuffle the discard pile to
    create a new card deck' (face-down draw)."""
    gs = new(seed=8)
    gs.set_hand(0, {"A": 3})
    gs.empty_deck_into_discard(keep=2)
    pile = gs.discard_size()
    short = gs.end_turn()
    assert short == 0
    assert sum(gs.hand(0).values()) == 9
    assert int(gs.state[L.H_RESHUF]) == 1
    assert gs.discard_size() == 0
    assert gs.deck_size() == pile - 4
    assert gs.invariants() == 0


def test_face_down_draw_keeps_every_card():
    """RB Deck notes / Helpful tips 1: the face-down draw refills the hand to nine and keeps
    Weather, FLR and DLY cards (they do not resolve)."""
    gs = new(seed=8)
    gs.set_hand(0, {"A": 6})
    gs.stack_deck(["FG", "FLR", "DLY"])
    gs.put(0, WIDE, gs.slot_a(0))
    gs.end_turn()
    assert gs.hand(0) == {"A": 6, "FG": 1, "FLR": 1, "DLY": 1}
    assert gs.weather == "SC"
    assert gs.where(0, WIDE) == "A of stand A-B #1"


def test_starved_face_down_draw_ends_short():
    """D4: deck and discard pile both empty: the face-down draw stops short of nine (the
    Weather card in force is out of circulation) and the hand is topped up later."""
    gs = GameState(seats=2, seed=9, deck=small_deck(A=16, FG=1, SC=1))
    deal(gs, {"A": 7, "FG": 1, "SC": 1}, {"A": 9})
    gs.play("weather", arg="FG")
    assert gs.end_turn() == 1
    assert sum(gs.hand(0).values()) == 8
    # seat 1 spends one A; its own draw reshuffles that A back in
    gs.play("place", gs.gid(1, SMALL), 0)
    assert gs.end_turn() == 0
    assert sum(gs.hand(1).values()) == 9
    # seat 0 lays SC: FG is discarded, reshuffled and drawn: still one short (SC in force)
    gs.play("weather", arg="SC")
    assert gs.end_turn() == 1
    assert gs.hand(0) == {"A": 7, "FG": 1}
    assert gs.invariants() == 0


def test_starved_exchange_stops():
    """D4: an exchange that can only draw Weather cards (nothing keepable in circulation)
    stops after twice the deck size in draws and reports the cards short."""
    gs = GameState(seats=2, seed=9, deck=small_deck(A=17, FG=2))
    deal(gs, {"A": 8, "FG": 1}, {"A": 9})
    assert gs.deck_size() == 1
    short = gs.exchange({"FG": 1})
    assert short == 1
    assert gs.hand(0) == {"A": 8}
    assert gs.weather == "FG"
    assert gs.invariants() == 0


def test_exchange_dly_face_up_prefers_vip2_over_b():
    """RB DLY note / D3: a DLY drawn face up hits the most prepared aircraft on A, B, C,
    VIP1 or VIP2: VIP2 ranks above B or C (the small on VIP2, not the wide-body on B)."""
    gs = new(seed=12)
    gs.put(0, SMALL, gs.vip2)
    gs.put(0, WIDE, gs.slot_2(2))
    gs.put(0, MED, gs.to(0))
    gs.set_hand(0, {"A": 9})
    gs.stack_deck(["DLY", "B"])
    gs.exchange({"A": 1})
    assert gs.where(0, SMALL) == "hangar"
    assert gs.pos(0, WIDE) == gs.slot_2(2) and gs.pos(0, MED) == gs.to(0)
    assert gs.invariants() == 0


def test_exchange_weather_lifting_fog_closes_gaps():
    """RB Weather cards 'The actions on the Weather card resolve immediately' / RULES.md: a
    Weather card drawn face up that ends a FG hold lets the sequences close up at once."""
    gs = new(seed=12)
    gs.set_weather("FG")
    gs.put(1, SMALL, gs.d(0, 1))
    gs.set_hand(0, {"A": 9})
    assert gs.invariants() == 0
    gs.stack_deck(["XW", "B"])
    gs.exchange({"A": 1})
    assert gs.weather == "XW"
    assert gs.pos(1, SMALL) == gs.d(0, 0)
    assert gs.invariants() == 0


# ---------------------------------------------------------------------------------------
# Reshuffle timing (RULES.md D19, option reshuffle)
# ---------------------------------------------------------------------------------------
def _deck_runs_out(**section) -> GameState:
    """20 A cards, 2 seats: 2 cards left after the deal. Seat 0 places its small aircraft
    (1 A to the pile) and draws 1; seat 1 does the same and draws the deck's last card."""
    gs = GameState(seats=2, seed=7, deck=small_deck(A=20), **section)
    assert gs.deck_size() == 2
    gs.play("place", gs.gid(0, SMALL), 0)
    gs.end_turn()
    gs.play("place", gs.gid(1, SMALL), 1)
    gs.end_turn()
    return gs


def test_reshuffle_on_draw_default_includes_the_next_plays():
    """RB Deck notes 'If the card deck runs out of cards, reshuffle the discard pile', D19
    default reshuffle = "on_draw": the pile waits until a draw needs a card, so the card seat 0
    plays on the next turn is in the new deck (3 cards reshuffled, 1 drawn)."""
    gs = _deck_runs_out()
    assert (gs.deck_size(), gs.discard_size(), int(gs.state[L.H_RESHUF])) == (0, 2, 0)
    gs.play("place", gs.gid(0, MED), 2)  # 2 A
    gs.end_turn()
    assert (gs.deck_size(), gs.discard_size(), int(gs.state[L.H_RESHUF])) == (2, 0, 1)
    assert [int(e[3]) for e in gs.events() if e[2] == L.E_RESHUFFLE] == [4]


def test_reshuffle_on_empty_option_reshuffles_at_the_last_card():
    """D19 option reshuffle = "on_empty": the pile is shuffled in the moment the deck's last
    card is drawn (the 2 cards then in the pile); the next turn's play is not in that deck: its
    2 A form the deck after the next one (reshuffles of 2 and 2 cards, not one of 4)."""
    gs = _deck_runs_out(reshuffle="on_empty")
    assert (gs.deck_size(), gs.discard_size(), int(gs.state[L.H_RESHUF])) == (2, 0, 1)
    gs.play("place", gs.gid(0, MED), 2)
    gs.end_turn()
    assert (gs.deck_size(), gs.discard_size(), int(gs.state[L.H_RESHUF])) == (2, 0, 2)
    assert [int(e[3]) for e in gs.events() if e[2] == L.E_RESHUFFLE] == [2, 2]
