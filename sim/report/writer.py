"""The report writer: ``reports/<run>/`` with report.md/.html, summary.json, games.parquet,
config.toml, manifest.json and plots/*.png, written atomically.

Everything is built in a temporary sibling folder (``.<name>.tmp-XXXXXXXX``) and moved into
place at the end (:func:`sim.outputs.atomic_folder`); an existing report is renamed aside,
replaced, then deleted; a folder that is not a report sim wrote is never replaced. Any
exception removes the temporary folder and leaves ``out_dir`` as it was.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Sequence
from urllib.parse import quote

from sim.jsonio import write_json
from sim.report.format import (
    find,
    fmt_by,
    fmt_count,
    fmt_interval,
    fmt_pct,
    fmt_value,
    is_percent,
    md_escape,
    md_table,
)

CSS = """
body { font-family: -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: #222;
       margin: 0; background: #fafafa; }
main { max-width: 980px; margin: 0 auto; padding: 1.5em 2em 3em; background: #fff; }
h1 { font-size: 1.6em; border-bottom: 2px solid #4C72B0; padding-bottom: .3em; }
h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ddd; padding-bottom: .2em; }
h3 { font-size: 1.05em; margin-top: 1.5em; }
table { border-collapse: collapse; margin: .8em 0; font-size: .92em; }
th, td { border: 1px solid #ddd; padding: .3em .7em; }
th { background: #f0f3f8; }
tr:nth-child(even) td { background: #fafbfc; }
td { font-variant-numeric: tabular-nums; }
th, td { overflow-wrap: anywhere; }  /* a wide table (compare's eleven columns) wraps its cells, not the page */
img { max-width: 100%; height: auto; border: 1px solid #eee; margin: .5em 0 1em; box-sizing: border-box; }
code { background: #f3f3f3; padding: 0 .25em; border-radius: 3px; }
p.note, em { color: #555; }
"""

CSS += """
#verdict + ul { background: #f4f7fb; border-left: 4px solid #4C72B0; padding: .6em 1em .6em 2em; }
#verdict + ul li { margin: .25em 0; }
blockquote { color: #444; border-left: 3px solid #ccc; margin: .8em 0; padding: .2em 1em; background: #fafafa; }
td.def, span.def { color: #555; font-size: .9em; }
"""

# metrics shown in the headline sections; everything else goes to "Other metrics"
LENGTH_ROWS = ("turns_mean", "turns_p05", "turns_p50", "turns_p95", "stall_rate", "reshuffles_mean",
               "starved_draw_rate")


def write_report(out_dir: Path, cfg, gdef, df, summary: dict, manifest: dict, tally=None) -> Path:
    """Write the full report of one run into ``out_dir`` atomically and return ``out_dir``.

    ``cfg`` is the :class:`sim.config.RunConfig` as run (``raw`` reflects CLI overrides),
    ``gdef`` the :class:`sim.games.base.GameDef`, ``df`` the games' rows: a polars frame
    (one row per game) or the :class:`sim.api.GameRows` a streamed run wrote (joined into
    games.parquet without loading them), ``summary`` the dict written as ``summary.json``
    (its ``metrics`` records feed the tables and plots), ``manifest`` the dict written as
    ``manifest.json`` (its ``rows`` entry says when games.parquet is a sample) and ``tally``
    the run's :class:`sim.tally.Tally`, which the histograms are drawn from (None: from the
    frame ``df``).

    Files: ``report.md``, ``report.html``, ``summary.json``, ``manifest.json``,
    ``games.parquet`` (zstd), ``config.toml`` and ``plots/*.png`` (generic plots plus the
    game's own from ``gdef.plots(tally, records, folder)``, given the frame without a tally). The JSON files are strict
    (:mod:`sim.jsonio`: NaN/inf floats are written as ``null``). On any exception nothing
    at ``out_dir`` changes and the exception propagates; an ``out_dir`` that cannot be
    written, or exists and is not a report sim wrote (:func:`sim.outputs.is_sim_report`), is
    :class:`sim.errors.OutputError`.
    """
    from sim.outputs import atomic_folder, is_sim_report

    with atomic_folder(out_dir, is_sim_report, "report") as tmp:
        _build(tmp, cfg, gdef, df, summary, manifest, tally)
    return Path(out_dir)


def _write_parquet(df, path: Path) -> None:
    """Write a frame or :class:`sim.api.GameRows` to ``path``; polars reports a failed write
    (a full disk) as its own error: raise it as OSError."""
    import polars as pl

    try:
        if isinstance(df, pl.DataFrame):
            df.write_parquet(path, compression="zstd")
        else:
            df.write(path)
    except pl.exceptions.PolarsError as e:
        raise OSError(f"{path.name}: {e}") from None


def _build(folder: Path, cfg, gdef, df, summary: dict, manifest: dict, tally=None) -> None:
    import polars as pl

    from sim.report import plots as P
    from sim.report.tomlw import config_text

    records = list(summary.get("metrics", []))
    plots_dir = folder / "plots"
    plots_dir.mkdir()

    write_json(summary, folder / "summary.json")
    write_json(manifest, folder / "manifest.json")
    _write_parquet(df, folder / "games.parquet")
    text, _how = config_text(getattr(cfg, "raw", None) or {}, getattr(cfg, "source", None))
    (folder / "config.toml").write_text(text, encoding="utf-8")

    mode = getattr(gdef, "mode", summary.get("mode", "competitive"))
    n_seats = _n_seats(cfg, summary)
    labels = _seat_labels(cfg, summary)
    rotate = bool(getattr(cfg, "rotate_seats", summary.get("rotate_seats", False)))

    info, _cat = _info(gdef)
    unit, axis = info["length_unit"], info["seat_axis"]
    traits = seat_traits(summary)
    period = n_seats if unit == "player turns" and n_seats > 1 else 1  # a round of player turns
    seat_thr = float(getattr(getattr(cfg, "report", None), "seat_spread_threshold", 0.03))
    frame = df if isinstance(df, pl.DataFrame) else None
    data = tally if tally is not None else frame  # what the histograms are drawn from
    figures: list[tuple[str, str]] = []
    if mode == "competitive":
        candidates = [
            lambda: P.plot_win_rate_by_seat(frame, records, labels, n_seats, plots_dir, rotate, axis, traits),
            lambda: P.plot_win_rate_by_policy(records, n_seats, plots_dir),
            lambda: P.plot_rank_distribution(frame, records, n_seats, plots_dir, axis, traits, seat_thr),
            lambda: P.plot_game_length(data, records, plots_dir, unit, period),
            lambda: P.plot_reshuffles(data, plots_dir, mode),
        ]
    else:
        candidates = [
            lambda: P.plot_team_outcome(frame, records, plots_dir),
            lambda: P.plot_game_length(data, records, plots_dir, unit, period),
            lambda: P.plot_reshuffles(data, plots_dir, mode),
        ]
    for make in candidates:
        fig = make()
        if fig is not None:
            figures.append(fig)
    figures += P.plot_tension(data, records, plots_dir, mode, n_seats, info.get("progress_unit", "progress points"))
    game_figures: list[tuple[str, str]] = []
    if getattr(gdef, "plots", None) is not None:
        for title, fname in gdef.plots(data, records, plots_dir) or []:
            if not (plots_dir / fname).is_file():
                raise FileNotFoundError(f"{gdef.name}.plots returned {fname!r} but wrote no such file in plots/")
            game_figures.append((str(title), str(fname)))

    md = render_markdown(cfg, gdef, summary, manifest, figures, game_figures)
    (folder / "report.md").write_text(md, encoding="utf-8")
    title = f"{summary.get('title') or getattr(gdef, 'title', '')}: {summary.get('run', '')}"
    (folder / "report.html").write_text(render_html(md, title, plots_dir), encoding="utf-8")


def _n_seats(cfg, summary: dict) -> int:
    n = getattr(cfg, "n_seats", None)
    if isinstance(n, int):
        return n
    return len(summary.get("seats") or [])


def _seat_labels(cfg, summary: dict) -> list[str]:
    seats = summary.get("seats")
    if seats:
        return [str(s) for s in seats]
    return [s.name for s in getattr(cfg, "seats", [])]


def seat_traits(summary: dict) -> list[str]:
    """What tells each seat apart beyond its policy (``summary["seat_traits"]``, from
    ``GameDef.seat_traits``: Yukon's ``"plane: bonus fuel"``), or [] when the seats start alike."""
    return [str(t) for t in summary.get("seat_traits") or []]


def seat_name(s: int, labels: list[str], rotate: bool, traits: list[str]) -> str:
    """``seat 0``, with its policy when seats are fixed and its trait when seats differ:
    ``seat 0 (greedy; plane: bonus fuel)`` (markdown-escaped)."""
    parts = [] if rotate or s >= len(labels) else [labels[s]]
    if s < len(traits):
        parts.append(traits[s])
    return f"seat {s}" + (f" ({md_escape('; '.join(parts))})" if parts else "")


# ---------------------------------------------------------------------------- markdown


def _info(gdef) -> tuple[dict, dict]:
    """(report_info, catalogue) of ``gdef`` (:mod:`sim.metrics`); a game without a metrics
    module (a test double) gets the common ones."""
    from sim.metrics import catalogue, common_catalogue, report_info

    info = report_info(gdef)
    try:
        cat = catalogue(gdef)
    except (ImportError, AttributeError, TypeError, ValueError):
        cat = common_catalogue(getattr(gdef, "mode", "competitive"), info["length_unit"])
    return info, cat


def _definition(cat: dict, name: str) -> str:
    m = cat.get(name)
    if m is None:
        return ""
    return f"{m.definition} ({m.unit})" if m.unit and m.unit not in m.definition else m.definition


def _decode_by(by: dict | None, cat: dict, name: str, labels: list[str] | None) -> str:
    """``fmt_by`` with every code decoded: ``weather SC (clear sky: no restriction)``."""
    text = fmt_by(by, labels)
    m = cat.get(name)
    if m is None or not m.codes or not by:
        return text
    parts = []
    for k, v in by.items():
        code = m.codes.get(str(v))
        parts.append(f"{k} {v}" + (f" ({code})" if code else ""))
    return ", ".join(parts)


def _pp(x: float) -> str:
    return f"{x * 100:.1f}"


def _spread_text(d: dict) -> str:
    return f"{d['value'] * 100:.1f} points [{_pp(d['ci_low'])}, {_pp(d['ci_high'])}]"


def verdict_lines(cfg, gdef, summary: dict, info: dict, cat: dict) -> list[str]:
    """The verdict at the top of the report: bullets a designer reads in ten seconds (seat
    spread against ``[report] seat_spread_threshold``, the gap between policies against
    ``policy_gap_threshold``, the team result and main failure modes of a cooperative game,
    median length in the game's unit, stall rate), each with its 95 % interval."""
    from sim.metrics import spread

    records = list(summary.get("metrics", []))
    mode = getattr(gdef, "mode", summary.get("mode", "competitive"))
    rep = getattr(cfg, "report", None)
    seat_thr = float(getattr(rep, "seat_spread_threshold", 0.03))
    pol_thr = float(getattr(rep, "policy_gap_threshold", 0.05))
    labels = _seat_labels(cfg, summary)
    rotate = bool(getattr(cfg, "rotate_seats", summary.get("rotate_seats", False)))
    unit = info["length_unit"]
    out: list[str] = []

    traits = seat_traits(summary)

    def name(s: int) -> str:
        return seat_name(s, labels, rotate, traits)

    if mode == "competitive":
        seats = _win_rates(records, "seat")
        if len(seats) >= 2:
            hi, lo = _extremes(seats)
            d = spread(hi, lo)
            word = _against(d, seat_thr)
            setup = ("; the seats start differently (their " + md_escape(traits[0].split(":")[0]) + "s), so this is "
                     "the spread of their set-ups" if traits and ":" in traits[0] else "")
            out.append(f"- **Seat balance:** seat spread {_spread_text(d)} between {name(hi['by']['seat'])} "
                       f"{fmt_interval(hi)} and {name(lo['by']['seat'])} {fmt_interval(lo)}: {word}{setup}.")
        starts = _win_rates(records, "start_pos")
        if len(starts) >= 2:  # a game whose first player is drawn: the seat spread hides the turn order's
            first = next((r for r in starts if r["by"]["start_pos"] == 0), None)
            last = max(starts, key=lambda r: r["by"]["start_pos"])
            hi, lo = _extremes(starts)
            d = spread(hi, lo)
            if first is not None:
                out.append(f"- **Turn order:** the start player (drawn each game) wins {fmt_interval(first)}, the last "
                           f"in the turn order {fmt_interval(last)}; start positions {hi['by']['start_pos']} and "
                           f"{lo['by']['start_pos']} differ by {_spread_text(d)}: {_against(d, seat_thr)}.")
        pols = _win_rates(records, "policy")
        if len(pols) >= 2:
            hi, lo = _extremes(pols)
            d = spread(hi, lo)
            word = "above" if d["value"] > pol_thr else "below"
            out.append(f"- **Skill:** {md_escape(hi['by']['policy'])} wins {fmt_interval(hi)} of the games it "
                       f"plays, {md_escape(lo['by']['policy'])} {fmt_interval(lo)}: a gap of {_spread_text(d)}, "
                       f"{word} the threshold of {pol_thr * 100:g} points (`[report] policy_gap_threshold`).")
        elif len(pols) == 1:
            out.append(f"- **Skill:** every seat plays {md_escape(pols[0]['by']['policy'])}; no gap between "
                       "policies to measure.")
    else:
        won, lost = find(records, "win_rate"), find(records, "loss_rate")
        if won is not None:
            text = f"- **Team result:** the team wins {fmt_interval(won)} of the games"
            if lost is not None:
                text += f" and loses {fmt_interval(lost)}"
            out.append(text + ".")
        for name in info["failure_metrics"]:
            recs = [r for r in records if r.get("metric") == name and _finite(r.get("value")) is not None]
            if not recs:
                continue
            top = sorted(recs, key=lambda r: -r["value"])[:2]
            m = cat[name].definition if name in cat else name
            parts = [f"{md_escape(_decode_by(r.get('by'), cat, name, None))}: "
                     f"{fmt_interval(r)}" for r in top]
            out.append(f"- **Failure mode, {md_escape(m)}:** " + "; ".join(parts) + ".")
    out += tension_lines(records, mode, info.get("progress_unit", "progress points"))
    notes = getattr(gdef, "verdict_notes", None)
    if notes is not None:  # the game's own bullets (Now Boarding's near misses at the complaint limit)
        out += [f"- {x}" for x in notes(cfg, records)]
    p50, p05, p95 = find(records, "turns_p50"), find(records, "turns_p05"), find(records, "turns_p95")
    tmean = find(records, "turns_mean")
    if p50 is not None:
        text = f"- **Length:** median {fmt_value(p50)} {unit}"
        if p05 is not None and p95 is not None:
            text += f" (90 % of games between {fmt_value(p05)} and {fmt_value(p95)})"
        if tmean is not None:
            text += f"; mean {fmt_interval(tmean)}"
        rm = info.get("rounds_metric")
        r = find(records, rm) if rm else None
        if r is not None:
            text += f"; {fmt_interval(r)} rounds on average"
        out.append(text + ".")
    st = find(records, "stall_rate")
    if st is not None:
        cap = getattr(cfg, "turn_cap", None)
        out.append(f"- **Stalls:** {fmt_interval(st)} of games reached the turn cap"
                   + (f" ({fmt_count(cap)} {unit})" if cap is not None else "") + " with no winner.")
    out.append(f"- {fmt_count(summary.get('games'))} games, seed `{summary.get('seed')}`; intervals are 95 % "
               "(Wilson for rates, normal for means and differences).")
    return out


def _against(d: dict, thr: float) -> str:
    """A spread ``d`` (value and 95 % interval) against the practical threshold ``thr``."""
    text = f"{thr * 100:g} points (`[report] seat_spread_threshold`)"
    if d["ci_low"] > thr:
        return f"**above** the practical threshold of {text}, beyond sampling noise"
    if d["value"] > thr:
        return f"**above** the practical threshold of {text}, but within sampling noise of it"
    if d["ci_high"] > thr:
        return f"below the practical threshold of {text}; more games would settle it"
    return f"below the practical threshold of {text}, beyond sampling noise"


def tension_lines(records: list[dict], mode: str, unit: str) -> list[str]:
    """The verdict's "Tension" bullet (docs/tension.md): how close the race was, in a
    designer's words, each number with its 95 % interval; empty without tension records."""
    def f(name: str) -> dict | None:
        r = find(records, name)
        return r if r is not None and _finite(r.get("value")) is not None else None

    if mode == "competitive":
        lc, dp, cb, ra, mg = (f(n) for n in ("lead_changes", "decisive_point", "comeback_rate", "runaway_rate",
                                              "margin"))
        if lc is None:
            return []
        parts = [f"the lead changed hands {fmt_interval(lc)} times a game"]
        if dp is not None:
            parts.append(f"the winner took the lead for good after {fmt_interval(dp)} of the game")
        if cb is not None:
            parts.append(f"it was behind at the midpoint in {fmt_interval(cb)} of the games (a comeback)")
        if ra is not None:
            parts.append(f"the midpoint's sole leader went on to win {fmt_interval(ra)} of the time")
        if mg is not None:
            amount = f"${fmt_interval(mg)}" if unit == "$" else f"{fmt_interval(mg)} {md_escape(unit)}"
            parts.append(f"the final margin was {amount}")
        return ["- **Tension:** " + "; ".join(parts) + " (games with a winner)."]
    one, cc, short, lost = (f(n) for n in ("one_short_rate", "closest_call", "rounds_one_short", "loss_rate"))
    if one is None:
        return []
    parts = [f"{fmt_interval(one)} of the games were lost at the final count by a single complaint (one fewer "
             "and the team had won)" + (f": {one['value'] / lost['value']:.0%} of the lost games"
                                        if lost is not None and lost["value"] > 0 else "")]
    if cc is not None:
        text = f"won games reached at most {fmt_interval(cc)} complaints on average"
        if short is not None:
            text += f" and spent {fmt_interval(short)} rounds one complaint from losing"
        parts.append(text)
    return ["- **How close:** " + "; ".join(parts) + " (the round lost games were lost in: the Tension table and "
            "plot)."]


def render_markdown(cfg, gdef, summary: dict, manifest: dict, figures: list[tuple[str, str]],
                    game_figures: list[tuple[str, str]] | None = None) -> str:
    """The text of ``report.md``: the verdict, the game's calibration note, the plots, the
    tables (every metric with its catalogue definition, codes decoded), then the run facts
    and the manifest."""
    records = list(summary.get("metrics", []))
    used: set[int] = set()
    info, cat = _info(gdef)

    def take(metric: str, **by: Any) -> dict | None:
        for i, r in enumerate(records):
            if r.get("metric") == metric and (r.get("by") or {}) == by:
                used.add(i)
                return r
        return None

    mode = getattr(gdef, "mode", summary.get("mode", "competitive"))
    title = summary.get("title") or getattr(gdef, "title", "") or summary.get("game", "")
    run = summary.get("run") or getattr(cfg, "run_name", "")
    n_seats = _n_seats(cfg, summary)
    labels = _seat_labels(cfg, summary)
    rotate = bool(getattr(cfg, "rotate_seats", summary.get("rotate_seats", False)))
    unit = info["length_unit"]
    out: list[str] = [f"# {md_escape(title)}: balance report `{md_escape(run)}`", ""]

    if records:
        out += ["## Verdict", "", *verdict_lines(cfg, gdef, summary, info, cat), ""]
    if info["calibration"]:
        out += [f"> **Calibration note ({md_escape(title)}).** {md_escape(info['calibration'])}", ""]

    if figures or game_figures:
        out += ["## Plots", ""]
        for t, f in list(figures) + list(game_figures or []):
            out += [f"### {md_escape(t)}", "", f"![{md_escape(t)}](plots/{quote(f)})", ""]

    out += [f"*{md_escape(info['seat_note'])} Intervals are 95%: Wilson score intervals for rates, normal "
            "intervals for means.*", ""]
    if mode == "competitive":
        out += _competitive_sections(take, records, n_seats, labels, rotate, cat, summary.get("games"),
                                     seat_traits(summary))
    else:
        out += _cooperative_sections(take, cat)

    from sim.metrics import TENSION_METRICS

    rows = []
    for metric in TENSION_METRICS.get(mode, ()):
        r = take(metric)
        if r is not None:
            rows.append([f"`{metric}`", md_escape(_definition(cat, metric)), fmt_interval(r), _fmt_sd(r.get("sd"), r),
                         fmt_count(r.get("n"))])
    if rows:
        out += [f"## Tension (progress in {md_escape(info.get('progress_unit', 'progress points'))}; "
                "docs/tension.md)", "",
                md_table(["Metric", "Definition", "Value [95% CI]", "SD", "Games"], rows, align="llrrr"), ""]

    # game length and friends
    rows = []
    for metric in LENGTH_ROWS:
        r = take(metric)
        if r is not None:
            rows.append([f"`{metric}`", md_escape(_definition(cat, metric)), fmt_interval(r), _fmt_sd(r.get("sd"), r),
                         fmt_count(r.get("n"))])
    if rows:
        resh = " and reshuffles" if take("reshuffles_mean") is not None else ""
        out += [f"## Game length ({md_escape(unit)}), stalls{resh}", "",
                md_table(["Metric", "Definition", "Value [95% CI]", "SD", "Games"], rows, align="llrrr"), ""]

    # everything not shown yet, grouped by metric name in order of first appearance
    other = [(i, r) for i, r in enumerate(records) if i not in used]
    if other:
        order: dict[str, list[dict]] = {}
        for _, r in other:
            order.setdefault(str(r.get("metric")), []).append(r)
        rows = []
        for name, recs in order.items():
            for j, r in enumerate(recs):
                rows.append([
                    f"`{md_escape(name)}`" if j == 0 else "",
                    md_escape(_definition(cat, name)) if j == 0 else "",
                    md_escape(_decode_by(r.get("by"), cat, name, None if rotate else labels)),
                    fmt_interval(r),
                    md_escape(r.get("kind", "")),
                    fmt_count(r.get("n")),
                ])
        out += ["## Other metrics", "", md_table(["Metric", "Definition", "By", "Value [95% CI]", "Kind", "n"], rows,
                                                 align="lllrlr"), ""]

    # run facts
    facts = [
        ("Game", f"{md_escape(title)} (`{md_escape(summary.get('game', getattr(gdef, 'name', '')))}`)"),
        ("Mode", md_escape(mode)),
        ("Games played", fmt_count(summary.get("games"))),
        ("Seed", f"`{summary.get('seed')}`"),
        ("Config hash", f"`{summary.get('config_hash')}`"),
        ("Seat entries (rotated over the seats)" if rotate else "Seats",
         ", ".join(f"{i}: {md_escape(s)}" for i, s in enumerate(labels))),
        ("Seat rotation", rotation_note(labels, summary.get("games")) if rotate else "off (fixed seats)"),
    ]
    tcap = getattr(cfg, "turn_cap", None)
    if tcap is not None:
        facts.append(("Turn cap", f"{fmt_count(tcap)} {md_escape(unit)}"))
    wall = next((manifest[k] for k in ("wall_s", "wall_time_s") if manifest.get(k) is not None), None)
    if wall is not None:
        facts.append(("Play time", f"{float(wall):.1f} s"))
    if manifest.get("compile_s") is not None:
        facts.append(("Kernel compile / cache load", f"{float(manifest['compile_s']):.1f} s (not in the speed)"))
    if manifest.get("games_per_s") is not None:
        speed = f"{float(manifest['games_per_s']):,.0f} games/s"
        if manifest.get("threads"):
            speed += f" on {manifest['threads']} threads"
        facts.append(("Speed", speed))
    if manifest.get("git_revision"):
        facts.append(("Git revision", f"`{md_escape(manifest['git_revision'])}`"))
    for pf in manifest.get("policy_files") or []:  # user policies (docs/policies.md): code the config named
        facts.append(("User policy", f"`{md_escape(str(pf.get('name')))}`, sha256 `{md_escape(str(pf.get('sha256')))}`"))
    out += ["## Run", "", md_table(["Run", ""], facts, align="ll"), ""]

    mrows = _manifest_rows(manifest)
    if mrows:
        out += ["## Reproducibility", "",
                "Re-run with `config.toml` (the config as run) to reproduce every figure; "
                "`manifest.json` holds the full record.", "",
                md_table(["Manifest", ""], mrows, align="ll"), ""]
    rows = manifest.get("rows") if isinstance(manifest.get("rows"), dict) else {}
    if rows.get("sampled"):
        what = (f"a sample of {fmt_count(rows.get('rows'))} of the {fmt_count(rows.get('games'))} games: the games "
                f"whose index is a multiple of {fmt_count(rows.get('every'))}, every stalled game and the "
                f"{fmt_count(rows.get('longest'))} longest (`[report] rows` / `--rows`); every metric above counts every game")
    else:
        what = "one row per game"
    out += ["Files: `summary.json` (every metric with its interval, and the metric catalogue), `games.parquet` "
            f"({what}), `config.toml`, `manifest.json`, `plots/`.", ""]
    return "\n".join(out)


def _fmt_sd(sd: Any, rec: dict | None = None) -> str:
    """A record's sd in the unit its value is shown in (points of a percentage for a share)."""
    try:
        f = float(sd)
    except (TypeError, ValueError):
        return ""
    if not math.isfinite(f):
        return ""
    if rec is not None and is_percent(rec):
        return f"{f * 100:.1f} pp"
    return f"{f:.2f}"


def rotation_note(labels: list[str], games: Any) -> str:
    """How evenly a rotated run played its seatings: "every seating permutation played equally
    often" when ``games`` is a multiple of the S! permutations of the S seat entries (or every
    entry is the same policy, so every seating is the same), else how often each was played
    (the counts differ by one game), how many once more, and the nearest game counts that
    balance exactly (``compile.seat_tables`` plays permutation ``game_index % S!``)."""
    n = len(labels)
    k = math.factorial(n) if n else 1
    try:
        g = int(games)
    except (TypeError, ValueError):
        return "every seating permutation played in turn"
    if g % k == 0 or len(set(labels)) <= 1:
        return "every seating permutation played equally often"
    q, r = divmod(g, k)
    lo, hi = q * k, (q + 1) * k
    near = fmt_count(hi) if lo == 0 else f"{fmt_count(lo)} or {fmt_count(hi)}"
    return (f"each of the {k:,} seating permutations of {n} seat entries played {fmt_count(q)} or "
            f"{fmt_count(q + 1)} times ({r:,} of them once more: {fmt_count(g)} games is not a multiple of "
            f"{k:,}; {near} games balance exactly)")


def _competitive_sections(take, records, n_seats: int, labels: list[str], rotate: bool, cat: dict | None = None,
                          games: Any = None, traits: Sequence[str] = ()) -> list[str]:
    cat = cat or {}
    traits = list(traits)

    def define(name: str) -> list[str]:
        d = _definition(cat, name)
        return [f"*`{name}`: {md_escape(d)}.*", ""] if d else []

    out: list[str] = []
    fair = 1.0 / n_seats if n_seats else float("nan")

    # win rate by seat
    rows = []
    for i in range(n_seats):
        r = take("win_rate", seat=i)
        if r is None:
            continue
        row = [str(i)] if rotate else [str(i), md_escape(labels[i] if i < len(labels) else "")]
        if traits:
            row.append(md_escape(traits[i] if i < len(traits) else ""))
        rows.append(row + [fmt_interval(r), fmt_count(r.get("n"))])
    if rows:
        head = ["Seat"] + ([] if rotate else ["Policy"]) + (["Starts with"] if traits else []) + [
            "Win rate [95% CI]", "Games"]
        out += ["## Win rate by seat", "",
                md_table(head, rows, align="l" * (len(head) - 2) + "rr"), "",
                *([f"*Policies rotate over the seats: {rotation_note(labels, games)}.*", ""]
                  if rotate else []),
                f"*Fair share with {n_seats} seats: {fmt_pct(fair)}. Games without a winner "
                "(stalls) count as losses for every seat.*", "", *define("win_rate")]

    # win rate by policy
    prec = []
    for r in records:
        by = r.get("by") or {}
        if r.get("metric") == "win_rate" and set(by) == {"policy"}:
            prec.append(r)
            take("win_rate", **by)
    if prec:
        rows = [[md_escape(r["by"]["policy"]), fmt_interval(r), fmt_count(r.get("n"))] for r in prec]
        out += ["## Win rate by policy", "",
                md_table(["Policy", "Win rate [95% CI]", "n"], rows), "",
                "*n = games times the seats the policy sat in (a policy in two seats counts each game twice).*", ""]

    # rank distribution
    ranks = list(range(1, n_seats + 1))
    grid = {}
    for i in range(n_seats):
        for rk in [0] + ranks:
            r = take("rank_share", seat=i, rank=rk)
            if r is not None:
                grid[(i, rk)] = r
    if grid:
        show_unranked = any(k[1] == 0 and (grid[k].get("value") or 0) > 0 for k in grid)
        cols = ranks + ([0] if show_unranked else [])
        head = ["Seat"] + [_ordinal(rk) for rk in ranks] + (["unranked"] if show_unranked else [])
        rows = []
        for i in range(n_seats):
            row = [seat_name(i, labels, rotate, traits).removeprefix("seat ")]
            for rk in cols:
                r = grid.get((i, rk))
                row.append(fmt_interval(r) if r is not None else "–")
            rows.append(row)
        out += ["## Rank distribution", "", md_table(head, rows), "",
                "*Share of games each seat finished at each rank (1st = first to finish)"
                + ("; unranked = the game ended before the seat finished (a game that stops at its first "
                   "finisher, or the turn cap); – = never" if show_unranked else "")
                + ".*", "", *define("rank_share")]

    # first-player advantage (whatever shape the metrics give it) and the seat-equality test
    fpa = [r for r in records if r.get("metric") == "first_player_advantage"]
    eq = take("seat_equality_p")
    if fpa or eq is not None:
        out += ["## First-player advantage", ""]
    if fpa:
        rows = []
        for r in fpa:
            take("first_player_advantage", **(r.get("by") or {}))
            rows.append([md_escape(fmt_by(r.get("by"))), fmt_interval(r), fmt_count(r.get("n"))])
        out += [md_table(["", "Advantage [95% CI]", "Games"], rows, align="lrr"), ""]
        note = fpa[0].get("doc") or fpa[0].get("description")
        if not note and fpa[0].get("kind") == "difference" and fpa[0].get("reference") is not None:
            note = f"Seat 0's win rate minus the fair share {fmt_pct(fpa[0]['reference'])}, in percentage points."
        if note:
            out += [f"*{md_escape(note)}*", ""]
        from sim.check.gate import first_player_caveat

        caveat = first_player_caveat({"metrics": fpa, "seats": labels, "rotate_seats": rotate})
        if caveat:  # fixed seats of different policies: not a seat effect alone
            out += [f"**Caveat:** {md_escape(caveat[0].upper() + caveat[1:])}.", ""]
    if fpa:
        out += define("first_player_advantage")
    if eq is not None:
        p = _finite(eq.get("value"))
        verdict = "" if p is None else (" (the seats differ beyond sampling noise)" if p < 0.05
                                        else " (no evidence that the seats differ)")
        out += [f"Test of equal win rates for all seats (chi-square over {fmt_count(eq.get('n'))} decided "
                f"games): {fmt_interval(eq)}{verdict}.", ""]
    return out



def _win_rates(records: list[dict], key: str) -> list[dict]:
    """The ``win_rate`` records by ``key`` alone ("seat" / "policy") with a finite value."""
    return [r for r in records if r.get("metric") == "win_rate" and set(r.get("by") or {}) == {key}
            and _finite(r.get("value")) is not None]


def _extremes(rs: list[dict]) -> tuple[dict, dict]:
    """The records of ``rs`` with the highest and the lowest value."""
    return max(rs, key=lambda r: r["value"]), min(rs, key=lambda r: r["value"])


def _finite(x: Any) -> float | None:
    try:
        f = float(x)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def _cooperative_sections(take, cat: dict | None = None) -> list[str]:
    cat = cat or {}
    rows = []
    for metric, label in (("win_rate", "Team wins"), ("loss_rate", "Team loses")):
        r = take(metric)
        if r is not None:
            rows.append([label, fmt_interval(r), fmt_count(r.get("n")), md_escape(_definition(cat, metric))])
    if not rows:
        return []
    return ["## Team result", "", md_table(["Outcome", "Rate [95% CI]", "Games", "Definition"], rows,
                                           align="lrrl"), ""]


def _ordinal(n: int) -> str:
    suffix = "th" if 11 <= n % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _manifest_rows(manifest: dict) -> list[list[str]]:
    """Scalar manifest entries, nested dicts flattened one level (``versions.numba``)."""
    rows = []
    for k, v in manifest.items():
        if isinstance(v, dict):
            for k2, v2 in v.items():
                if not isinstance(v2, (dict, list)):
                    rows.append([f"{md_escape(k)}.{md_escape(k2)}", f"`{md_escape(v2)}`"])
        elif isinstance(v, list):
            if all(not isinstance(x, (dict, list)) for x in v) and len(v) <= 12:
                rows.append([md_escape(k), md_escape(", ".join(str(x) for x in v))])
        else:
            rows.append([md_escape(k), f"`{md_escape(v)}`"])
    return rows


# ---------------------------------------------------------------------------- HTML


def render_html(md_text: str, title: str, plots_dir: Path | None = None) -> str:
    """A self-contained HTML page (inline CSS) of the markdown report. With ``plots_dir``
    every ``plots/<file>.png`` image is embedded as a ``data:image/png;base64`` URI (the page
    can be mailed as one file); without it images stay relative. The verdict heading gets
    ``id="verdict"`` (a page without one: its opening bold paragraph, the skill and sensitivity
    pages' verdict)."""
    import base64
    import html as _html
    import re
    from urllib.parse import unquote

    import markdown

    body = markdown.markdown(md_text, extensions=["tables"], output_format="html")
    if "<h2>Verdict</h2>" in body:
        body = body.replace("<h2>Verdict</h2>", '<h2 id="verdict">Verdict</h2>', 1)
    else:  # a page that opens with its verdict in bold (skill, sensitivity): that paragraph is the verdict
        body = re.sub(r"</h1>\s*<p><strong>", lambda m: m.group(0).replace("<p>", '<p id="verdict">'), body, count=1)
    if plots_dir is not None:
        def embed(m: re.Match) -> str:
            f = Path(plots_dir) / unquote(m.group(1))
            if not f.is_file():
                return m.group(0)
            data = base64.b64encode(f.read_bytes()).decode("ascii")
            return f'src="data:image/png;base64,{data}"'

        body = re.sub(r'src="plots/([^"]+\.png)"', embed, body)
    return (
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>{_html.escape(title)}</title>\n<style>{CSS}</style>\n</head>\n"
        f"<body>\n<main>\n{body}\n</main>\n</body>\n</html>\n"
    )
