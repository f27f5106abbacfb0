"""Dice Race config section ``[dice_race]``: validation only.

Every default is read from ``data.py``; every number has a range enforced by its field, so
no value can allocate without limit (``tests/test_fuzz.py`` fuzzes this section). What
depends on the seats (nothing, in this game) is checked by ``spec.compile_spec``.
"""

from __future__ import annotations

from pydantic import Field

import sim.games.dice_race.data as data
from sim.config import Strict


class Section(Strict):
    """The ``[dice_race]`` table."""

    track: int = Field(data.TRACK, ge=data.MIN_TRACK, le=data.MAX_TRACK,
                       description="RULES.md 1: the finish space (tokens start on space 0)")
    sides: int = Field(data.SIDES, ge=data.MIN_SIDES, le=data.MAX_SIDES,
                       description="RULES.md 2: faces of each of the two dice")
    bump: int = Field(data.BUMP, ge=0, le=data.MAX_BUMP,
                      description="RULES.md 4: spaces a token landed on goes back (0: no bump)")
    exact_finish: bool = Field(data.EXACT_FINISH,
                               description="RULES.md D1: only an exact landing on the finish wins")
