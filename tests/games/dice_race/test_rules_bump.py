"""RULES.md 4 (the bump)."""

from __future__ import annotations

import numpy as np

from sim.games.dice_race.layout import ST_BUMPED, ST_BUMPS, ST_LOST
from sim.games.dice_race.spec import hit_table


def test_landing_on_an_opponent_sends_it_back_bump_spaces(gs):
    """RULES.md 4: seat 1 on 8; seat 0 rolls 3 and 5 and moves by the sum onto it: seat 1
    goes back 6 spaces (the default bump) to 2."""
    g = gs(dice=[3, 5])
    g.put(1, 8)
    g.move("sum")
    assert (g.pos(0), g.pos(1)) == (8, 2)
    assert (g.stat(0, ST_BUMPS), g.stat(1, ST_BUMPED), g.stat(1, ST_LOST)) == (1, 1, 6)


def test_moving_past_an_opponent_does_nothing(gs):
    """RULES.md 4: only an exact landing bumps."""
    g = gs(dice=[3, 5])
    g.put(1, 4)
    g.move("sum")
    assert (g.pos(0), g.pos(1)) == (8, 4)


def test_a_bump_never_goes_below_the_start(gs):
    """RULES.md 4: from space 4 a bump of 6 ends on the start (4 spaces lost)."""
    g = gs(dice=[1, 3])
    g.put(1, 4)
    g.move("sum")
    assert g.pos(1) == 0 and g.stat(1, ST_LOST) == 4


def test_every_opponent_on_the_space_goes_back(gs):
    """RULES.md 4: two opponents on the landing space both go back; no chain reaction."""
    g = gs(seats=4, dice=[2, 5])
    g.put(1, 7)
    g.put(2, 7)
    g.put(3, 1)
    g.move("sum")
    assert [g.pos(s) for s in range(4)] == [7, 1, 1, 1]
    assert g.stat(0, ST_BUMPS) == 2


def test_bump_0_turns_the_rule_off(gs):
    """RULES.md 4: `bump = 0`: the tokens share the space."""
    g = gs(dice=[3, 5], bump=0)
    g.put(1, 8)
    g.move("sum")
    assert (g.pos(0), g.pos(1)) == (8, 8)


def test_the_heuristic_counts_the_rolls_that_land_exactly():
    """The safety term's table (policies.move_score, RULES.md "Policies"): of the 36 rolls of
    two six-sided dice, those showing d on a die or as the sum: d = 1: 11, d = 6: 16 (11 + the
    5 sums), d = 7: 6, d = 12: 1."""
    hit = hit_table(6)
    assert hit[1] == 11 and hit[6] == 16 and hit[7] == 6 and hit[12] == 1
    assert hit.shape == (13,) and hit[0] == 0 and np.all(hit[1:] > 0)


def test_the_heuristic_bumps_where_greedy_runs(gs):
    """RULES.md 4 at work: seat 0 on 3, seat 1 on 9, seat 0 rolls 6 and 5: greedy takes the
    sum (to 14); the heuristic lands on seat 1 with die 1 (to 9, seat 1 back to 3): 6 spaces
    + 6 sent back - 0.5 x (6 x 16/36 expected loss) beats 11 spaces - 0.5 x (6 x 15/36)."""
    for policy, to in (("greedy", 14), ("heuristic", 9)):
        g = gs(dice=[6, 5], policies=[policy, "greedy"])
        g.put(0, 3)
        g.put(1, 9)
        g.apply(g.choose())
        assert g.pos(0) == to, policy
