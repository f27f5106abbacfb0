"""The ``rollout`` policy (RULES.md "Policies"; issue 10 item 2): it sees only what its player
sees (RB Vorbereitung: the six tickets are dealt face down and kept secret, the rest is the
draw pile), never draws from the game's chance stream, replays like every policy, and looks
ahead."""

from __future__ import annotations

import numpy as np

import sim.games.yukon_airways.layout as Y
from sim.compile import run_from_dict
from sim.games.yukon_airways.hooks import play_batch, rollout_choice, run_traced
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


def _others_face_down(g):
    """(slots, cards) of the face-down tickets of the seats other than the one to decide: on
    the table this day (count by type) and in the discard pile (owner seat + 1)."""
    s, nt = int(g.state[Y.H_ACTOR]), int(g.p[Y.P_NT])
    td, x0, y0 = int(g.p[Y.P_OFF_TDOWN]), int(g.p[Y.P_OFF_DISC]), int(g.p[Y.P_OFF_DDOWN])
    table = [(o, t) for o in range(g.run.n_seats) if o != s for t in range(nt) if g.state[td + o * nt + t] > 0]
    disc = [i for i in range(int(g.state[Y.H_DISC_N])) if g.state[y0 + i] > 0 and g.state[y0 + i] != s + 1]
    return table, disc, td, x0, nt


def swap_face_down(g):
    """Give every other seat's face-down ticket (table and discard pile) the type of a draw-pile
    card of another type, and that card its type: a position the deciding seat cannot tell
    apart (RB Flugphase a, "verdeckte Karten"). Returns the number of cards changed."""
    table, disc, td, x0, nt = _others_face_down(g)
    d0, n = int(g.p[Y.P_OFF_DECK]), int(g.state[Y.H_DECK_N])
    tb = int(g.p[Y.P_OFF_TABLE])
    used, changed = set(), 0
    for kind, where in [("t", x) for x in table] + [("d", i) for i in disc]:
        t = where[1] if kind == "t" else int(g.state[x0 + where])
        j = next((j for j in range(n) if j not in used and g.state[d0 + j] != t), None)
        if j is None:
            continue
        used.add(j)
        u = int(g.state[d0 + j])
        g.state[d0 + j] = t
        if kind == "t":
            o = where[0]
            for blk in (td, tb):
                g.state[blk + o * nt + t] -= 1
                g.state[blk + o * nt + u] += 1
        else:
            g.state[x0 + where] = u
        changed += 1
    return changed


def test_opponents_face_down_tickets_do_not_change_the_rollout_choice():
    """RB Flugphase a: a passenger may fly on "drei beliebige verdeckte Karten" (three face-down
    cards); they stay their owner's secret on the table and, face down, in the discard pile
    (RULES.md "Policies"). At positions where the other seats have such cards, giving each the
    type of a draw-pile card (and that card its type) leaves the rollout's choice alone: the
    re-deal pools them with the hands and the draw pile (rules.redeal, P_OFF_TDOWN / P_OFF_DDOWN)."""
    heur = make_run(seats=[{"policy": "heuristic"}] * 4)
    ro = make_run(seats=[{"policy": "rollout", "weights": SMALL}] * 4)
    checked = swapped = 0
    for gi in range(12):
        h = GameState.from_run(heur, gi)
        for _ in range(60 + 40 * gi):  # heuristic actions, to positions spread over the game
            if h.over:
                break
            h.apply(h.policy_choice())
        while not h.over and not any(_others_face_down(h)[:2]):
            h.apply(h.policy_choice())
        if h.over or not any(_others_face_down(h)[:2]):
            continue
        g = GameState.from_run(ro, gi)
        g.state[:] = h.state
        k = GameState.from_run(ro, gi)
        k.state[:] = h.state
        swapped += swap_face_down(k) > 0
        assert int(check_invariants(k.state, k.spec)) == 0
        # three policy streams: with the face-down cards left as they are (the re-deal before
        # 2026-12-05) 2 of these 15 choices changed
        assert [choice(k, x)[0] for x in (7, 8, 9)] == [choice(g, x)[0] for x in (7, 8, 9)]
        checked += 1
    assert checked >= 4 and swapped == checked
