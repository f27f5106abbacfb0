"""What ``sim tune`` writes (:mod:`sim.tune`): ``tuned.toml``, ``tune.md`` / ``tune.html``
(verdict first), ``tune.json``, ``plots/*.png``, and a copy of the study ``tune.db``, all into a
temporary folder swapped in at the end (:func:`sim.outputs.atomic_folder`)."""

from __future__ import annotations

import json
import math
import os
import time
from pathlib import Path
from typing import Any, Sequence

from sim.tune import TUNE_FORMAT, Finalist, Row, TunePlan, closest, miss_words, recommendation


def is_tune_folder(folder: Path) -> bool:
    """True when ``folder`` is one ``sim tune`` wrote (its study or its tune.json)."""
    if (folder / "tune.db").is_file():
        return True
    try:
        data = json.loads((folder / "tune.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and str(data.get("format", "")).startswith("sim-tune/")


def default_folder(plan: TunePlan) -> Path:
    return Path("reports") / f"{plan.name}-tune"


# ------------------------------------------------------------------ numbers as a designer reads them


def row_text(r: Row) -> str:
    """``25.1% [24.7, 25.5]``."""
    from sim.report.format import fmt_interval

    if r.value is None:
        return "no record"
    return fmt_interval(r.record)


def band_text(r: Row) -> str:
    """``22.0% to 28.0%``, ``≤ 0.1%``: the band in the record's unit (:func:`sim.report.format.fmt_value`)."""
    from sim.report.format import fmt_value

    def b(x: float) -> str:
        return fmt_value({**r.record, "value": x})

    if r.min is None:
        return f"≤ {b(r.max)}"
    if r.max is None:
        return f"≥ {b(r.min)}"
    return f"{b(r.min)} to {b(r.max)}"


def change_lines(plan: TunePlan, f: Finalist) -> list[tuple[str, str, str]]:
    """``(key, from, to)`` of every key the finalist changes (TOML text)."""
    from sim.sweep import toml_value

    out = []
    for d in plan.dims:
        v = f.values[d.key]
        if not d.changed(v):
            continue
        if d.kind == "table":  # a deck: each changed entry
            out += [(f"{d.key}.{k}", toml_value(d.current[k]), toml_value(v[k])) for k in d.current
                    if v.get(k) != d.current[k]]
        else:
            out.append((d.key, toml_value(d.current), toml_value(v)))
    return out


# ------------------------------------------------------------------ tuned.toml


def tuned_toml(plan: TunePlan, f: Finalist, dest: Path) -> str:
    """The config file's text with the finalist's values (comments kept, each changed value
    commented with its old value; tomlkit), the ``#:schema`` line pointing from ``dest``'s
    folder, and a header naming the search. Falls back to the serialised config (with the same
    header) when the file cannot be edited in place (a key it spells another way)."""


    src = Path(plan.base.source)
    text = src.read_text(encoding="utf-8")
    changes = change_lines(plan, f)
    stamp = time.strftime("%Y-%m-%d", time.gmtime())
    head = (f"# Tuned by `sim tune {src.name}` on {stamp}: trial {f.number}, proved on "
            f"{plan.confirm_games:,} games of seed {plan.confirm_seed} (tune.html beside this file).\n"
            + "".join(f"#   {k}: {a} -> {b}\n" for k, a, b in changes) + "\n")
    values = dict(f.values)
    run = _apply(dict(plan.base.raw), plan.overrides(values))  # the config as the proof played it
    try:
        body = _edited(plan, text, values)
        import tomllib

        if _apply(tomllib.loads(body), []) != run:
            raise ValueError("the edited file does not read back as the config played")
    except Exception:  # noqa: BLE001 - a key tomlkit cannot place: write the config as run
        from sim.report.tomlw import dumps

        body = dumps(run)
    lines = body.splitlines(keepends=True)
    if lines and lines[0].startswith("#:schema "):
        target = lines[0][len("#:schema "):].strip()
        absolute = (src.parent / target).resolve()
        rel = os.path.relpath(absolute, dest.resolve().parent)
        return f"#:schema {rel}\n" + head + "".join(lines[1:])
    return head + body


def _edited(plan: TunePlan, text: str, values: dict[str, Any]) -> str:
    """``text`` (the config file) with the changed values written in place by tomlkit: a table's
    changed entries one by one, each changed line commented with its old value (on the line of
    the nearest key that sits in a table: ``seats = [...]`` for ``seats[3].policy``, never inside
    an inline table, where a comment is not TOML)."""
    import tomlkit
    from tomlkit.items import AoT, Array, InlineTable

    from sim.sweep import toml_value

    changed = {d.key for d in plan.dims if d.changed(values[d.key])}
    leaders = {g.partner for g in plan.groups if g.leader in changed}
    doc = tomlkit.parse(text)
    ovs = []
    for ov in plan.overrides(values)[len(plan.base_sets):]:
        if ov.key not in changed and ov.key not in leaders:
            continue
        if isinstance(ov.value, dict):  # a table (a deck): each changed entry on its own line
            cur = _lookup_raw(plan, ov.path)
            ovs += [type(ov)(f"{ov.key}.{k}", ov.path + (k,), v, ov.flag, "") for k, v in ov.value.items()
                    if not isinstance(cur, dict) or cur.get(k) != v]
        else:
            ovs.append(ov)
    for ov in ovs:
        path = ov.path
        chain: list[Any] = [doc]
        for p in path[:-1]:
            chain.append(chain[-1][p])
        chain[-1][path[-1]] = ov.value
        # the line to comment: the deepest key whose container is a table (not an inline table
        # or an array), so the comment stays TOML
        at = max(i for i, p in enumerate(path) if isinstance(p, str)
                 and not isinstance(chain[i], InlineTable | Array | AoT))
        item = chain[at][path[at]]
        rest = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path[at + 1:])
        old = toml_value(_lookup_raw(plan, path))
        prev = (item.trivia.comment or "").lstrip("#").strip() if hasattr(item, "trivia") else ""
        if hasattr(item, "comment"):
            note = f"sim tune: {rest.lstrip('.')} was {old}" if rest else f"sim tune: was {old}"
            if prev.startswith("sim tune: "):  # a second change on the same line
                note = prev + "; " + note.removeprefix("sim tune: ")
            elif prev:
                note += f"; {prev}"
            item.comment(note)
    return tomlkit.dumps(doc)


def _lookup_raw(plan: TunePlan, path: tuple) -> Any:
    from sim.design import lookup

    try:
        return lookup(plan.dump, path)
    except KeyError:
        return "(unset)"


def _apply(raw: dict, ovs: Sequence[Any]) -> dict:
    import copy

    from sim.overrides import apply_sets

    return apply_sets(copy.deepcopy(raw), list(ovs), "[tune]")


# ------------------------------------------------------------------ plots


def _history_plot(plan: TunePlan, trials: Sequence[Any], folder: Path) -> str | None:
    import optuna

    from sim.report.plots import DPI, GRID, _plt

    pts = [(t.number, t.user_attrs["miss_by_rung"], t.state) for t in trials if t.user_attrs.get("miss_by_rung")]
    if not pts:
        return None
    plt = _plt()
    rate = plan.rate_units
    k = 100 if rate else 1
    fig, ax = plt.subplots(figsize=(7.0, 3.8))
    done = [(n, m[-1] * k) for n, m, s in pts if s == optuna.trial.TrialState.COMPLETE]
    dropped = [(n, m[-1] * k, len(m) - 1) for n, m, s in pts if s == optuna.trial.TrialState.PRUNED]
    if done:
        ax.scatter([n for n, _ in done], [v for _, v in done], s=22, color="#4C72B0",
                   label=f"played every rung ({plan.rungs[-1]:,} games)")
        best, xs, ys = math.inf, [], []
        for n, v in sorted(done):
            best = min(best, v)
            xs.append(n)
            ys.append(best)
        ax.step(xs, ys, where="post", color="#4C72B0", linewidth=1.2, label="best so far")
    if dropped:
        ax.scatter([n for n, _, _ in dropped], [v for _, v, _ in dropped], s=22, facecolors="none",
                   edgecolors="#DD8452", label="dropped by racing (its miss at the rung it stopped)")
    ax.set_xlabel("trial")
    ax.set_ylabel("miss (points outside the bands)" if rate else "miss (outside the bands)")
    ax.set_title("The search: how far each candidate missed the targets")
    ax.grid(**GRID)
    ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    fig.savefig(folder / "history.png", dpi=DPI)
    plt.close(fig)
    return "history.png"


def _targets_plot(plan: TunePlan, current_rows: Sequence[Row], chosen: Finalist, folder: Path, tuned_label: str) -> str | None:
    from sim.report.plots import DPI, _plt

    rows = [(a, b) for a, b in zip(current_rows, chosen.rows) if a.value is not None and b.value is not None]
    banded = [(a, b) for a, b in rows if a.min is not None and a.max is not None]
    rows = banded or rows  # the records with a band on both sides (win rates), not a one-sided cap beside them
    if not rows:
        return None
    plt = _plt()
    k = 100 if all(a.rate for a, _ in rows) else 1
    fig, ax = plt.subplots(figsize=(7.0, 0.6 * len(rows) + 1.6))
    for i, (a, b) in enumerate(rows):
        y = len(rows) - 1 - i
        lo, hi = a.min if a.min is not None else min(a.value, b.value), a.max if a.max is not None else max(a.value, b.value)
        ax.barh(y, (hi - lo) * k, left=lo * k, height=0.7, color="#e5f0e5", edgecolor="#8fbf8f",
                label="target band" if i == 0 else None)
        for r, dy, color, lab in ((a, 0.15, "#999999", "current config"), (b, -0.15, "#4C72B0", tuned_label)):
            ax.errorbar([r.value * k], [y + dy], xerr=[[max(0.0, (r.value - (r.lo if r.lo is not None else r.value)) * k)],
                                                        [max(0.0, ((r.hi if r.hi is not None else r.value) - r.value) * k)]],
                        fmt="o", color=color, capsize=3, markersize=4, label=lab if i == 0 else None)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([a.label for a, _ in reversed(rows)], fontsize=8)
    ax.set_xlabel("value (%)" if k == 100 else "value")
    ax.set_title(f"Targets on {plan.confirm_games:,} fresh games (95 % intervals)")
    ax.grid(axis="x", color="#dddddd", linewidth=0.8)
    ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    fig.savefig(folder / "targets.png", dpi=DPI)
    plt.close(fig)
    return "targets.png"


def importance(plan: TunePlan, study: Any) -> dict[str, float]:
    """Each searched key's share of the variation of the miss across the finished trials
    (optuna's PED-ANOVA, ``optuna.importance``); empty when too few trials finished."""
    import optuna

    done = [t for t in study.get_trials(deepcopy=False) if t.state == optuna.trial.TrialState.COMPLETE]
    if len(done) < 5:
        return {}
    try:
        import warnings

        from optuna.importance import PedAnovaImportanceEvaluator, get_param_importances

        with warnings.catch_warnings():  # it warns that low targets are what it ranks: they are
            warnings.simplefilter("ignore")
            raw = get_param_importances(study, evaluator=PedAnovaImportanceEvaluator(),
                                        target=lambda t: t.values[0], normalize=True)
    except Exception:  # noqa: BLE001 - too few distinct values, an older optuna: no importance
        return {}
    out: dict[str, float] = {}
    for name, v in raw.items():  # a list's or a table's items (KEY[i], KEY.NAME) add up to the key
        key = next((d.key for d in plan.dims if name == d.key or name.startswith((d.key + "[", d.key + "."))), name)
        out[key] = out.get(key, 0.0) + float(v)
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))


def _importance_plot(imp: dict[str, float], folder: Path) -> str | None:
    from sim.report.plots import DPI, _plt

    if not imp:
        return None
    plt = _plt()
    keys = list(imp)[:15]
    fig, ax = plt.subplots(figsize=(7.0, 0.4 * len(keys) + 1.4))
    ax.barh(range(len(keys)), [100 * imp[k] for k in keys], color="#4C72B0")
    ax.set_yticks(range(len(keys)))
    ax.set_yticklabels(keys, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("importance (%): share in telling the best trials from the rest")
    ax.set_title("Which searched key mattered most (PED-ANOVA)")
    fig.tight_layout()
    fig.savefig(folder / "importance.png", dpi=DPI)
    plt.close(fig)
    return "importance.png"


def _pareto_plot(plan: TunePlan, study: Any, folder: Path) -> str | None:
    import optuna

    from sim.report.plots import DPI, GRID, _plt

    if len(plan.objectives) < 2:
        return None
    done = [t for t in study.get_trials(deepcopy=False)
            if t.state == optuna.trial.TrialState.COMPLETE and "objectives" in t.user_attrs]
    if not done:
        return None
    front = {t.number for t in study.best_trials}
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.0, 4.0))
    k = 100 if plan.rate_units else 1
    for on in (False, True):
        ts = [t for t in done if (t.number in front) == on]
        ax.scatter([k * t.user_attrs["objectives"][0] for t in ts], [t.user_attrs["objectives"][1] for t in ts],
                   s=26 if on else 14, color="#C44E52" if on else "#999999",
                   label="Pareto front" if on else "other candidates")
    ax.set_xlabel("miss (points outside the target bands)" if k == 100 else "miss (outside the target bands)")
    second = plan.objectives[1].prefer
    if second is not None and second.least_change:
        ax.set_ylabel("values changed from the config")
        from matplotlib.ticker import MaxNLocator

        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    else:
        ax.set_ylabel(plan.objectives[1].name)
    ax.set_title("Targets against the first preference")
    ax.grid(**GRID)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(folder / "pareto.png", dpi=DPI)
    plt.close(fig)
    return "pareto.png"


# ------------------------------------------------------------------ the page


def _counts(study: Any) -> dict[str, int]:
    import optuna

    S = optuna.trial.TrialState
    ts = study.get_trials(deepcopy=False)
    return {"trials": len(ts),
            "complete": sum(t.state == S.COMPLETE and "objectives" in t.user_attrs for t in ts),
            "dropped": sum(t.state == S.PRUNED for t in ts),
            "infeasible": sum("infeasible" in t.user_attrs for t in ts),
            "failed": sum(t.state == S.FAIL for t in ts),
            "simplify": sum(bool(t.user_attrs.get("simplify")) for t in ts)}


def verdict_lines(plan: TunePlan, finalists: Sequence[Finalist], current_rows: Sequence[Row],
                  comparison: Any) -> list[str]:
    """The verdict, in a designer's words: what to change and what it buys (or that nothing
    passed, and how close the closest came)."""
    rec = recommendation(finalists)
    n = f"{plan.confirm_games:,}"
    if not finalists:
        return ["**No candidate played every rung**: the search has nothing to recommend. Give it a larger budget "
                "(`--budget`) or a wider space."]
    if rec is not None:
        ch = change_lines(plan, rec)
        if not ch:
            out = [f"**The config already meets every target** on {n} fresh games (seed {plan.confirm_seed}): "
                   "no change needed."]
        else:
            out = [f"**Change {len(ch)} value{'s' if len(ch) != 1 else ''}**: "
                   + "; ".join(f"`{k}` {a} → {b}" for k, a, b in ch) + "."]
            out.append(f"On {n} fresh games (seed {plan.confirm_seed}, never seen by the search) every target is met "
                       "with its whole 95 % interval inside the band:")
        for a, b in zip(current_rows, rec.rows):
            out.append(f"- {b.label}: {row_text(b)} (target {band_text(b)}; the current config: {row_text(a)})")
        if comparison is not None and ch:
            moved = _paired_rows(comparison, rec.rows)
            if moved:
                out.append("")
                out.append("Against the current config on the same games, paired game by game: "
                           + "; ".join(moved) + ".")
        return out
    c = closest(finalists)
    out = [f"**No candidate met every target on fresh games.** The closest (trial {c.number}: "
           + ("the config itself" if not change_lines(plan, c) else
              "; ".join(f"`{k}` {a} → {b}" for k, a, b in change_lines(plan, c)))
           + f"): on {n} games of seed {plan.confirm_seed} its intervals reach {miss_words(plan, c.miss)} outside "
           "the bands in all:"]
    for r in c.rows:
        mark = "" if r.inside() else " ✗"
        out.append(f"- {r.label}: {row_text(r)} (target {band_text(r)}){mark}")
    out.append("Widen the space, add keys, or give more budget; the targets may be out of reach of these keys.")
    return out


def _paired_rows(comparison: Any, rows: Sequence[Row]) -> list[str]:
    labels = {r.label for r in rows}
    return [f"{m.label} {change_text(m)}" for m in comparison.rows
            if m.label in labels and m.change is not None and m.ci_low is not None]


def change_text(m: Any) -> str:
    """A paired change with its interval in the metric's unit: ``-13.6 pp [-14.1, -13.1]``."""
    from sim.report.format import fmt_interval, is_percent

    return fmt_interval({"metric": m.metric, "kind": "difference", "unit": "pp" if is_percent(m.meta) else "",
                         "value": m.change, "ci_low": m.ci_low, "ci_high": m.ci_high})


def render_md(plan: TunePlan, study: Any, finalists: Sequence[Finalist], current_rows: Sequence[Row],
              comparison: Any, imp: dict[str, float], plots: dict[str, str | None], elapsed: float) -> str:
    from sim.report.format import md_table
    from sim.sensitivity import _duration
    from sim.sweep import toml_value

    c = _counts(study)
    rec = recommendation(finalists)
    lines = [f"# Tune: {plan.name} ({plan.game})", "", "## Verdict", ""]
    lines += [x if x.startswith("- ") else x + "\n" for x in verdict_lines(plan, finalists, current_rows, comparison)]
    if plots.get("targets"):
        lines += ["", f"![targets](plots/{plots['targets']})", ""]
    if rec is not None and change_lines(plan, rec):
        lines += ["", "`tuned.toml` beside this page is the config with these values (each change commented): "
                  "`sim run tuned.toml` plays it, `sim baseline tuned.toml` records it for CI.", ""]
    lines += ["## Finalists on fresh games", "",
              f"The {len(finalists)} best candidates of the search, replayed on {plan.confirm_games:,} games of seed "
              f"{plan.confirm_seed} (the search played seed {plan.seed}). A finalist passes when every target's "
              "interval lies inside its band; the recommendation is the first that passes, in the search's order.", ""]
    if finalists:
        body = [[str(f.number), "<br>".join(f"`{k}` {a} → {b}" for k, a, b in change_lines(plan, f)) or "(the config)",
                 miss_words(plan, f.objectives[0]), miss_words(plan, f.miss), "yes" if f.passed else "no"]
                for f in finalists]
        lines += [md_table(["trial", "changes", "miss in the search", "intervals outside the bands in the proof",
                            "passes"], body,
                           align="llrrl"), ""]
        heads = ["target record", "band", "current config"] + [f"trial {f.number}" for f in finalists]
        body = []
        for i, r in enumerate(current_rows):
            body.append([r.label, band_text(r), row_text(r)]
                        + [(row_text(f.rows[i]) + ("" if f.rows[i].inside() else " ✗")) if i < len(f.rows) else "–"
                           for f in finalists])
        lines += [md_table(heads, body, align="ll" + "r" * (len(heads) - 2)), ""]
    lines += ["## The search", "",
              f"{c['trials']} trials in {_duration(elapsed)}"
              + (f" ({c['trials'] - c['simplify']} searched, {c['simplify']} putting the best candidate's changes back "
                 "one at a time to find the least edit that works)" if c["simplify"] else "")
              + f": {c['complete']} played every rung, {c['dropped']} were dropped early by racing, {c['infeasible']} "
              "could not be set up" + (f", {c['failed']} failed" if c["failed"] else "") + f". Sampler: optuna {plan.table.sampler}. "
              f"Every candidate played the same games (seed {plan.seed}) in rungs of "
              f"{', '.join(f'{n:,}' for n in plan.rungs)} games.", ""]
    lines.append("Searched keys:\n")
    lines += [f"- `{d.key}` (config: {toml_value(d.current)})" for d in plan.dims]
    lines.append("")
    for name in ("history", "pareto", "importance"):
        if plots.get(name):
            lines += [f"![{name}](plots/{plots[name]})", ""]
    if imp:
        lines += ["Importance (optuna's PED-ANOVA, each key's share in telling the best trials from the rest): "
                  + ", ".join(f"`{k}` {100 * v:.0f} %" for k, v in imp.items()) + ". It is read from the trials "
                  "the search chose to play, not from a designed experiment: `sim sensitivity` measures each key's "
                  "effect with intervals.", ""]
    if comparison is not None and rec is not None and change_lines(plan, rec):
        lines += ["## Current against tuned, game by game", "",
                  f"Both on the same {plan.confirm_games:,} games of seed {plan.confirm_seed}; headline metrics, "
                  "paired tests as `sim compare` makes them.", ""]
        rows = [m for m in comparison.rows if m.headline and m.tested][:30]
        from sim.report.format import fmt_value

        body = []
        for m in rows:
            body.append([m.label, fmt_value({**m.meta, "value": m.a}), fmt_value({**m.meta, "value": m.b}),
                         change_text(m) if m.change is not None and m.ci_low is not None else "–", m.test or ""])
        if body:
            lines += [md_table(["metric", "current", "tuned", "change [95 %]", "test"], body), ""]
    lines += ["## How it was searched", "",
              "- **The miss**: for every record a target matches, how far its value lies outside the band, summed "
              "(rates in points). The band is narrowed on each side by the half-width the record's interval will "
              f"have on {plan.confirm_games:,} games, so that a candidate on target can pass the proof.",
              "- **Common random numbers**: every candidate plays the same games (game g dealt from the same "
              "streams), so candidates differ by their values, not their luck.",
              "- **Racing**: after each rung but the last, a candidate is dropped when even the most favourable "
              "reading of its 95 % intervals misses by more than the best candidate measured at that rung.",
              "- **Proof**: the best candidates (by miss, then the preferences, then the fewest changes) are "
              "replayed on a fresh seed; the first whose every target interval lies inside its band is recommended. "
              "The search's own figures are flattered (the best of many noisy draws); the proof's are not.",
              "- The study is `tune.db` (optuna, SQLite): `sim tune CONFIG --resume` continues it.", ""]
    return "\n".join(lines)


def write_tune(dest: Path, plan: TunePlan, study: Any, finalists: Sequence[Finalist], current: Any,
               comparison: Any, elapsed: float, db: Path) -> Path:
    """Write the folder atomically (module docstring); returns ``dest``. Raises OutputError."""
    import sqlite3

    from sim.jsonio import write_json
    from sim.outputs import atomic_folder
    from sim.report.writer import render_html
    from sim.tune import target_rows

    current_rows = target_rows(current.summary, plan.targets) if current is not None else []
    rec = recommendation(finalists)
    imp = importance(plan, study)
    plan.rate_units = bool(current_rows) and all(r.rate for r in current_rows)
    with atomic_folder(dest, is_tune_folder, "tune") as tmp:
        plots_dir = tmp / "plots"
        plots_dir.mkdir()
        plots = {"history": _history_plot(plan, study.get_trials(deepcopy=False), plots_dir),
                 "pareto": _pareto_plot(plan, study, plots_dir),
                 "importance": _importance_plot(imp, plots_dir)}
        shown = rec or closest(finalists)
        if shown is not None and shown.rows:
            plots["targets"] = _targets_plot(plan, current_rows, shown, plots_dir,
                                             "recommended" if rec is not None else f"closest (trial {shown.number})")
        md = render_md(plan, study, finalists, current_rows, comparison, imp, plots, elapsed)
        (tmp / "tune.md").write_text(md, encoding="utf-8")
        (tmp / "tune.html").write_text(render_html(md, f"Tune: {plan.name}", plots_dir), encoding="utf-8")
        if rec is not None:
            (tmp / "tuned.toml").write_text(tuned_toml(plan, rec, dest / "tuned.toml"), encoding="utf-8")
        with sqlite3.connect(db) as src, sqlite3.connect(tmp / "tune.db") as out:
            src.backup(out)
        write_json(tune_json(plan, study, finalists, current_rows, comparison, imp, elapsed), tmp / "tune.json")
    return Path(dest)


def tune_json(plan: TunePlan, study: Any, finalists: Sequence[Finalist], current_rows: Sequence[Row],
              comparison: Any, imp: dict[str, float], elapsed: float) -> dict:
    """tune.json: the plan, every trial, the finalists, the recommendation and the paired
    comparison."""
    from sim.sweep import toml_value

    rec = recommendation(finalists)
    c = closest(finalists)
    trials = []
    for t in study.get_trials(deepcopy=False):
        a = t.user_attrs
        trials.append({"number": t.number, "state": t.state.name.lower(), "values": a.get("values"),
                       "objectives": a.get("objectives"), "miss_by_rung": a.get("miss_by_rung"),
                       "dropped_at_rung": a.get("dropped_at"), "infeasible": a.get("infeasible"),
                       "changed": a.get("changed"), "is_config": bool(a.get("is_config")),
                       "simplify": bool(a.get("simplify"))})

    def fin(f: Finalist) -> dict:
        return {"trial": f.number, "values": {k: toml_value(v) for k, v in f.values.items()},
                "changes": [{"key": k, "from": a, "to": b} for k, a, b in change_lines(plan, f)],
                "search_objectives": f.objectives, "rows": [r.to_json() for r in f.rows], "miss": f.miss,
                "passed": f.passed}

    return {
        "format": TUNE_FORMAT, "config": str(plan.config), "run": plan.name, "game": plan.game,
        "seed": plan.seed, "confirm_seed": plan.confirm_seed, "confirm_games": plan.confirm_games,
        "rungs": plan.rungs, "budget": plan.budget, "sampler": plan.table.sampler,
        "space": [{"key": d.key, "kind": d.kind, "current": d.current, **d.spec.model_dump()} for d in plan.dims],
        "targets": [t.label() for t in plan.targets], "targets_from": plan.targets_key,
        "objectives": [o.name for o in plan.objectives],
        "counts": _counts(study), "elapsed_s": round(elapsed, 1),
        "trials": trials,
        "finalists": [fin(f) for f in finalists],
        "current": [r.to_json() for r in current_rows],
        "recommendation": fin(rec) if rec is not None else None,
        "closest": fin(c) if rec is None and c is not None else None,
        "importance": imp,
        "comparison": [{"label": m.label, "current": m.a, "tuned": m.b, "change": m.change, "ci_low": m.ci_low,
                        "ci_high": m.ci_high, "p_value": m.p_value, "test": m.test}
                       for m in (comparison.rows if comparison is not None else []) if m.tested],
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "versions": _versions(), "git_revision": _revision(),
    }


def _versions() -> dict:
    from sim.api import versions

    return versions()


def _revision() -> str:
    from sim.api import git_revision

    return git_revision()
