"""Tension (issue 35, docs/tension.md): the engine's per-round progress records, the per-game
tension columns the kernel computes from them, and the summary records built from those
columns, each checked against an independent implementation written here from the docs'
definitions (plain Python over the records, numpy over games.parquet)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.compile import load_run
from sim.games.base import TENSION_COLUMNS, expand_columns
from sim.games.tension import N_COMPETITIVE, N_COOPERATIVE, write_competitive, write_cooperative

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = {g: ROOT / "configs" / f"{g}.toml" for g in ("clear_for_takeoff", "flying_carpet", "yukon_airways",
                                                      "now_boarding")}


# ---- an independent implementation of the docs' definitions ----------------------------------
def leader(rec) -> int:
    """The one seat ahead, or -1 on a tie (docs/tension.md "Ties")."""
    top = max(rec)
    return rec.index(top) if rec.count(top) == 1 else -1


def competitive_reference(hist: list[list[int]], w: int) -> dict[str, int | list[int]]:
    n = len(hist)
    S = len(hist[0]) if n else 0
    changes, holder = 0, -1
    for rec in hist:
        lead = leader(rec)
        if lead >= 0 and lead != holder:
            changes += holder >= 0
            holder = lead
    mid = (n - 1) // 2
    out: dict = {"tension_rounds": n, "lead_changes": changes, "mid_leader": leader(hist[mid]) if n else -1,
                 "mid_behind": [max(hist[mid]) - v for v in hist[mid]] if n else [0] * S}
    if w < 0 or n == 0:
        return {**out, "decisive_round": -1, "mid_deficit": 0, "margin": 0, "drama": -1}
    # the first record from which w leads alone in every later record
    decisive = n
    for k in range(n - 1, -1, -1):
        if leader(hist[k]) != w:
            break
        decisive = k
    others = lambda rec: max(v for s, v in enumerate(rec) if s != w)  # noqa: E731
    deficits = [others(rec) - rec[w] for rec in hist if others(rec) > rec[w]]
    final = hist[-1][w]
    drama = 0 if not deficits else int(1000.0 * sum(deficits) / (len(deficits) * max(final, 1)) + 0.5)
    return {**out, "decisive_round": decisive, "mid_deficit": others(hist[mid]) - hist[mid][w],
            "margin": final - others(hist[-1]), "drama": drama}


def cooperative_reference(hist: list[list[int]], limit: int) -> dict[str, int]:
    danger = [r[0] for r in hist]
    lost = next((k + 1 for k, d in enumerate(danger) if d >= limit), -1)
    return {"tension_rounds": len(hist), "lost_round": lost, "closest_call": max(danger, default=0),
            "rounds_one_short": sum(d == limit - 1 for d in danger),
            "one_short": int(bool(hist) and hist[-1][1] == 1 and danger[-1] == limit)}


def kernel_competitive(hist: list[list[int]], S: int, w: int) -> dict:
    h = np.zeros((max(len(hist), 1), max(S, 2)), np.int32)
    for k, rec in enumerate(hist):
        h[k, :S] = rec
    row = np.full(3 + N_COMPETITIVE + S, 99, np.int32)
    write_competitive(h, np.int64(len(hist)), np.int64(S), np.int64(w), row, np.int64(3))
    names = expand_columns(TENSION_COLUMNS["competitive"], S)
    got = dict(zip(names, row[3:].tolist()))
    assert row[:3].tolist() == [99, 99, 99]  # the game's own columns are left alone
    got["mid_behind"] = [got.pop(f"mid_behind_s{s}") for s in range(S)]
    return got


# ---- the kernel's columns against the definitions ----------------------------------------------
def test_a_known_race():
    """Three seats over five rounds: seat 1 leads, seat 0 catches up (a tie keeps seat 1's
    lead), passes it (a change), seat 2 passes both (a change) and wins; the midpoint is round 3
    (index 2), where seat 0 led alone and the winner trailed by 2."""
    hist = [[1, 2, 0], [3, 3, 1], [5, 4, 3], [6, 5, 7], [8, 6, 10]]
    got = kernel_competitive(hist, 3, 2)
    assert got == {"tension_rounds": 5, "lead_changes": 2, "decisive_round": 3, "mid_deficit": 2, "mid_leader": 0,
                   "margin": 2, "drama": 200, "mid_behind": [0, 1, 2]}  # drama: deficits 2, 2, 1, 2 over 10
    assert got == competitive_reference(hist, 2)


def test_no_winner_and_no_records():
    got = kernel_competitive([[2, 2], [3, 4]], 2, -1)
    assert got["decisive_round"] == -1 and got["drama"] == -1 and got["margin"] == 0 and got["lead_changes"] == 0
    assert kernel_competitive([], 3, -1)["tension_rounds"] == 0


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 5).flatmap(lambda S: st.tuples(
    st.just(S), st.lists(st.lists(st.integers(0, 6), min_size=S, max_size=S), min_size=1, max_size=12),
    st.integers(-1, S - 1))))
def test_competitive_columns_match_the_definitions(case):
    S, hist, w = case
    assert kernel_competitive(hist, S, w) == competitive_reference(hist, w)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 1)), min_size=0, max_size=10), st.integers(1, 4))
def test_cooperative_columns_match_the_definitions(recs, limit):
    hist = [list(r) for r in recs]
    h = np.zeros((max(len(hist), 1), 2), np.int32)
    for k, r in enumerate(hist):
        h[k] = r
    row = np.zeros(N_COOPERATIVE, np.int32)
    write_cooperative(h, np.int64(len(hist)), np.int64(limit), row, np.int64(0))
    names = [c.name for c in TENSION_COLUMNS["cooperative"]]
    assert dict(zip(names, row.tolist())) == cooperative_reference(hist, limit)


# ---- every game: the batch's columns are the records' ------------------------------------------
@pytest.fixture(scope="module")
def runs():
    """A small run of each shipped config (the batch path), its games frame and summary."""
    from sim.api import run_config

    out = {}
    for game, path in CONFIGS.items():
        games = 60 if game == "now_boarding" else 300
        run = load_run(path, games=games)
        res = run_config(run, threads=1, write_rows=False, keep_frame=True)
        out[game] = (run, res.df, res.summary)
    return out


@pytest.mark.parametrize("game", list(CONFIGS))
def test_replayed_records_give_the_batch_columns(runs, game):
    """The progress records of a replayed game (``GameDef.progress_trace``, the traced path)
    give, by the definitions, exactly the tension columns the batch wrote for that game."""
    run, df, _ = runs[game]
    names = [c.name for c in TENSION_COLUMNS[run.game.mode] if not c.per_seat]
    for g in range(0, 12):
        hist = run.game.progress_trace(run, g)
        row = df.row(g, named=True)
        if run.game.mode == "competitive":
            want = competitive_reference(hist[:, : run.n_seats].tolist(), int(row["winner"]))
            assert want.pop("mid_behind") == [row[f"mid_behind_s{s}"] for s in range(run.n_seats)]
        else:
            want = cooperative_reference(hist.tolist(), int(run.cfg.section.complaint_limit))
        assert {k: row[k] for k in names} == want, (game, g)


def test_clear_for_takeoff_progress_counts_steps(runs):
    """RULES.md "Tension": the winner's last record is its whole fleet airborne (5 steps an
    aircraft), taken at its finish; every record is a whole number of steps within 0..20."""
    run, df, _ = runs["clear_for_takeoff"]
    for g in range(10):
        hist = run.game.progress_trace(run, g)
        w = df["winner"][g]
        if w < 0:
            continue
        assert hist[-1, w] == 20 and hist.min() >= 0 and hist.max() == 20
        assert np.all(np.diff(hist[:, w]) >= -5)  # a setback (FLR / DLY) moves one aircraft back at most
        # a record per round before the finish: rounds = turns of the winner's finish / seats, rounded up
        assert hist.shape[0] == -(-df["winner_turn"][g] // run.n_seats)


def test_clear_for_takeoff_progress_is_units_rounded_down():
    """RULES.md "Tension": a seat's progress is ``units`` rounded down summed over its aircraft
    (hangar 0, A 1, B / C 2, VIP1 2, VIP2 2.5 -> 2, D 3, takeoff 4, airborne 5), an empty fleet
    index counting nothing: every position code of the default board, one aircraft moved at a
    time, against ``policies.units`` (the policies' own reading of a position)."""
    from sim.games.clear_for_takeoff.hooks import new_state
    from sim.games.clear_for_takeoff.layout import P_K, P_NSLOT, POS_AIRBORNE, POS_HANGAR, POS_NONE
    from sim.games.clear_for_takeoff.play import progress_steps
    from sim.games.clear_for_takeoff.policies import units
    from sim.games.clear_for_takeoff.rules import pos_at

    run = load_run(CONFIGS["clear_for_takeoff"], games=1)
    p, fleet = run.spec[0], run.spec[2]
    state = new_state(run.spec)
    K = int(p[P_K])
    real = [k for k in range(K) if fleet[1, k] > 0]
    assert len(real) >= 2
    codes = [POS_NONE, POS_HANGAR, POS_AIRBORNE, *range(int(p[P_NSLOT]))]
    seen = set()
    for k in range(K):
        state[pos_at(p, 1, k)] = POS_HANGAR if fleet[1, k] > 0 else POS_NONE
    for code in codes:
        state[pos_at(p, 1, real[1])] = code
        want = int(units(p, code)) if code != POS_NONE else 0
        seen.add(want)
        assert progress_steps(state, p, fleet, 1) == want, code
    assert seen == {0, 1, 2, 3, 4, 5}
    state[pos_at(p, 1, real[0])] = POS_AIRBORNE
    assert progress_steps(state, p, fleet, 1) == 5 + int(units(p, codes[-1]))


def test_flying_carpet_progress_ends_at_the_course_length(runs):
    run, df, _ = runs["flying_carpet"]
    from sim.games.flying_carpet.layout import P_START

    full = int(10.0 * run.spec[7][run.spec[0][P_START]] + 0.5)
    for g in range(10):
        hist = run.game.progress_trace(run, g)
        w = df["winner"][g]
        if w >= 0:
            assert hist[-1, w] == full and hist.max() <= full


def test_yukon_last_record_is_the_final_money(runs):
    run, df, _ = runs["yukon_airways"]
    money = [c for c in df.columns if c.startswith("money_s")]
    assert money, df.columns
    for g in range(10):
        hist = run.game.progress_trace(run, g)
        assert hist[-1, : run.n_seats].tolist() == [df[f"money_s{s}"][g] for s in range(run.n_seats)]
        assert hist.shape[0] == run.cfg.section.rounds  # a record a day, the last the final score


def test_now_boarding_records_the_complaint_pile(runs):
    run, df, _ = runs["now_boarding"]
    for g in range(10):
        hist = run.game.progress_trace(run, g)
        row = df.row(g, named=True)
        assert hist[-1, 0] == row["complaints"]
        assert hist.shape[0] == row["turns"]  # a record a round, the last after the end count
        assert hist[-1, 1] == (1 - row["lost_early"]) * (1 - row["stalled"])
        assert np.all(np.diff(hist[:, 0]) >= 0)  # complaints never leave the pile


# ---- the summary records from the columns ------------------------------------------------------
def _wilson(k, n):
    from statsmodels.stats.proportion import proportion_confint

    return proportion_confint(k, n, alpha=0.05, method="wilson")


@pytest.mark.parametrize("game", list(CONFIGS))
def test_summary_records_recompute_from_the_columns(runs, game):
    """Every tension record of summary.json (value, interval, n) from the per-game columns with
    numpy and statsmodels: what a reader of games.parquet can do."""
    from scipy import stats

    run, df, summary = runs[game]
    recs = {r["metric"]: r for r in summary["metrics"] if not r["by"]}

    def mean_check(name, values):
        v = np.asarray(values, float)
        r = recs[name]
        assert r["n"] == v.size and r["value"] == pytest.approx(v.mean(), rel=1e-12, abs=1e-12), name
        if v.size > 1 and v.std() > 0:
            half = stats.norm.ppf(0.975) * v.std(ddof=1) / np.sqrt(v.size)
            assert r["ci_high"] == pytest.approx(min(v.mean() + half, 1.0) if r.get("unit") == "%" else v.mean() + half,
                                                 rel=1e-6), name

    def rate_check(name, k, n):
        r = recs[name]
        lo, hi = _wilson(k, n)
        assert (r["n"], r["value"]) == (n, pytest.approx(k / n)) and r["ci_low"] == pytest.approx(lo, abs=1e-9), name
        assert r["ci_high"] == pytest.approx(hi, abs=1e-9), name

    if run.game.mode == "competitive":
        won = df.filter(pl.col("winner") >= 0)
        mean_check("lead_changes", won["lead_changes"])
        mean_check("decisive_point", (won["decisive_round"] / won["tension_rounds"]).to_numpy())
        rate_check("comeback_rate", int((won["mid_deficit"] > 0).sum()), won.height)
        lead = won.filter(pl.col("mid_leader") >= 0)
        rate_check("runaway_rate", int((lead["mid_leader"] == lead["winner"]).sum()), lead.height)
        mean_check("margin", won["margin"])
        mean_check("drama", won["drama"].to_numpy() / 1000)
    else:
        won = df.filter(pl.col("team_win") != 0)
        lost = df.filter((pl.col("team_win") == 0) & (pl.col("stalled") == 0))
        mean_check("closest_call", won["closest_call"])
        mean_check("rounds_one_short", won["rounds_one_short"])
        mean_check("lost_round", lost["lost_round"])
        rate_check("one_short_rate", int(df["one_short"].sum()), df.height)


def test_a_check_target_can_gate_a_tension_metric(tmp_path):
    """docs/tension.md: a `[checks]` target may name a tension metric; `sim validate` accepts it
    (the metric is in the catalogue) and refuses a name that is not one."""
    from typer.testing import CliRunner

    from sim.cli import app

    text = CONFIGS["clear_for_takeoff"].read_text()
    good = text.replace('targets = [\n', 'targets = [\n    { metric = "comeback_rate", min = 0.2 },\n', 1)
    assert good != text
    (tmp_path / "good.toml").write_text(good)
    r = CliRunner().invoke(app, ["validate", str(tmp_path / "good.toml")])
    assert r.exit_code == 0, r.output
    (tmp_path / "bad.toml").write_text(good.replace('"comeback_rate"', '"comeback_rat"'))
    r = CliRunner().invoke(app, ["validate", str(tmp_path / "bad.toml")])
    assert r.exit_code == 2 and "comeback_rat" in r.output, r.output


@pytest.mark.parametrize("game", ["clear_for_takeoff", "yukon_airways"])
def test_sim_replay_marks_the_lead_changes_the_column_counts(runs, game):
    """`sim replay` prints every seat's progress each round after the log and marks each lead
    change with '*': as many marks as the game's lead_changes column, the same records."""
    from typer.testing import CliRunner

    from sim.cli import app

    run, df, _ = runs[game]
    g = next(i for i in range(df.height) if df["lead_changes"][i] >= 2)
    r = CliRunner().invoke(app, ["replay", str(CONFIGS[game]), "--game", str(g)])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    top = next(i for i, ln in enumerate(lines) if ln.startswith("== progress by round"))
    table = lines[top + 2: -1]
    hist = run.game.progress_trace(run, g)
    assert len(table) == hist.shape[0] == df["tension_rounds"][g]
    assert [int(x) for x in table[0].split()[1: 1 + run.n_seats]] == hist[0, : run.n_seats].tolist()
    assert sum(ln.endswith(" *") for ln in table) == df["lead_changes"][g]
    assert lines[-1] == f"   {df['lead_changes'][g]} lead changes in {hist.shape[0]} rounds"


def test_the_verdict_bullet_quotes_the_records(runs):
    """The report's verdict states the tension records as summary.json holds them (value and
    interval, as the Tension table prints them), in a designer's words."""
    from sim.report.format import fmt_interval
    from sim.report.writer import tension_lines

    for game in ("clear_for_takeoff", "now_boarding"):
        run, _, summary = runs[game]
        recs = summary["metrics"]
        (line,) = tension_lines(recs, run.game.mode, run.game.progress_unit)
        get = {r["metric"]: r for r in recs if not r["by"]}
        if game == "clear_for_takeoff":
            assert line.startswith("- **Tension:** the lead changed hands " + fmt_interval(get["lead_changes"]))
            assert f"behind at the midpoint in {fmt_interval(get['comeback_rate'])} of the games" in line
            assert line.endswith(f"{fmt_interval(get['margin'])} preparation steps (games with a winner).")
        else:
            assert line.startswith(f"- **How close:** {fmt_interval(get['one_short_rate'])} of the games were lost "
                                   "at the final count by a single complaint")
            assert (f"won games reached at most {fmt_interval(get['closest_call'])} complaints on average and "
                    f"spent {fmt_interval(get['rounds_one_short'])} rounds") in line
    assert tension_lines([], "competitive", "steps") == []


def test_yukon_terminal_summary_names_the_start_player(runs, capsys):
    """Issue 40 item 3: Yukon's first player is drawn, so the terminal's first-player advantage
    says whose it is, beside the win rate of every start position (the spread it comes from)."""
    from sim.cli import print_summary

    _, _, summary = runs["yukon_airways"]
    print_summary(summary, {"games_per_s": None, "threads": 1, "wall_s": 1.0})
    out = capsys.readouterr().out
    assert "start player's advantage" in out and "first-player advantage" not in out
    assert "final margin ($)" in out
    assert "win rate start position 0 (starts)" in out and "win rate start position 3 (last)" in out


def test_yukon_verdict_states_the_turn_order_spread(runs):
    """Issue 40 item 3: the report's verdict gives the start-position spread (the start player
    is drawn, so the seat spread hides it), with the same values as the win_rate records."""
    from sim.metrics import report_info
    from sim.report.format import fmt_interval
    from sim.report.writer import verdict_lines

    run, _, summary = runs["yukon_airways"]
    lines = verdict_lines(run.cfg, run.game, summary, report_info(run.game), {})
    (turn,) = [ln for ln in lines if ln.startswith("- **Turn order:**")]
    get = {r["by"]["start_pos"]: r for r in summary["metrics"] if r["metric"] == "win_rate"
           and set(r["by"]) == {"start_pos"}}
    assert f"the start player (drawn each game) wins {fmt_interval(get[0])}, the last in the turn order " \
           f"{fmt_interval(get[max(get)])}" in turn


def test_comeback_plot_survives_a_group_won_always_or_never(tmp_path):
    """A deficit group whose seats always (or never) won: Wilson's bound lies a rounding error
    beyond 100 % (0 %), which matplotlib refused as a negative error bar and crashed `sim run`
    (Flying Carpet and Yukon at 1,000-4,000 games). The plots are drawn, the bars clipped."""
    from sim.report.plots import plot_tension
    n = 57  # wilson(57, 57)'s upper bound is 2.2e-16 below 1
    df = pl.DataFrame({"winner": [0] * n, "lead_changes": [1] * n, "decisive_round": [2] * n,
                       "tension_rounds": [6] * n, "mid_deficit": [-3] * n, "mid_leader": [0] * n,
                       "margin": [4] * n, "drama": [0] * n, "mid_behind_s0": [0] * n, "mid_behind_s1": [3] * n,
                       TENSION_COLUMNS["competitive"][0].name: [6] * n})
    got = plot_tension(df, [], tmp_path, "competitive", 2, "steps")
    assert [f for _, f in got] == ["lead_changes.png", "decisive_point.png", "comeback.png"]
    assert all((tmp_path / f).stat().st_size > 0 for _, f in got)


def test_comeback_points_group_many_deficits_into_ranges():
    """Flying Carpet's deficits run 0-89 tenths of a move: the plot groups them into at most 11
    ranges beside 'leading' (0), each of at least 30 seat-games, labelled by its range."""
    from sim.report.plots import comeback_points

    behind = np.arange(0, 90)
    n = np.full(90, 10)
    n[0] = 500
    k = np.zeros(90, np.int64)
    k[0] = 250
    pts = comeback_points(behind, n, k)
    assert pts[0] == (0.0, 250, 500, "0")
    assert len(pts) <= 12 and all(b >= 30 for _, _, b, _ in pts)
    assert pts[1][3] == "1-9" and pts[1][2] == 90 and pts[1][0] == pytest.approx(5.0)
    assert comeback_points(np.array([0, 1, 2]), np.array([40, 40, 5]), np.array([20, 10, 1])) == [
        (0.0, 20, 40, "0"), (1.0, 10, 40, "1")]


@pytest.mark.parametrize("lo,hi", [(0.66, 0.685), (0.100, 0.112), (0.0, 0.6), (0.2501, 0.2519)])
def test_percent_ticks_read_differently_on_a_narrow_axis(lo, hi):
    """A sweep of decisive_point spans about a point: 0-decimal percent ticks read '68% 68% 67%
    66% 66%'. The axis takes the decimals its span needs, so no two ticks print the same."""
    from sim.report.plots import _percent_axis, _plt

    plt = _plt()
    fig, ax = plt.subplots()
    ax.plot([0, 1], [lo, hi])
    ax.set_ylim(lo, hi)
    _percent_axis(ax)
    fig.canvas.draw()
    labels = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
    plt.close(fig)
    assert len(labels) >= 3 and len(set(labels)) == len(labels), labels


def test_a_money_margin_reads_as_money(runs):
    """Yukon's progress is money: the verdict writes the margin '$7.99 [...]', not '7.99 [...] $'."""
    from sim.report.format import fmt_interval
    from sim.report.writer import tension_lines

    run, _, summary = runs["yukon_airways"]
    (line,) = tension_lines(summary["metrics"], "competitive", run.game.progress_unit)
    margin = next(r for r in summary["metrics"] if r["metric"] == "margin")
    assert f"the final margin was ${fmt_interval(margin)} (games with a winner)." in line
