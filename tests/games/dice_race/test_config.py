"""Bad ``[dice_race]`` sections and impossible set-ups raise ConfigError naming the key, and
exit 2 through the CLI with one line naming the file and the key (RULES.md 1, config.py)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.compile import run_from_dict
from sim.errors import ConfigError


def compile_section(**section):
    return run_from_dict({"game": "dice_race", "seats": ["greedy", "greedy"], "dice_race": section}, "<t>")


@pytest.mark.parametrize("key, value", [("track", 4), ("track", 201), ("sides", 1), ("sides", 21), ("bump", -1),
                                        ("bump", 51), ("exact_finish", "yes"), ("trak", 30)])
def test_a_bad_value_names_its_key(key, value):
    with pytest.raises(ConfigError) as e:
        compile_section(**{key: value})
    assert f"dice_race.{key}" in str(e.value)


def test_a_track_no_longer_than_a_die_is_refused():
    """RULES.md 1: the track must be longer than a die's largest face (a feasibility check of
    spec.compile_spec, not a field bound)."""
    with pytest.raises(ConfigError) as e:
        compile_section(track=8, sides=8)
    assert "dice_race.track" in str(e.value)
    compile_section(track=9, sides=8)


def test_five_seats_are_refused():
    with pytest.raises(ConfigError) as e:
        run_from_dict({"game": "dice_race", "seats": ["greedy"] * 5}, "<t>")
    assert "seats" in str(e.value)


def test_the_cli_exits_2_with_one_line(tmp_path):
    cfg = tmp_path / "bad.toml"
    cfg.write_text('game = "dice_race"\nseats = ["greedy", "random"]\n[dice_race]\ntrack = 6\n')
    r = CliRunner().invoke(app, ["validate", str(cfg)])
    assert r.exit_code == 2
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and str(cfg) in lines[0] and "dice_race.track" in lines[0], r.output
