"""Scenario tests of the rules-version-7 planner (``horizon`` 4 and ``hlate`` 2 over version 6;
RULES.md "Policies", planner): in the morning and afternoon a plane's itinerary may run 4 move
points past this round's speed, in the evening 2 (RB "Fase de vuelo": a plane's move points per
flight phase; "Despegue y aterrizaje": the stages; the horizon is the team's planning, not a
rule)."""

from __future__ import annotations

import numpy as np

import sim.games.now_boarding.layout as L
import sim.games.now_boarding.policies as POL
from sim.compile import run_from_dict
from sim.games import get_game
from sim.games.now_boarding.data import PLANNER_V6, PLANNER_WEIGHTS
from sim.games.now_boarding.state import GameState

G = get_game("now_boarding")
PLAN = np.r_[L.PLN_STOP:L.C_DROPAT + L.NCARD]


def _plan(g: GameState, **over: float) -> np.ndarray:
    """The planner's round plan (PLN_*, C_ASSIGN, C_DROPAT: int64) for g's position with the
    weights ``over`` replaced; the position itself is not changed."""
    st = g.st.copy()
    w = g.w.copy()
    for k, v in over.items():
        w[list(PLANNER_WEIGHTS).index(k)] = v
    POL.plan_round(st, g.spec, w)
    return st[PLAN].copy()


def test_evening_rounds_plan_with_the_evening_horizon():
    """At every round start of 6 whole 4-player games: before the evening the plan is the one of
    ``horizon`` 4 all game (``hlate`` -1); in the evening, before the last draw, it is the plan of
    ``horizon`` 2; and the two horizons give different plans in both parts of the game (so the
    weight is what decides)."""
    assert PLANNER_WEIGHTS["horizon"] == 4.0 and PLANNER_WEIGHTS["hlate"] == 2.0
    run = run_from_dict({"game": "now_boarding", "seed": 11, "seats": ["planner"] * 4}, "<v7>")
    early = late = differ_early = differ_late = 0
    for game in range(6):
        g = GameState.from_run(run, game)
        while not g.over:
            if POL.after_last_draw(g.st):
                break
            mine = _plan(g)
            h4, h2 = _plan(g, hlate=-1.0), _plan(g, horizon=2.0, hlate=-1.0)
            if g.st[L.S_STAGE] == 2:
                late += 1
                assert np.array_equal(mine, h2)
                differ_late += not np.array_equal(mine, h4)
            else:
                early += 1
                assert np.array_equal(mine, h4)
                differ_early += not np.array_equal(mine, h2)
            g.end_turn()
    assert early > 30 and late > 20
    assert differ_early > 5 and differ_late > 5


def test_version_7_wins_more_than_version_6_on_the_same_deals():
    """1,000 4-player games of seed 3, both teams on the same deals (common random numbers):
    version 7 wins more and delivers more than version 6 (``data.PLANNER_V6``)."""

    def cols(weights):
        run = run_from_dict({"game": "now_boarding", "seed": 3, "seats": [{"policy": "planner", "weights": weights}]
                             * 4}, "<v7>")
        names = G.column_names(run.n_seats)
        out = np.zeros((1000, len(names)), np.int32)
        G.play_batch(run.spec, run.entry_policy, run.entry_weights, run.perms, np.int64(run.seed), np.int64(0),
                     np.int64(1000), out)
        return out[:, names.index("team_win")], out[:, names.index("delivered")]

    w7, d7 = cols(dict(PLANNER_WEIGHTS))
    w6, d6 = cols(dict(PLANNER_V6))
    assert w7.sum() >= w6.sum() + 20, (w7.sum(), w6.sum())
    assert d7.mean() >= d6.mean() + 1.0, (d7.mean(), d6.mean())
