"""The policies read only what a player at the table sees (RULES.md "Policies"; RB "Cards and
tokens": the hands are held face down, the supply stack lies face down): the choice of a
greedy or heuristic seat does not change when the order of the face-down stack or another
player's hand changes."""

from __future__ import annotations

import numpy as np
import pytest

import sim.games.flying_carpet.layout as L
from sim.games.flying_carpet.data import HEURISTIC_WEIGHTS
from sim.games.flying_carpet.policies import select


def choice(g, pid):
    """Row the policy ``pid`` picks now, and that row."""
    acts = g.rows()
    n = acts.shape[0]
    w = np.asarray([HEURISTIC_WEIGHTS[k] for k in L.WEIGHT_NAMES], np.float64)
    fw = np.zeros(int(g.p[L.P_HAND]) + 1, np.float64)
    rng = g.rng.copy()
    i = int(select(g.state, g.spec, g.dmap, pid, w, acts, n, rng, fw))
    return tuple(int(v) for v in acts[i])


@pytest.mark.parametrize("pid", [L.POL_GREEDY, L.POL_HEURISTIC])
def test_hidden_cards_do_not_change_the_choice(gs, pid):
    g = gs(seats=3, city=[{"piece": "palace", "at": [8, 0]}])
    g.put(0, 5, 4)
    g.put(1, 9, 7)
    g.put(2, 14, 9)
    g.set_hand(0, ["R22", "V1", "L13", "R31"])
    g.set_hand(1, ["V3", "V2", "L11", "R11"])
    g.set_hand(2, ["R33", "R23", "R13", "L33"])
    want = choice(g, pid)
    g.set_hand(1, ["R32", "R12", "L22", "V1"])            # another player's hand
    g.set_hand(2, ["V2", "V3", "L21", "L31"])
    d0 = int(g.p[L.P_OFF_DECK])
    n = int(g.state[L.H_DECK_N])
    g.state[d0: d0 + n] = g.state[d0: d0 + n][::-1].copy()  # the stack's order
    assert choice(g, pid) == want
