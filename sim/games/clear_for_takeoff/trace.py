"""`sim replay` for Clear for Takeoff: event codes and state snapshots -> readable lines,
and ``check_playout`` (the engine's, :mod:`sim.games.loop`: the same playout with the
invariants checked after every turn).

Each turn shows the weather, deck and discard sizes, the board, the seat's hand, then what
happened and why it was legal (cards paid, the slot that was free, the weather that
blocked a takeoff).
"""

from __future__ import annotations

import sim.games.clear_for_takeoff.layout as L
from sim.games.base import TraceResult
from sim.games.clear_for_takeoff.hooks import run_traced
from sim.games.clear_for_takeoff.layout import slot_name

RUNWAY = L.RUNWAY_NAMES


def aircraft_name(p, fleet, gid: int) -> str:
    K = int(p[L.P_K])
    s, k = divmod(int(gid), K)
    return f"seat {s} {L.SIZE_NAMES[fleet[s, k]]} #{k}"


def hand_text(state, p, s: int) -> str:
    base = int(p[L.P_OFF_HAND]) + s * L.NCT
    parts = [f"{L.CARD_NAMES[c]}x{state[base + c]}" for c in range(L.NCT) if state[base + c] > 0]
    return " ".join(parts) or "(empty)"


def board_text(state, p, fleet) -> list[str]:
    out = []
    S, K = int(p[L.P_S]), int(p[L.P_K])
    for s in range(S):
        items = []
        for k in range(K):
            pos = int(state[int(p[L.P_OFF_POS]) + s * K + k])
            if pos == L.POS_NONE:
                continue
            items.append(f"{L.SIZE_NAMES[fleet[s, k]]}#{k}: {slot_name(p, pos)}")
        rank = int(state[int(p[L.P_OFF_RANK]) + s])
        out.append(f"    seat {s}{' (finished ' + str(rank) + ')' if rank else ''}: " + "; ".join(items))
    return out


def _event_line(e, p, fleet, labels) -> str:
    code, a, b, c, d, x = (int(v) for v in e[2:8])
    if code == L.E_EXCHANGE:
        return f"  exchange: discards {a} card(s) face up, then draws face up until {a} are kept"
    if code == L.E_DISCARD:
        return f"    discards {b}x{L.CARD_NAMES[a]}"
    if code == L.E_DRAW_KEEP:
        return f"    draws {L.CARD_NAMES[a]} face up: to hand"
    if code == L.E_DRAW_DOWN:
        return f"  draws {L.CARD_NAMES[a]} face down"
    if code == L.E_WEATHER:
        how = "drawn face up: resolves at once" if b == 1 else "played from hand"
        return f"    weather -> {L.CARD_NAMES[a]} ({how}; the previous Weather card is discarded)"
    if code == L.E_HIT:
        how = "drawn face up: hits the drawer's most prepared aircraft" if d == 1 else "played"
        if b < 0:
            return f"    {L.CARD_NAMES[a]} {how}: no aircraft can be hit, discarded"
        return f"    {L.CARD_NAMES[a]} {how}: {aircraft_name(p, fleet, b)} at {slot_name(p, c)} -> hangar"
    if code == L.E_PLAY:
        kind = a
        extra, rest = divmod(x, 256)  # extra: SNOW's extra card type + 1 under snow_extra = "any" (D17)
        lc, need = divmod(rest, 16)
        if kind == L.K_VIP:
            return (f"  plays VIP: {aircraft_name(p, fleet, b)} {slot_name(p, c)} -> VIP1 "
                    f"(VIP1 and VIP2 were free; one VIP card for any size)")
        card = {L.K_PLACE: "A", L.K_ADVANCE: "B" if "A-B" in slot_name(p, d) else "C", L.K_TO_D: "D"}[kind]
        counts = {card: need - lc}
        if extra and extra - 1 != L.LC:
            counts[card] -= 1
            xname = L.CARD_NAMES[extra - 1]
            counts[xname] = counts.get(xname, 0) + 1
        counts["LC"] = lc
        paid = " + ".join(f"{k}x{n}" for n, k in counts.items() if k > 0)
        return (f"  plays {paid}: {aircraft_name(p, fleet, b)} "
                f"{slot_name(p, c)} -> {slot_name(p, d)} ({need} card(s) for this size and weather; the place was free)")
    if code == L.E_DEICE:
        return f"  plays {b}xAI: de-ices {aircraft_name(p, fleet, a)} on its takeoff position"
    if code == L.E_TAKEOFF:
        return f"  end of turn: {aircraft_name(p, fleet, a)} takes off from {RUNWAY[b]}"
    if code == L.E_BLOCKED:
        why = L.CARD_NAMES[c]
        if d >= 0:
            return (f"  end of turn: {aircraft_name(p, fleet, a)} may not take off from {RUNWAY[b]} under {why}: "
                    f"to the back of the sequence; {aircraft_name(p, fleet, d)} moves onto the takeoff position")
        return f"  end of turn: {aircraft_name(p, fleet, a)} holds on {RUNWAY[b]} under {why}"
    if code == L.E_FORGOT_DRAW:
        return f"  forgets to draw face down ({a} card(s) short): waits until the end of its next turn (RULES.md D13)"
    if code == L.E_FORGOT_TAKEOFF:
        then = f"; {aircraft_name(p, fleet, c)} moves onto the takeoff position" if c >= 0 else ""
        return (f"  end of turn: {aircraft_name(p, fleet, a)} was cleared for take-off from {RUNWAY[b]} but its "
                f"player forgot: to the end of the sequence, {slot_name(p, d)}{then} (RULES.md D13)")
    if code == L.E_AUTO:
        return f"  end of turn: {aircraft_name(p, fleet, a)} moves on its own {slot_name(p, b)} -> {slot_name(p, c)}"
    if code == L.E_RESHUFFLE:
        return f"    deck empty: the discard pile ({a} cards) is shuffled into a new deck"
    if code == L.E_STARVED:
        return f"  starved draw: deck and discard pile empty, hand {a} card(s) short"
    if code == L.E_FINISH:
        return f"  == seat {a} ({labels[a]}) has every aircraft airborne: finishes {b}"
    if code == L.E_PASS:
        return "  passes (no cards, no play)"
    if code == L.E_STALL:
        if a == 1:
            return "  == turn cap reached: the finishing order is cut off (the game counts as won, not stalled)"
        return "  == turn cap reached: the game is a stall"
    return f"  event {code} {a} {b} {c} {d} {x}"


def trace(run, game_index: int) -> TraceResult:
    """Replay game ``game_index`` of ``run`` (a ``sim.compile.CompiledRun``) and render it
    (see the module docstring); the result row is exactly row ``game_index`` of the run."""
    p, deck_cards, fleet = run.spec
    seed = run.seed
    state, ev, snaps, row = run_traced(run, game_index)
    labels = run.seat_labels(game_index)
    S = int(p[L.P_S])
    lines = [f"Clear for Takeoff: game {game_index} of seed {seed}; seats: "
             + ", ".join(f"{s}={labels[s]}" for s in range(S))]
    for e in ev:
        if e[2] == L.E_TURN:
            t, s = int(e[0]), int(e[1])
            snap = snaps[t]
            w = L.CARD_NAMES[int(snap[L.H_WEATHER])]
            lines.append("")
            lines.append(f"turn {t + 1}: seat {s} ({labels[s]}) | weather {w} | deck {int(snap[L.H_DECK_N])}, "
                         f"discard {int(snap[L.H_DISC_N])}")
            lines.append(f"  hand: {hand_text(snap, p, s)}")
            lines.extend(board_text(snap, p, fleet))
        else:
            lines.append(_event_line(e, p, fleet, labels))
    rowd = {n: int(v) for n, v in zip(run.game.column_names(S), row, strict=True)}
    ranks = ", ".join(f"seat {s}: {rowd[f'rank_s{s}'] or '-'}" for s in range(S))
    lines.append("")
    lines.append(f"result: winner seat {rowd['winner']}, {rowd['turns']} turns, stalled {rowd['stalled']}, "
                 f"cut off {rowd['cut_off']}, "
                 f"reshuffles {rowd['reshuffles']}; finishing order {ranks}")
    return TraceResult(lines, rowd)
