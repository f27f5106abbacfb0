"""RB "Fase de mantenimiento", "Salir de la aeronave", "Fuera del negocio", "Volando alto" and
"Comprar actualizaciones" on rigged positions (4 players unless said)."""

from __future__ import annotations

import sim.games.now_boarding.layout as L
import sim.games.now_boarding.rules as R
from sim.games.now_boarding.state import GameState


def test_anger_on_every_waiting_passenger_not_aboard(make):
    """RB "Poner enojo": 1 anger cube on every passenger card in the airports' passenger areas."""
    g = make()
    g.set_plane(0, airport="ATL", colours=["green"])
    a = g.place(g.card("ATL", "MIA"), "ATL", anger=1)
    b = g.place(g.card("DEN", "SFO"), "DEN")
    c = g.place(g.card("ATL", "JFK"), "ATL", anger=2)
    g.pickup(0, c)
    assert not g.anger()
    assert (g.anger_of(a), g.anger_of(b), g.anger_of(c)) == (2, 1, 0)


def test_fourth_cube_files_a_complaint_by_origin(make):
    """RB "Poner enojo y presentar quejas": a passenger receiving its 4th anger cube leaves to the
    complaint pile."""
    g = make()
    a = g.place(g.card("MIA", "ATL"), "DEN", anger=3)  # handed off at DEN: origin MIA
    b = g.place(g.card("DEN", "SFO"), "DEN", anger=2)
    assert not g.anger()
    assert g.where(a)[0] == "complaint" and g.where(b) == ("waiting", g.airport("DEN"))
    assert g["COMPL"] == 1 and g["C_ANGER"] == 1
    assert g.st[L.ST_CAIR + g.airport("MIA")] == 1 and g.st[L.ST_CAIR + g.airport("DEN")] == 0
    assert g.check() == 0


def test_three_complaints_lose_at_once(make):
    """RB "Fuera del negocio": with 3 cards in the complaint pile all players lose immediately."""
    g = make()
    g.st[L.S_ROUND] = 6
    g.st[L.S_STAGE] = 1
    for o, d in (("ATL", "MIA"), ("DEN", "SFO"), ("JFK", "ORD"), ("LAX", "SFO")):
        g.place(g.card(o, d), o, anger=3)
    assert g.anger()
    assert g["COMPL"] == 3 and g["OVER"] == 1 and g["LOST_EARLY"] == 1
    assert g["LOSS_STAGE"] == 1 and g["LOSS_ROUND"] == 6
    assert len(g.active()) == 1  # the 4th card was not reached: the game ended at the 3rd


def test_maintenance_draws_the_stage_draw(make):
    """RB "Prepara la próxima ronda": draw 'draw per round' cards (4 players morning: 3) onto their
    origin airports, after the anger step (new passengers start without cubes)."""
    g = make()
    left = g.st[L.S_PILE_END] - g.st[L.S_PILE_POS]
    g.maintenance()
    new = g.active()
    assert len(new) == 3 and g.st[L.S_PILE_END] - g.st[L.S_PILE_POS] == left - 3
    for c in new:
        assert g.where(c) == ("waiting", int(g.spec[L.P_CORIG + c])) and g.anger_of(c) == 0


def test_drawn_passengers_lie_face_down_until_the_flight_phase_turns_them_over(make):
    """RB "Prepara la próxima ronda": the cards are drawn "boca abajo" (face down) onto the origin
    airport their back shows; RB "Fase de vuelo" step 2 turns them over ("Voltee todas las tarjetas
    de pasajeros boca abajo") when the next flight phase starts. So the maintenance's purchases
    (RB "Comprar actualizaciones", after the draw) are made without the new destinations
    (C_DOWN, which the look-ahead's re-deal reads). A passenger already waiting stays face up."""
    g = make()
    old = g.place(g.card("ATL", "MIA"), "ATL", anger=1)
    g.maintenance()
    new = [c for c in g.active() if c != old]
    assert len(new) == 3
    assert [int(g.st[L.C_DOWN + c]) for c in new] == [1, 1, 1]
    assert g.st[L.C_DOWN + old] == 0
    g.start_flight()
    assert [int(g.st[L.C_DOWN + c]) for c in g.active()] == [0, 0, 0, 0]


def test_set_up_passengers_face_up_and_the_first_draw_turned_over_at_round_one():
    """RB "Preparar" 10: each starting passenger is revealed ("boca arriba"); 12: the first draw is
    placed face down; "Fase de vuelo" 2 turns it over, so at round 1's flight phase every waiting
    card is face up. A played game's draws are face down between the draw and the next round."""
    g = GameState(seats=4, seed=3)
    assert g["ROUND"] == 1 and len(g.active()) == 4 + 3
    assert all(g.st[L.C_DOWN + c] == 0 for c in range(L.NCARD))
    R.upkeep(g.st, g.spec, g.ev, g.evn)
    assert R.draw_passengers(g.st, g.spec, 0, -1, g.ev, g.evn) == 3
    down = [c for c in range(L.NCARD) if g.st[L.C_DOWN + c] == 1]
    assert len(down) == 3 and all(g.where(c)[0] == "waiting" for c in down)


def test_empty_pile_changes_stage_and_weather(make):
    """RB "Pasando a la siguiente etapa": an empty pile at draw time moves to the next stage, removes
    every weather token and places the next stage's; the draw comes from the new pile."""
    g = make()
    g.set_pile(0, [])
    g.set_plane(1, route=("ATL", "DEN"), offset=1, colours=["purple"])
    g.maintenance()
    assert g["STAGE"] == 1
    assert len(g.active()) == 4  # afternoon draw with 4 players
    plan = [int(r) for r in g.st[L.WP_ROUTE + L.MAXTOK:L.WP_ROUTE + 2 * L.MAXTOK] if r >= 0]
    types = g.st[L.WX_TYPE:L.WX_TYPE + g.spec[L.P_NR]]
    assert sorted(int(r) for r in (types > 0).nonzero()[0]) == sorted(plan)
    assert g.check() == 0


def test_final_round_after_the_evening_pile(make):
    """RB "Salir de la aeronave": evening pile empty at maintenance -> 1 final round, no new passengers,
    no weather change; at its end 1 complaint per 2 undelivered passengers (rounded down)."""
    g = make()
    g.st[L.S_STAGE] = 2
    g.set_pile(2, [])
    weather = g.st[L.WX_TYPE:L.WX_TYPE + 18].copy()
    for o, d in (("ATL", "MIA"), ("DEN", "SFO"), ("JFK", "ORD"), ("LAX", "SFO"), ("MIA", "ATL")):
        g.place(g.card(o, d), o)
    g.maintenance()
    assert g["STAGE"] == 3 and g["OVER"] == 0 and len(g.active()) == 5
    assert (g.st[L.WX_TYPE:L.WX_TYPE + 18] == weather).all()
    g.maintenance()  # the final round's maintenance
    assert g["OVER"] == 1 and g["LEFT"] == 5 and g["C_LEFT"] == 2 and g["COMPL"] == 2
    assert g["LOSS_STAGE"] == -1  # 2 < 3: the team wins ("Volando alto")
    assert g.check() == 0


def test_part_of_the_game_follows_the_stage_and_the_evening_pile(make):
    """RB "Preparar la próxima ronda" (each stage's pile is drawn until it is empty; pile sizes
    are open) and "Salir de la aeronave" (one final round after the evening's last draw):
    morning and afternoon are PART_DAY; the evening is PART_EVENING while its pile has cards,
    PART_LAST once it is drawn out (``after_last_draw`` from then on); the final round is
    PART_FINAL."""
    g = make(clear=False)
    parts = []
    for stage, pile in ((0, None), (1, None), (2, None), (2, []), (3, [])):
        g.st[L.S_STAGE] = stage
        if pile is not None:
            g.set_pile(2, pile)
        parts.append((int(R.part_of_game(g.st)), bool(R.after_last_draw(g.st))))
    assert len(g.pile(2)) == 0
    assert parts == [(L.PART_DAY, False), (L.PART_DAY, False), (L.PART_EVENING, False), (L.PART_LAST, True),
                     (L.PART_FINAL, True)]


def test_a_whole_game_has_one_round_after_the_last_draw():
    """Over 5 whole 4-player planner games (seed 7): the parts of the game never go back, and
    after the last evening draw come exactly one PART_LAST round and then the final round."""
    for game in range(5):
        g = GameState(seats=4, policy="planner", seed=7, game_index=game)
        parts = []
        while not g.over:
            parts.append(int(R.part_of_game(g.st)))
            g.end_turn()
        assert parts == sorted(parts), (game, parts)
        assert parts[-2:] == [L.PART_LAST, L.PART_FINAL] and parts.count(L.PART_LAST) == 1, (game, parts)
        assert parts.count(L.PART_DAY) >= 6 and parts.count(L.PART_EVENING) >= 3, (game, parts)


def test_end_count_can_lose(make):
    """RB "Fuera del negocio": the end-count cards count: 1 anger complaint + 4 left over = 3, a loss."""
    g = make()
    g.st[L.S_STAGE] = 3
    g.st[L.S_ROUND] = 17
    g.place(g.card("SEA", "MIA"), "SEA", anger=3)
    for o, d in (("ATL", "MIA"), ("DEN", "SFO"), ("JFK", "ORD"), ("LAX", "SFO")):
        g.place(g.card(o, d), o)
    g.maintenance()
    assert g["C_ANGER"] == 1 and g["C_LEFT"] == 2 and g["COMPL"] == 3
    assert g["LOSS_STAGE"] == 3 and g["LOSS_ROUND"] == 17 and g["LOST_EARLY"] == 0


def test_prices_rise_with_the_count_reached(make):
    """RB "Comprar actualizaciones": the 3rd seat costs $9, the 4th $13 (chart); speed 4 $5, 5 $7."""
    g = make()
    g.set_plane(0, seats=2, speed=3)
    assert g.price(0, L.U_SEAT) == 9 and g.price(0, L.U_SPEED) == 5 and g.price(0, L.U_ROUTE) == 7
    g.grant(0, L.U_SEAT)
    g.grant(0, L.U_SPEED)
    assert g.price(0, L.U_SEAT) == 13 and g.price(0, L.U_SPEED) == 7
    g.set_plane(0, seats=5, speed=9)
    assert g.price(0, L.U_SEAT) == -1 and g.price(0, L.U_SPEED) == -1


def test_payment_gives_no_change_and_never_goes_negative(make):
    """RB "Comprar actualizaciones": pay with delivered cards' fares, no change; the least
    overpayment is chosen."""
    g = make()
    g.give_money(0, [4, 4])
    assert g.pay(0, 5) == 8 and g.money(0) == 0 and g["WASTED"] == 3
    g.give_money(1, [2, 3, 4])
    assert g.pay(1, 5) == 5 and g.money(1) == 4
    assert g.pay(1, 5) == -1 and g.money(1) == 4
    assert g.check() == 0


def test_greedy_buys_the_cheapest_and_spends_overpayment_on_temporary_tokens(make):
    """RB "Comprar actualizaciones": temporary upgrades use extra money when overspending; a bought
    token is unavailable to others until used."""
    g = make()
    g.set_plane(0, seats=2, speed=3)
    g.give_money(0, [4, 4])
    g.st[L.S_ROUND] = 3
    g.buy(0)
    assert g.plane(0)["speed"] == 4 and g.plane(0)["seats"] == 2
    assert g["TSEAT"] == 0 and g["TSPEED"] == 0 and g.money(0) == 0 and g["WASTED"] == 0
    assert g.st[L.ST_UPG + L.U_SPEED] == 1 and g.st[L.ST_UPGR + 2] == 3
    assert g.price(1, L.U_TSEAT) == -1


def test_pooled_versus_separate_payment(make):
    """RB "Comprar actualizaciones" ("no recibe ningún cambio"), option pooled_payment (BGA pays a
    maintenance's purchases at once): $4+$4+$4 buys speed 4 ($5) and speed 5 ($7) pooled, but only
    one speed when each upgrade is paid separately."""
    g = make()
    g.set_plane(0, seats=2, speed=3)
    g.give_money(0, [4, 4, 4])
    g.buy(0)
    assert g.plane(0)["speed"] == 5 and g.money(0) == 0
    g = make(pooled_payment=False)
    g.set_plane(0, seats=2, speed=3)
    g.give_money(0, [4, 4, 4])
    g.buy(0)
    assert g.plane(0)["speed"] == 4 and g.money(0) == 4 and g["TSEAT"] == 0 and g["TSPEED"] == 0


def test_heuristic_upgrade_strategies(make):
    """Heuristic weight 'strategy': 1 seats first, 2 speed first, 3 routes first (saves for it)."""
    res = {}
    for strat in (1, 2, 3):
        raw = {"game": "now_boarding", "seats": [{"policy": "heuristic", "weights": {"strategy": strat}}] * 4}
        from sim.games.now_boarding.state import GameState

        g = GameState(raw=raw)
        g.clear()
        g.set_plane(0, seats=2, speed=3, colours=["green"])
        g.give_money(0, [5, 5])
        g.buy(0)
        res[strat] = (g.plane(0)["seats"], g.plane(0)["speed"], bin(g.plane(0)["mask"]).count("1"), g.money(0))
    assert res[1] == (3, 3, 2, 0)  # 3rd seat $9 paid with $10
    assert res[2] == (2, 4, 2, 5)  # speed 4 $5; speed 5 ($7) unaffordable, $5 kept
    assert res[3] == (2, 3, 3, 0)  # a route colour $7


def test_tile_supply_counts_the_planes_and_free_upgrades(make):
    """RB components (18 seat, 15 speed, 10 route tiles) with supply_limits: each plane in play
    holds a starting seat and wing, and the free set-up upgrade (RB "Preparar" 8) takes a tile:
    4 players, free seats: 10 seat / 11 speed tiles to buy; 5 players, free speed: 13 / 5;
    2 players: each free route takes one of its colour's 2 tiles."""
    import sim.games.now_boarding.data as data

    g = make(players=4, clear=False, supply_limits=True, free_upgrade="seat")
    assert (g["SUP_SEAT"], g["SUP_SPEED"]) == (data.SEAT_TILES - 4 - 4, data.SPEED_TILES - 4) == (10, 11)
    g = make(players=5, clear=False, supply_limits=True, free_upgrade="speed")
    assert (g["SUP_SEAT"], g["SUP_SPEED"]) == (18 - 5, 15 - 5 - 5) == (13, 5)
    g = make(players=2, clear=False, supply_limits=True, free_upgrade="seat")
    routes = [int(g.st[L.S_SUP_ROUTE + c]) for c in range(1, 6)]
    assert sum(routes) == 10 - 2 and min(routes) >= 0
    assert (g["SUP_SEAT"], g["SUP_SPEED"]) == (18 - 2 - 2, 15 - 2)


def test_purchases_come_after_anger_stage_change_and_draw(make):
    """RB "Fase de mantenimiento" in its order: "Poner enojo y presentar quejas", "Prepara la
    próxima ronda de pasajeros" (with "Pasando a la siguiente etapa": the weather is replaced when
    the pile is found empty), then "Comprar actualizaciones". Morning pile empty, 1 passenger
    waiting, plane 0 with $8: the events run anger, stage change, new weather, the afternoon draw
    (4 cards), and only then the payment and the purchases."""
    g = make()
    g.set_pile(0, [])
    g.place(g.card("ATL", "MIA"), "ATL", anger=1)
    g.set_plane(0, seats=2, speed=3)
    g.give_money(0, [4, 4])
    g.clear_events()
    g.maintenance()
    codes = [e[2] for e in g.events()]
    at = {k: [i for i, x in enumerate(codes) if x == k] for k in
          (L.E_ANGER, L.E_STAGE, L.E_WEATHER, L.E_DRAW, L.E_PAY, L.E_BUY)}
    assert len(at[L.E_ANGER]) == 1 and len(at[L.E_STAGE]) == 1 and len(at[L.E_DRAW]) == 4
    assert at[L.E_WEATHER] and at[L.E_PAY] and at[L.E_BUY]
    assert max(at[L.E_ANGER]) < min(at[L.E_STAGE]) < min(at[L.E_WEATHER])
    assert max(at[L.E_WEATHER]) < min(at[L.E_DRAW]) and max(at[L.E_DRAW]) < min(at[L.E_PAY])
    assert min(at[L.E_PAY]) < min(at[L.E_BUY])
    assert g["STAGE"] == 1 and g.plane(0)["speed"] == 4 and g.money(0) == 0


def test_purchases_are_made_in_the_new_stage(planner_state):
    """RB "Fase de mantenimiento": "Pasando a la siguiente etapa" comes before "Comprar
    actualizaciones", so a purchase is chosen in the stage the maintenance moved to. A planner
    plane with seats first from the evening on (weight ``seat3`` 3), 2 seats, speed 3, $9: in an
    afternoon maintenance that empties no pile it buys speed 4 ($5), but when the afternoon pile
    is found empty the evening begins first and it buys the 3rd seat ($9)."""
    got = {}
    for empty in (False, True):
        g = planner_state({"seat3": 3.0}, "ATL", 2)
        g.st[L.S_STAGE] = 1
        if empty:
            g.set_pile(1, [])
        g.give_money(0, [5, 4])
        g.maintenance()
        got[empty] = (g["STAGE"], g.plane(0)["seats"], g.plane(0)["speed"], g.money(0))
    assert got == {False: (1, 2, 4, 4), True: (2, 3, 3, 0)}


def test_purchases_are_made_after_the_draw(planner_state):
    """RB "Fase de mantenimiento": "Prepara la próxima ronda de pasajeros" comes before "Comprar
    actualizaciones", so a purchase sees the pile the draw left. A planner plane that buys a seat
    once the evening pile is drawn out (weight ``endbuy`` 2), 2 seats, speed 3, $9: with 5 evening
    cards left (4 players draw 5) the draw empties the pile and the plane buys the 3rd seat; with
    6 left the pile keeps a card and it buys speed 4 as before."""
    got = {}
    for left in (5, 6):
        g = planner_state({"endbuy": 2.0}, "ATL", 2)
        g.st[L.S_STAGE] = 2
        g.set_pile(2, g.pile(2)[:left])
        g.give_money(0, [5, 4])
        g.maintenance()
        got[left] = (len(g.pile(2)), g.plane(0)["seats"], g.plane(0)["speed"], g.money(0))
    assert got == {5: (0, 3, 3, 0), 6: (1, 2, 4, 4)}


def test_a_loss_at_the_anger_step_leaves_no_purchase(make):
    """RB "Fase de mantenimiento": anger and complaints come first; at the 3rd complaint "todos los
    jugadores pierden" ("Fuera del negocio"), so no draw and no purchase follow: plane 0 keeps its
    $8 and its speed."""
    g = make()
    for o, d in (("ATL", "MIA"), ("DEN", "SFO"), ("JFK", "ORD")):
        g.place(g.card(o, d), o, anger=3)
    g.set_plane(0, seats=2, speed=3)
    g.give_money(0, [4, 4])
    left = len(g.pile(0))
    g.clear_events()
    assert g.maintenance() == 1
    assert g["COMPL"] == 3 and g.money(0) == 8 and g.plane(0)["speed"] == 3 and len(g.pile(0)) == left
    assert not [e for e in g.events() if e[2] in (L.E_DRAW, L.E_PAY, L.E_BUY)]
