"""Clear for Takeoff kernel layout: every constant the kernel, the policies, the trace and
the scenario API share. Pure Python (no numba); offsets are derived with
:class:`sim.games.base.Layout` (offset + size), indices with :func:`index_constants`.

Spec (``spec.compile_spec``): ``(p, deck_cards, fleet)``; ``p`` int64[NP] parameters::

    P_S P_K P_NST P_NAC P_Q P_HAND P_EXMAX P_NCARDS P_CAP    seats, fleet width, stands, A-C
                                                             stands, D places, hand, exchange
                                                             max, cards, turn cap
    P_PLAYOUT P_DIRECT P_FINHAND P_DLYOWN P_SNOWANY          rule options (0/1)
    P_JOINHELD P_RESHUF_EMPTY P_FAIL_LARGEST
    P_NSLOT P_VIP1 P_VIP2 P_D0 P_TO0                         slot ids (below)
    P_OFF_HAND .. P_OFF_WT                                   state block offsets (below)
    P_MOVE1 +0..2, P_AI1 +0..2                               costs by size (small, medium, wide)
    P_FORGET_DRAW P_FORGET_TOFF                              forgetting (D13), x FORGET_SCALE

State: one int32 array per game; the header has fixed offsets, the blocks after it depend
on the config, so ``spec.compile_spec`` writes their offsets into ``p`` (each the previous
offset + its size)::

    offset          size        block
    0               NH          header H_* (turn, current seat, weather, counters ...)
    p[P_OFF_HAND]   S x NCT     hand card counts
    p[P_OFF_DECK]   NCARDS      card types; draw pile deck[0:deck_n], top = deck[deck_n - 1]
    p[P_OFF_DISC]   NCARDS      card types; discard pile disc[0:disc_n]
    p[P_OFF_POS]    S x K       aircraft position codes (POS_NONE, POS_HANGAR, POS_AIRBORNE,
                                or a slot id)
    p[P_OFF_START]  S x K       positions at the start of the owner's turn
    p[P_OFF_DEICED] S x K       1 when anti-iced for the next takeoff attempt
    p[P_OFF_OCC]    NSLOT       slot -> aircraft gid (seat * K + k), -1 when empty
    p[P_OFF_RANK]   S           finishing order (1 = first), 0 while on the airfield
    p[P_OFF_STATS]  S x NSTAT   per-seat counters ST_*
    p[P_OFF_WT]     NWEATHER    turns begun under each weather
    (state size = p[P_OFF_WT] + NWEATHER)

Slots (ids from 0): stand i has its A slot ``2*i`` and its second slot ``2*i+1`` (B on an
A-B stand, C on an A-C stand; A-B stands first); then VIP1, VIP2, the D sequence of runway
r (0 = 31L, 1 = 31R) as Q slots from the front, and the two takeoff positions.

Actions. The kernel's plays are rows of ACT_W int32 ``(kind, aircraft gid, arg, LC used)``:
K_PLACE (arg = stand), K_ADVANCE (arg = slot), K_TO_D (arg = runway), K_VIP, K_WEATHER
(gid -1, arg = card type), K_FLR / K_DLY (gid = victim), K_AI. The scenario API
(``state.GameState``) uses the same tuples, plus ``(K_EXCHANGE, c1, .., cm)`` (discard the
card types c1 <= .. <= cm face up, 1 <= m <= exchange max) and ``(K_PASS,)`` (legal only
with an empty hand and no play).

Results: ``COLUMNS`` (one row per game), read in the kernel at ``engine.col_at(*O_X, S, s)``.
"""

from __future__ import annotations

from sim.games.base import Column, Layout, PolicyDef, column_offsets, index_constants
from sim.games.clear_for_takeoff.data import (
    DECK,
    HEURISTIC_WEIGHT_DOCS,
    HEURISTIC_WEIGHTS,
    ROLLOUT_WEIGHT_DOCS,
    ROLLOUT_WEIGHTS,
    WEATHER_CARDS,
)

# ---- card types (RB "Cards description"), in data.DECK order ----------------------------------
CARD_NAMES: tuple[str, ...] = tuple(DECK)
(CA, CB, CC, CD, LC, VIP, AI, FLR, DLY, SC, FG, C31L, C31R, SN, XW, ICE) = index_constants(CARD_NAMES)
NCT = len(CARD_NAMES)
NWEATHER = len(WEATHER_CARDS)
assert CARD_NAMES[SC:] == WEATHER_CARDS
WEATHER_KEYS: tuple[str, ...] = tuple(w.lower() for w in WEATHER_CARDS)
"""Weather names in result-column names (``weather_turns_<key>``)."""

# ---- aircraft sizes (fleet codes; 0 = no aircraft) ---------------------------------------------
SIZE_NAMES = ("-", "small", "medium", "wide-body")
_, SMALL, MEDIUM, WIDE = index_constants(SIZE_NAMES)

# ---- position codes (slot ids are >= 0) --------------------------------------------------------
POS_NONE = -3      # no aircraft in this fleet index
POS_HANGAR = -2
POS_AIRBORNE = -1

# ---- spec parameter vector p (int64) -----------------------------------------------------------
_p = Layout()
P_S = _p.slot()
P_K = _p.slot()
P_NST = _p.slot()
P_NAC = _p.slot()
P_Q = _p.slot()
P_HAND = _p.slot()
P_EXMAX = _p.slot()
P_NCARDS = _p.slot()
P_CAP = _p.slot()
P_PLAYOUT = _p.slot()
P_DIRECT = _p.slot()
P_FINHAND = _p.slot()
P_DLYOWN = _p.slot()
P_SNOWANY = _p.slot()
P_JOINHELD = _p.slot()
P_RESHUF_EMPTY = _p.slot()
P_FAIL_LARGEST = _p.slot()
P_NSLOT = _p.slot()
P_VIP1 = _p.slot()
P_VIP2 = _p.slot()
P_D0 = _p.slot()
P_TO0 = _p.slot()
P_OFF_HAND = _p.slot()
P_OFF_DECK = _p.slot()
P_OFF_DISC = _p.slot()
P_OFF_POS = _p.slot()
P_OFF_START = _p.slot()
P_OFF_DEICED = _p.slot()
P_OFF_OCC = _p.slot()
P_OFF_RANK = _p.slot()
P_OFF_STATS = _p.slot()
P_OFF_WT = _p.slot()
P_MOVE1 = _p.block(3)   # small, medium, wide-body
P_AI1 = _p.block(3)
P_FORGET_DRAW = _p.slot()   # RULES.md D13: chance per turn a player forgets the face-down draw, per FORGET_SCALE
P_FORGET_TOFF = _p.slot()   # RULES.md D13: chance an aircraft cleared for take-off is forgotten, per FORGET_SCALE
NP = _p.size
FORGET_SCALE = 1_000_000_000
"""``p[P_FORGET_DRAW]`` / ``p[P_FORGET_TOFF]`` hold a probability times this (the spec is int64;
a resolution of 1e-9). 0: the rule is off and no random number is drawn for it."""

# ---- state header -------------------------------------------------------------------------------
_h = Layout()
H_TURN = _h.slot()
H_CUR = _h.slot()
H_WEATHER = _h.slot()       # card type of the weather in force (SC at the start)
H_WCARD = _h.slot()         # 1 when a Weather card lies face up (0: the printed clear sky)
H_DECK_N = _h.slot()
H_DISC_N = _h.slot()
H_RESHUF = _h.slot()
H_STARVED = _h.slot()
H_NFIN = _h.slot()
H_DONE = _h.slot()
H_WINNER = _h.slot()
H_STALL = _h.slot()         # 1 when the turn cap stopped the game (row: stalled or cut_off)
H_WINNER_TURN = _h.slot()
H_ROUND_SEAT = _h.slot()
NH = _h.size

# ---- per-seat stats -----------------------------------------------------------------------------
STAT_NAMES = ("flr", "dly", "blocked", "exch", "plays", "flr_played", "dly_played", "takeoffs",
              "flr_drawn", "dly_drawn", "forgot_draw", "forgot_takeoff")
(ST_FLR, ST_DLY, ST_BLOCKED, ST_EXCH, ST_PLAYS, ST_FLR_PLAYED, ST_DLY_PLAYED,
 ST_TAKEOFFS, ST_FLR_DRAWN, ST_DLY_DRAWN, ST_FORGOT_DRAW, ST_FORGOT_TOFF) = index_constants(STAT_NAMES)
"""ST_FLR / ST_DLY: hits on this seat's aircraft by a card an opponent played (or, with
``dly_own_aircraft``, the seat itself); ST_FLR_DRAWN / ST_DLY_DRAWN: hits by a card the seat
drew face up in its own exchange; ST_FORGOT_DRAW / ST_FORGOT_TOFF: the forgetting of RULES.md
D13 (face-down draws forgotten, aircraft cleared for take-off forgotten)."""
NSTAT = len(STAT_NAMES)

# ---- action kinds ------------------------------------------------------------------------------
KIND_NAMES = ("place", "advance", "to_d", "vip", "weather", "flr", "dly", "ai", "exchange", "pass")
(K_PLACE, K_ADVANCE, K_TO_D, K_VIP, K_WEATHER, K_FLR, K_DLY, K_AI,
 K_EXCHANGE, K_PASS) = index_constants(KIND_NAMES)
ACT_W = 4
"""Columns of a kernel play row (kind, gid, arg, lc); K_EXCHANGE / K_PASS are GameState only."""
CH_EXCHANGE = -1
CH_PASS = -2
"""``policies.select`` returns an index into the legal plays, or one of these."""
RUNWAY_POLICY = -1
"""``play.end_turn``'s ``vip_runway`` argument: the seat's policy chooses (as in a playout)."""

# ---- trace events (engine.emit rows: turn, seat, code, a, b, c, d, e) ---------------------------
EVENT_NAMES = ("turn", "exchange", "draw_keep", "weather", "hit", "play", "deice", "takeoff", "blocked",
               "auto", "reshuffle", "starved", "finish", "pass", "stall", "draw_down", "discard", "forgot_draw",
               "forgot_takeoff")
(E_TURN, E_EXCHANGE, E_DRAW_KEEP, E_WEATHER, E_HIT, E_PLAY, E_DEICE, E_TAKEOFF, E_BLOCKED,
 E_AUTO, E_RESHUFFLE, E_STARVED, E_FINISH, E_PASS, E_STALL, E_DRAW_DOWN, E_DISCARD, E_FORGOT_DRAW,
 E_FORGOT_TAKEOFF) = index_constants(EVENT_NAMES)

# ---- invariant codes (rules.check_invariants; 0 = all hold) -------------------------------------
INVARIANT_NAMES = (
    "ok",
    "card count: a card is not in exactly one place (hands, deck, discard, weather)",
    "aircraft / slot mismatch",
    "slot occupied twice",
    "negative hand count",
    "gap in a D sequence that is not held",
    "(code 6 is not used)",
    "hand over the hand size",
    "a ranked airline still has an aircraft on the airfield",
)
(_, V_CARDS, V_AIRCRAFT_SLOT, V_SLOT_TWICE, V_NEG_HAND, V_D_GAP, _, V_HAND_SIZE,
 V_RANKED_ON_FIELD) = index_constants(INVARIANT_NAMES)

# ---- policies -----------------------------------------------------------------------------------
POLICY_NAMES = ("random", "greedy", "heuristic", "rollout")
POL_RANDOM, POL_GREEDY, POL_HEURISTIC, POL_ROLLOUT = index_constants(POLICY_NAMES)
WEIGHT_NAMES: tuple[str, ...] = tuple(HEURISTIC_WEIGHTS)
(W_PROGRESS, W_LEAD, W_WILD_COST, W_ATTACK, W_LEADER_FOCUS, W_WEATHER, W_VIP,
 W_EXCHANGE) = index_constants(WEIGHT_NAMES)
N_WEIGHTS = len(WEIGHT_NAMES)

POLICIES = (
    PolicyDef("random", POL_RANDOM, "uniform over legal plays and one exchange option (random 1-4 cards)"),
    PolicyDef("greedy", POL_GREEDY, "rule of thumb: unblock own takeoff, advance the most prepared aircraft, "
              "else exchange unusable cards; never attacks", scored=True),
    PolicyDef("heuristic", POL_HEURISTIC, "weighted scoring of every play (weights below), attacks and plays "
              "weather", dict(HEURISTIC_WEIGHTS), weight_docs=HEURISTIC_WEIGHT_DOCS, scored=True),
    PolicyDef("rollout", POL_ROLLOUT, "flat Monte-Carlo look-ahead: each candidate (the best-scored plays and the "
              "base policy's exchange) is played out `rollouts` times by the base policy in every seat, after a "
              "re-deal of the unseen cards (deck order, opponents' hands); plays the best mean of win + a small "
              "progress term", dict(ROLLOUT_WEIGHTS), base="heuristic", weight_docs=ROLLOUT_WEIGHT_DOCS),
)
assert tuple(pd.name for pd in POLICIES) == POLICY_NAMES

# ---- result columns -----------------------------------------------------------------------------
COLUMNS = (
    Column("turns", "player turns played"),
    Column("stalled", "1 when the turn cap ended the game with no winner (no airline had every aircraft "
           "airborne); games with a winner are never stalled, so seat wins and stalls partition the games"),
    Column("cut_off", "1 when the turn cap ended the game after the winner finished but before the finishing "
           "order was complete (play_out_ranks); such a game counts as won, not stalled"),
    Column("reshuffles", "times the discard pile was shuffled into a new deck"),
    Column("starved_draws", "draws cut short because deck and discard pile were both empty"),
    Column("winner", "seat of the first airline with every aircraft airborne, -1 if none"),
    Column("winner_turn", "player turn on which the winner finished, -1 if none", none=-1),
    Column("rank", "finishing position (1 = first), 0 = still on the airfield at a stall", per_seat=True),
    Column("flr_played_on", "aircraft of this seat sent to the hangar by an FLR an opponent played", per_seat=True),
    Column("flr_drawn", "aircraft of this seat sent to the hangar by an FLR it drew face up in an exchange",
           per_seat=True),
    Column("dly_played_on", "aircraft of this seat sent to the hangar by a played DLY (an opponent's; its own "
           "only with dly_own_aircraft)", per_seat=True),
    Column("dly_drawn", "aircraft of this seat sent to the hangar by a DLY it drew face up in an exchange",
           per_seat=True),
    Column("flr_played", "FLR cards played on opponents", per_seat=True),
    Column("dly_played", "DLY cards played on opponents", per_seat=True),
    Column("blocked", "takeoff attempts stopped by the weather", per_seat=True),
    Column("takeoffs", "aircraft that took off", per_seat=True),
    Column("exchanges", "turns spent exchanging cards", per_seat=True),
) + tuple(Column(f"weather_turns_{w}", f"turns begun under {w.upper()} weather") for w in WEATHER_KEYS) + (
    Column("forgot_draw", "turns the seat forgot its face-down draw back to the hand size (RULES.md D13, "
           "option forget_draw; 0 when off)", per_seat=True),
    Column("forgot_takeoff", "aircraft of the seat cleared for take-off whose player forgot it: sent to the back "
           "of the D sequence (RULES.md D13, option forget_takeoff; 0 when off)", per_seat=True),
)

_O = column_offsets(COLUMNS)
O_TURNS = _O["turns"]
O_STALLED = _O["stalled"]
O_CUT_OFF = _O["cut_off"]
O_RESHUFFLES = _O["reshuffles"]
O_STARVED = _O["starved_draws"]
O_WINNER = _O["winner"]
O_WINNER_TURN = _O["winner_turn"]
O_RANK = _O["rank"]
O_FLR_PLAYED_ON = _O["flr_played_on"]
O_FLR_DRAWN = _O["flr_drawn"]
O_DLY_PLAYED_ON = _O["dly_played_on"]
O_DLY_DRAWN = _O["dly_drawn"]
O_FLR_PLAYED = _O["flr_played"]
O_DLY_PLAYED = _O["dly_played"]
O_BLOCKED = _O["blocked"]
O_TAKEOFFS = _O["takeoffs"]
O_EXCHANGES = _O["exchanges"]
O_FORGOT_DRAW = _O["forgot_draw"]
O_FORGOT_TOFF = _O["forgot_takeoff"]
O_WEATHER_TURNS = _O[f"weather_turns_{WEATHER_KEYS[0]}"]
"""The first weather column; weather w is ``O_WEATHER_TURNS[0] + w`` (consecutive plain columns)."""
assert all(_O[f"weather_turns_{k}"] == (O_WEATHER_TURNS[0] + w, O_WEATHER_TURNS[1])
           for w, k in enumerate(WEATHER_KEYS))


RUNWAY_NAMES = ("31L", "31R")


def slot_name(p, slot: int) -> str:
    """Human name of a slot id or position code (``p``: the spec's parameter vector), e.g.
    ``"A of stand A-B #1"``, ``"VIP2"``, ``"D 31R place 2"``, ``"takeoff 31L"``, ``"hangar"``."""
    if slot == POS_HANGAR:
        return "hangar"
    if slot == POS_AIRBORNE:
        return "airborne"
    nst, nac = int(p[P_NST]), int(p[P_NAC])
    if slot < 2 * nst:
        st = slot // 2
        ab = st < nst - nac
        kind = "A-B" if ab else "A-C"
        num = st + 1 if ab else st - (nst - nac) + 1
        second = "B" if ab else "C"
        return f"{'A' if slot % 2 == 0 else second} of stand {kind} #{num}"
    if slot == p[P_VIP1]:
        return "VIP1"
    if slot == p[P_VIP2]:
        return "VIP2"
    if slot >= p[P_TO0]:
        return f"takeoff {RUNWAY_NAMES[slot - int(p[P_TO0])]}"
    j = slot - int(p[P_D0])
    return f"D {RUNWAY_NAMES[j // int(p[P_Q])]} place {j % int(p[P_Q]) + 1}"
