"""Output of ``sim check`` and ``sim compare``: JSON documents (``sim-check/1``,
``sim-compare/1``), JUnit XML and rich tables (``sim compare``'s grouped view is
:mod:`sim.check.compare_view`). Numbers are formatted by
:mod:`sim.report.format`, the code the reports use (rates, p-values and missing values print
the same way everywhere); JSON files are written with :func:`sim.jsonio.write_json`.

rich is imported inside the table renderers.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from sim.check.gate import IDENTICAL_MESSAGE, CheckReport, CompareReport, TargetRow
from sim.check.stats import MetricRow
from sim.report.format import fmt_change, fmt_detectable, fmt_number, fmt_p, fmt_tolerance

CHECK_FORMAT = "sim-check/1"
COMPARE_FORMAT = "sim-compare/1"
_STYLE = {"FAIL": "bold red", "missing": "bold red", "pass": "green", "info": "dim", "new": "cyan"}


def _row_dict(r: MetricRow) -> dict:
    d = asdict(r)
    d.pop("_power_args", None)
    if d.get("unit") is None:
        d.pop("unit", None)
    d["label"] = r.label
    return d


def _target_meta(t: TargetRow) -> dict:
    return {"metric": t.metric, "kind": t.kind}


def _cells(r: MetricRow) -> tuple[str, str, str]:
    """(baseline, now, change) of a row as table text."""
    m = r.meta
    return fmt_number(r.a, m), fmt_number(r.b, m), fmt_change(r.change, m, r.a)


def _interval(r: MetricRow) -> str:
    """The change's interval as table text (points for rates)."""
    if r.ci_low is None or r.ci_high is None:
        return "–"
    m = r.meta
    return f"{fmt_change(r.ci_low, m, r.a)} .. {fmt_change(r.ci_high, m, r.a)}"


def _test(r: MetricRow) -> str:
    if not r.test:
        return ""
    return r.test + (f" ρ={r.corr:.2f}" if r.corr is not None and r.corr == r.corr else "")


def _detectable(r: MetricRow) -> str:
    return fmt_detectable(r.detectable, r.meta, short=bool(r.games_needed))


def check_to_json(report: CheckReport) -> dict:
    """JSON-ready dict (format ``sim-check/1``) of a check: verdicts, rows, targets, notes."""
    return {
        "format": CHECK_FORMAT,
        "game": report.game,
        "run": report.run,
        "passed": report.passed,
        "exit_code": report.exit_code,
        "identical": report.identical,
        "alpha": report.alpha,
        "power": report.power,
        "baseline": report.baseline,
        "now": report.now,
        "notes": report.notes,
        "regressions": [r.label for r in report.regressions],
        "moved": [r.label for r in report.moved],
        "missed_targets": [f"{t.target}: {t.label}" for t in report.missed_targets],
        "metrics": [_row_dict(r) for r in report.rows],
        "targets": [{**asdict(t), "label": t.label} for t in report.targets],
    }


def check_to_junit(report: CheckReport) -> str:
    """JUnit XML: one ``<testsuite>`` with a ``<testcase>`` per metric and per (target, record);
    regressions and missed targets are ``<failure>``, targets matching nothing ``<error>``,
    metrics that are not tested pass (their values are in the message-free system-out)."""
    import xml.etree.ElementTree as ET

    suites = ET.Element("testsuites")
    suite = ET.SubElement(suites, "testsuite", name=f"sim check {report.run or report.game}")
    n = failures = errors = 0
    for r in report.rows:
        n += 1
        case = ET.SubElement(suite, "testcase", classname=f"sim.check.{report.game}.metrics", name=r.label)
        a, b, change = _cells(r)
        text = (f"baseline {a}, now {b}, change {change}, p(Holm) {fmt_p(r.p_holm, label=False)}, "
                f"tolerance {fmt_tolerance(r.tolerance, r.meta, r.a)}, verdict {r.verdict}"
                + (f" ({r.note})" if r.note else ""))
        if r.failed:
            failures += 1
            # the message is what a CI screen shows: the change against its tolerance first
            f = ET.SubElement(case, "failure", type="regression",
                              message=f"{r.label}: {r.verdict}: change {change} (tolerance "
                                      f"{fmt_tolerance(r.tolerance, r.meta, r.a)}; baseline {a}, now {b})"
                                      + (f"; {r.note}" if r.note else ""))
            f.text = text
        else:
            ET.SubElement(case, "system-out").text = text
    for t in report.targets:
        n += 1
        case = ET.SubElement(suite, "testcase", classname=f"sim.check.{report.game}.targets",
                             name=f"{t.target}: {t.label}" if t.verdict != "no match" else t.target)
        value = fmt_number(t.value, _target_meta(t))
        text = f"value {value}, target {t.target}" + (f" ({t.note})" if t.note else "")
        if t.verdict == "FAIL":
            failures += 1
            ET.SubElement(case, "failure", message=f"{t.label} = {value}: {t.note}", type="target").text = text
        elif t.verdict == "no match":
            errors += 1
            ET.SubElement(case, "error", message=t.note, type="config").text = t.target
        else:
            ET.SubElement(case, "system-out").text = text
    if report.notes:
        ET.SubElement(suite, "system-out").text = "\n".join(report.notes)
    for el in (suite, suites):
        el.set("tests", str(n))
        el.set("failures", str(failures))
        el.set("errors", str(errors))
    suite.set("skipped", "0")
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"


NARROW = 120
"""Console width below which ``sim check`` prints its compact tables (:func:`_narrow_table`)."""
INFO_ROWS = 12
"""Most information rows a compact check table shows (the smallest p-values)."""


def box_heavy_head():
    from rich import box

    return box.HEAVY_HEAD


def _check_label(r: MetricRow) -> str:
    """A row's label for a narrow column: ``win seat 0``, ``win heuristic``, ``turns (mean)``,
    ``weather_share SC`` (:func:`sim.check.compare_view.short_label`)."""
    from sim.check.compare_view import short_label

    text = short_label(r)
    if r.metric == "win_rate" and r.by:
        text = f"win {text}"
    return text


def _narrow_table(title: str, rows: list[MetricRow], report: CheckReport, console: Any) -> None:
    """The check table for a console narrower than :data:`NARROW` (80 columns): metric,
    baseline, now, change, 95 % interval, test (short name), p and verdict, no borders; the
    notes of failed rows under the table. Information rows (not gated) are shown only when
    they are notable (raw p below alpha, missing, new; at most :data:`INFO_ROWS`, the smallest
    p first chosen); the others are counted."""
    from rich.markup import escape as esc
    from rich.table import Table
    from rich.text import Text

    from sim.check.compare_view import change_text, interval_text, test_text

    gated = rows[0].headline
    notable = [r for r in rows if r.verdict in ("missing", "new", "FAIL")
               or (r.p_value is not None and r.p_value < report.alpha)]
    shown = rows if gated else sorted(notable, key=lambda r: r.p_value if r.p_value is not None else -1.0)[:INFO_ROWS]
    shown = shown if gated else [r for r in rows if any(r is x for x in shown)]  # in the report's order
    firsts = {r.games for r in shown if r.tested}
    common = next(iter(firsts)) if len(firsts) == 1 and None not in firsts else None
    if common:  # one look for every row: said once, in the title
        title += f": baseline, now and change over the first {common:,} games of both runs"
    console.print(Text(title, style="bold"))
    if shown:
        t = Table(box=None, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0), header_style="bold")
        t.add_column("metric", overflow="fold", min_width=10)
        for col in ("baseline", "now", "change", "95% interval"):
            t.add_column(col, justify="right", no_wrap=True)
        t.add_column("test", no_wrap=True)
        t.add_column("p (Holm)" if gated else "p", justify="right", no_wrap=True)
        t.add_column("verdict", no_wrap=True)
        for r in shown:
            style = _STYLE.get(r.verdict, "")
            mark = r.verdict + ("!" if r.games_needed else "")
            a, b, _ = _cells(r)
            label = _check_label(r) + (f" (first {r.games:,})" if r.games and not common else "")
            t.add_row(esc(label), a, b, change_text(r), interval_text(r), test_text(r),
                      fmt_p(r.p_holm if gated else r.p_value, label=False), f"[{style}]{esc(mark)}[/]" if style
                      else esc(mark))
        console.print(t)
    for r in shown:
        if r.failed:
            why = (f"change {change_text(r)}, tolerance {fmt_tolerance(r.tolerance, r.meta, r.a)}"
                   if r.verdict == "FAIL" else "")
            console.print(Text(f"  {r.label}: {r.verdict}: " + "; ".join(x for x in (why, r.note) if x)))
    if len(shown) < len(rows):
        more = len(notable) - len(shown)
        console.print(Text(f"+ {len(rows) - len(shown)} more, "
                           + (f"{more} of them with p < {report.alpha:g}" if more else
                              f"none with p < {report.alpha:g}") + " (all in --json, or a wider terminal)",
                           style="dim"))
    if any(r.games for r in shown) and not common:
        console.print(Text("(first N): baseline, now and change over the first N games of both runs; the whole "
                           "runs' values in --json", style="dim"))
    if gated and any(r.games_needed for r in shown):
        console.print(Text("! = this many games cannot reliably detect a change of the tolerance (see the note)",
                           style="dim"))


def moved_text(report: CheckReport) -> str:
    """The tail of a PASS line that has significant changes within tolerance: ``", but N
    moved within tolerance: label change (tolerance t), ..."`` (empty when none did)."""
    from sim.check.compare_view import change_text

    moved = report.moved
    if not moved:
        return ""
    parts = [f"{r.label} {change_text(r)} (tolerance {fmt_tolerance(r.tolerance, r.meta, r.a)}"
             + (", widened: see the note" if r.tolerance_set is not None else "") + ")" for r in moved]
    n = len(moved)
    return (f", but {n} gated metric{'s' if n > 1 else ''} moved significantly within tolerance: "
            + "; ".join(parts))


PASS_NOTES = ("--seed ", "rules version changed", "same config, seed and games", "checks.tolerances names",
              "changed config keys", "tolerance = what", "the baseline predates", "user policy file changed")
"""Beginnings of the notes a passing check prints (:func:`render_pass`): what the designer must
know about a pass (another seed, another rules version or code, keys that changed, tolerances
the games cannot enforce); the others (what the gate detects, the first-player caveat, the
sequential looks) are in ``--json`` and with ``--all``."""


def render_pass(report: CheckReport, console: Any, json_path: Any = None) -> None:
    """A passing check in a few lines: the runs compared, what passed (gated metrics, targets,
    information metrics counted), the notes of :data:`PASS_NOTES`, the PASS line and where the
    detail is (``--json``, ``--all``)."""
    from rich.text import Text

    b, n = report.baseline, report.now
    console.print(Text.assemble(("sim check", "bold"), f" {report.run} ({report.game}): baseline {b.get('games')} "
                                f"games seed {b.get('seed')}, now {n.get('games')} games seed {n.get('seed')}"),
                  soft_wrap=False)
    gated = [r for r in report.rows if r.headline and r.tested]
    info = [r for r in report.rows if not r.headline]
    low = sum(1 for r in info if r.p_value is not None and r.p_value < report.alpha)
    parts = [f"{len(gated)} gated headline metric{'s' if len(gated) != 1 else ''} within tolerance"]
    if report.targets:
        parts.append(f"{len(report.targets)} target{'s' if len(report.targets) != 1 else ''} met")
    parts.append(f"{len(info)} information metric{'s' if len(info) != 1 else ''} not gated ({low} with raw "
                 f"p < {report.alpha:g})")
    console.print(Text("  " + "; ".join(parts)))
    for note in report.notes:
        if note.startswith(PASS_NOTES):  # no table here to hold the '!' marks the note names
            console.print(Text(f"note: {note}".replace(" marked '!'", "")))
    console.print(Text.assemble(("PASS", "bold green"), (f": {IDENTICAL_MESSAGE}" if report.identical else "")
                                + moved_text(report)))
    where = f"in {json_path}" if json_path is not None else "with --json FILE"
    console.print(Text(f"detail: every metric, target and note {where}; --all prints the tables", style="dim"))


def render_check(report: CheckReport, console: Any, show_all: bool = True, json_path: Any = None) -> None:
    """Print the check as rich tables (metrics, then targets) and a one-line verdict; below
    :data:`NARROW` columns the compact tables of :func:`_narrow_table`. A passing check
    prints only :func:`render_pass`'s few lines unless ``show_all``."""
    from rich.markup import escape as esc
    from rich.table import Table

    if report.exit_code == 0 and not show_all:
        render_pass(report, console, json_path)
        return
    b, n = report.baseline, report.now
    narrow = console.width < NARROW
    if narrow:
        rev = str(b.get("git_revision") or "?")
        rev = rev[:12] + ("-dirty" if rev.endswith("-dirty") and len(rev) > 18 else "")
        console.print(f"[bold]sim check[/bold] {esc(report.run)} ({esc(report.game)})")
        for who, d, extra in (("baseline", b, f", rev {esc(rev)}"), ("now", n, "")):
            console.print(f"  {who + ':':9} {d.get('games')} games, seed {d.get('seed')}, config "
                          f"{d.get('config_hash')}, rules {d.get('rules_version') or '?'}{extra}")
    else:
        console.print(f"[bold]sim check[/bold] {report.run} ({report.game}): baseline {b.get('games')} games "
                      f"seed {b.get('seed')} config {b.get('config_hash')} rules {b.get('rules_version') or '?'} "
                      f"rev {b.get('git_revision') or '?'}; now {n.get('games')} games seed {n.get('seed')} "
                      f"config {n.get('config_hash')} rules {n.get('rules_version') or '?'}")
    for title, rows in ((f"gated headline metrics (Holm across them, α = {report.alpha:g})",
                         [r for r in report.rows if r.headline]),
                        ("information (not gated; raw p)", [r for r in report.rows if not r.headline])):
        if not rows:
            continue
        if narrow:
            _narrow_table(title, rows, report, console)
            continue
        t = Table(title=title, show_lines=False)
        for col, just in (("metric", "left"), ("baseline", "right"), ("now", "right"), ("change", "right"),
                          ("95% interval", "right"), ("test", "left"),
                          ("p (Holm)" if rows[0].headline else "p", "right"), ("tolerance", "right"),
                          (f"detectable ({100 * report.power:.0f}%)", "right"), ("verdict", "left")):
            t.add_column(col, justify=just, overflow="fold")
        for r in rows:
            style = _STYLE.get(r.verdict, "")
            verdict = f"[{style}]{r.verdict}[/]" if style else r.verdict
            if r.note:
                verdict += f" [dim]({esc(r.note)})[/]"
            t.add_row(esc(r.label), *_cells(r), _interval(r), _test(r),
                      fmt_p(r.p_holm if r.headline else r.p_value, label=False),
                      fmt_tolerance(r.tolerance, r.meta, r.a), _detectable(r) if r.headline else "", verdict)
        console.print(t)
    if report.targets:
        tt = Table(title="targets", box=None if narrow else box_heavy_head(), pad_edge=not narrow)
        for col in ("target", "metric", "value", "interval", "verdict"):
            tt.add_column(col, overflow="fold")
        for x in report.targets:
            style = {"FAIL": "bold red", "no match": "bold red", "pass": "green"}[x.verdict]
            m = _target_meta(x)
            ci = ("–" if x.ci_low is None or x.ci_high is None
                  else f"{fmt_number(x.ci_low, m)} - {fmt_number(x.ci_high, m)}")
            tt.add_row(esc(x.target), esc(x.label), fmt_number(x.value, m), ci,
                       f"[{style}]{x.verdict}[/]" + (f" [dim]({esc(x.note)})[/]" if x.note else ""))
        console.print(tt)
    for note in report.notes:
        if not (note == IDENTICAL_MESSAGE and report.exit_code == 0):  # PASS line says it
            console.print(f"note: {note}", markup=False, highlight=False)
    if report.exit_code == 0:
        console.print("[bold green]PASS[/]" + (f": {IDENTICAL_MESSAGE}" if report.identical else "")
                      + esc(moved_text(report)), highlight=False)
    elif report.exit_code == 2:
        console.print("[bold red]error:[/] target(s) matching no metric: "
                      + esc(", ".join(t.target for t in report.bad_targets)))
    else:
        parts = []
        if report.regressions:
            parts.append("regressions: " + ", ".join(r.label for r in report.regressions))
        if report.missed_targets:
            parts.append("missed targets: " + ", ".join(f"{t.label} ({t.target})" for t in report.missed_targets))
        console.print("[bold red]FAIL[/]: " + esc("; ".join(parts)), highlight=False)


def compare_to_json(rep: CompareReport) -> dict:
    """JSON-ready dict (format ``sim-compare/1``)."""
    return {"format": COMPARE_FORMAT, "a": {"label": rep.a_label, **rep.a_meta},
            "b": {"label": rep.b_label, **rep.b_meta}, "alpha": rep.alpha, "common_random_numbers": rep.crn,
            "notes": rep.notes, "metrics": [_row_dict(r) for r in rep.rows]}


def render_compare(rep: CompareReport, console: Any, a_summary: dict | None = None, b_summary: dict | None = None,
                   changes: list | None = None, changes_note: str = "unknown", show_all: bool = False) -> None:
    """Print a comparison for people (:mod:`sim.check.compare_view`): the verdict, the
    changed config keys (``changes``, None = unknown), the metrics grouped by question with a
    one-line answer each, fitted to ``console.width``."""
    from sim.check.compare_view import build_view, render

    render(build_view(rep, a_summary, b_summary, changes, changes_note, show_all), console)
