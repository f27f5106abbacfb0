"""Clear for Takeoff component tables: the one source of every default of the
``[clear_for_takeoff]`` config section and of the heuristic policy's weights.

Sources: RB = the rulebook (``shared/seeds/000_513cea2297b34943.txt``); ASSUMPTION = the
research notes' default (``shared/research/games/clear_for_takeoff.md``, section 2): no
public source gives the deck, the fleets, the stands or the D-sequence length.
``configs/clear_for_takeoff.toml`` repeats each value where a designer sees it.

Pure Python: nothing game-internal is imported here.
"""

from __future__ import annotations

# ---- the deck (RB "Cards description"; counts: ASSUMPTION, research notes 2.3) ---------------
DECK: dict[str, int] = {
    # movement cards (56)
    "A": 17, "B": 11, "C": 11, "D": 17,
    # Lucky Captain, V.I.P., Anti-Ice
    "LC": 8, "VIP": 6, "AI": 8,
    # attacks: Failure, Delay (10)
    "FLR": 4, "DLY": 6,
    # Weather cards (20): sky clear, fog, runway 31L / 31R closed, snow, crosswind, ice
    "SC": 5, "FG": 2, "31L": 2, "31R": 2, "SN": 3, "XW": 3, "ICE": 3,
}
"""Card code -> copies in the single deck (108 cards). The key order is the kernel's
card-type order (``layout.CARD_NAMES``)."""

WEATHER_CARDS: tuple[str, ...] = ("SC", "FG", "31L", "31R", "SN", "XW", "ICE")
"""RB Weather cards, in deck order (the last seven card types)."""

# ---- airlines (ASSUMPTION: six airlines, 1 small, 2 medium, 1 wide-body each) ----------------
N_AIRLINES = 6
FLEET: dict[str, int] = {"small": 1, "medium": 2, "wide": 1}
"""Aircraft per size of one default airline."""
MAX_PER_SIZE = 8
MAX_AIRCRAFT = 12
"""Limits of one airline's fleet (kernel array sizes stay small)."""

# ---- the airfield (ASSUMPTION) ----------------------------------------------------------------
STANDS_AB = 3
STANDS_AC = 3
MAX_STANDS = 8
D_QUEUE = 3
"""D places per runway before its takeoff position."""

# ---- costs and hands (RB) ---------------------------------------------------------------------
HAND_SIZE = 9
"""RB Setting up: deal nine cards; RB: draw back to nine."""
EXCHANGE_MAX = 4
"""RB Exchanging cards: one to four cards."""
MOVE_CARDS: tuple[int, int, int] = (1, 2, 3)
"""RB Movement cards: cards per step for a small / medium / wide-body aircraft."""
ANTI_ICE_CARDS: tuple[int, int, int] = (1, 2, 3)
"""RB Anti-Ice card: AI cards to de-ice a small / medium / wide-body aircraft."""
MAX_COST = 5
MAX_CARDS = 1000  # per card type: a bound for validation, far above any printed deck
MAX_AIRLINES = 64  # airlines a config may list (seats use the first ones)

# ---- rule options (RULES.md decisions) --------------------------------------------------------
PLAY_OUT_RANKS = True
"""RB: play on until one airline remains (full finishing order)."""
DIRECT_TO_TAKEOFF = False
"""RULES.md D6: an aircraft joining an empty D sequence stops at its front."""
FINISHED_HAND = "discard"
"""RULES.md D12: a finished airline's hand goes to the discard pile (or "out_of_play")."""
DLY_OWN_AIRCRAFT = False
"""RULES.md D9: a played DLY targets opponents only."""
SNOW_EXTRA = "same"
"""RULES.md D17: SNOW's additional movement card is one more of the step's own card (or LC);
"any" = any movement card (A, B, C, D or LC)."""
JOIN_HELD_SEQUENCE = True
"""RULES.md D18: under FG / a closed runway an aircraft may still join the back of the held D
sequence (D play, VIP2 -> D); False = no aircraft joins a held sequence."""
RESHUFFLE = "on_draw"
"""RULES.md D19: the discard pile becomes the new deck when a draw needs a card ("on_draw");
"on_empty" = the moment the last card of the deck is drawn."""
FORGET_DRAW = 0.0
"""RULES.md D13 (RB "forgetfulness is dangerous in aviation!"): the chance per turn that a
player who must draw face down forgets it and waits until the end of the next turn. 0: scripted
players never forget (the rule is off, no random number drawn)."""
FORGET_TAKEOFF = 0.0
"""RULES.md D13 (RB Independent aircraft movement): the chance that an aircraft cleared for
take-off at the end of its owner's turn is forgotten and goes to the end of the D sequence. 0:
never (no random number drawn)."""
FAILURE_TARGET = "front"
"""RULES.md D3: a face-up FLR / DLY hits the most prepared aircraft, the D places ranked front
first ("front"); "largest" = every D place is one preparation step, so the largest aircraft
in D is hit (RB "If you have several aircrafts at the same preparation step, the largest
aircraft is damaged or delayed")."""

# ---- the heuristic policy's weights (defaults; their order is the kernel's W_* order) ---------
HEURISTIC_WEIGHTS: dict[str, float] = {
    "progress": 1.0,
    "lead": 0.5,
    "wild_cost": 0.4,
    "attack": 0.6,
    "leader_focus": 1.0,
    "weather": 2.0,
    "vip": 1.0,
    "exchange": 0.3,
}

HEURISTIC_WEIGHT_DOCS: dict[str, str] = {
    "progress": "value of one step of progress (hangar -> A -> B/C -> D -> takeoff)",
    "lead": "times the stage an aircraft already reached: push the leader first",
    "wild_cost": "cost of paying a whole step with Lucky Captains (pro rata per LC)",
    "attack": "value of an FLR / DLY per stage and size of the victim",
    "leader_focus": "extra attack value per share of the victim airline already airborne",
    "weather": "value per own aircraft a weather / anti-ice play lets take off",
    "vip": "value of a VIP play per 3 movement cards it saves",
    "exchange": "an exchange is made when no play scores above this",
}
"""What each weight of ``HEURISTIC_WEIGHTS`` does (printed by ``sim policies``)."""

# ---- the rollout policy's budget (defaults; RULES.md Policies) -------------------------------
ROLLOUT_WEIGHTS: dict[str, float] = {
    "rollouts": 16,
    "depth": 1,
    "candidates": 6,
}
"""Budget of ``rollout`` (a look-ahead policy): its own weights, stored in the weight row's
trailing look-ahead slots (``engine.W_LA_ROLLOUTS``, ``W_LA_DEPTH``, ``W_LA_EXTRA``).
Measured (RULES.md Policies): whole-game simulations (depth 0) are too noisy to beat the
heuristic at 8 rollouts (11 % wins as one seat of four); one turn of look-ahead with a
progress-lead evaluation wins about a third at about 25 ms a game."""

ROLLOUT_WEIGHT_DOCS: dict[str, str] = {
    "rollouts": "simulations per candidate action (common random numbers across candidates)",
    "depth": "player turns simulated after the decision's own turn; 0 = until a winner",
    "candidates": "other plays besides the base policy's choice (ranked by its score) + 2 exchanges",
}
"""What each weight of ``ROLLOUT_WEIGHTS`` does (printed by ``sim policies``)."""
