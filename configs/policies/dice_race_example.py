"""An example user policy for Dice Race (docs/policies.md): a cautious racer.

It moves the furthest it can, except that it never lands on a space where an opponent could
hit it with its next roll when a safe move gets within ``caution`` spaces of the best. It reads
the board (every seat's position: Dice Race hides nothing) and the legal moves.

This file is code: ``sim`` runs it with your rights when a config names it.
"""

from sim.games.dice_race.layout import A_DEST, P_OFF_POS, P_S, P_SIDES, P_TRACK
from sim.userpol import user_policy


@user_policy("dice_race", weights={"caution": 2.0})
def cautious(view):
    p = view.spec[0]  # the spec's parameter array (layout.py P_*)
    me = view.seat
    best = -1
    best_score = -1e9
    for i in range(view.n):
        dest = view.actions[i, A_DEST]
        if dest >= p[P_TRACK]:
            return i  # a finish: take it
        danger = 0
        for t in range(p[P_S]):
            if t != me:
                d = dest - view.state[p[P_OFF_POS] + t]
                if 0 < d <= 2 * p[P_SIDES]:
                    danger = 1
        score = dest - view.weights[0] * danger
        if score > best_score:
            best = i
            best_score = score
    return best
