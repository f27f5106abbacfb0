"""Yukon Airways rules as ``@kernel`` functions: set-up, legal actions, apply (with the
automation the rulebook runs by itself: refuel, the new turn order, income, maintenance, the
end of the game), the winner and the invariants. Layout and encodings: ``layout.py``;
decisions on ambiguities: ``RULES.md``. No policy code here.

The spec tuple is ``(p, dist, loc, deck, dials, orders, visited, planes, dcol,
tcount)`` (``spec.compile_spec``); ``state`` is int32[p[P_SIZE]].

The functions live in one module per rulebook phase (issue 32), all re-exported here, so
``from sim.games.yukon_airways.rules import X`` names any of them:

- ``rules_common``: accessors, counters, money, cards, improvements, dice;
- ``rules_turns``: the order of play (RB Spielablauf);
- ``rules_setup``: set-up (RB Vorbereitung);
- ``rules_boarding``: phase 1, boarding (RB Boardingphase);
- ``rules_flight``: phase 2, flights (RB Flugphase), and phase 3, income (RB Einkommensphase);
- ``rules_maintenance``: phase 4, maintenance (RB Wartungsphase);
- ``rules_end``: game end (RB Spielende);
- ``rules_actions``: legal actions and apply;
- ``rules_invariants``: the invariants.
"""

from __future__ import annotations

from sim.games.yukon_airways.rules_actions import (
    after_flight,
    after_moves,
    apply_action,
    improve_while_loading,
    legal_actions,
    put,
    touch_down,
)
from sim.games.yukon_airways.rules_boarding import (
    can_take,
    dock_ability,
    finish_boarding_turn,
    order_key,
    place_marker,
    use_ability,
)
from sim.games.yukon_airways.rules_common import (
    aboard,
    aboard_add,
    aboard_colour,
    add_fuel,
    any_improvable,
    burn_card,
    charge,
    cockpit_at,
    dial_value,
    die_at,
    discard_card,
    discard_face_down,
    dock_add,
    dock_colour,
    draw_card,
    draw_cards,
    fuel_cost,
    hand_add,
    hand_at,
    hand_total,
    improvable,
    improve,
    lay_face_down,
    map_at,
    pay,
    recount,
    recount_fuel_cards,
    redeal,
    roll_die_to_dock,
    se,
    switch_on,
    table_at,
    tdown_at,
)
from sim.games.yukon_airways.rules_end import (
    ahead,
    end_game,
    end_money,
    score_now,
    visited_locations,
)
from sim.games.yukon_airways.rules_flight import (
    add_symbol,
    can_fly,
    can_fly_with,
    flight_colour_count,
    flight_numbers,
    fly_limits,
    fuel_cards,
    fuel_out_least,
    income,
    land,
    load_die,
    next_flyer,
    payable_after,
    payable_limit,
    payable_with,
    reward_order,
    set_size,
    take_off,
    wild_size,
)
from sim.games.yukon_airways.rules_invariants import (
    check_invariants,
)
from sim.games.yukon_airways.rules_maintenance import (
    maintenance,
    next_discarder,
)
from sim.games.yukon_airways.rules_setup import (
    setup,
)
from sim.games.yukon_airways.rules_turns import (
    begin_round,
    start_boarding_turn,
    start_flight_turn,
    start_turn,
)

__all__ = [
    "aboard",
    "aboard_add",
    "aboard_colour",
    "add_fuel",
    "add_symbol",
    "after_flight",
    "after_moves",
    "ahead",
    "any_improvable",
    "apply_action",
    "begin_round",
    "burn_card",
    "can_fly",
    "can_fly_with",
    "can_take",
    "charge",
    "check_invariants",
    "cockpit_at",
    "dial_value",
    "die_at",
    "discard_card",
    "discard_face_down",
    "dock_ability",
    "dock_add",
    "dock_colour",
    "draw_card",
    "draw_cards",
    "end_game",
    "end_money",
    "finish_boarding_turn",
    "flight_colour_count",
    "flight_numbers",
    "fly_limits",
    "fuel_cards",
    "fuel_cost",
    "fuel_out_least",
    "hand_add",
    "hand_at",
    "hand_total",
    "improvable",
    "improve",
    "improve_while_loading",
    "income",
    "land",
    "lay_face_down",
    "legal_actions",
    "load_die",
    "maintenance",
    "map_at",
    "next_discarder",
    "next_flyer",
    "order_key",
    "pay",
    "payable_after",
    "payable_limit",
    "payable_with",
    "place_marker",
    "put",
    "recount",
    "recount_fuel_cards",
    "redeal",
    "reward_order",
    "roll_die_to_dock",
    "score_now",
    "se",
    "set_size",
    "setup",
    "start_boarding_turn",
    "start_flight_turn",
    "start_turn",
    "switch_on",
    "table_at",
    "take_off",
    "tdown_at",
    "touch_down",
    "use_ability",
    "visited_locations",
    "wild_size",
]
