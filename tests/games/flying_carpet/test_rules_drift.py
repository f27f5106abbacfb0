"""Drifting and sinking (RB "Drifting / sinking", "Summary of move options") and D6."""

from __future__ import annotations

import sim.games.flying_carpet.layout as L


def piece(name: str, x: int, y: int) -> dict:
    """A city entry of a config section."""
    return {"piece": name, "at": [x, y]}


def test_drift_one_or_two_right_or_sink_one(gs):
    """RB: a player who plays no card drifts one or two spaces with his zone's wind; in the
    windless zone he sinks one space down."""
    g = gs()
    for start, end in (((5, 7), (6, 7)), ((5, 10), (7, 10)), ((5, 3), (5, 2)), ((5, 0), (5, 0))):
        g.put(0, *start)
        assert g.ends("drift") == {end}, start


def test_drift_may_exchange_one_wind_card(gs):
    """RB: play no card, drift, and if needed exchange a wind card for a new one."""
    g = gs()
    g.put(0, 5, 7)
    g.set_hand(0, ["V1", "V2", "V3", "L11"])
    g.stack_deck(["R33"])
    g.play("drift", exchange=0)
    assert g.pos(0) == (6, 7) and g.hand(0) == ["R33", "V2", "V3", "L11"]
    assert g.snapshot()["discard"] == 1 and g.stat(0, L.ST_EXCH) == 1


def test_drift_stops_in_front_of_scenery(gs):
    """D6: the wind does not carry a drifting carpet into a cloud; it stops in front of it."""
    g = gs(city=[piece("small_cloud", 7, 11)])
    g.put(0, 5, 11)
    assert g.ends("drift") == {(6, 11)}


def test_drift_blocked_option_stay(gs):
    """RB "Drifting / sinking": 'A player who does not want to play a card lets himself drift
    on one or two spaces, depending on the wind zone'; RB "The Scenery": the pieces are
    obstacles "that must be flown over and around". D6 ``drift_blocked``: a two-space drift
    with a cloud on its second space stops in front of it ("stop_in_front", default) or does
    not happen ("stay"); a drift with a free way is the same in both readings."""
    for option, end in (("stop_in_front", (6, 11)), ("stay", (5, 11))):
        g = gs(city=[piece("small_cloud", 7, 11)], drift_blocked=option)
        g.put(0, 5, 11)
        assert g.ends("drift") == {end}, option
        g.play("drift")
        assert g.pos(0) == end
        g = gs(city=[piece("small_cloud", 7, 11)], drift_blocked=option)
        g.put(0, 10, 10)
        assert g.ends("drift") == {(12, 10)}, option


def test_drift_beyond_the_right_edge_blows_off(gs):
    """RB "The Wind Cards": blown beyond the edge, back to the start."""
    g = gs()
    g.put(0, 22, 10)
    g.play("drift")
    assert g.pos(0) == (0, 0) and g.stat(0, L.ST_BLOWN) == 1


def test_sinking_one_space_a_turn_onto_the_finish(gs):
    """RB "End of the Game": a player who cannot land exactly may sink one space per turn in
    the windless zone."""
    g = gs()
    g.put(0, 23, 2)
    g.play("drift")
    assert g.pos(0) == (23, 1) and g.rank(0) == 0
    g.end_turn()
    g.play("drift")
    g.end_turn()
    g.play("drift")
    g.end_turn()
    g.play("drift")
    assert g.pos(0) == (23, 0) and g.rank(0) == 1
    g.end_turn()
    assert g.over and g.snapshot()["winner"] == 0


def test_a_carpet_always_has_a_move(gs):
    """RULES.md "No legal move": drifting is always legal, also when no card fits."""
    g = gs(city=[piece("small_house", 2, 0)])
    g.put(0, 1, 0)
    g.set_tokens(0, 0)
    g.set_hand(0, ["L11", "L12", "L13", "L21"])
    kinds = {r[L.A_KIND] for r in g.rows()}
    assert L.K_DRIFT in kinds


def test_sinking_stops_on_a_roof(gs):
    """RB "Drifting / sinking": "In the windless lower zone he sinks one space down instead" -
    a roof is scenery (RB "Blockade": the scenery pieces are obstacles), so a carpet sinking
    onto the palace's roof (rows 0-2) stays on it; beside the palace it sinks on."""
    g = gs(city=[piece("palace", 6, 0)])
    g.put(0, 6, 4)
    assert g.ends("drift") == {(6, 3)}
    g.put(0, 7, 3)
    assert g.ends("drift") == {(7, 3)}
    g.put(0, 5, 3)
    assert g.ends("drift") == {(5, 2)}
    g.put(0, 9, 3)
    g.play("drift")
    assert g.pos(0) == (9, 3)
