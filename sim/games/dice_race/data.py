"""Dice Race component tables: the one source of every default of the ``[dice_race]``
config section and of the weighted policies' weights.

Source: ``RULES.md`` beside this file (Dice Race is the project's own teaching game, so its
RULES.md *is* the rulebook; a real game cites its rulebook section here, or marks a value
``ASSUMPTION`` with the reason). ``configs/dice_race.toml`` repeats each value where a
designer sees it.

Pure Python: nothing game-internal is imported here.
"""

from __future__ import annotations

# ---- the board and the dice (RULES.md "1. Set-up", "2. The roll") ----------------------------
TRACK = 30
"""RULES.md 1: the finish is space 30; every token starts on space 0."""
MIN_TRACK, MAX_TRACK = 5, 200
SIDES = 6
"""RULES.md 2: two six-sided dice."""
MIN_SIDES, MAX_SIDES = 2, 20

# ---- the bump and the finish (RULES.md "4. The bump", "5. The finish") ------------------------
BUMP = 6
"""RULES.md 4: a token landed on goes back six spaces (never below the start)."""
MAX_BUMP = 50
EXACT_FINISH = False
"""RULES.md D1: False = reaching or passing the finish wins; True = only an exact landing
does (a move past the finish is not allowed, and a seat with no allowed move passes)."""

# ---- the heuristic policy's weights (defaults; their order is the kernel's W_* order) ---------
HEURISTIC_WEIGHTS: dict[str, float] = {
    "progress": 1.0,
    "bump": 1.0,
    "safety": 0.5,
}
HEURISTIC_WEIGHT_DOCS: dict[str, str] = {
    "progress": "value of one space moved forward",
    "bump": "value of one space an opponent is sent back by landing on it, divided by the opponents",
    "safety": "cost of one space of expected loss to the opponents behind the landing space",
}
"""What each weight of ``HEURISTIC_WEIGHTS`` does (printed by ``sim policies``)."""

# ---- the rollout policy's budget (defaults; RULES.md "Policies") ----------------------------
ROLLOUT_WEIGHTS: dict[str, float] = {
    "rollouts": 64,
    "depth": 0,
}
"""Budget of ``rollout`` (a look-ahead policy): its own weights, stored in the weight row's
trailing look-ahead slots (``engine.W_LA_ROLLOUTS``, ``W_LA_DEPTH``)."""
ROLLOUT_WEIGHT_DOCS: dict[str, str] = {
    "rollouts": "simulations per candidate move (the same simulated dice for every candidate)",
    "depth": "player turns simulated after the decision's own turn; 0 = until the race ends",
}
"""What each weight of ``ROLLOUT_WEIGHTS`` does (printed by ``sim policies``)."""
