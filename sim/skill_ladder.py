"""The skill ladder of ``sim skill --ladder``: does the balance hold for novices and for experts?

A **ladder** is a list of skill levels, weakest first; each level is one seat table (a policy
with its weights, as a config's ``seats`` list holds it; its name is the seat's label, or its
policy's name marked with a ``mistake`` rate). The ladder is built from the game's policies
(:func:`default_ladder`: ``random``, ``greedy`` erring half the time, ``greedy``, ``heuristic``,
the look-ahead policy at its default budget and at twice it). A config may give its own as
``[skill] ladder = [{ policy = "...", weights = {...}, label = "..." }, ...]``.

For every level the **whole table** plays at that level: every seat the level's seat table, no
rotation (the seats are alike), the config's seed, so every level plays the same deals (common
random numbers). Each level's run is :func:`sim.compile.run_from_dict` of the config with its
``seats``, ``games`` and ``rotate_seats`` replaced: ``sim run`` of that config gives the same
games bit for bit.

Records (``skill.json`` ``metrics``):

* ``skill_ladder`` by ``{level, seat}``: the seat's win rate at that level (Wilson 95 %);
  a cooperative game: by ``{level}``, the team's win rate;
* ``skill_ladder_first_player`` by ``{level}``: the first player's win rate minus the fair share
  1/S, the interval its Wilson interval shifted alike (competitive): seat 0, unless the game's
  ``per_game`` hook gives its own ``first_player_advantage`` outcome (Yukon Airways draws its
  start player), the same first player as the run's ``first_player_advantage``;
* ``skill_ladder_length`` by ``{level}``: mean length (``turns``) with its normal 95 % interval;
* ``skill_ladder_shift`` by ``{level, seat}``: the change of the seat's win rate from the level
  below, paired game by game on the same deals (:func:`sim.stats.paired_difference`);
* ``skill_step`` by ``{level, below}`` (competitive): the gap between adjacent levels, "does
  each step of skill pay?": one seat at the level against S - 1 seats of the level below,
  rotated seats (games rounded up to whole rotations of S!), its win rate (Wilson) against the
  fair share 1/S.

Levels whose policy looks ahead play ``lookahead_games`` (default: a tenth of ``games``, at
least S!), the first deals of the others.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from sim.compile import CompiledRun, run_from_dict
from sim.config import RunConfig, SeatConfig
from sim.errors import ConfigError
from sim.skill import _seat_table, rotation, round_games

FORMAT = "sim-skill/ladder-1"
"""``format`` of a ladder's ``skill.json`` (a skill folder: :func:`sim.outputs.is_skill_folder`)."""
DEFAULT_GAMES = 2000
PLOT = "skill_ladder.png"
ALPHA = 0.05


@dataclass
class LevelRun:
    """One run of the ladder: ``level`` (its name), ``kind`` "level" (the whole table at the
    level) or "step" (one seat at ``level`` against the level ``below``), the compiled run and,
    once played, its result matrix."""

    level: str
    kind: str
    run: CompiledRun
    below: str | None = None
    matrix: np.ndarray | None = None


@dataclass
class Ladder:
    """A planned (then played) ladder of ``cfg``."""

    cfg: RunConfig
    levels: list[str]
    entries: dict[str, dict]
    runs: list[LevelRun]
    games: int
    lookahead_games: int
    source: str
    wall_s: float = 0.0
    threads: int = 1
    backend: str = "local"
    extra: dict = field(default_factory=dict)

    @property
    def gdef(self):
        return self.runs[0].run.game

    @property
    def competitive(self) -> bool:
        return self.gdef.mode == "competitive"

    @property
    def total_games(self) -> int:
        return sum(r.run.cfg.games for r in self.runs)


def default_ladder(gdef) -> list[dict]:
    """The game's ladder (seat tables, weakest first): ``random``, ``greedy`` with ``mistake =
    0.5``, ``greedy``, ``heuristic``, then every
    look-ahead policy at its default budget and at twice its ``rollouts`` (TAG's SkillLadder
    doubles the budget per rung)."""
    names = [p.name for p in gdef.policies]
    out: list[dict] = []
    if "random" in names:
        out.append({"policy": "random"})
    if "greedy" in names:
        out += [{"policy": "greedy", "weights": {"mistake": 0.5}}, {"policy": "greedy"}]
    out += [{"policy": p.name} for p in gdef.policies
            if p.name not in ("random", "greedy") and not p.lookahead]
    for p in gdef.policies:
        if p.lookahead:
            r = int(p.weights.get("rollouts", 8))
            out += [{"policy": p.name, "label": f"{p.name} x{r}", "weights": {"rollouts": r}},
                    {"policy": p.name, "label": f"{p.name} x{2 * r}", "weights": {"rollouts": 2 * r}}]
    return out


def plan(cfg: RunConfig, games: int = DEFAULT_GAMES, lookahead_games: int | None = None) -> Ladder:
    """Compile every run of the ladder of ``cfg`` (nothing is played): the config's ``[skill]
    ladder`` if it has one, else the game's (:func:`default_ladder`). Raises ConfigError for
    ``--games`` / ``--lookahead-games`` below 1, and for a level the game cannot play (naming
    ``skill.ladder[i]`` and the reason)."""
    from sim.games import get_game

    if games < 1:
        raise ConfigError(cfg.source, "--games", f"must be at least 1, got {games}")
    if lookahead_games is not None and lookahead_games < 1:
        raise ConfigError(cfg.source, "--lookahead-games", f"must be at least 1, got {lookahead_games}")
    gdef = get_game(cfg.game)
    S = cfg.n_seats
    competitive = gdef.mode == "competitive"
    own = cfg.skill.ladder if cfg.skill is not None and cfg.skill.ladder else None
    tables = [_seat_table(s) for s in own] if own else default_ladder(gdef)
    source = "config [skill] ladder" if own else "the default ladder of the game's policies"
    la_games = lookahead_games if lookahead_games is not None else max(games // 10, rotation(S) if competitive else 1)
    entries: dict[str, dict] = {}
    runs: list[LevelRun] = []
    key = "skill.ladder" if own else "ladder"

    def compiled(seats: list, n: int, rotate: bool, i: int) -> CompiledRun:
        raw = dict(cfg.raw)
        raw.update(seats=seats, games=n, seed=cfg.seed, rotate_seats=rotate)
        raw.pop("skill", None)
        try:
            return run_from_dict(raw, cfg.source)
        except ConfigError as e:
            raise ConfigError(e.file, f"{key}[{i}]", f"{e.reason} (level {i}: {tables[i]})") from None

    levels: list[str] = []
    lookahead: dict[str, bool] = {}
    for i, t in enumerate(tables):
        seat = SeatConfig.model_validate(t)
        name = seat.name
        if name in entries:
            raise ConfigError(cfg.source, f"{key}[{i}]", f"level {name!r} is listed twice; give one a label")
        try:
            la = gdef.policy(seat.policy).lookahead
        except KeyError:
            raise ConfigError(cfg.source, f"{key}[{i}].policy",
                              f"unknown policy {seat.policy!r}; one of {[p.name for p in gdef.policies]}") from None
        entries[name] = t
        levels.append(name)
        lookahead[name] = la
        n = la_games if la else games
        runs.append(LevelRun(name, "level", compiled([t] * S, n, False, i)))
    if competitive:
        for i in range(1, len(levels)):
            hi, lo = levels[i], levels[i - 1]
            n = la_games if (lookahead[hi] or lookahead[lo]) else games
            n = round_games(n, S, True)
            runs.append(LevelRun(hi, "step", compiled([tables[i]] + [tables[i - 1]] * (S - 1), n, True, i), below=lo))
    return Ladder(cfg, levels, entries, runs, games, la_games, source, extra={"lookahead": lookahead})


def play(ladder: Ladder, threads: int | None = None, on_progress: Callable[[int], None] | None = None,
         backend: str = "local", workers: int = 2) -> Ladder:
    """Play every run of ``ladder`` (:func:`sim.api.play_run`); fills each run's matrix."""
    from sim.api import play_run

    wall = 0.0
    for r in ladder.runs:
        r.matrix, w, nthreads = play_run(r.run, threads, on_progress, backend, workers)
        wall += w
        ladder.threads = nthreads
    ladder.wall_s = wall
    ladder.backend = backend
    return ladder


# ------------------------------------------------------------------------------ statistics
def _col(r: LevelRun, name: str) -> np.ndarray:
    return r.matrix[:, r.run.game.column_names(r.run.n_seats).index(name)]


def _wins(r: LevelRun, S: int) -> np.ndarray:
    """bool[games, S]: seat s won game g (competitive); bool[games, 1]: the team won."""
    if r.run.game.mode == "competitive":
        w = _col(r, "winner")
        return w[:, None] == np.arange(S)[None, :]
    return (_col(r, "team_win") != 0)[:, None]


def _step_wins(r: LevelRun) -> np.ndarray:
    """bool[games]: the stepping seat (entry 0, rotated) won."""
    run = r.run
    g = np.arange(r.matrix.shape[0], dtype=np.int64)
    tested = np.argmax(run.perms[g % run.perms.shape[0]] == 0, axis=1)
    return _col(r, "winner") == tested


def _first_player_wins(r: LevelRun) -> int:
    """Games of level run ``r`` its first player won, as the run and ``sim check`` count them
    (:func:`sim.check.paired.per_game`'s ``first_player_advantage``: seat 0, unless the game's
    ``per_game`` hook names another, as Yukon Airways' drawn start player)."""
    from sim.check.paired import per_game
    from sim.runner import games_frame

    num, _den = per_game(games_frame(r.run, r.matrix), r.run.cfg, "competitive", r.run.game.name)["first_player_advantage"]
    return int(np.rint(num.sum()))


def records(ladder: Ladder) -> list[dict]:
    """The records of the module docstring, from the played runs."""
    from sim.metrics import mean, proportion
    from sim.stats import paired_difference

    S = ladder.cfg.n_seats
    fair = 1.0 / S
    out: list[dict] = []
    level_runs = [r for r in ladder.runs if r.kind == "level"]
    prev = None
    for r in level_runs:
        w = _wins(r, S)
        n = w.shape[0]
        if ladder.competitive:
            for s in range(S):
                out.append(proportion("skill_ladder", {"level": r.level, "seat": s}, int(w[:, s].sum()), n))
            p0 = proportion("skill_ladder", {}, _first_player_wins(r), n)
            out.append({"metric": "skill_ladder_first_player", "by": {"level": r.level}, "value": p0["value"] - fair,
                        "ci_low": p0["ci_low"] - fair, "ci_high": p0["ci_high"] - fair, "n": n, "kind": "difference"})
        else:
            out.append(proportion("skill_ladder", {"level": r.level}, int(w[:, 0].sum()), n))
        out.append(mean("skill_ladder_length", {"level": r.level}, _col(r, "turns")))
        if prev is not None:
            wp = _wins(prev, S)
            m = min(n, wp.shape[0])
            for s in range(w.shape[1]):
                a, b = w[:m, s], wp[:m, s]
                nb, nc = int((a & ~b).sum()), int((~a & b).sum())
                d, lo, hi, p = paired_difference(nb, nc, m)
                by = {"level": r.level, "below": prev.level} | ({"seat": s} if ladder.competitive else {})
                out.append({"metric": "skill_ladder_shift", "by": by, "value": d, "ci_low": lo, "ci_high": hi,
                            "n": m, "p": p, "kind": "paired_difference"})
        prev = r
    for r in ladder.runs:
        if r.kind != "step":
            continue
        w = _step_wins(r)
        rec = proportion("skill_step", {"level": r.level, "below": r.below}, int(w.sum()), int(w.size))
        rec["gap"] = rec["value"] - fair
        rec["pays"] = bool(rec["ci_low"] > fair)
        out.append(rec)
    return out


def verdict(ladder: Ladder, recs: list[dict]) -> str:
    """The answer first (markdown): does the balance hold for novices and for experts, and does
    each step of skill pay?"""
    from sim.report.format import fmt_pct

    S = ladder.cfg.n_seats
    fair = 1.0 / S
    if not ladder.competitive:
        rates = [r for r in recs if r["metric"] == "skill_ladder"]
        lo, hi = min(rates, key=lambda r: r["value"]), max(rates, key=lambda r: r["value"])
        return (f"**The team wins from {fmt_pct(lo['value'])} ({lo['by']['level']}) to {fmt_pct(hi['value'])} "
                f"({hi['by']['level']}) of the same deals across the {len(ladder.levels)} levels.**")
    parts = []
    off = []
    for lv in ladder.levels:
        rs = [r for r in recs if r["metric"] == "skill_ladder" and r["by"].get("level") == lv]
        bad = [r for r in rs if r["ci_high"] < fair or r["ci_low"] > fair]
        if bad:
            off.append(f"{lv} (seat " + ", ".join(f"{r['by']['seat']} {fmt_pct(r['value'])}" for r in bad) + ")")
    if off:
        parts.append(f"**The balance does not hold at every level:** a seat's win rate is off the fair share "
                     f"{fmt_pct(fair)} beyond noise at " + "; ".join(off) + ".")
    else:
        parts.append(f"**The balance holds at every level:** no seat's win rate is off the fair share "
                     f"{fmt_pct(fair)} beyond noise, from {ladder.levels[0]} to {ladder.levels[-1]}.")
    fp = [r for r in recs if r["metric"] == "skill_ladder_first_player"]
    if fp:
        lo, hi = min(fp, key=lambda r: r["value"]), max(fp, key=lambda r: r["value"])
        parts.append(f"The first player's advantage runs from {lo['value'] * 100:+.1f} points ({lo['by']['level']}) to "
                     f"{hi['value'] * 100:+.1f} points ({hi['by']['level']}).")
    steps = [r for r in recs if r["metric"] == "skill_step"]
    if steps:
        pays = [r for r in steps if r["pays"]]
        fails = [f"{r['by']['below']} -> {r['by']['level']} ({fmt_pct(r['value'])})" for r in steps if not r["pays"]]
        parts.append(f"{len(pays)} of {len(steps)} steps of skill pay (one seat a level up wins more than "
                     f"{fmt_pct(fair)} beyond noise)" + (": not " + "; ".join(fails) if fails else "") + ".")
    return " ".join(parts)


FIRST_PLAYER_SEAT0 = "seat 0's win rate minus the fair share, in points."
"""What the First player column is when the game declares no other first player (a skill.json
written before ``first_player_doc``)."""


def _first_player_doc(gdef) -> str:
    """The game's definition of ``first_player_advantage`` (its catalogue entry: Yukon Airways
    names its drawn start player), else :data:`FIRST_PLAYER_SEAT0`."""
    from sim.metrics import catalogue

    m = catalogue(gdef).get("first_player_advantage")
    return m.definition if m is not None else FIRST_PLAYER_SEAT0


def summary(ladder: Ladder) -> dict:
    """The content of ``skill.json`` for a ladder."""
    import sim
    from sim.api import git_revision, versions

    recs = records(ladder)
    cfg, gdef = ladder.cfg, ladder.gdef
    S = cfg.n_seats
    return {
        "format": FORMAT, "game": gdef.name, "title": gdef.title, "rules_version": gdef.version, "mode": gdef.mode,
        "run": cfg.run_name, "config": str(cfg.source), "config_hash": cfg.config_hash(), "seed": cfg.seed,
        "n_seats": S, "fair_share": 1.0 / S if ladder.competitive else None, "games": ladder.games,
        "length_unit": gdef.length_unit, "seat_note": gdef.seat_note,
        "first_player_doc": _first_player_doc(gdef),
        "lookahead_games": ladder.lookahead_games, "ladder_source": ladder.source, "levels": ladder.levels,
        "entries": ladder.entries, "lookahead": [lv for lv in ladder.levels if ladder.extra["lookahead"][lv]],
        "runs": [{"level": r.level, "kind": r.kind, "below": r.below, "games": r.run.cfg.games,
                  "rotate_seats": r.run.cfg.rotate_seats} for r in ladder.runs],
        "metrics": recs, "alpha": ALPHA, "verdict": verdict(ladder, recs),
        "manifest": {"backend": ladder.backend, "threads": ladder.threads, "wall_s": round(ladder.wall_s, 4),
                     "games_total": ladder.total_games,
                     "games_per_s": round(ladder.total_games / ladder.wall_s, 1) if ladder.wall_s > 0 else None,
                     "versions": versions(), "git_revision": git_revision(), "source_hash": sim.source_hash(),
                     "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")},
    }


# ------------------------------------------------------------------------------ report
def plot(data: dict, folder: Path) -> str:
    """One chart: every seat's win rate (95 % Wilson bars) against the level, the fair share
    dashed (a cooperative game: the team's win rate). Returns the file name."""
    from sim.report.plots import DPI, _plt

    plt = _plt()
    levels = data["levels"]
    x = np.arange(len(levels))
    fig, ax = plt.subplots(figsize=(max(6.0, 1.2 * len(levels) + 2), 4.2))
    recs = [r for r in data["metrics"] if r["metric"] == "skill_ladder"]
    seats = sorted({r["by"].get("seat", 0) for r in recs})
    k = len(seats)
    for j, s in enumerate(seats):
        rs = [next(r for r in recs if r["by"]["level"] == lv and r["by"].get("seat", 0) == s) for lv in levels]
        v = np.array([r["value"] for r in rs]) * 100
        lo = v - np.array([r["ci_low"] for r in rs]) * 100
        hi = np.array([r["ci_high"] for r in rs]) * 100 - v
        dx = (j - (k - 1) / 2) * 0.06
        ax.errorbar(x + dx, v, yerr=[lo, hi], marker="o", capsize=3,
                    label=f"seat {s}" if data["mode"] == "competitive" else "team")
    if data["fair_share"]:
        ax.axhline(data["fair_share"] * 100, color="grey", linestyle="--", linewidth=1, label="fair share")
    ax.set_xticks(x, levels, rotation=20, ha="right")
    ax.set_xlabel("skill level of the whole table (weakest first)")
    ax.set_ylabel("win rate (%)")
    ax.set_title(f"{data['title']}: win rate by seat at each skill level (95% intervals)", fontsize=10)
    ax.grid(axis="y", color="#dddddd", linewidth=0.8)
    ax.set_axisbelow(True)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(folder / PLOT, dpi=DPI)
    plt.close(fig)
    return PLOT


def render_markdown(data: dict, figure: str | None) -> str:
    """The text of a ladder's ``skill.md`` from its ``skill.json`` content ``data``."""
    from sim.report.format import fmt_count, fmt_interval, fmt_pct, md_escape, md_table

    comp = data["mode"] == "competitive"
    S = data["n_seats"]
    levels = data["levels"]
    by = {}
    for r in data["metrics"]:
        by.setdefault(r["metric"], []).append(r)
    out = [f"# {md_escape(data['title'])}: skill ladder `{md_escape(data['run'])}`", "",
           "Does the balance hold for novices and for experts?", "", data["verdict"], ""]
    facts = [("Config", f"`{md_escape(data['config'])}` (hash `{data['config_hash']}`)"),
             ("Seed", f"`{data['seed']}` (every level: the same deals, common random numbers)"),
             ("Seats", str(S)), ("Ladder", md_escape(data["ladder_source"])),
             ("Games", f"{fmt_count(data['games'])} per level"
              + (f"; {fmt_count(data['lookahead_games'])} where a look-ahead policy plays "
                 f"({', '.join(md_escape(v) for v in data['lookahead'])})" if data["lookahead"] else ""))]
    out += [md_table(["Skill ladder", ""], facts, align="ll"), ""]
    length = {r["by"]["level"]: r for r in by.get("skill_ladder_length", [])}
    if comp:
        fp = {r["by"]["level"]: r for r in by.get("skill_ladder_first_player", [])}
        rows = []
        for lv in levels:
            cells = [fmt_interval(next(r for r in by["skill_ladder"] if r["by"]["level"] == lv
                                       and r["by"]["seat"] == s)) for s in range(S)]
            f = fp[lv]
            rows.append([f"**{md_escape(lv)}**"] + cells
                        + [f"{f['value'] * 100:+.1f} pp [{f['ci_low'] * 100:+.1f}, {f['ci_high'] * 100:+.1f}]",
                           fmt_interval(length[lv]), fmt_count(length[lv]["n"])])
        out += ["## Seat win rates at each level", "",
                f"*The whole table plays the level; win rate of each seat with its 95% Wilson interval (fair share "
                f"{fmt_pct(data['fair_share'])}). {md_escape(data.get('seat_note', 'Seat 0 plays first.'))} "
                f"First player: {md_escape(data.get('first_player_doc', FIRST_PLAYER_SEAT0)).rstrip('.')}. "
                f"Length in {md_escape(data.get('length_unit', 'turns'))}.*", "",
                md_table(["Level"] + [f"seat {s}" for s in range(S)] + ["First player", "Length", "Games"], rows), ""]
    else:
        rows = [[md_escape(lv), fmt_interval(next(r for r in by["skill_ladder"] if r["by"]["level"] == lv)),
                 fmt_interval(length[lv]), fmt_count(length[lv]["n"])] for lv in levels]
        out += ["## Team win rate at each level", "", md_table(["Level", "Team win rate", "Length", "Games"], rows), ""]
    if figure:
        out += [f"![win rate by seat against skill level]({figure})", ""]
    steps = by.get("skill_step", [])
    if steps:
        rows = [[f"{md_escape(r['by']['below'])} -> {md_escape(r['by']['level'])}", fmt_interval(r),
                 f"{r['gap'] * 100:+.1f} pp", "yes" if r["pays"] else "no", fmt_count(r["n"])] for r in steps]
        out += ["## Does each step of skill pay?", "",
                f"*One seat at the level against {S - 1} seats of the level below (rotated seats, the same deals); "
                f"a step pays when the seat's win rate is above the fair share {fmt_pct(data['fair_share'])} beyond "
                "its 95% interval.*", "", md_table(["Step", "Win rate of the seat a level up", "Gap", "Pays", "Games"],
                                                    rows), ""]
    shifts = by.get("skill_ladder_shift", [])
    if shifts:
        rows = [[f"{md_escape(r['by']['below'])} -> {md_escape(r['by']['level'])}",
                 (f"seat {r['by']['seat']}" if "seat" in r["by"] else "team"),
                 f"{r['value'] * 100:+.1f} pp [{r['ci_low'] * 100:+.1f}, {r['ci_high'] * 100:+.1f}]",
                 fmt_count(r["n"])] for r in shifts]
        out += ["## How the balance moves between adjacent levels", "",
                "*Change of a seat's win rate from the level below, paired game by game on the same deals (95% "
                "interval).*", "", md_table(["Levels", "Seat", "Change", "Games"], rows), ""]
    rows = [[md_escape(lv), f"`{md_escape(data['entries'][lv]['policy'])}`",
             md_escape(", ".join(f"{k} = {v:g}" for k, v in (data['entries'][lv].get('weights') or {}).items())
                       or "defaults")] for lv in levels]
    out += ["## The levels", "", md_table(["Level", "Policy", "Weights"], rows, align="lll"), "",
            "Each level's row is an ordinary run of the config with every seat playing the level and the seed "
            "above (`rotate_seats = false`): `sim run` of that config plays the same games. `mistake` is the "
            "engine's error rate (docs/mistakes.md).", "",
            "Files: `skill.json` (every record with its interval), `skill.md`, `skill.html`"
            + (f", `{figure}`" if figure else "") + ".", ""]
    return "\n".join(out)


def write_report(out_dir: str | Path, data: dict) -> Path:
    """Write ``skill.json``, the chart, ``skill.md`` and ``skill.html`` into ``out_dir``
    atomically (:func:`sim.outputs.atomic_folder`; a folder that is not a skill folder sim
    wrote is refused)."""
    from sim.jsonio import write_json
    from sim.outputs import atomic_folder, is_skill_folder
    from sim.skill import skill_page

    with atomic_folder(out_dir, is_skill_folder, "skill") as tmp:
        figure = plot(data, tmp)
        md = render_markdown(data, figure)
        (tmp / "skill.md").write_text(md, encoding="utf-8")
        (tmp / "skill.html").write_text(skill_page(tmp, md, f"{data['title']}: skill ladder {data['run']}", figure),
                                        encoding="utf-8")
        write_json(data, tmp / "skill.json")
    return Path(out_dir)
