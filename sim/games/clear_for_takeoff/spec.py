"""Clear for Takeoff: a validated ``[clear_for_takeoff]`` config compiled to the kernel's
spec arrays, with every feasibility check (the offsets are those of ``layout.py``)."""

from __future__ import annotations

import numpy as np

from sim.errors import ConfigError
from sim.games.clear_for_takeoff.config import Section
from sim.games.clear_for_takeoff.layout import (
    FLR,
    FORGET_SCALE,
    MEDIUM,
    NCT,
    NH,
    NP,
    NSTAT,
    P_AI1,
    P_CAP,
    P_D0,
    P_DIRECT,
    P_DLYOWN,
    P_EXMAX,
    P_FAIL_LARGEST,
    P_FINHAND,
    P_FORGET_DRAW,
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
    SMALL,
    WIDE,
)


def compile_spec(cfg) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Compile a validated run config into the kernel's spec.

    Returns ``(p, deck_cards, fleet)``: ``p`` int64[layout.NP] parameters and state-block
    offsets, ``deck_cards`` int32[NCARDS] one entry per card (its type, in type order),
    ``fleet`` int32[S, K] aircraft sizes per seat (1 small, 2 medium, 3 wide-body, 0 none;
    K = the largest fleet).

    Raises :class:`sim.errors.ConfigError` when there are more seats than airlines
    (``seats``), when the deck cannot deal the starting hands (RB Setting up) or has too
    few movement / LC / VIP / AI cards to exchange (``clear_for_takeoff.deck``).
    """
    sec: Section = cfg.section
    src = cfg.source
    S = cfg.n_seats
    if S > len(sec.airlines):
        raise ConfigError(src, "seats", f"{S} seats but only {len(sec.airlines)} airlines in clear_for_takeoff.airlines")
    counts = sec.deck.counts()
    ncards = sum(counts)
    if ncards < S * sec.hand_size:
        raise ConfigError(src, "clear_for_takeoff.deck",
                          f"{ncards} cards cannot deal {S} hands of {sec.hand_size}")
    keepable = sum(counts[:FLR])
    if keepable < sec.exchange_max:
        raise ConfigError(src, "clear_for_takeoff.deck", "the deck needs movement, LC, VIP or AI cards to play")
    fleets = []
    for a in sec.airlines[:S]:
        fleets.append([SMALL] * a.small + [MEDIUM] * a.medium + [WIDE] * a.wide)
    K = max(len(f) for f in fleets)
    fleet = np.zeros((S, K), np.int32)
    for s, f in enumerate(fleets):
        fleet[s, : len(f)] = f
    deck_cards = np.repeat(np.arange(NCT, dtype=np.int32), counts).astype(np.int32)
    nst = sec.stands_ab + sec.stands_ac
    Q = sec.d_queue
    p = np.zeros(NP, np.int64)
    p[P_S] = S
    p[P_K] = K
    p[P_NST] = nst
    p[P_NAC] = sec.stands_ac
    p[P_Q] = Q
    p[P_HAND] = sec.hand_size
    p[P_EXMAX] = sec.exchange_max
    p[P_NCARDS] = ncards
    p[P_CAP] = cfg.turn_cap
    p[P_PLAYOUT] = int(sec.play_out_ranks)
    p[P_DIRECT] = int(sec.direct_to_takeoff)
    p[P_FINHAND] = 1 if sec.finished_hand == "discard" else 0
    p[P_DLYOWN] = int(sec.dly_own_aircraft)
    p[P_SNOWANY] = 1 if sec.snow_extra == "any" else 0
    p[P_JOINHELD] = int(sec.join_held_sequence)
    p[P_RESHUF_EMPTY] = 1 if sec.reshuffle == "on_empty" else 0
    p[P_FORGET_DRAW] = round(sec.forget_draw * FORGET_SCALE)
    p[P_FORGET_TOFF] = round(sec.forget_takeoff * FORGET_SCALE)
    p[P_FAIL_LARGEST] = 1 if sec.failure_target == "largest" else 0
    for i in range(3):
        p[P_MOVE1 + i] = sec.move_cards[i]
        p[P_AI1 + i] = sec.anti_ice_cards[i]
    # slot ids: 2 per stand, VIP1, VIP2, Q D places per runway, 2 takeoff positions
    p[P_VIP1] = 2 * nst
    p[P_VIP2] = p[P_VIP1] + 1
    p[P_D0] = p[P_VIP2] + 1
    p[P_TO0] = p[P_D0] + 2 * Q
    p[P_NSLOT] = p[P_TO0] + 2
    # state blocks after the header: each offset = previous offset + its size
    p[P_OFF_HAND] = NH
    p[P_OFF_DECK] = p[P_OFF_HAND] + S * NCT
    p[P_OFF_DISC] = p[P_OFF_DECK] + ncards
    p[P_OFF_POS] = p[P_OFF_DISC] + ncards
    p[P_OFF_START] = p[P_OFF_POS] + S * K
    p[P_OFF_DEICED] = p[P_OFF_START] + S * K
    p[P_OFF_OCC] = p[P_OFF_DEICED] + S * K
    p[P_OFF_RANK] = p[P_OFF_OCC] + p[P_NSLOT]
    p[P_OFF_STATS] = p[P_OFF_RANK] + S
    p[P_OFF_WT] = p[P_OFF_STATS] + S * NSTAT
    return p, deck_cards, fleet
