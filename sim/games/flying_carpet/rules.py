"""Flying Carpet rules as ``@kernel`` functions over one flat int32 state (``layout``).

Every function cites the rulebook section it implements (RB "<section>", the file
``shared/seeds/002_bafcc528e3332754.txt``) and the decision of ``RULES.md`` (D1 ..) where the
rulebook leaves a question open. There is no policy code here: the policies choose among
the rows ``legal_actions`` writes, and ``apply_action`` carries out one of them.

Conventions: ``spec`` is the tuple of ``layout``'s docstring; cells are ``y * W + x``; a
carpet is *active* while its seat has no place (rank 0).
"""

from __future__ import annotations

import numpy as np

from sim.games.engine import emit, inline_kernel, kernel, leaf_kernel, roll, shuffle_or_rig
from sim.games.flying_carpet.layout import (
    A_A,
    A_B,
    A_C,
    A_END,
    A_EXTRA,
    A_FLAGS,
    A_KIND,
    A_LAND,
    DF_CLOUDS,
    DF_EXTRA,
    DF_HOP,
    DF_SKIP,
    DF_SWAP,
    DF_TOKENS,
    E_BLOCK,
    E_BLOWN,
    E_CARD,
    E_CLOUD,
    E_DIE,
    E_DRAW,
    E_DRIFT,
    E_EXCHANGE,
    E_EXTRA,
    E_FINISH,
    E_FORCE,
    E_HOP,
    E_KEEP,
    E_NO_CLOUD,
    E_NO_SWAP,
    E_RESHUFFLE,
    E_SKIP,
    E_STALL,
    E_STARVED,
    E_SWAP,
    E_TOKEN,
    E_TOKENS,
    E_TURN,
    END_BLOWN,
    END_ILLEGAL,
    F_BLOWN,
    F_FINISH,
    F_LAND,
    F_MOVED,
    F_STAR,
    H_CLOUDS_MOVED,
    H_CUR,
    H_DECK_N,
    H_DISC_N,
    H_DONE,
    H_EXTRA,
    H_MOVED_FROM,
    H_NFIN,
    H_PHASE,
    H_PLAYED,
    H_RESHUF,
    H_ROUND,
    H_SPENT,
    H_STALL,
    H_STARVED,
    H_SUPPLY,
    H_TURN,
    H_WINNER,
    H_WINNER_TURN,
    K_CARD,
    K_CLOUD,
    K_DRIFT,
    K_HOP,
    K_KEEP,
    K_SKIP,
    K_SWAP,
    K_TOKEN,
    KO_DY,
    KO_HC,
    KO_ORDER,
    KO_VALID,
    LAND_BLOCK,
    LAND_NONE,
    M_KEEP,
    M_STAR,
    NCELL,
    NOPT,
    NSTAT,
    ORDER_V,
    P_CLOUDS_EACH,
    P_DIE,
    P_DIE_TOKENS,
    P_DRIFT_STAY,
    P_FINISH,
    P_FORCED_ARRIVES,
    P_HAND,
    P_HOP,
    P_NC,
    P_NET_HEADWIND,
    P_NFACE,
    P_NPC,
    P_OFF_ANCH,
    P_OFF_DECK,
    P_OFF_DISC,
    P_OFF_HAND,
    P_OFF_ILLEGAL,
    P_OFF_POS,
    P_OFF_RANK,
    P_OFF_SCEN,
    P_OFF_SKIP,
    P_OFF_STATS,
    P_OFF_TOK,
    P_PLACINGS,
    P_S,
    P_SKY_ROW,
    P_START,
    P_STOP_BEFORE,
    P_TOK_EACH,
    P_TOK_TOTAL,
    P_WIND_AFTER,
    PH_CLOUDS,
    PH_END,
    PH_HOP,
    PH_MOVE,
    PH_SKIP,
    PH_SWAP,
    PI_ANCHOR,
    PI_KIND,
    PI_N,
    PK_CLOUD,
    PK_GROUND,
    ST_BLOCK_G,
    ST_BLOCK_S,
    ST_BLOWN,
    ST_DIE1,
    ST_EXCH,
    ST_FORCE_G,
    ST_FORCE_S,
    ST_ROLLS,
    ST_SKIPPED,
    ST_STARS,
    ST_TOK_USED,
    T_DOWN,
    T_LEFT,
    T_NONE,
    T_RIGHT,
    T_UP,
    V_CARDS,
    V_CARPET,
    V_HAND,
    V_IN_SCENERY,
    V_RANK,
    V_SCENERY,
    V_TOKENS,
    H,
    W,
)
from sim.rng import CHANCE, shuffle


# ---- small accessors -----------------------------------------------------------------------
@inline_kernel
def pos_of(state, p, s):
    """Cell of seat ``s``'s carpet."""
    return state[p[P_OFF_POS] + s]


@inline_kernel
def active(state, p, s):
    """True while seat ``s`` has not finished (rank 0)."""
    return state[p[P_OFF_RANK] + s] == 0


@inline_kernel
def stat_add(state, p, s, st, n):
    """Add ``n`` to seat ``s``'s counter ``st`` (ST_*)."""
    state[p[P_OFF_STATS] + s * NSTAT + st] += n


@inline_kernel
def scen_at(state, p, c):
    """Scenery at cell ``c``: 0 free, 1 + piece index where covered."""
    return state[p[P_OFF_SCEN] + c]


@inline_kernel
def others_at(state, p, c, s):
    """Active carpets other than seat ``s``'s on cell ``c``."""
    n = 0
    for t in range(p[P_S]):
        if t != s and state[p[P_OFF_RANK] + t] == 0 and state[p[P_OFF_POS] + t] == c:
            n += 1
    return n


@inline_kernel
def is_ground(state, spec, c):
    """True when cell ``c`` is covered by a ground piece (house, tower, tree)."""
    p, pinfo = spec[0], spec[3]
    v = state[p[P_OFF_SCEN] + c]
    return v > 0 and pinfo[v - 1, PI_KIND] == PK_GROUND


# ---- set-up (RB "Preparation", "Cards and tokens", "Rules of Play") ----------------------------
@kernel
def setup(state, spec, rng, rig_deck, rig_dice):
    """Set up one race into ``state`` (int32[p[P_STATE_SIZE]]).

    RB "Building the scenery": the city of the spec. RB "Cards and tokens": the wind cards
    are shuffled (CHANCE stream; ``rig_deck`` int32[NC] fixes the draw order, first drawn
    first, in card ids), each player gets ``hand`` cards and ``tokens_each`` steering tokens,
    the rest of the tokens form the supply. RB "Rules of Play": every carpet starts on the
    start platform (``start_race`` then begins seat 0's turn). ``rig_dice`` is not read here
    (the die is rolled in ``apply_action``)."""
    p, scen, pinfo = spec[0], spec[1], spec[3]
    S = p[P_S]
    HAND = p[P_HAND]
    NC = p[P_NC]
    state[:] = 0
    ev0 = np.zeros((0, 8), np.int32)
    evn0 = np.zeros(1, np.int64)
    d0 = p[P_OFF_DECK]
    for i in range(NC):
        state[d0 + i] = i
    shuffle_or_rig(state, d0, d0 + NC, rng, CHANCE, rig_deck)
    if rig_deck.shape[0] > 0:  # the rig lists the first card drawn first; the top is the end
        for i in range(NC // 2):
            t = state[d0 + i]
            state[d0 + i] = state[d0 + NC - 1 - i]
            state[d0 + NC - 1 - i] = t
    state[H_DECK_N] = NC
    state[H_DISC_N] = 0
    for i in range(S * HAND):
        state[p[P_OFF_HAND] + i] = -1
    for r in range(HAND):
        for s in range(S):
            draw_card(state, p, s, r, rng, ev0, evn0)
    for c in range(NCELL):
        state[p[P_OFF_SCEN] + c] = scen[c]
    for i in range(p[P_NPC]):
        state[p[P_OFF_ANCH] + i] = pinfo[i, PI_ANCHOR]
    for s in range(S):
        state[p[P_OFF_POS] + s] = p[P_START]
        state[p[P_OFF_TOK] + s] = p[P_TOK_EACH]
    state[H_SUPPLY] = p[P_TOK_TOTAL] - S * p[P_TOK_EACH]
    state[H_WINNER] = -1
    state[H_WINNER_TURN] = -1
    state[H_ROUND] = 1
    state[H_TURN] = 0
    state[H_PHASE] = PH_END


@leaf_kernel
def start_race(state, spec, ev, evn):
    """RB "Rules of Play": the first player (seat 0) begins; call once after ``setup``."""
    begin_turn(state, spec[0], 0, ev, evn)


# ---- drawing (RB "Rules of Play": draw back to four; reshuffle when the stack is used up) ---
@leaf_kernel
def draw_card(state, p, s, slot, rng, ev, evn):
    """Draw the top wind card into seat ``s``'s hand slot ``slot``. RB "Rules of Play": when
    the face-down stack is used up, the discard pile is shuffled (CHANCE stream) into a new
    stack. Returns 1 when both are empty (a starved draw: the slot stays empty), else 0."""
    d0 = p[P_OFF_DECK]
    if state[H_DECK_N] == 0:
        n = state[H_DISC_N]
        if n == 0:
            state[H_STARVED] += 1
            emit(ev, evn, state[H_TURN], s, E_STARVED, slot, 0, 0, 0, 0)
            return 1
        x0 = p[P_OFF_DISC]
        for i in range(n):
            state[d0 + i] = state[x0 + i]
        state[H_DISC_N] = 0
        state[H_DECK_N] = n
        shuffle(state, d0, d0 + n, rng, CHANCE)
        state[H_RESHUF] += 1
        emit(ev, evn, state[H_TURN], s, E_RESHUFFLE, n, 0, 0, 0, 0)
    n = state[H_DECK_N] - 1
    cid = state[d0 + n]
    state[H_DECK_N] = n
    state[p[P_OFF_HAND] + s * p[P_HAND] + slot] = cid
    emit(ev, evn, state[H_TURN], s, E_DRAW, cid, slot, 0, 0, 0)
    return 0


@leaf_kernel
def redeal(state, spec, seat, rng, tmp):
    """Re-deal what seat ``seat`` cannot see (for a look-ahead simulation; not a rule of
    play): RB "Cards and tokens" / "Rules of Play": the hands are held face down and the
    supply stack lies face down, the played cards lie face up on the discard pile. The
    unseen cards (the stack and every other seat's hand) are collected in ascending card id
    (a canonical order: it does not depend on where each card was), shuffled with ``rng``'s
    CHANCE stream, and dealt back into the same places: every other hand keeps its filled
    slots, the stack its size. ``tmp`` int32[2 * NC] scratch."""
    p = spec[0]
    S = p[P_S]
    HAND = p[P_HAND]
    NC = p[P_NC]
    d0 = p[P_OFF_DECK]
    h0 = p[P_OFF_HAND]
    dn = state[H_DECK_N]
    for c in range(NC):
        tmp[c] = 0
    for i in range(dn):
        tmp[state[d0 + i]] = 1
    for t in range(S):
        if t != seat:
            for j in range(HAND):
                c = state[h0 + t * HAND + j]
                if c >= 0:
                    tmp[c] = 1
    m = 0
    for c in range(NC):
        if tmp[c] == 1:
            tmp[NC + m] = c
            m += 1
    shuffle(tmp, NC, NC + m, rng, CHANCE)
    k = NC
    for t in range(S):
        if t != seat:
            for j in range(HAND):
                if state[h0 + t * HAND + j] >= 0:
                    state[h0 + t * HAND + j] = tmp[k]
                    k += 1
    for i in range(dn):
        state[d0 + i] = tmp[k]
        k += 1


@leaf_kernel
def discard_from_hand(state, p, s, slot):
    """Lay seat ``s``'s card in ``slot`` face up on the discard pile; returns its id."""
    h = p[P_OFF_HAND] + s * p[P_HAND] + slot
    cid = state[h]
    state[h] = -1
    state[p[P_OFF_DISC] + state[H_DISC_N]] = cid
    state[H_DISC_N] += 1
    return cid


# ---- movement (RB "The Wind Cards", "The Steering Tokens", "The Wind Zones") -----------------
@inline_kernel
def fly(state, spec, pos, order, dy, hc):
    """End cell of a move from ``pos``: a vertical movement of ``dy`` spaces (up > 0) and one
    sideways movement of ``hc`` card spaces (right > 0), flown in ``order`` (ORDER_V:
    vertical first), each space by space and never in steps (RB "The Wind Cards": only one
    sideways movement per turn).

    RB "The Wind Zones": at the moment of the sideways movement the wind of the row the
    carpet is in adds 1 or 2 spaces to the right; a leftward move is braked (D3: to 0 at
    most; ``headwind = "net"``: the difference, so it may turn right). A move with no
    sideways arrow is carried by the wind after its vertical movement (D4; ``"none"``: not).
    Scenery cannot be entered (RB "Blockade": clouds are obstacles; houses, towers and trees
    too) and the bottom edge cannot be passed (RB "another example": further down does not
    go): the option is illegal (D1; ``stop_before``: the carpet stops in front of it).
    Carpets are jumped over (RB "Important: During a move, other playing pieces may be
    jumped over"). Beyond the left, top or right edge the carpet is blown off the board
    (RB "A player whose playing piece is blown beyond the edge", D5; ``off_board =
    "illegal"``: the option is illegal).

    Returns the end cell, END_BLOWN or END_ILLEGAL."""
    p = spec[0]
    return fly_core(state, spec[9], p[P_OFF_SCEN], p[P_STOP_BEFORE] == 1, p[P_OFF_ILLEGAL] == 1,
                    p[P_WIND_AFTER] == 1, p[P_NET_HEADWIND] == 1, pos, order, dy, hc, 0, p[P_FINISH])


@inline_kernel
def fly_core(state, zone, s0, stop, offill, wafter, nethead, pos, order, dy, hc, ht, fin):
    """``fly`` with the spec's switches as scalars (``s0`` the scenery block offset) and
    ``ht`` the sideways space (-1, 0, +1) of a steering token played with a card: it is added
    after the wind and the braking, so the token changes the sideways movement by exactly one
    space (RB "The Steering Tokens": it strengthens the flight "by one space in any
    direction, or, as a 'headwind', slows the wind by one space"; D7). ``fin`` the finish
    cell: a move the bottom edge would cut short onto it is illegal in ``stop_before`` too
    (RB "End of the Game": the finish must be reached with the exact number, no points may
    be left over)."""
    x = pos % W
    y = pos // W
    for seg in range(2):
        vertical = (seg == 0) == (order == ORDER_V)
        if vertical:
            n = dy if dy > 0 else -dy
            step = 1 if dy > 0 else -1
            for _ in range(n):
                ny = y + step
                if ny < 0:
                    return y * W + x if stop and y * W + x != fin else END_ILLEGAL
                if ny >= H:
                    return END_ILLEGAL if offill else END_BLOWN
                if state[s0 + ny * W + x] != 0:
                    return y * W + x if stop else END_ILLEGAL
                y = ny
        else:
            net = hc
            if hc != 0 or ht != 0 or wafter:
                w = zone[y]
                if hc < 0 and not nethead:
                    net = min(0, hc + w)
                else:
                    net = hc + w
            net += ht
            n = net if net > 0 else -net
            step = 1 if net > 0 else -1
            for _ in range(n):
                nx = x + step
                if nx < 0 or nx >= W:
                    return END_ILLEGAL if offill else END_BLOWN
                if state[s0 + y * W + nx] != 0:
                    return y * W + x if stop else END_ILLEGAL
                x = nx
    return y * W + x


@inline_kernel
def drift_end(state, spec, pos):
    """End cell of a drift (RB "Drifting / sinking": a player who plays no card drifts one
    or two spaces right with the wind of his zone; in the windless zone he sinks one space).
    A drift is not a choice of arrows, so scenery stops it in front (D6; ``drift_blocked =
    "stay"``: scenery anywhere in its way cancels the drift, the carpet stays); the bottom edge
    and a roof stop a sinking carpet; drifting beyond the right edge blows it off (END_BLOWN;
    ``off_board = "illegal"``: it stops at the edge)."""
    p, zone = spec[0], spec[9]
    x = pos % W
    y = pos // W
    w = zone[y]
    if w > 0:
        for _ in range(w):
            nx = x + 1
            if nx >= W:
                if p[P_OFF_ILLEGAL] == 1:
                    break
                return END_BLOWN
            if state[p[P_OFF_SCEN] + y * W + nx] != 0:
                if p[P_DRIFT_STAY] == 1:
                    return pos
                break
            x = nx
        return y * W + x
    if y > 0 and state[p[P_OFF_SCEN] + (y - 1) * W + x] == 0:
        y -= 1
    return y * W + x


@inline_kernel
def token_vector(order, dy, hc, t):
    """(order, dy, hc) of an option with steering token ``t`` added (RB "The Steering
    Tokens": one more space in any direction, or one less as headwind; D7: the token adds one
    unit to the option's vertical or sideways number, so a vertical-only card may gain a
    sideways space, flown after its vertical movement)."""
    if t == T_UP:
        dy += 1
    elif t == T_DOWN:
        dy -= 1
    elif t == T_LEFT:
        hc -= 1
    elif t == T_RIGHT:
        hc += 1
    return order, dy, hc


@inline_kernel
def card_token_vector(order, dy, hc, t):
    """(order, dy, hc, ht) of a card option with steering token ``t`` (RB "The Steering
    Tokens"; D7): up / down add one to the vertical number; left / right give ``ht`` = -1 /
    +1, one space added to the sideways movement after the wind (``fly_core``), so as
    headwind it slows the wind by exactly one space (on a vertical-only card it is the only
    sideways arrow, flown after the vertical movement)."""
    ht = 0
    if t == T_UP:
        dy += 1
    elif t == T_DOWN:
        dy -= 1
    elif t == T_LEFT:
        ht = -1
    elif t == T_RIGHT:
        ht = 1
    return order, dy, hc, ht


@inline_kernel
def sink_cell(state, spec, c):
    """Where a carpet forced to land from cell ``c`` comes down (RB "Blockade / Intermediate
    Landing"): straight down to the top of a house, tower or tree, or to the bottom edge,
    through clouds and past carpets in between (D9: should a cloud lie on that spot, the
    carpet rests on the first free space above it)."""
    p = spec[0]
    x = c % W
    y = c // W
    while y > 0 and not is_ground(state, spec, (y - 1) * W + x):
        y -= 1
    while state[p[P_OFF_SCEN] + y * W + x] != 0:
        y += 1
    return y * W + x


@inline_kernel
def add_move(acts, n, kind, a, b, c, pos, end, extra, fin, start, die, marks, state, p, s):
    """Write the legal-action row(s) of a move of the seat to move ending at ``end``; two
    rows (block, force) when the end cell holds other carpets of seat ``s``'s opponents still
    flying (RB "Blockade"; ``others_at``), the start platform left out.
    Returns the new row count."""
    flags = 0
    land = 0
    if end == END_BLOWN:
        flags = F_BLOWN | F_MOVED
    elif end != pos:
        flags |= F_MOVED
        if end == fin:
            flags |= F_FINISH
        elif end != start and others_at(state, p, end, s) > 0:
            flags |= F_LAND
            land = 1
        elif die and (marks[end] & M_STAR) != 0:
            flags |= F_STAR
    for j in range(1 + land):
        if n >= acts.shape[0]:
            return n
        acts[n, A_KIND] = kind
        acts[n, A_A] = a
        acts[n, A_B] = b
        acts[n, A_C] = c
        acts[n, A_LAND] = LAND_BLOCK + j if land else LAND_NONE
        acts[n, A_END] = end
        acts[n, A_FLAGS] = flags
        acts[n, A_EXTRA] = extra
        n += 1
    return n


@leaf_kernel
def legal_moves(state, spec, acts):
    """The four move options of RB "Summary of move options" for the seat to move, as rows of
    ``acts`` (int32[m, ACT_W]); returns the count.

    1. a wind card (one row per hand card kind, per coloured option, RB "The Wind Cards":
       read upright, arrows of one colour in their order and for their exact number);
    2. a wind card with one steering token (T_UP .. T_RIGHT; RB "Only one steering token
       may be played per turn");
    3. a steering token alone, one space in any direction (no card drawn);
    4. no card: drift (RB "Drifting"), alone or exchanging one hand card (one row per kind).
    Drifting is always legal, so a carpet always has a move (RULES.md "No legal move")."""
    p, marks, card_kind, kopt, zone = spec[0], spec[4], spec[5], spec[6], spec[9]
    s = state[H_CUR]
    pos = state[p[P_OFF_POS] + s]
    tokens = state[p[P_OFF_TOK] + s]
    HAND = p[P_HAND]
    h0 = p[P_OFF_HAND] + s * HAND
    s0 = p[P_OFF_SCEN]
    stop = p[P_STOP_BEFORE] == 1
    offill = p[P_OFF_ILLEGAL] == 1
    wafter = p[P_WIND_AFTER] == 1
    nethead = p[P_NET_HEADWIND] == 1
    fin = p[P_FINISH]
    start = p[P_START]
    die = p[P_DIE] == 1
    n = 0
    seen = np.int64(0)
    for slot in range(HAND):
        cid = state[h0 + slot]
        if cid < 0:
            continue
        k = card_kind[cid]
        bit = np.int64(1) << np.int64(k)
        if seen & bit:
            continue
        seen |= bit
        for o in range(NOPT):
            if kopt[k, o, KO_VALID] == 0:
                continue
            for t in range(5):
                if t > 0 and tokens == 0:
                    break
                order, dy, hc, ht = card_token_vector(kopt[k, o, KO_ORDER], kopt[k, o, KO_DY], kopt[k, o, KO_HC], t)
                end = fly_core(state, zone, s0, stop, offill, wafter, nethead, pos, order, dy, hc, ht, fin)
                if end == END_ILLEGAL:
                    continue
                n = add_move(acts, n, K_CARD, slot, o, t, pos, end, k, fin, start, die, marks, state, p, s)
    if tokens > 0:
        for t in range(T_UP, T_RIGHT + 1):
            order, dy, hc = token_vector(ORDER_V, 0, 0, t)
            end = fly_core(state, zone, s0, stop, offill, wafter, nethead, pos, order, dy, hc, 0, fin)
            if end == END_ILLEGAL:
                continue
            n = add_move(acts, n, K_TOKEN, -1, -1, t, pos, end, -1, fin, start, die, marks, state, p, s)
    end = drift_end(state, spec, pos)
    n = add_move(acts, n, K_DRIFT, -1, -1, -1, pos, end, -1, fin, start, die, marks, state, p, s)
    seen = np.int64(0)
    for slot in range(HAND):
        cid = state[h0 + slot]
        if cid < 0:
            continue
        k = card_kind[cid]
        bit = np.int64(1) << np.int64(k)
        if seen & bit:
            continue
        seen |= bit
        n = add_move(acts, n, K_DRIFT, slot, -1, -1, pos, end, k, fin, start, die, marks, state, p, s)
    return n


@inline_kernel
def put_row(acts, n, kind, a, b, end, flags):
    """Write one decision row (no landing) at ``n`` when it fits; returns the new count."""
    if n >= acts.shape[0]:
        return n
    acts[n, A_KIND] = kind
    acts[n, A_A] = a
    acts[n, A_B] = b
    acts[n, A_C] = -1
    acts[n, A_LAND] = LAND_NONE
    acts[n, A_END] = end
    acts[n, A_FLAGS] = flags
    acts[n, A_EXTRA] = -1
    return n + 1


@inline_kernel
def straight_free(state, p, x0, y0, dx, dy):
    """True when every cell from (x0, y0) (excluded) along ``dx`` then nothing, or ``dy``, is
    on the board and free of scenery (one straight leg)."""
    n = dx if dx > 0 else -dx
    if dy != 0:
        n = dy if dy > 0 else -dy
    sx = 0 if dx == 0 else (1 if dx > 0 else -1)
    sy = 0 if dy == 0 else (1 if dy > 0 else -1)
    x = x0
    y = y0
    for _ in range(n):
        x += sx
        y += sy
        if x < 0 or x >= W or y < 0 or y >= H:
            return False
        if state[p[P_OFF_SCEN] + y * W + x] != 0:
            return False
    return True


@leaf_kernel
def hop_targets(state, spec, acts):
    """RB "The Special Die", sixth face: the cells the carpet may move to, at most four spaces
    away, turning a corner once (one leg along a row, one along a column, either first), the
    path free of scenery (carpets are jumped over), the target free of scenery and carpets;
    the carpet's own cell (not moving: "may") first. No wind acts (D12). Returns the count."""
    p = spec[0]
    s = state[H_CUR]
    pos = state[p[P_OFF_POS] + s]
    x0 = pos % W
    y0 = pos // W
    R = p[P_HOP]
    n = put_row(acts, 0, K_HOP, pos, -1, pos, 0)
    for dx in range(-R, R + 1):
        adx = dx if dx > 0 else -dx
        for dy in range(-(R - adx), R - adx + 1):
            if dx == 0 and dy == 0:
                continue
            x = x0 + dx
            y = y0 + dy
            if x < 0 or x >= W or y < 0 or y >= H:
                continue
            c = y * W + x
            if state[p[P_OFF_SCEN] + c] != 0 or others_at(state, p, c, s) > 0:
                continue
            ok = (straight_free(state, p, x0, y0, dx, 0) and straight_free(state, p, x, y0, 0, dy)) or (
                straight_free(state, p, x0, y0, 0, dy) and straight_free(state, p, x0, y, dx, 0))
            if ok:
                n = put_row(acts, n, K_HOP, c, -1, c, F_MOVED | (F_FINISH if c == p[P_FINISH] else 0))
    return n


@leaf_kernel
def free_reach(state, p, src, work):
    """Mark in ``work[0:NCELL]`` (1 = reached) the free cells connected to ``src`` by steps to
    the four neighbours; ``work[NCELL:2 * NCELL]`` is the queue."""
    for c in range(NCELL):
        work[c] = 0
    work[src] = 1
    q0 = NCELL
    qh = 0
    qt = 0
    work[q0 + qt] = src
    qt += 1
    while qh < qt:
        c = work[q0 + qh]
        qh += 1
        x = c % W
        y = c // W
        for k in range(4):
            nx = x + (1 if k == 0 else (-1 if k == 1 else 0))
            ny = y + (1 if k == 2 else (-1 if k == 3 else 0))
            if nx < 0 or nx >= W or ny < 0 or ny >= H:
                continue
            nc = ny * W + nx
            if work[nc] == 0 and state[p[P_OFF_SCEN] + nc] == 0:
                work[nc] = 1
                work[q0 + qt] = nc
                qt += 1


@leaf_kernel
def place_piece(state, spec, piece, anchor, value):
    """Write ``value`` on every cell of ``piece`` at ``anchor`` (callers check the board)."""
    p, pcells, pinfo = spec[0], spec[2], spec[3]
    ax = anchor % W
    ay = anchor // W
    for j in range(pinfo[piece, PI_N]):
        c = (ay + pcells[piece, j, 1]) * W + ax + pcells[piece, j, 0]
        state[p[P_OFF_SCEN] + c] = value


@leaf_kernel
def cloud_move_ok(state, spec, piece, anchor, work):
    """True when cloud ``piece`` may be moved to ``anchor`` (RB "The Special Die", second
    face): every cell on the board and in the sky (D2), on no other scenery, no platform or
    keep-free cell and no carpet ("playing pieces may not be moved or covered"), and
    afterwards the start and every flying carpet still connect to the finish through free
    spaces ("every player can still move forward"). With ``cloud_moves = "each"`` (D11) a cloud
    already moved this roll may not move again. The state is left unchanged."""
    p, pcells, pinfo, marks = spec[0], spec[2], spec[3], spec[4]
    if piece < 0 or piece >= p[P_NPC] or pinfo[piece, PI_KIND] != PK_CLOUD:
        return False
    if p[P_CLOUDS_EACH] == 1 and (state[H_CLOUDS_MOVED] >> piece) & 1 == 1:
        return False
    old = state[p[P_OFF_ANCH] + piece]
    if anchor == old or anchor < 0 or anchor >= NCELL:
        return False
    ax = anchor % W
    ay = anchor // W
    S = p[P_S]
    for j in range(pinfo[piece, PI_N]):
        x = ax + pcells[piece, j, 0]
        y = ay + pcells[piece, j, 1]
        if x >= W or y >= H or y < p[P_SKY_ROW]:
            return False
        c = y * W + x
        v = state[p[P_OFF_SCEN] + c]
        if (v != 0 and v != piece + 1) or (marks[c] & M_KEEP) != 0:
            return False
        for s in range(S):
            if state[p[P_OFF_POS] + s] == c:
                return False
    place_piece(state, spec, piece, old, 0)
    place_piece(state, spec, piece, anchor, piece + 1)
    free_reach(state, p, p[P_FINISH], work)
    ok = work[p[P_START]] == 1
    for s in range(S):
        if state[p[P_OFF_RANK] + s] == 0 and work[state[p[P_OFF_POS] + s]] == 0:
            ok = False
    place_piece(state, spec, piece, anchor, 0)
    place_piece(state, spec, piece, old, piece + 1)
    return ok


@leaf_kernel
def cloud_moves(state, spec, acts, work):
    """Every way to carry out the second die face: K_KEEP first (the player "may" move the
    clouds; D11: one cloud per roll, or with ``cloud_moves = "each"`` one decision per cloud,
    each cloud at most once, K_KEEP ending them), then each cloud to each anchor ``cloud_move_ok``
    allows, while ``acts`` has room. Returns the count."""
    p, pinfo = spec[0], spec[3]
    n = put_row(acts, 0, K_KEEP, -1, -1, -1, 0)
    for i in range(p[P_NPC]):
        if pinfo[i, PI_KIND] != PK_CLOUD:
            continue
        for c in range(NCELL):
            if cloud_move_ok(state, spec, i, c, work):
                n = put_row(acts, n, K_CLOUD, i, c, -1, 0)
    return n


@leaf_kernel
def swap_targets(state, spec, acts):
    """RB "The Special Die", fifth face: one row per other flying carpet (swap places with
    any fellow player of his choice). Returns the count."""
    p = spec[0]
    s = state[H_CUR]
    n = 0
    for t in range(p[P_S]):
        if t != s and state[p[P_OFF_RANK] + t] == 0:
            n = put_row(acts, n, K_SWAP, t, -1, state[p[P_OFF_POS] + t], 0)
    return n


@leaf_kernel
def legal_actions(state, spec, acts, work):
    """The rows of everything the seat to move may do now (``acts`` int32[m, ACT_W]), by
    phase: PH_MOVE ``legal_moves``; PH_SKIP the one K_SKIP row; PH_CLOUDS ``cloud_moves``;
    PH_SWAP ``swap_targets``; PH_HOP ``hop_targets``; PH_END none. Returns the count."""
    ph = state[H_PHASE]
    if ph == PH_MOVE:
        return legal_moves(state, spec, acts)
    if ph == PH_SKIP:
        return put_row(acts, 0, K_SKIP, -1, -1, -1, 0)
    if ph == PH_CLOUDS:
        return cloud_moves(state, spec, acts, work)
    if ph == PH_SWAP:
        return swap_targets(state, spec, acts)
    if ph == PH_HOP:
        return hop_targets(state, spec, acts)
    return 0


# ---- carrying out an action ---------------------------------------------------------------
@leaf_kernel
def finish(state, p, s, ev, evn):
    """RB "End of the Game": the carpet landed exactly on the finish platform; it takes the
    next place (the first is the winner)."""
    state[H_NFIN] += 1
    state[p[P_OFF_RANK] + s] = state[H_NFIN]
    if state[H_NFIN] == 1:
        state[H_WINNER] = s
        state[H_WINNER_TURN] = state[H_TURN]
    emit(ev, evn, state[H_TURN], s, E_FINISH, s, state[H_NFIN], 0, 0, 0)


@leaf_kernel
def block(state, p, s, v, by, ev, evn):
    """Carpet ``v`` must skip its next turn (RB "Blockade": blocking; D10: not cumulative)."""
    k = p[P_OFF_SKIP] + v
    if state[k] < 1:
        state[k] = 1
    stat_add(state, p, v, ST_BLOCK_S, 1)
    if by >= 0:
        stat_add(state, p, by, ST_BLOCK_G, 1)
    emit(ev, evn, state[H_TURN], s, E_BLOCK, v, state[p[P_OFF_POS] + v], by, 0, 0)


@leaf_kernel
def land_on_carpets(state, spec, s, end, choice, ev, evn):
    """RB "Blockade / Intermediate Landing": seat ``s`` ended its move on ``end`` where other
    carpets hover (D8: all of them, a stack is one). LAND_BLOCK: they skip their next turn.
    LAND_FORCE: they sink straight down (``sink_cell``); carpets already standing there are
    blocked by the sunken ones placed on top. D9: a carpet forced down onto the finish platform
    has not arrived (``forced_finish = "exact"``, RB "End of the Game": "The finish platform
    must be reached with the exact number of points"); it must leave and land there with a
    move of its own; ``"arrived"``: it has finished."""
    p = spec[0]
    S = p[P_S]
    if choice == LAND_BLOCK:
        for v in range(S):
            if v != s and state[p[P_OFF_RANK] + v] == 0 and state[p[P_OFF_POS] + v] == end:
                block(state, p, s, v, s, ev, evn)
        return
    to = sink_cell(state, spec, end)
    if to != end and to != p[P_START]:
        for u in range(S):
            if u != s and state[p[P_OFF_RANK] + u] == 0 and state[p[P_OFF_POS] + u] == to:
                block(state, p, s, u, -1, ev, evn)
    for v in range(S):
        if v != s and state[p[P_OFF_RANK] + v] == 0 and state[p[P_OFF_POS] + v] == end:
            state[p[P_OFF_POS] + v] = to
            stat_add(state, p, v, ST_FORCE_S, 1)
            stat_add(state, p, s, ST_FORCE_G, 1)
            emit(ev, evn, state[H_TURN], s, E_FORCE, v, end, to, 0, 0)
            if to == p[P_FINISH] and p[P_FORCED_ARRIVES] == 1:  # D9 "arrived": it is home
                finish(state, p, v, ev, evn)


@leaf_kernel
def roll_die(state, spec, s, rng, rig_dice, ev, evn):
    """RB "The Special Die": a carpet that ended its move on a free star rolls the die and
    carries out the face: skip the next turn; move the clouds (PH_CLOUDS); another turn at
    once (H_EXTRA); two more steering tokens from the supply (D13: fewer when it runs low);
    swap places (PH_SWAP); move up to four spaces (PH_HOP, no second roll)."""
    p, die = spec[0], spec[8]
    nf = p[P_NFACE]
    f = roll(rng, CHANCE, nf, rig_dice) - 1
    eff = die[f]
    stat_add(state, p, s, ST_STARS, 1)
    stat_add(state, p, s, ST_ROLLS, 1)
    if f < 6:
        stat_add(state, p, s, ST_DIE1 + f, 1)
    emit(ev, evn, state[H_TURN], s, E_DIE, f + 1, eff, 0, 0, 0)
    if eff == DF_SKIP:
        k = p[P_OFF_SKIP] + s
        if state[k] < 1:
            state[k] = 1
    elif eff == DF_CLOUDS:
        pinfo = spec[3]
        any_cloud = False
        for i in range(p[P_NPC]):
            if pinfo[i, PI_KIND] == PK_CLOUD:
                any_cloud = True
        if any_cloud:
            state[H_PHASE] = PH_CLOUDS
            if p[P_CLOUDS_EACH] == 1:
                state[H_CLOUDS_MOVED] = 0
        else:
            emit(ev, evn, state[H_TURN], s, E_NO_CLOUD, 0, 0, 0, 0, 0)
    elif eff == DF_EXTRA:
        state[H_EXTRA] = 1
        emit(ev, evn, state[H_TURN], s, E_EXTRA, 0, 0, 0, 0, 0)
    elif eff == DF_TOKENS:
        g = min(p[P_DIE_TOKENS], state[H_SUPPLY])
        state[H_SUPPLY] -= g
        state[p[P_OFF_TOK] + s] += g
        emit(ev, evn, state[H_TURN], s, E_TOKENS, g, state[H_SUPPLY], 0, 0, 0)
    elif eff == DF_SWAP:
        other = False
        for t in range(p[P_S]):
            if t != s and state[p[P_OFF_RANK] + t] == 0:
                other = True
        if other:
            state[H_PHASE] = PH_SWAP
        else:
            emit(ev, evn, state[H_TURN], s, E_NO_SWAP, 0, 0, 0, 0, 0)
    elif eff == DF_HOP:
        state[H_PHASE] = PH_HOP


@leaf_kernel
def apply_action(state, spec, act, rng, rig_dice, ev, evn):
    """Carry out one legal row ``act`` (int32[ACT_W], from ``legal_actions`` of this state)
    for the seat to move, then set the phase (PH_END, or a die decision).

    K_CARD / K_TOKEN / K_DRIFT (RB "Summary of move options"): the card goes face up on the
    discard pile, a token is played (out of the game, RB "Played steering tokens are not
    replaced"), an exchanged card is discarded; the carpet moves (blown off: back to the
    start platform, RB "The Wind Cards"); landing on carpets (``land_on_carpets``); an exact
    landing on the finish finishes (RB "End of the Game"); a played or exchanged card is
    replaced from the stack (RB "Rules of Play"; a token alone draws nothing); a move into a
    free star rolls the die (``roll_die``). K_SKIP: the skipped turn passes. K_CLOUD /
    K_KEEP / K_SWAP / K_HOP: the die decision."""
    p = spec[0]
    s = state[H_CUR]
    kind = act[A_KIND]
    t = state[H_TURN]
    op = p[P_OFF_POS] + s
    state[H_PHASE] = PH_END
    if kind == K_SKIP:
        k = p[P_OFF_SKIP] + s
        state[k] -= 1
        stat_add(state, p, s, ST_SKIPPED, 1)
        emit(ev, evn, t, s, E_SKIP, state[k], 0, 0, 0, 0)
        return
    if kind == K_KEEP:
        emit(ev, evn, t, s, E_KEEP, 0, 0, 0, 0, 0)
        return
    if kind == K_CLOUD:
        old = state[p[P_OFF_ANCH] + act[A_A]]
        place_piece(state, spec, act[A_A], old, 0)
        place_piece(state, spec, act[A_A], act[A_B], act[A_A] + 1)
        state[p[P_OFF_ANCH] + act[A_A]] = act[A_B]
        emit(ev, evn, t, s, E_CLOUD, act[A_A], old, act[A_B], 0, 0)
        if p[P_CLOUDS_EACH] == 1:  # D11 "each": the player may go on with another cloud
            state[H_CLOUDS_MOVED] |= np.int32(1) << np.int32(act[A_A])
            pinfo = spec[3]
            for i in range(p[P_NPC]):
                if pinfo[i, PI_KIND] == PK_CLOUD and (state[H_CLOUDS_MOVED] >> i) & 1 == 0:
                    state[H_PHASE] = PH_CLOUDS
        return
    if kind == K_SWAP:
        o = act[A_A]
        mine = state[op]
        state[op] = state[p[P_OFF_POS] + o]
        state[p[P_OFF_POS] + o] = mine
        emit(ev, evn, t, s, E_SWAP, o, state[op], mine, 0, 0)
        return
    if kind == K_HOP:
        frm = state[op]
        state[op] = act[A_A]
        emit(ev, evn, t, s, E_HOP, frm, act[A_A], 0, 0, 0)
        if act[A_A] == p[P_FINISH]:
            finish(state, p, s, ev, evn)
        return
    # the four move options
    pos0 = state[op]
    state[H_MOVED_FROM] = pos0
    draw_slot = -1
    end = act[A_END]
    flags = act[A_FLAGS]
    if kind == K_CARD:
        cid = discard_from_hand(state, p, s, act[A_A])
        draw_slot = act[A_A]
        emit(ev, evn, t, s, E_CARD, cid, act[A_B], act[A_C], end, pos0)
        if act[A_C] != T_NONE:
            state[p[P_OFF_TOK] + s] -= 1
            state[H_SPENT] += 1
            stat_add(state, p, s, ST_TOK_USED, 1)
    elif kind == K_TOKEN:
        state[p[P_OFF_TOK] + s] -= 1
        state[H_SPENT] += 1
        stat_add(state, p, s, ST_TOK_USED, 1)
        emit(ev, evn, t, s, E_TOKEN, act[A_C], end, pos0, 0, 0)
    else:
        emit(ev, evn, t, s, E_DRIFT, end, pos0, 0, 0, 0)
        if act[A_A] >= 0:
            cid = discard_from_hand(state, p, s, act[A_A])
            draw_slot = act[A_A]
            stat_add(state, p, s, ST_EXCH, 1)
            emit(ev, evn, t, s, E_EXCHANGE, cid, act[A_A], 0, 0, 0)
    if flags & F_BLOWN:
        state[op] = p[P_START]
        stat_add(state, p, s, ST_BLOWN, 1)
        emit(ev, evn, t, s, E_BLOWN, pos0, 0, 0, 0, 0)
    else:
        state[op] = end
        if flags & F_LAND:
            land_on_carpets(state, spec, s, end, act[A_LAND], ev, evn)
        if flags & F_FINISH:
            finish(state, p, s, ev, evn)
    if draw_slot >= 0:
        draw_card(state, p, s, draw_slot, rng, ev, evn)
    if flags & F_STAR:
        roll_die(state, spec, s, rng, rig_dice, ev, evn)


@kernel
def default_action(state, spec, acts, work):
    """The row a turn ends with when the player decides nothing more (``GameState.end_turn``
    in a pending phase): PH_MOVE drift without exchange (RB "Drifting": playing no card);
    PH_SKIP the skip; PH_CLOUDS keep; PH_SWAP the first other carpet; PH_HOP stay. Returns
    the row index in ``acts`` (filled by ``legal_actions``), or -1 in PH_END."""
    n = legal_actions(state, spec, acts, work)
    if n == 0:
        return -1
    if state[H_PHASE] == PH_MOVE:
        for i in range(n):
            if acts[i, A_KIND] == K_DRIFT and acts[i, A_A] < 0:
                return i
    return 0


# ---- turn order (RB "Rules of Play"; "End of the Game") --------------------------------------
@leaf_kernel
def begin_turn(state, p, s, ev, evn):
    """Seat ``s`` begins a turn: PH_SKIP when it must skip it (blocked, or the die), else
    PH_MOVE."""
    state[H_CUR] = s
    state[H_TURN] += 1
    state[H_MOVED_FROM] = state[p[P_OFF_POS] + s]
    state[H_PHASE] = PH_SKIP if state[p[P_OFF_SKIP] + s] > 0 else PH_MOVE
    emit(ev, evn, state[H_TURN], s, E_TURN, state[p[P_OFF_POS] + s], state[p[P_OFF_TOK] + s],
         state[p[P_OFF_SKIP] + s], 0, 0)


@leaf_kernel
def game_over(state, p):
    """RB "End of the Game": the first carpet home wins and the race ends (D16;
    ``play_for_placings``: play on until one carpet is left, which takes the last place)."""
    if state[H_NFIN] == 0:
        return False
    if p[P_PLACINGS] == 0:
        return True
    return state[H_NFIN] >= p[P_S] - 1


@leaf_kernel
def end_turn(state, spec, ev, evn):
    """End the current turn: count it, test the end of the game, and begin the next turn:
    the same seat again after the die's "another turn", else the next seat still flying
    (RB "Then it is the next player's turn")."""
    p = spec[0]
    S = p[P_S]
    state[H_PLAYED] += 1
    state[H_PHASE] = PH_END
    s = state[H_CUR]
    if game_over(state, p):
        if p[P_PLACINGS] == 1:
            for t in range(S):
                if state[p[P_OFF_RANK] + t] == 0:
                    state[H_NFIN] += 1
                    state[p[P_OFF_RANK] + t] = state[H_NFIN]
        state[H_DONE] = 1
        return
    if state[H_EXTRA] == 1 and state[p[P_OFF_RANK] + s] == 0:
        state[H_EXTRA] = 0
        begin_turn(state, p, s, ev, evn)
        return
    state[H_EXTRA] = 0
    nxt = s
    for _ in range(S):
        nxt = (nxt + 1) % S
        if state[p[P_OFF_RANK] + nxt] == 0:
            break
    if nxt <= s:
        state[H_ROUND] += 1
    begin_turn(state, p, nxt, ev, evn)


@leaf_kernel
def mark_stall(state, ev, evn):
    """The turn cap ended the race (a recorded outcome, never an endless game)."""
    state[H_STALL] = 1
    state[H_DONE] = 1
    emit(ev, evn, state[H_TURN], state[H_CUR], E_STALL, state[H_PLAYED], 0, 0, 0, 0)


# ---- invariants ----------------------------------------------------------------------------
@kernel
def check_invariants(state, spec):
    """0 when the position is consistent, else the first violated code (V_*): one carpet per
    player on the board, none inside scenery, finished carpets on the finish and only they (D9
    ``forced_finish = "exact"``: a carpet forced down there may stand on it unfinished),
    every wind card in exactly one place, hands full (unless a draw starved), steering tokens
    conserved (held + supply + played = the box), the scenery map equal to the pieces at
    their anchors."""
    p, pcells, pinfo = spec[0], spec[2], spec[3]
    S = p[P_S]
    for s in range(S):
        c = state[p[P_OFF_POS] + s]
        if c < 0 or c >= NCELL:
            return V_CARPET
        if state[p[P_OFF_SCEN] + c] != 0:
            return V_IN_SCENERY
        fin = state[p[P_OFF_RANK] + s] > 0
        if fin and state[H_DONE] == 0 and c != p[P_FINISH]:
            return V_RANK
        if not fin and c == p[P_FINISH] and p[P_FORCED_ARRIVES] == 1:
            return V_RANK
    NC = p[P_NC]
    seen = np.zeros(NC, np.int32)
    HAND = p[P_HAND]
    for i in range(S * HAND):
        cid = state[p[P_OFF_HAND] + i]
        if cid >= NC:
            return V_CARDS
        if cid >= 0:
            seen[cid] += 1
    for i in range(state[H_DECK_N]):
        seen[state[p[P_OFF_DECK] + i]] += 1
    for i in range(state[H_DISC_N]):
        seen[state[p[P_OFF_DISC] + i]] += 1
    for i in range(NC):
        if seen[i] != 1:
            return V_CARDS
    for s in range(S):
        held = 0
        for j in range(HAND):
            if state[p[P_OFF_HAND] + s * HAND + j] >= 0:
                held += 1
        if held != HAND and state[H_STARVED] == 0:
            return V_HAND
    tot = state[H_SUPPLY] + state[H_SPENT]
    for s in range(S):
        if state[p[P_OFF_TOK] + s] < 0:
            return V_TOKENS
        tot += state[p[P_OFF_TOK] + s]
    if tot != p[P_TOK_TOTAL] or state[H_SUPPLY] < 0:
        return V_TOKENS
    want = np.zeros(NCELL, np.int32)
    for i in range(p[P_NPC]):
        a = state[p[P_OFF_ANCH] + i]
        ax = a % W
        ay = a // W
        for j in range(pinfo[i, PI_N]):
            x = ax + pcells[i, j, 0]
            y = ay + pcells[i, j, 1]
            if x >= W or y >= H:
                return V_SCENERY
            c = y * W + x
            if want[c] != 0:
                return V_SCENERY
            want[c] = i + 1
    for c in range(NCELL):
        if want[c] != state[p[P_OFF_SCEN] + c]:
            return V_SCENERY
    return 0
