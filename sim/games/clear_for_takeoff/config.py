"""Clear for Takeoff config section ``[clear_for_takeoff]`` and its compilation to arrays.

Every default is either the rulebook's (RB) or a labelled ASSUMPTION from
``shared/research/games/clear_for_takeoff.md`` (no public source gives the deck, fleets,
stands or D-sequence length); ``configs/clear_for_takeoff.toml`` repeats each one where a
designer sees it.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from pydantic import ConfigDict, Field, model_validator

from sim.config import Strict
from sim.errors import ConfigError
from sim.games.clear_for_takeoff import rules as R


class Deck(Strict):
    """Card counts of the single deck (ASSUMPTION: the 108-card default of the research
    notes, section 2.3). Keys are the card codes of the rulebook."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    A: int = Field(17, ge=0)
    B: int = Field(11, ge=0)
    C: int = Field(11, ge=0)
    D: int = Field(17, ge=0)
    LC: int = Field(8, ge=0)
    VIP: int = Field(6, ge=0)
    AI: int = Field(8, ge=0)
    FLR: int = Field(4, ge=0)
    DLY: int = Field(6, ge=0)
    SC: int = Field(5, ge=0)
    FG: int = Field(2, ge=0)
    L31: int = Field(2, ge=0, alias="31L")
    R31: int = Field(2, ge=0, alias="31R")
    SN: int = Field(3, ge=0)
    XW: int = Field(3, ge=0)
    ICE: int = Field(3, ge=0)

    def counts(self) -> list[int]:
        """Counts in card-type order (rules.CARD_NAMES)."""
        return [self.A, self.B, self.C, self.D, self.LC, self.VIP, self.AI, self.FLR, self.DLY,
                self.SC, self.FG, self.L31, self.R31, self.SN, self.XW, self.ICE]


class Airline(Strict):
    """One airline's fleet (ASSUMPTION: 1 small, 2 medium, 1 wide-body each)."""

    name: str = ""
    small: int = Field(1, ge=0, le=8)
    medium: int = Field(2, ge=0, le=8)
    wide: int = Field(1, ge=0, le=8)

    @model_validator(mode="after")
    def _not_empty(self):
        if self.small + self.medium + self.wide == 0:
            raise ValueError("an airline needs at least one aircraft")
        if self.small + self.medium + self.wide > 12:
            raise ValueError("at most 12 aircraft per airline")
        return self


def _default_airlines() -> list[Airline]:
    return [Airline(name=f"Airline {i + 1}") for i in range(6)]


class Section(Strict):
    """The ``[clear_for_takeoff]`` table."""

    hand_size: int = Field(9, ge=1, le=30, description="RB: nine cards")
    exchange_max: int = Field(4, ge=1, le=30, description="RB: exchange one to four cards")
    move_cards: list[int] = Field([1, 2, 3], min_length=3, max_length=3,
                                  description="RB: movement cards per step, small/medium/wide-body")
    anti_ice_cards: list[int] = Field([1, 2, 3], min_length=3, max_length=3,
                                      description="RB: AI cards to de-ice, small/medium/wide-body")
    stands_ab: int = Field(3, ge=0, le=8, description="ASSUMPTION: A-B stands")
    stands_ac: int = Field(3, ge=0, le=8, description="ASSUMPTION: A-C stands")
    d_queue: int = Field(3, ge=1, le=10, description="ASSUMPTION: D places per runway before its takeoff position")
    play_out_ranks: bool = Field(True, description="RB: play on until one airline remains (full finishing order)")
    direct_to_takeoff: bool = Field(False, description="reading of 'goes to the closest takeoff position' (RULES.md D6)")
    finished_hand: Literal["out_of_play", "discard"] = Field(
        "discard", description="what happens to a finished airline's hand (RULES.md D12)")
    dly_own_aircraft: bool = Field(False, description="allow a played DLY on one's own aircraft (RULES.md D9)")
    deck: Deck = Field(default_factory=Deck)
    airlines: list[Airline] = Field(default_factory=_default_airlines, min_length=1,
                                    description="ASSUMPTION: six airlines; seat i flies airline i")

    @model_validator(mode="after")
    def _costs(self):
        if any(c < 1 or c > 5 for c in self.move_cards + self.anti_ice_cards):
            raise ValueError("move_cards and anti_ice_cards take values 1 to 5")
        if self.stands_ab + self.stands_ac == 0:
            raise ValueError("the board needs at least one stand")
        return self


def compile_spec(cfg) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Compile a validated run config into the kernel's spec.

    Returns ``(p, deck_cards, fleet)``: ``p`` int64[rules.NP] parameters and offsets,
    ``deck_cards`` int32[NCARDS] one entry per card (its type), ``fleet`` int32[S, K]
    aircraft sizes per seat (1 small, 2 medium, 3 wide-body, 0 none).

    Raises ConfigError when there are more seats than airlines, when the deck cannot deal
    the starting hands, or when the deck has no weather-free card to keep.
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
    keepable = sum(counts[: R.FLR])
    if keepable < sec.exchange_max:
        raise ConfigError(src, "clear_for_takeoff.deck", "the deck needs movement, LC, VIP or AI cards to play")
    fleets = []
    for a in sec.airlines[:S]:
        fleets.append([R.SMALL] * a.small + [R.MEDIUM] * a.medium + [R.WIDE] * a.wide)
    K = max(len(f) for f in fleets)
    fleet = np.zeros((S, K), np.int32)
    for s, f in enumerate(fleets):
        fleet[s, : len(f)] = f
    deck_cards = np.repeat(np.arange(R.NCT, dtype=np.int32), counts).astype(np.int32)
    nst = sec.stands_ab + sec.stands_ac
    Q = sec.d_queue
    p = np.zeros(R.NP, np.int64)
    p[R.P_S] = S
    p[R.P_K] = K
    p[R.P_NST] = nst
    p[R.P_NAC] = sec.stands_ac
    p[R.P_Q] = Q
    p[R.P_HAND] = sec.hand_size
    p[R.P_EXMAX] = sec.exchange_max
    p[R.P_NCARDS] = ncards
    p[R.P_CAP] = cfg.turn_cap
    p[R.P_PLAYOUT] = int(sec.play_out_ranks)
    p[R.P_DIRECT] = int(sec.direct_to_takeoff)
    p[R.P_FINHAND] = 1 if sec.finished_hand == "discard" else 0
    p[R.P_DLYOWN] = int(sec.dly_own_aircraft)
    p[R.P_VIP1] = 2 * nst
    p[R.P_VIP2] = 2 * nst + 1
    p[R.P_D0] = 2 * nst + 2
    p[R.P_TO0] = p[R.P_D0] + 2 * Q
    p[R.P_NSLOT] = p[R.P_TO0] + 2
    for i in range(3):
        p[R.P_MOVE1 + i] = sec.move_cards[i]
        p[R.P_AI1 + i] = sec.anti_ice_cards[i]
    off = R.NH
    p[R.P_OFF_HAND] = off
    off += S * R.NCT
    p[R.P_OFF_DECK] = off
    off += ncards
    p[R.P_OFF_DISC] = off
    off += ncards
    p[R.P_OFF_POS] = off
    off += S * K
    p[R.P_OFF_START] = off
    off += S * K
    p[R.P_OFF_DEICED] = off
    off += S * K
    p[R.P_OFF_OCC] = off
    off += p[R.P_NSLOT]
    p[R.P_OFF_RANK] = off
    off += S
    p[R.P_OFF_STATS] = off
    off += S * R.NSTAT
    p[R.P_OFF_WT] = off
    return p, deck_cards, fleet
