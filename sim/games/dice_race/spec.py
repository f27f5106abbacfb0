"""Dice Race: a validated ``[dice_race]`` config compiled to the kernel's spec arrays, with
every feasibility check (the offsets are those of ``layout.py``)."""

from __future__ import annotations

import numpy as np

from sim.errors import ConfigError
from sim.games.dice_race.config import Section
from sim.games.dice_race.layout import (
    NH,
    NP,
    NSTAT,
    P_BUMP,
    P_CAP,
    P_EXACT,
    P_OFF_POS,
    P_OFF_RANK,
    P_OFF_STATS,
    P_S,
    P_SIDES,
    P_SIZE,
    P_TRACK,
)


def hit_table(sides: int) -> np.ndarray:
    """int64[2 * sides + 1]: ``hit[d]`` = rolls (of sides²) on which one die, the other or
    their sum shows ``d`` (RULES.md 3: the three moves a roll offers)."""
    hit = np.zeros(2 * sides + 1, np.int64)
    for a in range(1, sides + 1):
        for b in range(1, sides + 1):
            for d in {a, b, a + b}:
                hit[d] += 1
    return hit


def compile_spec(cfg) -> tuple[np.ndarray, np.ndarray]:
    """Compile a validated run config into the kernel's spec ``(p, hit)`` (``layout.py``).

    Raises :class:`sim.errors.ConfigError` naming ``dice_race.track`` when the track is not
    longer than one die's largest face (RULES.md 1: no token may finish on its first move
    by a single die; the section's own bounds cover everything else)."""
    sec: Section = cfg.section
    if sec.track <= sec.sides:
        raise ConfigError(cfg.source, "dice_race.track",
                          f"the track ({sec.track}) must be longer than a die's largest face ({sec.sides})")
    S = cfg.n_seats
    p = np.zeros(NP, np.int64)
    p[P_S] = S
    p[P_TRACK] = sec.track
    p[P_SIDES] = sec.sides
    p[P_BUMP] = sec.bump
    p[P_EXACT] = int(sec.exact_finish)
    p[P_CAP] = cfg.turn_cap
    # state blocks after the header: each offset = previous offset + its size
    p[P_OFF_POS] = NH
    p[P_OFF_RANK] = p[P_OFF_POS] + S
    p[P_OFF_STATS] = p[P_OFF_RANK] + S
    p[P_SIZE] = p[P_OFF_STATS] + S * NSTAT
    return p, hit_table(sec.sides)
