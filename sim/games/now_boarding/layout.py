"""Flat layouts: the compiled spec (int64[SPEC_SIZE]) and the game state (int32[STATE_SIZE]).

Module-level ints are compile-time constants for numba. Every offset below names a slot or
the start of a fixed-size block; sizes are given in the comment.
"""

from __future__ import annotations

NA = 9  # airports (AIRPORTS order in data.py); SEA has no route on the 2-3 side
MAXR = 18  # routes on the largest board side
MAXP = 5  # planes
NCARD = 72  # regular passenger cards (one per ordered airport pair)
NFARE = 10  # money counted per fare value 0..9
NVIP = 9  # VIP cards
NRT = 20  # rounds tracked in the upgrade timeline (last slot = round >= NRT)
MAXTOK = 6  # weather tokens per stage
INF = 10000

# ---- spec (int64) ----
K_NP = 0  # players = planes
K_NR = 1  # routes on the board side in use
K_ANGER_LIMIT = 2
K_COMPLAINT_LIMIT = 3
K_LEFTOVER = 4  # undelivered passengers per end complaint
K_RESET = 5  # 0 anger reset at pickup (RB), 1 at set-down elsewhere (BGA)
K_POOLED = 6
K_START_SEATS = 7
K_START_SPEED = 8
K_MAX_SEATS = 9
K_MAX_SPEED = 10
K_ROUTE_PRICE = 11
K_TSEAT_PRICE = 12
K_TSPEED_PRICE = 13
K_SUPPLY = 14  # 1 = tile supply limits on
K_BUDGET = 15  # actions per plane per flight phase, 0 = unlimited
K_VIP = 16
K_VIP_COUNT = 17
K_FREE_UPG = 18  # 0 policy, 1 seat, 2 speed
K_FREE_ROUTE = 19  # 1 = each plane takes a free route colour (2 players)
K_WTOK = 20  # weather tokens per stage
K_TURN_CAP = 21
K_SIDE45 = 22  # 1 = 4-5 player board side
K_PILE = 30  # [3] cards per stage pile
K_DRAW = 33  # [3] cards drawn per round per stage
K_SEATP = 40  # [16] price of reaching k seats at index k
K_SPEEDP = 56  # [16] price of reaching speed k at index k
K_PHOME = 72  # [5] starting airport of plane p
K_PCOL = 77  # [5] colour id (1..5) of plane p
K_RA = 82  # [18] route endpoint a
K_RB = 100  # [18] route endpoint b
K_RSP = 118  # [18] non-airport spaces
K_RCOL = 136  # [18] colour (0 white)
K_BETWEEN = 154  # [81] route id between airports a*9+b, -1 none
K_CORIG = 235  # [72]
K_CDEST = 307  # [72]
K_CFARE = 379  # [72]
K_CIN = 451  # [72] 1 = card in the game (not removed by player count)
K_RBEST = 523  # [64] best colour to add to route mask m (-1 none useful)
K_RGAIN = 587  # [64] its gain (sum of all-pairs distance saved)
K_AIRIN = 651  # [9] airport on the board side
K_VKIND = 660  # [9] VIP card kinds
K_VSTAGES = 669  # [9] allowed stage bits
SPEC_SIZE = 680

# ---- state (int32) ----
S_ROUND = 0  # rounds started (1-based round number during play)
S_STAGE = 1  # 0 morning, 1 afternoon, 2 evening, 3 final round
S_OVER = 2  # 1 when the game has ended
S_COMPL = 3  # cards in the complaint pile
S_C_ANGER = 4
S_C_LEFT = 5
S_C_VIP = 6
S_LOSS_STAGE = 7  # -1 = no loss
S_LOSS_ROUND = 8
S_DELIV = 9
S_FARES = 10
S_SPENT = 11
S_WASTED = 12
S_TSEAT = 13  # owner plane of the temporary seat token, -1 supply
S_TSPEED = 14
S_NACTIVE = 15  # cards waiting or aboard (ACTIVE list length)
S_WIN = 16
S_STALLED = 17
S_VIOL = 18  # first invariant violation (check mode)
S_NEV = 19  # events recorded
S_LEFT = 20  # passengers left over at the end
S_PILE_POS = 21  # [3] next card index in PILE
S_PILE_END = 24  # [3]
S_SUP_SEAT = 27  # seat tiles left in supply (supply_limits)
S_SUP_SPEED = 28
S_LOST_EARLY = 29  # 1 = 3 complaints during play (before the end count)
S_PASSES = 30
S_RSTAGE = 31  # stage of the current round's flight phase
S_SUP_ROUTE = 32  # [6] route tiles left per colour
S_NSCAL = 40

C_PLACE = 40  # [72] card place (PL_*)
C_WHERE = C_PLACE + NCARD  # airport (WAIT) or plane (PLANE/MONEY)
C_ANGER = C_WHERE + NCARD
C_VIPK = C_ANGER + NCARD  # VIP kind attached (0 none)
C_PICK = C_VIPK + NCARD  # airport of the card's latest pickup (-1)
ACTIVE = C_PICK + NCARD  # [72] ids of the cards waiting or aboard
PILE = ACTIVE + NCARD  # [72] shuffled order; stage s uses PILE[start_s:end_s]

PB = 32  # plane block size
PLANES = PILE + NCARD
P_SEATS = 0
P_SPEED = 1
P_MASK = 2  # route colours held: bit 0 white (always), bit c colour c
P_AIR = 3  # airport, or -1 when on a route
P_ROUTE = 4
P_OFF = 5  # offset from the route's airport a, in move points (current weather)
P_LOAD = 6  # seats used
P_SPLEFT = 7  # move points left this flight phase
P_ACTLEFT = 8  # actions left this flight phase (action budget)
P_TCARD = 9  # card this plane is heading for (-1)
P_TAIR = 10  # random policy: target airport (-1)
P_FARES = 11
P_DELIV = 12
P_NERV = 13  # Nervous VIPs aboard
P_CELEB = 14  # Celebrity aboard
P_NCARR = 15  # cards aboard
P_MONEY = 16  # [10] money cards by fare value
P_NUPG = 26  # upgrades bought (all kinds)

W_TYPE = PLANES + PB * MAXP  # [18] 0 none, 1 storm, 2 tailwind
W_SPACE = W_TYPE + MAXR  # [18] space 1..k carrying the token
R_LEN = W_SPACE + MAXR  # [18] move points from a to b under current weather
WP_ROUTE = R_LEN + MAXR  # [3*6] weather plan: route of token j in stage s (-1 none)
WP_SPACE = WP_ROUTE + 3 * MAXTOK
V_KIND = WP_SPACE + 3 * MAXTOK  # [9] VIP card kind (shuffled)
V_STAGE = V_KIND + NVIP  # [9] stage the VIP belongs to (-1 not in play)
V_STATE = V_STAGE + NVIP  # [9] 0 out, 1 pending, 2 attached, 3 refused (complaint)
ST_UPG = V_STATE + NVIP  # [5] upgrades by kind
ST_UPGR = ST_UPG + 5  # [NRT] upgrades bought in round r (index r-1)
ST_CAIR = ST_UPGR + NRT  # [9] anger complaints by origin airport
ST_RPS = ST_CAIR + NA  # [4] rounds played per stage
ST_UPGKS = ST_RPS + 4  # [3*3] permanent upgrades bought: kind (seat, speed, route) x stage of the round
DIST = ST_UPGKS + 9  # [5*2*81] plane p, mode m (0 all, 1 no weather routes): D[u*9+v]
NEXT = DIST + MAXP * 2 * NA * NA  # next airport on the shortest path
SCR = NEXT + MAXP * 2 * NA * NA  # scratch space (no allocation in the hot loop); not game state
SCR_BABY = SCR  # [9] anger phase: a Crying Baby waits here
SCR_BUY = SCR + 16  # [3*24] buy phase basket: kinds, colours, prices
SCR_REACH = SCR + 128  # [NFARE * (hi+1)] payment subset-sum table
SCR_REACH_SIZE = 1920
STATE_SIZE = SCR + 128 + SCR_REACH_SIZE

# card places
PL_BOX, PL_PILE, PL_WAIT, PL_PLANE, PL_MONEY, PL_DISCARD, PL_COMPLAINT, PL_LEFTOVER = range(8)
PLACE_NAMES = ["box", "pile", "waiting", "aboard", "money", "discard", "complaint", "left over"]

# upgrade kinds
U_SEAT, U_SPEED, U_ROUTE, U_TSEAT, U_TSPEED = range(5)

# events: int32 rows of EV_W fields [code, a, b, c, d, e]
EV_W = 6
EV_ROUND, EV_MOVE, EV_PICK, EV_DROP, EV_DELIVER, EV_ANGER, EV_COMPLAINT, EV_DRAW, EV_STAGE, EV_WEATHER, \
    EV_BUY, EV_PAY, EV_VIP, EV_END, EV_TEMP, EV_FREE, EV_FINAL, EV_ORDER, EV_LEFT = range(19)

# complaint causes
CAUSE_ANGER, CAUSE_LEFT, CAUSE_VIP = range(3)

# invariant violation codes (check_playout)
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
