"""Clear for Takeoff rules kernel: every rule as a ``@kernel`` function over the int32
state laid out in ``layout.py``.

Rulebook: ``shared/seeds/000_513cea2297b34943.txt`` (quoted as RB below, by section).
Decisions on ambiguities are in ``RULES.md`` beside this file. Events go to the trace
buffer with ``engine.emit`` (rows ``[turn, seat, code, a, b, c, d, e]``, codes ``E_*``).
No policy code here: the choices (which play, which runway from VIP2) are ``policies.py``.
"""

from __future__ import annotations

import numpy as np

from sim.games.clear_for_takeoff.layout import (
    AI,
    C31L,
    C31R,
    CA,
    CB,
    CC,
    CD,
    DLY,
    E_AUTO,
    E_BLOCKED,
    E_DEICE,
    E_DISCARD,
    E_DRAW_DOWN,
    E_DRAW_KEEP,
    E_EXCHANGE,
    E_FINISH,
    E_FORGOT_TAKEOFF,
    E_HIT,
    E_PLAY,
    E_RESHUFFLE,
    E_TAKEOFF,
    E_WEATHER,
    FG,
    FLR,
    FORGET_SCALE,
    H_CUR,
    H_DECK_N,
    H_DISC_N,
    H_DONE,
    H_NFIN,
    H_RESHUF,
    H_TURN,
    H_WCARD,
    H_WEATHER,
    H_WINNER,
    H_WINNER_TURN,
    ICE,
    K_ADVANCE,
    K_AI,
    K_DLY,
    K_FLR,
    K_PLACE,
    K_TO_D,
    K_VIP,
    K_WEATHER,
    LC,
    MEDIUM,
    NCT,
    NSTAT,
    NWEATHER,
    P_AI1,
    P_D0,
    P_DIRECT,
    P_DLYOWN,
    P_FAIL_LARGEST,
    P_FINHAND,
    P_FORGET_TOFF,
    P_HAND,
    P_JOINHELD,
    P_K,
    P_MOVE1,
    P_NAC,
    P_NCARDS,
    P_NSLOT,
    P_NST,
    P_OFF_DECK,
    P_OFF_DEICED,
    P_OFF_DISC,
    P_OFF_HAND,
    P_OFF_OCC,
    P_OFF_POS,
    P_OFF_RANK,
    P_OFF_START,
    P_OFF_STATS,
    P_OFF_WT,
    P_PLAYOUT,
    P_Q,
    P_RESHUF_EMPTY,
    P_S,
    P_SNOWANY,
    P_TO0,
    P_VIP1,
    P_VIP2,
    POS_AIRBORNE,
    POS_HANGAR,
    POS_NONE,
    SC,
    SN,
    ST_BLOCKED,
    ST_DLY,
    ST_DLY_DRAWN,
    ST_DLY_PLAYED,
    ST_EXCH,
    ST_FLR,
    ST_FLR_DRAWN,
    ST_FLR_PLAYED,
    ST_FORGOT_TOFF,
    ST_PLAYS,
    ST_TAKEOFFS,
    V_AIRCRAFT_SLOT,
    V_CARDS,
    V_D_GAP,
    V_HAND_SIZE,
    V_NEG_HAND,
    V_RANKED_ON_FIELD,
    V_SLOT_TWICE,
    VIP,
    WIDE,
    XW,
)
from sim.games.engine import emit, inline_kernel, kernel, leaf_kernel, rigged, shuffle_or_rig
from sim.rng import CHANCE, POLICY, shuffle, uniform


# =======================================================================================
# small helpers
# =======================================================================================
@inline_kernel
def hand_at(p, s, c):
    return p[P_OFF_HAND] + s * NCT + c


@inline_kernel
def pos_at(p, s, k):
    return p[P_OFF_POS] + s * p[P_K] + k


@inline_kernel
def stat_at(p, s, st):
    return p[P_OFF_STATS] + s * NSTAT + st


@inline_kernel
def d_slot(p, r, j):
    """Slot id of the j-th place (0 = front) of runway r's D sequence."""
    return p[P_D0] + r * p[P_Q] + j


@inline_kernel
def to_slot(p, r):
    return p[P_TO0] + r


@leaf_kernel
def hand_total(state, p, s):
    t = 0
    base = p[P_OFF_HAND] + s * NCT
    for c in range(NCT):
        t += state[base + c]
    return t


@leaf_kernel
def runway_frozen(state, r):
    """RB Weather cards: FG holds both D sequences, 31L/31R CLOSED holds that runway's."""
    w = state[H_WEATHER]
    return w == FG or (w == C31L and r == 0) or (w == C31R and r == 1)


@leaf_kernel
def stage_of(p, slot):
    """Preparation stage of a slot (higher = closer to takeoff); hangar 0.

    Used to rank 'most prepared' (RULES.md D3): takeoff 100, D front 90 (then 89, ...),
    VIP2 50, B or C 40, VIP1 30, A 20.
    """
    if slot < 0:
        return 0
    if slot >= p[P_TO0]:
        return 100
    if slot >= p[P_D0]:
        return 90 - (slot - p[P_D0]) % p[P_Q]
    if slot == p[P_VIP2]:
        return 50
    if slot == p[P_VIP1]:
        return 30
    if slot % 2 == 1:
        return 40
    return 20


@leaf_kernel
def set_pos(state, p, gid, slot):
    """Move aircraft ``gid`` to ``slot`` (or hangar/airborne), keeping ``occ`` in step."""
    K = p[P_K]
    s = gid // K
    k = gid % K
    old = state[pos_at(p, s, k)]
    if old >= 0:
        state[p[P_OFF_OCC] + old] = -1
    state[pos_at(p, s, k)] = slot
    if slot >= 0:
        state[p[P_OFF_OCC] + slot] = gid


@leaf_kernel
def occ(state, p, slot):
    return state[p[P_OFF_OCC] + slot]


@leaf_kernel
def d_back(state, p, r):
    """Index where an aircraft joining runway r's D sequence goes: behind the last one."""
    Q = p[P_Q]
    for j in range(Q - 1, -1, -1):
        if occ(state, p, d_slot(p, r, j)) >= 0:
            return j + 1
    return 0


@leaf_kernel
def forgets(p, key, rng):
    """True when a player forgets (RULES.md D13): with the chance ``p[key]`` / FORGET_SCALE
    (``key`` P_FORGET_DRAW or P_FORGET_TOFF), one ``uniform`` of the POLICY stream (``rng``
    uint64[2]; forgetting is the player's, so the deal never changes). At 0 (the default) no
    random number is drawn, so a game without forgetting plays bit for bit as before."""
    q = p[key]
    if q <= 0:
        return False
    return uniform(rng, POLICY) * FORGET_SCALE < q


@leaf_kernel
def to_back_of_sequence(state, p, g, r):
    """Aircraft ``g`` leaves runway ``r``'s takeoff position for the back of the runway's D
    sequence; the sequence's front aircraft (if any) moves onto the takeoff position at once
    (RB Weather cards: "moves to the end of the sequence. Its place is immediately occupied by
    the next aircraft"). Returns that aircraft's gid, or -1 when the sequence was empty (``g``
    then stands at its front)."""
    nxt = occ(state, p, d_slot(p, r, 0))
    set_pos(state, p, g, POS_HANGAR)  # lift it off the board for a moment
    if nxt >= 0:
        set_pos(state, p, nxt, to_slot(p, r))
    compact(state, p, r)
    set_pos(state, p, g, d_slot(p, r, d_back(state, p, r)))
    return nxt


@leaf_kernel
def compact(state, p, r):
    """RB Position D: 'When the sequence moves, so does your aircraft, even if it's not your
    turn.' Close gaps in runway r's D sequence unless FG / a closed runway holds it."""
    if runway_frozen(state, r):
        return
    Q = p[P_Q]
    w = 0
    for j in range(Q):
        g = occ(state, p, d_slot(p, r, j))
        if g >= 0:
            if j != w:
                set_pos(state, p, g, d_slot(p, r, w))
            w += 1


# =======================================================================================
# set-up (RB "Setting up the game")
# =======================================================================================
@leaf_kernel
def state_size(p):
    return p[P_OFF_WT] + NWEATHER


@leaf_kernel
def setup(state, p, deck_cards, fleet, rng, rig_deck):
    """Deal a new game into ``state`` (int32[state_size]).

    ``deck_cards``: int32[NCARDS] card types; ``fleet``: int32[S, K] sizes (0 = none);
    ``rig_deck``: int32[0] to shuffle with the CHANCE stream, or int32[NCARDS] the whole
    deck in draw order (first drawn first, card types; the caller checks it holds the
    deck's cards). The pile is drawn from its end, so a rigged order is stored reversed.
    RB Setting up: shuffle, deal nine cards to each player, weather clear, aircraft in the
    hangars; the first player is seat 0 (RULES.md D1).
    """
    state[:] = 0
    S = p[P_S]
    K = p[P_K]
    n = p[P_NCARDS]
    deck0 = p[P_OFF_DECK]
    for i in range(n):
        state[deck0 + i] = deck_cards[i]
    shuffle_or_rig(state, deck0, deck0 + n, rng, CHANCE, rig_deck)
    if rigged(rig_deck):
        # draw order -> pile order (the top card is the last entry)
        for i in range(n // 2):
            a = state[deck0 + i]
            state[deck0 + i] = state[deck0 + n - 1 - i]
            state[deck0 + n - 1 - i] = a
    state[H_DECK_N] = n
    state[H_WEATHER] = SC
    state[H_WCARD] = 0
    state[H_WINNER] = -1
    state[H_WINNER_TURN] = -1
    for sl in range(p[P_NSLOT]):
        state[p[P_OFF_OCC] + sl] = -1
    for s in range(S):
        for k in range(K):
            state[pos_at(p, s, k)] = POS_HANGAR if fleet[s, k] > 0 else POS_NONE
            state[p[P_OFF_START] + s * K + k] = state[pos_at(p, s, k)]
    # deal: one card at a time around the table
    for _ in range(p[P_HAND]):
        for s in range(S):
            if state[H_DECK_N] > 0:
                state[H_DECK_N] -= 1
                c = state[deck0 + state[H_DECK_N]]
                state[hand_at(p, s, c)] += 1
    state[H_CUR] = 0


@leaf_kernel
def note_turn_start(state, p):
    """RB Independent aircraft movement applies to where the current seat's aircraft stood
    at the start of its turn: record those positions."""
    K = p[P_K]
    s = state[H_CUR]
    for k in range(K):
        state[p[P_OFF_START] + s * K + k] = state[pos_at(p, s, k)]


# =======================================================================================
# the deck (RB "Deck notes")
# =======================================================================================
@leaf_kernel
def reshuffle(state, p, rng, ev, evn):
    """RB Deck notes: 'If the card deck runs out of cards, reshuffle the discard pile to
    create a new card deck' (the caller checked the deck is empty and the pile is not)."""
    m = state[H_DISC_N]
    d0 = p[P_OFF_DECK]
    s0 = p[P_OFF_DISC]
    for i in range(m):
        state[d0 + i] = state[s0 + i]
    state[H_DISC_N] = 0
    shuffle(state, d0, d0 + m, rng, CHANCE)
    state[H_DECK_N] = m
    state[H_RESHUF] += 1
    emit(ev, evn, state[H_TURN], state[H_CUR], E_RESHUFFLE, m, 0, 0, 0, 0)


@inline_kernel
def draw_card(state, p, rng, ev, evn):
    """Top card of the deck (RULES.md D19, D4): ``draw_reshuffling`` when the draw finds the
    deck empty or, with ``reshuffle = "on_empty"``, takes its last card; else the top card, in
    line (the common case: a call passes every array argument's fields)."""
    n = state[H_DECK_N]
    if n == 0 or (n == 1 and p[P_RESHUF_EMPTY] == 1):
        return draw_reshuffling(state, p, rng, ev, evn)
    state[H_DECK_N] = n - 1
    return state[p[P_OFF_DECK] + n - 1]


@leaf_kernel
def draw_reshuffling(state, p, rng, ev, evn):
    """Top card of the deck, reshuffling the discard pile in when the deck is empty.

    RULES.md D19: by default ("on_draw") the pile is reshuffled when a draw finds the deck
    empty, so every card discarded until then (a play on the next turn included) is in the
    new deck; with ``reshuffle = "on_empty"`` it is reshuffled as soon as the deck's last
    card is drawn (and still on a draw that finds the deck empty, if the pile was empty
    then). Returns the card type, or -1 when deck and discard pile are both empty (a
    starved draw: RULES.md D4).
    """
    if state[H_DECK_N] == 0:
        if state[H_DISC_N] == 0:
            return -1
        reshuffle(state, p, rng, ev, evn)
    state[H_DECK_N] -= 1
    c = state[p[P_OFF_DECK] + state[H_DECK_N]]
    if p[P_RESHUF_EMPTY] == 1 and state[H_DECK_N] == 0 and state[H_DISC_N] > 0:
        reshuffle(state, p, rng, ev, evn)
    return c


@leaf_kernel
def discard(state, p, c, n):
    for _ in range(n):
        state[p[P_OFF_DISC] + state[H_DISC_N]] = c
        state[H_DISC_N] += 1


@leaf_kernel
def set_weather(state, p, c):
    """RB Weather cards: the new card lies face up, the previous Weather card is discarded,
    effects apply at once. A sequence that was held moves up when its hold ends."""
    if state[H_WCARD] == 1:
        discard(state, p, state[H_WEATHER], 1)
    state[H_WEATHER] = c
    state[H_WCARD] = 1
    compact(state, p, 0)
    compact(state, p, 1)


# =======================================================================================
# costs and targets
# =======================================================================================
@leaf_kernel
def move_cost(state, p, size):
    """RB Movement cards: 1 / 2 / 3 cards by size (config ``move_cards``); RB SNOW: one
    additional card."""
    c = p[P_MOVE1 + size - 1]
    if state[H_WEATHER] == SN:
        c += 1
    return c


@leaf_kernel
def snow_extra_card(state, p, s, card, base, lcb):
    """RULES.md D17 ``snow_extra = "any"``: the card type paying SNOW's additional movement
    card once the step's own ``base`` cards are paid (``base - lcb`` real ``card`` cards and
    ``lcb`` LC): the movement card (A, B, C or D) of which the seat holds the most spare
    copies (ties: A, B, C, D order), else a spare LC; -1 when nothing is left to pay with."""
    best = -1
    bestn = 0
    for t in range(CA, CD + 1):
        spare = state[hand_at(p, s, t)]
        if t == card:
            spare -= base - lcb
        if spare > bestn:
            bestn = spare
            best = t
    if best >= 0:
        return best
    if state[hand_at(p, s, LC)] - lcb > 0:
        return LC
    return -1


@leaf_kernel
def step_payment(state, p, s, card, size):
    """LC cards a placement or advance of an aircraft of ``size`` with ``card`` cards uses
    (real cards first, RULES.md D7), or -1 when the seat cannot pay. SNOW adds a card
    (RB SN): with ``snow_extra = "same"`` one more ``card`` (or LC); with ``"any"`` any
    movement card (``snow_extra_card``; an LC paying it counts in the returned LC)."""
    if p[P_SNOWANY] == 0 or state[H_WEATHER] != SN:
        return _pay(state, p, s, card, move_cost(state, p, size))
    base = p[P_MOVE1 + size - 1]
    lcb = _pay(state, p, s, card, base)
    if lcb < 0:
        return -1
    x = snow_extra_card(state, p, s, card, base, lcb)
    if x < 0:
        return -1
    return lcb + (1 if x == LC else 0)


@leaf_kernel
def can_join(state, p, r):
    """True when an aircraft may join runway r's D sequence: a D place is free (RB 'If every
    part of position D is occupied, you may not play a D card'), and, with
    ``join_held_sequence = false`` (RULES.md D18), the sequence is not held by FG / a closed
    runway (RB: 'all aircrafts hold their positions')."""
    if d_back(state, p, r) >= p[P_Q]:
        return False
    return p[P_JOINHELD] == 1 or not runway_frozen(state, r)


@leaf_kernel
def remove_to_hangar(state, p, gid):
    """An aircraft hit by FLR / DLY goes back to its hangar (RB Failure and Delay cards)."""
    K = p[P_K]
    s = gid // K
    k = gid % K
    slot = state[pos_at(p, s, k)]
    set_pos(state, p, gid, POS_HANGAR)
    state[p[P_OFF_DEICED] + s * K + k] = 0
    if slot >= p[P_D0] and slot < p[P_TO0]:
        compact(state, p, (slot - p[P_D0]) // p[P_Q])


@leaf_kernel
def dly_target_ok(p, slot):
    """RB DLY: an aircraft on A, B, C, VIP1 or VIP2."""
    return slot >= 0 and slot <= p[P_VIP2]


@leaf_kernel
def most_prepared(state, p, fleet, s, dly_only):
    """RB Exchanging (2.2.2.2): the drawer's most prepared aircraft; "If you have several
    aircrafts at the same preparation step, the largest aircraft is damaged or delayed"; then
    the lowest fleet index stands for the left-hand player's choice (RULES.md D3). With
    ``failure_target = "front"`` the D places rank front first (then size); with
    ``"largest"`` every D place is one preparation step, so the largest aircraft in D is hit
    (same size: the one nearer the front). Returns a gid or -1 when no aircraft can be hit."""
    K = p[P_K]
    best = -1
    bestv = -1
    largest = p[P_FAIL_LARGEST] == 1
    for k in range(K):
        slot = state[pos_at(p, s, k)]
        if slot < 0:
            continue
        if dly_only and not dly_target_ok(p, slot):
            continue
        if largest:
            st = stage_of(p, slot)
            sub = 63
            if slot >= p[P_D0] and slot < p[P_TO0]:
                sub = 63 - (90 - st)
                st = 90
            v = (st * 4 + fleet[s, k]) * 64 + sub
        else:
            v = stage_of(p, slot) * 4 + fleet[s, k]
        if v > bestv:
            bestv = v
            best = s * K + k
    return best


# =======================================================================================
# legal plays (RB "Playing cards")
# =======================================================================================
@leaf_kernel
def max_actions(p):
    S = p[P_S]
    K = p[P_K]
    return K * (p[P_NST] + 6) + NWEATHER + 2 * S * K + 4


@leaf_kernel
def _add(acts, n, kind, gid, arg, lc):
    acts[n, 0] = kind
    acts[n, 1] = gid
    acts[n, 2] = arg
    acts[n, 3] = lc
    return n + 1


@leaf_kernel
def _pay(state, p, s, card, need):
    """LC cards needed on top of the real ``card`` cards held, or -1 if unaffordable
    (RB Lucky Captain: LC replaces any movement card; real cards are used first)."""
    have = state[hand_at(p, s, card)]
    if have >= need:
        return 0
    lc = need - have
    if state[hand_at(p, s, LC)] >= lc:
        return lc
    return -1


@leaf_kernel
def legal_plays(state, p, fleet, acts):
    """Fill ``acts`` (int32[max_actions, 4]) with the current seat's legal plays; returns
    how many. An exchange is always possible with a non-empty hand and is not listed.

    Identical aircraft (same size, both in the hangar) give one placement each size.
    """
    S = p[P_S]
    K = p[P_K]
    s = state[H_CUR]
    n = 0
    nst = p[P_NST]
    vip_free = occ(state, p, p[P_VIP1]) < 0 and occ(state, p, p[P_VIP2]) < 0
    has_vip = state[hand_at(p, s, VIP)] > 0
    seen_hangar = 0  # bit per size placed from the hangar
    for k in range(K):
        size = fleet[s, k]
        if size == 0:
            continue
        gid = s * K + k
        slot = state[pos_at(p, s, k)]
        if slot == POS_HANGAR:
            if (seen_hangar >> size) & 1:
                continue
            seen_hangar |= 1 << size
            lc = step_payment(state, p, s, CA, size)
            if lc >= 0:
                # RB Position A / A on a stand A-C: a free A slot; A-C's A only while its C is free
                for st in range(nst):
                    a_sl = 2 * st
                    if occ(state, p, a_sl) >= 0:
                        continue
                    if not stand_ab(p, st) and occ(state, p, a_sl + 1) >= 0:
                        continue
                    n = _add(acts, n, K_PLACE, gid, st, lc)
            if has_vip and vip_free:
                n = _add(acts, n, K_VIP, gid, 0, 0)
        elif slot >= 0 and slot < 2 * nst:
            st = slot // 2
            if slot % 2 == 0:
                # RB: A -> B on an A-B stand, A -> C on an A-C stand
                card = CB if stand_ab(p, st) else CC
                if occ(state, p, slot + 1) < 0:
                    lc = step_payment(state, p, s, card, size)
                    if lc >= 0:
                        n = _add(acts, n, K_ADVANCE, gid, slot + 1, lc)
            else:
                # RB Position D (from B / from C): choose 31L or 31R; not when D is full
                # (nor, with join_held_sequence = false, when the sequence is held: D18)
                lc = step_payment(state, p, s, CD, size)
                if lc >= 0:
                    for r in range(2):
                        if can_join(state, p, r):
                            n = _add(acts, n, K_TO_D, gid, r, lc)
            # RB V.I.P.: from A, B or C as well
            if has_vip and vip_free:
                n = _add(acts, n, K_VIP, gid, 0, 0)
        elif slot >= p[P_TO0]:
            # RB Anti-Ice: one aircraft on a takeoff position, 1/2/3 AI cards by size
            if state[p[P_OFF_DEICED] + s * K + k] == 0:
                need = p[P_AI1 + size - 1]
                if state[hand_at(p, s, AI)] >= need:
                    n = _add(acts, n, K_AI, gid, 0, 0)
    # RB Change the weather: any Weather card in hand
    for c in range(SC, SC + NWEATHER):
        if state[hand_at(p, s, c)] > 0:
            n = _add(acts, n, K_WEATHER, -1, c, 0)
    # RB Damage or delay an opponent's aircraft
    has_flr = state[hand_at(p, s, FLR)] > 0
    has_dly = state[hand_at(p, s, DLY)] > 0
    if has_flr or has_dly:
        for o in range(S):
            if o == s and p[P_DLYOWN] == 0:
                continue
            for k in range(K):
                slot = state[pos_at(p, o, k)]
                if slot < 0:
                    continue
                if has_flr and o != s:
                    n = _add(acts, n, K_FLR, o * K + k, 0, 0)
                if has_dly and dly_target_ok(p, slot):
                    n = _add(acts, n, K_DLY, o * K + k, 0, 0)
    return n


@leaf_kernel
def stand_ab(p, st):
    """True when stand ``st`` is an A-B stand (A-B stands come first, then A-C stands)."""
    return st < p[P_NST] - p[P_NAC]


# =======================================================================================
# applying a play or an exchange
# =======================================================================================
@leaf_kernel
def _spend(state, p, s, card, need, lc):
    state[hand_at(p, s, card)] -= need - lc
    discard(state, p, card, need - lc)
    if lc > 0:
        state[hand_at(p, s, LC)] -= lc
        discard(state, p, LC, lc)


@leaf_kernel
def spend_step(state, p, s, card, size, lc):
    """Pay a placement or advance found legal by ``step_payment`` (``lc`` = its LC count):
    the cards go to the discard pile. Returns the number of cards paid, plus 256 x (card type
    + 1) of SNOW's extra card when ``snow_extra = "any"`` chose it (D17; for the trace)."""
    if p[P_SNOWANY] == 0 or state[H_WEATHER] != SN:
        need = move_cost(state, p, size)
        _spend(state, p, s, card, need, lc)
        return need
    base = p[P_MOVE1 + size - 1]
    lcb = _pay(state, p, s, card, base)
    x = snow_extra_card(state, p, s, card, base, lcb)
    _spend(state, p, s, card, base, lcb)
    state[hand_at(p, s, x)] -= 1
    discard(state, p, x, 1)
    return base + 1 + 256 * (x + 1)


@leaf_kernel
def join_d(state, p, gid, r):
    """Put ``gid`` behind the last aircraft of runway r's D sequence (RB Position D); with
    the 'direct_to_takeoff' reading an empty sequence sends it to the takeoff position."""
    j = d_back(state, p, r)
    if p[P_DIRECT] == 1 and j == 0 and occ(state, p, to_slot(p, r)) < 0:
        set_pos(state, p, gid, to_slot(p, r))
        return
    set_pos(state, p, gid, d_slot(p, r, j))
    compact(state, p, r)


@leaf_kernel
def apply_play(state, p, fleet, act, ev, evn):
    """Apply one legal play ``act`` (int32[4]) for the current seat; cards go to the
    discard pile (RB Playing cards)."""
    K = p[P_K]
    s = state[H_CUR]
    kind = act[0]
    gid = act[1]
    arg = act[2]
    lc = act[3]
    state[stat_at(p, s, ST_PLAYS)] += 1
    if kind == K_WEATHER:
        state[hand_at(p, s, arg)] -= 1
        set_weather(state, p, arg)
        emit(ev, evn, state[H_TURN], state[H_CUR], E_WEATHER, arg, 0, 0, 0, 0)
        return
    if kind == K_FLR or kind == K_DLY:
        card = FLR if kind == K_FLR else DLY
        state[hand_at(p, s, card)] -= 1
        discard(state, p, card, 1)
        victim = gid // K
        from_slot = state[pos_at(p, victim, gid % K)]
        remove_to_hangar(state, p, gid)
        state[stat_at(p, victim, ST_FLR if kind == K_FLR else ST_DLY)] += 1
        state[stat_at(p, s, ST_FLR_PLAYED if kind == K_FLR else ST_DLY_PLAYED)] += 1
        emit(ev, evn, state[H_TURN], state[H_CUR], E_HIT, card, gid, from_slot, 0, 0)
        return
    size = fleet[s, gid % K]
    from_slot = state[pos_at(p, s, gid % K)]
    if kind == K_AI:
        need = p[P_AI1 + size - 1]
        state[hand_at(p, s, AI)] -= need
        discard(state, p, AI, need)
        state[p[P_OFF_DEICED] + gid] = 1
        emit(ev, evn, state[H_TURN], state[H_CUR], E_DEICE, gid, need, 0, 0, 0)
        return
    if kind == K_VIP:
        state[hand_at(p, s, VIP)] -= 1
        discard(state, p, VIP, 1)
        set_pos(state, p, gid, p[P_VIP1])
        emit(ev, evn, state[H_TURN], state[H_CUR], E_PLAY, K_VIP, gid, from_slot, p[P_VIP1], 0)
        return
    if kind == K_PLACE:
        paid = spend_step(state, p, s, CA, size, lc)
        set_pos(state, p, gid, 2 * arg)
        to = 2 * arg
    elif kind == K_ADVANCE:
        card = CB if stand_ab(p, arg // 2) else CC
        paid = spend_step(state, p, s, card, size, lc)
        set_pos(state, p, gid, arg)
        to = arg
    else:  # K_TO_D
        paid = spend_step(state, p, s, CD, size, lc)
        join_d(state, p, gid, arg)
        to = state[pos_at(p, s, gid % K)]
    # event e = 256 x (SNOW extra card type + 1, 0 = none chosen) + 16 x LC + cards paid
    need = paid % 256
    emit(ev, evn, state[H_TURN], state[H_CUR], E_PLAY, kind, gid, from_slot, to, (paid - need) + lc * 16 + need)


@inline_kernel
def resolved_face_up(c):
    """RB Exchanging: True when card class ``c`` drawn face up is resolved at once and not
    kept (a Weather card, FLR or DLY)."""
    return c >= SC or c == FLR or c == DLY


@leaf_kernel
def resolve_face_up(state, p, fleet, c, ev, evn):
    """RB Exchanging: a Weather card drawn face up resolves at once; FLR / DLY hit the
    drawer's most prepared aircraft (DLY: on A, B, C, VIP1 or VIP2 only), else discarded.
    Returns True when the card was resolved (not kept: ``resolved_face_up``)."""
    if not resolved_face_up(c):
        return False
    s = state[H_CUR]
    if c >= SC:
        set_weather(state, p, c)
        emit(ev, evn, state[H_TURN], state[H_CUR], E_WEATHER, c, 1, 0, 0, 0)
        return True
    # FLR or DLY
    g = most_prepared(state, p, fleet, s, c == DLY)
    discard(state, p, c, 1)
    if g >= 0:
        from_slot = state[pos_at(p, s, g % p[P_K])]
        remove_to_hangar(state, p, g)
        state[stat_at(p, s, ST_FLR_DRAWN if c == FLR else ST_DLY_DRAWN)] += 1
        emit(ev, evn, state[H_TURN], state[H_CUR], E_HIT, c, g, from_slot, 1, 0)
    else:
        emit(ev, evn, state[H_TURN], state[H_CUR], E_HIT, c, -1, -1, 1, 0)
    return True


@leaf_kernel
def apply_exchange(state, p, fleet, disc_counts, rng, ev, evn):
    """RB Exchanging cards: discard 1-4 cards face up (``disc_counts`` int32[NCT]), then
    draw face up until as many cards are kept; weather / FLR / DLY drawn are resolved and
    replaced. Returns the number of cards short (a starved draw), normally 0."""
    s = state[H_CUR]
    need = 0
    for c in range(NCT):
        need += disc_counts[c]
    state[stat_at(p, s, ST_EXCH)] += 1
    emit(ev, evn, state[H_TURN], state[H_CUR], E_EXCHANGE, need, 0, 0, 0, 0)
    for c in range(NCT):
        k = disc_counts[c]
        if k > 0:
            state[hand_at(p, s, c)] -= k
            discard(state, p, c, k)
            emit(ev, evn, state[H_TURN], state[H_CUR], E_DISCARD, c, k, 0, 0, 0)
    kept = 0
    guard = 0
    limit = 2 * p[P_NCARDS]
    while kept < need:
        c = draw_card(state, p, rng, ev, evn)
        if c < 0 or guard > limit:
            if c >= 0:  # only resolvable cards remain in circulation: stop drawing
                discard(state, p, c, 1)
            return need - kept
        guard += 1
        if resolved_face_up(c):  # resolved at once, not kept (a call only for these)
            resolve_face_up(state, p, fleet, c, ev, evn)
        else:
            state[hand_at(p, s, c)] += 1
            kept += 1
            emit(ev, evn, state[H_TURN], state[H_CUR], E_DRAW_KEEP, c, 0, 0, 0, 0)
    return 0


@inline_kernel
def draw_face_down(state, p, rng, ev, evn):
    """RB 'draw cards from the deck, face-down' back to the hand size; every card kept.
    Returns how many cards short (starved draw)."""
    s = state[H_CUR]
    have = hand_total(state, p, s)
    while have < p[P_HAND]:
        c = draw_card(state, p, rng, ev, evn)
        if c < 0:
            return p[P_HAND] - have
        state[hand_at(p, s, c)] += 1
        have += 1
        emit(ev, evn, state[H_TURN], state[H_CUR], E_DRAW_DOWN, c, 0, 0, 0, 0)
    return 0


# =======================================================================================
# end of turn: independent aircraft movement (RB "Independent aircraft movement")
# =======================================================================================
@leaf_kernel
def takeoff_blocked(state, p, fleet, gid):
    """Reason code the weather in force stops ``gid`` taking off: 0 none, else the
    weather card type. FG / closed runway hold (the aircraft stays); SN / XW / ICE send it
    to the back of the sequence (RB Weather cards, Anti-Ice card)."""
    K = p[P_K]
    s = gid // K
    k = gid % K
    w = state[H_WEATHER]
    slot = state[pos_at(p, s, k)]
    r = slot - p[P_TO0]
    if w == FG or (w == C31L and r == 0) or (w == C31R and r == 1):
        return w
    size = fleet[s, k]
    if w == SN and size == WIDE:
        return w
    if w == XW and size == MEDIUM:
        return w
    if w == ICE and state[p[P_OFF_DEICED] + gid] == 0:
        return w
    return 0


@leaf_kernel
def end_of_turn_moves(state, p, fleet, vip_runway, rng, ev, evn):
    """Independent movement of the current seat's aircraft, each from where it stood at
    the start of the turn: takeoff position -> airborne (weather permitting), front of D
    -> takeoff position, VIP2 -> D (on runway ``vip_runway``, the policy's choice; the
    other one if that sequence is full), VIP1 -> VIP2. Both runways launch together.

    With ``forget_takeoff`` (RULES.md D13, RB Independent aircraft movement: "If the
    aircraft is clear to take off, but the player forgot to take off his/her aircraft, it
    must be placed at the end of the sequence on position D near the corresponding runway")
    an aircraft cleared for take-off is forgotten with that chance (``forgets``, ``rng``
    uint64[2], the POLICY stream; nothing drawn when the option is 0): it goes to the back of
    its runway's D sequence (``to_back_of_sequence``) instead of taking off."""
    K = p[P_K]
    s = state[H_CUR]
    st0 = p[P_OFF_START] + s * K
    # 1. takeoff position -> airborne
    for r in range(2):
        ts = to_slot(p, r)
        g = occ(state, p, ts)
        if g < 0 or g // K != s or state[st0 + g % K] != ts:
            continue
        why = takeoff_blocked(state, p, fleet, g)
        if why == 0 and forgets(p, P_FORGET_TOFF, rng):
            # RB Deck notes: "if the weather was clear, but the player forgot to take off his/her
            # aircraft, it must be placed at the end of the sequence on position D near the
            # corresponding runway" (a de-icing is spent, as by a weather stop: D10)
            state[p[P_OFF_DEICED] + g] = 0
            state[stat_at(p, s, ST_FORGOT_TOFF)] += 1
            nxt = to_back_of_sequence(state, p, g, r)
            emit(ev, evn, state[H_TURN], state[H_CUR], E_FORGOT_TAKEOFF, g, r, nxt, state[pos_at(p, s, g % K)], 0)
            continue
        if why == 0:
            set_pos(state, p, g, POS_AIRBORNE)
            state[p[P_OFF_DEICED] + g] = 0
            state[stat_at(p, s, ST_TAKEOFFS)] += 1
            emit(ev, evn, state[H_TURN], state[H_CUR], E_TAKEOFF, g, r, 0, 0, 0)
            continue
        state[stat_at(p, s, ST_BLOCKED)] += 1
        if why == FG or why == C31L or why == C31R:
            emit(ev, evn, state[H_TURN], state[H_CUR], E_BLOCKED, g, r, why, -1, 0)
            continue
        state[p[P_OFF_DEICED] + g] = 0
        nxt = occ(state, p, d_slot(p, r, 0))
        if nxt < 0:
            # RB: 'If there is not a sequence after the aircraft, it stays'
            emit(ev, evn, state[H_TURN], state[H_CUR], E_BLOCKED, g, r, why, -1, 0)
            continue
        # RB: 'moves to the end of the sequence. Its place is immediately occupied by the
        # next aircraft' (which, if also ours, does not take off this turn: it was not on
        # the takeoff position when the turn began)
        to_back_of_sequence(state, p, g, r)
        emit(ev, evn, state[H_TURN], state[H_CUR], E_BLOCKED, g, r, why, nxt, 0)
    # 2. front of D -> takeoff position
    for r in range(2):
        fs = d_slot(p, r, 0)
        g = occ(state, p, fs)
        if g < 0 or g // K != s or state[st0 + g % K] != fs:
            continue
        if runway_frozen(state, r) or occ(state, p, to_slot(p, r)) >= 0:
            continue
        set_pos(state, p, g, to_slot(p, r))
        compact(state, p, r)
        emit(ev, evn, state[H_TURN], state[H_CUR], E_AUTO, g, fs, to_slot(p, r), 0, 0)
    # 3. VIP2 -> D
    v2 = p[P_VIP2]
    g = occ(state, p, v2)
    if g >= 0 and g // K == s and state[st0 + g % K] == v2:
        # RB VIP2: 'If all positions at point D are occupied, your aircraft can not leave
        # VIP2'; with join_held_sequence = false a held sequence takes no one either (D18)
        b0 = d_back(state, p, 0)
        b1 = d_back(state, p, 1)
        ok0 = can_join(state, p, 0)
        ok1 = can_join(state, p, 1)
        r = vip_runway
        if r < 0 or not can_join(state, p, r):
            r = -1
            if ok0 and (b0 <= b1 or not ok1):
                r = 0
            elif ok1:
                r = 1
        if r >= 0:
            join_d(state, p, g, r)
            emit(ev, evn, state[H_TURN], state[H_CUR], E_AUTO, g, v2, state[pos_at(p, s, g % K)], 0, 0)
    # 4. VIP1 -> VIP2
    v1 = p[P_VIP1]
    g = occ(state, p, v1)
    if g >= 0 and g // K == s and state[st0 + g % K] == v1 and occ(state, p, v2) < 0:
        set_pos(state, p, g, v2)
        emit(ev, evn, state[H_TURN], state[H_CUR], E_AUTO, g, v1, v2, 0, 0)


@leaf_kernel
def all_airborne(state, p, s):
    K = p[P_K]
    for k in range(K):
        v = state[pos_at(p, s, k)]
        if v != POS_NONE and v != POS_AIRBORNE:
            return False
    return True


@leaf_kernel
def finish_turn(state, p, ev, evn):
    """Record a finish (RB Welcome: the first airline with every aircraft airborne wins;
    play continues until one airline remains), then pass the turn clockwise to the next
    airline still on the airfield."""
    S = p[P_S]
    s = state[H_CUR]
    state[H_TURN] += 1
    if state[p[P_OFF_RANK] + s] == 0 and all_airborne(state, p, s):
        state[H_NFIN] += 1
        state[p[P_OFF_RANK] + s] = state[H_NFIN]
        emit(ev, evn, state[H_TURN], state[H_CUR], E_FINISH, s, state[H_NFIN], 0, 0, 0)
        if state[H_NFIN] == 1:
            state[H_WINNER] = s
            state[H_WINNER_TURN] = state[H_TURN]
        if p[P_FINHAND] == 1:  # RULES.md D12 option: a finished airline's hand is discarded
            for c in range(NCT):
                k = state[hand_at(p, s, c)]
                if k > 0:
                    discard(state, p, c, k)
                    state[hand_at(p, s, c)] = 0
        if p[P_PLAYOUT] == 0 or state[H_NFIN] >= S - 1:
            if state[H_NFIN] == S - 1:
                for o in range(S):
                    if state[p[P_OFF_RANK] + o] == 0:
                        state[p[P_OFF_RANK] + o] = S
            state[H_DONE] = 1
            return
    nxt = s
    for i in range(1, S + 1):
        o = (s + i) % S
        if state[p[P_OFF_RANK] + o] == 0:
            nxt = o
            break
    state[H_CUR] = nxt


# =======================================================================================
# hidden information (RULES.md Policies: the rollout's re-deal)
# =======================================================================================
@kernel
def redeal(state, p, seat, rng):
    """Re-deal everything ``seat`` cannot see, for one look-ahead simulation (RULES.md
    Policies, ``rollout``): the draw pile's order and every opponent's hand. The pool of
    those cards is laid out in a canonical order (by card type), shuffled with the CHANCE
    stream of ``rng`` (uint64[2], the simulation's own streams), and dealt back into the
    same places with the same sizes: each opponent gets its hand size back, the rest is the
    draw pile (``H_DECK_N`` unchanged). Public pieces stay: ``seat``'s own hand, the discard
    pile (RB: discards and exchanges are face up), the weather, the board. Cards an opponent
    drew face up in an exchange (RB Exchanging cards) are public too, but are pooled here
    (the player forgets them: it never uses more than it saw). So the result depends only on
    what ``seat`` sees: any permutation of the deck or of cards between opponents' hands
    (keeping their sizes) gives the same re-dealt state for the same ``rng``."""
    S = p[P_S]
    d0 = p[P_OFF_DECK]
    cnt = np.zeros(NCT, np.int64)
    nd = state[H_DECK_N]
    for i in range(nd):
        cnt[state[d0 + i]] += 1
    for o in range(S):
        if o == seat:
            continue
        for c in range(NCT):
            cnt[c] += state[hand_at(p, o, c)]
    m = 0
    for c in range(NCT):
        for _ in range(cnt[c]):
            state[d0 + m] = c
            m += 1
    shuffle(state, d0, d0 + m, rng, CHANCE)
    # deal the opponents' hands back from the top of the pool (its end), seat order
    top = m
    for o in range(S):
        if o == seat:
            continue
        h = 0
        for c in range(NCT):
            h += state[hand_at(p, o, c)]
            state[hand_at(p, o, c)] = 0
        for _ in range(h):
            top -= 1
            state[hand_at(p, o, state[d0 + top])] += 1
    state[H_DECK_N] = top


# =======================================================================================
# invariants
# =======================================================================================
@kernel
def check_invariants(state, p, fleet):
    """0 when the state is consistent, else the first violated ``layout.V_*`` code:
    V_CARDS (every card in exactly one place: hands, deck, discard, weather),
    V_AIRCRAFT_SLOT, V_SLOT_TWICE, V_NEG_HAND, V_D_GAP (a gap while the runway is not held),
    V_HAND_SIZE, V_RANKED_ON_FIELD (a ranked airline with an aircraft on the airfield)."""
    S = p[P_S]
    K = p[P_K]
    tot = state[H_DECK_N] + state[H_DISC_N] + state[H_WCARD]
    for s in range(S):
        for c in range(NCT):
            v = state[hand_at(p, s, c)]
            if v < 0:
                return V_NEG_HAND
            tot += v
        if hand_total(state, p, s) > p[P_HAND]:
            return V_HAND_SIZE
    if tot != p[P_NCARDS]:
        return V_CARDS
    seen = np.zeros(p[P_NSLOT], np.int32)
    for s in range(S):
        for k in range(K):
            slot = state[pos_at(p, s, k)]
            if (fleet[s, k] == 0) != (slot == POS_NONE):
                return V_AIRCRAFT_SLOT
            if slot >= 0:
                seen[slot] += 1
                if seen[slot] > 1:
                    return V_SLOT_TWICE
                if occ(state, p, slot) != s * K + k:
                    return V_AIRCRAFT_SLOT
    for sl in range(p[P_NSLOT]):
        g = occ(state, p, sl)
        if g >= 0 and seen[sl] != 1:
            return V_AIRCRAFT_SLOT
    for r in range(2):
        if not runway_frozen(state, r):
            gap = False
            for j in range(p[P_Q]):
                g = occ(state, p, d_slot(p, r, j))
                if g < 0:
                    gap = True
                elif gap:
                    return V_D_GAP
    for s in range(S):
        rk = state[p[P_OFF_RANK] + s]
        if rk > 0 and rk < S and not all_airborne(state, p, s):
            return V_RANKED_ON_FIELD
    return 0
