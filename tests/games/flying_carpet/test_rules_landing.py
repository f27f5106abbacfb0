"""Landing on a carpet (RB "Blockade / Intermediate Landing of a Flying Carpet"), D8 - D10."""

from __future__ import annotations

import sim.games.flying_carpet.layout as L


def piece(name: str, x: int, y: int) -> dict:
    """A city entry of a config section."""
    return {"piece": name, "at": [x, y]}


def _lander(gs, **kw):
    g = gs(**kw)
    g.put(0, 5, 5)
    g.set_hand(0, ["R32", "V1", "V2", "L11"])
    return g


def test_block_the_carpet_it_skips_its_next_turn(gs):
    """RB: blocking: the blocked player must skip his next turn."""
    g = _lander(gs)
    g.put(1, 7, 8)
    assert {r[L.A_LAND] for r in g.rows() if r[L.A_END] == 8 * 24 + 7} == {L.LAND_BLOCK, L.LAND_FORCE}
    g.play("R32", "light blue", land="block")
    assert g.pos(0) == (7, 8) and g.skip(1) == 1
    g.end_turn()
    assert g.cur == 1 and g.legal_actions() == [(L.K_SKIP, -1, -1, -1, 0)]
    g.apply((L.K_SKIP, -1, -1, -1, 0))
    g.end_turn()
    assert g.cur == 2 and g.skip(1) == 0 and g.stat(1, L.ST_SKIPPED) == 1
    assert g.stat(0, L.ST_BLOCK_G) == 1 and g.stat(1, L.ST_BLOCK_S) == 1


def test_force_an_intermediate_landing_onto_a_roof(gs):
    """RB: forcing: the other carpet sinks straight down to the edge of a scenery piece."""
    g = _lander(gs, city=[piece("palace", 6, 0)])
    g.put(1, 7, 8)
    g.play("R32", "light blue", land="force")
    assert g.pos(1) == (7, 3) and g.skip(1) == 0
    assert g.stat(0, L.ST_FORCE_G) == 1 and g.stat(1, L.ST_FORCE_S) == 1


def test_forced_carpet_sinks_through_clouds_to_the_board_edge(gs):
    """RB: a cloud offers no support: it glides through it, down to the edge of the board."""
    g = _lander(gs, city=[piece("small_cloud", 8, 6)])
    g.put(1, 8, 8)
    g.play("R32", "dark blue", land="force")     # up 3, right 2 + wind 1
    assert g.pos(0) == (8, 8) and g.pos(1) == (8, 0)


def test_forced_carpet_blocks_the_one_below_and_passes_others(gs):
    """RB: if a playing piece already stands down there it is blocked; pieces in between stay
    where they are (the green piece of the rulebook's example)."""
    g = _lander(gs, seats=4, city=[piece("palace", 6, 0)])
    g.put(1, 7, 8)
    g.put(2, 7, 3)
    g.put(3, 7, 5)
    g.play("R32", "light blue", land="force")
    assert g.pos(1) == (7, 3) and g.skip(2) == 1 and g.skip(1) == 0 and g.pos(3) == (7, 5)


def test_landing_on_a_stack_hits_every_carpet_of_it(gs):
    """D8: carpets sharing a space are one stack: a block blocks them all."""
    g = _lander(gs)
    g.put(1, 7, 8)
    g.put(2, 7, 8)
    g.play("R32", "light blue", land="block")
    assert g.skip(1) == 1 and g.skip(2) == 1


def test_the_start_platform_holds_any_number(gs):
    """D8: carpets back on the start platform do not block each other."""
    g = gs()
    g.put(0, 1, 0)
    g.set_hand(0, ["R11", "V1", "V2", "L11"])     # L11 orange: down 1 - illegal; beige right 1
    g.put(1, 0, 0)
    assert all(r[L.A_LAND] == L.LAND_NONE for r in g.rows())


def test_block_is_not_cumulative(gs):
    """D10: a carpet blocked twice before its turn skips one turn."""
    g = _lander(gs)
    g.put(1, 7, 8)
    g.set_skip(1, 1)
    g.play("R32", "light blue", land="block")
    assert g.skip(1) == 1


def test_a_drift_onto_a_carpet_may_block_or_force(gs):
    """RB "Blockade": "If a flying carpet ends its move on a space on which another flying
    carpet is already hovering, he may choose either to block it or to force it" - drifting is
    a move (RB "Summary of move options"), so a drift onto a carpet offers both."""
    g = gs()
    g.put(0, 5, 7)
    g.put(1, 6, 7)
    assert {r[L.A_LAND] for r in g.rows() if r[L.A_KIND] == L.K_DRIFT} == {L.LAND_BLOCK, L.LAND_FORCE}
    g.play("drift", land="force")
    assert g.pos(0) == (6, 7) and g.pos(1) == (6, 0) and g.skip(1) == 0
    g = gs()
    g.put(0, 5, 7)
    g.put(1, 6, 7)
    g.play("drift", land="block")
    assert g.pos(0) == (6, 7) and g.pos(1) == (6, 7) and g.skip(1) == 1


def _force_onto_the_finish(gs, **section):
    """Seat 0 on (23,6) plays V1 down onto seat 1 hovering on (23,5) and forces it to land:
    it sinks straight down the finish column to the board's edge, the finish platform."""
    g = gs(**section)
    g.put(0, 23, 6)
    g.put(1, 23, 5)
    g.set_hand(0, ["V1", "V2", "V3", "L11"])
    g.play("V1", "beige", land="force")               # down 1 to row 5, no wind there
    assert g.pos(0) == (23, 5) and g.pos(1) == (23, 0)
    return g


def test_a_carpet_forced_onto_the_finish_has_not_arrived(gs):
    """RB "End of the Game": 'The finish platform must be reached with the exact number of
    points. No points may be left over.' D9 ``forced_finish = "exact"`` (default since rules
    version 3): a carpet forced down onto the finish platform (RB "Blockade": it sinks
    "straight down ... to the edge of the board") has used no points, so it has not arrived;
    standing there it must fly off and land again with a move of its own (a drift that
    cannot sink leaves it where it is and finishes nothing)."""
    g = _force_onto_the_finish(gs)
    assert g.rank(1) == 0 and g.rank(0) == 0 and g.stat(1, L.ST_FORCE_S) == 1
    g.end_turn()
    assert not g.over and g.cur == 1
    g.set_hand(1, ["V1", "V2", "V3", "L11"])
    drift = [r for r in g.rows() if r[L.A_KIND] == L.K_DRIFT]
    assert {int(r[L.A_END]) for r in drift} == {23} and not any(r[L.A_FLAGS] & L.F_FINISH for r in drift)
    g.play("V1", "light blue")                        # up 1 to (23,1), no wind in the desert
    assert g.pos(1) == (23, 1) and g.rank(1) == 0
    g.set_current(1)
    g.play("drift")                                   # sinks one space onto the platform
    assert g.pos(1) == (23, 0) and g.rank(1) == 1
    g.end_turn()
    assert g.over and g.snapshot()["winner"] == 1


def test_a_carpet_forced_onto_the_finish_has_arrived_in_the_other_reading(gs):
    """D9 ``forced_finish = "arrived"`` (rules versions 1-2): the carpet forced down onto the
    finish platform has landed there and finishes at once."""
    g = _force_onto_the_finish(gs, forced_finish="arrived")
    assert g.rank(1) == 1 and g.rank(0) == 0
    g.end_turn()
    assert g.over and g.snapshot()["winner"] == 1


def test_a_forced_carpet_rests_above_a_cloud_on_its_landing_space(gs):
    """RB "Blockade": the forced carpet sinks to the edge of a scenery piece, the cloud "offers
    it no support"; D9: should a cloud lie on the landing space (here on top of a seven-space
    tower), the carpet rests on the first free space above it."""
    tower = {"kind": "ground", "cells": [[0, y] for y in range(7)]}
    rock = {"kind": "cloud", "cells": [[0, 0]]}
    g = gs(pieces={"tower": tower, "rock": rock}, city=[piece("tower", 10, 0), piece("rock", 10, 7)])
    g.put(0, 7, 7)
    g.put(1, 10, 10)
    g.set_hand(0, ["R31", "V1", "V2", "L11"])
    assert g.ends("R31", "dark blue") == {(10, 10)}   # up 3 to row 10, right 1 + wind 2
    g.play("R31", "dark blue", land="force")
    assert g.pos(1) == (10, 8) and g.scenery(10, 7) == 2 and g.scenery(10, 6) == 1
