"""Compile a validated config into the spec the kernels read: the 1-tuple ``(K,)`` of the flat
int64[SPEC_SIZE] array (layout P_*), plus every feasibility check (ConfigError)."""

from __future__ import annotations

import numpy as np

import sim.games.now_boarding.data as data
from sim.errors import ConfigError
from sim.games.now_boarding.layout import (
    INF,
    NA,
    NCARD,
    P_AIRIN,
    P_ANGER_LIMIT,
    P_BETWEEN,
    P_BUDGET,
    P_CDEST,
    P_CFARE,
    P_CIN,
    P_COMPLAINT_LIMIT,
    P_CORIG,
    P_DRAW,
    P_DROPBAN,
    P_FREE_ROUTE,
    P_FREE_UPG,
    P_GRUMPY,
    P_LEFTOVER,
    P_MAX_SEATS,
    P_MAX_SPEED,
    P_NP,
    P_NR,
    P_PCOL,
    P_PHOME,
    P_PILE,
    P_POOLED,
    P_RA,
    P_RB,
    P_RBEST,
    P_RCOL,
    P_RESET,
    P_RGAIN,
    P_ROUTE_PRICE,
    P_RSP,
    P_SEATP,
    P_SIDE45,
    P_SPEEDP,
    P_START_SEATS,
    P_START_SPEED,
    P_SUPPLY,
    P_TSEAT_PRICE,
    P_TSPEED_PRICE,
    P_TURN_CAP,
    P_VIP,
    P_VIP_COUNT,
    P_VKIND,
    P_VSTAGES,
    P_WTOK,
    SPEC_SIZE,
)


def routes_for(n_players: int) -> list[tuple[str, str, int, str]]:
    """The route list of the board side for ``n_players`` (RB setup 1: side 2-3 or 4-5)."""
    return data.ROUTES_45 if n_players >= 4 else data.ROUTES_23


def _all_pairs(routes, mask: int) -> np.ndarray:
    """int64[9, 9] shortest move points between airports using routes whose colour is in mask."""
    d = np.full((NA, NA), INF, dtype=np.int64)
    np.fill_diagonal(d, 0)
    for a, b, k, col in routes:
        c = data.COLOUR_ID[col]
        if mask >> c & 1:
            i, j = data.AIRPORT_ID[a], data.AIRPORT_ID[b]
            d[i, j] = d[j, i] = min(d[i, j], k + 1)
    for m in range(NA):
        d = np.minimum(d, d[:, m:m + 1] + d[m:m + 1, :])
    return d


def route_value_table(routes, airports_in: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """For each colour mask (6 bits, bit 0 white): the colour whose route upgrade saves the most
    all-pairs move points between the airports in play (no weather), and that saving."""
    best = np.full(64, -1, dtype=np.int64)
    gain = np.zeros(64, dtype=np.int64)
    idx = np.array(airports_in)
    cache = {}

    def total(m):
        if m not in cache:
            cache[m] = int(_all_pairs(routes, m)[np.ix_(idx, idx)].sum())
        return cache[m]

    for m in range(64):
        if not m & 1:
            continue
        base = total(m)
        for c in range(1, 6):
            if m >> c & 1:
                continue
            g = base - total(m | 1 << c)
            if g > gain[m]:
                gain[m] = g
                best[m] = c
    return best, gain


ENDSEARCH_MAX = 1000  # simulations per candidate purchase: a look-ahead budget, like the rollout's


def _check_endsearch(seat, src: str) -> None:
    """The planner's ``endsearch`` weight counts simulations (RULES.md "Policies", planner):
    a whole number from 0 to ENDSEARCH_MAX, else ``ConfigError`` naming the seat's weight. In
    a look-ahead team's ``base_weights`` it would do nothing (the team chooses its purchases
    itself), so it is refused there."""
    if seat.policy == "planner" and "endsearch" in seat.weights:
        v = seat.weights["endsearch"]
        if v != int(v) or not 0 <= v <= ENDSEARCH_MAX:
            raise ConfigError(src, "seats[0].weights.endsearch",
                              f"{v!r} is not a whole number from 0 to {ENDSEARCH_MAX} (simulations per "
                              "candidate purchase after the last draw; 0 = off)")
    if seat.policy == "rollout" and seat.base_weights.get("endsearch", 0) != 0:
        raise ConfigError(src, "seats[0].base_weights.endsearch",
                          "the rollout team chooses every purchase by simulation itself; endsearch belongs "
                          "to a planner team (policy = \"planner\")")


def compile_spec(cfg) -> tuple[np.ndarray]:
    """Config -> ``(K,)``, K int64[SPEC_SIZE] (layout P_*). Raises
    ``ConfigError(cfg.source, "<dotted key>", reason)`` for impossible set-ups (player count,
    prices, piles larger than the deck, weather tokens, planes off the board side).

    Also enforces the cooperative contract: every seat names the same policy and weights (and,
    for the look-ahead ``rollout`` team, the same base policy and base weights).
    """
    sec = cfg.section
    src = cfg.source
    n = cfg.n_seats
    first = cfg.seats[0]
    for i, s in enumerate(cfg.seats):
        if s.policy != first.policy or s.weights != first.weights:
            raise ConfigError(src, "seats", f"now_boarding is cooperative: the team plays one policy; seat {i} "
                              f"({s.policy} {s.weights}) differs from seat 0 ({first.policy} {first.weights})")
        if s.base != first.base or s.base_weights != first.base_weights:
            raise ConfigError(src, "seats", f"now_boarding is cooperative: the team plays one policy; seat {i}'s "
                              f"base ({s.base} {s.base_weights}) differs from seat 0's ({first.base} "
                              f"{first.base_weights})")
    if not 2 <= n <= 5:
        raise ConfigError(src, "seats", f"now_boarding takes 2 to 5 players, got {n}")
    _check_endsearch(first, src)
    spec = np.zeros(SPEC_SIZE, dtype=np.int64)
    routes = routes_for(n)
    spec[P_NP] = n
    spec[P_NR] = len(routes)
    spec[P_SIDE45] = 1 if n >= 4 else 0
    spec[P_ANGER_LIMIT] = sec.anger_limit
    spec[P_COMPLAINT_LIMIT] = sec.complaint_limit
    spec[P_LEFTOVER] = sec.leftover_per_complaint
    spec[P_RESET] = 0 if sec.anger_reset == "pickup" else 1
    if sec.grumpy_reset is not None:
        spec[P_GRUMPY] = sec.grumpy_reset
    else:
        spec[P_GRUMPY] = data.GRUMPY_RESET_PICKUP if sec.anger_reset == "pickup" else data.GRUMPY_RESET_SETDOWN
    spec[P_POOLED] = 1 if sec.pooled_payment else 0
    spec[P_DROPBAN] = 1 if sec.drop_ban == "phase" else 0
    if sec.max_seats < sec.start_seats:
        raise ConfigError(src, "now_boarding.max_seats", "must be >= start_seats")
    if sec.max_speed < sec.start_speed:
        raise ConfigError(src, "now_boarding.max_speed", "must be >= start_speed")
    if len(sec.seat_prices) != sec.max_seats - sec.start_seats:
        raise ConfigError(src, "now_boarding.seat_prices",
                          f"needs {sec.max_seats - sec.start_seats} prices (seats {sec.start_seats + 1}..{sec.max_seats})")
    if len(sec.speed_prices) != sec.max_speed - sec.start_speed:
        raise ConfigError(src, "now_boarding.speed_prices",
                          f"needs {sec.max_speed - sec.start_speed} prices (speed {sec.start_speed + 1}..{sec.max_speed})")
    spec[P_START_SEATS] = sec.start_seats
    spec[P_START_SPEED] = sec.start_speed
    spec[P_MAX_SEATS] = sec.max_seats
    spec[P_MAX_SPEED] = sec.max_speed
    for i, p in enumerate(sec.seat_prices):
        spec[P_SEATP + sec.start_seats + 1 + i] = p
    for i, p in enumerate(sec.speed_prices):
        spec[P_SPEEDP + sec.start_speed + 1 + i] = p
    spec[P_ROUTE_PRICE] = sec.route_price
    spec[P_TSEAT_PRICE] = sec.temp_seat_price
    spec[P_TSPEED_PRICE] = sec.temp_speed_price
    spec[P_SUPPLY] = 1 if sec.supply_limits else 0
    spec[P_BUDGET] = sec.action_budget
    spec[P_FREE_UPG] = {"policy": 0, "seat": 1, "speed": 2}[sec.free_upgrade]
    spec[P_FREE_ROUTE] = 1 if (n == 2 and sec.free_route_2p) else 0
    spec[P_WTOK] = sec.weather_tokens if sec.weather_tokens is not None else data.WEATHER_TOKENS[n]
    if 3 * spec[P_WTOK] > len(routes):
        raise ConfigError(src, "now_boarding.weather_tokens",
                          f"{spec[P_WTOK]} tokens per stage need {3 * spec[P_WTOK]} distinct routes; the board has {len(routes)}")
    spec[P_TURN_CAP] = cfg.turn_cap

    # board
    for r, (a, b, k, col) in enumerate(routes):
        spec[P_RA + r] = data.AIRPORT_ID[a]
        spec[P_RB + r] = data.AIRPORT_ID[b]
        spec[P_RSP + r] = k
        spec[P_RCOL + r] = data.COLOUR_ID[col]
    spec[P_BETWEEN:P_BETWEEN + NA * NA] = -1
    for r, (a, b, _k, _c) in enumerate(routes):
        i, j = data.AIRPORT_ID[a], data.AIRPORT_ID[b]
        spec[P_BETWEEN + i * NA + j] = r
        spec[P_BETWEEN + j * NA + i] = r
    on_board = sorted({data.AIRPORT_ID[a] for r in routes for a in r[:2]})
    for a in on_board:
        spec[P_AIRIN + a] = 1

    # planes
    planes = sec.planes if sec.planes is not None else data.DEFAULT_PLANES[n]
    if len(planes) != n:
        raise ConfigError(src, "now_boarding.planes", f"needs one starting airport per player ({n}), got {len(planes)}")
    for p, a in enumerate(planes):
        if data.AIRPORT_ID[a] not in on_board:
            raise ConfigError(src, "now_boarding.planes", f"{a} is not on the {2 if n < 4 else 4}-player board side")
        spec[P_PHOME + p] = data.AIRPORT_ID[a]
        spec[P_PCOL + p] = data.COLOUR_ID[data.HOME_COLOUR[a]]

    # passengers (RB setup 9)
    removed = {data.AIRPORT_ID[a] for a in data.REMOVED[n]}
    c = 0
    n_in = 0
    for o in range(NA):
        for d in range(NA):
            if o == d:
                continue
            spec[P_CORIG + c] = o
            spec[P_CDEST + c] = d
            spec[P_CFARE + c] = data.FARES[o][d]
            ok = o not in removed and d not in removed and o in on_board and d in on_board
            spec[P_CIN + c] = 1 if ok else 0
            n_in += ok
            c += 1
    assert c == NCARD
    piles, draws = data.PREFLIGHT[n]
    piles = sec.piles if sec.piles is not None else piles
    draws = sec.draws if sec.draws is not None else draws
    if sum(piles) + n > n_in:
        raise ConfigError(src, "now_boarding.piles",
                          f"{n} starting passengers + piles {piles} need {sum(piles) + n} cards; the {n}-player deck has {n_in}")
    if piles[0] < 1:
        raise ConfigError(src, "now_boarding.piles", "the morning pile needs at least 1 card (setup draws from it)")
    for s in range(3):
        spec[P_PILE + s] = piles[s]
        spec[P_DRAW + s] = draws[s]
    best, gain = route_value_table(routes, [a for a in on_board if a not in removed])
    spec[P_RBEST:P_RBEST + 64] = best
    spec[P_RGAIN:P_RGAIN + 64] = gain

    # VIPs
    spec[P_VIP] = 1 if sec.vip else 0
    spec[P_VIP_COUNT] = (sec.vip_count if sec.vip_count is not None else min(9, n + 2)) if sec.vip else 0
    for i, (kind, stages) in enumerate(data.VIP_CARDS):
        spec[P_VKIND + i] = kind
        spec[P_VSTAGES + i] = stages
    return (spec,)
