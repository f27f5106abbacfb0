"""An example user policy for Clear for Takeoff (docs/policies.md): a VIP hoarder.

Among the legal plays it prefers moving its own aircraft forward (to the D sequence, then an
advance, then a placement) and keeps its VIP cards for last: a VIP play only when nothing else
is legal. Attack cards (FLR, DLY) rank by the ``attack`` weight. It reads only the legal
play rows (layout.py "Actions": kind, aircraft, argument, LC used); a turn without a play
(exchange or pass) is the base policy's (greedy).

This file is code: ``sim`` runs it with your rights when a config names it.
"""

from sim.games.clear_for_takeoff.layout import K_ADVANCE, K_DLY, K_FLR, K_PLACE, K_TO_D, K_VIP
from sim.userpol import user_policy


@user_policy("clear_for_takeoff", weights={"attack": 1.5})
def vip_hoarder(view):
    best = 0
    best_score = -1e9
    for i in range(view.n):
        kind = view.actions[i, 0]
        if kind == K_TO_D:
            score = 3.0
        elif kind == K_ADVANCE:
            score = 2.0
        elif kind == K_PLACE:
            score = 1.0
        elif kind == K_FLR or kind == K_DLY:
            score = view.weights[0]
        elif kind == K_VIP:
            score = -10.0  # hoarded: played only when nothing else is legal
        else:
            score = 0.0
        if score > best_score:
            best = i
            best_score = score
    return best
