"""Yukon Airways: a validated ``[yukon_airways]`` config compiled to the kernel's spec arrays,
with every feasibility check (the offsets are those of ``layout.py``)."""

from __future__ import annotations

import numpy as np

from sim.errors import ConfigError
from sim.games.yukon_airways.config import Section
from sim.games.yukon_airways.data import MAX_FUEL_COST, MAX_LOCATIONS, MAX_VALUE
from sim.games.yukon_airways.layout import (
    DIAL_NAMES,
    IMP_NAMES,
    MAX_STEPS,
    NCOL,
    NCOLG,
    NDIAL,
    NH,
    NP,
    NSYM,
    OF_AMOUNT,
    OF_KIND,
    OF_PARAM,
    OF_PLACES,
    OF_REWARD,
    OK_COLOUR,
    OK_DELIVERED,
    OK_DESTS,
    OK_FUEL_LEFT,
    OK_PLACES,
    OW,
    P_BONUS_FUEL,
    P_BONUS_IMP,
    P_BONUS_MONEY,
    P_CAP,
    P_DEAL,
    P_DOCK4_FUEL,
    P_DOCK5_FUEL,
    P_DOCK6_COST,
    P_FIXED0,
    P_FIXED_ORDERS,
    P_FREE_MOVES,
    P_FUEL0,
    P_FUELMAX,
    P_GREY,
    P_HUB,
    P_HUB_DEST,
    P_L,
    P_MARKER_MONEY,
    P_MARKERS,
    P_MONEY0,
    P_NCARDS,
    P_NDICE,
    P_NORD,
    P_NORDP,
    P_NT,
    P_OFF_COCKPIT,
    P_OFF_DDOWN,
    P_OFF_DECK,
    P_OFF_DIE,
    P_OFF_DISC,
    P_OFF_HAND,
    P_OFF_MAP,
    P_OFF_ORDERS,
    P_OFF_POOL,
    P_OFF_SEAT,
    P_OFF_TABLE,
    P_OFF_TDOWN,
    P_OFF_TURN,
    P_ORDER_TIMING,
    P_ROUNDS,
    P_S,
    P_SEATS,
    P_SIZE,
    P_SW_MONEY,
    P_THRESH,
    P_TICKET_SYM,
    P_TIE,
    P_TWO_COLOUR_SW,
    P_UNFLOWN,
    P_WILD,
    RW_CARDS,
    RW_MONEY,
    SW,
    SW_TWO_COLOURS,
)

_COLOURS = ("pink", "yellow", "green", "blue", "red")
_SYMS = ("money", "fuel", "improvement")
_KINDS = {"colour": OK_COLOUR, "fuel_left": OK_FUEL_LEFT, "destinations": OK_DESTS,
          "delivered": OK_DELIVERED, "places": OK_PLACES}
UNREACHABLE = 1_000_000


def shortest_fuel(n: int, edges: list[tuple[int, int, int]]) -> np.ndarray:
    """All-pairs least summed fuel (Floyd-Warshall) of ``n`` locations joined by undirected
    ``edges`` (a, b, fuel); int64[n, n], UNREACHABLE where no route exists."""
    d = np.full((n, n), UNREACHABLE, np.int64)
    np.fill_diagonal(d, 0)
    for a, b, f in edges:
        if f < d[a, b]:
            d[a, b] = d[b, a] = f
    for k in range(n):
        d = np.minimum(d, d[:, k:k + 1] + d[k:k + 1, :])
    return d


def compile_spec(cfg):
    """Compile a validated run config into the kernel's spec (see ``layout.py``).

    Returns ``(p, dist, loc, deck, dials, orders, visited, planes, dcol, tcount)``:
    ``p`` int64[NP]; ``dist`` int32[L, L] least fuel; ``loc`` int32[L, 2] value and far bonus;
    ``deck`` int32[NCARDS] card types; ``dials`` int32[NDIAL, 1 + MAX_STEPS]; ``orders``
    int32[NORD, OW]; ``visited`` int32[L]; ``planes`` int32[S] starting improvement (-1 none);
    ``dcol`` int32[NDICE] die colours; ``tcount`` int32[NT] cards per type.

    Raises :class:`sim.errors.ConfigError` naming the key: a location value or far bonus out of
    0..MAX_VALUE, a fuel cost out of 1..MAX_FUEL_COST, a route or ticket naming an unknown
    location, a map that is not connected, a deck too small to deal, too few markers to seed
    every location, start money or planes for fewer seats than play, an order naming an
    unknown place, a visited table shorter than the locations.
    """
    sec: Section = cfg.section
    src = cfg.source
    S = cfg.n_seats
    key = "yukon_airways"
    names = [loc.name for loc in sec.locations]
    L = len(names)
    if L > MAX_LOCATIONS:
        raise ConfigError(src, f"{key}.locations", f"at most {MAX_LOCATIONS} locations, got {L}")
    if len(set(names)) != L:
        raise ConfigError(src, f"{key}.locations", "two locations have the same name")
    idx = {n: i for i, n in enumerate(names)}
    if sec.hub not in idx:
        raise ConfigError(src, f"{key}.hub", f"{sec.hub!r} is not one of the locations")
    hub = idx[sec.hub]
    loc = np.zeros((L, 2), np.int32)
    for i, lo in enumerate(sec.locations):
        if not 0 <= lo.value <= MAX_VALUE:
            raise ConfigError(src, f"{key}.locations[{i}].value", f"a location value takes 0 to {MAX_VALUE}, got {lo.value}")
        if not 0 <= lo.far <= MAX_VALUE:
            raise ConfigError(src, f"{key}.locations[{i}].far", f"a far bonus takes 0 to {MAX_VALUE}, got {lo.far}")
        loc[i] = (lo.value, lo.far)
    edges = []
    for i, r in enumerate(sec.routes):
        for end in ("a", "b"):
            if getattr(r, end) not in idx:
                raise ConfigError(src, f"{key}.routes[{i}].{end}", f"unknown location {getattr(r, end)!r}")
        if r.a == r.b:
            raise ConfigError(src, f"{key}.routes[{i}].b", "a route joins two different locations")
        if not 1 <= r.fuel <= MAX_FUEL_COST:
            raise ConfigError(src, f"{key}.routes[{i}].fuel", f"a fuel cost takes 1 to {MAX_FUEL_COST}, got {r.fuel}")
        edges.append((idx[r.a], idx[r.b], r.fuel))
    d = shortest_fuel(L, edges)
    cut = [names[j] for j in range(L) if d[hub, j] >= UNREACHABLE]
    if cut:
        raise ConfigError(src, f"{key}.routes", f"the map is not connected: no route from {sec.hub} to {', '.join(cut)}")
    NT = L * NSYM
    tcount = np.zeros(NT, np.int32)
    for i, t in enumerate(sec.tickets):
        if t.to not in idx:
            raise ConfigError(src, f"{key}.tickets[{i}].to", f"unknown location {t.to!r}")
        if idx[t.to] == hub:
            raise ConfigError(src, f"{key}.tickets[{i}].to", f"{t.to} is the hub: tickets name destinations")
        tcount[idx[t.to] * NSYM + _SYMS.index(t.symbol)] += t.count
    ncards = int(tcount.sum())
    if ncards < S * sec.hand_deal or ncards == 0:
        raise ConfigError(src, f"{key}.tickets", f"{ncards} ticket cards cannot deal {S} hands of {sec.hand_deal}")
    if sec.markers_per_colour * NCOL < S * (L - 1):
        raise ConfigError(src, f"{key}.markers_per_colour",
                          f"{sec.markers_per_colour * NCOL} coloured markers cannot put {S} on each of {L - 1} locations")
    if len(sec.start_money) < S:
        raise ConfigError(src, f"{key}.start_money", f"{len(sec.start_money)} amounts for {S} seats")
    if len(sec.planes) < S:
        raise ConfigError(src, f"{key}.planes", f"{len(sec.planes)} seaplane cards for {S} seats")
    if len(sec.visited_table) < L:
        raise ConfigError(src, f"{key}.visited_table", f"needs an amount for 0 to {L - 1} locations visited")
    for i, pl in enumerate(sec.planes[:S]):
        if pl == "two_colours" and not sec.two_colour_switch:
            raise ConfigError(src, f"{key}.planes[{i}]", "two_colours is a switch only with two_colour_switch = true")
    nord = len(sec.orders)
    if sec.orders_in_play > nord:
        raise ConfigError(src, f"{key}.orders_in_play", f"{sec.orders_in_play} face up but only {nord} order cards")
    orders = np.zeros((max(nord, 1), OW), np.int32)
    for i, o in enumerate(sec.orders):
        mask = 0
        for pl in o.places:
            if pl not in idx:
                raise ConfigError(src, f"{key}.orders[{i}].places", f"unknown location {pl!r}")
            mask |= 1 << idx[pl]
        orders[i, OF_KIND] = _KINDS[o.kind]
        orders[i, OF_PARAM] = _COLOURS.index(o.colour) if o.kind == "colour" else o.at_least
        orders[i, OF_REWARD] = RW_MONEY if o.reward == "money" else RW_CARDS
        orders[i, OF_AMOUNT] = o.amount
        orders[i, OF_PLACES] = mask
    if sec.fixed_orders:
        if len(sec.fixed_orders) != sec.orders_in_play or len(set(sec.fixed_orders)) != len(sec.fixed_orders) \
                or any(not 1 <= k <= nord for k in sec.fixed_orders):
            raise ConfigError(src, f"{key}.fixed_orders",
                              f"needs {sec.orders_in_play} different card numbers from 1 to {nord}")
    dials = np.zeros((NDIAL, 1 + MAX_STEPS), np.int32)
    for di, steps in enumerate(sec.dials.table()):
        dials[di, 0] = len(steps)
        dials[di, 1:1 + len(steps)] = steps
    planes = np.full(S, -1, np.int32)
    if not sec.advanced:
        for s in range(S):
            if sec.planes[s] is not None:
                planes[s] = IMP_NAMES.index(sec.planes[s])
    ndice = NCOL * sec.dice_per_colour
    dcol = np.repeat(np.arange(NCOL, dtype=np.int32), sec.dice_per_colour).astype(np.int32)
    deck = np.repeat(np.arange(NT, dtype=np.int32), tcount).astype(np.int32)
    visited = np.array(sec.visited_table[:L], np.int32)
    p = np.zeros(NP, np.int64)
    p[P_S] = S
    p[P_L] = L
    p[P_NT] = NT
    p[P_NCARDS] = ncards
    p[P_NDICE] = ndice
    p[P_NORD] = nord
    p[P_NORDP] = sec.orders_in_play
    p[P_CAP] = cfg.turn_cap
    p[P_HUB] = hub
    p[P_DEAL] = sec.hand_deal
    p[P_WILD] = sec.wild_cards
    p[P_THRESH] = sec.bonus_threshold
    p[P_BONUS_MONEY] = sec.bonus_money
    p[P_BONUS_FUEL] = sec.bonus_fuel
    p[P_BONUS_IMP] = sec.bonus_improvements
    p[P_MARKERS] = sec.markers_per_colour
    p[P_GREY] = sec.grey_markers
    p[P_SEATS] = sec.plane_seats
    p[P_FUEL0] = sec.fuel_start
    p[P_FUELMAX] = sec.fuel_max
    p[P_ROUNDS] = sec.rounds
    p[P_SW_MONEY] = sec.switch_bonus_money
    p[P_FREE_MOVES] = sec.free_moves
    p[P_MARKER_MONEY] = sec.marker_money
    p[P_DOCK4_FUEL] = sec.dock4_fuel
    p[P_DOCK5_FUEL] = sec.dock5_fuel
    p[P_DOCK6_COST] = sec.dock6_cost
    p[P_FIXED_ORDERS] = 1 if sec.fixed_orders else 0
    for i, k in enumerate(sec.fixed_orders):
        p[P_FIXED0 + i] = k - 1
    p[P_TIE] = 0 if sec.tie_break == "fuel" else 1
    p[P_UNFLOWN] = 0 if sec.unflown_dice == "stay" else 1
    p[P_TICKET_SYM] = int(sec.ticket_symbol_counts)
    p[P_ORDER_TIMING] = 0 if sec.order_timing == "when_met" else 1
    p[P_TWO_COLOUR_SW] = int(sec.two_colour_switch)
    p[P_HUB_DEST] = int(sec.hub_destination)
    for i in range(S):
        p[P_MONEY0 + i] = sec.start_money[i]
    # state blocks after the header: each offset = previous offset + its size
    p[P_OFF_SEAT] = NH
    p[P_OFF_HAND] = p[P_OFF_SEAT] + S * SW
    p[P_OFF_TABLE] = p[P_OFF_HAND] + S * NT
    p[P_OFF_DECK] = p[P_OFF_TABLE] + S * NT
    p[P_OFF_DISC] = p[P_OFF_DECK] + ncards
    p[P_OFF_DIE] = p[P_OFF_DISC] + ncards
    p[P_OFF_MAP] = p[P_OFF_DIE] + 2 * ndice
    p[P_OFF_POOL] = p[P_OFF_MAP] + L * NCOL
    p[P_OFF_COCKPIT] = p[P_OFF_POOL] + NCOL
    p[P_OFF_TURN] = p[P_OFF_COCKPIT] + S * L * NCOLG
    p[P_OFF_ORDERS] = p[P_OFF_TURN] + S
    p[P_OFF_TDOWN] = p[P_OFF_ORDERS] + max(sec.orders_in_play, 1)
    p[P_OFF_DDOWN] = p[P_OFF_TDOWN] + S * NT
    p[P_SIZE] = p[P_OFF_DDOWN] + ncards
    assert len(DIAL_NAMES) == NDIAL and SW_TWO_COLOURS >= 0
    return (p, d.astype(np.int32), loc, deck, dials, orders, visited, planes, dcol, tcount)
