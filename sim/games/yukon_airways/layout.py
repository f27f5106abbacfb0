"""Yukon Airways kernel layout: every constant the kernel, the policies, the trace and the
scenario API share. Pure Python (no numba); offsets are derived with
:class:`sim.games.base.Layout` (offset + size), indices with :func:`index_constants`.

Spec (``spec.compile_spec``), a tuple of arrays::

    p        int64[NP]      parameters P_* and the state block offsets P_OFF_*
    dist     int32[L, L]    shortest summed fuel between two locations (RB Flugphase d)
    loc      int32[L, 2]    location value, far bonus per die (RB Einkommensphase a, b)
    deck     int32[NCARDS]  card type of every ticket card (type = location * NSYM + symbol)
    dials    int32[NDIAL, 9] column 0 = number of steps, columns 1.. = the step values
    orders   int32[NORD, OW] order cards: kind, param, reward kind, amount, places mask
    visited  int32[L]       end money by distinct locations visited (index = count)
    planes   int32[S]       starting improvement of each seat (-1 none)
    dcol     int32[NDICE]   colour of every die

State: one int32 array per game::

    offset           size            block
    0                NH              header H_* (ends with the dock counters H_DOCK_DICE,
                                     NDOCK x NCOL: dice on each dock by colour)
    p[P_OFF_SEAT]    S x SW          seat records SE_* (money, fuel, plane, dials, switches,
                                     round counters, statistics; last the counters SE_ABOARD,
                                     SE_AB_COL[NCOL], SE_HAND_N, SE_FUEL_N)
    p[P_OFF_HAND]    S x NT          ticket cards in hand by type
    p[P_OFF_TABLE]   S x NT          ticket cards played this round (on the table)
    p[P_OFF_DECK]    NCARDS          draw pile deck[0:deck_n], top = deck[deck_n - 1]
    p[P_OFF_DISC]    NCARDS          discard pile disc[0:disc_n]
    p[P_OFF_DIE]     NDICE x 2       die place (DP_DOCK0 + dock, DP_PLANE, DP_TICKET), die seat
    p[P_OFF_MAP]     L x NCOL        coloured location markers on the board
    p[P_OFF_POOL]    NCOL            coloured markers left in the box at set-up
    p[P_OFF_COCKPIT] S x L x NCOLG   markers on each cockpit map (NCOL colours, then grey)
    p[P_OFF_TURN]    S               turn order (seat ids, first to act first)
    p[P_OFF_ORDERS]  NORDP           order cards face up (row of spec ``orders``)
    p[P_OFF_TDOWN]   S x NT          of the table's cards, those played face down (three-card tickets)
    p[P_OFF_DDOWN]   NCARDS          discard pile: owner seat + 1 of a face-down card, 0 face up
    (state size = p[P_OFF_DDOWN] + NCARDS)

Actions: rows of ACT_W int32 ``(kind, a, b)``; the step H_STEP says which kinds are legal:

    STEP_PLACE    (K_PLACE, dock 0..5, 0)
    STEP_ABILITY  (K_ABILITY, 0 = not used / 1 = used, 0)                  docks 2, 4, 5 (RULES.md S2)
    STEP_BUY      (K_BUY, improvement kind or -1 = no, 0)                  dock 6
    STEP_MOVE     (K_MOVE, die, direction 0 = down / 1 = up), (K_MOVE_DONE, 0, 0)
    STEP_TAKE     (K_TAKE, colour, count), (K_TAKE_DONE, 0, 0) after a first take
    STEP_DEST     (K_PASS, 0, 0), (K_FLY, destination, 0)
    STEP_LOAD     (K_TICKET, symbol, colour), (K_WILD, colour, 0), (K_EXTRA, colour, 0),
                (K_TUCK, card type, 0), (K_GO, 0, 0)
    STEP_FACEDOWN (K_FACEDOWN, card type, 0)      one card laid face down, H_GIVE times after K_WILD (S1)
    STEP_BURN     (K_BURN, card type, 0)          one card burnt as fuel, H_GIVE times after K_GO (S1)
    STEP_IMPROVE  (K_IMPROVE, improvement kind or -1 = none, 0)
    STEP_DISCARD  (K_DISCARD, card type, 0)                                maintenance

Results: ``COLUMNS`` (one row per game), read in the kernel at ``engine.col_at(*O_X, S, s)``.
"""

from __future__ import annotations

from sim.games.base import Column, Layout, PolicyDef, column_offsets, index_constants
from sim.games.yukon_airways.data import (
    COLOURS,
    DIALS,
    DOCKS,
    GREEDY_WEIGHTS,
    HEURISTIC_WEIGHT_DOCS,
    HEURISTIC_WEIGHTS,
    IMPROVEMENT_PRIOR,
    ORDER_KINDS,
    REWARDS,
    ROLLOUT_WEIGHT_DOCS,
    ROLLOUT_WEIGHTS,
    SWITCHES,
    SYMBOLS,
)

# ---- enums --------------------------------------------------------------------------------------
NSYM = len(SYMBOLS)
SYM_MONEY, SYM_FUEL, SYM_IMPROVE = index_constants(SYMBOLS)
NCOL = len(COLOURS)
NCOLG = NCOL + 1
GREY = NCOL
NDOCK = DOCKS
DIAL_NAMES: tuple[str, ...] = tuple(DIALS)
NDIAL = len(DIAL_NAMES)
D_BONUS_FUEL, D_CARDS_FUEL, D_HAND, D_DRAW, D_CHRISTMAS = index_constants(DIAL_NAMES)
MAX_STEPS = 8
NSW = len(SWITCHES)
(SW_TWO_DICE, SW_BONUS_MONEY, SW_PAIR_BONUS, SW_FREE_MOVES, SW_TWO_WILD, SW_MARKER_MONEY,
 SW_TWO_COLOURS) = index_constants(SWITCHES)
IMP_NAMES: tuple[str, ...] = DIAL_NAMES + SWITCHES
NIMP = len(IMP_NAMES)
"""Improvement kinds: dial d (0 .. NDIAL-1) one step, or switch j on (NDIAL + j)."""
assert tuple(IMPROVEMENT_PRIOR) == IMP_NAMES
IMP_PRIOR: tuple[float, ...] = tuple(IMPROVEMENT_PRIOR.values())
OK_COLOUR, OK_FUEL_LEFT, OK_DESTS, OK_DELIVERED, OK_PLACES = index_constants(ORDER_KINDS)
RW_MONEY, RW_CARDS = index_constants(REWARDS)
ORDER_FIELDS = ("kind", "param", "reward", "amount", "places")
OF_KIND, OF_PARAM, OF_REWARD, OF_AMOUNT, OF_PLACES = index_constants(ORDER_FIELDS)
OW = len(ORDER_FIELDS)

DP_PLANE = NDOCK
DP_TICKET = NDOCK + 1
DP_LOADING = NDOCK + 2
"""Die places: 0..5 a dock (its face), DP_PLANE aboard the seat's plane, DP_TICKET on a played
ticket, DP_LOADING on a ticket of the flight being loaded."""

# ---- spec parameter vector p --------------------------------------------------------------------
_p = Layout()
P_S = _p.slot()
P_L = _p.slot()
P_NT = _p.slot()
P_NCARDS = _p.slot()
P_NDICE = _p.slot()
P_NORD = _p.slot()
P_NORDP = _p.slot()
P_CAP = _p.slot()
P_HUB = _p.slot()
P_DEAL = _p.slot()
P_WILD = _p.slot()
P_THRESH = _p.slot()
P_BONUS_MONEY = _p.slot()
P_BONUS_FUEL = _p.slot()
P_BONUS_IMP = _p.slot()
P_MARKERS = _p.slot()
P_GREY = _p.slot()
P_SEATS = _p.slot()
P_FUEL0 = _p.slot()
P_FUELMAX = _p.slot()
P_ROUNDS = _p.slot()
P_SW_MONEY = _p.slot()
P_FREE_MOVES = _p.slot()
P_MARKER_MONEY = _p.slot()
P_DOCK4_FUEL = _p.slot()
P_DOCK5_FUEL = _p.slot()
P_DOCK6_COST = _p.slot()
P_FIXED_ORDERS = _p.slot()
P_TIE = _p.slot()            # 0 fuel then shared, 1 shared
P_UNFLOWN = _p.slot()        # 0 stay, 1 roll
P_TICKET_SYM = _p.slot()     # 1 a ticket's own symbol counts
P_ORDER_TIMING = _p.slot()   # 0 when met, 1 income
P_TWO_COLOUR_SW = _p.slot()  # 1 the seventh switch exists
P_HUB_DEST = _p.slot()       # 1 the hub is a destination (face-down cards; D15)
P_MONEY0 = _p.block(6)       # start money by turn position
P_FIXED0 = _p.block(9)       # fixed order card rows
P_OFF_SEAT = _p.slot()
P_OFF_HAND = _p.slot()
P_OFF_TABLE = _p.slot()
P_OFF_DECK = _p.slot()
P_OFF_DISC = _p.slot()
P_OFF_DIE = _p.slot()
P_OFF_MAP = _p.slot()
P_OFF_POOL = _p.slot()
P_OFF_COCKPIT = _p.slot()
P_OFF_TURN = _p.slot()
P_OFF_ORDERS = _p.slot()
P_OFF_TDOWN = _p.slot()
P_OFF_DDOWN = _p.slot()
P_SIZE = _p.slot()
NP = _p.size

# ---- state header -------------------------------------------------------------------------------
_h = Layout()
H_ROUND = _h.slot()       # 0-based day (0 = Tuesday)
H_STEP = _h.slot()        # STEP_*
H_ACTOR = _h.slot()       # seat to decide
H_TURN = _h.slot()        # player turns begun (boarding turns, flight turns, discards)
H_POS = _h.slot()         # position in the turn order of the actor
H_ARRIVAL = _h.slot()     # markers placed on docks this round
H_DECK_N = _h.slot()
H_DISC_N = _h.slot()
H_RESHUF = _h.slot()
H_STARVED = _h.slot()
H_STALL = _h.slot()
H_OVER = _h.slot()
H_WINNER = _h.slot()
H_SHARED = _h.slot()
H_TIED = _h.slot()
H_GREY_LEFT = _h.slot()
H_FREE = _h.slot()        # free die moves left this boarding turn
H_COLOURS = _h.slot()     # colours the actor may still take this boarding turn
H_TAKEN = _h.slot()       # colours taken this boarding turn (bit mask)
H_DEST = _h.slot()        # destination of the flight being loaded
H_FL_TICKETS = _h.slot()  # tickets played on this flight (face-up and face-down sets)
H_FL_DICE = _h.slot()     # dice assigned on this flight
H_FL_ROOM = _h.slot()     # tickets with room for a second die (switch two_dice_per_ticket)
H_FL_SYMS = _h.slot()     # symbols of this flight's face-up tickets (bit mask)
H_FL_WILD = _h.slot()     # face-down sets on this flight
H_FL_COLS = _h.slot()     # dice of this flight by colour (4 bits per colour)
H_PENDING = _h.slot()     # improvements to take
H_FLIGHT = _h.slot()      # 1 from K_FLY until the flight lands (its dice are DP_LOADING)
H_GIVE = _h.slot()        # cards still to lay face down (STEP_FACEDOWN) or to burn (STEP_BURN)
H_MONEY_IN = _h.slot()    # money paid out by the bank
H_MONEY_OUT = _h.slot()   # money paid to the bank
H_DOCK_DICE = _h.block(NDOCK * NCOL)
"""Counter block: dice on dock k of colour c at H_DOCK_DICE + k * NCOL + c, kept equal to a
recount of the die places by every move of a die (``rules.recount``; ``check_invariants``
tests it), so the legal actions and the policies read it instead of scanning the dice."""
NH = _h.size

# ---- steps --------------------------------------------------------------------------------------
STEP_NAMES = ("place", "ability", "buy", "move", "take", "dest", "load", "facedown", "burn", "improve", "discard",
              "over")
(STEP_PLACE, STEP_ABILITY, STEP_BUY, STEP_MOVE, STEP_TAKE, STEP_DEST, STEP_LOAD, STEP_FACEDOWN, STEP_BURN,
 STEP_IMPROVE, STEP_DISCARD, STEP_OVER) = index_constants(STEP_NAMES)

# ---- seat record --------------------------------------------------------------------------------
_r = Layout()
SE_MONEY = _r.slot()
SE_FUEL = _r.slot()
SE_LOC = _r.slot()        # location of the plane
SE_DOCK = _r.slot()       # dock of the marker this round (-1 none)
SE_ARRIVE = _r.slot()     # arrival index on the docks this round (lower = on top)
SE_PASSED = _r.slot()     # 1 when the seat has made its last flight this round
SE_START_POS = _r.slot()  # position in the first turn order (0 = start player)
SE_RANK = _r.slot()       # final place (1 = best), set at the end
SE_DIAL = _r.block(NDIAL)   # dial step index (0 = lowest)
SE_SW = _r.block(NSW)       # switch 0 off / 1 on
SE_SYM = _r.block(NSYM)     # symbols collected this round towards a bonus
SE_R_MAXVAL = _r.slot()     # highest location value visited this round
SE_R_DICE = _r.slot()       # dice on tickets this round
SE_R_FAR = _r.slot()        # far-destination money this round
SE_R_DESTS = _r.slot()      # destinations flown to this round (bit mask)
SE_R_FLIGHTS = _r.slot()
SE_R_COL = _r.block(NCOL)   # dice delivered this round by colour
SE_M_VALUE = _r.slot()      # money by source: location values
SE_M_DICE = _r.slot()       # $1 per die
SE_M_FAR = _r.slot()        # Old Crow / Inuvik
SE_M_BONUS = _r.slot()      # symbol bonuses (and switch bonus_money)
SE_M_ORDERS = _r.slot()
SE_M_CHRISTMAS = _r.slot()
SE_M_SWITCH = _r.slot()     # switch marker_money
SE_M_VISITED = _r.slot()
SE_SPENT = _r.slot()        # die moves and dock 6
SE_IMP = _r.block(NIMP)     # improvements taken by kind (starting improvement not counted)
SE_DOCKS = _r.block(NDOCK)  # dock choices
SE_FLIGHTS = _r.slot()
SE_SHORT = _r.slot()        # flights with cards burnt as fuel
SE_BURNT = _r.slot()        # cards burnt as fuel
SE_UNFLOWN = _r.slot()      # dice still aboard after the last flight of a round
SE_CARDS_IN = _r.slot()     # cards drawn by this seat (deal, dock 2, orders, maintenance)
SE_ABOARD = _r.slot()       # counter: dice aboard the plane (recount: die places)
SE_AB_COL = _r.block(NCOL)  # counter: dice aboard by colour
SE_HAND_N = _r.slot()       # counter: ticket cards in hand (recount: the hand by type)
SE_FUEL_N = _r.slot()       # counter: fuel-symbol ticket cards in hand
SW = _r.size
"""Seat record size. The SE_ABOARD .. SE_FUEL_N counters are kept equal to a recount
(``rules.recount``; ``check_invariants`` tests it) by every change of the dice or the hand."""

# ---- action kinds -------------------------------------------------------------------------------
KIND_NAMES = ("place", "buy", "move", "move_done", "take", "take_done", "pass", "fly", "ticket",
              "wild", "extra", "tuck", "go", "improve", "discard", "ability", "facedown", "burn")
(K_PLACE, K_BUY, K_MOVE, K_MOVE_DONE, K_TAKE, K_TAKE_DONE, K_PASS, K_FLY, K_TICKET, K_WILD,
 K_EXTRA, K_TUCK, K_GO, K_IMPROVE, K_DISCARD, K_ABILITY, K_FACEDOWN, K_BURN) = index_constants(KIND_NAMES)
ACT_W = 3
MAX_ACTS = 256

# ---- trace events -------------------------------------------------------------------------------
EVENT_NAMES = ("round", "place", "dock_ability", "buy", "move", "take", "refuel", "order", "fly",
               "ticket", "wild", "extra", "tuck", "bonus", "fuel", "marker", "improve", "order_card",
               "pass", "income", "roll", "draw", "discard", "reshuffle", "starved", "end", "stall",
               "start", "end_money", "decline", "facedown", "burn")
(E_ROUND, E_PLACE, E_DOCK, E_BUY, E_MOVE, E_TAKE, E_REFUEL, E_ORDER, E_FLY, E_TICKET, E_WILD,
 E_EXTRA, E_TUCK, E_BONUS, E_FUEL, E_MARKER, E_IMPROVE, E_ORDER_CARD, E_PASS, E_INCOME, E_ROLL,
 E_DRAW, E_DISCARD, E_RESHUFFLE, E_STARVED, E_END, E_STALL, E_START, E_END_MONEY, E_DECLINE, E_FACEDOWN,
 E_BURN) = index_constants(EVENT_NAMES)

# ---- invariant codes ----------------------------------------------------------------------------
INVARIANT_NAMES = (
    "ok",
    "card count: a ticket card is not in exactly one place (deck, discard, hands, table)",
    "die: a die is not in exactly one place, or a plane holds more dice than seats",
    "marker count: a coloured marker is not in exactly one place (box, board, cockpits)",
    "grey markers: supply and cockpits do not add up",
    "money: a seat's money is negative or the bank's books do not balance",
    "dial or switch out of range",
    "fuel out of 0..max outside a flight",
    "negative hand count",
    "counters: a dice or hand counter (H_DOCK_DICE, SE_ABOARD .. SE_FUEL_N) differs from a recount",
)
(_, V_CARDS, V_DICE, V_MARKERS, V_GREY, V_MONEY, V_DIALS, V_FUEL, V_NEG_HAND,
 V_COUNTERS) = index_constants(INVARIANT_NAMES)

# ---- policies -----------------------------------------------------------------------------------
POLICY_NAMES = ("random", "greedy", "heuristic", "rollout")
POL_RANDOM, POL_GREEDY, POL_HEURISTIC, POL_ROLLOUT = index_constants(POLICY_NAMES)
WEIGHT_NAMES: tuple[str, ...] = tuple(HEURISTIC_WEIGHTS)
W_MONEY, W_IMPROVE, W_FAR, W_DOCK_ORDER, W_KEEP, W_NEW_PLACE, W_REACH = index_constants(WEIGHT_NAMES)
N_WEIGHTS = len(WEIGHT_NAMES)
ROLLOUT_WEIGHT_NAMES: tuple[str, ...] = tuple(ROLLOUT_WEIGHTS)
"""The rollout policy's own weights, in the trailing slots ``engine.W_LA_ROLLOUTS``,
``W_LA_DEPTH``, ``W_LA_EXTRA`` (= candidates) of its weight row."""
assert tuple(GREEDY_WEIGHTS) == WEIGHT_NAMES
GREEDY_W: tuple[float, ...] = tuple(GREEDY_WEIGHTS.values())

POLICIES = (
    PolicyDef("random", POL_RANDOM, "uniform over the legal actions of every decision"),
    PolicyDef("greedy", POL_GREEDY, "rule of thumb: the dock with most dice of one colour, fly the "
              "best-paying destination now, improvements by a fixed ranking, give up the cards naming "
              "places out of reach first (fixed weights)", scored=True),
    PolicyDef("heuristic", POL_HEURISTIC, "weighted scoring of every action (weights below)",
              dict(HEURISTIC_WEIGHTS), weight_docs=HEURISTIC_WEIGHT_DOCS, scored=True),
    PolicyDef("rollout", POL_ROLLOUT, "flat Monte-Carlo look-ahead: each of the base policy's best `candidates` "
              "actions is played out `rollouts` times (to the end, or `depth` days) by the base policy in every "
              "seat, after re-dealing the ticket draw pile and the opponents' secret tickets; the best mean of "
              "win + 0.5 x share of opponents with less money wins (hooks.rollout_choice)",
              dict(ROLLOUT_WEIGHTS), base="heuristic", weight_docs=ROLLOUT_WEIGHT_DOCS),
)
assert tuple(pd.name for pd in POLICIES) == POLICY_NAMES

# ---- result columns -----------------------------------------------------------------------------
COLUMNS = (
    Column("turns", "player turns played (boarding turns, flight turns, maintenance discards)"),
    Column("stalled", "1 when the turn cap ended the game"),
    Column("reshuffles", "times the discard pile was shuffled into a new draw pile"),
    Column("starved_draws", "draws cut short because draw pile and discard pile were empty"),
    Column("winner", "seat with the most money (tie rule D12), -1 when the win is shared or stalled"),
    Column("shared_win", "1 when the first place is shared (tie_break = shared, or equal fuel)"),
    Column("tied", "1 when two or more seats ended with the most money (before the tie rule)"),
    Column("margin", "winner's money minus the best other seat's (0 on a tie)"),
    Column("emptied", "locations without a coloured marker at the end"),
    Column("rank", "final place (1 = best; tied seats share a place)", per_seat=True),
    Column("money", "money at the end", per_seat=True),
    Column("start_pos", "position in the first turn order (0 = start player, $1)", per_seat=True),
    Column("m_value", "money from the highest location value of each round", per_seat=True),
    Column("m_dice", "money from $1 per die on tickets", per_seat=True),
    Column("m_far", "money from dice flown to far destinations (Old Crow, Inuvik)", per_seat=True),
    Column("m_bonus", "money from symbol bonuses", per_seat=True),
    Column("m_orders", "money from order cards", per_seat=True),
    Column("m_christmas", "money from the Christmas dial", per_seat=True),
    Column("m_switch", "money from the marker_money switch", per_seat=True),
    Column("m_visited", "money from the visited-locations table", per_seat=True),
    Column("spent", "money paid for die moves and dock 6", per_seat=True),
    Column("visited", "distinct locations on the cockpit map at the end", per_seat=True),
    Column("flights", "flights made", per_seat=True),
    Column("short_flights", "flights with ticket cards burnt as fuel", per_seat=True),
    Column("burnt", "ticket cards burnt as fuel", per_seat=True),
    Column("unflown", "dice still aboard after a round's last flight (summed over rounds)", per_seat=True),
) + tuple(Column(f"imp_{k}", f"improvements taken: {k}", per_seat=True) for k in IMP_NAMES) \
  + tuple(Column(f"dock{d + 1}", f"rounds with the marker at dock {d + 1}", per_seat=True) for d in range(NDOCK))

_O = column_offsets(COLUMNS)
O_TURNS = _O["turns"]
O_STALLED = _O["stalled"]
O_RESHUFFLES = _O["reshuffles"]
O_STARVED = _O["starved_draws"]
O_WINNER = _O["winner"]
O_SHARED = _O["shared_win"]
O_TIED = _O["tied"]
O_MARGIN = _O["margin"]
O_EMPTIED = _O["emptied"]
O_RANK = _O["rank"]
O_MONEY = _O["money"]
O_START_POS = _O["start_pos"]
O_M_VALUE = _O["m_value"]
O_SPENT = _O["spent"]
O_VISITED = _O["visited"]
O_FLIGHTS = _O["flights"]
O_IMP = _O[f"imp_{IMP_NAMES[0]}"]
O_DOCK = _O["dock1"]
"""Consecutive per-seat columns: money sources from O_M_VALUE (8 columns, SE_M_VALUE order),
flights / short_flights / burnt / unflown from O_FLIGHTS, imp_* from O_IMP, dock* from O_DOCK."""
assert all(_O[f"imp_{k}"] == (O_IMP[0], O_IMP[1] + i) for i, k in enumerate(IMP_NAMES))
assert all(_O[f"dock{d + 1}"] == (O_DOCK[0], O_DOCK[1] + d) for d in range(NDOCK))
assert _O["m_visited"] == (O_M_VALUE[0], O_M_VALUE[1] + SE_M_VISITED - SE_M_VALUE)
assert _O["unflown"] == (O_FLIGHTS[0], O_FLIGHTS[1] + 3)
