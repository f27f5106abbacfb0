"""Issue 41: what the rulebook leaves to the player is the player's (the policy's) decision,
and where it leaves no choice the test says why (RULES.md S1-S6, D15). Each scenario quotes the
rulebook (RB, German) it rests on."""

from __future__ import annotations

import heapq

import pytest

from sim.games.base import Rig
from sim.games.yukon_airways.layout import (
    DP_PLANE,
    GREY,
    K_ABILITY,
    K_BURN,
    K_EXTRA,
    K_FACEDOWN,
    K_FLY,
    K_GO,
    K_IMPROVE,
    K_MOVE,
    K_MOVE_DONE,
    K_PASS,
    K_PLACE,
    K_TAKE,
    K_TAKE_DONE,
    K_TICKET,
    K_TUCK,
    K_WILD,
    NDIAL,
    P_NT,
    P_OFF_TDOWN,
    STEP_ABILITY,
    STEP_BURN,
    STEP_DEST,
    STEP_FACEDOWN,
    STEP_IMPROVE,
    STEP_LOAD,
    STEP_MOVE,
    STEP_NAMES,
    STEP_TAKE,
    SWITCHES,
    SYM_IMPROVE,
    SYM_MONEY,
)
from sim.games.yukon_airways.state import GameState
from tests.games.yukon_airways.conftest import (
    BY_COLOUR,
    PINK,
    YELLOW,
    load_plane,
    make_run,
    set_hand,
    to_flights,
)

TWO_DICE = NDIAL + SWITCHES.index("two_dice_per_ticket")
TWO_WILD = NDIAL + SWITCHES.index("two_card_wild")


def step(g):
    return STEP_NAMES.index(g.snapshot()["step"])


def position(policy="greedy", weights=None, **section):
    """Every seat (all of ``policy`` with ``weights``) boarded at the empty dock 6; the first flyer
    decides, no dice aboard. Returns (GameState, the flyer)."""
    seat = {"policy": policy, "weights": dict(weights or {})}
    run = make_run(seats=[dict(seat) for _ in range(4)], **section)
    g = GameState.from_run(run, 0, Rig(dice=BY_COLOUR))
    to_flights(g, [5, 5, 5, 5])
    s = g.snapshot()["actor"]
    assert step(g) == STEP_DEST
    for o in range(4):
        load_plane(g, o, [])
    return g, s


def until_turn_of(g, s):
    """Every other seat passes until seat ``s`` decides again."""
    while g.snapshot()["actor"] != s:
        g.apply((K_PASS, 0, 0))


# ---- S1: which cards pay ------------------------------------------------------------------------
def carmacks_short(policy="greedy", weights=None, dial_step=1):
    """The issue's position: tank 1, cards-as-fuel dial 1 (step 1), Whitehorse -> Carmacks costs 2
    (Cinnamon Strip 1 + 1); the hand holds the Carmacks ticket, a Cinnamon Strip ticket and two
    Inuvik cards. The ticket is played, the plane takes off: one card must burn."""
    g, s = position(policy, weights)
    load_plane(g, s, [0])
    set_hand(g, s, [g.card("Carmacks", "money"), g.card("Cinnamon Strip", "money"), g.card("Inuvik", "money"),
                    g.card("Inuvik", "fuel")])
    g.set_fuel(s, 1)
    g.set_dial(s, "cards_as_fuel", dial_step)
    g.apply((K_FLY, g.loc("Carmacks"), 0))
    g.apply((K_TICKET, SYM_MONEY, PINK))
    g.apply((K_GO, 0, 0))
    return g, s


def test_s1_the_seat_chooses_which_card_burns_as_fuel():
    """RB Appendix Anzeigen: the cards-as-fuel dial says "wie viele Ticketkarten man in Treibstoff
    umwandeln kann": how many, not which. After take-off the seat chooses the card to burn among
    every card of its hand (one decision per card)."""
    g, s = carmacks_short()
    assert step(g) == STEP_BURN and g.snapshot()["actor"] == s
    assert g.seat(s)["fuel"] == 0 and g.seat(s)["loc"] == g.loc("Whitehorse")  # the tank paid first
    assert g.legal_actions() == [(K_BURN, t, 0) for t in sorted(g.hand(s))]
    g.apply((K_BURN, g.card("Inuvik", "fuel"), 0))
    seat = g.seat(s)
    assert seat["loc"] == g.loc("Carmacks") and seat["burnt"] == 1
    assert g.hand(s) == {g.card("Cinnamon Strip", "money"): 1, g.card("Inuvik", "money"): 1}
    assert g.invariants() == 0


def next_turn_flights(g, s):
    """The seat's flight options on its next turn with a passenger aboard (after the improvement
    the flight may have earned)."""
    while step(g) == STEP_IMPROVE:
        g.apply((K_IMPROVE, -1, 0))
    load_plane(g, s, [1])
    until_turn_of(g, s)
    return [a for a in g.legal_actions() if a[0] == K_FLY]


def test_s1_the_old_cheapest_location_rule_strands_the_seat():
    """The rule of rules version 2, kept as the heuristic's ``reach = 0``: the cheapest location
    burns first. It burns the Cinnamon Strip ticket, keeps the two Inuvik cards, and on its next
    turn the seat has no legal flight (Inuvik is 8 fuel from Carmacks, the tank is empty)."""
    g, s = carmacks_short("heuristic", {"reach": 0.0})
    choice = g.policy_choice()
    assert choice == (K_BURN, g.card("Cinnamon Strip", "money"), 0)
    g.apply(choice)
    assert g.hand(s) == {g.card("Inuvik", "money"): 1, g.card("Inuvik", "fuel"): 1}
    assert next_turn_flights(g, s) == []


@pytest.mark.parametrize("policy", ["greedy", "heuristic"])
def test_s1_a_sensible_policy_burns_a_card_it_cannot_use(policy):
    """Greedy and heuristic (``reach = 1``) value a card by whether its destination can still be
    reached: Inuvik is 10 fuel from Whitehorse, out of a 7-fuel tank plus a cards-as-fuel dial of 1
    on any later day and out of reach today, so an Inuvik card burns; the Cinnamon Strip ticket
    is kept and flies the next turn (Carmacks -> Cinnamon Strip costs 1: one card as fuel)."""
    g, s = carmacks_short(policy)
    choice = g.policy_choice()
    assert choice[0] == K_BURN and choice[1] in (g.card("Inuvik", "money"), g.card("Inuvik", "fuel"))
    g.apply(choice)
    assert g.card("Cinnamon Strip", "money") in g.hand(s)
    assert next_turn_flights(g, s) == [(K_FLY, g.loc("Cinnamon Strip"), 0)]


@pytest.mark.parametrize("policy", ["greedy", "heuristic"])
def test_s1_a_policy_keeps_the_inuvik_cards_while_inuvik_is_in_reach(policy):
    """The same position with the cards-as-fuel dial on 3: tomorrow Inuvik is in reach from
    Whitehorse (7 + 3 fuel), and an Inuvik passenger earns $11 + $3: the policy keeps both Inuvik
    cards and burns the Cinnamon Strip ticket."""
    g, s = carmacks_short(policy, dial_step=3)
    assert g.policy_choice() == (K_BURN, g.card("Cinnamon Strip", "money"), 0)


def test_s1_the_choice_sees_only_the_seats_own_cards():
    """A policy sees what the seat sees: the other hands and the draw pile do not change the card
    it burns."""
    g, s = carmacks_short("heuristic")
    first = g.policy_choice()
    other = next(o for o in range(4) if o != s)
    g.give_card(other, g.card("Inuvik", "improvement"))
    g.give_card(other, g.card("Cinnamon Strip", "fuel"))
    assert g.policy_choice() == first


def test_s1_the_seat_chooses_its_three_face_down_cards():
    """RB Flugphase a: "Alternativ kann man drei beliebige verdeckte Karten auslegen, um einen
    Passagier zu befördern": any three cards of the seat's choice, laid one by one; they lie face
    down on the table (the seat's secret, RULES.md Policies) and the loading goes on."""
    g, s = position()
    tes = g.loc("Teslin")
    load_plane(g, s, [0, 3])
    hand = [g.card("Mayo", "money"), g.card("Carcross", "fuel"), g.card("Atlin", "fuel"), g.card("Inuvik", "money")]
    set_hand(g, s, hand)
    g.apply((K_FLY, tes, 0))
    g.apply((K_WILD, PINK, 0))
    assert step(g) == STEP_FACEDOWN and g.legal_actions() == [(K_FACEDOWN, t, 0) for t in sorted(hand)]
    for t in (g.card("Inuvik", "money"), g.card("Mayo", "money"), g.card("Atlin", "fuel")):
        g.apply((K_FACEDOWN, t, 0))
    assert step(g) == STEP_LOAD and g.hand(s) == {g.card("Carcross", "fuel"): 1}
    nt = int(g.p[P_NT])
    down = g.state[int(g.p[P_OFF_TDOWN]) + s * nt: int(g.p[P_OFF_TDOWN]) + (s + 1) * nt]
    assert {t for t in range(nt) if down[t] > 0} == {g.card("Inuvik", "money"), g.card("Mayo", "money"),
                                                      g.card("Atlin", "fuel")}
    g.apply((K_GO, 0, 0))
    assert g.seat(s)["loc"] == tes and g.invariants() == 0


def test_s1_s7_face_down_cards_leave_the_fuel_card_the_flight_needs():
    """RULES.md S7 with the choice: Teslin costs 2, the tank holds 1, no cards as fuel, two fuel
    symbols collected today. Three face-down cards of Mayo, Watson Lake and Dawson City keep the
    Atlin fuel card, whose tuck completes the fuel set (+2) and pays the flight: the wild is
    offered (the version-2 rule gave up the cheapest three, Atlin among them, and did not offer
    it), and the Atlin card is never offered face down."""
    g, s = position()
    load_plane(g, s, [0])
    atlin = g.card("Atlin", "fuel")
    set_hand(g, s, [g.card("Mayo", "money"), g.card("Watson Lake", "money"), g.card("Dawson City", "money"), atlin])
    g.set_fuel(s, 1)
    g.set_dial(s, "cards_as_fuel", 0)
    g.set_symbols(s, "fuel", 2)
    assert (K_FLY, g.loc("Teslin"), 0) in g.legal_actions()
    g.apply((K_FLY, g.loc("Teslin"), 0))
    g.apply((K_WILD, PINK, 0))
    for _ in range(3):
        acts = g.legal_actions()
        assert (K_FACEDOWN, atlin, 0) not in acts and acts
        g.apply(acts[-1])
    assert g.legal_actions() == [(K_TUCK, atlin, 0)]  # no take-off with the tank short
    g.apply((K_TUCK, atlin, 0))
    g.apply((K_GO, 0, 0))
    assert g.seat(s)["loc"] == g.loc("Teslin") and g.seat(s)["fuel"] == 1 and g.invariants() == 0


# ---- S2: docks 2, 4 and 5 -----------------------------------------------------------------------
def boarding(policy="greedy", **section):
    run = make_run(seats=[{"policy": policy} for _ in range(4)], **section)
    g = GameState.from_run(run, 0, Rig(dice=BY_COLOUR))
    return g, g.turn_order()[0]


@pytest.mark.parametrize("dock,what", [(1, "card"), (3, "fuel"), (4, "fuel")])
def test_s2_the_abilities_of_docks_2_4_5_are_used_only_when_wanted(dock, what):
    """RB Boardingphase b: "Wenn gewollt, kann die Aktion des gewählten Stegs genutzt werden" (the
    Appendix: Steg 2 "Man darf eine Ticketkarte ziehen", Steg 4 "... und/oder den Treibstoff um eins
    erhöhen", Steg 5 "Man erhält zwei Treibstoff"): after the marker the seat decides; not using
    it changes nothing, using it draws the card or adds the fuel."""
    gain = {1: 1, 3: 1, 4: 2}[dock]
    for use in (0, 1):
        g, s = boarding()
        g.set_fuel(s, 3)
        cards = sum(g.hand(s).values())
        g.apply((K_PLACE, dock, 0))
        assert step(g) == STEP_ABILITY and g.legal_actions() == [(K_ABILITY, 0, 0), (K_ABILITY, 1, 0)]
        g.apply((K_ABILITY, use, 0))
        assert step(g) == STEP_MOVE
        got = sum(g.hand(s).values()) - cards if what == "card" else g.seat(s)["fuel"] - 3
        assert got == use * gain


def test_s2_dock_4s_free_move_is_there_either_way_and_a_full_tank_is_not_asked():
    """Steg 4: "Man darf einmal kostenlos einen Würfel verschieben und/oder den Treibstoff um eins
    erhöhen": the free move is the seat's to use or not at the move step (moving is optional), the
    fuel is the decision; with the tank full the fuel would change nothing and is not asked."""
    g, s = boarding()
    g.set_switch(s, "free_moves", 0)
    g.set_money(s, 0)
    g.set_fuel(s, 7)
    g.apply((K_PLACE, 3, 0))
    assert step(g) == STEP_MOVE
    assert (K_MOVE, 12, 0) in g.legal_actions()  # red die 12: dock 5 -> dock 4, free, with $0
    g.apply((K_MOVE, 12, 0))
    assert g.legal_actions() == [(K_MOVE_DONE, 0, 0)]


@pytest.mark.parametrize("policy", ["greedy", "heuristic"])
@pytest.mark.parametrize("dock", [1, 3, 4])
def test_s2_scoring_policies_use_an_ability_that_helps(policy, dock):
    g, s = boarding(policy)
    g.set_fuel(s, 3)
    g.apply((K_PLACE, dock, 0))
    assert g.policy_choice() == (K_ABILITY, 1, 0)


# ---- S3: when to improve ------------------------------------------------------------------------
def test_s3_an_improvement_set_gives_its_improvement_at_once_while_loading():
    """RB Flugphase b: "Hat man drei gleiche Symbole gesammelt, erhält man einen entsprechenden
    Bonus": the improvement comes at once, before the dice are put on the tickets (c) and the fuel
    is paid (d). Two improvement symbols are collected; the Carcross improvement ticket completes
    the set; the seat switches two_card_wild on and at once flies its second passenger on two
    face-down cards (the hand holds only two)."""
    g, s = position()
    load_plane(g, s, [0, 3])
    set_hand(g, s, [g.card("Carcross", "improvement"), g.card("Mayo", "money"), g.card("Atlin", "money")])
    g.set_symbols(s, "improvement", 2)
    g.apply((K_FLY, g.loc("Carcross"), 0))
    g.apply((K_TICKET, SYM_IMPROVE, PINK))
    assert step(g) == STEP_IMPROVE and g.snapshot()["actor"] == s
    g.apply((K_IMPROVE, TWO_WILD, 0))
    assert step(g) == STEP_LOAD and (K_WILD, YELLOW, 0) in g.legal_actions()
    g.apply((K_WILD, YELLOW, 0))
    g.apply((K_FACEDOWN, g.card("Mayo", "money"), 0))
    g.apply((K_FACEDOWN, g.card("Atlin", "money"), 0))
    g.apply((K_GO, 0, 0))
    assert g.seat(s)["round_dice"] == 2 and g.invariants() == 0


def test_s3_two_dice_per_ticket_taken_while_loading_gives_the_played_tickets_room():
    """RB Flugphase c ("Jedem Flugticket, das gespielt wurde, wird ein Würfel zugewiesen") comes
    after b: a two_dice_per_ticket switch won by a set in b lets the tickets already played carry
    a second die."""
    g, s = position()
    load_plane(g, s, [0, 3])
    set_hand(g, s, [g.card("Carcross", "improvement")])
    g.set_symbols(s, "improvement", 2)
    g.apply((K_FLY, g.loc("Carcross"), 0))
    g.apply((K_TICKET, SYM_IMPROVE, PINK))
    g.apply((K_IMPROVE, TWO_DICE, 0))
    assert (K_EXTRA, YELLOW, 0) in g.legal_actions()
    g.apply((K_EXTRA, YELLOW, 0))
    g.apply((K_GO, 0, 0))
    assert g.seat(s)["round_dice"] == 2 and g.invariants() == 0


def test_s3_marker_improvements_come_after_the_fuel_is_paid():
    """RB Flugphase d then e: the plane is moved and the fuel paid (d) before the markers give their
    improvements (e), so a marker's improvement never pays the flight it came on. Carmacks -> Mayo
    costs 2, the tank holds 1, no cards as fuel: the pink marker waiting at Mayo (an improvement,
    e.g. the cards-as-fuel dial) does not make the flight possible."""
    g, s = position()
    mayo = g.loc("Mayo")
    g.set_markers(mayo, [1, 0, 0, 0, 0])
    load_plane(g, s, [0])
    set_hand(g, s, [g.card("Mayo", "money"), g.card("Atlin", "money")])
    g.set_location(s, g.loc("Carmacks"))
    g.set_fuel(s, 1)
    g.set_dial(s, "cards_as_fuel", 0)
    assert (K_FLY, mayo, 0) not in g.legal_actions()
    g.set_fuel(s, 2)
    g.apply((K_FLY, mayo, 0))
    g.apply((K_TICKET, SYM_MONEY, PINK))
    g.apply((K_GO, 0, 0))
    assert g.seat(s)["fuel"] == 0 and g.seat(s)["loc"] == mayo and step(g) == STEP_IMPROVE


# ---- S4: the route --------------------------------------------------------------------------------
def test_s4_the_fuel_is_the_cheapest_route_and_only_the_destination_counts(run4):
    """RB Flugphase d: "Man addiert die Werte auf den gelben Schildchen neben den Linien ... vom
    Startort zum Zielort" and "Das Flugzeug wird auf den Zielort versetzt": the route's only effect
    is the fuel. Markers, values and visits are the destination's (e, Einkommensphase a), and more
    fuel spent never helps (the tank pays every later flight, fuel_left orders and the fuel tie rule
    reward fuel kept, cards burn only when the tank is short), so a longer route is never better:
    the kernel charges the least sum of signs between every pair of locations (Dijkstra here)."""
    sec = run4.cfg.section
    names = [loc.name for loc in sec.locations]
    adj = {n: [] for n in names}
    for r in sec.routes:
        adj[r.a].append((r.b, r.fuel))
        adj[r.b].append((r.a, r.fuel))
    dist = run4.spec[1]
    for i, a in enumerate(names):
        best = {a: 0}
        heap = [(0, a)]
        while heap:
            d, x = heapq.heappop(heap)
            if d > best[x]:
                continue
            for y, f in adj[x]:
                if d + f < best.get(y, 1 << 30):
                    best[y] = d + f
                    heapq.heappush(heap, (d + f, y))
        assert [int(dist[i, j]) for j in range(len(names))] == [best[b] for b in names]
    g = GameState.from_run(run4, 0, Rig(dice=BY_COLOUR))
    to_flights(g, [5, 5, 5, 5])
    s = g.snapshot()["actor"]
    load_plane(g, s, [0])
    set_hand(g, s, [g.card("Mayo", "money")])
    g.set_fuel(s, 7)
    g.apply((K_FLY, g.loc("Mayo"), 0))
    g.apply((K_TICKET, SYM_MONEY, PINK))
    g.apply((K_GO, 0, 0))
    seat = g.seat(s)
    assert seat["fuel"] == 3 and seat["round_max_value"] == 5  # via Cinnamon Strip and Carmacks: 1 + 1 + 2
    visited = [l for l in range(len(names)) if sum(g.cockpit_markers(s, l)) > 0]
    assert visited == [g.loc("Mayo")]


# ---- S6 / D15: Whitehorse as a destination ------------------------------------------------------
def test_d15_whitehorse_is_a_destination_for_face_down_cards():
    """RB Flugphase a: "Man wählt einen Zielort aus"; Whitehorse is an Ort ("auf den Ort
    „Whitehorse“ gestellt", Vorbereitung) with no markers, and no ticket names it, so only three
    face-down cards carry a passenger there. It pays like any flight: the location's value ($0),
    $1 per die, a grey marker (no marker there, RB e) that records the visit."""
    g, s = position()
    hub = g.loc("Whitehorse")
    load_plane(g, s, [0])
    set_hand(g, s, [g.card("Mayo", "money"), g.card("Atlin", "money"), g.card("Teslin", "money")])
    assert (K_FLY, hub, 0) not in g.legal_actions()  # the plane is there
    g.set_location(s, g.loc("Carcross"))
    assert (K_FLY, hub, 0) in g.legal_actions()
    g.apply((K_FLY, hub, 0))
    assert g.legal_actions() == [(K_WILD, PINK, 0)]
    g.apply((K_WILD, PINK, 0))
    while step(g) == STEP_FACEDOWN:
        g.apply(g.legal_actions()[0])
    g.apply((K_GO, 0, 0))
    assert g.seat(s)["loc"] == hub and g.cockpit_markers(s, hub)[GREY] == 1 and g.seat(s)["round_dice"] == 1
    assert g.invariants() == 0


def test_d15_hub_destination_false_keeps_whitehorse_out():
    g, s = position(hub_destination=False)
    load_plane(g, s, [0])
    set_hand(g, s, [g.card("Mayo", "money"), g.card("Atlin", "money"), g.card("Teslin", "money")])
    g.set_location(s, g.loc("Carcross"))
    assert (K_FLY, g.loc("Whitehorse"), 0) not in g.legal_actions()
    assert (K_FLY, g.loc("Teslin"), 0) in g.legal_actions()


# ---- taking a die ---------------------------------------------------------------------------------
def test_taking_dice_is_compulsory_when_a_die_can_be_taken():
    """RB Boardingphase c: "Man nimmt Passagiere (Würfel) an Bord, indem man einen oder mehrere
    Würfel derselben Farbe nimmt": one or more, in the plain form of the compulsory steps a ("Man
    nimmt seinen Spielstein") and d ("Man passt die Treibstoff-Anzeige an"), where b and the moves
    say "Wenn gewollt, kann" and "kann man". So the first take has no 'done' option; the seat
    avoids passengers only by its dock (dock 6 holds no die here) or by moving the dice away first."""
    g, s = boarding()
    g.apply((K_PLACE, 0, 0))
    g.apply((K_MOVE_DONE, 0, 0))
    assert step(g) == STEP_TAKE and all(a[0] == K_TAKE for a in g.legal_actions())
    assert (K_TAKE_DONE, 0, 0) not in g.legal_actions()
    g2, s2 = boarding()
    g2.set_money(s2, 0)
    g2.apply((K_PLACE, 5, 0))
    g2.end_turn()
    assert not any(g2.die(d) == (DP_PLANE, s2) for d in range(15))


# ---- mistakes still reach every new decision ------------------------------------------------------
def test_random_policy_draws_among_the_cards():
    """The random policy (and so a ``mistake``) draws among the same legal actions: over many
    draws it burns each card of the issue's hand."""
    g, s = carmacks_short("random")
    seen = set()
    for _ in range(60):
        seen.add(g.policy_choice())
    assert seen == {(K_BURN, t, 0) for t in g.hand(s)}
