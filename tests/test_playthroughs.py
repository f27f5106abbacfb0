"""Golden playthroughs (DESIGN.md test layer 3, OpenSpiel's idea): for every shipped config,
the rendered replay of one game, compared line by line with
``tests/playthroughs/<config name>.txt``.

A missing or different golden fails. Goldens are written only on request: `make playthroughs`
runs this test with ``SIM_RECORD_GOLDEN=1``; review the diff (``git diff tests/playthroughs``)
when a rule or a policy changes on purpose, and bump the game's rules version.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sim.api import replay
from sim.compile import load_run

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "playthroughs"
CONFIGS = sorted((ROOT / "configs").glob("*.toml"))
GAME_INDEX = 0


def render(config: Path) -> str:
    """The golden text of ``config``: a header naming config, game, rules version, seed and
    game index, then the replay of that game, then its result row (every column)."""
    run = load_run(config)
    res = replay(run, GAME_INDEX)
    head = [
        f"# golden playthrough of configs/{config.name}",
        f"# game {run.game.name}, rules version {run.game.version}, seed {run.seed}, game index {GAME_INDEX}",
        "# recorded by `make playthroughs`; review the diff when a rule or a policy changes on purpose",
        "",
    ]
    tail = ["", "# result row"] + [f"{k} = {v}" for k, v in res.row.items()]
    return "\n".join(head + res.lines + tail) + "\n"


@pytest.mark.parametrize("config", CONFIGS, ids=[c.stem for c in CONFIGS])
def test_golden_playthrough(config):
    path = GOLDEN / f"{config.stem}.txt"
    text = render(config)
    if os.environ.get("SIM_RECORD_GOLDEN") == "1":
        path.write_text(text)
    assert path.is_file(), f"no golden {path.relative_to(ROOT)}: record it with `make playthroughs` and review it"
    want = path.read_text().splitlines()
    got = text.splitlines()
    for i, (a, b) in enumerate(zip(want, got)):
        assert a == b, f"{path.name}: first difference at line {i + 1}:\n  golden: {a}\n  now:    {b}"
    assert len(want) == len(got), f"{path.name}: golden has {len(want)} lines, the replay {len(got)}"
