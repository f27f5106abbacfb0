"""RULES.md 5 (the finish, rule D1 both ways) and 6 (the turn cap)."""

from __future__ import annotations

from sim.games.dice_race.layout import K_DIE1, K_DIE2, K_PASS, K_SUM, ST_PASSES
from tests.games.dice_race.conftest import race


def test_reaching_or_passing_the_finish_wins_at_once(gs):
    """RULES.md 5 (D1 = false, the default): from 27 a roll of 2 and 5 offers 29, and the
    finish by die 2 or the sum; the first token there wins and the race ends."""
    g = gs(seats=3, dice=[2, 5])
    g.put(0, 27)
    g.put(1, 20)
    g.put(2, 20)
    assert [tuple(int(v) for v in r) for r in g.rows()] == [(K_DIE1, 2, 29), (K_DIE2, 5, 30), (K_SUM, 7, 30)]
    g.move("sum")
    snap = g.snapshot()
    assert g.over and snap["winner"] == 0 and snap["positions"][0] == 30
    assert snap["ranks"] == [1, 2, 2]  # RULES.md 5: tokens level share the better rank
    g.end_turn()  # the finishing turn still ends: it counts
    assert g.snapshot()["turn"] == 1 and g.row()[0] == 1


def test_ranks_follow_the_positions(gs):
    """RULES.md 5: the others ranked by how far they got."""
    g = gs(seats=4, dice=[6, 6])
    for s, x in enumerate([20, 3, 15, 9]):
        g.put(s, x)
    g.move("sum")
    assert g.snapshot()["ranks"] == [1, 4, 2, 3]


def test_exact_finish_only_an_exact_landing_wins(gs):
    """RULES.md D1 (exact_finish = true): from 27 with 2 and 5 only die 1 (to 29) is
    allowed; with 1 and 2 the sum lands exactly and wins."""
    g = gs(dice=[2, 5], exact_finish=True)
    g.put(0, 27)
    assert g.legal_actions() == [(K_DIE1, 2)]
    g = gs(dice=[1, 2], exact_finish=True)
    g.put(0, 27)
    g.move("sum")
    assert g.over and g.snapshot()["winner"] == 0


def test_exact_finish_with_no_allowed_move_passes(gs):
    """RULES.md D1: from 28 a roll of 5 and 6 allows nothing: the seat passes (counted)."""
    g = gs(dice=[5, 6], exact_finish=True)
    g.put(0, 28)
    assert g.legal_actions() == [(K_PASS, 0)]
    g.apply((K_PASS, 0))
    assert g.pos(0) == 28 and g.stat(0, ST_PASSES) == 1 and not g.over


def test_turn_cap_ends_the_race_as_a_stall():
    """RULES.md 6: after `turn_cap` player turns a running race is a stall: no winner, no
    ranks (the engine's cap test, also what GameState.end_turn calls). (No bump: the tokens
    would knock each other back.)"""
    g = race(seats=2, dice=[1, 1] * 3, turn_cap=3, bump=0)
    for _ in range(3):
        assert not g.over
        g.move("die 1")
        g.end_turn()
    snap = g.snapshot()
    assert g.over and snap["stalled"] and snap["winner"] == -1 and snap["ranks"] == [0, 0]
    assert snap["turn"] == 3 and snap["positions"] == [2, 1]
