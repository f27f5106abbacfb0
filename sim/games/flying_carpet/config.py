"""Flying Carpet config section ``[flying_carpet]``: validation only.

Every default is read from ``data.py``. The city is data: a list of named pieces with their
anchors, so a designer lays out the table they built; a piece of their own (any cell mask)
goes into ``pieces``. Whether a city obeys the set-up rules (a piece floating, a covered
platform, no way through, an unknown piece ...) is checked by ``spec.compile_spec``, which
names the key and the cell.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

import sim.games.flying_carpet.data as data
from sim.config import Strict


class Placement(Strict):
    """One piece of the city: ``piece`` names a box piece (``data.PIECES``) or one of
    ``pieces``; ``at`` = [x, y] of its anchor (its bottom-left cell), x 0..23, y 0..11."""

    piece: str = Field(description="piece name (box pieces: data.PIECES; or a key of [flying_carpet.pieces])")
    at: list[int] = Field(min_length=2, max_length=2, description="[x, y] of the anchor cell")


class PieceDef(Strict):
    """A designer's own piece: ``kind`` and its cells as [dx, dy] offsets from the anchor."""

    kind: Literal["ground", "cloud"] = Field(description="ground (stands on the bottom edge) or cloud (in the sky)")
    cells: list[list[int]] = Field(min_length=1, max_length=data.MAX_PIECE_CELLS,
                                   description="[dx, dy] offsets (>= 0) of the cells it covers")


def _default_city() -> list[Placement]:
    return [Placement(piece=n, at=list(xy)) for n, xy in data.DEFAULT_CITY]


class Section(Strict):
    """The ``[flying_carpet]`` table."""

    city_name: str = Field(data.DEFAULT_CITY_NAME, description="a name for the city (reports)")
    city: list[Placement] = Field(default_factory=_default_city,
                                  description="ASSUMPTION: the pieces on the board and where (RB: the players build it)")
    pieces: dict[str, PieceDef] = Field(default_factory=dict, description="designer's own pieces by name")
    stars: list[list[int]] = Field(default_factory=lambda: [list(s) for s in data.STARS],
                                   description="ASSUMPTION: star cells [x, y] (NOTE 5)")
    keep_free: list[list[int]] = Field(default_factory=lambda: [list(c) for c in data.KEEP_FREE],
                                       description="RB: cells that must stay free beside the platforms")
    deck: dict[str, Annotated[int, Field(ge=0, le=1000)]] = Field(default_factory=lambda: dict(data.DECK),
                                 description="ASSUMPTION: copies of each wind-card kind (data.CARD_KINDS)")
    hand_size: int = Field(data.HAND_SIZE, ge=1, le=8, description="RB: four wind cards (3 in some editions)")
    tokens_each: int = Field(data.TOKENS_EACH, ge=0, le=45, description="RB: five steering tokens each")
    tokens_total: int = Field(data.TOKENS_TOTAL, ge=0, le=200, description="RB: 45 steering tokens in the box")
    special_die: bool = Field(data.SPECIAL_DIE, description="RB: false = the tactical game without the die")
    die_faces: list[Literal[data.DIE_FACE_NAMES]] = Field(  # type: ignore[valid-type]
        default_factory=lambda: list(data.DIE_FACES), min_length=1, max_length=6,
        description="RB: the faces of the special die, rolled uniformly")
    play_for_placings: bool = Field(data.PLAY_FOR_PLACINGS,
                                    description="RULES.md D16: play on after the winner for the other places")
    blocked_option: Literal["illegal", "stop_before"] = Field(
        data.BLOCKED_OPTION, description="RULES.md D1: an option whose path meets scenery")
    headwind: Literal["brake", "net"] = Field(
        data.HEADWIND, description="RULES.md D3: a leftward move in the wind: braked to 0 at most, or net")
    off_board: Literal["back_to_start", "illegal"] = Field(
        data.OFF_BOARD, description="RULES.md D5: a move beyond the board's edge")
    wind_without_sideways: Literal["after", "none"] = Field(
        data.WIND_WITHOUT_SIDEWAYS, description="RULES.md D4: the wind of a move with no sideways arrow")
    clouds_anywhere: bool = Field(data.CLOUDS_ANYWHERE,
                                  description="RULES.md D2: clouds may also lie in the windless zone")
    drift_blocked: Literal["stop_in_front", "stay"] = Field(
        data.DRIFT_BLOCKED, description="RULES.md D6: a drift whose way scenery blocks stops in front of it, "
        "or does not happen (the carpet stays)")
    cloud_moves: Literal["one", "each"] = Field(
        data.CLOUD_MOVES, description="RULES.md D11: the die's cloud face moves one cloud, or lets the player move "
        "each cloud once (one decision per cloud, the player may stop at any time)")
    forced_finish: Literal["exact", "arrived"] = Field(
        data.FORCED_FINISH, description="RULES.md D9: a carpet forced down onto the finish platform has not "
        "arrived ('exact': RB, the finish is reached with the exact number of points) or has ('arrived')")
