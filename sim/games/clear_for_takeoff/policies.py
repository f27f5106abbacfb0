"""Clear for Takeoff policies: integer id + float weight vector, one @kernel dispatcher.

* ``random`` (POL_RANDOM): uniform over the legal plays plus one "exchange" option; an exchange
  discards 1 to 4 cards drawn at random from the hand.
* ``greedy`` (POL_GREEDY): a solitaire racer's rule of thumb. First unblock its own aircraft on a
  takeoff position (anti-ice under ICE, a Weather card that lets it go); else advance the
  most prepared aircraft it can (D before B/C before VIP before a new placement), spending
  real cards before Lucky Captains; else exchange the cards its fleet cannot use. It never
  plays FLR / DLY or hostile weather.
* ``heuristic`` (POL_HEURISTIC): scores every legal play with named weights (progress, lead,
  wild-card cost, attack, leader focus, weather, VIP, exchange threshold) and plays the
  best, exchanging when no play scores above ``exchange``. It attacks and uses weather.

Greedy and heuristic score with one function, ``score_play`` (an exchange scores
``exchange_score``): ``select`` plays the best, and the engine's ``temperature`` softmaxes over
the same scores (``score_options``, the ``scores`` hook; docs/mistakes.md).

Every policy draws its randomness (tie-breaks, the random policy) from the POLICY stream,
so the deal never depends on the policy. Ids (``POL_*``), weight indices (``W_*``, in the
order of ``data.HEURISTIC_WEIGHTS``) and ``POLICIES`` are in ``layout.py``.
"""

from __future__ import annotations

from sim.games.clear_for_takeoff.layout import (
    AI,
    CA,
    CB,
    CC,
    CD,
    CH_EXCHANGE,
    CH_PASS,
    DLY,
    FLR,
    H_CUR,
    H_WEATHER,
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
    NCT,
    NWEATHER,
    P_AI1,
    P_D0,
    P_EXMAX,
    P_K,
    P_MOVE1,
    P_Q,
    P_TO0,
    P_VIP1,
    P_VIP2,
    POL_GREEDY,
    POL_HEURISTIC,
    POL_RANDOM,
    POS_AIRBORNE,
    POS_HANGAR,
    SC,
    SN,
    VIP,
    W_ATTACK,
    W_EXCHANGE,
    W_LEAD,
    W_LEADER_FOCUS,
    W_PROGRESS,
    W_VIP,
    W_WEATHER,
    W_WILD_COST,
)
from sim.games.clear_for_takeoff.rules import (
    d_back,
    hand_at,
    hand_total,
    occ,
    pos_at,
    runway_frozen,
    stand_ab,
    takeoff_blocked,
    to_slot,
)
from sim.games.engine import inline_kernel, leaf_kernel
from sim.rng import POLICY, randint


@inline_kernel
def whole_steps(p, slot):
    """The whole preparation steps an aircraft at position code ``slot`` has completed, in the
    slot order of the spec (stands A / B-C alternating, VIP1, VIP2, D, takeoff): hangar 0, A 1,
    B / C and the VIP lane 2, D 3, takeoff position 4, airborne 5; int."""
    if slot >= p[P_D0]:
        return 4 if slot >= p[P_TO0] else 3
    if slot >= p[P_VIP1]:
        return 2
    if slot >= 0:
        return 1 + (slot & 1)
    return 5 if slot == POS_AIRBORNE else 0


@leaf_kernel
def units(p, slot):
    """Progress in steps: hangar 0, A 1, B/C 2, VIP1 2, VIP2 2.5, D 3, takeoff 4, airborne 5
    (``whole_steps``, VIP2 a half step on)."""
    if slot == p[P_VIP2]:
        return 2.5
    return float(whole_steps(p, slot))


@leaf_kernel
def card_needs(state, p, fleet, s, need):
    """Fill ``need`` (int32[NCT]) with how many of each card the seat's fleet still uses
    (movement cards by remaining steps at base cost; an aircraft in the hangar counts half
    its cost for each of B and C, since its stand decides which; VIP for aircraft not yet
    past B/C; AI up to the largest cost)."""
    K = p[P_K]
    need[:] = 0
    for k in range(K):
        size = fleet[s, k]
        if size == 0:
            continue
        slot = state[pos_at(p, s, k)]
        cost = p[P_MOVE1 + size - 1]
        if slot == POS_HANGAR:
            # which of B or C it will need depends on the stand it gets: half of each
            need[CA] += cost
            need[CB] += (cost + 1) // 2
            need[CC] += (cost + 1) // 2
            need[CD] += cost
            need[VIP] += 1
        elif slot >= 0 and slot < p[P_VIP1]:
            if slot % 2 == 0:
                need[CB if stand_ab(p, slot // 2) else CC] += cost
                need[VIP] += 1
            need[CD] += cost
        if slot != POS_AIRBORNE:
            a = p[P_AI1 + size - 1]
            if a > need[AI]:
                need[AI] = a
    need[SC] = 1


@leaf_kernel
def choose_exchange(state, p, fleet, s, keep_attacks, disc, need, force):
    """Fill ``disc`` (int32[NCT]) with up to exchange-max cards the seat cannot use; with
    ``force`` at least one card (the most surplus). Returns the number of cards chosen."""
    card_needs(state, p, fleet, s, need)
    disc[:] = 0
    n = 0
    mx = p[P_EXMAX]
    # hostile cards first, then surplus movement / VIP / AI cards
    for c in range(NCT):
        if n >= mx:
            break
        have = state[hand_at(p, s, c)]
        if c == LC or have == 0:
            continue
        if c == FLR or c == DLY or (c > SC and c < SC + NWEATHER):
            if keep_attacks:
                continue
            k = min(have, mx - n)
        else:
            k = min(max(have - need[c], 0), mx - n)
        disc[c] += k
        n += k
    if n == 0 and force:
        best = -1
        bestv = -1000
        for c in range(NCT):
            have = state[hand_at(p, s, c)]
            if have == 0:
                continue
            v = have - need[c] - (100 if c == LC else 0)
            if v > bestv:
                bestv = v
                best = c
        if best >= 0:
            disc[best] = 1
            n = 1
    return n


@leaf_kernel
def random_exchange(state, p, s, disc, rng):
    """Discard a uniform 1..min(exchange max, hand) cards chosen one by one at random."""
    disc[:] = 0
    h = hand_total(state, p, s)
    k = 1 + randint(rng, POLICY, min(p[P_EXMAX], h))
    for _ in range(k):
        left = h
        for c in range(NCT):
            left -= disc[c]
        r = randint(rng, POLICY, left)
        for c in range(NCT):
            avail = state[hand_at(p, s, c)] - disc[c]
            if r < avail:
                disc[c] += 1
                break
            r -= avail
    return k


@leaf_kernel
def _unblock_gain(state, p, fleet, s, new_weather, opp_weight):
    """Own aircraft (minus ``opp_weight`` x opponents') on a takeoff position that would
    take off under ``new_weather`` but not under the weather now."""
    K = p[P_K]
    old = state[H_WEATHER]
    gain = 0.0
    for r in range(2):
        g = occ(state, p, to_slot(p, r))
        if g < 0:
            continue
        b_now = takeoff_blocked(state, p, fleet, g) != 0
        state[H_WEATHER] = new_weather
        b_new = takeoff_blocked(state, p, fleet, g) != 0
        state[H_WEATHER] = old
        d = (1.0 if b_now else 0.0) - (1.0 if b_new else 0.0)
        if g // K == s:
            gain += d
        else:
            gain -= opp_weight * d
    return gain


@leaf_kernel
def airborne_share(state, p, fleet, o):
    K = p[P_K]
    n = 0
    a = 0
    for k in range(K):
        if fleet[o, k] > 0:
            n += 1
            if state[pos_at(p, o, k)] == POS_AIRBORNE:
                a += 1
    return a / max(n, 1)


@inline_kernel
def score_play(state, p, fleet, kind, gid, arg, lc, pid, w):
    """Score of the legal play (kind, gid, arg, lc) for greedy (POL_GREEDY) or
    heuristic (POL_HEURISTIC); higher is better; a negative greedy score means 'do not play'."""
    K = p[P_K]
    s = state[H_CUR]
    if kind == K_WEATHER:
        if pid == POL_GREEDY:
            return 500.0 if _unblock_gain(state, p, fleet, s, arg, 0.0) > 0 else -1.0
        g = _unblock_gain(state, p, fleet, s, arg, 0.5)
        if arg == SC and state[H_WEATHER] == SN:
            g += 0.25
        return w[W_WEATHER] * g
    if kind == K_AI:
        useful = state[H_WEATHER] == ICE
        if pid == POL_GREEDY:
            return 400.0 if useful else -1.0
        return w[W_WEATHER] if useful else -1.0
    if kind == K_FLR or kind == K_DLY:
        if pid == POL_GREEDY:
            return -1.0
        o = gid // K
        slot = state[pos_at(p, o, gid % K)]
        v = units(p, slot) * fleet[o, gid % K] / 2.0
        return w[W_ATTACK] * v * (1.0 + w[W_LEADER_FOCUS] * airborne_share(state, p, fleet, o))
    size = fleet[s, gid % K]
    slot = state[pos_at(p, s, gid % K)]
    u = units(p, slot)
    if kind == K_VIP:
        steps = 3.0 if slot == POS_HANGAR else (2.0 if slot % 2 == 0 else 1.0)
        saved = steps * p[P_MOVE1 + size - 1]
        if pid == POL_GREEDY:
            return 150.0 + 10.0 * saved
        return w[W_VIP] * saved / 3.0 + w[W_LEAD] * u + w[W_PROGRESS] * (2.0 - u)
    runway = 0.0
    if kind == K_TO_D:
        r = arg
        runway = 0.1 * d_back(state, p, r) + (1.0 if runway_frozen(state, r) else 0.0)
    fit = 0.0
    if kind == K_PLACE:
        # a stand whose next step the hand can already pay for is the better stand
        nxt = CB if stand_ab(p, arg) else CC
        if state[hand_at(p, s, nxt)] > 0:
            fit = 0.5
        if not stand_ab(p, arg) or occ(state, p, 2 * arg + 1) < 0:
            fit += 0.25
    if pid == POL_GREEDY:
        base = 300.0 if kind == K_TO_D else (200.0 if kind == K_ADVANCE else 100.0)
        return base + 3.0 * size - 10.0 * lc - runway + 4.0 * fit
    return w[W_PROGRESS] + w[W_LEAD] * u - w[W_WILD_COST] * lc / (p[P_MOVE1 + size - 1] + 1.0) - runway + 0.2 * fit


@leaf_kernel
def choose_runway(state, p, pid, rng):
    """Runway for an aircraft leaving VIP2: random picks either open sequence; the others
    take the shorter sequence, avoiding one held by FG / a closed runway."""
    Q = p[P_Q]
    b0 = d_back(state, p, 0)
    b1 = d_back(state, p, 1)
    if pid == POL_RANDOM:
        if b0 < Q and b1 < Q:
            return randint(rng, POLICY, 2)
        return 0 if b0 < Q else 1
    v0 = b0 + (10 if runway_frozen(state, 0) else 0) + (100 if b0 >= Q else 0)
    v1 = b1 + (10 if runway_frozen(state, 1) else 0) + (100 if b1 >= Q else 0)
    return 0 if v0 <= v1 else 1


@inline_kernel
def exchange_score(pid, w):
    """The score of an exchange beside the plays ``score_play`` scores: greedy 0 (it plays
    only a play scoring above 0), heuristic its ``exchange`` weight (``select`` exchanges when
    no play scores above it)."""
    return 0.0 if pid == POL_GREEDY else w[W_EXCHANGE]


@inline_kernel
def policy_exchange(state, p, fleet, s, pid, w, disc, need):
    """Fill ``disc`` with the exchange policy ``pid`` makes (``choose_exchange``: the heuristic
    keeps its attack cards when it attacks; at least one card); returns CH_EXCHANGE."""
    choose_exchange(state, p, fleet, s, pid == POL_HEURISTIC and w[W_ATTACK] > 0, disc, need, True)
    return CH_EXCHANGE


@leaf_kernel
def score_options(state, p, fleet, pid, w, acts, n, out):
    """The engine's ``scores`` hook for greedy and heuristic: ``score_play`` of each of the
    ``n`` legal plays into ``out[:n]`` (float64[>= n + 1]), then, when the hand holds a card,
    the exchange (``exchange_score``) into ``out[n]``; returns the options scored, or 0 for
    another policy or a decision with one option at most (the policy's own ``select`` decides:
    a pass, or the only play or exchange). Option n is the exchange (``hooks.scored_choice``)."""
    if pid != POL_GREEDY and pid != POL_HEURISTIC:
        return 0
    h = hand_total(state, p, state[H_CUR])
    m = n + (1 if h > 0 else 0)
    if m <= 1:
        return 0
    for i in range(n):
        out[i] = score_play(state, p, fleet, acts[i, 0], acts[i, 1], acts[i, 2], acts[i, 3], pid, w)
    if h > 0:
        out[n] = exchange_score(pid, w)
    return m


@leaf_kernel
def select(state, p, fleet, pid, w, acts, n, disc, need, rng):
    """The current seat's choice: an index into ``acts[:n]`` (a play), CH_EXCHANGE (an
    exchange, ``disc`` int32[NCT] filled with the cards to discard) or CH_PASS (empty hand
    and no play)."""
    s = state[H_CUR]
    h = hand_total(state, p, s)
    if pid == POL_RANDOM:
        m = n + (1 if h > 0 else 0)
        if m == 0:
            return CH_PASS
        i = randint(rng, POLICY, m)
        if i < n:
            return i
        random_exchange(state, p, s, disc, rng)
        return CH_EXCHANGE
    best = -1
    bestv = -1e18
    ties = 1
    for i in range(n):
        v = score_play(state, p, fleet, acts[i, 0], acts[i, 1], acts[i, 2], acts[i, 3], pid, w)
        if v > bestv:
            bestv = v
            best = i
            ties = 1
        elif v == bestv:
            # uniform choice among equal best plays (reservoir sampling on the POLICY stream)
            ties += 1
            if randint(rng, POLICY, ties) == 0:
                best = i
    if best >= 0 and bestv > exchange_score(pid, w):
        return best
    if h == 0:
        return best if best >= 0 else CH_PASS
    return policy_exchange(state, p, fleet, s, pid, w, disc, need)
