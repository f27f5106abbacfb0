"""Clear for Takeoff config section ``[clear_for_takeoff]``: validation only.

Every default is read from ``data.py`` (the rulebook's value, RB, or a labelled ASSUMPTION
of the research notes); feasibility against the seats (enough airlines, a deck that can
deal) is checked by ``spec.compile_spec``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field, model_validator

import sim.games.clear_for_takeoff.data as data
from sim.config import Strict, bounded_int


class Deck(Strict):
    """Card counts of the single deck (ASSUMPTION: the 108-card default of the research
    notes, section 2.3; ``data.DECK``). Keys are the card codes of the rulebook."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    A: int = Field(data.DECK["A"], ge=0, le=data.MAX_CARDS)
    B: int = Field(data.DECK["B"], ge=0, le=data.MAX_CARDS)
    C: int = Field(data.DECK["C"], ge=0, le=data.MAX_CARDS)
    D: int = Field(data.DECK["D"], ge=0, le=data.MAX_CARDS)
    LC: int = Field(data.DECK["LC"], ge=0, le=data.MAX_CARDS)
    VIP: int = Field(data.DECK["VIP"], ge=0, le=data.MAX_CARDS)
    AI: int = Field(data.DECK["AI"], ge=0, le=data.MAX_CARDS)
    FLR: int = Field(data.DECK["FLR"], ge=0, le=data.MAX_CARDS)
    DLY: int = Field(data.DECK["DLY"], ge=0, le=data.MAX_CARDS)
    SC: int = Field(data.DECK["SC"], ge=0, le=data.MAX_CARDS)
    FG: int = Field(data.DECK["FG"], ge=0, le=data.MAX_CARDS)
    L31: int = Field(data.DECK["31L"], ge=0, le=data.MAX_CARDS, alias="31L")
    R31: int = Field(data.DECK["31R"], ge=0, le=data.MAX_CARDS, alias="31R")
    SN: int = Field(data.DECK["SN"], ge=0, le=data.MAX_CARDS)
    XW: int = Field(data.DECK["XW"], ge=0, le=data.MAX_CARDS)
    ICE: int = Field(data.DECK["ICE"], ge=0, le=data.MAX_CARDS)

    def counts(self) -> list[int]:
        """Counts in card-type order (``data.DECK`` key order = ``layout.CARD_NAMES``)."""
        return [self.A, self.B, self.C, self.D, self.LC, self.VIP, self.AI, self.FLR, self.DLY,
                self.SC, self.FG, self.L31, self.R31, self.SN, self.XW, self.ICE]


class Airline(Strict):
    """One airline's fleet (ASSUMPTION: 1 small, 2 medium, 1 wide-body each; ``data.FLEET``)."""

    name: str = Field("", max_length=40)
    small: int = Field(data.FLEET["small"], ge=0, le=data.MAX_PER_SIZE)
    medium: int = Field(data.FLEET["medium"], ge=0, le=data.MAX_PER_SIZE)
    wide: int = Field(data.FLEET["wide"], ge=0, le=data.MAX_PER_SIZE)

    @model_validator(mode="after")
    def _not_empty(self):
        if self.small + self.medium + self.wide == 0:
            raise ValueError("an airline needs at least one aircraft")
        if self.small + self.medium + self.wide > data.MAX_AIRCRAFT:
            raise ValueError(f"at most {data.MAX_AIRCRAFT} aircraft per airline")
        return self


def _default_airlines() -> list[Airline]:
    return [Airline(name=f"Airline {i + 1}") for i in range(data.N_AIRLINES)]


class Section(Strict):
    """The ``[clear_for_takeoff]`` table."""

    hand_size: int = Field(data.HAND_SIZE, ge=1, le=30, description="RB: nine cards")
    exchange_max: int = Field(data.EXCHANGE_MAX, ge=1, le=30, description="RB: exchange one to four cards")
    move_cards: list[bounded_int(1, data.MAX_COST)] = Field(list(data.MOVE_CARDS), min_length=3, max_length=3,
                                  description="RB: movement cards per step, small/medium/wide-body")
    anti_ice_cards: list[bounded_int(1, data.MAX_COST)] = Field(list(data.ANTI_ICE_CARDS), min_length=3, max_length=3,
                                      description="RB: AI cards to de-ice, small/medium/wide-body")
    stands_ab: int = Field(data.STANDS_AB, ge=0, le=data.MAX_STANDS, description="ASSUMPTION: A-B stands")
    stands_ac: int = Field(data.STANDS_AC, ge=0, le=data.MAX_STANDS, description="ASSUMPTION: A-C stands")
    d_queue: int = Field(data.D_QUEUE, ge=1, le=10,
                         description="ASSUMPTION: D places per runway before its takeoff position")
    play_out_ranks: bool = Field(data.PLAY_OUT_RANKS,
                                 description="RB: play on until one airline remains (full finishing order)")
    direct_to_takeoff: bool = Field(data.DIRECT_TO_TAKEOFF,
                                    description="reading of 'goes to the closest takeoff position' (RULES.md D6)")
    finished_hand: Literal["out_of_play", "discard"] = Field(
        data.FINISHED_HAND, description="what happens to a finished airline's hand (RULES.md D12)")
    dly_own_aircraft: bool = Field(data.DLY_OWN_AIRCRAFT,
                                   description="allow a played DLY on one's own aircraft (RULES.md D9)")
    snow_extra: Literal["same", "any"] = Field(
        data.SNOW_EXTRA, description="SNOW's additional movement card: 'same' = one more of the step's own card "
        "(or LC), 'any' = any movement card A, B, C, D or LC (RULES.md D17)")
    join_held_sequence: bool = Field(
        data.JOIN_HELD_SEQUENCE, description="under FG / a closed runway, a D play or VIP2 -> D may still join the "
        "back of the held D sequence (RULES.md D18)")
    reshuffle: Literal["on_draw", "on_empty"] = Field(
        data.RESHUFFLE, description="when the discard pile becomes the new deck: 'on_draw' = when a draw needs a "
        "card, 'on_empty' = as soon as the deck's last card is drawn (RULES.md D19)")
    forget_draw: float = Field(
        data.FORGET_DRAW, ge=0.0, le=1.0, allow_inf_nan=False,
        description="chance per turn that a player who must draw back to the hand size forgets; it waits until "
        "the end of its next turn (RB 'forgetfulness is dangerous in aviation!', RULES.md D13; 0 = never)")
    forget_takeoff: float = Field(
        data.FORGET_TAKEOFF, ge=0.0, le=1.0, allow_inf_nan=False,
        description="chance that an aircraft cleared for take-off is forgotten by its player: it goes to the end "
        "of the D sequence of its runway (RB Independent aircraft movement, RULES.md D13; 0 = never)")
    failure_target: Literal["front", "largest"] = Field(
        data.FAILURE_TARGET, description="which aircraft a face-up FLR / DLY hits among the drawer's aircraft in D: "
        "'front' = the one nearest its takeoff position, 'largest' = the largest (all D places one preparation "
        "step; RULES.md D3)")
    deck: Deck = Field(default_factory=Deck)
    airlines: list[Airline] = Field(default_factory=_default_airlines, min_length=1, max_length=data.MAX_AIRLINES,
                                    description="ASSUMPTION: six airlines; seat i flies airline i")

    @model_validator(mode="after")
    def _costs(self):
        if self.stands_ab + self.stands_ac == 0:
            raise ValueError("the board needs at least one stand")
        return self
