"""The end of the race (RB "End of the Game"), D16."""

from __future__ import annotations

import sim.games.flying_carpet.layout as L


def test_exact_landing_on_the_finish_wins(gs):
    g = gs()
    g.put(0, 23, 3)
    g.set_hand(0, ["V3", "V1", "V2", "L11"])
    g.play("V3", "beige")
    assert g.pos(0) == (23, 0) and g.rank(0) == 1
    g.end_turn()
    assert g.over and g.snapshot()["winner"] == 0 and g.legal_actions() == []


def test_points_may_not_be_left_over(gs):
    """RB: the finish must be reached with the exact number of points; passing it blows off."""
    g = gs()
    g.put(0, 21, 3)
    g.set_hand(0, ["L33", "V1", "V2", "V3"])
    assert g.ends("L33", "orange") == {"blown"}      # down 3 to (21,0), right 3: beyond the edge
    g.put(0, 20, 3)
    assert g.ends("L33", "orange") == {(23, 0)}
    assert g.ends("L33", "beige") == {(23, 0)}


def test_stop_before_does_not_land_on_the_finish_with_points_left_over(gs):
    """RB "End of the Game": "No points may be left over". In the ``stop_before`` reading
    (D1) the bottom edge cuts a down move short, but never onto the finish platform."""
    g = gs(blocked_option="stop_before")
    g.put(0, 23, 2)
    g.set_hand(0, ["V3", "V1", "V2", "L11"])
    assert g.ends("V3", "beige") == set()              # down 3 from row 2: one point left over
    assert g.ends("V2", "beige") == {(23, 0)}          # exact
    g.put(0, 20, 2)
    assert g.ends("V3", "beige") == {(20, 0)}          # elsewhere the edge still stops it


def test_first_home_ends_the_race(gs):
    g = gs(seats=4)
    g.put(0, 23, 1)
    g.play("drift")
    g.end_turn()
    assert g.over and [g.rank(s) for s in range(4)] == [1, 0, 0, 0]


def test_play_for_placings(gs):
    """D16 ``play_for_placings``: the others race on; a finished carpet has no more turns; the
    last one takes the last place."""
    g = gs(seats=3, play_for_placings=True)
    g.put(0, 23, 1)
    g.play("drift")
    g.end_turn()
    assert not g.over and g.cur == 1
    g.put(1, 23, 1)
    g.play("drift")
    g.end_turn()
    assert g.over and [g.rank(s) for s in range(3)] == [1, 2, 3]


def test_turn_cap_is_a_stall(gs):
    g = gs(seats=3)
    g.run  # noqa: B018
    for _ in range(3000):
        if g.over:
            break
        g.put(g.cur, 5, 0)        # never gets anywhere: sits on the ground
        g.end_turn()
    snap = g.snapshot()
    assert snap["stalled"] and snap["played"] == g.run.cfg.turn_cap and snap["winner"] == -1
    assert g.events()[-1][2] == L.E_STALL
