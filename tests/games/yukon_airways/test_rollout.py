"""The ``rollout`` policy (RULES.md "Policies"; issue 10 item 2): it sees only what its player
sees (RB Vorbereitung: the six tickets are dealt face down and kept secret, the rest is the
draw pile), never draws from the game's chance stream, replays like every policy, and looks
ahead."""

from __future__ import annotations

import numpy as np

import sim.games.yukon_airways.layout as Y
from sim.compile import run_from_dict
from sim.games.yukon_airways.play import play_batch, rollout_choice, run_traced
from sim.games.yukon_airways.policies import CTX, select
from sim.games.yukon_airways.rules import check_invariants, legal_actions, redeal
from sim.games.yukon_airways.state import GameState

from .conftest import make_run, raw_config

SMALL = {"rollouts": 2, "depth": 0, "candidates": 3}


def choice(g, stream):
    """(rollout's action, the base's action) for the seat to decide, policy stream ``stream``."""
    acts = np.zeros((Y.MAX_ACTS, Y.ACT_W), np.int32)
    n = int(legal_actions(g.state, g.spec, acts))
    s = int(g.state[Y.H_ACTOR])
    w = g.W[s].copy()
    rng = g.rng.copy()
    rng[1] = np.uint64(stream)
    k = int(rollout_choice(g.state, g.spec, w, acts, n, rng, np.zeros(CTX, np.int64)))
    b = int(select(g.state, g.spec, int(w[-4]), w, acts, n, rng.copy(), np.zeros(CTX, np.int64)))
    return tuple(int(x) for x in acts[k]), tuple(int(x) for x in acts[b])


def permute_hidden(g):
    """Two opponents of the seat to decide exchange their (equal-sized) hands; the draw pile
    is reversed."""
    s = int(g.state[Y.H_ACTOR])
    o1, o2 = [o for o in range(g.run.n_seats) if o != s][:2]
    nt = int(g.p[Y.P_NT])
    h = int(g.p[Y.P_OFF_HAND])
    a = g.state[h + o1 * nt: h + (o1 + 1) * nt].copy()
    assert a.sum() == g.state[h + o2 * nt: h + (o2 + 1) * nt].sum()
    g.state[h + o1 * nt: h + (o1 + 1) * nt] = g.state[h + o2 * nt: h + (o2 + 1) * nt]
    g.state[h + o2 * nt: h + (o2 + 1) * nt] = a
    d0 = int(g.p[Y.P_OFF_DECK])
    n = int(g.state[Y.H_DECK_N])
    g.state[d0: d0 + n] = g.state[d0: d0 + n][::-1].copy()
    return a


def test_hidden_tickets_do_not_change_the_rollout_choice():
    """RB Vorbereitung: the opponents' tickets and the draw pile are secret, so permuting them
    (several positions and policy streams) leaves the choice alone; and the choice is not the
    base policy's every time (the simulations decide: a version reading the real tickets
    would change with them)."""
    run = make_run(seats=[{"policy": "rollout", "weights": SMALL}] * 4)
    differs = 0
    changed = 0
    for gi in (0, 1, 2, 3):
        for stream in (7, 99):
            g = GameState.from_run(run, gi)
            want, base = choice(g, stream)
            before = g.state.copy()
            permute_hidden(g)
            changed += not np.array_equal(before, g.state)
            assert choice(g, stream)[0] == want
            differs += want != base
    assert changed == 8
    assert differs >= 1


def test_rollout_seat_leaves_the_deal_alone_and_replays():
    """The rollout seat draws only from its policy stream: the game with it deals the same
    set-up and plays the same until the rollout seat's first decision as the all-heuristic
    game; and it replays: the batch row equals the traced row (same seed and index)."""
    ro = {"policy": "rollout", "weights": SMALL}
    a = make_run(seats=[{"policy": "heuristic"}, {"policy": "heuristic"}, ro, {"policy": "heuristic"}])
    b = make_run(seats=[{"policy": "heuristic"}] * 4)
    for gi in (0, 1):
        _, ea, sa, row_a = run_traced(a, gi)
        _, eb, sb, _ = run_traced(b, gi)
        assert np.array_equal(sa[0], sb[0])
        first = int(np.argmax(ea[:, 1] == 2))
        assert first > 0 and np.array_equal(ea[:first], eb[:first])
        out = np.zeros((1, row_a.shape[0]), np.int32)
        play_batch(a.spec, a.entry_policy, a.entry_weights, a.perms, np.int64(a.seed), gi, 1, out)
        assert np.array_equal(out[0], row_a)


def test_rollout_looks_ahead_and_beats_its_base():
    """A small seeded match: one rollout seat (default budget) against three heuristic seats,
    rotated, wins clearly more than its fair quarter of 16 games (4)."""
    raw_seats = [{"policy": "rollout"}] + [{"policy": "heuristic"}] * 3
    raw = raw_config()
    raw["seats"] = raw_seats
    raw.pop("checks", None)
    run = run_from_dict(raw, "<test>")          # rotated seats
    N = 16
    cols = run.game.column_names(4)
    out = np.zeros((N, len(cols)), np.int32)
    play_batch(run.spec, run.entry_policy, run.entry_weights, run.perms, np.int64(run.seed), 0, N, out)
    seat = [int(np.where(run.perms[g % run.perms.shape[0]] == 0)[0][0]) for g in range(N)]
    wins = sum(int(out[g, cols.index("winner")] == seat[g]) for g in range(N))
    assert wins >= 8, wins


def test_redeal_keeps_every_card_and_the_hand_counters():
    """rules.redeal (the look-ahead's re-deal of the unseen tickets) keeps every card in one
    place, every hand its size and the hand counters (SE_HAND_N, SE_FUEL_N) equal to a recount."""
    g = GameState.from_run(make_run(), 2)
    for _ in range(30):
        g.end_turn()
    me = int(g.state[Y.H_ACTOR])
    st = g.state.copy()
    tmp = np.zeros(int(g.p[Y.P_NT] + g.p[Y.P_NCARDS]), np.int32)
    redeal(st, g.spec, me, np.array([11, 13], np.uint64), tmp)
    assert int(check_invariants(st, g.spec)) == 0
    nt, h = int(g.p[Y.P_NT]), int(g.p[Y.P_OFF_HAND])
    hands = lambda a: [a[h + s * nt: h + (s + 1) * nt] for s in range(4)]  # noqa: E731
    assert np.array_equal(hands(st)[me], hands(g.state)[me])
    assert [int(x.sum()) for x in hands(st)] == [int(x.sum()) for x in hands(g.state)]
    assert not np.array_equal(st, g.state)
