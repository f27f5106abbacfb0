"""Now Boarding component data (Python side; compiled into the flat spec by ``spec.py``).

Sources (see /work/shared/research/games/now_boarding.md and RULES.md):

* maps, route colours, fares, price chart, Preflight numbers, VIP list: the licensed
  Board Game Arena port (``quietmint/bga-nowboarding``) — confidence med-high;
* seat prices $9 (3rd) and $13 (4th), passenger removal by player count, setup steps:
  the rulebook (RB, Spanish) — confidence high.
"""

from __future__ import annotations

AIRPORTS = ["ATL", "DEN", "DFW", "JFK", "LAX", "MIA", "ORD", "SEA", "SFO"]
AIRPORT_ID = {a: i for i, a in enumerate(AIRPORTS)}

# colour 0 = white (every plane); 1..5 = special route colours, named by the owner airport.
COLOURS = ["white", "green", "purple", "orange", "red", "blue"]
COLOUR_ID = {c: i for i, c in enumerate(COLOURS)}
#: starting airport of each plane colour (BGA N_REF_ALLIANCE_COLOR)
COLOUR_HOME = {"green": "ATL", "purple": "DFW", "orange": "LAX", "red": "ORD", "blue": "SEA"}
HOME_COLOUR = {v: k for k, v in COLOUR_HOME.items()}

# (a, b, non-airport spaces, colour) — BGA NMap.class.php, checked against the board art.
ROUTES_BOTH = [
    ("ATL", "DEN", 3, "white"),
    ("ATL", "DFW", 2, "green"),
    ("ATL", "JFK", 2, "white"),
    ("ATL", "MIA", 1, "white"),
    ("ATL", "ORD", 2, "green"),
    ("DEN", "DFW", 2, "purple"),
    ("DEN", "LAX", 2, "orange"),
    ("DEN", "ORD", 2, "red"),
    ("DEN", "SFO", 2, "white"),
    ("DFW", "LAX", 3, "white"),
    ("DFW", "MIA", 2, "purple"),
    ("JFK", "ORD", 2, "white"),
    ("LAX", "MIA", 4, "orange"),
    ("LAX", "SFO", 1, "white"),
]
ROUTES_23 = ROUTES_BOTH + [("SFO", "ORD", 3, "red")]
ROUTES_45 = ROUTES_BOTH + [
    ("DEN", "SEA", 2, "blue"),
    ("JFK", "SEA", 4, "blue"),
    ("SEA", "ORD", 3, "red"),
    ("SEA", "SFO", 2, "white"),
]

# Fare in $ from origin (row) to destination (column), AIRPORTS order; BGA N_REF_FARE.
FARES = [
    # ATL DEN DFW JFK LAX MIA ORD SEA SFO
    [0, 2, 2, 2, 4, 1, 2, 4, 4],  # ATL
    [2, 0, 2, 3, 2, 3, 2, 2, 2],  # DEN
    [2, 2, 0, 3, 2, 2, 3, 3, 3],  # DFW
    [2, 3, 3, 0, 5, 3, 2, 3, 4],  # JFK
    [4, 2, 2, 5, 0, 3, 3, 3, 1],  # LAX
    [1, 3, 2, 3, 3, 0, 3, 5, 4],  # MIA
    [2, 2, 3, 2, 3, 3, 0, 2, 3],  # ORD
    [4, 2, 3, 3, 3, 5, 2, 0, 2],  # SEA
    [4, 2, 3, 4, 1, 4, 3, 2, 0],  # SFO
]

#: Preflight chart: players -> (cards in pile, cards drawn per round) for morning, afternoon, evening.
#: BGA N_REF_HOUR_PAX; 3 players afternoon = 15 (RB's worked example says 18, impossible: 59 > 56 cards).
PREFLIGHT = {
    2: ([3, 10, 27], [1, 2, 3]),
    3: ([6, 15, 32], [2, 3, 4]),
    4: ([12, 20, 35], [3, 4, 5]),
    5: ([12, 30, 24], [4, 5, 6]),
}
#: weather tokens placed per stage (alternating storm, tailwind); BGA setupWeather (ASSUMPTION on the cards).
WEATHER_TOKENS = {2: 2, 3: 4, 4: 6, 5: 6}
#: airports whose passengers are removed (RB setup step 9)
REMOVED = {2: ["JFK", "SEA"], 3: ["SEA"], 4: [], 5: []}
#: default starting planes per player count (ASSUMPTION: the team's choice; the colours that cover the map)
DEFAULT_PLANES = {
    2: ["ATL", "LAX"],
    3: ["ATL", "LAX", "ORD"],
    4: ["ATL", "DFW", "LAX", "ORD"],
    5: ["ATL", "DFW", "LAX", "ORD", "SEA"],
}

# Upgrade chart (BGA N_REF_SEAT_COST / N_REF_SPEED_COST; RB confirms 3rd seat $9, 4th $13).
SEAT_PRICES = [5, 9, 13, 17]  # price of reaching 2, 3, 4, 5 seats
SPEED_PRICES = [5, 7, 9, 11, 13, 15]  # price of reaching speed 4 .. 9
ROUTE_PRICE = 7
TEMP_SEAT_PRICE = 2
TEMP_SPEED_PRICE = 1

# Tile supply (RB components: "18 losetas de asiento", "15 fichas de velocidad", "10 fichas de
# mejora de ruta"). With ``supply_limits`` the buyable tiles are the box's, less one seat tile and
# one speed tile per plane in play (its starting seat and wing, research note section 5), less
# each free set-up upgrade (RB setup 8: one seat or speed tile per plane; with 2 players one route
# tile too). The research note's "13 seats / 10 speeds" is 18 - 5 / 15 - 5: five planes, before
# the free upgrades.
SEAT_TILES = 18
SPEED_TILES = 15
ROUTE_TILES_PER_COLOUR = 2  # 10 route tiles, 5 colours

# Grumpy VIP ("starts with 1 anger", BGA): the anger it keeps when its anger is removed.
GRUMPY_RESET_PICKUP = 0
"""anger_reset = "pickup" (RB: the cubes go back to the supply at pickup): 0."""
GRUMPY_RESET_SETDOWN = 1
"""anger_reset = "setdown" (BGA: anger resets to the passenger's start when set down): 1."""

# VIP kinds (BGA N_VIP_FOWERS, the 9 cards of the physical game).
VIP_NAMES = ["", "Crying Baby", "Impatient", "Nervous", "Captured Fugitive", "First in Line",
             "Celebrity", "Direct Flight", "Grumpy"]
VIP_NONE, VIP_BABY, VIP_IMPATIENT, VIP_NERVOUS, VIP_FUGITIVE, VIP_FIRST, VIP_CELEBRITY, VIP_DIRECT, VIP_GRUMPY = range(9)
#: the 9 VIP cards: kind and allowed stages (bit 0 morning, 1 afternoon, 2 evening)
VIP_CARDS = [
    (VIP_BABY, 0b011), (VIP_BABY, 0b011), (VIP_IMPATIENT, 0b001), (VIP_NERVOUS, 0b001),
    (VIP_FUGITIVE, 0b010), (VIP_FIRST, 0b010), (VIP_CELEBRITY, 0b100), (VIP_DIRECT, 0b100),
    (VIP_GRUMPY, 0b100),
]
STAGES = ["morning", "afternoon", "evening", "final"]
UPGRADE_KINDS = ["seat", "speed", "route", "temp_seat", "temp_speed"]

#: heuristic policy weights and their defaults (the dict order is the kernel's weight index
#: order: layout.W_* are derived from it). Chosen by hand, see RULES.md "Policies".
HEURISTIC_WEIGHTS = {
    "anger": 2.0,
    "fare": 1.0,
    "dist": 1.0,
    "trip": 0.25,
    "handoff": 3.0,
    "strategy": 0.0,
    "seat_cap": 4.0,
    "speed_cap": 6.0,
}

HEURISTIC_WEIGHT_DOCS: dict[str, str] = {
    "anger": "× anger² of a waiting passenger (urgency)",
    "fare": "× fare ($) of a pickup or delivery",
    "dist": "× move points to reach the pickup / destination",
    "trip": "× move points of the passenger's own trip (pickup targets) or of the detour (boarding)",
    "handoff": "hand a passenger to a plane at the same airport that is this many points closer (0 = never)",
    "strategy": "upgrades: 0 balanced (cheapest), 1 seats first, 2 speed first, 3 routes first",
    "seat_cap": "buy seats up to this many",
    "speed_cap": "buy speed up to this",
}
"""What each weight of ``HEURISTIC_WEIGHTS`` does (printed by ``sim policies``)."""

#: planner policy weights and their defaults (dict order = kernel index order, layout.PW_*).
#: Values per unit of the planner's round value (RULES.md "Policies"); tuned by measurement.
PLANNER_WEIGHTS = {
    "crit": 100.0,
    "anger": 6.0,
    "pick": 15.0,
    "deliver": 30.0,
    "fare": 0.5,
    "carry": 0.25,
    "cover": 10.0,
    "speed1": 5.0,
    "seat1": 3.0,
    "speed2": 6.0,
    "seat2": 4.0,
    "free_speed": 0.0,
    "temp": 1.0,
    "reset": 1.0,
    "horizon": 0.0,
    "prog": 0.0,
    "offload": 1.0,
    "seat3": 0.0,
    "endbuy": 0.0,
    "cover2": 0.0,
    "covercap": 0.0,
    "orders": 0.0,
    "endgame": 0.0,
    "relay": 0.0,
    "hlate": -1.0,
    "hfinal": -1.0,
    "oend": -1.0,
    "endsearch": 0.0,
}

PLANNER_WEIGHT_DOCS: dict[str, str] = {
    "crit": "boarding a passenger at its last anger cube (it would complain this maintenance)",
    "anger": "per anger cube removed at pickup (RB: cubes go back at pickup)",
    "pick": "per passenger boarded",
    "deliver": "per passenger delivered this round",
    "fare": "per $ of a delivery",
    "carry": "per move point from the end of the round to a carried passenger's destination",
    "cover": "per passenger at its next-to-last cube within next round's reach of the end",
    "speed1": "purchases in order (speed1, seat1, speed2, seat2): first speed up to this",
    "seat1": "purchases, after speed1: seats up to this",
    "speed2": "purchases, after seat1: speed up to this",
    "seat2": "purchases, after speed2: seats up to this, then routes that save distance, then the rest",
    "free_speed": "RB setup 8: 1 = the free upgrade is speed, 0 = a seat",
    "temp": "1 = spend money left after a purchase on the temporary seat / speed tokens",
    "reset": (
        "anger re-set: a plane passing an airport boards waiting passengers with at least this many cubes "
        "into seats its plan leaves free (0 = off)"
    ),
    "horizon": (
        "move points beyond this round a plane's itinerary may reach (stops then count, but no rescue at the "
        "last cube: that passenger complains before the plane arrives)"
    ),
    "prog": (
        "> 0: progress mode (PLANNER_PROGRESS_WEIGHTS): a leg is worth this per move point its passengers "
        "come closer to their destinations (team distance); boarding and set-downs are planned per leg, "
        "``pick`` values the waiting passengers the free seats approach. 0 = the version-3 planner "
        "(PLANNER_V3_WEIGHTS)"
    ),
    "offload": (
        "1 = set down a carried passenger that the rest of the plan does not bring closer to its destination "
        "(it waits with no cubes; another plane may relay it)"
    ),
    "seat3": "from the evening stage on, seats up to this come before every other purchase (0 = off)",
    "endbuy": (
        "after the last draw (RB 'Salir de la aeronave': money has no use after the game) the plane saves for "
        "nothing: 1 = the cheaper of seat and speed, 2 = seats first, 3 = speed first, while the money lasts, "
        "then the temporary tokens with the change (0 = the usual order)"
    ),
    "cover2": "progress mode: per passenger two cubes short of the last within two rounds' speed of the end",
    "covercap": "progress mode: 1 = a plane's end covers at most as many passengers as it has seats",
    "orders": (
        "progress mode: 1 = besides the greedy commitment, try each plane committed first and fly the team "
        "plan of highest total value (about players + 1 times the planning); 2 = each ordered pair of planes "
        "first (about players² times)"
    ),
    "endgame": (
        "progress mode: > 0 = in the round after the last draw a plan may run this many move points into the "
        "final round, and progress counts only as a delivery by then"
    ),
    "relay": (
        "progress mode: 1 = a passenger a committed plane sets down is waiting, for the planes committed "
        "after it, from the move point after the set-down on (a relay inside the round)"
    ),
    "hlate": (
        "progress mode, >= 0: the ``horizon`` of the evening stage's rounds (-1 = ``horizon``; with "
        "``endgame`` > 0 the round after the last draw has ``endgame``)"
    ),
    "hfinal": "progress mode, >= 0: the ``horizon`` of the final round (-1 = ``horizon``)",
    "oend": "progress mode, >= 0: the ``orders`` of the rounds after the last draw (-1 = ``orders``)",
    "endsearch": (
        "> 0: after the last draw each plane's purchase is the affordable basket whose simulations (this many "
        "each) of the rest of the game with this planner score best"
    ),
}
"""What each weight of ``PLANNER_WEIGHTS`` does (printed by ``sim policies``)."""

#: the planner in progress mode (issue 10; measured in RULES.md "Calibration note": 4 players deliver
#: about 50 passengers instead of 35 and win about 2.5 % instead of 0.015 %, at about 1/3 of the
#: version-3 planner's speed). Use on every seat as ``{ policy = "planner", weights = {...} }``
#: (configs/now_boarding.toml shows it). Chosen by a sweep on 1,000-game samples (RULES.md).
PLANNER_PROGRESS_WEIGHTS = {
    "prog": 12.0, "offload": 0.0, "reset": 0.0, "pick": 5.0, "anger": 15.0, "horizon": 2.0, "crit": 300.0,
}

#: the version-3 planner (plane by plane, stops valued by deliveries and pickups, prog = 0): the
#: default before rules version 4; select it with these weights on every seat.
PLANNER_V3_WEIGHTS = dict(PLANNER_WEIGHTS)

#: the rules-version-4 planner (progress mode with the version-3 purchases); select it with these
#: weights on every seat.
PLANNER_V4_WEIGHTS = {**PLANNER_WEIGHTS, **PLANNER_PROGRESS_WEIGHTS}

#: rules version 5 over version 4 (issue 10; chosen by paired sweeps on 4,000 4-player games,
#: RULES.md "Calibration note"): the team tries each plane as the first of its commitment and
#: flies the plan of highest total value (``orders`` 1: the largest gain, 4 players 8.6 % -> 16.8 %
#: wins); no seat after the free one (``seat1`` = ``seat2`` = 2: more seats lost games), speed to
#: 6, then routes; no temporary tokens with the change (``temp`` 0); a delivery is worth less next
#: to progress (``deliver`` 15); after the last draw the money buys speed (``endbuy`` 3) and the
#: temporary tokens; a passenger two cubes short of the last within two rounds' speed of a plane's
#: end counts as covered (``cover2`` 10); the round before the final one plans 4 points into it
#: (``endgame`` 4).
PLANNER_V5_WEIGHTS = {
    "seat1": 2.0, "seat2": 2.0, "speed1": 5.0, "speed2": 6.0, "temp": 0.0, "deliver": 15.0,
    "endbuy": 3.0, "cover2": 10.0, "orders": 1.0, "endgame": 4.0,
}

#: the whole rules-version-5 planner (version 4 with PLANNER_V5_WEIGHTS over it); select it with
#: these weights on every seat.
PLANNER_V5 = {**PLANNER_V4_WEIGHTS, **PLANNER_V5_WEIGHTS}

#: rules version 6 over version 5 (issue 10; paired on 4,000 4-player games, RULES.md "Calibration
#: note"): relays inside the round (``relay`` 1: a passenger a committed plane sets down waits, for
#: the planes committed after it, from the move point after the set-down).
PLANNER_V6_WEIGHTS = {"relay": 1.0}

#: the whole rules-version-6 planner (version 5 with PLANNER_V6_WEIGHTS over it); select it with
#: these weights on every seat.
PLANNER_V6 = {**PLANNER_V5, **PLANNER_V6_WEIGHTS}

#: rules version 7 over version 6 (issue 10; paired sweeps on 4,000 4-player games, RULES.md
#: "Calibration note": 20.0 % -> 32.1 % wins): in the morning and afternoon an itinerary may run
#: 4 move points past the round (``horizon`` 4), in the evening before the last draw 2
#: (``hlate`` 2, as in version 6), in the final round none (``hfinal`` 0: the game ends with
#: it); after the last draw the team tries every ordered pair of first planes (``oend`` 2).
PLANNER_V7_WEIGHTS = {"horizon": 4.0, "hlate": 2.0, "hfinal": 0.0, "oend": 2.0}

# Rules version 7: the default planner (progress mode since version 4, the version-5 purchases,
# cover and plane orders, the version-6 relays, the version-7 horizons and end-game orders). Same keys, same order
# (the kernel's weight indices, layout.PW_*).
PLANNER_WEIGHTS = {**PLANNER_V6, **PLANNER_V7_WEIGHTS}

#: rollout (look-ahead team) weights and their defaults (issue 10 item 2; RULES.md "Policies").
#: ``rollouts``: simulations per candidate purchase; ``depth``: rounds per simulation (0 = to
#: the end of the game). Budget chosen by measurement (RULES.md "Policies": over the version-7
#: planner, 2 rounds ahead win as much as to the end at about 1/18 of the cost; 1 round ahead
#: about half the gain).
ROLLOUT_WEIGHTS = {
    "rollouts": 2,
    "depth": 2,
}
ROLLOUT_WEIGHT_DOCS: dict[str, str] = {
    "rollouts": "simulations per candidate purchase (common random numbers across candidates)",
    "depth": "rounds each simulation plays after the purchase (0 = to the end of the game)",
}
"""What each weight of ``ROLLOUT_WEIGHTS`` does (printed by ``sim policies``)."""
#: rollout: candidate purchases per decision (the base policy's own purchase first, then
#: "buy nothing", then the other affordable baskets of up to 2 speed, 2 seats, 1 route).
ROLLOUT_MAX_CANDIDATES = 8
#: rollout score of one simulation: team win (1) + ROLLOUT_DELIVER x delivered / cards in the
#: game - ROLLOUT_COMPLAINT x complaints / complaint limit; the two small terms stay within
#: (-0.1, 0.2), so they never outweigh a win (RULES.md "Policies").
ROLLOUT_DELIVER = 0.2
ROLLOUT_COMPLAINT = 0.1
