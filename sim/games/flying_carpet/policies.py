"""Flying Carpet policies: ``@kernel`` choosers dispatched on the integer policy id.

* ``random``: uniform over the legal rows (POLICY stream); die "move_clouds": up to eight
  random proposals (cloud, anchor), the first one ``rules.cloud_move_ok`` allows, else keep.
* ``greedy``: the row whose end cell is nearest the finish by the spec's wind-aware
  distance (``policy_map``; blown off = the start's distance + 1); a token only when it
  saves more than 0.6 turn; blocks rather than forces; a drift exchanges a card; never
  moves clouds; swaps with the carpet nearest the finish; hops to the nearest cell.
* ``heuristic``: a weighted score (weights ``W_*``, defaults ``data.HEURISTIC_WEIGHTS``)::

      score = - distance * dist(end)
              - token_keep / tokens held          (when the row spends a token)
              + block_leader * gain               (landing on the opponent nearest the finish:
                                                   block = 1 turn, force = the distance it loses)
              + star                              (ending on a free star)
              - edge_risk                         (the wind alone would blow it off next turn)
              + 0.01 + 0.1 * exchange * weakness  (a drift exchanges the hand's weakest card;
                                                   weakness <= 3 turns: a tie-break among drifts)

  Clouds: puts a cloud just in front of the leading opponent when the rules allow it.

Greedy and heuristic score their rows with one function, ``row_score``: ``select`` plays the
first best, and the engine's ``temperature`` softmaxes over the same scores (``score_rows``, the
``scores`` hook; docs/mistakes.md). The cloud move is a rule, not scored (never softened).

Policies read only what a player at the table sees (positions, the board, own hand and
tokens; the deck's composition, which is printed on the cards, for the distance map; never
the order of the face-down stack or another player's hand). The distance map is that of the
city as built, recomputed from the board (``map_into``) the first time a carpet stays put
after a cloud moved (RULES.md "Policies")."""

from __future__ import annotations

import numpy as np

from sim.games.engine import inline_kernel, kernel, leaf_kernel
from sim.games.flying_carpet.layout import (
    A_A,
    A_C,
    A_END,
    A_FLAGS,
    A_KIND,
    A_LAND,
    END_BLOWN,
    F_FINISH,
    F_LAND,
    F_STAR,
    H_CUR,
    H_PHASE,
    K_CARD,
    K_DRIFT,
    K_TOKEN,
    KO_DY,
    KO_HC,
    KO_ORDER,
    KO_VALID,
    LAND_FORCE,
    NCELL,
    P_FINISH,
    P_FORCED_ARRIVES,
    P_HAND,
    P_NPC,
    P_OFF_POS,
    P_OFF_RANK,
    P_OFF_SCEN,
    P_OFF_TOK,
    P_S,
    P_START,
    P_STATE_SIZE,
    PH_SWAP,
    PI_KIND,
    PK_CLOUD,
    POL_GREEDY,
    POL_HEURISTIC,
    POL_RANDOM,
    T_NONE,
    W_BLOCK_LEADER,
    W_DISTANCE,
    W_EDGE_RISK,
    W_EXCHANGE,
    W_STAR,
    W_TOKEN_KEEP,
    W,
)
from sim.games.flying_carpet.rules import cloud_move_ok, drift_end, fly, sink_cell
from sim.rng import POLICY, randint

FINISH_VALUE = -1000.0
"""dist of a row that lands on the finish: better than any other."""
GEO_SHARE = 0.05
"""Weight of the spec's geometric distance in the policy map (breaks ties between cells the
same number of turns from the finish)."""
UNREACHED = 99.0
FORCED_ON_FINISH = 2.0
"""D9 ``forced_finish = "exact"``: the map's value of the finish for a carpet standing on it
unfinished (forced down there): one move away and one back."""


@kernel
def policy_map(spec):
    """float64[NCELL]: the policies' wind-aware distance of every cell to the finish: the
    fewest turns a carpet needs when every card kind of the deck were in its hand (each turn
    one option of one card, as ``rules.fly`` flies it, or a drift, ``rules.drift_end``;
    blown-off moves count as no progress), plus GEO_SHARE times the spec's geometric
    distance (``spec.distance_map``). Shortest paths over the city as built, computed once
    per batch (the engine's ``hooks.shared``); the turn's tail (``hooks.end_turn``) recomputes it from the board
    (``map_into``) when a carpet stays put after a cloud was moved. Not a rule."""
    d = np.empty(NCELL)
    map_into(spec, spec[1], d)
    return d


@kernel
def map_into(spec, scen, d):
    """Write ``policy_map`` of the scenery map ``scen`` (int32[NCELL]) into ``d``."""
    p, card_kind, kopt, geo = spec[0], spec[5], spec[6], spec[7]
    state = np.zeros(p[P_STATE_SIZE], np.int32)
    for c in range(NCELL):
        state[p[P_OFF_SCEN] + c] = scen[c]
    have = np.zeros(kopt.shape[0], np.bool_)
    for i in range(card_kind.shape[0]):
        have[card_kind[i]] = True
    # every distinct move vector of the deck
    mv = np.zeros((kopt.shape[0] * 4, 3), np.int64)
    m = 0
    for k in range(kopt.shape[0]):
        if not have[k]:
            continue
        for o in range(4):
            if kopt[k, o, KO_VALID] == 0:
                continue
            mv[m, 0] = kopt[k, o, KO_ORDER]
            mv[m, 1] = kopt[k, o, KO_DY]
            mv[m, 2] = kopt[k, o, KO_HC]
            m += 1
    # the forward moves of every free cell, then a breadth-first search backwards from the
    # finish (every move costs one turn: the fewest turns, as value iteration would give)
    fin = p[P_FINISH]
    ends = np.full((NCELL, m + 1), -1, np.int64)
    cnt = np.zeros(NCELL + 1, np.int64)
    for c in range(NCELL):
        if c == fin or scen[c] != 0:
            continue
        for j in range(m):
            e = fly(state, spec, c, mv[j, 0], mv[j, 1], mv[j, 2])
            if e >= 0 and e != c:
                ends[c, j] = e
                cnt[e + 1] += 1
        e = drift_end(state, spec, c)
        if e >= 0 and e != c:
            ends[c, m] = e
            cnt[e + 1] += 1
    for c in range(NCELL):
        cnt[c + 1] += cnt[c]
    fill = cnt[:NCELL].copy()
    pred = np.empty(max(cnt[NCELL], 1), np.int64)
    for c in range(NCELL):
        for j in range(m + 1):
            e = ends[c, j]
            if e >= 0:
                pred[fill[e]] = c
                fill[e] += 1
    d[:] = UNREACHED
    d[fin] = 0.0
    queue = np.empty(NCELL, np.int64)
    qh = 0
    qt = 1
    queue[0] = fin
    while qh < qt:
        e = queue[qh]
        qh += 1
        for k in range(cnt[e], cnt[e + 1]):
            c = pred[k]
            if d[c] == UNREACHED:
                d[c] = d[e] + 1.0
                queue[qt] = c
                qt += 1
    for c in range(NCELL):
        if d[c] < UNREACHED:
            d[c] += GEO_SHARE * geo[c]
    if p[P_FORCED_ARRIVES] == 0:
        # D9 "exact": a carpet forced down onto the finish has not arrived; standing there it
        # needs a move away and one back (no move ends on the finish without finishing)
        d[fin] = FORCED_ON_FINISH


@inline_kernel
def end_dist(spec, dist, row):
    """Distance (``policy_map`` ``dist``) of a row's end: the finish FINISH_VALUE, blown off
    the start's + 1."""
    p = spec[0]
    if row[A_FLAGS] & F_FINISH:
        return FINISH_VALUE
    if row[A_END] == END_BLOWN:
        return dist[p[P_START]] + 1.0
    return dist[row[A_END]]


@inline_kernel
def leader(state, spec, dist, s):
    """The flying opponent of ``s`` nearest the finish (by ``dist``), -1 when none."""
    p = spec[0]
    best = -1
    bd = 1e18
    for t in range(p[P_S]):
        if t != s and state[p[P_OFF_RANK] + t] == 0:
            d = dist[state[p[P_OFF_POS] + t]]
            if d < bd:
                bd = d
                best = t
    return best


@inline_kernel
def uses_token(row):
    """True when the row spends a steering token."""
    return row[A_KIND] == K_TOKEN or (row[A_KIND] == K_CARD and row[A_C] != T_NONE)


@inline_kernel
def greedy_score(state, spec, dist, row):
    """Greedy: minus the end distance, a token costs 0.6 turn, forcing 0.001 (prefer blocking);
    a drift exchanges a card (+0.01), so a stuck hand changes."""
    v = -end_dist(spec, dist, row)
    if uses_token(row):
        v -= 0.6
    if row[A_LAND] == LAND_FORCE:
        v -= 0.001
    if row[A_KIND] == K_DRIFT and row[A_A] >= 0:
        v += 0.01   # drifting means no card helped: exchange one (the first kind in hand)
    return v


@inline_kernel
def prepare(state, spec, dist, pid, w, acts, n, fw):
    """What ``row_score`` needs of the whole row set: for ``heuristic`` ``fw[j]`` (j < HAND)
    the best card score of hand slot j (an empty slot: the best of all - 3) and ``fw[HAND]``
    the best of all; returns the flying opponent nearest the finish (``leader``; -1 for the
    other policies). ``fw`` float64[HAND + 1]. Any id but random / greedy scores as the
    heuristic."""
    p = spec[0]
    HAND = p[P_HAND]
    if pid == POL_RANDOM or pid == POL_GREEDY or state[H_PHASE] == PH_SWAP:
        return -1
    for j in range(HAND):
        fw[j] = -1e9
    ball = -1e9
    for i in range(n):
        if acts[i, A_KIND] == K_CARD:
            if acts[i, A_FLAGS] & F_FINISH:
                v = -w[W_DISTANCE] * FINISH_VALUE
            elif acts[i, A_END] == END_BLOWN:
                v = -w[W_DISTANCE] * (dist[p[P_START]] + 1.0)
            else:
                v = -w[W_DISTANCE] * dist[acts[i, A_END]]
            j = acts[i, A_A]
            if v > fw[j]:
                fw[j] = v
            if v > ball:
                ball = v
    for j in range(HAND):
        if fw[j] < -1e8:
            fw[j] = ball - 3.0
    fw[HAND] = ball
    return leader(state, spec, dist, state[H_CUR])


@inline_kernel
def row_score(state, spec, dist, pid, w, acts, i, fw, ld):
    """Score of row ``i`` of ``acts`` under policy ``pid`` (higher is better; ``fw``, ``ld``:
    ``prepare``'s output). Die "swap": minus the distance of the carpet swapped with;
    ``greedy``: ``greedy_score``; ``heuristic``: the module docstring's weighted score;
    ``random``: 0 (every row alike)."""
    if pid == POL_RANDOM:
        return 0.0
    if state[H_PHASE] == PH_SWAP:  # swap with the carpet nearest the finish
        return -dist[acts[i, A_END]]
    if pid == POL_GREEDY:
        return greedy_score(state, spec, dist, acts[i])
    p = spec[0]
    zone = spec[9]
    s = state[H_CUR]
    fin = p[P_FINISH]
    tok = max(1, state[p[P_OFF_TOK] + s])
    wd = w[W_DISTANCE]
    ball = fw[p[P_HAND]]
    flags = acts[i, A_FLAGS]
    end = acts[i, A_END]
    kind = acts[i, A_KIND]
    if flags & F_FINISH:
        d = FINISH_VALUE
    elif end == END_BLOWN:
        d = dist[p[P_START]] + 1.0
    else:
        d = dist[end]
    v = -wd * d
    if kind == K_TOKEN or (kind == K_CARD and acts[i, A_C] != T_NONE):
        v -= w[W_TOKEN_KEEP] / tok
    if flags & F_LAND:
        lead = ld >= 0 and state[p[P_OFF_POS] + ld] == end
        share = 1.0 if lead else 0.3
        if acts[i, A_LAND] == LAND_FORCE:
            to = sink_cell(state, spec, end)
            gain = dist[to] - dist[end]
            if to == fin and p[P_FORCED_ARRIVES] == 1:
                gain = -10.0
        else:
            gain = 1.0
        v += w[W_BLOCK_LEADER] * share * gain
    if flags & F_STAR:
        v += w[W_STAR]
    if end >= 0 and not (flags & F_FINISH):
        if end % W + zone[end // W] >= W:
            v -= w[W_EDGE_RISK]
    if kind == K_DRIFT and acts[i, A_A] >= 0:
        weak = ball - fw[acts[i, A_A]]
        if weak > 3.0:
            weak = 3.0
        v += 0.01 + 0.1 * w[W_EXCHANGE] * weak   # a tie-break among drifts, never worth a move
    return v


@leaf_kernel
def select(state, spec, dist, pid, w, acts, n, rng, fw):
    """Index of the row (of ``acts[:n]``, n >= 1) the policy ``pid`` plays; ``dist`` the
    ``policy_map``; ``w`` its weights float64[N_WEIGHTS]; ``fw`` float64 scratch of at least
    HAND + 1 entries. ``random`` draws uniformly (POLICY stream); the others play the first
    row of the highest ``row_score``."""
    if n == 1:
        return 0
    if pid == POL_RANDOM:
        return randint(rng, POLICY, n)
    ld = prepare(state, spec, dist, pid, w, acts, n, fw)
    best = 0
    bv = -1e18
    for i in range(n):
        v = row_score(state, spec, dist, pid, w, acts, i, fw, ld)
        if v > bv:
            bv = v
            best = i
    return best


@leaf_kernel
def score_rows(state, spec, dist, pid, w, acts, n, fw, out):
    """The engine's ``scores`` hook: ``row_score`` of each of the ``n`` rows into ``out``
    (float64[>= n]) for greedy and heuristic, the scores ``select`` takes the first best of;
    returns the rows scored, n, or 0 (another policy, or a single row). ``fw`` as ``select``."""
    if n <= 1 or (pid != POL_GREEDY and pid != POL_HEURISTIC):
        return 0
    ld = prepare(state, spec, dist, pid, w, acts, n, fw)
    for i in range(n):
        out[i] = row_score(state, spec, dist, pid, w, acts, i, fw, ld)
    return n


@leaf_kernel
def choose_cloud(state, spec, dist, pid, w, rng, work):
    """Die "move_clouds": (piece, anchor) of the cloud move the policy makes, or (-1, -1) to
    keep the clouds. Every proposal is checked with ``rules.cloud_move_ok``."""
    p, pinfo = spec[0], spec[3]
    NPC = p[P_NPC]
    if pid == POL_GREEDY or NPC == 0:
        return -1, -1
    if pid == POL_RANDOM:
        for _ in range(8):
            i = randint(rng, POLICY, NPC)
            if pinfo[i, PI_KIND] != PK_CLOUD:
                continue
            c = randint(rng, POLICY, NCELL)
            if cloud_move_ok(state, spec, i, c, work):
                return i, c
        return -1, -1
    s = state[H_CUR]
    ld = leader(state, spec, dist, s)
    if ld < 0:
        return -1, -1
    lc = state[p[P_OFF_POS] + ld]
    lx = lc % W
    ly = lc // W
    for i in range(NPC):
        if pinfo[i, PI_KIND] != PK_CLOUD:
            continue
        for dy in (0, -1, 1):
            x = lx + 1
            y = ly + dy
            if x >= W or y < 0:
                continue
            c = y * W + x
            if cloud_move_ok(state, spec, i, c, work):
                return i, c
    return -1, -1
