"""`sim schema GAME`: the JSON Schema editors read from a config's `#:schema` first line.

The committed docs/schema/<game>.json must be what the code generates (regenerate with
`make schema`), every shipped config must point at its game's schema and validate against it
(an independent validator: jsonschema), and the schema must reject what `sim validate`
rejects for the same reason (unknown keys, wrong types, out-of-range numbers, unknown
policies).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import jsonschema
import pytest

from sim.config import json_schema
from sim.games import available

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = sorted((ROOT / "configs").glob("*.toml"))


@pytest.mark.parametrize("game", available())
def test_committed_schema_is_current(game):
    committed = json.loads((ROOT / "docs" / "schema" / f"{game}.json").read_text())
    assert committed == json.loads(json.dumps(json_schema(game))), f"run `make schema`: docs/schema/{game}.json is stale"


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.stem)
def test_shipped_config_points_at_and_validates(path):
    raw = tomllib.loads(path.read_text())
    first = path.read_text().splitlines()[0]
    assert first == f"#:schema ../docs/schema/{raw['game']}.json"
    jsonschema.validate(raw, json_schema(raw["game"]))


@pytest.mark.parametrize("mutate, where", [
    (lambda r: r.update(gamez=1), "gamez"),                                    # unknown top-level key
    (lambda r: r["clear_for_takeoff"].update(hand_size="9"), "hand_size"),     # wrong type
    (lambda r: r.update(games=0), "games"),                                     # out of range
    (lambda r: r["seats"][0].update(policy="randomm"), "policy"),              # unknown policy
    (lambda r: r["clear_for_takeoff"].update(hand_sise=9), "hand_sise"),       # unknown game key
])
def test_schema_rejects_what_validate_rejects(mutate, where):
    raw = tomllib.loads((ROOT / "configs" / "clear_for_takeoff.toml").read_text())
    mutate(raw)
    with pytest.raises(jsonschema.ValidationError) as e:
        jsonschema.validate(raw, json_schema("clear_for_takeoff"))
    assert where in str(e.value)


def test_cli_schema_stdout_and_errors(tmp_path):
    cmd = [sys.executable, "-m", "sim.cli", "schema"]
    out = subprocess.run(cmd + ["now_boarding"], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0
    schema = json.loads(out.stdout)
    assert schema["properties"]["game"] == {"const": "now_boarding", "description": schema["properties"]["game"]["description"],
                                            "title": "Game"}
    assert "now_boarding" in schema["properties"]
    bad = subprocess.run(cmd + ["nope"], capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and "unknown game 'nope'" in bad.stderr
    target = tmp_path / "x.json"
    target.write_text("not mine")
    clash = subprocess.run(cmd + ["now_boarding", "--out", str(target)], capture_output=True, text=True, cwd=ROOT)
    assert clash.returncode == 2 and target.read_text() == "not mine"
