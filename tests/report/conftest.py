"""Synthetic runs for the report tests: a 4-seat competitive race and a cooperative game,
with metric records computed from the frame the way the metrics module would."""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from sim.config import RunConfig
from sim.games.base import GameDef
from sim.stats import mean_interval, wilson

COMPETITIVE_TOML = """\
# a comment that must survive the copy
game = "fake_race"
games = 4000
seed = 7
rotate_seats = false
seats = ["greedy", "greedy", "heuristic", "random"]

[fake_race]
deck = "standard"
"""

COOP_TOML = """\
game = "fake_coop"
games = 3000
seed = 11
seats = ["greedy", "greedy", "greedy"]

[fake_coop]
storms = 3
"""


def make_gdef(name: str, title: str, mode: str, plots=None) -> GameDef:
    """A GameDef whose functions are test doubles (the report only reads name, title, mode
    and plots; no game package behind it)."""
    return GameDef(
        name=name, title=title, rulebook="", version="1", mode=mode, min_seats=2, max_seats=5, section=dict,
        policies=(), columns=(), package="", overrides={"metrics": lambda df, cfg: [], "plots": plots},
    )


def prop(metric: str, by: dict, k: int, n: int, kind: str = "proportion") -> dict:
    lo, hi = wilson(k, n)
    return {"metric": metric, "by": by, "value": k / n, "ci_low": float(lo), "ci_high": float(hi), "n": n,
            "kind": kind}


def mean_rec(metric: str, by: dict, x: np.ndarray) -> dict:
    m, sd = float(x.mean()), float(x.std(ddof=1))
    lo, hi = mean_interval(m, sd, len(x))
    return {"metric": metric, "by": by, "value": m, "ci_low": lo, "ci_high": hi, "n": len(x), "kind": "mean",
            "sd": sd}


def quant(metric: str, x: np.ndarray, q: float) -> dict:
    return {"metric": metric, "by": {}, "value": float(np.quantile(x, q, method="lower")), "ci_low": None,
            "ci_high": None, "n": len(x), "kind": "quantile"}


def common_records(df: pl.DataFrame) -> list[dict]:
    n = df.height
    turns = df["turns"].to_numpy()
    return [
        prop("stall_rate", {}, int(df["stalled"].sum()), n),
        mean_rec("turns_mean", {}, turns.astype(float)),
        quant("turns_p05", turns, 0.05),
        quant("turns_p50", turns, 0.50),
        quant("turns_p95", turns, 0.95),
        mean_rec("reshuffles_mean", {}, df["reshuffles"].to_numpy().astype(float)),
        prop("starved_draw_rate", {}, int((df["starved_draws"] > 0).sum()), n),
    ]


def write_cfg(tmp_path: Path, text: str, stem: str) -> RunConfig:
    src = tmp_path / f"{stem}.toml"
    src.write_text(text, encoding="utf-8")
    raw = tomllib.loads(text)
    common = {k: v for k, v in raw.items() if k != raw["game"]}
    return RunConfig(**common, source=str(src), raw=raw)


def competitive_run(tmp_path: Path, n: int = 4000, plots=None):
    """(cfg, gdef, df, summary, manifest) of a synthetic 4-seat race with seat 0 favoured."""
    rng = np.random.default_rng(1234)
    s = 4
    labels = ["greedy", "greedy", "heuristic", "random"]
    stalled = (rng.random(n) < 0.02).astype(np.int32)
    ranks = np.zeros((n, s), dtype=np.int32)
    winner = np.full(n, -1, dtype=np.int32)
    p = np.array([0.34, 0.24, 0.22, 0.20])
    # finishing order drawn without replacement with weights p (Gumbel top-k trick)
    order = np.argsort(-(np.log(p) + rng.gumbel(size=(n, s))), axis=1)
    done = stalled == 0
    rows = np.nonzero(done)[0]
    for r in range(s):
        ranks[rows, order[rows, r]] = r + 1
    winner[done] = order[done, 0]
    turns = np.where(stalled == 1, 200, rng.poisson(60, n)).astype(np.int32)
    reshuffles = rng.poisson(1.3, n).astype(np.int32)
    starved = (rng.random(n) < 0.05).astype(np.int32)
    data = {"game_index": np.arange(n, dtype=np.int64)}
    for i in range(s):
        data[f"policy_s{i}"] = [labels[i]] * n
    data.update({"turns": turns, "stalled": stalled, "reshuffles": reshuffles, "starved_draws": starved,
                 "winner": winner})
    for i in range(s):
        data[f"rank_s{i}"] = ranks[:, i]
    df = pl.DataFrame(data)

    recs: list[dict] = []
    for i in range(s):
        recs.append(prop("win_rate", {"seat": i}, int((winner == i).sum()), n))
    for lab in dict.fromkeys(labels):
        seats = [i for i in range(s) if labels[i] == lab]
        k = sum(int((winner == i).sum()) for i in seats)
        recs.append(prop("win_rate", {"policy": lab}, k, n * len(seats)))
    for i in range(s):
        for r in range(0, s + 1):
            recs.append(prop("rank_share", {"seat": i, "rank": r}, int((ranks[:, i] == r).sum()), n, "share"))
    w0 = recs[0]
    recs.append({"metric": "first_player_advantage", "by": {}, "value": w0["value"] - 1 / s,
                 "ci_low": w0["ci_low"] - 1 / s, "ci_high": w0["ci_high"] - 1 / s, "n": n, "kind": "difference",
                 "reference": 1 / s})
    recs.append({"metric": "seat_equality_p", "by": {}, "value": 3.2e-9, "ci_low": None, "ci_high": None,
                 "n": int((winner >= 0).sum()), "kind": "p_value"})
    recs += common_records(df)
    # game-specific metrics
    recs.append(prop("weather_share", {"weather": "storm"}, 1234, 5000, "share"))
    recs.append(prop("weather_share", {"weather": "clear"}, 3766, 5000, "share"))
    recs.append({"metric": "failures_mean", "by": {"seat": 2}, "value": 1.4567, "ci_low": 1.4012,
                 "ci_high": 1.5122, "n": n, "kind": "mean", "sd": 1.2})
    recs.append({"metric": "longest_delay", "by": {}, "value": 17.0, "ci_low": None, "ci_high": None, "n": n,
                 "kind": "count"})

    cfg = write_cfg(tmp_path, COMPETITIVE_TOML, "fake_race")
    gdef = make_gdef("fake_race", "Fake Race", "competitive", plots)
    summary = {"game": "fake_race", "title": "Fake Race", "run": cfg.run_name, "mode": "competitive", "seed": 7,
               "games": n, "config_hash": cfg.config_hash(), "seats": labels, "metrics": recs}
    manifest = {"sim_version": "0.1.0", "git_revision": "abc1234", "seed": 7, "config_hash": cfg.config_hash(),
                "wall_time_s": 1.25, "games_per_s": n / 1.25,
                "versions": {"sim": "0.1.0", "python": "3.11", "numba": "0.68", "polars": "1.0"}}
    return cfg, gdef, df, summary, manifest


def coop_run(tmp_path: Path, n: int = 3000):
    """(cfg, gdef, df, summary, manifest) of a synthetic 3-seat cooperative game."""
    rng = np.random.default_rng(99)
    stalled = (rng.random(n) < 0.03).astype(np.int32)
    team_win = ((rng.random(n) < 0.42) & (stalled == 0)).astype(np.int32)
    df = pl.DataFrame({
        "game_index": np.arange(n, dtype=np.int64),
        "policy_s0": ["greedy"] * n, "policy_s1": ["greedy"] * n, "policy_s2": ["greedy"] * n,
        "turns": rng.poisson(30, n).astype(np.int32), "stalled": stalled,
        "reshuffles": np.zeros(n, dtype=np.int32), "starved_draws": np.zeros(n, dtype=np.int32),
        "team_win": team_win,
    })
    k = int(team_win.sum())
    losses = int(((team_win == 0) & (stalled == 0)).sum())
    recs = [prop("win_rate", {}, k, n), prop("loss_rate", {}, losses, n)] + common_records(df)
    cfg = write_cfg(tmp_path, COOP_TOML, "fake_coop")
    gdef = make_gdef("fake_coop", "Fake Coop", "cooperative")
    summary = {"game": "fake_coop", "title": "Fake Coop", "run": cfg.run_name, "mode": "cooperative",
               "seed": 11, "games": n, "config_hash": cfg.config_hash(), "seats": ["greedy"] * 3, "metrics": recs}
    manifest = {"git_revision": "abc1234", "seed": 11, "wall_time_s": 0.5, "versions": {"sim": "0.1.0"}}
    return cfg, gdef, df, summary, manifest


@pytest.fixture
def competitive(tmp_path):
    return competitive_run(tmp_path)


@pytest.fixture
def cooperative(tmp_path):
    return coop_run(tmp_path)


@pytest.fixture
def make_competitive(tmp_path):
    """Factory: ``make_competitive(n=4000, plots=None)`` -> a synthetic competitive run
    (tests import nothing from here: pytest runs with --import-mode=importlib)."""

    def make(n: int = 4000, plots=None):
        return competitive_run(tmp_path, n=n, plots=plots)

    return make


@pytest.fixture
def make_coop(tmp_path):
    """Factory: ``make_coop(n=3000)`` -> a synthetic cooperative run."""

    def make(n: int = 3000):
        return coop_run(tmp_path, n=n)

    return make


def game_plot(df, records, folder):
    """A game-specific plot as a game module would write it."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    share = next(r["value"] for r in records if r["metric"] == "weather_share" and r["by"] == {"weather": "storm"})
    fig, ax = plt.subplots()
    ax.bar(["storm"], [share])
    fig.savefig(folder / "weather.png")
    plt.close(fig)
    return [("Weather", "weather.png")]


@pytest.fixture(scope="module")
def race_report(tmp_path_factory):
    """One competitive report written once per module (with a game plot), for read-only
    tests: ``(out_dir, cfg, gdef, df, summary, manifest)``."""
    from sim.report import write_report

    base = tmp_path_factory.mktemp("race")
    cfg, gdef, df, summary, manifest = competitive_run(base, plots=game_plot)
    out = write_report(base / "reports" / "fake_race", cfg, gdef, df, summary, manifest)
    return out, cfg, gdef, df, summary, manifest


class SavedFigures:
    """Every matplotlib figure saved while active: ``figs`` (kept open for the test to inspect),
    ``saved`` (file names) and ``problems`` (what :func:`sim.report.figcheck.figure_problems`
    found in each, prefixed by its file name)."""

    def __enter__(self):
        from matplotlib.figure import Figure

        from sim.report.figcheck import figure_problems

        self.figs: list = []
        self.saved: list[str] = []
        self.problems: list[str] = []
        self._orig = orig = Figure.savefig
        me = self

        def savefig(fig, fname, *a, **k):
            name = getattr(fname, "name", str(fname)).rsplit("/", 1)[-1]
            me.figs.append(fig)
            me.saved.append(name)
            me.problems += [f"{name}: {p}" for p in figure_problems(fig)]
            return orig(fig, fname, *a, **k)

        Figure.savefig = savefig
        return self

    def __exit__(self, *exc):
        from matplotlib.figure import Figure

        Figure.savefig = self._orig


@pytest.fixture(scope="session")
def saved_figures():
    """The :class:`SavedFigures` recorder (``with saved_figures() as f: ...``)."""
    return SavedFigures
