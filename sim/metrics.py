"""Metrics shared by every game, computed from the run's :class:`sim.tally.Tally` (joint
histograms folded chunk by chunk; :func:`common_tally_spec`), or from a games frame tallied
first.

Each metric is a record ``{"metric", "by", "value", "ci_low", "ci_high", "n", "kind"}``
(means add ``"sd"``): the format of ``summary.json`` that reports and ``sim check`` read.
Proportions carry Wilson 95 % intervals, means normal 95 % intervals.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from sim.games.base import MetricDef  # noqa: F401  (re-exported: the catalogue entries' type)
from sim.records import closest_names  # noqa: F401  (re-exported: the CLI and tests import it from here)
from sim.stats import mean_interval, wilson


def proportion(metric: str, by: dict, successes: int, n: int) -> dict[str, Any]:
    """A proportion record with its Wilson 95 % interval."""
    lo, hi = wilson(successes, n)
    value = successes / n if n else float("nan")
    if n:  # float rounding can put a bound a hair beyond a rate of exactly 0 or 1
        lo, hi = min(float(lo), value), max(float(hi), value)
    return {"metric": metric, "by": by, "value": value,
            "ci_low": float(lo), "ci_high": float(hi), "n": int(n), "kind": "proportion",
            "successes": int(successes)}


def ratio(metric: str, by: dict, num, den) -> dict[str, Any]:
    """A share of summed per-game counts, ``sum(num) / sum(den)`` (e.g. turns under fog /
    all turns), with a 95 % interval that treats the game, not the turn, as the unit
    (delta method: turns of one game are not independent). ``n`` is the number of games;
    ``se`` (absent below 2 games) the delta-method standard error, which unpaired comparisons
    test with (:func:`sim.stats.unpaired_change`)."""
    x = np.asarray(num, dtype=float)
    t = np.asarray(den, dtype=float)
    n = x.size
    total = t.sum()
    r = float(x.sum() / total) if total > 0 else float("nan")
    lo = hi = se = float("nan")
    if n > 1 and total > 0:
        se = float(np.std(x - r * t, ddof=1) / np.sqrt(n) / t.mean())
        lo, hi = max(0.0, r - 1.959963984540054 * se), min(1.0, r + 1.959963984540054 * se)
    out = {"metric": metric, "by": by, "value": r, "ci_low": lo, "ci_high": hi, "n": int(n), "kind": "share"}
    if se == se:  # the delta-method standard error (games as the unit): what comparisons test with
        out["se"] = se
    return out


def mean(metric: str, by: dict, values: pl.Series | np.ndarray) -> dict[str, Any]:
    """A mean record with sd and its normal 95 % interval."""
    v = np.asarray(values, dtype=float)
    n = v.size
    m = float(v.mean()) if n else float("nan")
    sd = float(v.std(ddof=1)) if n > 1 else float("nan")
    lo, hi = mean_interval(m, sd, n)
    if n and v.min() >= 0 and lo < 0:  # counts: the normal interval must not leave [0, inf)
        lo = 0.0
    return {"metric": metric, "by": by, "value": m, "ci_low": lo, "ci_high": hi, "n": int(n),
            "kind": "mean", "sd": sd}


def quantile(metric: str, by: dict, values, q: float) -> dict[str, Any]:
    """A quantile record (no interval)."""
    v = np.asarray(values, dtype=float)
    return {"metric": metric, "by": by, "value": float(np.quantile(v, q)) if v.size else float("nan"),
            "ci_low": None, "ci_high": None, "n": int(v.size), "kind": "quantile"}


CARD_COLUMNS = ("reshuffles", "starved_draws")
"""The common columns of a game with a deck (declared by the games that have one, in their
``Column`` list; required of none): times the discard pile became the draw pile, and draws cut
short because both piles were empty. A game without them has no ``reshuffles_mean`` /
``starved_draw_rate`` records and no reshuffle plot."""


def has_cards(gdef) -> bool:
    """True when game ``gdef`` declares the card columns (:data:`CARD_COLUMNS`)."""
    return any(c.name == CARD_COLUMNS[0] for c in getattr(gdef, "columns", ()))


def _as_tally(df, mode: str, n_seats: int, labels: list[str]):
    from sim.tally import as_tally

    cards = not hasattr(df, "columns") or CARD_COLUMNS[0] in df.columns
    tension = not hasattr(df, "columns") or TENSION_KEY in df.columns
    return as_tally(df, common_tally_spec, mode, n_seats, labels, cards, tension)


TENSION_METRICS = {
    "competitive": ("lead_changes", "decisive_point", "comeback_rate", "runaway_rate", "margin", "drama"),
    "cooperative": ("one_short_rate", "closest_call", "rounds_one_short", "lost_round"),
}
"""The tension metrics (:func:`tension_metrics`) by mode, in the order reports list them."""


def decisive_share(decisive_round, rounds) -> np.ndarray:
    """Per game, the share of its rounds before the winner led alone for good:
    ``decisive_round / tension_rounds`` (float64 [games]; 1 for a game of no records), the
    ``decisive_point`` of one game (docs/tension.md)."""
    d = np.asarray(decisive_round, dtype=float)
    r = np.asarray(rounds, dtype=float)
    return np.where(r > 0, d / np.maximum(r, 1), 1.0)


def tension_per_game(df, mode: str) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """``metric -> (num, den)`` float64 arrays [games] of the tension metrics per game (a game
    outside a metric's games has den 0), from a games frame with the tension columns (empty
    without them): what paired comparisons test (:func:`sim.check.paired.per_game`). Their
    sums give the records of :func:`tension_metrics` (a mean of shares is Σnum / Σden)."""
    if TENSION_KEY not in df.columns:
        return {}
    col = lambda k: df[k].to_numpy().astype(float)  # noqa: E731
    if mode == "competitive":
        won = (df["winner"].to_numpy() >= 0).astype(float)
        share = decisive_share(df["decisive_round"].to_numpy(), df["tension_rounds"].to_numpy())
        lead = (df["mid_leader"].to_numpy() >= 0).astype(float) * won
        return {
            "lead_changes": (col("lead_changes") * won, won),
            "decisive_point": (share * won, won),
            "comeback_rate": ((col("mid_deficit") > 0) * won, won),
            "runaway_rate": ((df["mid_leader"].to_numpy() == df["winner"].to_numpy()) * lead, lead),
            "margin": (col("margin") * won, won),
            "drama": (col("drama") / 1000.0 * won, won),
        }
    won = (df["team_win"].to_numpy() != 0).astype(float)
    lost = ((df["team_win"].to_numpy() == 0) & (df["stalled"].to_numpy() == 0)
            & (df["lost_round"].to_numpy() >= 0)).astype(float)
    return {
        "one_short_rate": (col("one_short"), np.ones(df.height)),
        "closest_call": (col("closest_call") * won, won),
        "rounds_one_short": (col("rounds_one_short") * won, won),
        "lost_round": (col("lost_round") * lost, lost),
    }


TENSION_KEY = "tension_rounds"
"""The first tension column (:data:`sim.games.base.TENSION_COLUMNS`): a games frame without it
(a test double's, or one written before the engine recorded tension) has no tension metrics."""


def tension_tally_spec(mode: str, n_seats: int) -> list:
    """What the tension metrics tally (:func:`tension_metrics`), from the engine's tension
    columns. Competitive, among the games with a winner: ``tension_lead`` (lead_changes),
    ``tension_decisive`` (decisive_round, tension_rounds), ``tension_mid`` (mid_deficit),
    ``tension_runaway`` (mid_leader, won: the midpoint leader is the winner), ``tension_margin``
    (margin), ``tension_drama`` (drama); among all games ``tension_gap`` (behind: a seat's
    midpoint gap, won: it won; pooled over seats). Cooperative: ``tension_coop`` (team_win,
    stalled, lost_round, closest_call, rounds_one_short, one_short)."""
    from sim.tally import hist, seat_hist

    c = pl.col
    if mode == "competitive":
        won = c("winner") >= 0
        return [hist("tension_lead", won, lead_changes=c("lead_changes")),
                hist("tension_decisive", won, d=c("decisive_round"), r=c("tension_rounds")),
                hist("tension_mid", won, deficit=c("mid_deficit")),
                hist("tension_runaway", won & (c("mid_leader") >= 0), won=c("mid_leader") == c("winner")),
                hist("tension_margin", won, margin=c("margin")),
                hist("tension_drama", won, drama=c("drama")),
                seat_hist("tension_gap", n_seats, lambda s: {"behind": c(f"mid_behind_s{s}"),
                                                             "won": c("winner") == s}, won)]
    return [hist("tension_coop", team_win=c("team_win"), stalled=c("stalled"), lost_round=c("lost_round"),
                 closest_call=c("closest_call"), rounds_one_short=c("rounds_one_short"),
                 one_short=c("one_short"))]


def common_tally_spec(mode: str | None, n_seats: int, labels: list[str], cards: bool = True,
                      tension: bool = True) -> list:
    """What the common metrics and the generic plots tally (:mod:`sim.tally`), for a game of
    ``mode`` with ``n_seats`` seats whose entries are ``labels``: ``length`` (turns, stalled);
    with ``cards`` (the game declares :data:`CARD_COLUMNS`) ``reshuffles`` and ``starved``
    (starved_draws > 0); competitive: ``winner``, ``rank`` (seat,
    rank; pooled over seats), ``policy_win`` (policy, num, den: per game, the seats the
    policy sat in and how many of them won); cooperative: ``team`` (team_win, stalled); with
    ``tension`` (the frame has the engine's tension columns) :func:`tension_tally_spec`."""
    from sim.tally import Hist, hist, seat_hist

    c = pl.col
    out = [hist("length", turns=c("turns"), stalled=c("stalled"))]
    if cards:
        out += [hist("reshuffles", reshuffles=c("reshuffles")),
                hist("starved", starved=c("starved_draws") > 0)]
    if mode is None:  # the length metrics only
        return out
    if tension:
        out += tension_tally_spec(mode, n_seats)
    if mode == "competitive":
        out.append(hist("winner", winner=c("winner")))
        out.append(seat_hist("rank", n_seats, lambda s: {"seat": pl.lit(s), "rank": c(f"rank_s{s}")}))
        parts = []
        for label in dict.fromkeys(labels):
            at = [c(f"policy_s{s}").cast(pl.String) == label for s in range(n_seats)]
            parts.append({"policy": pl.lit(label),
                          "num": pl.sum_horizontal([a & (c("winner") == s) for s, a in enumerate(at)]),
                          "den": pl.sum_horizontal(at)})
        out.append(Hist("policy_win", tuple(parts)))
    else:
        out.append(hist("team", team_win=c("team_win"), stalled=c("stalled")))
    return out


def ci_lo(rec: dict) -> float:
    """A record's lower 95 % bound for plotting: its value when the record has none (a quantile)
    or it is undefined (NaN: a mean or share of fewer than 2 games)."""
    x = rec.get("ci_low")
    return float(rec["value"]) if x is None or not np.isfinite(x) else float(x)


def ci_hi(rec: dict) -> float:
    """A record's upper 95 % bound for plotting (see :func:`ci_lo`)."""
    x = rec.get("ci_high")
    return float(rec["value"]) if x is None or not np.isfinite(x) else float(x)


def length_metrics(df) -> list[dict]:
    """stall_rate, turns mean and p05/p50/p95, and for a game with cards (:data:`CARD_COLUMNS`)
    reshuffles_mean and starved_draw_rate, from the tally ``df`` (or a games frame, tallied
    here)."""
    from sim.tally import mean_record, quantile_record

    t = _as_tally(df, None, 0, [])
    n = t.games
    turns, tc = t.counts("length", "turns")
    out = [proportion("stall_rate", {}, t.count("length", pl.col("stalled") != 0), n),
           mean_record("turns_mean", {}, turns, tc)]
    for q, name in ((0.05, "turns_p05"), (0.5, "turns_p50"), (0.95, "turns_p95")):
        out.append(quantile_record(name, {}, turns, tc, q))
    if "reshuffles" in t.hists:
        out.append(mean_record("reshuffles_mean", {}, *t.counts("reshuffles", "reshuffles")))
        out.append(proportion("starved_draw_rate", {}, t.count("starved", pl.col("starved") != 0), n))
    return out


def first_player_record(wins: int, n: int, n_seats: int, doc: str | None = None) -> dict[str, Any]:
    """The ``first_player_advantage`` record: the first player's win rate (``wins`` of ``n``
    games) minus the fair share 1/``n_seats``, in points (as fractions), with the Wilson 95 %
    interval of that win rate shifted by the same amount. The common metrics take seat 0 as
    the first player; a game whose first player is another seat (Yukon Airways draws it) gives
    its own record, with ``doc`` saying who it is, and the common one is dropped
    (:func:`sim.api.summarize`)."""
    r0 = proportion("win_rate", {"seat": 0}, wins, n)
    fair = 1.0 / n_seats
    rec = {"metric": "first_player_advantage", "by": {}, "value": r0["value"] - fair,
           "ci_low": r0["ci_low"] - fair, "ci_high": r0["ci_high"] - fair, "n": n,
           "kind": "difference", "reference": fair, "successes": int(wins)}
    if doc:
        rec["doc"] = doc
    return rec


def competitive_metrics(df, n_seats: int, labels: list[str]) -> list[dict]:
    """Win rate by seat and by policy, rank shares by seat, first-player advantage and a
    chi-square test of equal seat win rates (``seat_equality_p``), from the tally ``df`` (or
    a games frame)."""
    from scipy.stats import chisquare

    from sim.tally import moments_of, ratio_se

    t = _as_tally(df, "competitive", n_seats, labels)
    n = t.games
    out: list[dict] = []
    wins = [t.count("winner", pl.col("winner") == s) for s in range(n_seats)]
    for s in range(n_seats):
        out.append(proportion("win_rate", {"seat": s}, wins[s], n))
    # by policy: wins per seat-appearance of the policy
    pw = t.hist("policy_win")
    for label in dict.fromkeys(labels):
        h = pw.filter(pl.col("policy") == label)
        num, den, cnt = (h[k].to_numpy() for k in ("num", "den", "count"))
        app = int((den * cnt).sum())
        w = int((num * cnt).sum())
        if app:
            # trials are seat appearances, several per game: the se counts games as the unit
            rec = proportion("win_rate", {"policy": label}, w, app)
            if n > 1:
                rec["se"] = ratio_se(moments_of(num, den, cnt))[1]
            out.append(rec)
    for s in range(n_seats):
        for r in range(0, n_seats + 1):
            k = t.count("rank", (pl.col("seat") == s) & (pl.col("rank") == r))
            if r == 0 and k == 0:
                continue
            out.append({**proportion("rank_share", {"seat": s, "rank": r}, k, n), "kind": "share"})
    out.append(first_player_record(wins[0], n, n_seats))
    decided = sum(wins)
    if decided > 0 and n_seats > 1:
        p = float(chisquare(wins).pvalue)
        out.append({"metric": "seat_equality_p", "by": {}, "value": p, "ci_low": None, "ci_high": None,
                    "n": decided, "kind": "p_value"})
    return out


def cooperative_metrics(df) -> list[dict]:
    """Team win rate and loss rate (a game neither won nor stalled is lost), from the tally
    ``df`` (or a games frame)."""
    t = _as_tally(df, "cooperative", 0, [])
    n = t.games
    won = t.count("team", pl.col("team_win") != 0)
    lost = t.count("team", (pl.col("team_win") == 0) & (pl.col("stalled") == 0))
    return [proportion("win_rate", {}, won, n), proportion("loss_rate", {}, lost, n)]


def _ratio_mean(metric: str, values: np.ndarray, counts: np.ndarray) -> dict[str, Any]:
    """A mean record of the float ``values`` weighted by the int ``counts`` (a histogram of
    per-game values), with its sd and normal 95 % interval, kept inside [0, 1] (a share)."""
    c = np.asarray(counts, dtype=float)
    v = np.asarray(values, dtype=float)
    n = int(c.sum())
    m = float((c * v).sum() / n) if n else float("nan")
    sd = float(np.sqrt((c * (v - m) ** 2).sum() / (n - 1))) if n > 1 else float("nan")
    lo, hi = mean_interval(m, sd, n)
    if n > 1:
        lo, hi = max(0.0, lo), min(1.0, hi)
    return {"metric": metric, "by": {}, "value": m, "ci_low": lo, "ci_high": hi, "n": n, "kind": "mean", "sd": sd,
            "unit": "%"}


def tension_metrics(t, mode: str) -> list[dict]:
    """The tension records (docs/tension.md, :mod:`sim.games.tension`) from the tally ``t``
    holding :func:`tension_tally_spec`; none when it does not. Competitive, among the games with
    a winner: ``lead_changes`` (mean), ``decisive_point`` (mean share of the game's rounds before
    the winner led alone for good), ``comeback_rate`` (the winner trailed at the midpoint),
    ``runaway_rate`` (the midpoint's sole leader won; games with one), ``margin`` (mean final
    progress gap) and ``drama`` (mean, a share of the winner's final progress). Cooperative:
    ``lost_round`` (mean, lost games), ``closest_call`` and ``rounds_one_short`` (means, won
    games), ``one_short_rate`` (all games: the final count ended on exactly the limit)."""
    from sim.tally import mean_record

    if mode == "competitive":
        if "tension_lead" not in t.hists:
            return []
        won = t.count("tension_lead")
        h = t.hist("tension_decisive")
        share = decisive_share(h["d"].to_numpy(), h["r"].to_numpy())
        runaway = t.hist("tension_runaway")
        return [
            mean_record("lead_changes", {}, *t.counts("tension_lead", "lead_changes")),
            _ratio_mean("decisive_point", share, h["count"].to_numpy()),
            proportion("comeback_rate", {}, t.count("tension_mid", pl.col("deficit") > 0), won),
            proportion("runaway_rate", {}, int(runaway.filter(pl.col("won") != 0)["count"].sum()),
                       int(runaway["count"].sum())),
            mean_record("margin", {}, *t.counts("tension_margin", "margin")),
            {**mean_record("drama", {}, *t.counts("tension_drama", "drama"), scale=1000), "unit": "%"},
        ]
    if "tension_coop" not in t.hists:
        return []
    h = t.hist("tension_coop")
    lost = h.filter((pl.col("team_win") == 0) & (pl.col("stalled") == 0) & (pl.col("lost_round") >= 0))
    won = h.filter(pl.col("team_win") != 0)

    def agg(frame, key):
        g = frame.group_by(key).agg(pl.col("count").sum()).sort(key)
        return g[key].to_numpy(), g["count"].to_numpy().astype(np.int64)

    return [
        mean_record("lost_round", {}, *agg(lost, "lost_round")),
        mean_record("closest_call", {}, *agg(won, "closest_call")),
        mean_record("rounds_one_short", {}, *agg(won, "rounds_one_short")),
        proportion("one_short_rate", {}, int(h.filter(pl.col("one_short") != 0)["count"].sum()), t.games),
    ]


def common_metrics(df, mode: str, n_seats: int, labels: list[str]) -> list[dict]:
    """Every common metric for a game of ``mode`` ("competitive" / "cooperative"), from the
    :class:`sim.tally.Tally` ``df`` (holding :func:`common_tally_spec`) or a games frame."""
    t = _as_tally(df, mode, n_seats, labels)
    if mode == "competitive":
        head = competitive_metrics(t, n_seats, labels)
    else:
        head = cooperative_metrics(t)
    return head + length_metrics(t) + tension_metrics(t, mode)


# ---------------------------------------------------------------------------- the catalogue

RECORD_KINDS = ("proportion", "share", "mean", "quantile", "difference", "p_value")
"""The ``kind`` of a record: proportion = a rate among games (Wilson interval), share = a part
of a whole (among games, turns or choices), mean (normal interval), quantile (no interval),
difference (of two rates, in points), p_value."""


def common_catalogue(mode: str, length_unit: str = "player turns", cards: bool = True) -> dict[str, MetricDef]:
    """The catalogue of the common metrics (:func:`common_metrics`) of a game of ``mode``;
    ``length_unit`` is what the ``turns`` column counts in that game ("player turns", "rounds");
    ``cards``: the game declares :data:`CARD_COLUMNS` (else no reshuffle metrics)."""
    u = length_unit
    out = [
        MetricDef("stall_rate", f"share of games stopped by the turn cap (turn_cap {u}) with no winner",
                  "% of games", "proportion"),
        MetricDef("turns_mean", f"mean game length, in {u} per game (stalled games included)", u, "mean"),
        MetricDef("turns_p05", f"5th percentile of game length: 5 % of games are this short or shorter ({u})",
                  u, "quantile"),
        MetricDef("turns_p50", f"median game length ({u}): half the games are this long or shorter", u,
                  "quantile"),
        MetricDef("turns_p95", f"95th percentile of game length: 5 % of games are longer ({u})", u,
                  "quantile"),
    ]
    if cards:
        out += [
            MetricDef("reshuffles_mean", "times per game the discard pile was shuffled into a new draw pile",
                      "reshuffles per game", "mean"),
            MetricDef("starved_draw_rate", "share of games with at least one draw cut short because the draw "
                      "and discard piles were both empty", "% of games", "proportion"),
        ]
    if mode == "competitive":
        out += [
            MetricDef("lead_changes", "times per game the lead passed from one seat to another, the leader being "
                      "the one seat ahead in progress (the game's RULES.md \"Tension\") at the end of a round; a "
                      "tie keeps the lead with its holder (games with a winner)", "lead changes per game", "mean"),
            MetricDef("decisive_point", "share of the game's rounds played before the winner took the lead for "
                      "good (0: it led from the first round; 1: it was not ahead alone even at the end); games "
                      "with a winner", "share of the game", "mean"),
            MetricDef("comeback_rate", "share of games with a winner in which the winner was behind at the "
                      "midpoint round (another seat had more progress)", "% of games", "proportion"),
            MetricDef("runaway_rate", "share of games in which the seat leading alone at the midpoint round "
                      "won (games with a winner and a sole midpoint leader)", "% of games", "proportion"),
            MetricDef("margin", "the winner's final progress minus the runner-up's (the best other seat's), "
                      "in the game's progress units; games with a winner", "progress units", "mean"),
            MetricDef("drama", "how far behind the eventual winner was while it trailed: its mean deficit "
                      "over the rounds it was behind, as a share of its final progress (0 when it never "
                      "trailed); games with a winner (Ludii's Drama)", "share of the winner's progress", "mean"),
        ]
        out = [
            MetricDef("win_rate", "share of games a seat won (by seat); by policy: wins per game and seat "
                      "the policy sat in", "% of games", "proportion", by=(("seat",), ("policy",))),
            MetricDef("rank_share", "share of games a seat finished at a rank (rank 1 = first to finish; "
                      "rank 0 = unranked, the game stopped before the seat finished)", "% of games", "share",
                      by=(("rank", "seat"),)),
            MetricDef("first_player_advantage", "seat 0's win rate minus the fair share 1/seats, in points",
                      "percentage points", "difference"),
            MetricDef("seat_equality_p", "p-value of a chi-square test that every seat wins equally often "
                      "(decided games only); small = the seats differ beyond sampling noise", "p", "p_value"),
        ] + out
    else:
        out += [
            MetricDef("lost_round", "the round in which a lost game reached the complaint limit (lost games)",
                      "round", "mean"),
            MetricDef("closest_call", "the most complaints a won game reached (won games; the limit minus 1 is "
                      "as close as a win comes)", "complaints", "mean"),
            MetricDef("rounds_one_short", "rounds a won game ended one complaint short of the limit (won games)",
                      "rounds per game", "mean"),
            MetricDef("one_short_rate", "share of games the final count lost with exactly the complaint limit: "
                      "one complaint fewer and the team had won", "% of games", "proportion"),
        ]
        out = [
            MetricDef("win_rate", "share of games the team won", "% of games", "proportion"),
            MetricDef("loss_rate", "share of games the team lost (neither won nor stalled)", "% of games",
                      "proportion"),
        ] + out
    return {m.name: m for m in out}


def report_info(gdef) -> dict[str, Any]:
    """What the report needs to say about a game, from its :class:`sim.games.base.GameDef`
    fields (the defaults suit a competitive game in seat order): ``length_unit``,
    ``seat_note`` (how seats take turns), ``calibration``, ``failure_metrics`` (metric names
    whose largest records are a cooperative game's main failure modes), ``rounds_metric`` (a
    metric of rounds per game beside turns), ``seat_axis`` (the x label of per-seat plots),
    ``progress_unit`` (what the tension records count, :mod:`sim.games.tension`)."""
    return {
        "length_unit": gdef.length_unit,
        "seat_note": gdef.seat_note,
        "calibration": gdef.calibration_note,
        "failure_metrics": tuple(gdef.failure_metrics),
        "rounds_metric": gdef.rounds_metric,
        "seat_axis": gdef.seat_axis,
        "progress_unit": getattr(gdef, "progress_unit", "progress points"),
    }


def catalogue(gdef) -> dict[str, MetricDef]:
    """The metric catalogue of game ``gdef``: the common metrics of its mode (defined here)
    merged with the game's ``GameDef.catalogue`` (a tuple of :class:`MetricDef`). A game entry
    with the name of a common metric adds its ``by`` groupings (a game's ``win_rate`` by start
    position) and replaces the definition when it gives one. Nothing is imported or played."""
    out = common_catalogue(gdef.mode, gdef.length_unit, has_cards(gdef))
    for m in gdef.catalogue:
        if m.name in out:
            base = out[m.name]
            by = base.by + tuple(b for b in m.by if b not in base.by)
            out[m.name] = MetricDef(m.name, m.definition or base.definition, m.unit or base.unit,
                                    m.kind or base.kind, by, {**base.codes, **m.codes})
        else:
            out[m.name] = m
    return out


def catalogue_names(gdef) -> dict[str, set[frozenset]]:
    """Metric name -> the sets of ``by`` keys its records may have (the shape
    :func:`sim.check.gate.check_metric_names` takes), from :func:`catalogue`."""
    return {k: {frozenset(b) for b in m.by} for k, m in catalogue(gdef).items()}


def spread(a: dict, b: dict) -> dict[str, Any]:
    """The difference ``a - b`` of two proportion records (value and 95 % normal interval).

    Records from the same games (two seats' or two start positions' win rates: multinomial
    shares, negatively correlated) use var = (pa + pb - (pa - pb)^2) / n; records over different samples (two
    policies' win rates per seat-appearance) add the two variances, which ignores the
    dependence of seats within a game. Returns a ``difference`` record named ``spread``."""
    pa, pb = float(a["value"]), float(b["value"])
    na, nb = int(a["n"]), int(b["n"])
    d = pa - pb
    if na == nb and a.get("by", {}).keys() == b.get("by", {}).keys() and a.get("by", {}).keys() in ({"seat"},
                                                                                             {"start_pos"}):
        var = max(pa + pb - d * d, 0.0) / na if na else float("nan")
    else:
        var = (pa * (1 - pa) / na if na else float("nan")) + (pb * (1 - pb) / nb if nb else float("nan"))
    se = float(np.sqrt(var))
    z = 1.959963984540054
    return {"metric": "spread", "by": {}, "value": d, "ci_low": d - z * se, "ci_high": d + z * se,
            "n": min(na, nb), "kind": "difference"}
