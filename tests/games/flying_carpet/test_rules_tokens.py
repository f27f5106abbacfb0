"""Steering tokens (RB "The Steering Tokens") and the reading D7."""

from __future__ import annotations

import sim.games.flying_carpet.layout as L


def piece(name: str, x: int, y: int) -> dict:
    """A city entry of a config section."""
    return {"piece": name, "at": [x, y]}


def test_rulebook_palace_example_token_strengthens_upward(gs):
    """RB: the token strengthens the upward movement by one space, otherwise the carpet would
    fly into the palace wall."""
    g = gs(city=[piece("palace", 8, 0)])
    g.put(0, 7, 0)
    g.set_hand(0, ["R22", "V1", "V2", "L11"])
    assert g.ends("R22", "dark blue") == set()
    assert g.ends("R22", "dark blue", token="up") == {(9, 3)}
    g.play("R22", "dark blue", token="up")
    assert g.pos(0) == (9, 3) and g.tokens(0) == 4 and g.snapshot()["supply"] == 45 - 15


def test_headwind_token_keeps_the_carpet_on_the_board(gs):
    """RB: as headwind the token slows the wind by one space, so the carpet is not blown
    beyond the edge."""
    g = gs()
    g.put(0, 20, 6)
    g.set_hand(0, ["L23", "V1", "V2", "L11"])
    assert g.ends("L23", "beige") == {"blown"}               # right 3 + wind 1
    assert g.ends("L23", "beige", token="left") == {(23, 4)}  # right 2 + wind 1, down 2


def test_token_alone_moves_one_space_and_draws_nothing(gs):
    """RB: a steering token alone moves the carpet one space in any direction; no card drawn."""
    g = gs()
    g.put(0, 5, 3)
    hand = g.hand(0)
    stack = g.snapshot()["stack"]
    assert g.ends("token", token="up") == {(5, 4)}
    assert g.ends("token", token="down") == {(5, 2)}
    assert g.ends("token", token="left") == {(4, 3)}
    assert g.ends("token", token="right") == {(6, 3)}
    g.play("token", token="right")
    assert g.pos(0) == (6, 3) and g.hand(0) == hand and g.snapshot()["stack"] == stack and g.tokens(0) == 4


def test_token_alone_sideways_gets_the_wind(gs):
    """RB "The Wind Zones": the wind adds at the sideways movement of a card or a token."""
    g = gs()
    g.put(0, 5, 7)
    assert g.ends("token", token="right") == {(7, 7)}
    assert g.ends("token", token="left") == {(5, 7)}          # D3: braked to 0


def test_only_one_token_per_turn_and_none_replaced(gs):
    """RB "Only one steering token may be played per turn. Played steering tokens are not replaced."""
    g = gs()
    g.put(0, 5, 3)
    g.set_hand(0, ["R22", "V1", "V2", "L11"])
    g.play("R22", "dark blue", token="up")
    assert g.legal_actions() == []        # the turn's move is made
    g.end_turn()
    assert g.tokens(0) == 4
    g.set_tokens(1, 0)
    assert all(r[L.A_KIND] == L.K_CARD and r[L.A_C] == L.T_NONE or r[L.A_KIND] == L.K_DRIFT for r in g.rows())


def test_vertical_card_may_gain_a_sideways_space(gs):
    """D7: with a vertical-only card the token may add one sideways space (flown after it)."""
    g = gs()
    g.put(0, 5, 2)
    g.set_hand(0, ["V2", "V1", "V3", "L11"])
    assert g.ends("V2", "light blue", token="right") == {(6, 4)}
    assert g.ends("V2", "light blue", token="down") == {(5, 3)}


def test_headwind_token_slows_the_wind_by_exactly_one_space(gs):
    """RB "The Steering Tokens": with a wind card the token strengthens the flight "by one
    space in any direction, or, as a 'headwind', slows the wind by one space" (D7: its
    sideways space is added after the wind and the braking). A vertical card in zone 2 is
    carried 2 right; with a headwind token 1 right (not braked to 0); a left-1 card braked to
    0 in zone 2 moves 1 right with a right token (not 2) and 1 left with a left token."""
    g = gs()
    g.put(0, 5, 10)
    g.set_hand(0, ["V1", "L11", "V2", "V3"])
    assert g.ends("V1", "beige") == {(7, 9)}                    # down 1, wind 2 of row 9
    assert g.ends("V1", "beige", token="left") == {(6, 9)}      # the wind slowed by one
    assert g.ends("V1", "beige", token="right") == {(8, 9)}
    assert g.ends("L11", "light blue") == {(5, 11)}             # left 1 + wind 2: braked to 0
    assert g.ends("L11", "light blue", token="right") == {(6, 11)}
    assert g.ends("L11", "light blue", token="left") == {(4, 11)}
    g = gs(headwind="net")                                      # D3 "net": the same one space
    g.put(0, 5, 10)
    g.set_hand(0, ["V1", "L11", "V2", "V3"])
    assert g.ends("L11", "light blue") == {(6, 11)}
    assert g.ends("L11", "light blue", token="left") == {(5, 11)}


def test_headwind_token_gives_an_exact_landing_on_the_finish(gs):
    """RB "The Steering Tokens", second example: the token used as "headwind" slows the move
    by one space, "so that the flying carpet is not blown beyond the edge of the board but
    glides gently down onto the finish platform". From (21,3) L33 orange (down 3, right 3)
    passes the finish and blows off; with a left token it goes right 2 and lands exactly."""
    g = gs()
    g.put(0, 21, 3)
    g.set_hand(0, ["L33", "V1", "V2", "V3"])
    assert g.ends("L33", "orange") == {"blown"}
    assert g.ends("L33", "orange", token="left") == {(23, 0)}
    g.play("L33", "orange", token="left")
    assert g.pos(0) == (23, 0) and g.rank(0) == 1 and g.tokens(0) == 4
    g.end_turn()
    assert g.over and g.snapshot()["winner"] == 0
