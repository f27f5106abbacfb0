"""An example user policy for Yukon Airways (docs/policies.md): never pass.

At every step with a choice it takes the first legal action that is not a pass, and leaves
the step to the base policy (greedy, -1) when passing is all it could do. It reads only the
kind column of the legal action rows (column 0; the row layout is ``rules.legal_actions``'s,
see layout.py "action kinds").

This file is code: ``sim`` runs it with your rights when a config names it.
"""

from sim.games.yukon_airways.layout import K_PASS
from sim.userpol import user_policy


@user_policy("yukon_airways")
def never_pass(view):
    for i in range(view.n):
        if view.actions[i, 0] != K_PASS:
            return i
    return -1
