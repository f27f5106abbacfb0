"""Golden playthrough (DESIGN.md test layer 3): the rendered replay of game 0 of the
default config, compared line by line with tests/playthroughs/clear_for_takeoff.txt.
Regenerate with `make playthroughs` (SIM_REGEN_GOLDEN=1) and review the diff when a rule
or a policy changes on purpose."""

import os
from pathlib import Path

from sim.api import replay
from sim.config import load

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "playthroughs" / "clear_for_takeoff.txt"


def test_golden_playthrough_clear_for_takeoff():
    cfg = load(ROOT / "configs" / "clear_for_takeoff.toml")
    text = "\n".join(replay(cfg, 0).lines) + "\n"
    if os.environ.get("SIM_REGEN_GOLDEN"):
        GOLDEN.write_text(text)
    want = GOLDEN.read_text().splitlines()
    got = text.splitlines()
    for i, (a, b) in enumerate(zip(want, got)):
        assert a == b, f"first difference at line {i + 1}:\n  golden: {a}\n  now:    {b}"
    assert len(want) == len(got)
    assert got[-1].startswith("result: winner seat")
