"""Yukon Airways component tables: the one source of every default of the
``[yukon_airways]`` config section and of the policies' weights.

Sources: RB = the rulebook (``shared/seeds/003_e6e45b8a601bcc4b.txt``, German; section names
as printed: Vorbereitung, Boardingphase, Flugphase, Einkommensphase, Wartungsphase,
Spielende, Appendix); RN = the research note ``shared/research/games/yukon_airways.md``
(section numbers); ASSUMPTION = a research-note default where no public source gives the
number (the map, the location values, the ticket deck, the dial steps, the order cards and
the end tables are not public). ``configs/yukon_airways.toml`` repeats each value where a
designer sees it and can type the real components in.

Pure Python: nothing game-internal is imported here.
"""

from __future__ import annotations

# ---- the map (ASSUMPTION: RN 10.1; 12 destinations, RN 6 "12 cities" bigcream) ----------------
HUB = "Whitehorse"
"""RB Vorbereitung / Flugphase: every plane starts each round at Whitehorse (no markers there)."""

LOCATIONS: dict[str, dict[str, int]] = {
    # name: value (money for the highest value visited in a round, RB Einkommensphase a),
    #       far (extra $ per die flown there, RB Einkommensphase b)
    "Whitehorse": {"value": 0, "far": 0},
    "Cinnamon Strip": {"value": 2, "far": 0},
    "Carcross": {"value": 2, "far": 0},
    "June Lake": {"value": 3, "far": 0},
    "Atlin": {"value": 3, "far": 0},
    "Teslin": {"value": 3, "far": 0},
    "Haines Junction": {"value": 3, "far": 0},
    "Carmacks": {"value": 3, "far": 0},
    "Mayo": {"value": 5, "far": 0},
    "Watson Lake": {"value": 5, "far": 0},
    "Dawson City": {"value": 6, "far": 0},
    "Old Crow": {"value": 10, "far": 2},   # RB Einkommensphase b: +$2 per die flown to Old Crow
    "Inuvik": {"value": 11, "far": 3},     # RB Einkommensphase b: +$3 per die flown to Inuvik
}
"""Location -> value and far bonus. Values: ASSUMPTION RN 10.1 (value = shortest fuel from
Whitehorse + 1); far bonuses: RB. Key order is the kernel's location order (0 = hub)."""

ROUTES: tuple[tuple[str, str, int], ...] = (
    ("Whitehorse", "Cinnamon Strip", 1),
    ("Whitehorse", "Carcross", 1),
    ("Whitehorse", "Teslin", 2),
    ("Whitehorse", "Haines Junction", 2),
    ("Cinnamon Strip", "June Lake", 1),
    ("Cinnamon Strip", "Carmacks", 1),
    ("Carcross", "Atlin", 1),
    ("Carmacks", "Mayo", 2),
    ("Carmacks", "Dawson City", 3),
    ("Mayo", "Dawson City", 2),
    ("Teslin", "Watson Lake", 2),
    ("Dawson City", "Old Crow", 4),
    ("Dawson City", "Inuvik", 5),
    ("Old Crow", "Inuvik", 2),
)
"""Map lines with their fuel (the yellow signs, RB Flugphase d). ASSUMPTION RN 10.1: Old Crow
(9) and Inuvik (10) are out of reach of a 7-fuel tank without cards as fuel (RN 4.2)."""

MAX_VALUE = 50
MAX_FUEL_COST = 20
MAX_LOCATIONS = 30
"""Ranges a config may use (feasibility checks of spec.py)."""

# ---- tickets (RB: face-up ticket naming the destination, or three face-down cards) -----------
SYMBOLS: tuple[str, ...] = ("money", "fuel", "improvement")
"""RB Appendix Boni: three symbols, three alike give money, fuel or an improvement."""
TICKETS_PER_LOCATION = 6
"""ASSUMPTION RN 10.2: 72 tickets = 6 per destination, 2 of each symbol (RN 2: 72 cards)."""


def default_tickets() -> list[dict]:
    """The ASSUMPTION deck of RN 10.2 (2nd pass): every destination 6 tickets, 2 per symbol."""
    out = []
    for name in LOCATIONS:
        if name == HUB:
            continue
        for sym in SYMBOLS:
            out.append({"to": name, "symbol": sym, "count": TICKETS_PER_LOCATION // len(SYMBOLS)})
    return out


HAND_DEAL = 6
"""RB Vorbereitung: six secret tickets each."""
WILD_CARDS = 3
"""RB Flugphase a: three face-down cards carry one passenger (switch two_card_wild: 2)."""
BONUS_THRESHOLD = 3
"""RB Flugphase b: three alike symbols give a bonus (switch pair_bonus: 2)."""
BONUS_MONEY = 2
BONUS_FUEL = 2
BONUS_IMPROVEMENTS = 1
"""ASSUMPTION RN 10.2: a money set pays $2, a fuel set +2 fuel (capped), an improvement set 1."""

# ---- dice, markers (RN 2: 15 dice, 3 of each of 5 colours; 80 cubes) ---------------------------
COLOURS: tuple[str, ...] = ("pink", "yellow", "green", "blue", "red")
DICE_PER_COLOUR = 3
DOCKS = 6
"""RB Stege 1-6; a die lies on the dock of its face."""
MARKERS_PER_COLOUR = 10
"""ASSUMPTION RN 10.3: 10 cubes per colour (50) + 30 grey."""
GREY_MARKERS = 0
"""RN 11 Y8 ASSUMPTION: the grey supply is unlimited (0 = unlimited; a positive count limits it)."""

# ---- the plane and the cockpit (RB Vorbereitung, Appendix Anzeigen / Schalter) -----------------
PLANE_SEATS = 4
"""RB Boardingphase c: every plane has room for four dice; d: one barrel per free space."""
FUEL_START = 4
FUEL_MAX = 7
"""RB Vorbereitung: fuel on 4; RN 4.1: the tank holds 7."""
START_MONEY: tuple[int, ...] = (1, 2, 3, 4)
"""RB Vorbereitung: the first player takes $1, the second $2, and so on."""
ROUNDS = 6
"""RB Spielablauf: six rounds, Tuesday to Sunday."""
DAYS: tuple[str, ...] = ("Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

DIALS: dict[str, list[int]] = {
    "bonus_fuel": [0, 1, 2, 3],
    "cards_as_fuel": [0, 1, 2, 3, 4],
    "hand_limit": [6, 7, 8, 9],
    "draw": [2, 3, 4, 5],
    "christmas": [0, 3, 6, 10, 15],
}
"""RB Appendix Anzeigen (the five dark dials; fuel is the sixth). Steps: ASSUMPTION RN 10.4;
start = the lowest (first) step (RB Vorbereitung)."""

SWITCHES: tuple[str, ...] = ("two_dice_per_ticket", "bonus_money", "pair_bonus", "free_moves",
                             "two_card_wild", "marker_money", "two_colours")
"""RB Appendix Schalter names six switches (the first six); ``two_colours`` is the seventh of
RN 5 (28 switch tokens = 7 per board) and exists only with ``two_colour_switch`` (RULES.md D9)."""
SWITCH_BONUS_MONEY = 2
"""ASSUMPTION RN 5 S2: +$2 for every symbol bonus."""
FREE_MOVES = 2
"""RB Appendix Schalter: two free dice moves (per round)."""
MARKER_MONEY = 2
"""ASSUMPTION RN 10.8 S7: $2 per marker of the colour one holds most of."""

PLANES: tuple[str, ...] = ("bonus_fuel", "draw", "hand_limit", "free_moves")
"""Starting improvement of each seat's seaplane card (RB Vorbereitung). ASSUMPTION RN 10.6."""

# ---- docks (RB Appendix Stege) -----------------------------------------------------------------
DOCK4_FUEL = 1
DOCK4_FREE_MOVES = 1
DOCK5_FUEL = 2
DOCK6_COST = 1
"""RB Stege: 4 one free move and/or +1 fuel; 5 two fuel; 6 pay $1 for an improvement."""

# ---- order cards (ASSUMPTION RN 10.7; RB Flugphase f, Einkommensphase c) -----------------------
ORDER_KINDS: tuple[str, ...] = ("colour", "fuel_left", "destinations", "delivered", "places")
REWARDS: tuple[str, ...] = ("money", "cards")
ORDERS: tuple[dict, ...] = (
    {"kind": "colour", "colour": "pink", "reward": "money", "amount": 1},
    {"kind": "colour", "colour": "yellow", "reward": "money", "amount": 1},
    {"kind": "colour", "colour": "green", "reward": "cards", "amount": 1},
    {"kind": "colour", "colour": "blue", "reward": "cards", "amount": 1},
    {"kind": "colour", "colour": "red", "reward": "money", "amount": 1},
    {"kind": "fuel_left", "at_least": 3, "reward": "money", "amount": 2},
    {"kind": "destinations", "at_least": 2, "reward": "money", "amount": 2},
    {"kind": "delivered", "at_least": 4, "reward": "money", "amount": 3},
    {"kind": "places", "places": ["Dawson City", "Old Crow", "Inuvik"], "reward": "money", "amount": 3},
)
"""The nine order cards (RN 2, 7). Texts: ASSUMPTION RN 10.7. "colour": each die of that
colour delivered; the others: once a round when met."""
ORDERS_IN_PLAY = 3
"""RB Vorbereitung: three order cards face up."""

VISITED_TABLE: tuple[int, ...] = (0, 0, 1, 2, 4, 6, 9, 12, 16, 20, 25, 30, 36)
"""End money by distinct locations visited (RB Spielende). ASSUMPTION RN 10.8."""

# ---- rule options (RULES.md decisions) ---------------------------------------------------------
TIE_BREAK = "fuel"
"""D12: most money wins; a tie goes to the most fuel left, then is shared (RN 10.8)."""
UNFLOWN_DICE = "stay"
"""D6: dice still on a plane after its last flight stay aboard (RB Wartungsphase a rolls only
the dice on tickets); "roll": rolled onto the docks with them (RN Y5)."""
TICKET_SYMBOL_COUNTS = True
"""D7: a face-up ticket's own symbol counts towards three alike (tucked cards add to it)."""
ORDER_TIMING = "when_met"
"""D8: colour orders pay at the flight (RB Flugphase f), round orders at income (c);
"income": every order at income."""
TWO_COLOUR_SWITCH = False
"""D9: the rulebook's six switches only."""
HUB_DESTINATION = True
"""D15: the hub is a destination like any other location (RB Flugphase a: "Man wählt einen
Zielort aus"; no ticket names it, so only face-down cards carry a passenger there); false: never
a destination (rules version 2)."""

# ---- policy weights (their order is the kernel's W_* order) ------------------------------------
HEURISTIC_WEIGHTS: dict[str, float] = {
    "money": 1.0,
    "improvement": 1.5,
    "far": 0.5,
    "dock_order": 0.0,
    "keep_tickets": 0.3,
    "new_place": 3.0,
    "reach": 1.0,
}
"""Defaults of the weighted policy: the best of a 2-player sweep against greedy (improvement
0.6-2.5, dock_order 0-0.4, keep_tickets 0.1-0.6, new_place 0-5, far 0-1; 3,000 games each):
62% wins against greedy; any dock_order > 0 lost games. ``reach`` (rules version 3, RULES.md
"Policies": which cards to give up) weighs a card by whether its destination can still be
reached; 0 gives the cards of the cheapest locations up first, the fixed rule of version 2."""

HEURISTIC_WEIGHT_DOCS: dict[str, str] = {
    "money": "value of $1 now (boarding moves, dock 6, passengers' income)",
    "improvement": "value of one improvement (a coloured marker, a bonus, dock 6), by rank and time left",
    "far": "times the extra value of far destinations (location value, far bonus)",
    "dock_order": "value per dock position earlier in the flight order",
    "keep_tickets": "value of keeping one ticket card (not burnt as fuel or given face down)",
    "new_place": "value of a location not yet on one's cockpit map (visited table)",
    "reach": "how far a ticket card's worth depends on reaching its destination (1: a card naming a place out "
             "of reach is given up first; 0: the cheapest location first, whatever the reach)",
}
"""What each weight of ``HEURISTIC_WEIGHTS`` does (printed by ``sim policies``)."""
GREEDY_WEIGHTS: dict[str, float] = {
    "money": 1.0, "improvement": 1.0, "far": 0.0, "dock_order": 0.0, "keep_tickets": 0.3, "new_place": 0.0,
    "reach": 1.0,
}
"""The greedy rule of thumb: the same scoring with fixed weights that look at money now only."""

IMPROVEMENT_PRIOR: dict[str, float] = {
    "bonus_fuel": 1.0, "cards_as_fuel": 0.9, "hand_limit": 0.3, "draw": 0.8, "christmas": 0.7,
    "two_dice_per_ticket": 1.2, "bonus_money": 0.4, "pair_bonus": 0.6, "free_moves": 0.5,
    "two_card_wild": 0.8, "marker_money": 0.6, "two_colours": 0.9,
}
"""How the greedy and heuristic policies rank the improvement kinds (a policy's taste, not a rule)."""

ROLLOUT_WEIGHTS: dict[str, float] = {
    "rollouts": 4,
    "depth": 0,
    "candidates": 4,
}
"""Budget defaults of ``rollout`` (hooks.rollout_choice), chosen for a usable cost (RULES.md
"Policies" gives the measured strength and cost)."""

ROLLOUT_WEIGHT_DOCS: dict[str, str] = {
    "rollouts": "simulations per candidate action (paired: the same streams for every candidate)",
    "depth": "days simulated after the decision's day (0 = to the end of the game)",
    "candidates": "actions tried: the base policy's choice, then its next best by its score (0 = all)",
}
"""What each weight of ``ROLLOUT_WEIGHTS`` does (printed by ``sim policies``)."""
