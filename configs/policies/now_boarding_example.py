"""An example user policy for Now Boarding (docs/policies.md): a team that never buys seats.

The team's user policy decides each plane's purchase: ``view.actions`` lists every affordable
basket as rows (speed upgrades, seat upgrades, route upgrade 0/1, price), row 0 buying nothing.
This one buys the most speed it can afford without a seat upgrade, the cheapest such basket
on a tie, and a route upgrade only when ``route`` is 1. The flight phase and the maintenance
draw are the base policy's (planner).

This file is code: ``sim`` runs it with your rights when a config names it.
"""

from sim.userpol import user_policy


@user_policy("now_boarding", weights={"route": 0.0})
def no_seats(view):
    best = 0
    for i in range(1, view.n):
        speed = view.actions[i, 0]
        seats = view.actions[i, 1]
        route = view.actions[i, 2]
        price = view.actions[i, 3]
        if seats > 0 or (route > 0 and view.weights[0] < 0.5):
            continue
        b_speed = view.actions[best, 0]
        if speed > b_speed or (speed == b_speed and price < view.actions[best, 3]):
            best = i
    return best
