"""Bad [yukon_airways] input raises ConfigError naming the dotted key (exit 2 through the CLI)."""

from __future__ import annotations

import copy
import subprocess
import sys

import pytest

from sim.errors import ConfigError
from tests.games.yukon_airways.conftest import ROOT, make_run, raw_config


def _err(**section) -> ConfigError:
    with pytest.raises(ConfigError) as e:
        make_run(**section)
    return e.value


def test_unknown_key_names_it():
    assert _err(hand_dael=6).key == "yukon_airways.hand_dael"


def test_route_naming_an_unknown_location():
    routes = copy.deepcopy(raw_config()["yukon_airways"]["routes"])
    routes[0]["a"] = "Yellowknife"
    e = _err(routes=routes)
    assert e.key == "yukon_airways.routes[0].a" and "Yellowknife" in e.reason


def test_fuel_cost_out_of_range():
    routes = copy.deepcopy(raw_config()["yukon_airways"]["routes"])
    routes[2]["fuel"] = 0
    assert _err(routes=routes).key == "yukon_airways.routes[2].fuel"
    routes[2]["fuel"] = 21
    assert _err(routes=routes).key == "yukon_airways.routes[2].fuel"


def test_location_value_out_of_range():
    locs = copy.deepcopy(raw_config()["yukon_airways"]["locations"])
    locs[3]["value"] = -1
    assert _err(locations=locs).key == "yukon_airways.locations[3].value"
    locs[3]["value"] = 51
    assert _err(locations=locs).key == "yukon_airways.locations[3].value"


def test_map_not_connected():
    routes = [r for r in raw_config()["yukon_airways"]["routes"] if "Dawson City" not in (r["a"], r["b"])]
    e = _err(routes=routes)
    assert e.key == "yukon_airways.routes"
    assert "Dawson City" in e.reason and "Old Crow" in e.reason and "Inuvik" in e.reason


def test_ticket_naming_an_unknown_location_or_the_hub():
    tickets = copy.deepcopy(raw_config()["yukon_airways"]["tickets"])
    tickets[5]["to"] = "Skagway"
    assert _err(tickets=tickets).key == "yukon_airways.tickets[5].to"
    tickets[5]["to"] = "Whitehorse"
    assert _err(tickets=tickets).key == "yukon_airways.tickets[5].to"


def test_deck_too_small_to_deal():
    tickets = [{"to": "Mayo", "symbol": "fuel", "count": 23}]
    e = _err(tickets=tickets)
    assert e.key == "yukon_airways.tickets" and "23" in e.reason


def test_too_few_markers_and_short_tables():
    assert _err(markers_per_colour=9).key == "yukon_airways.markers_per_colour"
    assert _err(start_money=[1, 2, 3]).key == "yukon_airways.start_money"
    assert _err(visited_table=[0, 1, 2]).key == "yukon_airways.visited_table"
    assert _err(fixed_orders=[1, 1, 9]).key == "yukon_airways.fixed_orders"
    assert _err(planes=["two_colours", "draw", "draw", "draw"]).key == "yukon_airways.planes[0]"


def test_rising_dials_and_literal_options():
    assert _err(dials={"draw": [3, 2]}).key.startswith("yukon_airways.dials")
    assert _err(tie_break="coin").key == "yukon_airways.tie_break"


def test_cli_exits_2_naming_the_key(tmp_path):
    text = (ROOT / "configs" / "yukon_airways.toml").read_text().replace(
        'a = "Whitehorse"\nb = "Cinnamon Strip"', 'a = "Whitehorse"\nb = "Cinnamon Stripp"', 1)
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    r = subprocess.run([sys.executable, "-m", "sim.cli", "run", str(bad), "--games", "10"],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 2
    assert "yukon_airways.routes[0].b" in r.stderr + r.stdout
