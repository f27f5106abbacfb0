"""Flying Carpet kernel layout: every constant the kernel, the policies, the trace and the
scenario API share. Pure Python (no numba); offsets are derived with
:class:`sim.games.base.Layout` (offset + size), indices with :func:`index_constants`.

Spec (``spec.compile_spec``), a tuple ``(p, scen, pcells, pinfo, marks, card_kind, kopt,
dist, die, zone)``:

    p          int64[NP]             parameters P_* (below), including the state block offsets
    scen       int32[NCELL]          initial scenery map: 0 free, 1 + piece index where covered
    pcells     int32[NPC, MAXC, 2]   cell offsets (dx, dy) of each piece of the city
    pinfo      int32[NPC, PI_W]      kind (PK_*), cell count, anchor cell of each piece
    marks      int32[NCELL]          M_STAR | M_KEEP bits (a star; a cell that stays free)
    card_kind  int32[NC]             kind index of every wind card id
    kopt       int32[NK, 4, KO_W]    the four options of each kind (KO_VALID, KO_ORDER, KO_DY, KO_HC)
    dist       float64[NCELL]        wind-aware turns-to-finish estimate (policies only)
    die        int32[NFACE]          effect (DF_*) of each die face
    zone       int32[HEIGHT]         wind of each row

Cells: ``c = y * WIDTH + x``. State: one int32 array per game; the header H_* has fixed
offsets, the blocks after it depend on the config, so ``spec.compile_spec`` writes their
offsets into ``p`` (each the previous offset + its size)::

    offset          size          block
    0               NH            header H_* (turn, seat, phase, counters, supply ...)
    p[P_OFF_POS]    S             carpet cell of each seat (finished carpets stay on the finish)
    p[P_OFF_SKIP]   S             turns the seat must skip (block, die)
    p[P_OFF_TOK]    S             steering tokens held
    p[P_OFF_RANK]   S             finishing place (1 = first home), 0 while flying
    p[P_OFF_HAND]   S x HAND      card ids in hand, -1 = empty slot
    p[P_OFF_DECK]   NC            draw pile deck[0:deck_n], top = deck[deck_n - 1]
    p[P_OFF_DISC]   NC            discard pile disc[0:disc_n]
    p[P_OFF_SCEN]   NCELL         current scenery map (clouds move: die face "move_clouds")
    p[P_OFF_ANCH]   NPC           current anchor cell of each piece
    p[P_OFF_STATS]  S x NSTAT     per-seat counters ST_*
    (state size = p[P_OFF_STATS] + S * NSTAT)

Actions. The kernel's legal actions are rows of ACT_W int32
``(kind, a, b, c, land, end, flags, extra)``; the scenario API (``state.GameState``) uses
the first five as the action tuple ``(kind, a, b, c, land)``:

    K_CARD   a = hand slot, b = option (colour 0..3), c = token (T_*; T_NONE = no token)
    K_TOKEN  a = b = -1, c = token direction (T_UP .. T_RIGHT): a steering token alone
    K_DRIFT  a = hand slot exchanged (-1: none), b = c = -1: play no card, drift
    K_SKIP   all -1: the seat's turn is skipped (blocked, or the die said so)
    K_CLOUD  a = piece, b = new anchor cell (die "move_clouds")
    K_KEEP   all -1: leave the clouds where they are
    K_SWAP   a = seat to swap places with (die "swap")
    K_HOP    a = target cell (die "hop"; the carpet's own cell = stay)
    land     LAND_NONE, or when the end cell holds carpets: LAND_BLOCK / LAND_FORCE
    end      end cell, or END_BLOWN when the move leaves the board (back to the start)
    flags    F_FINISH | F_STAR | F_LAND | F_BLOWN | F_MOVED
    extra    the card kind (K_CARD), else -1

Results: ``COLUMNS`` (one row per game), read in the kernel at ``engine.col_at(*O_X, S, s)``.
"""

from __future__ import annotations

from sim.games.base import Column, Layout, PolicyDef, column_offsets, index_constants
from sim.games.flying_carpet.data import (
    CARD_KINDS,
    DIE_FACE_NAMES,
    HEIGHT,
    HEURISTIC_WEIGHT_DOCS,
    HEURISTIC_WEIGHTS,
    MAX_PIECE_CELLS,
    PIECE_KINDS,
    ROLLOUT_WEIGHT_DOCS,
    ROLLOUT_WEIGHTS,
    WIDTH,
)

# ---- board -------------------------------------------------------------------------------
W = WIDTH
H = HEIGHT
NCELL = W * H
MAXC = MAX_PIECE_CELLS
CARD_KIND_NAMES: tuple[str, ...] = tuple(CARD_KINDS)
NK = len(CARD_KIND_NAMES)
PK_GROUND, PK_CLOUD = index_constants(PIECE_KINDS)
M_STAR = 1
M_KEEP = 2
"""marks bits: a star space; a cell no scenery may cover (platforms and their free neighbours)."""

# ---- options of a card kind (kopt rows) ------------------------------------------------------
KO_NAMES = ("valid", "order", "dy", "hc")
KO_VALID, KO_ORDER, KO_DY, KO_HC = index_constants(KO_NAMES)
KO_W = len(KO_NAMES)
ORDER_NAMES = ("vertical first", "sideways first")
ORDER_V, ORDER_H = index_constants(ORDER_NAMES)
NOPT = 4

# ---- piece info (pinfo rows) -------------------------------------------------------------------
PI_NAMES = ("kind", "ncells", "anchor")
PI_KIND, PI_N, PI_ANCHOR = index_constants(PI_NAMES)
PI_W = len(PI_NAMES)

# ---- die effects --------------------------------------------------------------------------------
(DF_SKIP, DF_CLOUDS, DF_EXTRA, DF_TOKENS, DF_SWAP, DF_HOP, DF_NOTHING) = index_constants(DIE_FACE_NAMES)

# ---- spec parameter vector p (int64) -----------------------------------------------------------
_p = Layout()
P_S = _p.slot()
P_HAND = _p.slot()
P_NC = _p.slot()
P_NPC = _p.slot()
P_NFACE = _p.slot()
P_CAP = _p.slot()
P_TOK_EACH = _p.slot()
P_TOK_TOTAL = _p.slot()
P_DIE_TOKENS = _p.slot()
P_HOP = _p.slot()
P_DIE = _p.slot()
P_PLACINGS = _p.slot()
P_STOP_BEFORE = _p.slot()
P_NET_HEADWIND = _p.slot()
P_OFF_ILLEGAL = _p.slot()
P_WIND_AFTER = _p.slot()
P_CLOUDS_ANY = _p.slot()
P_DRIFT_STAY = _p.slot()     # D6: 1 = a drift blocked by scenery does not happen
P_CLOUDS_EACH = _p.slot()    # D11: 1 = the die's cloud face lets the player move each cloud once
P_FORCED_ARRIVES = _p.slot()  # D9: 1 = a carpet forced down onto the finish has arrived
P_SKY_ROW = _p.slot()
P_START = _p.slot()
P_FINISH = _p.slot()
P_NEAR = _p.slot()
P_MAXACT = _p.slot()
P_OFF_POS = _p.slot()
P_OFF_SKIP = _p.slot()
P_OFF_TOK = _p.slot()
P_OFF_RANK = _p.slot()
P_OFF_HAND = _p.slot()
P_OFF_DECK = _p.slot()
P_OFF_DISC = _p.slot()
P_OFF_SCEN = _p.slot()
P_OFF_ANCH = _p.slot()
P_OFF_STATS = _p.slot()
P_STATE_SIZE = _p.slot()
NP = _p.size

# ---- state header -------------------------------------------------------------------------------
_h = Layout()
H_TURN = _h.slot()          # turns begun (1 = the first turn)
H_PLAYED = _h.slot()        # turns played (the result column ``turns``)
H_ROUND = _h.slot()         # rounds begun
H_CUR = _h.slot()           # seat to move
H_PHASE = _h.slot()         # PH_*
H_EXTRA = _h.slot()         # 1: the current seat takes another turn (die "extra_turn")
H_MOVED_FROM = _h.slot()    # the mover's cell at the start of its move this turn
H_DECK_N = _h.slot()
H_DISC_N = _h.slot()
H_RESHUF = _h.slot()
H_STARVED = _h.slot()
H_SUPPLY = _h.slot()        # steering tokens in the supply
H_SPENT = _h.slot()         # steering tokens played (out of the game)
H_NFIN = _h.slot()
H_DONE = _h.slot()
H_WINNER = _h.slot()
H_WINNER_TURN = _h.slot()
H_STALL = _h.slot()
H_CLOUDS_MOVED = _h.slot()  # D11 cloud_moves = "each": bit i = the i-th piece moved this roll
NH = _h.size

PHASE_NAMES = ("move", "skip", "clouds", "swap", "hop", "end")
PH_MOVE, PH_SKIP, PH_CLOUDS, PH_SWAP, PH_HOP, PH_END = index_constants(PHASE_NAMES)

# ---- per-seat stats -----------------------------------------------------------------------------
STAT_NAMES = ("blown_off", "skipped", "blocks_given", "blocks_suffered", "forced_given", "forced_suffered",
              "stars", "tokens_used", "exchanges", "wait_turns", "wasted", "die_rolls") + tuple(
    f"die_{i + 1}" for i in range(6))
(ST_BLOWN, ST_SKIPPED, ST_BLOCK_G, ST_BLOCK_S, ST_FORCE_G, ST_FORCE_S, ST_STARS, ST_TOK_USED, ST_EXCH,
 ST_WAIT, ST_WASTED, ST_ROLLS, ST_DIE1, _, _, _, _, _) = index_constants(STAT_NAMES)
NSTAT = len(STAT_NAMES)

# ---- action kinds ------------------------------------------------------------------------------
KIND_NAMES = ("card", "token", "drift", "skip", "cloud", "keep", "swap", "hop")
(K_CARD, K_TOKEN, K_DRIFT, K_SKIP, K_CLOUD, K_KEEP, K_SWAP, K_HOP) = index_constants(KIND_NAMES)
ACT_NAMES = ("kind", "a", "b", "c", "land", "end", "flags", "extra")
A_KIND, A_A, A_B, A_C, A_LAND, A_END, A_FLAGS, A_EXTRA = index_constants(ACT_NAMES)
ACT_W = len(ACT_NAMES)
ACT_KEY = 5
"""The first ACT_KEY entries of a row are the action tuple of the scenario API."""
TOKEN_NAMES = ("none", "up", "down", "left", "right")
T_NONE, T_UP, T_DOWN, T_LEFT, T_RIGHT = index_constants(TOKEN_NAMES)
LAND_NAMES = ("none", "block", "force")
LAND_NONE, LAND_BLOCK, LAND_FORCE = index_constants(LAND_NAMES)
END_BLOWN = -1
END_ILLEGAL = -2
F_FINISH = 1
F_STAR = 2
F_LAND = 4
F_BLOWN = 8
F_MOVED = 16

# ---- trace events (engine.emit rows: turn, seat, code, a, b, c, d, e) ---------------------------
EVENT_NAMES = ("turn", "card", "token", "drift", "skip", "blown", "block", "force", "die", "cloud", "keep",
               "swap", "hop", "tokens", "extra", "finish", "reshuffle", "starved", "stall", "draw", "exchange",
               "no_cloud", "no_swap")
(E_TURN, E_CARD, E_TOKEN, E_DRIFT, E_SKIP, E_BLOWN, E_BLOCK, E_FORCE, E_DIE, E_CLOUD, E_KEEP, E_SWAP, E_HOP,
 E_TOKENS, E_EXTRA, E_FINISH, E_RESHUFFLE, E_STARVED, E_STALL, E_DRAW, E_EXCHANGE, E_NO_CLOUD,
 E_NO_SWAP) = index_constants(EVENT_NAMES)

# ---- invariant codes (rules.check_invariants; 0 = all hold) -------------------------------------
INVARIANT_NAMES = (
    "ok",
    "a carpet is off the board (one carpet per player on a cell of the board)",
    "a carpet is inside scenery",
    "a wind card is not in exactly one place (hands, draw pile, discard pile)",
    "steering tokens are not conserved (held + supply + played != total)",
    "a hand holds a wrong number of cards",
    "the scenery map does not match the pieces' anchors",
    "a finished carpet is not on the finish, or a flying one has a place",
)
(_, V_CARPET, V_IN_SCENERY, V_CARDS, V_TOKENS, V_HAND, V_SCENERY, V_RANK) = index_constants(INVARIANT_NAMES)

# ---- policies -----------------------------------------------------------------------------------
POLICY_NAMES = ("random", "greedy", "heuristic", "rollout")
POL_RANDOM, POL_GREEDY, POL_HEURISTIC, POL_ROLLOUT = index_constants(POLICY_NAMES)
WEIGHT_NAMES: tuple[str, ...] = tuple(HEURISTIC_WEIGHTS)
(W_DISTANCE, W_TOKEN_KEEP, W_BLOCK_LEADER, W_STAR, W_EDGE_RISK, W_EXCHANGE) = index_constants(WEIGHT_NAMES)
N_WEIGHTS = len(WEIGHT_NAMES)
ROLLOUT_WEIGHT_NAMES: tuple[str, ...] = tuple(ROLLOUT_WEIGHTS)
"""The rollout policy's own weights, in the trailing slots ``engine.W_LA_ROLLOUTS``,
``W_LA_DEPTH``, ``W_LA_EXTRA`` (= candidates) of its weight row."""

POLICIES = (
    PolicyDef("random", POL_RANDOM, "uniform over the legal actions (die choices: random proposals)"),
    PolicyDef("greedy", POL_GREEDY, "the move ending nearest the finish (wind-aware turn map), a token only "
              "when it saves more than 0.6 turn; blocks on landing; a drift exchanges a card; never moves clouds",
              scored=True),
    PolicyDef("heuristic", POL_HEURISTIC, "weighted score of every move (weights below): distance, tokens kept "
              "for the landing, blocking the leader, star risk, edge risk, exchanging weak cards",
              dict(HEURISTIC_WEIGHTS), weight_docs=HEURISTIC_WEIGHT_DOCS, scored=True),
    PolicyDef("rollout", POL_ROLLOUT, "flat Monte-Carlo look-ahead: each of the base policy's best `candidates` "
              "rows is played out `rollouts` times (to the end, or `depth` turns) by the base policy in every "
              "seat, after re-dealing the face-down stack and the opponents' hands; the best mean of win + "
              "0.5 x share of opponents behind wins (hooks.rollout_choice)",
              dict(ROLLOUT_WEIGHTS), base="heuristic", weight_docs=ROLLOUT_WEIGHT_DOCS),
)
assert tuple(pd.name for pd in POLICIES) == POLICY_NAMES

# ---- result columns -----------------------------------------------------------------------------
COLUMNS = (
    Column("turns", "player turns played (skipped and extra turns included)"),
    Column("rounds", "rounds begun"),
    Column("stalled", "1 when the turn cap ended the game"),
    Column("reshuffles", "times the discard pile was shuffled into a new draw pile"),
    Column("starved_draws", "draws that found the draw pile and the discard pile empty"),
    Column("winner", "seat of the first carpet home, -1 if none"),
    Column("winner_turn", "turn on which the first carpet landed on the finish, -1 if none", none=-1),
    Column("rank", "place (1 = first home), 0 = not placed", per_seat=True),
    Column("blown_off", "times blown beyond the edge of the board (back to the start)", per_seat=True),
    Column("skipped", "turns skipped (blocked, or the die)", per_seat=True),
    Column("blocks_given", "carpets blocked by landing on them", per_seat=True),
    Column("blocks_suffered", "times blocked by a carpet landing on this one", per_seat=True),
    Column("forced_given", "intermediate landings forced on others", per_seat=True),
    Column("forced_suffered", "intermediate landings suffered", per_seat=True),
    Column("tokens_left", "steering tokens held at the end", per_seat=True),
    Column("tokens_used", "steering tokens played", per_seat=True),
    Column("star_landings", "moves ended on a free star (die rolled)", per_seat=True),
    Column("exchanges", "wind cards exchanged while drifting", per_seat=True),
    Column("wait_turns", "turns begun near the finish (data.FINISH_NEAR) that did not end on it", per_seat=True),
    Column("wasted", "turns that ended no nearer the finish (spec dist) than they began, blown off included",
           per_seat=True),
) + tuple(Column(f"die_{i + 1}", f"times die face {i + 1} was rolled", per_seat=True) for i in range(6))

_O = column_offsets(COLUMNS)
O_TURNS = _O["turns"]
O_ROUNDS = _O["rounds"]
O_STALLED = _O["stalled"]
O_RESHUFFLES = _O["reshuffles"]
O_STARVED = _O["starved_draws"]
O_WINNER = _O["winner"]
O_WINNER_TURN = _O["winner_turn"]
O_RANK = _O["rank"]
O_BLOWN = _O["blown_off"]
O_SKIPPED = _O["skipped"]
O_BLOCK_G = _O["blocks_given"]
O_BLOCK_S = _O["blocks_suffered"]
O_FORCE_G = _O["forced_given"]
O_FORCE_S = _O["forced_suffered"]
O_TOK_LEFT = _O["tokens_left"]
O_TOK_USED = _O["tokens_used"]
O_STARS = _O["star_landings"]
O_EXCH = _O["exchanges"]
O_WAIT = _O["wait_turns"]
O_WASTED = _O["wasted"]
O_DIE1 = _O["die_1"]
"""Die face f (0-based) is the per-seat column at ``O_DIE1[1] + f`` (consecutive per-seat columns)."""
assert all(_O[f"die_{i + 1}"] == (O_DIE1[0], O_DIE1[1] + i) for i in range(6))
