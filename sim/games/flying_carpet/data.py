"""Flying Carpet component tables: the one source of every default of the ``[flying_carpet]``
config section and of the heuristic policy's weights.

Sources: RB = the rulebook (``shared/seeds/002_bafcc528e3332754.txt``, section named in
quotes); NOTE = the research note ``shared/research/games/flying_carpet.md`` (section
number); ASSUMPTION = no public source gives the value, the reason is stated. The config
``configs/flying_carpet.toml`` repeats each value where a designer sees it.

Coordinates: ``x = 0..23`` left to right, ``y = 0..11`` bottom to top; a cell's index is
``y * WIDTH + x``. Pure Python: nothing game-internal is imported here.
"""

from __future__ import annotations

# ---- the board (RB "Preparation"; size and zones NOTE 3, two independent reviews) ----------
WIDTH = 24
HEIGHT = 12
ZONE_WIND: tuple[int, ...] = (0,) * 6 + (1,) * 3 + (2,) * 3
"""Wind strength of each row y (RB "Preparation": beige no wind, light blue 1, dark blue 2;
NOTE 3: 6 desert rows, 3 light-blue rows, 3 dark-blue rows). Always blows left to right."""
SKY_ROW = 6
"""Lowest row of the sky (the two blue strips): where clouds may lie (RB "Building the scenery")."""
START = (0, 0)
"""RB "Preparation": the brown platform in the lower left corner (NOTE 3: ASSUMPTION that the
platform is the corner cell itself)."""
FINISH = (WIDTH - 1, 0)
"""RB "Preparation": the corner space at lower right with the blue platform."""
KEEP_FREE: tuple[tuple[int, int], ...] = ((1, 0), (WIDTH - 2, 0))
"""RB "Building the scenery": at least one space behind the start and one in front of the
finish stay free (ASSUMPTION: the bottom-row neighbours of the two platforms)."""

# ---- stars (RB "The Special Die": star spaces exist; count and places: ASSUMPTION NOTE 5) ----
STARS: tuple[tuple[int, int], ...] = (
    (3, 7), (9, 6), (15, 8), (20, 7),     # light-blue zone
    (6, 10), (12, 11), (17, 9), (22, 10),  # dark-blue zone
)

# ---- scenery pieces (RB: 12 pieces, houses, towers, trees, clouds; shapes ASSUMPTION NOTE 4) --
def _rect(w: int, h: int) -> tuple[tuple[int, int], ...]:
    return tuple((dx, dy) for dy in range(h) for dx in range(w))


PIECES: dict[str, dict] = {
    # name: kind ("ground" stands on the bottom edge, "cloud" lies in the sky), cells (dx, dy)
    # from the anchor, the piece's bottom-left corner. ASSUMPTION (NOTE 4): rectangles of the
    # sizes the note proposes; replace by real silhouettes (any cell mask) in the config.
    "palace": {"kind": "ground", "cells": _rect(4, 3)},
    "large_house": {"kind": "ground", "cells": _rect(3, 2)},
    "tall_house": {"kind": "ground", "cells": _rect(2, 3)},
    "small_house": {"kind": "ground", "cells": _rect(2, 2)},
    "minaret_a": {"kind": "ground", "cells": _rect(1, 5)},
    "minaret_b": {"kind": "ground", "cells": _rect(1, 4)},
    "palm_a": {"kind": "ground", "cells": _rect(1, 3)},
    "palm_b": {"kind": "ground", "cells": _rect(1, 2)},
    "camel_rider": {"kind": "ground", "cells": _rect(2, 2)},
    "large_cloud": {"kind": "cloud", "cells": _rect(5, 2)},
    "medium_cloud": {"kind": "cloud", "cells": _rect(3, 2)},
    "small_cloud": {"kind": "cloud", "cells": _rect(2, 1)},
}
"""The 12 pieces of the box (RB "Overview": 12 scenery pieces; NOTE 4: 9 ground, 3 clouds)."""
PIECE_KINDS = ("ground", "cloud")
MAX_PIECE_CELLS = 40
"""Largest cell mask a piece may have (kernel array width)."""

DEFAULT_CITY_NAME = "Bazaar"
DEFAULT_CITY: tuple[tuple[str, tuple[int, int]], ...] = (
    # ASSUMPTION: the rulebook lets the players build any city; this one uses 8 of the 12
    # pieces (6 ground, 2 clouds), leaves gaps between houses and keeps every star free.
    ("palm_b", (3, 0)),
    ("small_house", (5, 0)),
    ("palace", (8, 0)),
    ("minaret_a", (13, 0)),
    ("tall_house", (16, 0)),
    ("large_house", (19, 0)),
    ("large_cloud", (7, 10)),      # dark-blue zone, rows 10-11
    ("medium_cloud", (18, 8)),     # across both zones (rows 8-9), as the rulebook allows
)
"""Piece name and anchor (x, y) of each piece of the default city (``configs/flying_carpet.toml``)."""

# ---- wind cards (RB "The Wind Cards"; counts and numbers ASSUMPTION NOTE 6) ------------------
# Directions of a segment: "U" up, "D" down, "L" left, "R" right. An option is one colour of
# arrows on the card: its segments are flown in order, each for exactly its number of spaces.
# RB: blue arrows go up, beige and orange arrows go down; the rulebook's four-option example
# card: light blue = right 2 then up 3, dark blue = up 3 then right 2, beige = left 2 then
# down 3, orange = down 3 then left 2. The cloud example flies down and then sideways to the
# right, so cards whose down options go right exist as well.
COLOURS = ("light blue", "dark blue", "beige", "orange")


def _updown_card(v: int) -> tuple:
    """Vertical-only card (RB "two types of wind cards": flight direction up or down)."""
    return ((("U", v),), None, (("D", v),), None)


def _diagonal_card(v: int, h: int, up_side: str) -> tuple:
    """Four-option card: up + ``up_side`` in both orders, down + the other side in both orders."""
    down_side = "L" if up_side == "R" else "R"
    return (((up_side, h), ("U", v)), (("U", v), (up_side, h)),
            ((down_side, h), ("D", v)), (("D", v), (down_side, h)))


CARD_KINDS: dict[str, tuple] = {}
"""Card kind name -> its four options in COLOURS order (None: the card has no arrows of
that colour). Names: ``V<n>`` up or down n; ``R<v><h>`` up v with right h / down v with
left h (the rulebook's example card is R32); ``L<v><h>`` up v with left h / down v with
right h (the cloud example's down-right moves)."""
for _v in (1, 2, 3):
    CARD_KINDS[f"V{_v}"] = _updown_card(_v)
for _side in ("R", "L"):
    for _v in (1, 2, 3):
        for _h in (1, 2, 3):
            CARD_KINDS[f"{_side}{_v}{_h}"] = _diagonal_card(_v, _h, _side)

DECK: dict[str, int] = {name: 6 for name in CARD_KINDS if name.startswith("V")}
DECK.update({name: 3 for name in CARD_KINDS if not name.startswith("V")})
"""Copies of each kind: 72 cards (RB "Overview": 72 wind cards). ASSUMPTION (NOTE 6,
adapted to the rulebook's two examples): 18 vertical-only cards (6 each of 1, 2, 3) and 54
four-option cards, 3 of each (v, h) in 1..3 x 1..3 for each of the two side families. The
numbers 1-3 are NOTE 6 (keirat review)."""
assert sum(DECK.values()) == 72

HAND_SIZE = 4
"""RB "Cards and tokens": four wind cards (NOTE 8: some editions three; variant)."""

# ---- steering tokens (RB "Cards and tokens", "The Steering Tokens") --------------------------
TOKENS_TOTAL = 45
TOKENS_EACH = 5
TOKENS_PER_TURN = 1
DIE_TOKENS = 2
"""RB "The Special Die": two additional steering tokens from the supply."""

# ---- the special die (RB "The Special Die", in the rulebook's order) -------------------------
DIE_FACE_NAMES = ("skip_turn", "move_clouds", "extra_turn", "two_tokens", "swap", "hop", "nothing")
"""Every effect a face may carry; ``nothing`` is not on the rulebook's die (designers' slot)."""
DIE_FACES: tuple[str, ...] = ("skip_turn", "move_clouds", "extra_turn", "two_tokens", "swap", "hop")
"""RB "The Special Die": the six faces."""
HOP_RANGE = 4
"""RB face 6: at most four spaces, turning a corner once."""

# ---- rule options (RULES.md D1..; the defaults are the readings RULES.md argues) -------------
BLOCKED_OPTION = "illegal"      # D1 / NOTE A1
HEADWIND = "brake"              # D3 / NOTE A3
OFF_BOARD = "back_to_start"     # D5 / NOTE A5
WIND_WITHOUT_SIDEWAYS = "after"  # D4
CLOUDS_ANYWHERE = False         # D2
DRIFT_BLOCKED = "stop_in_front"  # D6 / NOTE A4
CLOUD_MOVES = "one"             # D11
FORCED_FINISH = "exact"         # D9 (rules version 3; version 2 and before: "arrived")
MAX_CLOUD_BITS = 31
"""``cloud_moves = "each"`` marks the pieces moved this roll in one int32 (pieces 0..30)."""
PLAY_FOR_PLACINGS = False       # D16 / NOTE A16
SPECIAL_DIE = True              # RB "End of the Game": the tactical game leaves it out
FINISH_NEAR = 4
"""A turn begun within this many spaces (Manhattan) of the finish that does not end on it is a
waiting turn (metric ``exact_wait``; not a rule)."""

# ---- the heuristic policy's weights (policies.py; RULES.md "Policies") ------------------------
HEURISTIC_WEIGHTS: dict[str, float] = {
    "distance": 1.0,
    "token_keep": 0.2,
    "block_leader": 0.2,
    "star": 0.4,
    "edge_risk": 1.5,
    "exchange": 0.3,
}
"""Defaults tuned by 8,000-race duels (2 greedy + 2 heuristic, rotated seats, default city):
with token_keep 0.6, block_leader 0.8, star 0.15 the heuristic won 19% of its seats, with
these 28% (greedy 22%); see RULES.md "Policies"."""

HEURISTIC_WEIGHT_DOCS: dict[str, str] = {
    "distance": "value of one turn less to the finish (wind-aware shortest path)",
    "token_keep": "cost of spending a steering token, divided by the tokens left",
    "block_leader": "value of blocking / forcing down the opponent nearest the finish",
    "star": "value (turns) of ending on a free star (the die's expected effect)",
    "edge_risk": "cost of ending where the wind alone would blow the carpet off",
    "exchange": "value of drifting to exchange the hand's weakest card",
}
"""What each weight of ``HEURISTIC_WEIGHTS`` does (printed by ``sim policies``)."""

# ---- the rollout policy's budget (hooks.rollout_choice; RULES.md "Policies") --------------------
ROLLOUT_WEIGHTS: dict[str, float] = {
    "rollouts": 8,
    "depth": 0,
    "candidates": 6,
}
"""Budget defaults of ``rollout``: chosen for a usable cost (RULES.md "Policies" gives the
measured strength and cost)."""

ROLLOUT_WEIGHT_DOCS: dict[str, str] = {
    "rollouts": "simulations per candidate row (paired: the same streams for every candidate)",
    "depth": "player turns simulated after the decision's turn (0 = to the end of the race)",
    "candidates": "legal rows tried: the base policy's choice, then its next best by its score (0 = all)",
}
"""What each weight of ``ROLLOUT_WEIGHTS`` does (printed by ``sim policies``)."""
