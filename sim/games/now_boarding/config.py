"""The ``[now_boarding]`` config section: every rule reading that changes results is an option.

Defaults are the real game's components (see ``data.py`` for sources); ``None`` means "the
Preflight / setup table entry for this player count".
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from sim.config import Strict
from sim.games.now_boarding.data import (
    HOME_COLOUR,
    ROUTE_PRICE,
    SEAT_PRICES,
    SPEED_PRICES,
    TEMP_SEAT_PRICE,
    TEMP_SPEED_PRICE,
)


class Section(Strict):
    """Now Boarding rules and component options (all optional)."""

    planes: list[str] | None = Field(
        None, max_length=5, description="starting airport of each player's plane (one per seat, colour of that airport); "
        "default by player count: 2 ATL LAX, 3 +ORD, 4 +DFW, 5 +SEA (ASSUMPTION: the team's choice)")
    free_upgrade: Literal["policy", "seat", "speed"] = Field(
        "policy", description="RB setup 8: free permanent seat or speed; 'policy' lets the team's strategy choose")
    free_route_2p: bool = Field(True, description="RB setup 8: with 2 players each plane also takes 1 free route upgrade")
    piles: list[int] | None = Field(None, description="cards in the morning/afternoon/evening piles (Preflight 'in pile'); default by player count")
    draws: list[int] | None = Field(None, description="cards drawn per round in each stage (Preflight 'draw per round'); default players-1, players, players+1")
    weather_tokens: int | None = Field(None, ge=0, le=6, description="weather tokens per stage; default 2/4/6/6 for 2/3/4/5 players (ASSUMPTION, BGA)")
    anger_limit: int = Field(4, ge=1, le=20, description="RB: the 4th anger cube files a complaint")
    complaint_limit: int = Field(3, ge=1, le=50, description="RB: 3 complaints lose at once")
    leftover_per_complaint: int = Field(2, ge=1, le=20, description="RB end: 1 complaint per 2 undelivered passengers")
    anger_reset: Literal["pickup", "setdown"] = Field(
        "pickup", description="RB: anger cubes removed on pickup; 'setdown' = BGA: kept until set down elsewhere")
    grumpy_reset: Literal[0, 1] | None = Field(
        None, description="anger the Grumpy VIP (starts with 1) keeps when its anger is removed (at pickup, or at "
        "set-down with anger_reset = 'setdown'); default: 0 with 'pickup' (RB: remove the cubes), 1 with "
        "'setdown' (BGA); RULES.md 'Grumpy'")
    drop_ban: Literal["aboard", "phase"] = Field(
        "aboard", description="RB 'Dejar pasajeros': no drop-off at the airport the passenger was just picked up "
        "from; 'aboard' = while the card stays aboard, 'phase' = in the flight phase of the pickup only "
        "(RULES.md 'Drop-offs')")
    pooled_payment: bool = Field(True, description="pay a maintenance's purchases with one pooled payment (BGA); false: each upgrade paid separately")
    start_seats: int = Field(1, ge=1, le=9, description="seats of a starting plane (BGA)")
    start_speed: int = Field(3, ge=1, le=15, description="speed of a starting plane (BGA)")
    max_seats: int = Field(5, ge=1, le=9, description="seat cap per plane (BGA)")
    max_speed: int = Field(9, ge=1, le=15, description="speed cap per plane (BGA)")
    seat_prices: list[int] = Field(default_factory=lambda: list(SEAT_PRICES), max_length=14, description="price of reaching start_seats+1 .. max_seats seats (RB: 3rd $9, 4th $13)")
    speed_prices: list[int] = Field(default_factory=lambda: list(SPEED_PRICES), max_length=14, description="price of reaching start_speed+1 .. max_speed (BGA)")
    route_price: int = Field(ROUTE_PRICE, ge=0, le=99, description="price of one route colour (BGA, flat)")
    temp_seat_price: int = Field(TEMP_SEAT_PRICE, ge=0, le=99, description="temporary seat token (BGA)")
    temp_speed_price: int = Field(TEMP_SPEED_PRICE, ge=0, le=99, description="temporary speed token (BGA)")
    supply_limits: bool = Field(False, description="enforce the tile supply (ASSUMPTION; BGA has none): the box's 18 seat / "
                                "15 speed tiles less 1 of each per plane in play and less the free set-up upgrades "
                                "(4 players, free seat: 10 seat / 11 speed tiles to buy), 2 route tiles per colour "
                                "less the 2-player free routes")
    action_budget: int = Field(0, ge=0, le=1000, description="time pressure: actions per plane per flight phase (space moved, pickup, drop-off each 1); 0 = no timer")
    vip: bool = Field(False, description="VIP variant (9 VIP cards)")
    vip_count: int | None = Field(None, ge=0, le=9, description="VIPs in play; default players + 2 (BGA 'Normal')")

    @field_validator("planes")
    @classmethod
    def _planes(cls, v):
        if v is None:
            return v
        for a in v:
            if a not in HOME_COLOUR:
                raise ValueError(f"unknown starting airport {a!r}; one of {sorted(HOME_COLOUR)}")
        if len(set(v)) != len(v):
            raise ValueError("each plane colour can be chosen once")
        return v

    @field_validator("piles", "draws")
    @classmethod
    def _three(cls, v, info):
        if v is None:
            return v
        if len(v) != 3:
            raise ValueError("needs 3 numbers: morning, afternoon, evening")
        lo = 0 if info.field_name == "piles" else 1
        if any(x < lo or x > 72 for x in v):
            raise ValueError(f"each value must be in {lo}..72")
        return v

    @field_validator("seat_prices", "speed_prices")
    @classmethod
    def _prices(cls, v):
        if any(x < 0 or x > 99 for x in v):
            raise ValueError("prices must be in 0..99")
        return v


__all__ = ["Section"]
