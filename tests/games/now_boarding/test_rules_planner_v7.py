"""Scenario tests of the rules-version-7 planner (``horizon`` 4, ``hlate`` 2 and ``hfinal`` 0
over version 6; RULES.md "Policies", planner): in the morning and afternoon a plane's itinerary
may run 4 move points past this round's speed, in the evening 2, in the final round none (RB
"Fase de vuelo": a plane's move points per flight phase; "Despegue y aterrizaje": the stages;
"Salir de la aeronave": the game ends after the final round; the horizon is the team's
planning, not a rule)."""

from __future__ import annotations

import numpy as np

import sim.games.now_boarding.layout as L
from sim.compile import run_from_dict
from sim.games import get_game
from sim.games.now_boarding.data import PLANNER_V6, PLANNER_WEIGHTS
from sim.games.now_boarding.planner import plan_round
from sim.games.now_boarding.state import GameState

G = get_game("now_boarding")
PLAN = np.r_[L.PLN_STOP:L.C_DROPAT + L.NCARD]


def _plan(g: GameState, **over: float) -> np.ndarray:
    """The planner's round plan (PLN_*, C_ASSIGN, C_DROPAT: int64) for g's position with the
    weights ``over`` replaced; the position itself is not changed."""
    st = g.st.copy()
    w = g.w.copy()
    for k, v in over.items():
        w[getattr(L, "PW_" + k.upper())] = v
    plan_round(st, g.spec, w)
    return st[PLAN].copy()


def test_each_part_of_the_game_plans_with_its_horizon():
    """At every round start of 6 whole 4-player games: before the evening the plan is the one of
    ``horizon`` 4 all game (``hlate`` and ``hfinal`` -1); in the evening, before the last draw,
    the plan of ``horizon`` 2; in the final round (RB "Salir de la aeronave": the game ends with
    its flight phase and maintenance) the plan of ``horizon`` 0, so no plan counts a delivery
    after the end. The round after the last draw keeps ``endgame``. In each part some plans
    differ from those of the other horizon (so the weight is what decides)."""
    assert PLANNER_WEIGHTS["horizon"] == 4.0 and PLANNER_WEIGHTS["hlate"] == 2.0
    assert PLANNER_WEIGHTS["hfinal"] == 0.0
    run = run_from_dict({"game": "now_boarding", "seed": 11, "seats": ["planner"] * 4}, "<v7>")
    seen = {"early": [0, 0], "evening": [0, 0], "final": [0, 0]}
    for game in range(6):
        g = GameState.from_run(run, game)
        while not g.over:
            stage = int(g.st[L.S_STAGE])
            mine = _plan(g)
            h4 = _plan(g, hlate=-1.0, hfinal=-1.0)
            if stage == 3:
                part, want = "final", _plan(g, horizon=0.0, hlate=-1.0, hfinal=-1.0)
            elif stage == 2 and not g.pile(2):
                assert np.array_equal(mine, h4)  # the round after the last draw: ``endgame`` (v5)
                g.end_turn()
                continue
            elif stage == 2:
                part, want = "evening", _plan(g, horizon=2.0, hlate=-1.0, hfinal=-1.0)
            else:
                part, want = "early", h4
            assert np.array_equal(mine, want), (game, part)
            seen[part][0] += 1
            other = _plan(g, horizon=2.0, hlate=-1.0, hfinal=-1.0) if part == "early" else h4
            seen[part][1] += not np.array_equal(mine, other)
            g.end_turn()
    assert seen["early"][0] > 30 and seen["evening"][0] > 20 and seen["final"][0] >= 4, seen
    assert seen["early"][1] > 5 and seen["evening"][1] > 5 and seen["final"][1] >= 2, seen


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
