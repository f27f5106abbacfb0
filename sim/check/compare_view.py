"""``sim compare`` for people: the rows of a :class:`sim.check.gate.CompareReport` grouped by
the question they answer, each group with a one-line answer, the headline verdict first, the
changed config keys, on an 80-column terminal (rich) and as ``compare.md`` / ``compare.html``.

Groups (in this order; a group with no row is left out):

* **seats** ("seat balance"): win rate by seat (or by start position), first-player advantage,
  the seat spread (highest minus lowest seat win rate, computed here, not tested), the seat
  equality p-value, rank shares;
* **skill** ("policy win rates"): win rate by policy and the gap between the best and the worst
  policy (computed, not tested);
* **length** ("game length"): turns (mean, quantiles), the game's rounds metric
  (``GameDef.rounds_metric``), stall rate, reshuffles, starved draws;
* **failures** ("team result and failures", cooperative games): the team's win and loss rate
  and the game's ``GameDef.failure_metrics``;
* **game** ("game metrics"): every other metric (the game's ``GameDef.headline`` first).

A group's answer names its significant changes (Holm across every tested metric of the
comparison, as the table's p (Holm)), else the strongest one seen ("largest": smallest
p-value) with its 95 % interval and whether its test was paired per game index. On the
terminal a group shows its headline rows, its computed rows, any significant row and every
row of the failures group; the others are counted and are in ``compare.md`` (``--all`` shows them all). At a console width
below 120 the table has 7 columns (metric, A, B, change, interval, test, p (Holm)), from 120
also the raw p, the per-game correlation and the detectable change.

Pure Python plus rich (imported in :func:`render`); numbers through
:mod:`sim.report.format`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from sim.check.gate import CRN_NOTE
from sim.check.stats import MetricRow, is_rate, worst_detectable
from sim.report.format import MISSING, fmt_change, fmt_detectable, fmt_number, fmt_p, md_escape, md_table

PAIRED_TESTS = ("mcnemar", "paired t", "paired ratio")
"""Test names (:func:`sim.stats.paired_change`) that compare the two sides game by game."""
TEST_SHORT = {"mcnemar": "McNemar", "paired t": "paired t", "paired ratio": "ratio", "two-proportion z": "2-prop z",
              "Welch": "Welch", "unpaired z (ratio se)": "z (se)", "unpaired z": "z (se)"}
"""The test column's short names (the legend under the tables spells them out)."""
TEST_LEGEND = ("tests: McNemar (yes/no per game), paired t (value per game) and ratio (a share or rate per "
               "appearance, delta method) pair the games by index, so the shared deals' luck cancels; "
               "2-prop z, Welch and z (se) are unpaired (conservative under common random numbers); "
               "intervals are 95 % for each metric alone, p (Holm) and * (significant) adjust for every "
               "tested metric")
LENGTH = ("turns_mean", "turns_p05", "turns_p50", "turns_p95", "stall_rate", "reshuffles_mean", "starved_draw_rate")
SEAT_METRICS = ("win_rate", "first_player_advantage", "seat_spread", "seat_equality_p", "rank_share")
GROUPS = (("seats", "Seats", "seat balance"), ("skill", "Skill", "policy win rates"),
          ("length", "Length", "game length"), ("failures", "Result and failures", "team result and failures"),
          ("game", "Game-specific", "game metrics"))
"""(key, title, question) of every group, in display order."""
WIDE = 120
"""Console width from which the table shows every column."""


@dataclass
class ViewRow:
    """One row of a group: the compared metric, its short label and whether the terminal
    shows it (``shown``); ``computed`` rows (seat spread, policy gap) are derived here."""

    row: MetricRow
    short: str
    shown: bool = True
    computed: bool = False


@dataclass
class Group:
    key: str
    title: str
    question: str
    rows: list[ViewRow] = field(default_factory=list)
    answer: str = ""


@dataclass
class CompareView:
    """What the compare prints and writes: the verdict lines, the changed config keys
    (``changes``: (key, A value, B value) text triples; None = unknown, with ``changes_note``
    saying why), the groups and the notes."""

    a_label: str
    b_label: str
    verdict: list[str]
    changes: list[tuple[str, str, str]] | None
    changes_note: str
    groups: list[Group]
    notes: list[str]
    catalogue: dict = field(default_factory=dict)


# ---------------------------------------------------------------------------- building


def _game_info(game: str | None) -> tuple[tuple, str | None, tuple]:
    """(failure_metrics, rounds_metric, headline) of registered game ``game``'s GameDef (empty
    for an unknown game)."""
    from sim.check.paired import registered_game

    gdef = registered_game(game)
    if gdef is None:
        return (), None, ()
    return tuple(gdef.failure_metrics), gdef.rounds_metric, tuple(gdef.headline)


def group_of(r: MetricRow, failure: tuple = (), rounds_metric: str | None = None) -> str:
    """The group key (see the module docstring) of a compared metric row."""
    keys = set(r.by)
    if r.metric == "win_rate":
        if keys == {"policy"}:
            return "skill"
        return "failures" if not keys else "seats"
    if r.metric == "policy_gap":
        return "skill"
    if r.metric in SEAT_METRICS:
        return "seats"
    if r.metric in LENGTH or (rounds_metric and r.metric == rounds_metric):
        return "length"
    if r.metric == "loss_rate" or r.metric in failure:
        return "failures"
    return "game"


def _by_text(by: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in by.items())


def short_label(r: MetricRow, rounds_metric: str | None = None) -> str:
    """A label that fits a narrow column: ``seat 0``, ``heuristic``, ``stall rate``; other
    metrics as ``name [key=value]`` (the space lets a narrow column wrap there)."""
    m, by = r.metric, r.by
    keys = set(by)
    if m == "win_rate" and keys == {"seat"}:
        return f"seat {by['seat']}"
    if m == "win_rate" and keys == {"policy"}:
        return str(by["policy"])
    if m == "win_rate" and len(keys) == 1:
        k = next(iter(keys))
        return f"{k.replace('_', ' ')} {by[k]}"
    if m == "rank_share" and keys == {"seat", "rank"}:
        return f"seat {by['seat']} rank {by['rank']}"
    fixed = {"first_player_advantage": "first-player adv.", "seat_spread": "seat spread",
             "seat_equality_p": "seat equality p", "policy_gap": "policy gap", "stall_rate": "stall rate",
             "turns_mean": "turns (mean)", "turns_p05": "turns p05", "turns_p50": "turns median",
             "turns_p95": "turns p95", "reshuffles_mean": "reshuffles", "starved_draw_rate": "starved draws",
             "loss_rate": "team loss rate"}
    if not by and m in fixed:
        return fixed[m]
    if m == "win_rate" and not by:
        return "team win rate"
    if rounds_metric and m == rounds_metric and not by:
        return "rounds (mean)"
    if len(keys) == 1:
        k, v = next(iter(by.items()))
        return f"{m} seat {v}" if k == "seat" else f"{m} {v}"
    return f"{m} [{_by_text(by)}]" if by else m


def _spread_row(rows: list[MetricRow], metric: str, key: str, note: str) -> MetricRow | None:
    """Highest minus lowest win rate of the rows grouped by ``key`` on each side (a computed,
    untested row named ``metric``); None with fewer than two such rows on a side."""
    sel = [r for r in rows if r.metric == "win_rate" and set(r.by) == {key}]

    def spread(vals):
        vals = [v for v in vals if v is not None and math.isfinite(v)]
        return max(vals) - min(vals) if len(vals) >= 2 else None

    a, b = spread([r.a for r in sel]), spread([r.b for r in sel])
    if a is None and b is None:
        return None
    out = MetricRow(metric, {}, "difference", a, b, unit="pp", verdict="info", note=note)
    if a is not None and b is not None:
        out.change = b - a
    return out


def is_paired(r: MetricRow) -> bool:
    return bool(r.test) and r.test in PAIRED_TESTS


def _decimals(r: MetricRow) -> int:
    """Decimals for a mean's change and interval: about two significant digits of the
    interval's width (3 without an interval)."""
    if r.ci_low is None or r.ci_high is None or not r.ci_high > r.ci_low:
        return 3
    return min(max(1 - math.floor(math.log10(r.ci_high - r.ci_low)), 0), 6)


def fmt_delta(r: MetricRow, x: Any) -> str:
    """A change (or an interval bound) of row ``r``: rates in signed points with two
    decimals, other values signed at the precision of the row's interval."""
    if x is None or not math.isfinite(x):
        return MISSING
    if is_rate(r):
        return f"{100 * x:+.2f}"
    if r.kind == "p_value":
        return f"{x:+.2g}"
    return f"{x:+.{_decimals(r)}f}"


def change_text(r: MetricRow) -> str:
    """The change column: ``+0.20 pp``, ``-0.73``, ``+0.021``."""
    if r.change is None:
        return MISSING
    return fmt_delta(r, r.change) + (" pp" if is_rate(r) else "")


def interval_text(r: MetricRow) -> str:
    """The 95 % interval of the change, ``[-0.94, +1.34]`` (points for rates), or –."""
    if r.ci_low is None or r.ci_high is None:
        return MISSING
    return f"[{fmt_delta(r, r.ci_low)}, {fmt_delta(r, r.ci_high)}]"


def test_text(r: MetricRow, wide: bool = False) -> str:
    """The test a row used (short name; ``wide``: the full name), or "not tested"."""
    if not r.test:
        return "not tested" if wide else "–"
    return r.test if wide else TEST_SHORT.get(r.test, r.test)


def describe(v: ViewRow) -> str:
    """One row as a phrase: ``seat 2 -0.40 pp [-1.12, +0.32], paired McNemar``; a mean also
    gives its relative change."""
    r = v.row
    rel = ""
    if not is_rate(r) and r.change is not None and r.a:
        rel = f" ({100 * r.change / abs(r.a):+.1f}%)"
    how = r.test or ""
    if not how.startswith("paired"):
        how = ("paired " if is_paired(r) else "unpaired ") + TEST_SHORT.get(how, how)
    return f"{v.short} {change_text(r)}{rel} {interval_text(r)}, {how}"


def _answer(g: Group) -> str:
    tested = [v for v in g.rows if v.row.tested]
    if not tested:
        return f"{g.question}: nothing tested"
    sig = sorted((v for v in tested if v.row.significant), key=lambda v: v.row.p_value)
    if sig:
        head = "; ".join(describe(v) for v in sig[:2]) + ("; ..." if len(sig) > 2 else "")
        return f"{g.question}: SIGNIFICANT change in {len(sig)} of {len(tested)} ({head})"
    pool = [v for v in tested if v.shown] or tested  # the rows the group shows answer for it
    top = min(pool, key=lambda v: (v.row.p_value, -abs(v.row.change or 0)))
    return f"{g.question}: no significant change (largest: {describe(top)})"


def build_view(rep: Any, a_summary: dict | None = None, b_summary: dict | None = None,
               changes: list[tuple[str, str, str]] | None = None, changes_note: str = "",
               show_all: bool = False) -> CompareView:
    """The :class:`CompareView` of comparison ``rep`` (a CompareReport); ``a_summary`` /
    ``b_summary`` give the game (its failure_metrics, rounds_metric, headline) and the metric
    catalogue; ``changes`` the changed config keys (:func:`sim.check.configdiff.diff_lines`),
    None when unknown (``changes_note`` says why). ``show_all`` marks every row shown."""
    a_summary, b_summary = a_summary or {}, b_summary or {}
    game = rep.a_meta.get("game") or a_summary.get("game") or b_summary.get("game")
    failure, rounds_metric, _headline = _game_info(game)
    rows = list(rep.rows)
    extra = [x for x in (
        _spread_row(rows, "seat_spread", "seat", "highest minus lowest seat win rate (not tested: the seats are)"),
        _spread_row(rows, "policy_gap", "policy", "best minus worst policy win rate (not tested: the policies are)"),
    ) if x is not None]
    groups = {k: Group(k, t, q) for k, t, q in GROUPS}
    for r in rows + extra:
        computed = any(r is x for x in extra)
        key = group_of(r, failure, rounds_metric)
        # the failure modes are what their group is about: shown like headline rows
        shown = (show_all or computed or r.headline or r.significant or key == "failures"
                 or r.verdict in ("only A", "only B"))
        groups[key].rows.append(ViewRow(r, short_label(r, rounds_metric), shown, computed))
    # the seat spread after the seats, the policy gap after the policies
    for g in groups.values():
        g.rows.sort(key=lambda v: (v.row.metric == "rank_share", v.row.metric == "seat_equality_p",
                                   not v.row.headline and not v.computed))
    out = [g for g in groups.values() if g.rows]
    for g in out:
        g.answer = _answer(g)
    tested = [r for r in rows if r.tested]
    sig = [r for r in tested if r.significant]
    where = sorted({groups[group_of(r, failure, rounds_metric)].question for r in sig},
                   key=lambda q: [x[2] for x in GROUPS].index(q))
    if sig:
        v1 = (f"verdict: SIGNIFICANT change in {len(sig)} of {len(tested)} tested metrics (Holm, "
              f"α = {rep.alpha:g}): {', '.join(where)}.")
    else:
        v1 = (f"verdict: no significant change in any of the {len(tested)} tested metrics (Holm, "
              f"α = {rep.alpha:g}).")
    am, bm = rep.a_meta, rep.b_meta
    paired = sum(1 for r in tested if is_paired(r))
    if rep.crn:
        how = (f"{paired} of {len(tested)} tested paired per game index, the rest unpaired" if paired
               else "unpaired tests (no per-game outcomes)")
        v2 = (f"{rep.a_label} vs {rep.b_label}: {_count(am.get('games'))} games each on seed "
              f"{am.get('seed')} (common random numbers); {how}.")
    else:
        v2 = (f"{rep.a_label} ({_count(am.get('games'))} games, seed {am.get('seed')}) vs {rep.b_label} "
              f"({_count(bm.get('games'))} games, seed {bm.get('seed')}): independent runs, unpaired tests.")
    verdict = [v1, v2]
    det = _detectable_line(rows, am.get("games"))
    if det and not sig:
        verdict.append(det)
    notes = [n for n in rep.notes if "tested paired per game index" not in n]
    cat = dict(a_summary.get("catalogue") or {})
    cat.update({k: v for k, v in (b_summary.get("catalogue") or {}).items() if k not in cat})
    return CompareView(rep.a_label, rep.b_label, verdict, changes, changes_note, out, notes, cat)


def _detectable_line(rows: list[MetricRow], games: Any) -> str | None:
    """What "no significant change" rules out: the largest detectable change (80 % power)
    of the tested headline rates (points) and means (relative to A)."""
    head = [r for r in rows if r.tested and r.headline and r.detectable is not None]
    parts = []
    rate, mean = worst_detectable(head)
    if rate is not None:
        parts.append(f"rates moving {100 * rate.detectable:.2f} pp (worst {short_label(rate)})")
    if mean is not None:
        parts.append(f"means moving {100 * mean.detectable / abs(mean.a):.1f}% (worst {short_label(mean)})")
    if not parts:
        return None
    return f"at {_count(games)} games a side it would have detected {' and '.join(parts)} (80% power)."


def _count(n: Any) -> str:
    return f"{n:,}" if isinstance(n, int) else str(n)


# ---------------------------------------------------------------------------- terminal


def _value(r: MetricRow, x: Any) -> str:
    return fmt_number(x, r.meta)


def _p_cell(r: MetricRow) -> str:
    if not r.tested:
        return MISSING
    return fmt_p(r.p_holm, label=False) + ("*" if r.significant else "")


def render(view: CompareView, console: Any) -> None:
    """Print ``view`` on a rich console: verdict lines, changed keys, one table per group
    with its answer, the legend and the notes; every line fits ``console.width`` (7 columns
    below :data:`WIDE`, more from it)."""
    from rich.markup import escape as esc
    from rich.table import Table
    from rich.text import Text

    wide = console.width >= WIDE
    style = "bold yellow" if view.verdict[0].startswith("verdict: SIGNIFICANT") else "bold green"
    console.print(Text(view.verdict[0], style=style))
    for line in view.verdict[1:]:
        console.print(Text(line))
    console.print()
    if view.changes is None:
        console.print(Text(f"changed config keys: unknown ({view.changes_note})"))
    elif not view.changes:
        console.print(Text("changed config keys: none (A and B play the same effective config)"))
    else:
        console.print(Text(f"changed config keys (A -> B), {len(view.changes)}:"))
        for k, a, b in view.changes:
            console.print(Text(f"  {k}: {a} -> {b}"))
    for g in view.groups:
        console.print()
        console.rule(Text(g.title, style="bold"), align="left", characters="─")
        console.print(Text(g.answer, style="yellow" if "SIGNIFICANT" in g.answer else ""))
        shown = [v for v in g.rows if v.shown]
        hidden = [v for v in g.rows if not v.shown]
        if shown:
            t = Table(box=None, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0), header_style="bold",
                      show_header=True)
            t.add_column("metric", overflow="fold", ratio=None, min_width=12)
            for col in ("A", "B", "change", "95% interval"):
                t.add_column(col, justify="right", no_wrap=True)
            t.add_column("test", no_wrap=True)
            t.add_column("p (Holm)", justify="right", no_wrap=True)
            if wide:
                for col in ("p", "ρ", "detectable"):
                    t.add_column(col, justify="right", no_wrap=True)
                t.add_column("", overflow="fold")
            for v in shown:
                r = v.row
                cells = [esc(v.short), _value(r, r.a), _value(r, r.b), change_text(r), interval_text(r),
                         test_text(r, wide=False), _p_cell(r)]
                if wide:
                    corr = f"{r.corr:.2f}" if r.corr is not None and r.corr == r.corr else ""
                    mark = "significant" if r.significant else (r.verdict if r.verdict not in ("-",) else "")
                    if r.note and not v.computed:
                        mark = f"{mark} ({r.note})" if mark else r.note
                    cells += [fmt_p(r.p_value, label=False), corr,
                              fmt_detectable(r.detectable, r.meta) if r.tested else "", esc(mark)]
                style = "yellow" if r.significant else ("dim" if v.computed or not r.tested else "")
                t.add_row(*cells, style=style)
            console.print(t)
        if hidden:
            console.print(Text(f"+ {len(hidden)} more, none significant: {_names(hidden)} (in compare.md; "
                               "--all shows them)", style="dim"))
    console.print()
    console.print(Text(TEST_LEGEND, style="dim"))
    for note in view.notes:
        if CRN_NOTE not in note:  # the verdict and the legend say it
            console.print(Text(f"note: {note}"))


def _names(rows: list[ViewRow], most: int = 3) -> str:
    names = list(dict.fromkeys(v.row.metric for v in rows))
    return ", ".join(names[:most]) + (", ..." if len(names) > most else "")


# ---------------------------------------------------------------------------- markdown


def render_markdown(view: CompareView, plots: list[str] = (), img_prefix: str = "") -> str:
    """The text of ``compare.md``: verdict, changed keys, plots (``img_prefix`` + file name),
    every group with its answer and every row (all columns), the definitions of the metrics
    named, the notes."""
    lines = [f"# Compare: {md_escape(view.a_label)} vs {md_escape(view.b_label)}", "", "## Verdict", ""]
    lines += [f"- {md_escape(v)}" for v in view.verdict]
    lines += [f"- {md_escape(g.title)}: {md_escape(g.answer)}" for g in view.groups]
    lines += ["", "## Changed config keys (A -> B)", ""]
    if view.changes is None:
        lines.append(f"Unknown: {md_escape(view.changes_note)}.")
    elif not view.changes:
        lines.append("None: A and B play the same effective config.")
    else:
        lines += [f"- `{md_escape(k)}`: `{md_escape(a)}` -> `{md_escape(b)}`" for k, a, b in view.changes]
    if plots:
        lines += ["", "## Plots", ""]
        lines += [f"![{md_escape(p)}]({img_prefix}{p})" for p in plots]
    for g in view.groups:
        lines += ["", f"## {md_escape(g.title)}", "", f"**{md_escape(g.answer)}**", ""]
        rows = []
        for v in g.rows:
            r = v.row
            corr = f"{r.corr:.2f}" if r.corr is not None and r.corr == r.corr else ""
            mark = "**significant**" if r.significant else md_escape(r.verdict if r.verdict != "-" else "")
            if r.note:
                mark = f"{mark} ({md_escape(r.note)})" if mark else md_escape(r.note)
            rel = fmt_change(r.change, r.meta, r.a) if r.change is not None and not is_rate(r) else ""
            rows.append([f"`{md_escape(r.label)}`", _value(r, r.a), _value(r, r.b),
                         change_text(r) + (f" ({rel.split('(', 1)[1]}" if "(" in rel else ""),
                         interval_text(r), md_escape(test_text(r, wide=True)), corr,
                         fmt_p(r.p_value, label=False), fmt_p(r.p_holm, label=False),
                         fmt_detectable(r.detectable, r.meta) if r.tested else "", mark])
        lines.append(md_table(["metric", "A", "B", "change", "95% interval", "test", "ρ", "p", "p (Holm)",
                               "detectable (80%)", ""], rows, "lrrrrlrrrrl"))
    names = list(dict.fromkeys(v.row.metric for g in view.groups for v in g.rows))
    defs = [(n, view.catalogue[n]) for n in names if n in view.catalogue]
    if defs:
        lines += ["", "## Definitions", ""]
        for n, d in defs:
            text = d.get("definition", "") if isinstance(d, dict) else str(d)
            unit = d.get("unit") if isinstance(d, dict) else None
            lines.append(f"- `{md_escape(n)}`: {md_escape(text)}" + (f" ({md_escape(unit)})" if unit else ""))
    lines += ["", "## Notes", "", f"- {md_escape(TEST_LEGEND)}"]
    lines += [f"- {md_escape(n)}" for n in view.notes]
    return "\n".join(lines) + "\n"


def view_to_json(view: CompareView) -> dict:
    """The view's part of ``compare.json``: verdict, changed keys, groups (answer and labels)."""
    return {
        "verdict": view.verdict,
        "changed_keys": (None if view.changes is None
                         else [{"key": k, "a": a, "b": b} for k, a, b in view.changes]),
        "changed_keys_note": view.changes_note,
        "groups": [{"key": g.key, "title": g.title, "answer": g.answer,
                    "metrics": [v.row.label for v in g.rows]} for g in view.groups],
    }
