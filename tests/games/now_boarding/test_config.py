"""Bad input for the [now_boarding] section (validation, sim.config) and infeasible set-ups
(spec.compile_spec, via sim.compile.run_from_dict): ConfigError naming the key."""

from __future__ import annotations

import pytest

from sim.compile import run_from_dict as load_dict
from sim.errors import ConfigError


def raw(section=None, seats=None, **top):
    r = {"game": "now_boarding", "seats": seats or ["greedy"] * 4, "now_boarding": section or {}}
    r.update(top)
    return r


@pytest.mark.parametrize("section,key", [
    ({"colour": 3}, "now_boarding.colour"),
    ({"planes": ["ATL", "XYZ", "LAX", "ORD"]}, "now_boarding.planes"),
    ({"planes": ["ATL", "ATL", "LAX", "ORD"]}, "now_boarding.planes"),
    ({"planes": ["ATL", "LAX"]}, "now_boarding.planes"),
    ({"piles": [12, 20]}, "now_boarding.piles"),
    ({"piles": [30, 30, 30]}, "now_boarding.piles"),
    ({"draws": [0, 4, 5]}, "now_boarding.draws"),
    ({"anger_limit": 0}, "now_boarding.anger_limit"),
    ({"anger_reset": "never"}, "now_boarding.anger_reset"),
    ({"grumpy_reset": 2}, "now_boarding.grumpy_reset"),
    ({"free_upgrade": "route"}, "now_boarding.free_upgrade"),
    ({"weather_tokens": 7}, "now_boarding.weather_tokens"),
    ({"seat_prices": [5, 9, 13]}, "now_boarding.seat_prices"),
    ({"speed_prices": [5, 7, -9, 11, 13, 15]}, "now_boarding.speed_prices"),
    ({"max_seats": 0}, "now_boarding.max_seats"),
    ({"action_budget": -1}, "now_boarding.action_budget"),
    ({"vip": "yes please"}, "now_boarding.vip"),
])
def test_bad_section_values_name_the_key(section, key):
    with pytest.raises(ConfigError) as e:
        load_dict(raw(section), "x.toml")
    assert e.value.key == key and e.value.file == "x.toml"


def test_weather_tokens_need_enough_routes():
    with pytest.raises(ConfigError) as e:
        load_dict(raw({"weather_tokens": 6}, seats=["greedy"] * 3), "x.toml")
    assert e.value.key == "now_boarding.weather_tokens"


def test_planes_must_be_on_the_board_side():
    with pytest.raises(ConfigError) as e:
        load_dict(raw({"planes": ["SEA", "ATL"]}, seats=["greedy"] * 2), "x.toml")
    assert e.value.key == "now_boarding.planes"


def test_team_plays_one_policy():
    with pytest.raises(ConfigError) as e:
        load_dict(raw(seats=["greedy", "greedy", "random", "greedy"]), "x.toml")
    assert e.value.key == "seats"
    with pytest.raises(ConfigError) as e:
        load_dict(raw(seats=[{"policy": "heuristic", "weights": {"anger": 1.0}}, "heuristic"]), "x.toml")
    assert e.value.key == "seats"


def test_seat_count_and_weights():
    with pytest.raises(ConfigError) as e:
        load_dict(raw(seats=["greedy"] * 6), "x.toml")
    assert e.value.key == "seats"
    with pytest.raises(ConfigError) as e:
        load_dict(raw(seats=[{"policy": "heuristic", "weights": {"speed": 1.0}}] * 4), "x.toml")
    assert e.value.key == "seats[0].weights.speed"


def test_valid_variants_load():
    cfg = load_dict(raw({"vip": True, "action_budget": 8, "anger_reset": "setdown"}), "x.toml").cfg
    assert cfg.section.vip and cfg.section.action_budget == 8


def test_grumpy_reset_default_follows_the_anger_reset_mode():
    """RULES.md "Grumpy": grumpy_reset unset = 0 with anger_reset "pickup" (RB), 1 with
    "setdown" (BGA); an explicit value wins in either mode (spec P_GRUMPY)."""
    import sim.games.now_boarding.layout as L

    def k(section):
        return int(load_dict(raw(section), "x.toml").spec[0][L.P_GRUMPY])

    assert k({}) == 0 and k({"anger_reset": "setdown"}) == 1
    assert k({"grumpy_reset": 1}) == 1 and k({"anger_reset": "setdown", "grumpy_reset": 0}) == 0


def test_the_configs_comments_select_the_older_planners_they_name():
    """The shipped configs' comments give the seat that selects the version-6, version-5,
    version-4 and version-3 planners (rules versions 5, 6 and 7 changed the defaults): pasted on
    every seat, each comment's seat gives exactly data.PLANNER_V6 / PLANNER_V5 /
    PLANNER_V4_WEIGHTS / PLANNER_V3_WEIGHTS."""
    import re
    import tomllib
    from pathlib import Path

    from sim.games.now_boarding.data import (
        PLANNER_V3_WEIGHTS,
        PLANNER_V4_WEIGHTS,
        PLANNER_V5,
        PLANNER_V6,
        PLANNER_WEIGHTS,
    )

    root = Path(__file__).resolve().parents[3]
    want = {"version-6": PLANNER_V6, "version-5": PLANNER_V5, "version-4": PLANNER_V4_WEIGHTS,
            "version-3": PLANNER_V3_WEIGHTS}
    for path in sorted((root / "configs").glob("now_boarding*.toml")):
        lines = path.read_text().splitlines()
        found = set()
        for i, line in enumerate(lines):
            if line.startswith('# { policy = "planner", weights ='):
                label = re.search(r"version-[3456]", lines[i - 1]).group(0)
                seat = tomllib.loads("seat = " + line[2:])["seat"]
                assert seat["policy"] == "planner"
                assert dict(PLANNER_WEIGHTS, **seat["weights"]) == want[label], (path.name, label)
                found.add(label)
        if path.name != "now_boarding_vip.toml":
            assert found == set(want), path.name
