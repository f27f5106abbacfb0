"""VIP variant (the 9 VIP cards of the physical game; BGA 'Normal' deal), rigged positions."""

from __future__ import annotations

import numpy as np

import sim.games.now_boarding.data as data
import sim.games.now_boarding.layout as L


def test_vip_deal(make):
    """players + 2 VIPs, each pending in a stage it allows, at most one per maintenance draw."""
    for gi in range(20):
        g = make(4, clear=False, game_index=gi, vip=True)
        pend = [i for i in range(L.NVIP) if g.st[L.VP_STATE + i] == 1]
        assert len(pend) == 6
        per_stage = np.zeros(3, int)
        for i in pend:
            kind = int(g.st[L.VP_KIND + i])
            stage = int(g.st[L.VP_STAGE + i])
            allowed = [s for k, s in data.VIP_CARDS if k == kind][0]
            assert allowed >> stage & 1
            per_stage[stage] += 1
        assert per_stage[0] <= 3 and per_stage[1] <= 5 and per_stage[2] <= 7
    assert make(4, clear=False).st[L.VP_STATE:L.VP_STATE + 9].sum() == 0  # variant off by default


def test_crying_baby_doubles_anger_of_the_others(make):
    g = make(vip=True)
    baby = g.place(g.card("ATL", "MIA"), "ATL", vip=data.VIP_BABY)
    other = g.place(g.card("ATL", "JFK"), "ATL")
    far = g.place(g.card("MIA", "ATL"), "MIA")
    g.anger()
    assert (g.anger_of(baby), g.anger_of(other), g.anger_of(far)) == (1, 2, 1)


def test_impatient_keeps_its_anger(make):
    g = make(vip=True)
    g.set_plane(0, airport="ATL", colours=["green"])
    c = g.place(g.card("ATL", "MIA"), "ATL", anger=2, vip=data.VIP_IMPATIENT)
    g.pickup(0, c)
    assert g.anger_of(c) == 2


def test_nervous_avoids_weather(make):
    g = make(vip=True)
    g.set_plane(0, airport="ATL", colours=["green"])
    g.set_weather([("ATL", "DFW", "storm", 1)])
    c = g.place(g.card("ATL", "DFW"), "ATL", vip=data.VIP_NERVOUS)
    assert g.dist(0, "DFW") == 4
    g.pickup(0, c)
    assert g.dist(0, "DFW") == 13  # white detour, no weather route
    g.drop(0, c) if g.can_drop(0, c) else None
    assert g.where(c) == ("aboard", 0)


def test_fugitive_needs_two_seats(make):
    g = make(vip=True)
    g.set_plane(0, airport="ATL", seats=2, colours=["green"])
    a = g.place(g.card("ATL", "JFK"), "ATL")
    f = g.place(g.card("ATL", "MIA"), "ATL", vip=data.VIP_FUGITIVE)
    g.pickup(0, a)
    assert g.can_pickup(0, f) == 0
    g.set_plane(1, airport="ATL", seats=2, colours=["purple"])
    assert g.pickup(1, f) == 1 and g.plane(1)["load"] == 2


def test_first_in_line_boards_first(make):
    g = make(vip=True)
    g.set_plane(0, airport="ATL", seats=3, colours=["green"])
    first = g.place(g.card("ATL", "MIA"), "ATL", vip=data.VIP_FIRST)
    other = g.place(g.card("ATL", "JFK"), "ATL")
    assert g.can_pickup(0, other) == 0
    assert g.pickup(0, first) == 1 and g.can_pickup(0, other) == 1


def test_celebrity_flies_alone(make):
    g = make(vip=True)
    g.set_plane(0, airport="ATL", seats=3, colours=["green"])
    celeb = g.place(g.card("ATL", "MIA"), "ATL", vip=data.VIP_CELEBRITY)
    other = g.place(g.card("ATL", "JFK"), "ATL")
    g.pickup(0, other)
    assert g.can_pickup(0, celeb) == 0
    g.set_plane(1, airport="ATL", seats=3, colours=["purple"])
    assert g.pickup(1, celeb) == 1
    third = g.place(g.card("ATL", "DEN"), "ATL")
    assert g.can_pickup(1, third) == 0


def test_direct_flight_leaves_only_at_destination(make):
    g = make(vip=True)
    g.set_plane(0, airport="ATL", speed=5, colours=["green"])
    c = g.place(g.card("ATL", "LAX"), "ATL", vip=data.VIP_DIRECT)
    g.pickup(0, c)
    g.fly_to(0, "MIA")
    assert not g.can_drop(0, c)


def test_grumpy_starts_with_one_anger(make):
    g = make(vip=True)
    i = [k for k in range(L.NVIP) if g.st[L.VP_KIND + k] == data.VIP_GRUMPY][0]
    g.draw(0, i)
    c = g.active()[0]
    assert g.st[L.C_VIPK + c] == data.VIP_GRUMPY and g.anger_of(c) == 1


def test_vip_not_taken_by_stage_end_is_a_complaint(make):
    g = make(vip=True)
    g.st[L.VP_STAGE + 0] = 0
    g.st[L.VP_STATE + 0] = 1
    g.set_pile(0, [])
    g.maintenance()
    assert g["C_VIP"] == 1 and g["COMPL"] == 1 and g["STAGE"] == 1 and g.check() == 0


def test_vip_attaches_to_the_first_new_passenger(make):
    g = make(vip=True)
    i = [k for k in range(L.NVIP) if g.st[L.VP_KIND + k] == data.VIP_BABY][0]
    g.st[L.VP_STAGE + i] = 0
    g.st[L.VP_STATE + i] = 1
    g.maintenance()  # greedy accepts
    vips = [c for c in g.active() if g.st[L.C_VIPK + c]]
    assert len(vips) == 1 and g.st[L.VP_STATE + i] == 2


# ---- Grumpy's reset (RULES.md "Grumpy", option grumpy_reset) ----------------------------
def _grumpy_aboard(make, **section):
    g = make(vip=True, **section)
    g.set_plane(0, airport="ATL", speed=5, colours=["green"])
    c = g.place(g.card("ATL", "LAX"), "ATL", anger=2, vip=data.VIP_GRUMPY)
    assert g.pickup(0, c) == 1
    return g, c


def test_grumpy_cubes_removed_at_pickup_by_default(make):
    """RB "Recoger pasajeros" ('if that passenger card has anger cubes, remove them to the
    supply') with the Grumpy VIP (starts with 1 anger): default grumpy_reset (0 with
    anger_reset = "pickup"): all its cubes go, so it is handed off with 0."""
    g, c = _grumpy_aboard(make)
    assert g.anger_of(c) == 0
    g.fly_to(0, "MIA")
    assert g.drop(0, c) == 1 and g.anger_of(c) == 0


def test_grumpy_reset_to_one_option(make):
    """RB "Recoger pasajeros" with option grumpy_reset = 1 (research note decision 4, 'Grumpy
    resets to 1'): a Grumpy picked up keeps 1 anger, and waits with it after a hand-off; a
    delivery still ends its anger."""
    g, c = _grumpy_aboard(make, grumpy_reset=1)
    assert g.anger_of(c) == 1
    g.fly_to(0, "MIA")
    assert g.drop(0, c) == 1 and g.where(c) == ("waiting", g.airport("MIA")) and g.anger_of(c) == 1
    other = g.place(g.card("ATL", "MIA"), "ATL", anger=3)
    g.set_plane(1, airport="ATL", colours=["green"])
    g.pickup(1, other)
    assert g.anger_of(other) == 0  # only Grumpy keeps one


def test_grumpy_in_setdown_mode_resets_to_one_unless_told(make):
    """anger_reset = "setdown" (BGA: anger kept aboard, reset when set down elsewhere): Grumpy
    resets to its starting 1 (BGA), or to 0 with grumpy_reset = 0."""
    for opt, want in (({}, 1), ({"grumpy_reset": 0}, 0)):
        g, c = _grumpy_aboard(make, anger_reset="setdown", **opt)
        assert g.anger_of(c) == 2
        g.fly_to(0, "MIA")
        assert g.drop(0, c) == 1 and g.anger_of(c) == want
