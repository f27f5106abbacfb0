"""RULES.md 2 (the roll) and 3 (the move): a rigged roll and its allowed moves."""

from __future__ import annotations

import pytest

from sim.games.dice_race.layout import K_DIE1, K_DIE2, K_SUM


def test_rigged_roll_offers_die_die_and_sum(gs):
    """RULES.md 3: with 3 and 5 the token may move 3, 5 or 8 spaces."""
    g = gs(dice=[3, 5])
    assert g.legal_actions() == [(K_DIE1, 3), (K_DIE2, 5), (K_SUM, 8)]
    assert [int(r[2]) for r in g.rows()] == [3, 5, 8]


def test_a_double_lists_the_single_die_move_once(gs):
    """RULES.md 3: on a double the two single-die moves are one move."""
    assert gs(dice=[4, 4]).legal_actions() == [(K_DIE1, 4), (K_SUM, 8)]


@pytest.mark.parametrize("kind, to", [("die 1", 3), ("die 2", 5), ("sum", 8)])
def test_the_token_moves_the_chosen_number_of_spaces(gs, kind, to):
    """RULES.md 3: the chosen die (or the sum) moves the token forward; then play passes to
    the next seat, which rolls (RULES.md 2)."""
    g = gs(dice=[3, 5, 6, 1])
    g.move(kind)
    assert g.pos(0) == to and g.legal_actions() == []
    g.end_turn()
    assert g.cur == 1 and g.dice == (6, 1) and g.snapshot()["turn"] == 1


def test_a_move_that_is_not_allowed_is_refused_and_changes_nothing(gs):
    g = gs(dice=[3, 5])
    before = g.snapshot()
    with pytest.raises(ValueError):
        g.apply((K_SUM, 9))
    with pytest.raises(ValueError):
        g.apply((K_DIE2, 3))
    assert g.snapshot() == before


def test_play_goes_round_the_table(gs):
    """RULES.md 1: seat 0, 1, 2, then seat 0 again."""
    g = gs(seats=3, dice=[1, 2] * 4)
    order = []
    for _ in range(4):
        order.append(g.cur)
        g.move("die 1")
        g.end_turn()
    assert order == [0, 1, 2, 0]
