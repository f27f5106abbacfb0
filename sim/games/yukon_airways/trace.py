"""`sim replay` for Yukon Airways: events and round snapshots -> readable lines.

Each day shows the docks and their dice, the board's markers, every cockpit (money, fuel,
dials, switches, hand), then the boarding turns (dock, ability, moves, dice taken, refuel),
the new turn order, every flight with its tickets, symbols, fuel and markers, the income of
each seat and the maintenance; each line says why the action was legal.
"""

from __future__ import annotations

import sim.games.yukon_airways.layout as Y
from sim.games.base import TraceResult
from sim.games.yukon_airways.data import COLOURS, DAYS, SYMBOLS
from sim.games.yukon_airways.hooks import run_traced

REWARD = ("$", "card(s)")


def _names(run) -> list[str]:
    return [loc.name for loc in run.cfg.section.locations]


def card_name(names: list[str], t: int) -> str:
    """'<location>/<symbol>' of card type ``t``."""
    return f"{names[t // Y.NSYM]}/{SYMBOLS[t % Y.NSYM]}"


def _seat(p, s: int, f: int) -> int:
    return int(p[Y.P_OFF_SEAT] + s * Y.SW + f)


def docks_text(snap, p, dcol) -> list[str]:
    """The dice on each dock (colour initials)."""
    out = []
    for k in range(Y.NDOCK):
        dice = [COLOURS[int(dcol[d])] for d in range(int(p[Y.P_NDICE])) if snap[int(p[Y.P_OFF_DIE]) + 2 * d] == k]
        out.append(f"dock {k + 1}: {', '.join(dice) or '-'}")
    return ["  docks  " + " | ".join(out)]


def markers_text(snap, p, names) -> list[str]:
    """Coloured markers left on each location."""
    parts = []
    for l in range(int(p[Y.P_L])):
        if l == int(p[Y.P_HUB]):
            continue
        cs = [COLOURS[c][0] * int(snap[int(p[Y.P_OFF_MAP]) + l * Y.NCOL + c]) for c in range(Y.NCOL)]
        parts.append(f"{names[l]} {''.join(cs) or '-'}")
    return ["  markers " + "; ".join(parts)]


def cockpit_text(snap, spec, s: int, names, label: str) -> str:
    """One seat's cockpit: money, fuel, dial values, switches on, hand."""
    p, dials = spec[0], spec[4]
    dv = [f"{Y.DIAL_NAMES[d]} {int(dials[d, 1 + snap[_seat(p, s, Y.SE_DIAL + d)]])}" for d in range(Y.NDIAL)]
    sw = [Y.IMP_NAMES[Y.NDIAL + j] for j in range(Y.NSW) if snap[_seat(p, s, Y.SE_SW + j)] == 1]
    base = int(p[Y.P_OFF_HAND]) + s * int(p[Y.P_NT])
    hand = [f"{card_name(names, t)}x{int(snap[base + t])}" if snap[base + t] > 1 else card_name(names, t)
            for t in range(int(p[Y.P_NT])) if snap[base + t] > 0]
    aboard = sum(1 for d in range(int(p[Y.P_NDICE]))
                 if snap[int(p[Y.P_OFF_DIE]) + 2 * d] == Y.DP_PLANE and snap[int(p[Y.P_OFF_DIE]) + 2 * d + 1] == s)
    return (f"  seat {s} ({label}): ${int(snap[_seat(p, s, Y.SE_MONEY)])}, fuel {int(snap[_seat(p, s, Y.SE_FUEL)])}, "
            f"{aboard} dice aboard; {', '.join(dv)}; switches on: {', '.join(sw) or 'none'}; "
            f"hand ({len(hand)} types): {' '.join(hand) or '(empty)'}")


def _dice(n: int) -> str:
    return f"{n} die" if n == 1 else f"{n} dice"


def _event_line(e, spec, names, labels) -> str | None:
    s = int(e[1])
    code, a, b, c, d, x = (int(v) for v in e[2:8])
    who = f"seat {s}" if s >= 0 else ""
    if code == Y.E_START:
        return f"start player: seat {s} (drawn at random); start money $1, $2 ... by turn order"
    if code == Y.E_ROLL:
        return f"    die {a} ({COLOURS[int(spec[8][a])]}) rolls {b}: dock {b}"
    if code == Y.E_PLACE:
        return f"  {who} boards: marker at dock {a + 1} (arrival {b + 1} this day; a shared dock puts it under earlier markers)"
    if code == Y.E_DOCK:
        what = {1: "draws a ticket", 2: f"may take dice of {b} colours",
                3: f"one free die move ({b} free now)" if b >= 0 else f"+1 fuel (fuel {c})", 4: f"+2 fuel (fuel {b})"}
        return f"    dock {a + 1} ability: {what.get(a, '')}"
    if code == Y.E_DECLINE:
        what = {1: "draw a ticket", 3: "+1 fuel", 4: "+2 fuel"}
        return f"    dock {a + 1} ability not used: {what.get(a, '')} (RB Boardingphase b: if wanted)"
    if code == Y.E_BUY:
        if a < 0:
            return "    dock 6: buys no improvement"
        return f"    dock 6: pays ${b} for {Y.IMP_NAMES[a]} (${c} left)"
    if code == Y.E_MOVE:
        how = "$1" if d == 1 else "free"
        return f"    moves die {a} ({COLOURS[x]}) dock {b + 1} -> dock {c + 1} (adjacent, 1 and 6 adjacent; {how})"
    if code == Y.E_TAKE:
        return f"    takes {_dice(b)} ({COLOURS[a]}) from dock {c + 1} (one colour per take, seats free)"
    if code == Y.E_REFUEL:
        return f"    refuels +{a} (free barrels + bonus fuel dial, tank capped): fuel {b}"
    if code == Y.E_ORDER:
        order = [v for v in (a, b, c, d) if v >= 0]
        return "  new turn order (lowest dock first, top to bottom): " + ", ".join(f"seat {v}" for v in order)
    if code == Y.E_FLY:
        return (f"  {who} flies {names[b]} -> {names[a]}: fuel {c} by the cheapest route, tank {d}, {_dice(x)} aboard "
                f"(legal: a payable passenger and fuel within tank + cards-as-fuel dial)")
    if code == Y.E_TICKET:
        return f"    ticket {card_name(names, a)} carries die {b} ({COLOURS[c]})"
    if code == Y.E_WILD:
        return f"    {a} face-down cards carry die {b} ({COLOURS[c]})"
    if code == Y.E_FACEDOWN:
        return f"    lays {card_name(names, a)} face down (the seat's choice; {b} more to lay)"
    if code == Y.E_BURN:
        return f"    burns {card_name(names, a)} as fuel (the seat's choice; {b} more to burn)"
    if code == Y.E_EXTRA:
        return f"    die {a} ({COLOURS[b]}) rides on a ticket as its second die (switch two_dice_per_ticket)"
    if code == Y.E_TUCK:
        return f"    tucks {card_name(names, a)} for its {SYMBOLS[b]} symbol (a played ticket shows it, or face-down cards)"
    if code == Y.E_BONUS:
        return f"    three alike: {SYMBOLS[a]} bonus (money ${b}, fuel {c}, improvements due {d})"
    if code == Y.E_FUEL:
        burnt = f", {b} card(s) burnt as fuel (tank short)" if b else ""
        return f"    pays {a} fuel{burnt}; fuel {c}; lands at {names[x]}"
    if code == Y.E_MARKER:
        what = {1: f"takes a {COLOURS[b]} marker (colours match: one improvement)",
                0: "no matching marker: a grey marker", -1: "no matching marker, grey supply empty"}[c]
        return f"    die {a} ({COLOURS[b]}): {what}"
    if code == Y.E_IMPROVE:
        return f"    improvement: {Y.IMP_NAMES[a] if a >= 0 else 'none taken'}"
    if code == Y.E_ORDER_CARD:
        return f"    order card {a + 1} met: +{b} {REWARD[c]}"
    if code == Y.E_PASS:
        return f"  {who} makes no more flights this day ({_dice(a)} still aboard)"
    if code == Y.E_INCOME:
        return f"    income: best location ${a}, {_dice(b)} on tickets x $1, far ${c}: money ${d}"
    if code == Y.E_DRAW:
        return f"    {who} draws {a} card(s) (hand {b})"
    if code == Y.E_DISCARD:
        return f"    {who} discards {card_name(names, a)} (over the hand limit)"
    if code == Y.E_RESHUFFLE:
        return f"    draw pile empty: the discard pile ({a} cards) is shuffled"
    if code == Y.E_STARVED:
        return f"    starved draw: {a} card(s) short"
    if code == Y.E_END_MONEY:
        return (f"  {who} end money: Christmas dial ${a}, marker_money switch ${b}, {c} locations visited ${d}: "
                f"money ${x}")
    if code == Y.E_END:
        return f"== game end: top money ${a} held by {b} seat(s); shared {c}"
    if code == Y.E_STALL:
        return "== turn cap reached: the game is a stall"
    return f"  event {code} {a} {b} {c} {d} {x}"


def trace(run, game_index: int) -> TraceResult:
    """Replay game ``game_index`` of ``run`` (a CompiledRun) and render it (module docstring)."""
    spec = run.spec
    p = spec[0]
    state, ev, snaps, row = run_traced(run, game_index)
    labels = run.seat_labels(game_index)
    names = _names(run)
    S = int(p[Y.P_S])
    lines = [f"Yukon Airways: game {game_index} of seed {run.seed}; seats: "
             + ", ".join(f"{s}={labels[s]}" for s in range(S))]
    started = False   # set-up rolls are shown by the first day's docks line
    passes = 0        # seats paid their income this day; then the maintenance (RB Wartungsphase)
    for e in ev:
        code = int(e[2])
        if passes == S and code not in (Y.E_ROUND, Y.E_END_MONEY, Y.E_END):
            lines.append("  maintenance (RB Wartungsphase): a) dice on tickets rolled onto the dock of their face, "
                         "b) played tickets discarded, c) draws by the draw dial, d) discards down to the hand limit")
            passes = -1
        if code == Y.E_INCOME:  # the last event of a seat's income (RB Einkommensphase)
            passes += 1
        if code == Y.E_ROLL and not started:
            continue
        if code == Y.E_ROUND:
            if started:
                lines.append("  planes back to Whitehorse; the day marker moves on")
            started = True
            passes = 0
            r = int(e[3])
            snap = snaps[r] if r < snaps.shape[0] else state
            lines.append("")
            lines.append(f"day {r + 1} ({DAYS[r % len(DAYS)]})")
            lines.extend(docks_text(snap, p, spec[8]))
            lines.extend(markers_text(snap, p, names))
            for s in range(S):
                lines.append(cockpit_text(snap, spec, s, names, labels[s]))
            continue
        t = _event_line(e, spec, names, labels)
        if t is not None:
            lines.append(t)
    cols = run.game.column_names(run.n_seats)
    rowd = {n: int(v) for n, v in zip(cols, row)}
    lines.append("")
    money = ", ".join(f"seat {s}: ${rowd[f'money_s{s}']} (rank {rowd[f'rank_s{s}']})" for s in range(S))
    lines.append(f"result: winner seat {rowd['winner']}, shared {rowd['shared_win']}, {rowd['turns']} turns, "
                 f"stalled {rowd['stalled']}; {money}")
    return TraceResult(lines, rowd)
