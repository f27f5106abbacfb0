"""RULES.md 1 (set-up) and 2 (the first roll)."""

from __future__ import annotations

import pytest

from sim.games.dice_race.state import GameState


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_token_starts_on_space_0_and_seat_0_rolls_first(gs, seats):
    """RULES.md 1: all tokens on the start, seat 0 to move; RULES.md 2: it has rolled."""
    g = gs(seats=seats)
    snap = g.snapshot()
    assert snap["positions"] == [0] * seats and snap["seat"] == 0 and snap["turn"] == 0
    assert all(1 <= d <= 6 for d in snap["dice"])
    assert snap["ranks"] == [0] * seats and snap["winner"] == -1 and not g.over


def test_the_first_roll_is_the_first_two_scripted_faces(gs):
    """RULES.md 2: the set-up ends with seat 0's roll (scripted: Rig(dice=...))."""
    assert gs(dice=[2, 6]).dice == (2, 6)


def test_the_dice_have_the_configured_faces(gs):
    """RULES.md 2: `sides` faces a die: the first rolls of 40 races of 3-sided dice show every
    face 1 .. 3 and nothing else; a scripted face outside them is refused."""
    run = gs(sides=3, track=10).run
    faces = {d for g in range(40) for d in GameState.from_run(run, g).dice}
    assert faces == {1, 2, 3}
    with pytest.raises(ValueError):
        gs(dice=[7, 1])
