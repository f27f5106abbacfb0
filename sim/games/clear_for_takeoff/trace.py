"""`sim replay` for Clear for Takeoff: event codes and state snapshots -> readable lines.

Each turn shows the weather, deck and discard sizes, the board, the seat's hand, then what
happened and why it was legal (cards paid, the slot that was free, the weather that
blocked a takeoff).
"""

from __future__ import annotations

import numpy as np

from sim.games.base import TraceResult, expand_columns
from sim.games.clear_for_takeoff import rules as R
from sim.games.clear_for_takeoff.play import COLUMNS, run_traced

RUNWAY = ("31L", "31R")


def slot_name(p: np.ndarray, slot: int) -> str:
    """Human name of a slot id (``p``: the spec's parameter vector)."""
    if slot == R.POS_HANGAR:
        return "hangar"
    if slot == R.POS_AIRBORNE:
        return "airborne"
    nst, nac = int(p[R.P_NST]), int(p[R.P_NAC])
    if slot < 2 * nst:
        st = slot // 2
        ab = st < nst - nac
        kind = "A-B" if ab else "A-C"
        num = st + 1 if ab else st - (nst - nac) + 1
        second = "B" if ab else "C"
        return f"{'A' if slot % 2 == 0 else second} of stand {kind} #{num}"
    if slot == p[R.P_VIP1]:
        return "VIP1"
    if slot == p[R.P_VIP2]:
        return "VIP2"
    if slot >= p[R.P_TO0]:
        return f"takeoff {RUNWAY[slot - int(p[R.P_TO0])]}"
    j = slot - int(p[R.P_D0])
    return f"D {RUNWAY[j // int(p[R.P_Q])]} place {j % int(p[R.P_Q]) + 1}"


def aircraft_name(p, fleet, gid: int) -> str:
    K = int(p[R.P_K])
    s, k = divmod(int(gid), K)
    return f"seat {s} {R.SIZE_NAMES[fleet[s, k]]} #{k}"


def hand_text(state, p, s: int) -> str:
    base = int(p[R.P_OFF_HAND]) + s * R.NCT
    parts = [f"{R.CARD_NAMES[c]}x{state[base + c]}" for c in range(R.NCT) if state[base + c] > 0]
    return " ".join(parts) or "(empty)"


def board_text(state, p, fleet) -> list[str]:
    out = []
    S, K = int(p[R.P_S]), int(p[R.P_K])
    for s in range(S):
        items = []
        for k in range(K):
            pos = int(state[int(p[R.P_OFF_POS]) + s * K + k])
            if pos == R.POS_NONE:
                continue
            items.append(f"{R.SIZE_NAMES[fleet[s, k]]}#{k}: {slot_name(p, pos)}")
        rank = int(state[int(p[R.P_OFF_RANK]) + s])
        out.append(f"    seat {s}{' (finished ' + str(rank) + ')' if rank else ''}: " + "; ".join(items))
    return out


def _event_line(e, p, fleet, labels) -> str:
    code, a, b, c, d, x = (int(v) for v in e[2:8])
    if code == R.E_EXCHANGE:
        return f"  exchange: discards {a} card(s) face up, then draws face up until {a} are kept"
    if code == R.E_DISCARD:
        return f"    discards {b}x{R.CARD_NAMES[a]}"
    if code == R.E_DRAW_KEEP:
        return f"    draws {R.CARD_NAMES[a]} face up: to hand"
    if code == R.E_DRAW_DOWN:
        return f"  draws {R.CARD_NAMES[a]} face down"
    if code == R.E_WEATHER:
        how = "drawn face up: resolves at once" if b == 1 else "played from hand"
        return f"    weather -> {R.CARD_NAMES[a]} ({how}; the previous Weather card is discarded)"
    if code == R.E_HIT:
        how = "drawn face up: hits the drawer's most prepared aircraft" if d == 1 else "played"
        if b < 0:
            return f"    {R.CARD_NAMES[a]} {how}: no aircraft can be hit, discarded"
        return f"    {R.CARD_NAMES[a]} {how}: {aircraft_name(p, fleet, b)} at {slot_name(p, c)} -> hangar"
    if code == R.E_PLAY:
        kind = a
        lc, need = divmod(x, 16)
        if kind == R.K_VIP:
            return (f"  plays VIP: {aircraft_name(p, fleet, b)} {slot_name(p, c)} -> VIP1 "
                    f"(VIP1 and VIP2 were free; one VIP card for any size)")
        card = {R.K_PLACE: "A", R.K_ADVANCE: "B" if "A-B" in slot_name(p, d) else "C", R.K_TO_D: "D"}[kind]
        paid = " + ".join(x for x in (f"{need - lc}x{card}" if need > lc else "", f"{lc}xLC" if lc else "") if x)
        return (f"  plays {paid}: {aircraft_name(p, fleet, b)} "
                f"{slot_name(p, c)} -> {slot_name(p, d)} ({need} card(s) for this size and weather; the place was free)")
    if code == R.E_DEICE:
        return f"  plays {b}xAI: de-ices {aircraft_name(p, fleet, a)} on its takeoff position"
    if code == R.E_TAKEOFF:
        return f"  end of turn: {aircraft_name(p, fleet, a)} takes off from {RUNWAY[b]}"
    if code == R.E_BLOCKED:
        why = R.CARD_NAMES[c]
        if d >= 0:
            return (f"  end of turn: {aircraft_name(p, fleet, a)} may not take off from {RUNWAY[b]} under {why}: "
                    f"to the back of the sequence; {aircraft_name(p, fleet, d)} moves onto the takeoff position")
        return f"  end of turn: {aircraft_name(p, fleet, a)} holds on {RUNWAY[b]} under {why}"
    if code == R.E_AUTO:
        return f"  end of turn: {aircraft_name(p, fleet, a)} moves on its own {slot_name(p, b)} -> {slot_name(p, c)}"
    if code == R.E_RESHUFFLE:
        return f"    deck empty: the discard pile ({a} cards) is shuffled into a new deck"
    if code == R.E_STARVED:
        return f"  starved draw: deck and discard pile empty, hand {a} card(s) short"
    if code == R.E_FINISH:
        return f"  == seat {a} ({labels[a]}) has every aircraft airborne: finishes {b}"
    if code == R.E_PASS:
        return "  passes (no cards, no play)"
    if code == R.E_STALL:
        return "  == turn cap reached: the game is a stall"
    return f"  event {code} {a} {b} {c} {d} {x}"


def trace(cfg, spec, entry_policy, entry_weights, perms, seed, game_index) -> TraceResult:
    """Replay game ``game_index`` of ``seed`` and render it (see module docstring)."""
    p, deck_cards, fleet = spec
    state, ev, snaps, row = run_traced(spec, entry_policy, entry_weights, perms, seed, game_index)
    prow = perms[game_index % perms.shape[0]]
    labels = [cfg.seats[int(i)].name for i in prow]
    S = int(p[R.P_S])
    lines = [f"Clear for Takeoff: game {game_index} of seed {seed}; seats: "
             + ", ".join(f"{s}={labels[s]}" for s in range(S))]
    for e in ev:
        if e[2] == R.E_TURN:
            t, s = int(e[0]), int(e[1])
            snap = snaps[t]
            w = R.CARD_NAMES[int(snap[R.H_WEATHER])]
            lines.append("")
            lines.append(f"turn {t + 1}: seat {s} ({labels[s]}) | weather {w} | deck {int(snap[R.H_DECK_N])}, "
                         f"discard {int(snap[R.H_DISC_N])}")
            lines.append(f"  hand: {hand_text(snap, p, s)}")
            lines.extend(board_text(snap, p, fleet))
        else:
            lines.append(_event_line(e, p, fleet, labels))
    rowd = {n: int(v) for n, v in zip(expand_columns(COLUMNS, S), row)}
    ranks = ", ".join(f"seat {s}: {rowd[f'rank_s{s}'] or '-'}" for s in range(S))
    lines.append("")
    lines.append(f"result: winner seat {rowd['winner']}, {rowd['turns']} turns, stalled {rowd['stalled']}, "
                 f"reshuffles {rowd['reshuffles']}; finishing order {ranks}")
    return TraceResult(lines, rowd)
