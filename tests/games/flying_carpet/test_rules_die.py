"""The special die (RB "The Special Die"), each face rigged, D11 - D15, and the tactical
variant without the die (RB "End of the Game")."""

from __future__ import annotations

import pytest

import sim.games.flying_carpet.layout as L
from sim.games.base import Rig
from sim.games.flying_carpet.state import GameState


def piece(name: str, x: int, y: int) -> dict:
    """A city entry of a config section."""
    return {"piece": name, "at": [x, y]}


def on_star(face, seats=3, dice_after=(), **section):
    """Seat 0 flies R11 light blue from (8,5) onto the free star (9,6); the die shows ``face``
    (then the faces ``dice_after``)."""
    section.setdefault("city", [])
    g = GameState(seats=seats, rig=Rig(dice=[face, *dice_after]), **section)
    g.put(0, 8, 5)
    g.set_hand(0, ["R11", "V1", "V2", "L11"])
    assert g.ends("R11", "light blue") == {(9, 6)}
    g.play("R11", "light blue")
    return g


def test_face_1_skip_the_next_turn():
    g = on_star(1)
    assert g.skip(0) == 1 and g.stat(0, L.ST_STARS) == 1 and g.stat(0, L.ST_DIE1) == 1
    assert g.phase == L.PH_END


def test_face_2_move_a_cloud_not_onto_carpets_and_keeping_a_way():
    """RB: the player may move the clouds; pieces not covered; everyone can still move on (D11)."""
    g = on_star(2, city=[piece("small_cloud", 14, 10)])
    assert g.phase == L.PH_CLOUDS
    acts = g.legal_actions()
    assert (L.K_KEEP, -1, -1, -1, 0) in acts
    targets = {a[2] for a in acts if a[0] == L.K_CLOUD}
    assert 6 * 24 + 9 not in targets and 6 * 24 + 8 not in targets   # seat 0 now on (9,6)
    assert all(t // 24 >= 6 for t in targets)                        # D2: in the sky
    g.apply((L.K_CLOUD, 0, 7 * 24 + 3, -1, 0))
    assert g.anchor(0) == (3, 7) and g.scenery(3, 7) == 1 and g.scenery(14, 10) == 0


def test_face_3_another_turn_at_once():
    g = on_star(3)
    turn = g.snapshot()["turn"]
    g.end_turn()
    assert g.cur == 0 and g.snapshot()["turn"] == turn + 1 and g.phase == L.PH_MOVE
    g.end_turn()
    assert g.cur == 1


def test_face_4_two_tokens_from_the_supply():
    g = on_star(4)
    assert g.tokens(0) == 7 and g.snapshot()["supply"] == 45 - 15 - 2


def test_face_4_supply_running_low():
    """D13: only what is left in the supply."""
    g = on_star(4, tokens_total=16)
    assert g.tokens(0) == 6 and g.snapshot()["supply"] == 0


def test_face_5_swap_places_with_a_carpet_of_choice():
    g = on_star(5)
    g.put(2, 20, 9)
    assert g.phase == L.PH_SWAP and {a[1] for a in g.legal_actions()} == {1, 2}
    g.choose(L.K_SWAP, 2)
    assert g.pos(0) == (20, 9) and g.pos(2) == (9, 6)


def test_face_6_move_up_to_four_turning_once_no_second_roll():
    """RB: any free space at most four away, one corner; a star there means nothing."""
    g = on_star(6)
    assert g.phase == L.PH_HOP
    cells = {a[1] for a in g.legal_actions()}
    assert 6 * 24 + 9 in cells                       # stay
    assert (6 + 2) * 24 + 9 + 2 in cells             # two up, two right
    assert (6 + 3) * 24 + 9 + 2 not in cells         # five away
    star = 7 * 24 + 3
    g2 = on_star(6)
    g2.put(0, 4, 5)                                  # rebuilt: hop onto the star (3,7)
    assert star in {a[1] for a in g2.legal_actions()}
    g2.choose(L.K_HOP, star)
    assert g2.pos(0) == (3, 7) and g2.phase == L.PH_END and g2.stat(0, L.ST_ROLLS) == 1


def test_an_occupied_star_is_not_free():
    """RB: only a *free* star rolls the die; on a carpet the landing rule applies."""
    g = GameState(seats=3, city=[], rig=Rig(dice=[1]))
    g.put(0, 8, 5)
    g.put(1, 9, 6)
    g.set_hand(0, ["R11", "V1", "V2", "L11"])
    g.play("R11", "light blue", land="block")
    assert g.stat(0, L.ST_STARS) == 0 and g.skip(1) == 1 and g.skip(0) == 0


def test_tactical_game_without_the_die():
    """RB "End of the Game": without the special die the stars have no meaning."""
    g = GameState(seats=3, city=[], special_die=False, rig=Rig(dice=[1]))
    g.put(0, 8, 5)
    g.set_hand(0, ["R11", "V1", "V2", "L11"])
    g.play("R11", "light blue")
    assert g.pos(0) == (9, 6) and g.stat(0, L.ST_STARS) == 0 and g.skip(0) == 0 and g.phase == L.PH_END


def test_face_2_a_cloud_may_not_hem_a_carpet_in():
    """RB "The Special Die", face 2: "Care must also be taken that afterwards every player can
    still move forward, i.e. is not hemmed in and thereby unable to move" (D11). Seat 1 in the
    top-left corner (0,11) has the free neighbours (1,11) and (0,10); a one-space cloud lies on
    (0,10), so the other one-space cloud may not go to (1,11) - unless no carpet is there."""
    rock = {"kind": "cloud", "cells": [[0, 0]]}
    city = [piece("r1", 0, 10), piece("r2", 14, 10)]
    g = on_star(2, pieces={"r1": rock, "r2": rock}, city=city)
    g.put(1, 0, 11)
    assert g.phase == L.PH_CLOUDS
    targets = {a[2] for a in g.legal_actions() if a[0] == L.K_CLOUD and a[1] == 1}
    assert 11 * 24 + 1 not in targets and 11 * 24 + 2 in targets
    with pytest.raises(ValueError):
        g.apply((L.K_CLOUD, 1, 11 * 24 + 1, -1, 0))
    g2 = on_star(2, pieces={"r1": rock, "r2": rock}, city=city)
    g2.put(1, 5, 11)                                  # the corner empty: the same move is allowed
    assert 11 * 24 + 1 in {a[2] for a in g2.legal_actions() if a[0] == L.K_CLOUD and a[1] == 1}
    g.apply((L.K_CLOUD, 1, 11 * 24 + 2, -1, 0))
    assert g.anchor(1) == (2, 11) and g.scenery(1, 11) == 0


def test_face_6_turns_a_corner_once_around_scenery():
    """RB "The Special Die", face 6: "move his playing piece to any free board space at a
    distance of at most four spaces in any direction. He may also turn a corner once" (D12:
    the path is free of scenery). A one-space cloud right of the carpet on (9,6): (10,7) is
    reached up first and then right; (11,6) and (12,6) only around the cloud with two corners:
    refused; the cloud's own space is no target."""
    rock = {"kind": "cloud", "cells": [[0, 0]]}
    g = on_star(6, pieces={"r1": rock}, city=[piece("r1", 10, 6)])
    assert g.phase == L.PH_HOP
    cells = {a[1] for a in g.legal_actions()}
    assert 7 * 24 + 10 in cells and 7 * 24 + 11 in cells and 8 * 24 + 11 in cells
    assert 6 * 24 + 10 not in cells and 6 * 24 + 11 not in cells and 6 * 24 + 12 not in cells
    g2 = on_star(6)                                   # without the cloud: straight on
    assert 6 * 24 + 11 in {a[1] for a in g2.legal_actions()}
    g.choose(L.K_HOP, 7 * 24 + 10)
    assert g.pos(0) == (10, 7) and g.phase == L.PH_END


def test_face_3_the_extra_turn_may_roll_again():
    """RB "The Special Die", face 3: "may immediately take another turn, i.e. move his playing
    piece according to one of the four move options"; D15: it is a full turn, so a move onto a
    free star in it rolls the die again (here a second 3: a third turn)."""
    g = on_star(3, dice_after=[3])
    g.end_turn()
    assert g.cur == 0 and g.phase == L.PH_MOVE
    g.put(0, 8, 5)
    g.set_hand(0, ["R11", "V1", "V2", "L11"])
    g.play("R11", "light blue")
    assert g.pos(0) == (9, 6) and g.stat(0, L.ST_ROLLS) == 2 and g.stat(0, L.ST_DIE1 + 2) == 2
    g.end_turn()
    assert g.cur == 0 and g.phase == L.PH_MOVE
    g.end_turn()
    assert g.cur == 1


def test_a_drift_onto_a_free_star_rolls_the_die():
    """RB "The Special Die": "If a playing piece ends its move on a free star space" - drifting
    is a move option (RB "Summary of move options"), so a drift onto a star rolls (D14)."""
    g = GameState(seats=3, city=[], rig=Rig(dice=[4]))
    g.put(0, 8, 6)
    assert g.ends("drift") == {(9, 6)}
    g.play("drift")
    assert g.pos(0) == (9, 6) and g.stat(0, L.ST_ROLLS) == 1 and g.tokens(0) == 7


def test_swapped_onto_a_star_rolls_nothing():
    """RB "The Special Die", face 5: the pieces are exchanged on their spaces; D14: being
    swapped onto a star is no move of one's own and rolls nothing (for either carpet)."""
    g = on_star(5, dice_after=[1])
    g.put(2, 15, 8)                                   # a star
    g.choose(L.K_SWAP, 2)
    assert g.pos(0) == (15, 8) and g.pos(2) == (9, 6) and g.phase == L.PH_END
    assert g.stat(0, L.ST_ROLLS) == 1 and g.stat(2, L.ST_ROLLS) == 0 and g.skip(0) == 0
    g.end_turn()
    g.end_turn()
    assert g.cur == 2 and g.phase == L.PH_MOVE and g.stat(2, L.ST_ROLLS) == 0


def test_forced_onto_a_star_rolls_nothing():
    """RB "Blockade": the forced carpet sinks straight down onto the edge of a scenery piece;
    D14: a carpet forced onto a star (here the top of a six-space tower under the star (9,6))
    rolls nothing and skips nothing."""
    tower = {"kind": "ground", "cells": [[0, y] for y in range(6)]}
    g = GameState(seats=3, city=[piece("tower", 9, 0)], pieces={"tower": tower}, rig=Rig(dice=[1]))
    g.put(0, 6, 6)
    g.put(1, 9, 9)
    g.set_hand(0, ["R31", "V1", "V2", "L11"])
    g.play("R31", "dark blue", land="force")          # up 3 to row 9, right 1 + wind 2
    assert g.pos(0) == (9, 9) and g.pos(1) == (9, 6)
    assert g.stat(1, L.ST_ROLLS) == 0 and g.stat(0, L.ST_ROLLS) == 0 and g.skip(1) == 0
    g.end_turn()
    assert g.cur == 1 and g.phase == L.PH_MOVE


@pytest.mark.parametrize("mode", ["one", "each"])
def test_face_2_one_cloud_or_each_cloud(mode):
    """RB "The Special Die", face 2: 'The player may move the clouds in the sky.' D11
    ``cloud_moves``: "one" (default) ends the face with one cloud moved; "each" leaves the
    decision open after every cloud move, so the player may go on with another cloud (each
    cloud once per roll) or stop (K_KEEP); when every cloud has moved, the face is done."""
    rock = {"kind": "cloud", "cells": [[0, 0]]}
    city = [piece("r1", 14, 10), piece("r2", 16, 10)]
    g = on_star(2, pieces={"r1": rock, "r2": rock}, city=city, cloud_moves=mode)
    assert g.phase == L.PH_CLOUDS
    g.apply((L.K_CLOUD, 0, 7 * 24 + 3, -1, 0))
    assert g.anchor(0) == (3, 7)
    if mode == "one":
        assert g.phase == L.PH_END and g.legal_actions() == []
        return
    assert g.phase == L.PH_CLOUDS
    acts = g.legal_actions()
    assert (L.K_KEEP, -1, -1, -1, 0) in acts
    assert {a[1] for a in acts if a[0] == L.K_CLOUD} == {1}     # r1 has moved this roll
    g.apply((L.K_CLOUD, 1, 7 * 24 + 5, -1, 0))
    assert g.anchor(1) == (5, 7) and g.phase == L.PH_END
    assert [int(e[3]) for e in g.events() if int(e[2]) == L.E_CLOUD] == [0, 1]


def test_face_2_each_cloud_may_stop_after_the_first():
    """D11 ``cloud_moves = "each"``: the player may stop after one cloud (K_KEEP); the other
    cloud stays where it is."""
    rock = {"kind": "cloud", "cells": [[0, 0]]}
    city = [piece("r1", 14, 10), piece("r2", 16, 10)]
    g = on_star(2, pieces={"r1": rock, "r2": rock}, city=city, cloud_moves="each")
    g.apply((L.K_CLOUD, 1, 7 * 24 + 5, -1, 0))
    g.apply((L.K_KEEP, -1, -1, -1, 0))
    assert g.phase == L.PH_END and g.anchor(0) == (14, 10) and g.anchor(1) == (5, 7)
