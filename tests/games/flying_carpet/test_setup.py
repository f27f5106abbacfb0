"""Set-up rules (RB "Preparation", "Building the scenery", "Cards and tokens", "Rules of Play")."""

from __future__ import annotations

from pathlib import Path

from sim.compile import load_run
from sim.games.base import Rig
from sim.games.flying_carpet.data import DECK, PIECES
from sim.games.flying_carpet.state import GameState

ROOT = Path(__file__).resolve().parents[3]


def test_hands_tokens_supply_and_start_platform():
    """RB: four wind cards each, the rest a face-down stack; five steering tokens each; every
    carpet on the brown platform in the lower left corner; the first player moves."""
    run = load_run(ROOT / "configs" / "flying_carpet.toml")
    gs = GameState.from_run(run, 0)
    snap = gs.snapshot()
    assert [len(h) for h in snap["hands"]] == [4, 4, 4, 4] and "-" not in sum(snap["hands"], [])
    assert snap["stack"] == 72 - 16 and snap["discard"] == 0
    assert snap["tokens"] == [5, 5, 5, 5] and snap["supply"] == 45 - 20
    assert snap["carpets"] == [(0, 0)] * 4 and snap["seat"] == 0 and snap["phase"] == "move"


def test_the_deck_has_72_cards_of_the_listed_kinds():
    run = load_run(ROOT / "configs" / "flying_carpet.toml")
    kinds = run.spec[5]
    assert kinds.shape == (72,) and sum(DECK.values()) == 72
    assert sorted(set(kinds.tolist())) == list(range(len(DECK)))


def test_rigged_deck_is_dealt_round_robin_first_card_first():
    order = list(range(72))[::-1]
    g = GameState(seats=3, city=[], rig=Rig(deck=order))
    # card 71 is drawn first (seat 0 slot 0), 70 second (seat 1 slot 0) ...
    assert g.hand_ids(0) == [71, 68, 65, 62] and g.hand_ids(1) == [70, 67, 64, 61]
    assert g.dealt()["deck"][-1] == 59


def test_three_card_hand_variant(gs):
    g = gs(seats=6, hand_size=3)
    assert all(len(h) == 3 for h in g.snapshot()["hands"]) and g.snapshot()["stack"] == 72 - 18
    assert g.snapshot()["supply"] == 45 - 30


def test_scenery_is_laid_as_the_config_says():
    """RB "Building the scenery": the pieces fit the grid exactly, ground pieces on the bottom edge."""
    run = load_run(ROOT / "configs" / "flying_carpet.toml")
    gs = GameState.from_run(run, 0)
    palace = [i for i, pl in enumerate(run.cfg.section.city) if pl.piece == "palace"][0]
    assert gs.anchor(palace) == (8, 0)
    covered = {(x, y) for x in range(24) for y in range(12) if gs.scenery(x, y) == palace + 1}
    assert covered == {(8 + dx, dy) for dx, dy in PIECES["palace"]["cells"]}
    assert gs.scenery(1, 0) == 0 and gs.scenery(22, 0) == 0 and gs.scenery(0, 0) == 0


def test_the_deal_depends_on_the_game_index_only():
    run = load_run(ROOT / "configs" / "flying_carpet.toml")
    a = GameState.from_run(run, 3).dealt()
    b = GameState.from_run(run, 3).dealt()
    c = GameState.from_run(run, 4).dealt()
    assert a == b and a != c
