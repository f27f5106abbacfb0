"""Yukon Airways config section ``[yukon_airways]``: validation only.

Every default is read from ``data.py`` (the rulebook's value, RB, or a labelled ASSUMPTION of
the research note); feasibility (a connected map, tickets naming known destinations, enough
cards and markers) is checked by ``spec.compile_spec``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

import sim.games.yukon_airways.data as data
from sim.config import Strict

Amount = Annotated[int, Field(ge=-1000, le=1000)]
"""A sum of money in the config (bounded: the kernels hold int32)."""

Improvement = Literal["bonus_fuel", "cards_as_fuel", "hand_limit", "draw", "christmas",
                      "two_dice_per_ticket", "bonus_money", "pair_bonus", "free_moves",
                      "two_card_wild", "marker_money", "two_colours"]
Colour = Literal["pink", "yellow", "green", "blue", "red"]


class Location(Strict):
    """One map location (ASSUMPTION RN 10.1)."""

    name: str = Field(min_length=1)
    value: Amount = Field(description="money when it is the highest value visited in a round (RB Einkommensphase a)")
    far: Amount = Field(0, description="extra $ per die flown there (RB Einkommensphase b: Old Crow 2, Inuvik 3)")


class Route(Strict):
    """One map line and its fuel sign (RB Flugphase d)."""

    a: str
    b: str
    fuel: int


class Tickets(Strict):
    """``count`` ticket cards naming ``to`` with ``symbol`` (ASSUMPTION RN 10.2)."""

    to: str
    symbol: Literal["money", "fuel", "improvement"]
    count: int = Field(ge=0, le=100)


class Dials(Strict):
    """Step values of the five dark cockpit dials, lowest (start) first (ASSUMPTION RN 10.4)."""

    bonus_fuel: list[int] = Field(default_factory=lambda: list(data.DIALS["bonus_fuel"]), min_length=1, max_length=8)
    cards_as_fuel: list[int] = Field(default_factory=lambda: list(data.DIALS["cards_as_fuel"]), min_length=1, max_length=8)
    hand_limit: list[int] = Field(default_factory=lambda: list(data.DIALS["hand_limit"]), min_length=1, max_length=8)
    draw: list[int] = Field(default_factory=lambda: list(data.DIALS["draw"]), min_length=1, max_length=8)
    christmas: list[int] = Field(default_factory=lambda: list(data.DIALS["christmas"]), min_length=1, max_length=8)

    @model_validator(mode="after")
    def _rising(self):
        for name in data.DIALS:
            steps = getattr(self, name)
            if any(v < 0 or v > 99 for v in steps):
                raise ValueError(f"{name}: steps take values 0 to 99")
            if any(b < a for a, b in zip(steps, steps[1:])):
                raise ValueError(f"{name}: steps must not fall")
        return self

    def table(self) -> list[list[int]]:
        """Steps in dial order (``data.DIALS`` key order)."""
        return [list(getattr(self, n)) for n in data.DIALS]


class Order(Strict):
    """One order card (ASSUMPTION RN 10.7)."""

    kind: Literal["colour", "fuel_left", "destinations", "delivered", "places"]
    colour: Colour | None = Field(None, description="kind colour: each die of this colour delivered")
    at_least: int = Field(0, ge=0, le=99, description="fuel_left / destinations / delivered: the threshold")
    places: list[str] = Field(default_factory=list, description="kind places: a delivery to one of them this round")
    reward: Literal["money", "cards"] = "money"
    amount: int = Field(1, ge=0, le=99)

    @model_validator(mode="after")
    def _params(self):
        if self.kind == "colour" and self.colour is None:
            raise ValueError("a colour order needs colour")
        if self.kind == "places" and not self.places:
            raise ValueError("a places order needs places")
        return self


def _locations() -> list[Location]:
    return [Location(name=n, value=v["value"], far=v["far"]) for n, v in data.LOCATIONS.items()]


class Section(Strict):
    """The ``[yukon_airways]`` table."""

    hub: str = Field(data.HUB, description="RB: planes start every round here; no markers")
    locations: list[Location] = Field(default_factory=_locations, min_length=2, description="ASSUMPTION RN 10.1")
    routes: list[Route] = Field(default_factory=lambda: [Route(a=a, b=b, fuel=f) for a, b, f in data.ROUTES],
                                min_length=1, description="ASSUMPTION RN 10.1")
    tickets: list[Tickets] = Field(default_factory=lambda: [Tickets(**t) for t in data.default_tickets()],
                                   min_length=1, description="ASSUMPTION RN 10.2: 6 per destination")
    hand_deal: int = Field(data.HAND_DEAL, ge=0, le=20, description="RB: six tickets each")
    wild_cards: int = Field(data.WILD_CARDS, ge=1, le=6, description="RB: three face-down cards carry one passenger")
    bonus_threshold: int = Field(data.BONUS_THRESHOLD, ge=1, le=9, description="RB: three alike symbols")
    bonus_money: int = Field(data.BONUS_MONEY, ge=0, le=20, description="ASSUMPTION RN 10.2")
    bonus_fuel: int = Field(data.BONUS_FUEL, ge=0, le=7, description="ASSUMPTION RN 10.2")
    bonus_improvements: int = Field(data.BONUS_IMPROVEMENTS, ge=0, le=3, description="ASSUMPTION RN 10.2")
    dice_per_colour: int = Field(data.DICE_PER_COLOUR, ge=1, le=6, description="RN 2: 15 dice, 3 per colour")
    markers_per_colour: int = Field(data.MARKERS_PER_COLOUR, ge=0, le=40, description="ASSUMPTION RN 10.3")
    grey_markers: int = Field(data.GREY_MARKERS, ge=0, le=200, description="RN Y8: 0 = unlimited grey supply")
    plane_seats: int = Field(data.PLANE_SEATS, ge=1, le=6, description="RB: four dice per plane")
    fuel_start: int = Field(data.FUEL_START, ge=0, le=20, description="RB: fuel on 4")
    fuel_max: int = Field(data.FUEL_MAX, ge=1, le=20, description="RN 4.1: the tank holds 7")
    start_money: list[int] = Field(default_factory=lambda: list(data.START_MONEY), min_length=1, max_length=6,
                                   description="RB: $1, $2, $3, $4 by turn order")
    rounds: int = Field(data.ROUNDS, ge=1, le=12, description="RB: six rounds")
    dials: Dials = Field(default_factory=Dials)
    planes: list[Improvement | None] = Field(default_factory=lambda: list(data.PLANES), min_length=1, max_length=6,
                                             description="ASSUMPTION RN 10.6: seat i's seaplane starting improvement")
    advanced: bool = Field(False, description="RB: the other side of the seaplane card, no starting improvement")
    switch_bonus_money: int = Field(data.SWITCH_BONUS_MONEY, ge=0, le=20, description="ASSUMPTION RN 5 S2")
    free_moves: int = Field(data.FREE_MOVES, ge=0, le=6, description="RB: two free dice moves")
    marker_money: int = Field(data.MARKER_MONEY, ge=0, le=20, description="ASSUMPTION RN 10.8 S7")
    dock4_fuel: int = Field(data.DOCK4_FUEL, ge=0, le=7, description="RB Steg 4")
    dock5_fuel: int = Field(data.DOCK5_FUEL, ge=0, le=7, description="RB Steg 5")
    dock6_cost: int = Field(data.DOCK6_COST, ge=0, le=20, description="RB Steg 6")
    orders: list[Order] = Field(default_factory=lambda: [Order(**o) for o in data.ORDERS], max_length=20,
                                description="ASSUMPTION RN 10.7")
    orders_in_play: int = Field(data.ORDERS_IN_PLAY, ge=0, le=9, description="RB: three order cards face up")
    fixed_orders: list[int] = Field(default_factory=list, max_length=9,
                                    description="1-based order cards to put face up (RN: first game 1, 7, 9); empty = shuffled")
    visited_table: list[Amount] = Field(default_factory=lambda: list(data.VISITED_TABLE), min_length=1, max_length=31,
                                     description="ASSUMPTION RN 10.8: money by distinct locations visited")
    tie_break: Literal["fuel", "shared"] = Field(data.TIE_BREAK, description="RULES.md D12")
    unflown_dice: Literal["stay", "roll"] = Field(data.UNFLOWN_DICE, description="RULES.md D6")
    ticket_symbol_counts: bool = Field(data.TICKET_SYMBOL_COUNTS, description="RULES.md D7")
    order_timing: Literal["when_met", "income"] = Field(data.ORDER_TIMING, description="RULES.md D8")
    two_colour_switch: bool = Field(data.TWO_COLOUR_SWITCH, description="RULES.md D9")
    hub_destination: bool = Field(data.HUB_DESTINATION, description="RULES.md D15: the hub is a destination "
                                  "(face-down cards carry a passenger there); false: never (rules version 2)")

    @model_validator(mode="after")
    def _checks(self):
        if any(m < 0 or m > 99 for m in self.start_money):
            raise ValueError("start_money takes values 0 to 99")
        if self.fuel_start > self.fuel_max:
            raise ValueError("fuel_start is above fuel_max")
        return self
