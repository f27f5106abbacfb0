"""Every kernel constant of Now Boarding: the flat spec (int64[SPEC_SIZE]) and state
(int32[STATE_SIZE]) layouts, enums, actions, events, invariant codes, policies, weights and
result columns. Pure Python: module-level ints are compile-time constants for numba.

Offsets are derived with :class:`sim.games.base.Layout` (offset + size, never typed by hand).

Index layout (``[n]`` = block of n slots; all sizes fixed, none depends on the config)::

    spec  int64   P_NP P_NR P_ANGER_LIMIT P_COMPLAINT_LIMIT P_LEFTOVER P_RESET P_POOLED
                  P_START_SEATS P_START_SPEED P_MAX_SEATS P_MAX_SPEED P_ROUTE_PRICE
                  P_TSEAT_PRICE P_TSPEED_PRICE P_SUPPLY P_BUDGET P_VIP P_VIP_COUNT P_FREE_UPG
                  P_FREE_ROUTE P_WTOK P_TURN_CAP P_SIDE45 P_GRUMPY P_DROPBAN (1 each), P_PILE[3] P_DRAW[3]
                  P_SEATP[16] P_SPEEDP[16] P_PHOME[MAXP] P_PCOL[MAXP] P_RA[MAXR] P_RB[MAXR]
                  P_RSP[MAXR] P_RCOL[MAXR] P_BETWEEN[NA*NA] P_CORIG[NCARD] P_CDEST[NCARD]
                  P_CFARE[NCARD] P_CIN[NCARD] P_RBEST[64] P_RGAIN[64] P_AIRIN[NA]
                  P_VKIND[NVIP] P_VSTAGES[NVIP]
    state int32   S_* scalars (1 each), S_PILE_POS[3] S_PILE_END[3] S_SUP_ROUTE[6];
                  cards C_PLACE C_WHERE C_ANGER C_VIPK C_PICK [NCARD each], ACTIVE[NCARD],
                  PILE[NCARD]; planes PLANES[PB*MAXP] (plane block SE_*, size PB);
                  weather WX_TYPE WX_SPACE R_LEN [MAXR each], plan WP_ROUTE WP_SPACE
                  [3*MAXTOK each]; VIPs VP_KIND VP_STAGE VP_STATE [NVIP each]; statistics
                  ST_UPG[5] ST_UPGR[NRT] ST_CAIR[NA] ST_RPS[4] ST_UPGKS[9]; distance tables
                  DIST NEXT [MAXP*2*NA*NA each]; scratch SCR_BABY[NA] SCR_BUY[72]
                  SCR_REACH[SCR_REACH_SIZE] (not game state)
    plane block   SE_SEATS SE_SPEED SE_MASK SE_AIR SE_ROUTE SE_OFF SE_LOAD SE_SPLEFT SE_ACTLEFT
                  SE_TCARD SE_TAIR SE_FARES SE_DELIV SE_NERV SE_CELEB SE_NCARR (1 each),
                  SE_MONEY[NFARE] SE_NUPG (SE_ = an offset in one seat's block: here its plane)
    event row     engine.EV_W ints [round, plane or -1, E_*, a, b, c, d, e]
    result row    COLUMNS order; O_X = (fixed, per_seat) read with engine.col_at

Actions (``GameState.legal_actions`` / ``apply``, the flight phase of every plane at once):
``(K_PICKUP, plane, card)`` board card; ``(K_DROP, plane, card)`` set the card down at the
plane's airport (delivery or hand-off); ``(K_FLY, plane, airport)`` fly one hop (up to the
next airport or as far as the move points allow) toward that airport.
"""

from __future__ import annotations

from sim.games.base import Column, Layout, PolicyDef, column_offsets, index_constants
from sim.games.now_boarding.data import (  # noqa: F401  (VIP kinds re-exported for the kernel)
    AIRPORTS,
    HEURISTIC_WEIGHT_DOCS,
    HEURISTIC_WEIGHTS,
    PLANNER_WEIGHT_DOCS,
    PLANNER_WEIGHTS,
    ROLLOUT_COMPLAINT,
    ROLLOUT_DELIVER,
    ROLLOUT_MAX_CANDIDATES,
    ROLLOUT_WEIGHT_DOCS,
    ROLLOUT_WEIGHTS,
    ROUTE_TILES_PER_COLOUR,
    SEAT_TILES,
    SPEED_TILES,
    STAGES,
    VIP_BABY,
    VIP_CELEBRITY,
    VIP_DIRECT,
    VIP_FIRST,
    VIP_FUGITIVE,
    VIP_GRUMPY,
    VIP_IMPATIENT,
    VIP_NERVOUS,
)

NA = 9  # airports (AIRPORTS order in data.py); SEA has no route on the 2-3 side
MAXR = 18  # routes on the largest board side
MAXP = 5  # planes
NCARD = 72  # regular passenger cards (one per ordered airport pair)
NFARE = 10  # money counted per fare value 0..9
NVIP = 9  # VIP cards
NRT = 20  # rounds tracked in the upgrade timeline (last slot = round >= NRT)
MAXTOK = 6  # weather tokens per stage
INF = 10000
BIG = 1 << 30  # "unlimited" action budget

# ---- spec (int64) ----
_k = Layout()
P_NP = _k.slot()  # players = planes
P_NR = _k.slot()  # routes on the board side in use
P_ANGER_LIMIT = _k.slot()
P_COMPLAINT_LIMIT = _k.slot()
P_LEFTOVER = _k.slot()  # undelivered passengers per end complaint
P_RESET = _k.slot()  # 0 anger reset at pickup (RB), 1 at set-down elsewhere (BGA)
P_POOLED = _k.slot()
P_START_SEATS = _k.slot()
P_START_SPEED = _k.slot()
P_MAX_SEATS = _k.slot()
P_MAX_SPEED = _k.slot()
P_ROUTE_PRICE = _k.slot()
P_TSEAT_PRICE = _k.slot()
P_TSPEED_PRICE = _k.slot()
P_SUPPLY = _k.slot()  # 1 = tile supply limits on
P_BUDGET = _k.slot()  # actions per plane per flight phase, 0 = unlimited
P_VIP = _k.slot()
P_VIP_COUNT = _k.slot()
P_FREE_UPG = _k.slot()  # 0 policy, 1 seat, 2 speed
P_FREE_ROUTE = _k.slot()  # 1 = each plane takes a free route colour (2 players)
P_WTOK = _k.slot()  # weather tokens per stage
P_TURN_CAP = _k.slot()
P_SIDE45 = _k.slot()  # 1 = 4-5 player board side
P_GRUMPY = _k.slot()  # anger the Grumpy VIP keeps when its anger is removed (0 or 1)
P_DROPBAN = _k.slot()  # 0 drop-off ban while the card stays aboard, 1 for the pickup's flight phase only
P_PILE = _k.block(3)  # cards per stage pile
P_DRAW = _k.block(3)  # cards drawn per round per stage
P_SEATP = _k.block(16)  # price of reaching k seats at index k
P_SPEEDP = _k.block(16)  # price of reaching speed k at index k
P_PHOME = _k.block(MAXP)  # starting airport of plane p
P_PCOL = _k.block(MAXP)  # colour id (1..5) of plane p
P_RA = _k.block(MAXR)  # route endpoint a
P_RB = _k.block(MAXR)  # route endpoint b
P_RSP = _k.block(MAXR)  # non-airport spaces
P_RCOL = _k.block(MAXR)  # colour (0 white)
P_BETWEEN = _k.block(NA * NA)  # route id between airports a*9+b, -1 none
P_CORIG = _k.block(NCARD)
P_CDEST = _k.block(NCARD)
P_CFARE = _k.block(NCARD)
P_CIN = _k.block(NCARD)  # 1 = card in the game (not removed by player count)
P_RBEST = _k.block(64)  # best colour to add to route mask m (-1 none useful)
P_RGAIN = _k.block(64)  # its gain (sum of all-pairs distance saved)
P_AIRIN = _k.block(NA)  # airport on the board side
P_VKIND = _k.block(NVIP)  # VIP card kinds
P_VSTAGES = _k.block(NVIP)  # allowed stage bits
SPEC_SIZE = _k.size

# ---- plane block (offsets inside one plane's block: SE_*, as every game's seat block) ----
_p = Layout()
SE_SEATS = _p.slot()
SE_SPEED = _p.slot()
SE_MASK = _p.slot()  # route colours held: bit 0 white (always), bit c colour c
SE_AIR = _p.slot()  # airport, or -1 when on a route
SE_ROUTE = _p.slot()
SE_OFF = _p.slot()  # offset from the route's airport a, in move points (current weather)
SE_LOAD = _p.slot()  # seats used
SE_SPLEFT = _p.slot()  # move points left this flight phase
SE_ACTLEFT = _p.slot()  # actions left this flight phase (action budget)
SE_TCARD = _p.slot()  # card this plane is heading for (-1)
SE_TAIR = _p.slot()  # random policy: target airport (-1)
SE_FARES = _p.slot()
SE_DELIV = _p.slot()
SE_NERV = _p.slot()  # Nervous VIPs aboard
SE_CELEB = _p.slot()  # Celebrity aboard
SE_NCARR = _p.slot()  # cards aboard
SE_MONEY = _p.block(NFARE)  # money cards by fare value
SE_NUPG = _p.slot()  # upgrades bought (all kinds)
PB = _p.size  # plane block size

# ---- state (int32) ----
_s = Layout()
S_ROUND = _s.slot()  # rounds started (1-based round number during play)
S_STAGE = _s.slot()  # 0 morning, 1 afternoon, 2 evening, 3 final round
S_OVER = _s.slot()  # 1 when the game has ended
S_COMPL = _s.slot()  # cards in the complaint pile
S_C_ANGER = _s.slot()
S_C_LEFT = _s.slot()
S_C_VIP = _s.slot()
S_LOSS_STAGE = _s.slot()  # -1 = no loss
S_LOSS_ROUND = _s.slot()
S_DELIV = _s.slot()
S_FARES = _s.slot()
S_SPENT = _s.slot()
S_WASTED = _s.slot()
S_TSEAT = _s.slot()  # owner plane of the temporary seat token, -1 supply
S_TSPEED = _s.slot()
S_NACTIVE = _s.slot()  # cards waiting or aboard (ACTIVE list length)
S_WIN = _s.slot()
S_STALLED = _s.slot()
S_VIOL = _s.slot()  # first invariant violation (check mode)
S_LEFT = _s.slot()  # passengers left over at the end
S_SUP_SEAT = _s.slot()  # seat tiles left in supply (supply_limits)
S_SUP_SPEED = _s.slot()
S_LOST_EARLY = _s.slot()  # 1 = 3 complaints during play (before the end count)
S_PASSES = _s.slot()
S_RSTAGE = _s.slot()  # stage of the current round's flight phase
S_PILE_POS = _s.block(3)  # next card index in PILE
S_PILE_END = _s.block(3)
S_SUP_ROUTE = _s.block(6)  # route tiles left per colour
C_PLACE = _s.block(NCARD)  # card place (PL_*)
C_WHERE = _s.block(NCARD)  # airport (WAIT) or plane (PLANE/MONEY)
C_ANGER = _s.block(NCARD)
C_VIPK = _s.block(NCARD)  # VIP kind attached (0 none)
C_PICK = _s.block(NCARD)  # airport of the card's latest pickup (-1)
C_DOWN = _s.block(NCARD)  # 1 while the card lies face down: drawn, not yet turned over (RB "Prepara la
#   próxima ronda": drawn face down; "Fase de vuelo" 2: turned over when the flight phase starts)
ACTIVE = _s.block(NCARD)  # ids of the cards waiting or aboard
PILE = _s.block(NCARD)  # draw order; stage s uses PILE[S_PILE_POS+s : S_PILE_END+s]
PLANES = _s.block(PB * MAXP)
WX_TYPE = _s.block(MAXR)  # weather on route r: 0 none, 1 storm, 2 tailwind
WX_SPACE = _s.block(MAXR)  # space 1..k carrying the token
R_LEN = _s.block(MAXR)  # move points from a to b under current weather
WP_ROUTE = _s.block(3 * MAXTOK)  # weather plan: route of token j in stage s (-1 none)
WP_SPACE = _s.block(3 * MAXTOK)
VP_KIND = _s.block(NVIP)  # VIP card kind (shuffled)
VP_STAGE = _s.block(NVIP)  # stage the VIP belongs to (-1 not in play)
VP_STATE = _s.block(NVIP)  # VS_*
ST_UPG = _s.block(5)  # upgrades by kind
ST_UPGR = _s.block(NRT)  # upgrades bought in round r (index r-1)
ST_CAIR = _s.block(NA)  # anger complaints by origin airport
ST_RPS = _s.block(4)  # rounds played per stage
ST_UPGKS = _s.block(9)  # permanent upgrades bought: kind (seat, speed, route) x stage of the round
DIST = _s.block(MAXP * 2 * NA * NA)  # plane p, mode m (0 all, 1 no weather routes): D[u*9+v]
NEXT = _s.block(MAXP * 2 * NA * NA)  # next airport on the shortest path
SCR_BABY = _s.block(NA)  # scratch (no allocation in the hot loop): a Crying Baby waits here
SCR_BUY = _s.block(72)  # buy phase basket: kinds [0:24], colours [24:48], prices [48:72]
SCR_REACH_SIZE = 1920
SCR_REACH = _s.block(SCR_REACH_SIZE)  # payment subset-sum table [NFARE * (hi+1)]
PLN_MAXS = 4  # planner: stops per plane and round
PLN_STOP = _s.block(MAXP * PLN_MAXS)  # planner scratch: plane p's stops this round (airports)
PLN_N = _s.block(MAXP)  # planner: stops planned
PLN_I = _s.block(MAXP)  # planner: next stop index
PLN_HEAD = _s.block(MAXP)  # planner: airport to fly toward after the last stop (-1 stay)
C_ASSIGN = _s.block(NCARD)  # planner: plane + 1 that is to board the waiting card this round (0 none)
C_DROPAT = _s.block(NCARD)  # planner: airport + 1 where the card aboard is to be set down (0 none), + 64 ×
#   (plane + 1) of the plane planned to board it there in the same round (a relay, planner.RELAY_AT)
STATE_SIZE = _s.size

# ---- enums ----
# VIP kinds: data.VIP_* (imported above; 0 = none)
# card places
PL_BOX, PL_PILE, PL_WAIT, PL_PLANE, PL_MONEY, PL_DISCARD, PL_COMPLAINT, PL_LEFTOVER = range(8)
PLACE_NAMES = ["box", "pile", "waiting", "aboard", "money", "discard", "complaint", "left over"]
# upgrade kinds (data.UPGRADE_KINDS order)
U_SEAT, U_SPEED, U_ROUTE, U_TSEAT, U_TSPEED = range(5)
# complaint causes
CAUSE_ANGER, CAUSE_LEFT, CAUSE_VIP = range(3)
# VIP card states
VS_OUT, VS_PENDING, VS_ATTACHED, VS_REFUSED = range(4)
# parts of the game (rules.part_of_game): day (morning, afternoon), evening before its last draw,
# the round after the last draw, the final round
PART_DAY, PART_EVENING, PART_LAST, PART_FINAL = range(4)
# upgrade strategies (heuristic weight "strategy")
STRAT_BALANCED, STRAT_SEATS, STRAT_SPEED, STRAT_ROUTES = range(4)

# ---- actions (GameState): action kinds K_*, named by KIND_NAMES ----
KIND_NAMES = ("pickup", "drop", "fly")
K_PICKUP, K_DROP, K_FLY = index_constants(KIND_NAMES)

# ---- events: code of an engine event row [round, plane or -1, code, a, b, c, d, e] ----
EVENTS = ("round", "move", "pick", "drop", "deliver", "anger", "complaint", "draw", "stage",
          "weather", "buy", "pay", "vip", "end", "temp", "free", "final", "order", "left", "stall")
(E_ROUND, E_MOVE, E_PICK, E_DROP, E_DELIVER, E_ANGER, E_COMPLAINT, E_DRAW, E_STAGE, E_WEATHER,
 E_BUY, E_PAY, E_VIP, E_END, E_TEMP, E_FREE, E_FINAL, E_ORDER, E_LEFT, E_STALL) = index_constants(EVENTS)

# ---- invariant violation codes (check_playout) ----
V_OK = 0
V_CARD_PLACE = 1  # a card is in no valid place / zone counts disagree
V_ACTIVE = 2  # ACTIVE list disagrees with the card places
V_CAPACITY = 3  # seats over capacity
V_MONEY = 4  # money counts disagree with the money cards, or negative
V_POSITION = 5  # a plane is on an illegal spot
V_ANGER = 6  # anger out of range
V_COMPLAINTS = 7  # complaint counters disagree with the complaint pile
V_TOKENS = 8  # a temporary token owned by two or more / bad owner
V_UPGRADES = 9  # seats/speed over the cap

# ---- policies and weights ----
POL_RANDOM, POL_GREEDY, POL_HEURISTIC, POL_PLANNER, POL_ROLLOUT = range(5)
W_ANGER, W_FARE, W_DIST, W_TRIP, W_HANDOFF, W_STRAT, W_SEATCAP, W_SPEEDCAP = index_constants(
    list(HEURISTIC_WEIGHTS))
(PW_CRIT, PW_ANGER, PW_PICK, PW_DELIVER, PW_FARE, PW_CARRY, PW_COVER, PW_SPEED1, PW_SEAT1, PW_SPEED2,
 PW_SEAT2, PW_FREE_SPEED, PW_TEMP, PW_RESET, PW_HORIZON, PW_PROG, PW_OFFLOAD, PW_SEAT3,
 PW_ENDBUY, PW_COVER2, PW_COVERCAP, PW_ORDERS, PW_ENDGAME, PW_RELAY, PW_HLATE, PW_HFINAL, PW_OEND,
 PW_ENDSEARCH) = index_constants(
    list(PLANNER_WEIGHTS))
N_WEIGHTS = max(len(HEURISTIC_WEIGHTS), len(PLANNER_WEIGHTS))
# rollout (look-ahead team, play.py): its budget sits in the trailing weight slots
# (engine.W_LA_ROLLOUTS, W_LA_DEPTH); candidates per purchase decision and the score terms
RO_MAXC = ROLLOUT_MAX_CANDIDATES
RO_DELIVER = ROLLOUT_DELIVER
RO_COMPLAINT = ROLLOUT_COMPLAINT

POLICIES = (
    PolicyDef("random", POL_RANDOM, "random legal actions: random boarding (1/2), hand-offs (1/8), random "
              "destinations, random upgrades"),
    PolicyDef("greedy", POL_GREEDY, "dispatcher: deliver the nearest destination aboard; empty planes fetch the "
              "most urgent passenger nobody else is fetching (10·anger + 2·fare − distance); board the angriest "
              "first; balanced upgrades (cheapest next)", scored=True),
    PolicyDef("heuristic", POL_HEURISTIC, "weighted dispatcher: scores deliveries and pickups with the weights, "
              "detour-aware boarding, hand-offs at shared airports, configurable upgrade strategy and caps",
              dict(HEURISTIC_WEIGHTS), weight_docs=HEURISTIC_WEIGHT_DOCS, scored=True),
    PolicyDef("planner", POL_PLANNER, "team planner, the shipped configs' team: each round it plans every "
              "plane's itinerary within its move points as one team decision (legs valued by how much closer "
              "they bring their passengers, rescues at the last anger cube, pickups that reset anger, relays "
              "between planes inside the round, coverage of next round's angriest passengers), tries several "
              "plane orders and flies the best team plan; buys speed, then routes, spends everything after the "
              "last draw; sees only the open board (rules version 7; data.PLANNER_V6 .. PLANNER_V3_WEIGHTS are "
              "the older planners). endsearch > 0 (off by default, about 2.6x the time): purchases after the "
              "last draw chosen by simulating the rest of the game",
              dict(PLANNER_WEIGHTS), weight_docs=PLANNER_WEIGHT_DOCS),
    PolicyDef("rollout", POL_ROLLOUT, "flat Monte-Carlo look-ahead team: flies as its base policy; each plane's "
              "maintenance purchase is chosen among up to 8 affordable baskets (the base's own first) by "
              "simulating `depth` rounds (0 = the rest of the game; default 2) with the base policy `rollouts` times "
              "per candidate (common random numbers, pile order and future weather re-dealt), score team win + "
              "small delivery/complaint terms",
              dict(ROLLOUT_WEIGHTS), base="planner", weight_docs=ROLLOUT_WEIGHT_DOCS),
)

# ---- result columns ----
_STAGE3 = STAGES[:3]
COLUMNS = (
    Column("turns", "rounds played (final round included)"),
    Column("stalled", "1 when turn_cap stopped the game"),
    Column("reshuffles", "always 0 (no reshuffles in Now Boarding)"),
    Column("starved_draws", "always 0 (a pile never runs short: stages change instead)"),
    Column("team_win", "1 when the team ends with fewer complaints than the limit"),
    Column("complaints", "cards in the complaint pile at the end (incl. the end count)"),
    Column("complaints_anger", "passengers who left at their 4th anger cube"),
    Column("complaints_leftover", "end count: 1 per 2 undelivered passengers"),
    Column("complaints_vip", "VIPs not taken by the end of their stage"),
    Column("lost_early", "1 when 3 complaints ended the game before the end count"),
    Column("loss_stage", "-1 no loss; 0 morning, 1 afternoon, 2 evening, 3 final round/end count", none=-1),
    Column("loss_round", "round of the loss (0 = none)", none=0),
    Column("delivered", "passengers delivered to their destination"),
    Column("left_over", "passengers waiting or aboard when the game ended"),
    Column("fares", "$ earned (all planes)"),
    Column("spent", "$ paid for upgrades (overpayment included)"),
    Column("wasted", "$ overpaid and lost (no change), after free temporary tokens"),
    Column("upg_seat", "seat upgrades bought"),
    Column("upg_speed", "speed upgrades bought"),
    Column("upg_route", "route upgrades bought"),
    Column("upg_temp_seat", "temporary seat tokens bought"),
    Column("upg_temp_speed", "temporary speed tokens bought"),
    Column("rounds_morning", "rounds played in the morning stage"),
    Column("rounds_afternoon", "rounds in the afternoon"),
    Column("rounds_evening", "rounds in the evening"),
    Column("rounds_final", "final round played (0/1)"),
    *(Column(f"complaints_{a}", f"anger complaints by passengers from {a}") for a in AIRPORTS),
    *(Column(f"upgrades_r{r}", f"upgrades bought in the maintenance of round {r}" + (" or later" if r == NRT else ""))
      for r in range(1, NRT + 1)),
    Column("vips_taken", "VIP cards attached to passengers"),
    *(Column(f"upg_{k}_{s}", f"{k} upgrades bought in maintenances of {s} rounds")
      for k in ("seat", "speed", "route") for s in _STAGE3),
    Column("plane_fares", "$ earned by this player's plane", per_seat=True),
    Column("plane_delivered", "passengers delivered by this player's plane", per_seat=True),
)
_O = column_offsets(COLUMNS)


def _run_of(first: str, n: int) -> tuple[int, int]:
    """Offset of a run of ``n`` consecutive plain columns starting at ``first``."""
    off = _O[first]
    names = [c.name for c in COLUMNS]
    i = names.index(first)
    assert all(not c.per_seat for c in COLUMNS[i:i + n]) and _O[names[i + n - 1]] == (off[0] + n - 1, off[1])
    return off


O_TURNS = _O["turns"]
O_STALLED = _O["stalled"]
O_RESH = _O["reshuffles"]
O_STARVED = _O["starved_draws"]
O_WIN = _O["team_win"]
O_COMPL = _O["complaints"]
O_C_ANGER = _O["complaints_anger"]
O_C_LEFT = _O["complaints_leftover"]
O_C_VIP = _O["complaints_vip"]
O_LOST_EARLY = _O["lost_early"]
O_LOSS_STAGE = _O["loss_stage"]
O_LOSS_ROUND = _O["loss_round"]
O_DELIV = _O["delivered"]
O_LEFT = _O["left_over"]
O_FARES = _O["fares"]
O_SPENT = _O["spent"]
O_WASTED = _O["wasted"]
O_UPG = _run_of("upg_seat", 5)  # [5] by upgrade kind
O_RPS = _run_of("rounds_morning", 4)  # [4] by stage
O_CAIR = _run_of("complaints_" + AIRPORTS[0], NA)  # [NA] by origin airport
O_UPGR = _run_of("upgrades_r1", NRT)  # [NRT] by round
O_VIPS = _O["vips_taken"]
O_UPGKS = _run_of("upg_seat_morning", 9)  # [9] kind x stage
O_PFARES = _O["plane_fares"]  # per seat
O_PDELIV = _O["plane_delivered"]  # per seat
