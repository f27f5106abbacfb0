"""Bad ``[flying_carpet]`` input and cities that break the set-up rules (RB "Building the
scenery", "Cards and tokens") raise ConfigError naming the key and the cell, and exit 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sim.compile import run_from_dict
from sim.errors import ConfigError

ROOT = Path(__file__).resolve().parents[3]


def compile_section(seats: int = 4, **section):
    return run_from_dict({"game": "flying_carpet", "seats": ["greedy"] * seats, "flying_carpet": section}, "<t>")


def err(**section) -> ConfigError:
    with pytest.raises(ConfigError) as e:
        compile_section(**section)
    return e.value


def test_unknown_piece_names_the_key():
    e = err(city=[{"piece": "pyramid", "at": [5, 0]}])
    assert e.key == "flying_carpet.city[0].piece" and "unknown piece 'pyramid'" in e.reason


def test_a_box_piece_is_used_once():
    e = err(city=[{"piece": "palm_a", "at": [5, 0]}, {"piece": "palm_a", "at": [7, 0]}])
    assert e.key == "flying_carpet.city[1].piece" and "already on the board as city[0]" in e.reason


def test_floating_ground_piece_names_the_row():
    e = err(city=[{"piece": "palace", "at": [8, 2]}])
    assert e.key == "flying_carpet.city[0].at" and "floats" in e.reason and "row 2" in e.reason


def test_piece_off_the_board_names_the_cell():
    e = err(city=[{"piece": "palace", "at": [22, 0]}])
    assert e.key == "flying_carpet.city[0].at" and "(24,0)" in e.reason


def test_overlapping_pieces_name_the_cell():
    e = err(city=[{"piece": "palace", "at": [8, 0]}, {"piece": "tall_house", "at": [10, 0]}])
    assert e.key == "flying_carpet.city[1].at" and "(10,0) is already covered by city[0] 'palace'" in e.reason


def test_start_finish_and_free_spaces_stay_uncovered():
    """RB: at least one space behind the start and one in front of the finish stay free."""
    e = err(city=[{"piece": "palm_b", "at": [1, 0]}])
    assert e.key == "flying_carpet.city[0].at" and "(1,0)" in e.reason and "stay free" in e.reason
    e = err(city=[{"piece": "small_house", "at": [22, 0]}])
    assert "(22,0)" in e.reason or "(23,0)" in e.reason
    e = err(pieces={"rock": {"kind": "ground", "cells": [[0, 0]]}}, city=[{"piece": "rock", "at": [0, 0]}])
    assert "the start platform" in e.reason


def test_cloud_in_the_windless_zone_is_refused_unless_allowed():
    """D2: clouds lie in the sky; ``clouds_anywhere`` allows the desert rows."""
    e = err(city=[{"piece": "small_cloud", "at": [5, 4]}])
    assert e.key == "flying_carpet.city[0].at" and "(5,4) in the windless zone" in e.reason
    run = compile_section(city=[{"piece": "small_cloud", "at": [5, 4]}], clouds_anywhere=True)
    assert run.spec[1][4 * 24 + 5] == 1


def test_no_way_through_names_the_city_and_the_column():
    """RB: the carpets must always get through somewhere between sky and ground."""
    wall = {"kind": "ground", "cells": [[0, y] for y in range(12)]}
    e = err(pieces={"wall": wall}, city=[{"piece": "wall", "at": [10, 0]}])
    assert e.key == "flying_carpet.city" and "no way through" in e.reason and "column 9" in e.reason


def test_own_piece_may_not_reuse_a_box_name():
    e = err(pieces={"palace": {"kind": "ground", "cells": [[0, 0]]}})
    assert e.key == "flying_carpet.pieces.palace"


def test_stars_and_keep_free_cells_are_on_the_board():
    e = err(stars=[[3, 7], [30, 7]])
    assert e.key == "flying_carpet.stars[1]"
    e = err(stars=[[23, 0]])
    assert "finish platform" in e.reason
    e = err(keep_free=[[1, 12]])
    assert e.key == "flying_carpet.keep_free[0]"


def test_deck_and_tokens_feasibility():
    e = err(deck={"V9": 3})
    assert e.key == "flying_carpet.deck.V9" and "unknown wind-card kind" in e.reason
    e = err(deck={"V1": 10})
    assert e.key == "flying_carpet.deck" and "cannot deal 4 hands of 4" in e.reason
    e = err(tokens_total=19)
    assert e.key == "flying_carpet.tokens_total"


def test_bad_values_are_validation_errors():
    e = err(hand_size=0)
    assert e.key == "flying_carpet.hand_size"
    e = err(headwind="sideways")
    assert e.key == "flying_carpet.headwind"
    e = err(die_faces=["skip_turn", "fly_home"])
    assert e.key.startswith("flying_carpet.die_faces")
    e = err(colour="red")
    assert e.key == "flying_carpet.colour" and e.reason == "unknown key"
    for key, bad in (("drift_blocked", "bounce"), ("cloud_moves", "two"), ("forced_finish", "maybe")):
        e = err(**{key: bad})
        assert e.key == f"flying_carpet.{key}", key


def test_cloud_moves_each_needs_at_most_31_pieces():
    """D11 ``cloud_moves = "each"`` marks the clouds moved this roll in one int32: a city of
    more than 31 pieces is refused with the key named (one-space clouds in the sky here)."""
    rock = {"kind": "cloud", "cells": [[0, 0]]}
    pieces = {f"r{i}": rock for i in range(32)}
    city = [{"piece": f"r{i}", "at": [2 + i % 16, 7 + i // 16 * 2]} for i in range(32)]
    compile_section(pieces=pieces, city=city)                        # fine with one cloud a roll
    e = err(pieces=pieces, city=city, cloud_moves="each")
    assert e.key == "flying_carpet.cloud_moves" and "at most 31 pieces" in e.reason
    with pytest.raises(ConfigError) as ex:
        run_from_dict({"game": "flying_carpet", "seats": ["greedy"] * 2}, "<t>")
    assert ex.value.key == "seats"


def test_cli_exits_2_on_a_floating_piece(tmp_path):
    text = (ROOT / "configs" / "flying_carpet.toml").read_text().replace(
        'piece = "palace"\nat = [8, 0]', 'piece = "palace"\nat = [8, 3]')
    assert 'at = [8, 3]' in text
    bad = tmp_path / "bad_city.toml"
    bad.write_text(text)
    r = subprocess.run([sys.executable, "-m", "sim.cli", "run", str(bad), "--games", "10", "--out", str(tmp_path / "o")],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2, r.stderr
    assert "flying_carpet.city[2].at" in (r.stderr + r.stdout) and "floats" in (r.stderr + r.stdout)


def test_clouds_may_lie_across_both_wind_zones_and_on_stars():
    """RB "Building the scenery": "The clouds are placed as obstacles anywhere in the sky. They
    may lie on spaces of both wind zones at once. They may also be placed on stars." (D2)."""
    run = compile_section(city=[{"piece": "medium_cloud", "at": [2, 8]},     # rows 8 (wind 1) and 9 (wind 2)
                                {"piece": "small_cloud", "at": [9, 6]}])     # on the star (9,6)
    scen = run.spec[1]
    assert [int(scen[y * 24 + x]) for x, y in ((2, 8), (4, 8), (2, 9), (4, 9))] == [1, 1, 1, 1]
    assert int(scen[6 * 24 + 9]) == 2 and int(scen[6 * 24 + 10]) == 2
    e = err(city=[{"piece": "medium_cloud", "at": [2, 5]}])                  # rows 5-6: the desert
    assert "(2,5) in the windless zone" in e.reason
