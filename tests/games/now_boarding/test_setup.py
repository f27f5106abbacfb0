"""RB "Preparar" (setup steps 1-15) on real set-ups."""

from __future__ import annotations

import numpy as np
import pytest

import sim.games.now_boarding.data as data
import sim.games.now_boarding.layout as L
from sim.compile import run_from_dict
from sim.games.base import Rig
from sim.games.now_boarding.state import GameState


def test_board_side_by_player_count(make):
    """RB setup 1: 2-3 players use the 2-3 side (SFO-ORD, no SEA); 4-5 the 4-5 side (SEA routes)."""
    g3 = make(3, clear=False)
    g4 = make(4, clear=False)
    assert g3.spec[L.P_NR] == 15 and g4.spec[L.P_NR] == 18
    assert g3.route("SFO", "ORD") >= 0
    assert g4.route("SEA", "ORD") >= 0 and g4.route("JFK", "SEA") >= 0
    assert g3.spec[L.P_AIRIN + data.AIRPORT_ID["SEA"]] == 0
    try:
        g4.route("SFO", "ORD")
        raise AssertionError("SFO-ORD is not on the 4-5 side")
    except KeyError:
        pass


def test_passenger_removal_by_player_count(make):
    """RB setup 9: 3 players remove every card to/from SEA; 2 players to/from JFK and SEA."""
    counts = {}
    for n in (2, 3, 4, 5):
        g = make(n, clear=False)
        inplay = [c for c in range(L.NCARD) if g.spec[L.P_CIN + c]]
        counts[n] = len(inplay)
        ends = {int(g.spec[L.P_CORIG + c]) for c in inplay} | {int(g.spec[L.P_CDEST + c]) for c in inplay}
        names = {data.AIRPORTS[a] for a in ends}
        if n == 2:
            assert "JFK" not in names and "SEA" not in names
        if n == 3:
            assert "SEA" not in names and "JFK" in names
    assert counts == {2: 42, 3: 56, 4: 72, 5: 72}


def test_starting_planes_and_free_upgrade(make):
    """RB setup 6-8: each plane at its home airport with 1 seat + speed 3, plus 1 free seat or speed."""
    g = make(4, clear=False, free_upgrade="seat")
    for p, home in enumerate(["ATL", "DFW", "LAX", "ORD"]):
        pl = g.plane(p)
        assert pl["airport"] == data.AIRPORT_ID[home]
        assert (pl["seats"], pl["speed"]) == (2, 3)
        assert pl["mask"] == 1 | 1 << data.COLOUR_ID[data.HOME_COLOUR[home]]
    g = make(4, clear=False, free_upgrade="speed")
    assert all((g.plane(p)["seats"], g.plane(p)["speed"]) == (1, 4) for p in range(4))


def test_two_players_take_a_free_route_upgrade(make):
    """RB setup 8: in a 2-player game each plane also takes any 1 route upgrade."""
    g = make(2, clear=False)
    for p in range(2):
        assert bin(g.plane(p)["mask"]).count("1") == 3  # white + own colour + the free one
    g = make(2, clear=False, free_route_2p=False)
    assert all(bin(g.plane(p)["mask"]).count("1") == 2 for p in range(2))
    g3 = make(3, clear=False)
    assert all(bin(g3.plane(p)["mask"]).count("1") == 2 for p in range(3))


def test_starting_passengers_and_first_draw(make):
    """RB setup 10 and 12: one passenger per player from its home airport, then the morning's first draw."""
    for n, first_draw in ((2, 1), (3, 2), (4, 3), (5, 4)):
        for gi in range(5):
            g = make(n, clear=False, game_index=gi)
            waiting = g.active()
            assert len(waiting) == n + first_draw
            homes = [int(g.spec[L.P_PHOME + p]) for p in range(n)]
            origins = sorted(int(g.spec[L.P_CORIG + c]) for c in waiting)
            for h in homes:
                assert h in origins
            for c in waiting:
                assert g.where(c) == ("waiting", int(g.spec[L.P_CORIG + c]))
                assert g.anger_of(c) == 0


def test_stage_piles_follow_the_preflight_table(make):
    """RB setup 11: piles per the Preflight chart (3 players: 6/15/32, the 15 is the BGA value; RB's 18
    would need 59 of 56 cards); the setup draw came from the morning pile; 4-5 players leave 1 card out."""
    for n, (piles, draws) in data.PREFLIGHT.items():
        g = make(n, clear=False)
        left = [int(g.st[L.S_PILE_END + s] - g.st[L.S_PILE_POS + s]) for s in range(3)]
        assert left == [piles[0] - draws[0], piles[1], piles[2]]
        boxed = sum(1 for c in range(L.NCARD) if g.spec[L.P_CIN + c] and g.where(c)[0] == "box")
        assert boxed == (1 if n >= 4 else 0)


def test_weather_tokens_per_stage(make):
    """RB setup 13-15: weather cards per player count (2/4/6 tokens), storm and tailwind alternating,
    on distinct routes over the whole game; the morning's are on the board after setup."""
    for n, tok in ((2, 2), (3, 4), (4, 6), (5, 6)):
        g = make(n, clear=False, game_index=3)
        plan = g.st[L.WP_ROUTE:L.WP_ROUTE + 3 * L.MAXTOK].reshape(3, L.MAXTOK)
        used = plan[plan >= 0]
        assert len(used) == 3 * tok and len(set(used.tolist())) == 3 * tok
        types = g.st[L.WX_TYPE:L.WX_TYPE + g.spec[L.P_NR]]
        assert (types == 1).sum() == tok // 2 + tok % 2 and (types == 2).sum() == tok // 2
        for j in range(tok):
            r = plan[0, j]
            assert types[r] == (1 if j % 2 == 0 else 2)
            assert 1 <= g.st[L.WX_SPACE + r] <= g.spec[L.P_RSP + r]


def test_setup_is_deterministic_per_game_index(make):
    a = make(4, clear=False, game_index=7)
    b = make(4, clear=False, game_index=7)
    c = make(4, clear=False, game_index=8)
    assert np.array_equal(a.st, b.st)
    assert not np.array_equal(a.st, c.st)


def test_rigged_pile_order_is_drawn_in_that_order():
    """Rigging hook (rules.setup): a preset pile order replaces the shuffle; the morning's first
    draw (RB setup 12) and each maintenance draw (RB "Prepara la próxima ronda") take the cards
    in that order; the rest of the deck follows in card-id order."""
    run = run_from_dict({"game": "now_boarding", "seed": 5, "seats": ["greedy"] * 4}, "<rig>")
    ref = GameState.from_run(run, 0)
    # cards from airports without a plane (DEN, JFK, MIA, SFO, SEA) cannot be starting passengers
    homes = {int(ref.spec[L.P_PHOME + p]) for p in range(4)}
    order = [c for c in range(L.NCARD - 1, -1, -1) if int(ref.spec[L.P_CORIG + c]) not in homes][:10]
    gs = GameState.from_run(run, 0, Rig(deck=order))
    first = [c for c in gs.active() if c in order]
    assert first == order[:3]  # the setup draw: 3 cards with 4 players
    assert gs.pile(0)[:7] == order[3:10]
    rest = [c for c in gs.pile(0)[7:] + gs.pile(1) + gs.pile(2)]
    assert rest == sorted(rest) and not set(rest) & set(order)
    gs.end_turn()  # round 1 ends: its maintenance draws the next 3
    assert [c for c in order[3:6] if gs.where(c)[0] == "waiting"] == order[3:6]
    assert gs.pile(0)[:4] == order[6:10]
    # unrigged: the shuffle; an empty rig is the same as none
    assert ref.pile(0) != gs.pile(0)
    assert np.array_equal(GameState.from_run(run, 0, Rig(deck=[])).st, ref.st)


def test_rig_rejects_bad_decks_and_dice():
    run = run_from_dict({"game": "now_boarding", "seats": ["greedy"] * 2}, "<rig>")
    jfk = GameState.from_run(run, 0).card("JFK", "ATL")  # removed with 2 players
    for rig in (Rig(dice=[1]), Rig(deck=[3, 3]), Rig(deck=[72]), Rig(deck=[jfk])):
        with pytest.raises(ValueError):
            GameState.from_run(run, 0, rig)
