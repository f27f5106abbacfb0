"""The planner's ``endsearch`` weight (RULES.md "Policies", planner, endsearch; off in every
shipped config): after the last draw (RB "Preparar la próxima ronda": the evening pile is
empty; "Salir de la aeronave": the round after it and the final round are left) each plane's
purchase (RB "Comprar actualizaciones") is the affordable basket whose simulations of the rest
of the game by the same planner score best. Before the last draw it plays exactly as the
planner; it never touches the chance stream; it replays like every policy."""

from __future__ import annotations

import numpy as np
import pytest

import sim.games.now_boarding.layout as L
import sim.games.now_boarding.play as P
from sim.compile import run_from_dict
from sim.errors import ConfigError
from sim.games import get_game
from sim.games.now_boarding.data import PLANNER_WEIGHTS
from sim.games.now_boarding.hooks import check_playout, run_traced
from sim.games.now_boarding.state import GameState
from tests.games.now_boarding.conftest import assert_same_chance

G = get_game("now_boarding")


def planner_run(endsearch=0, players=4, seed=9):
    seat = {"policy": "planner", "weights": {"endsearch": endsearch}}
    return run_from_dict({"game": "now_boarding", "seed": seed, "seats": [seat] * players, "now_boarding": {}},
                         "<test>")


def batch(run, first, count):
    out = np.zeros((count, len(G.column_names(run.n_seats))), np.int32)
    G.play_batch(run.spec, run.entry_policy, run.entry_weights, run.perms, np.int64(run.seed), np.int64(first),
                 np.int64(count), out)
    return out


def test_endsearch_is_off_by_default_and_off_is_the_planner():
    """data.PLANNER_WEIGHTS: ``endsearch`` 0, so the shipped configs (and their baselines) play
    the version-7 planner; ``endsearch`` 0 written out plays the same games as the planner."""
    assert PLANNER_WEIGHTS["endsearch"] == 0.0
    plain = run_from_dict({"game": "now_boarding", "seed": 9, "seats": ["planner"] * 4, "now_boarding": {}},
                          "<test>")
    assert plain.entry_weights[0][L.PW_ENDSEARCH] == 0.0
    assert np.array_equal(batch(plain, 0, 6), batch(planner_run(0), 0, 6))


@pytest.mark.parametrize("value", [2.5, -1, 1001])
def test_endsearch_must_be_a_whole_number_of_simulations(value):
    """spec._check_endsearch: the weight counts simulations per candidate (0 = off, at most
    1,000); anything else is a ConfigError naming seats[0].weights.endsearch."""
    with pytest.raises(ConfigError, match=r"seats\[0\]\.weights\.endsearch.*whole number from 0 to 1000"):
        planner_run(value)


def test_endsearch_in_a_rollout_base_is_refused():
    """The rollout team chooses its purchases by simulation itself: ``endsearch`` in its
    ``base_weights`` would do nothing, so it is a ConfigError naming the key."""
    seat = {"policy": "rollout", "base_weights": {"endsearch": 1}}
    with pytest.raises(ConfigError, match=r"seats\[0\]\.base_weights\.endsearch"):
        run_from_dict({"game": "now_boarding", "seats": [seat] * 4}, "<test>")


def _buys(ev):
    return ev[ev[:, 2] == L.E_BUY]


def test_a_seat_and_a_route_instead_of_speed_after_the_last_draw_win_the_game():
    """Game 32 of seed 9, 4 players. Round 15's maintenance draws the evening pile's last cards
    (RB "Preparar la próxima ronda"), so its purchases come after the last draw. There the
    planner's ``endbuy`` buys speed for planes 2 and 3 ($9 each). The search has plane 2 buy
    a seat ($9) and plane 3 the colour-1 route ($7), a purchase ``endbuy`` never makes. Until
    those purchases both games are the same event for event. With the search the team
    delivers 66 passengers, ends with 2 complaints and wins; the planner delivers 64, ends
    with 3 and loses."""
    a, b = planner_run(1), planner_run(0)
    sa, ea, _, _ = run_traced(a, 32)
    sb, eb, _, _ = run_traced(b, 32)
    assert check_playout(a, 32) == check_playout(b, 32) == 0
    ba, bb = _buys(ea), _buys(eb)
    first = next(i for i in range(min(len(ba), len(bb))) if not np.array_equal(ba[i], bb[i]))
    # [round, plane, E_BUY, plane, kind, colour, price, 0]
    assert ba[first].tolist() == [15, 2, L.E_BUY, 2, L.U_SEAT, 0, 9, 0]
    assert bb[first].tolist() == [15, 2, L.E_BUY, 2, L.U_SPEED, 0, 9, 0]
    assert ba[first + 1].tolist() == [15, 3, L.E_BUY, 3, L.U_ROUTE, 1, 7, 0]
    assert bb[first + 1].tolist() == [15, 3, L.E_BUY, 3, L.U_SPEED, 0, 9, 0]
    # every event before the first different purchase is the same in both games
    ia = int(np.flatnonzero((ea == ba[first]).all(1))[0])
    ib = int(np.flatnonzero((eb == bb[first]).all(1))[0])
    assert ia == ib and np.array_equal(ea[:ia], eb[:ib])
    # round 15's maintenance is the one after the last draw: its draws empty the evening pile
    draws = ea[(ea[:, 0] == 15) & (ea[:, 2] == L.E_DRAW)]
    assert len(draws) > 0 and not (ea[(ea[:, 0] > 15) & (ea[:, 2] == L.E_DRAW)]).size
    gs = GameState.from_run(a, 32)
    for _ in range(14):
        gs.end_turn()
    assert gs.flight() == 0
    assert not P.maintenance_draw(gs.st, gs.spec, gs.pol, gs.rng, gs.ev, gs.evn)
    assert gs.st[L.S_ROUND] == 15 and P.after_last_draw(gs.st) and gs.pile(2) == []
    assert (sa[L.S_DELIV], sa[L.S_COMPL], sa[L.S_WIN]) == (66, 2, 1)
    assert (sb[L.S_DELIV], sb[L.S_COMPL], sb[L.S_WIN]) == (64, 3, 0)


@pytest.mark.parametrize("players", [2, 4])
def test_chance_stream_untouched_the_same_deals_and_plane_orders(players):
    """The search simulates from streams drawn from the policy stream
    (``engine.lookahead_streams``): on the same game index the searching team is dealt the
    same set-up, passengers and weather and flies in the same plane order every round as the
    planner (only purchases after the last draw, and what follows from them, differ: of games
    0-7 of seed 9, in game 6 with 2 players and in game 7 with 4; game 5 with 4 players differed too
    while the search saw the last draw's face-down destinations, RULES.md)."""
    a, b = planner_run(1, players), planner_run(0, players)
    differ = []
    for g in range(8):
        assert GameState.from_run(a, g).dealt() == GameState.from_run(b, g).dealt()
        _, ea, _, _ = run_traced(a, g)
        _, eb, _, _ = run_traced(b, g)
        assert_same_chance(ea, eb)
        differ.append(_buys(ea).tolist() != _buys(eb).tolist())
    assert [g for g, x in enumerate(differ) if x] == {2: [6], 4: [7]}[players]


def test_endsearch_replays_and_keeps_every_invariant():
    """Determinism per (seed, game index): a batch row equals the same game played alone and
    its trace's row; whole games with the search keep every invariant (check_playout), also
    with one payment per upgrade and the tile supply limits."""
    run = planner_run(1)
    out = batch(run, 0, 4)
    assert np.array_equal(out[2], batch(run, 2, 1)[0])
    names = G.column_names(run.n_seats)
    assert [G.trace(run, 3).row[n] for n in names] == out[3].tolist()
    assert [G.check_playout(run, g) for g in range(3)] == [0, 0, 0]
    other = run_from_dict({"game": "now_boarding", "seed": 5, "seats": [{"policy": "planner", "weights": {
        "endsearch": 1}}] * 3, "now_boarding": {"pooled_payment": False, "supply_limits": True}}, "<test>")
    assert [G.check_playout(other, g) for g in range(3)] == [0, 0, 0]


def test_endsearch_wins_more_on_the_same_deals():
    """200 4-player games of seed 9, paired: the searching team wins 64 where the planner wins
    56 and delivers 12,036 passengers against 11,901, with 618 complaints against 671; it buys
    more routes (754 against 686). (4,000 games of the shipped config's seed: RULES.md,
    "endsearch".)"""
    a, b = batch(planner_run(1), 0, 200), batch(planner_run(0), 0, 200)
    c = G.column_names(4)
    tot = lambda out, name: int(out[:, c.index(name)].sum())  # noqa: E731
    assert (tot(a, "team_win"), tot(b, "team_win")) == (64, 56)
    assert (tot(a, "delivered"), tot(b, "delivered")) == (12036, 11901)
    assert (tot(a, "complaints"), tot(b, "complaints")) == (618, 671)
    assert (tot(a, "upg_route"), tot(b, "upg_route")) == (754, 686)
