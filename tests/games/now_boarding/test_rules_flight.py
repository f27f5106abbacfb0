"""RB "Fase de vuelo": moving, weather, picking up and dropping off (rigged positions, 4-5 side)."""

from __future__ import annotations

import sim.games.now_boarding.layout as L
import sim.games.now_boarding.rules as R
from sim.games.now_boarding.state import GameState
from tests.games.now_boarding.conftest import cleared


def test_move_up_to_speed_and_stop_on_a_route_space(make):
    """RB "Mueve tu avión": up to its speed a round; it may stop on any space, even off an airport.
    ATL-DEN has 3 spaces, so airport to airport costs 4 move points."""
    g = make()
    g.set_plane(0, airport="ATL", speed=3, colours=["green"])
    assert g.fly_to(0, "DEN") == 3
    pl = g.plane(0)
    assert pl["airport"] == -1 and pl["route"] == g.route("ATL", "DEN") and pl["speed_left"] == 0
    assert g.dist(0, "DEN") == 1 and g.dist(0, "ATL") == 3
    assert g.fly(0, "DEN") == 0  # no move points left
    g.start_flight()
    assert g.fly_to(0, "DEN") == 1 and g.plane(0)["airport"] == g.airport("DEN")
    assert g.check() == 0


def test_may_turn_back_mid_flight(make):
    """RB "Mueve tu avión": a plane can change direction in mid-flight ("puede cambiar la dirección
    del movimiento en pleno vuelo")."""
    g = make()
    g.set_plane(0, route=("ATL", "DEN"), offset=1, speed=3, colours=["green"])
    assert g.fly_to(0, "ATL") == 1 and g.plane(0)["airport"] == g.airport("ATL")


def test_special_routes_need_the_colour(make):
    """RB "Tablero": everyone flies white routes; coloured spaces need the matching colour.
    ATL->DFW: green route 3 points; white only 13 (ATL-DEN-SFO-LAX-DFW); purple via MIA 5."""
    g = make()
    g.set_plane(0, airport="ATL", colours=["green"])
    assert g.dist(0, "DFW") == 3
    g.set_plane(0, airport="ATL", colours=[])
    assert g.dist(0, "DFW") == 13
    g.set_plane(0, airport="ATL", colours=["purple"])
    assert g.dist(0, "DFW") == 5
    g.set_plane(0, airport="ATL", speed=9, colours=[])
    g.fly_to(0, "DFW")
    assert g.plane(0)["route"] != g.route("ATL", "DFW")  # never entered the green route


def test_storm_costs_one_more_and_tailwind_one_less_in_both_directions(make):
    """RB "Mueve tu avión": a storm replaces 1 space with 2, a tailwind space is skipped; either
    direction."""
    g = make()
    g.set_plane(0, airport="ATL", colours=["green"])
    g.set_plane(1, airport="DFW", colours=["green"])
    g.set_weather([("ATL", "DFW", "storm", 1)])
    assert g.dist(0, "DFW") == 4 and g.dist(1, "ATL") == 4
    g.set_weather([("ATL", "DFW", "tailwind", 2)])
    assert g.dist(0, "DFW") == 2 and g.dist(1, "ATL") == 2
    # speed 2 crosses the tailwind route in one round
    g.set_plane(0, airport="ATL", speed=2, colours=["green"])
    assert g.fly_to(0, "DFW") == 2 and g.plane(0)["airport"] == g.airport("DFW")


def test_storm_half_space_is_a_stop(make):
    """A storm space is 2 spaces: a plane may stop between them (BGA's extra node)."""
    g = make()
    g.set_weather([("ATL", "DFW", "storm", 1)])
    g.set_plane(0, airport="ATL", speed=2, colours=["green"])
    assert g.fly_to(0, "DFW") == 2
    assert g.plane(0)["offset"] in (2, 2) and g.dist(0, "DFW") == 2


def test_stage_weather_keeps_planes_on_their_physical_space(make):
    """RB stage change: tokens are replaced; a plane on a route stays on its space (a storm before it
    adds 1 to its offset; a tailwind placed under it moves it back one space)."""
    g = make()
    r = g.route("ATL", "DEN")
    g.set_plane(0, route=("ATL", "DEN"), offset=2, colours=["green"])
    g.st[L.WP_ROUTE + 1 * L.MAXTOK:L.WP_ROUTE + 2 * L.MAXTOK] = -1
    g.st[L.WP_ROUTE + 1 * L.MAXTOK] = r
    g.st[L.WP_SPACE + 1 * L.MAXTOK] = 1 if g.spec[L.P_RA + r] == g.airport("ATL") else 3
    g.apply_weather(1)
    assert g.st[L.R_LEN + r] == 5 and g.dist(0, "ATL") == 3 and g.dist(0, "DEN") == 2
    # tailwind (2nd token of the plan) on the plane's own space 2
    g.set_weather([])
    g.set_plane(0, route=("ATL", "DEN"), offset=2)
    g.st[L.WP_ROUTE + 1 * L.MAXTOK] = -1
    g.st[L.WP_ROUTE + 1 * L.MAXTOK + 1] = r
    g.st[L.WP_SPACE + 1 * L.MAXTOK + 1] = 2
    g.apply_weather(1)
    assert g.st[L.R_LEN + r] == 3 and g.dist(0, "ATL") == 1 and g.dist(0, "DEN") == 2
    assert g.check() == 0


def test_temporary_speed_token_gives_one_extra_space(make):
    """RB "Mueve tu avión": discard the temporary speed token to move 1 extra space this round; it
    returns to supply."""
    g = make()
    g.set_plane(0, airport="ATL", speed=3, colours=["green"])
    g.st[L.S_TSPEED] = 0
    assert g.fly_to(0, "DEN") == 4
    assert g.plane(0)["airport"] == g.airport("DEN") and g["TSPEED"] == -1


def test_pickup_respects_seats_and_temporary_seat(make):
    """RB "Recoger pasajeros": at most as many passengers as seats; the temporary seat token carries
    1 above the limit, then the plane stays full until a permanent seat frees up."""
    g = make()
    g.set_plane(0, airport="ATL", seats=2, colours=["green"])
    a, b, c = g.card("ATL", "MIA"), g.card("ATL", "JFK"), g.card("ATL", "DEN")
    for x in (a, b, c):
        g.place(x, "ATL")
    assert g.pickup(0, a) == 1 and g.pickup(0, b) == 1
    assert g.can_pickup(0, c) == 0
    g.st[L.S_TSEAT] = 0
    assert g.can_pickup(0, c) == 2 and g.pickup(0, c) == 2
    assert g.plane(0)["load"] == 3 and g["TSEAT"] == -1 and g.check() == 0
    g.fly_to(0, "MIA")
    assert g.drop(0, a) == 2  # delivered at MIA
    assert g.plane(0)["load"] == 2
    d = g.place(g.card("MIA", "ATL"), "MIA")
    assert g.can_pickup(0, d) == 0  # still full: 2 aboard, 2 seats


def test_pickup_removes_anger(make):
    """RB "Recoger pasajeros": picking up a passenger returns its anger cubes to the supply."""
    g = make()
    g.set_plane(0, airport="ATL", colours=["green"])
    c = g.place(g.card("ATL", "MIA"), "ATL", anger=3)
    g.pickup(0, c)
    assert g.anger_of(c) == 0 and g.where(c) == ("aboard", 0)


def test_setdown_reset_mode_keeps_anger_aboard(make):
    """Option anger_reset = "setdown" (BGA): anger stays aboard, is cleared when set down elsewhere."""
    g = make(anger_reset="setdown")
    g.set_plane(0, airport="ATL", speed=5, colours=["green"])
    c = g.place(g.card("ATL", "LAX"), "ATL", anger=2)
    g.pickup(0, c)
    assert g.anger_of(c) == 2
    g.fly_to(0, "MIA")
    assert g.drop(0, c) == 1 and g.anger_of(c) == 0


def test_no_drop_off_where_just_picked_up(make):
    """RB "Dejar pasajeros": you cannot drop a passenger at the airport you just picked it up from."""
    g = make()
    g.set_plane(0, airport="ATL", speed=5, colours=["green"])
    c = g.place(g.card("ATL", "LAX"), "ATL", anger=2)
    g.pickup(0, c)
    assert not g.can_drop(0, c) and g.drop(0, c) == 0
    assert g.legal_drops(0) == []
    g.fly_to(0, "MIA")
    assert g.can_drop(0, c)


def test_hand_off_between_planes_in_the_same_round(make):
    """RB "Dejar pasajeros" + Pro tip: drop at a non-destination airport face up; another plane picks
    it up in the same flight phase; only the plane that delivers earns the fare."""
    g = make()
    g.set_plane(0, airport="ATL", speed=4, colours=["green"])
    g.set_plane(2, airport="DEN", speed=3, colours=["orange"])
    c = g.place(g.card("ATL", "LAX"), "ATL")
    g.pickup(0, c)
    assert g.fly_to(0, "DEN") == 4
    assert g.drop(0, c) == 1 and g.where(c) == ("waiting", g.airport("DEN"))
    assert g.pickup(2, c) == 1
    assert not g.can_drop(2, c)  # just picked up at DEN
    assert g.fly_to(2, "LAX") == 3 and g.drop(2, c) == 2
    assert g.money(2) == 4 and g.plane(2)["fares"] == 4 and g.money(0) == 0
    assert g.where(c) == ("money", 2) and g["DELIV"] == 1 and g.check() == 0


def test_delivery_earns_the_fare(make):
    """RB "Dejar pasajeros": a passenger set down at its destination goes to that player's money pile
    (its fare)."""
    g = make()
    g.set_plane(3, airport="JFK", speed=3, colours=["red"])
    c = g.place(g.card("JFK", "ORD"), "JFK")
    g.pickup(3, c)
    g.fly_to(3, "ORD")
    assert g.deliver_all(3) == 1
    assert g.money(3) == 2 and g["FARES"] == 2 and g.active() == []


def test_action_budget_limits_a_flight_phase(make):
    """Timer model (RULES.md): action_budget actions per plane per flight phase; a space moved,
    a pickup and a drop-off cost 1 each."""
    g = make(action_budget=3)
    g.start_flight()
    g.set_plane(0, airport="ATL", speed=6, colours=["green"], actions=3)
    c = g.place(g.card("ATL", "ORD"), "ATL")
    assert g.pickup(0, c) == 1
    assert g.fly_to(0, "ORD") == 2  # 3 needed, 2 actions left
    assert g.plane(0)["airport"] == -1 and g.plane(0)["speed_left"] == 4


def test_policy_flight_hands_off_at_a_shared_airport(make):
    """Heuristic policy: a plane hands a passenger to a plane at the same airport that is much closer
    to its destination, and that plane takes it in the same flight phase."""
    g = make(policy="heuristic")
    g.set_plane(0, airport="DEN", speed=3, seats=2, colours=["green"])
    g.set_plane(1, airport="ATL", speed=3, seats=2, colours=["purple"])
    g.set_plane(2, airport="DEN", speed=3, seats=2, colours=["orange"])
    g.set_plane(3, airport="ORD", speed=3, seats=2, colours=["red"])
    c = g.place(g.card("ATL", "LAX"), "DEN")
    g.st[L.C_PLACE + c] = L.PL_PLANE  # aboard plane 0, picked up elsewhere
    g.st[L.C_WHERE + c] = 0
    g.st[L.C_PICK + c] = g.airport("ATL")
    g.st[g.pb(0) + L.SE_LOAD] = 1
    g.st[g.pb(0) + L.SE_NCARR] = 1
    assert g.check() == 0
    # plane 0: DEN->LAX white-only is DEN-SFO-LAX 5; plane 2 (orange) 3: not enough for handoff=3
    g.flight(first=0)
    assert g.where(c)[0] in ("aboard", "money")
    g2 = make(policy="heuristic")
    g2.set_plane(0, airport="DEN", speed=3, seats=2, colours=["green"])
    g2.set_plane(1, airport="ATL", speed=3, seats=2, colours=["purple"])
    g2.set_plane(2, airport="DEN", speed=3, seats=2, colours=["orange"])
    g2.set_plane(3, airport="ORD", speed=3, seats=2, colours=["red"])
    g2.set_weather([("DEN", "SFO", "storm", 1), ("LAX", "SFO", "storm", 1)])  # plane 0: 7 to LAX, plane 2: 3
    c = g2.place(g2.card("ATL", "LAX"), "DEN")
    g2.st[L.C_PLACE + c] = L.PL_PLANE
    g2.st[L.C_WHERE + c] = 0
    g2.st[L.C_PICK + c] = g2.airport("ATL")
    g2.st[g2.pb(0) + L.SE_LOAD] = 1
    g2.st[g2.pb(0) + L.SE_NCARR] = 1
    g2.flight(first=0)
    assert g2.where(c) == ("money", 2) and g2.plane(2)["fares"] == 4 and g2.plane(0)["fares"] == 0
    assert g2.check() == 0


def test_drop_ban_lasts_until_the_card_is_set_down(make):
    """RB "Dejar pasajeros": 'No puede dejar a un pasajero en un aeropuerto del que lo acaba de
    recoger' (RULES.md "Flight phase (RB "Fase de vuelo")": the ban lasts while the card stays
    aboard, not only for the round): a
    plane that carries the passenger away and back, even in a later round, still cannot set it
    down there; once set down elsewhere and picked up again, the old airport is open."""
    g = make()
    g.set_plane(0, airport="ATL", speed=9, colours=["green"])
    c = g.place(g.card("ATL", "LAX"), "ATL")
    g.pickup(0, c)
    g.fly_to(0, "MIA")
    g.maintenance()
    g.start_flight()
    g.fly_to(0, "ATL")
    assert not g.can_drop(0, c) and g.legal_drops(0) == []
    g.fly_to(0, "MIA")
    assert g.drop(0, c) == 1
    assert g.pickup(0, c) == 1 and not g.can_drop(0, c)
    g.fly_to(0, "ATL")
    assert g.can_drop(0, c) and g.drop(0, c) == 1


def test_drop_ban_option_phase_ends_with_the_flight_phase(make):
    """RB "Dejar pasajeros": 'No puede dejar a un pasajero en un aeropuerto del que lo acaba de
    recoger' ("has just picked it up from"); RULES.md "Flight phase (RB "Fase de vuelo")", the
    drop-off ban's decision. Option ``drop_ban``: with "aboard" (default) the
    ban lasts while the card stays aboard; with "phase" it lasts for the flight phase of the
    pickup only. A plane boards a passenger at ATL, flies to MIA and back in the same flight
    phase: banned in both readings; in the next flight phase, still at ATL, only "phase" lets
    it set the passenger down there (a hand-off: it waits at ATL again)."""
    for ban, later in (("aboard", False), ("phase", True)):
        g = make(drop_ban=ban)
        g.set_plane(0, airport="ATL", speed=9, colours=["green"])
        c = g.place(g.card("ATL", "LAX"), "ATL")
        g.pickup(0, c)
        g.fly_to(0, "MIA")
        g.fly_to(0, "ATL")
        assert g.plane(0)["airport"] == g.airport("ATL")
        assert not g.can_drop(0, c) and g.legal_drops(0) == []
        g.maintenance()
        g.start_flight()
        assert g.where(c) == ("aboard", 0)
        assert g.can_drop(0, c) is later
        assert (g.legal_drops(0) != []) is later
        if later:
            assert g.drop(0, c) == 1 and g.where(c) == ("waiting", g.airport("ATL"))
        assert g.check() == 0


def _space_from(g, p, a):
    """Physical space (1..k, counted from airport ``a``) of plane p on its route, under the
    board's weather (``rules.off_to_phys``)."""
    pl = g.plane(p)
    r = pl["route"]
    phys = int(R.off_to_phys(g.st[L.WX_TYPE + r], g.st[L.WX_SPACE + r], pl["offset"]))
    return phys if g.spec[L.P_RA + r] == g.airport(a) else int(g.spec[L.P_RSP + r]) + 1 - phys


def test_no_stop_on_a_tailwind_space(make):
    """RB "Mueve tu avión": 'Una ficha de viento de cola cubre 1 espacio que ahora saltas': the
    tailwind space is skipped, so no move ends on it. ATL-DEN has 3 spaces, tailwind on space 2:
    without it 2 move points from ATL end on space 2 (2 from DEN); with it the same 2 points end on
    space 3 (1 from DEN), one point from space 1 lands on space 3, and from DEN 1 point ends on
    space 3, 2 points on space 1 (either direction)."""
    g = make()
    g.set_plane(0, airport="ATL", speed=2, colours=["green"])
    assert g.fly_to(0, "DEN") == 2 and _space_from(g, 0, "ATL") == 2 and g.dist(0, "DEN") == 2
    g.set_weather([("ATL", "DEN", "tailwind", 2)])
    g.set_plane(0, airport="ATL", speed=2)
    assert g.fly_to(0, "DEN") == 2
    assert _space_from(g, 0, "ATL") == 3 and g.dist(0, "DEN") == 1 and g.dist(0, "ATL") == 2
    # one move point at a time: space 1, then straight to space 3
    g.set_plane(0, airport="ATL", speed=3, speed_left=1)
    assert g.fly(0, "DEN") == 1 and _space_from(g, 0, "ATL") == 1
    g.set_plane(0, speed_left=1)
    assert g.fly(0, "DEN") == 1 and _space_from(g, 0, "ATL") == 3
    # from the other end
    g.set_plane(0, airport="DEN", speed=3, speed_left=1)
    assert g.fly(0, "ATL") == 1 and _space_from(g, 0, "ATL") == 3
    g.set_plane(0, airport="DEN", speed=3, speed_left=2)
    assert g.fly(0, "ATL") == 2 and _space_from(g, 0, "ATL") == 1
    assert g.check() == 0


def test_no_pickup_or_drop_off_in_mid_flight(make):
    """RB "Recoger pasajeros": 'Nunca puedes intercambiar pasajeros con otro jugador en pleno vuelo.
    Primero debes dejarlos en un aeropuerto donde otro jugador pueda recogerlos.' (pickups and
    drop-offs happen 'Cuando su avión está en un espacio de aeropuerto'). A plane one space out of
    ATL cannot board the passenger waiting at ATL nor set its own down, and a plane on the same
    space cannot take it; at DEN it is set down and the other plane boards it."""
    g = make()
    g.set_plane(0, airport="ATL", speed=3, colours=["green"])
    c = g.place(g.card("ATL", "LAX"), "ATL")
    w = g.place(g.card("ATL", "MIA"), "ATL")
    assert g.pickup(0, c) == 1 and g.can_pickup(0, w) == 1
    g.set_plane(0, speed_left=1)
    assert g.fly(0, "DEN") == 1 and g.plane(0)["airport"] == -1
    g.set_plane(2, route=("ATL", "DEN"), offset=1, speed=3, colours=["orange"])
    assert g.plane(2)["route"] == g.plane(0)["route"] and g.plane(2)["offset"] == g.plane(0)["offset"]
    assert g.can_pickup(0, w) == 0 and g.pickup(0, w) == 0 and g.where(w) == ("waiting", g.airport("ATL"))
    assert not g.can_drop(0, c) and g.drop(0, c) == 0 and g.where(c) == ("aboard", 0)
    assert g.can_pickup(2, c) == 0 and g.pickup(2, c) == 0
    assert [a for a in g.legal_actions() if a[0] != L.K_FLY and a[1] in (0, 2)] == []
    g.set_plane(0, speed_left=3)
    assert g.fly_to(0, "DEN") == 3 and g.drop(0, c) == 1 and g.where(c) == ("waiting", g.airport("DEN"))
    assert g.fly_to(2, "DEN") == 3 and g.pickup(2, c) == 1 and g.where(c) == ("aboard", 2)
    assert g.check() == 0


def test_temporary_seat_full_until_a_bought_seat_frees_one(make):
    """RB "Recoger pasajeros": with the temporary seat 'su avión permanecerá lleno hasta que tenga
    un asiento permanente dejando suficientes pasajeros o comprando otras mejoras de asiento' (the
    buying path; purchases: RB "Comprar actualizaciones"). 2 seats, 3 aboard with the token: a
    3rd seat bought ($9) seats everyone but frees none (still full); a 4th ($13) frees one seat,
    for one pickup without any token."""
    raw = {"game": "now_boarding", "seats": [{"policy": "heuristic", "weights": {"strategy": 1}}] * 4}
    g = cleared(GameState(raw=raw))
    g.set_plane(0, airport="ATL", seats=2, speed=3, colours=["green"])
    a, b, c = (g.place(g.card("ATL", d), "ATL") for d in ("MIA", "JFK", "DEN"))
    g.st[L.S_TSEAT] = 0
    assert (g.pickup(0, a), g.pickup(0, b), g.pickup(0, c)) == (1, 1, 2)
    assert g.plane(0)["load"] == 3 and g["TSEAT"] == -1
    x, y = g.place(g.card("ATL", "ORD"), "ATL"), g.place(g.card("ATL", "LAX"), "ATL")
    assert g.can_pickup(0, x) == 0
    g.give_money(0, [5, 5])
    g.buy(0)
    assert g.plane(0)["seats"] == 3 and g.money(0) == 0 and g["TSEAT"] == -1
    assert g.can_pickup(0, x) == 0  # 3 aboard, 3 permanent seats: still full
    g.give_money(0, [5, 4, 4])
    g.buy(0)
    assert g.plane(0)["seats"] == 4 and g.money(0) == 0 and g["TSEAT"] == -1
    assert g.can_pickup(0, x) == 1 and g.pickup(0, x) == 1
    assert g.plane(0)["load"] == 4 and g.can_pickup(0, y) == 0
    assert g.check() == 0
