"""An example user policy for Flying Carpet (docs/policies.md): cards first.

It plays a card whenever one is legal (the first card row), and otherwise leaves the decision
to the base policy (greedy) by returning -1; the cloud move of the die's cloud face is always
the base's. It reads only the legal action rows (layout.py A_* columns).

This file is code: ``sim`` runs it with your rights when a config names it.
"""

from sim.games.flying_carpet.layout import A_KIND, K_CARD
from sim.userpol import user_policy


@user_policy("flying_carpet")
def cards_first(view):
    for i in range(view.n):
        if view.actions[i, A_KIND] == K_CARD:
            return i
    return -1  # no card to play: the base policy decides
