"""The skill table of ``sim skill``: does skill matter, and how much?

Competitive game with S seats: for every ordered pair (``policy``, ``field``) of the listed
entries, one ordinary run whose seats are one ``policy`` entry (the tested seat, entry 0) and
S - 1 ``field`` entries, with ``rotate_seats`` on (every seating permutation equally often:
the games of a cell are rounded up to a multiple of S!, so the tested seat sits in every seat
equally often) and the config's seed. Game g of every cell draws its deal from the chance
stream of (seed, g), so all cells play the same deals in the same seat of the tested policy
(common random numbers) and two cells of one field can be compared game by game
(:func:`sim.stats.paired_difference`). A cell's value is the share of its games the tested
seat wins; a stalled game (no winner) is a loss. The diagonal (a policy against copies of
itself) is the fair share 1/S up to stalls and noise.

Cooperative game: one run per entry, the entry playing every seat (the whole team); the
value is the team win rate (a 1-D table).

Every cell is a run of :func:`sim.compile.run_from_dict` (the config with its ``seats``,
``games`` and ``rotate_seats`` replaced) played by a registered backend
(:func:`sim.api.play_run`): ``sim run`` of the same seat list and seed gives the same games
bit for bit. A look-ahead entry (``PolicyDef.lookahead``) plays with the weights (budget) and
base its config seat names, else its defaults; its cells may play fewer games
(``lookahead_games``).

Records (``skill.json`` ``metrics``): :func:`sim.metrics.proportion` records named
``skill_win_rate`` with ``by = {"policy": P, "field": F}`` (competitive) or
``{"policy": P}`` (cooperative), Wilson 95 % intervals, plus ``stalls`` (games of the cell
without a result).
"""

from __future__ import annotations

import datetime as _dt
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np

from sim.compile import CompiledRun, run_from_dict
from sim.config import RunConfig, excerpt
from sim.errors import ConfigError

FORMAT = "sim-skill/1"
"""``format`` of ``skill.json`` (the ownership mark :func:`sim.outputs.is_skill_folder` reads)."""
DEFAULT_GAMES = 2000
"""Games per cell when ``--games`` is not given."""
METRIC = "skill_win_rate"
HEATMAP = "skill_heatmap.png"
ALPHA = 0.05
"""Familywise error rate (Holm) of the paired comparisons."""


@dataclass
class Cell:
    """One run of the table: ``policy`` in the tested seat against ``field`` (None for a
    cooperative team), ``run`` compiled, ``wins`` bool[games] (filled by :func:`play_table`:
    did the tested seat / the team win game g), ``stalls`` games without a result."""

    policy: str
    field: str | None
    run: CompiledRun
    wins: np.ndarray | None = None
    stalls: int = 0

    @property
    def games(self) -> int:
        return self.run.cfg.games


@dataclass
class SkillTable:
    """A planned (then played) skill table of ``cfg``: the entries by name (seat tables as in
    a config's ``seats`` list), the cells in row-major order, the games per cell asked for
    (``games``, ``lookahead_games``) and as played (rounded to whole seat rotations)."""

    cfg: RunConfig
    names: list[str]
    entries: dict[str, dict]
    cells: list[Cell]
    games: int
    lookahead_games: int
    games_requested: int
    lookahead_games_requested: int
    wall_s: float = 0.0
    threads: int = 1
    backend: str = "local"
    workers: int | None = None

    @property
    def gdef(self):
        return self.cells[0].run.game

    @property
    def competitive(self) -> bool:
        return self.gdef.mode == "competitive"

    @property
    def n_seats(self) -> int:
        return self.cfg.n_seats

    @property
    def total_games(self) -> int:
        return sum(c.games for c in self.cells)

    def is_lookahead(self, name: str) -> bool:
        from sim.userpol import is_user_spec

        pol = self.entries[name]["policy"]
        return not is_user_spec(pol) and self.gdef.policy(pol).lookahead


def _seat_table(seat) -> dict:
    """A config seat (:class:`sim.config.SeatConfig`) as the table a config's seats list holds."""
    out: dict[str, Any] = {"policy": seat.policy}
    if seat.label is not None:
        out["label"] = seat.label
    if seat.weights:
        out["weights"] = dict(seat.weights)
    if seat.base is not None:
        out["base"] = seat.base
    if seat.base_weights:
        out["base_weights"] = dict(seat.base_weights)
    return out


def entries_of(cfg: RunConfig, names: list[str] | None) -> dict[str, dict]:
    """The table's entries, name -> seat table. ``names`` (default: every policy of the
    game, in its declared order) are seat names of the config (a label, or a policy a seat
    plays: that seat's weights and base are used), policy names of the game (default
    weights) or user policies ``file.py:function`` (relative to the config's folder, default
    weights; docs/policies.md). Raises ConfigError (key ``--policies``) for an unknown or repeated name or an
    empty list."""
    from sim.games import get_game
    from sim.userpol import is_user_spec

    gdef = get_game(cfg.game)
    known = [p.name for p in gdef.policies]
    seats: dict[str, Any] = {}
    for seat in cfg.seats:
        seats.setdefault(seat.name, seat)
    if names is None:
        names = known
    if not names:
        raise ConfigError(cfg.source, "--policies", "names no policy")
    out: dict[str, dict] = {}
    for n in names:
        if n in out:
            raise ConfigError(cfg.source, "--policies", f"{excerpt(n)} is listed twice")
        if n in seats:
            out[n] = _seat_table(seats[n])
        elif n in known or is_user_spec(n):  # a user policy file.py:function (docs/policies.md)
            out[n] = {"policy": n}
        else:
            extra = [s for s in seats if s not in known]
            raise ConfigError(cfg.source, "--policies",
                              f"unknown policy {excerpt(n)}; one of {known + extra}")
    return out


def rotation(n_seats: int) -> int:
    """Games of one full seat rotation: S! (every seating permutation once)."""
    return math.factorial(n_seats)


def round_games(games: int, n_seats: int, competitive: bool) -> int:
    """``games`` rounded up to a multiple of S! (competitive: the tested seat then sits in
    every seat equally often); unchanged for a cooperative game."""
    if not competitive:
        return games
    r = rotation(n_seats)
    return -(-games // r) * r


def plan(cfg: RunConfig, names: list[str] | None = None, games: int = DEFAULT_GAMES,
         lookahead_games: int | None = None) -> SkillTable:
    """Compile every cell of the skill table of ``cfg`` (nothing is played).

    ``games`` per cell (>= 1; rounded up to whole seat rotations in a competitive game),
    ``lookahead_games`` per cell in which a look-ahead entry plays (default ``games``).
    Raises ConfigError for bad input (``--policies``, ``--games``, ``--lookahead-games``, or a
    cell the game cannot set up, naming the cell)."""
    from sim.games import get_game
    from sim.userpol import is_user_spec

    if games < 1:
        raise ConfigError(cfg.source, "--games", f"must be at least 1, got {games}")
    if lookahead_games is not None and lookahead_games < 1:
        raise ConfigError(cfg.source, "--lookahead-games", f"must be at least 1, got {lookahead_games}")
    gdef = get_game(cfg.game)
    entries = entries_of(cfg, names)
    competitive = gdef.mode == "competitive"
    S = cfg.n_seats
    la_req = games if lookahead_games is None else lookahead_games
    n_plain = round_games(games, S, competitive)
    n_la = round_games(la_req, S, competitive)

    def lookahead(name: str) -> bool:
        pol = entries[name]["policy"]
        return not is_user_spec(pol) and gdef.policy(pol).lookahead

    cells: list[Cell] = []
    pairs = [(p, f) for p in entries for f in entries] if competitive else [(p, None) for p in entries]
    for p, f in pairs:
        la = lookahead(p) or (f is not None and lookahead(f))
        seats = [entries[p]] + [entries[f]] * (S - 1) if competitive else [entries[p]] * S
        raw = dict(cfg.raw)
        raw.update(seats=seats, games=n_la if la else n_plain, seed=cfg.seed, rotate_seats=competitive)
        where = f"skill cell policy={p}" + (f", field={f}" if f is not None else "")
        try:
            run = run_from_dict(raw, cfg.source)
        except ConfigError as e:
            raise ConfigError(e.file, e.key, f"{e.reason} ({where})") from None
        except (OverflowError, MemoryError, ValueError) as e:
            raise ConfigError(cfg.source, "", f"the game cannot be set up ({where}): {type(e).__name__}: {e}") from None
        cells.append(Cell(p, f, run))
    return SkillTable(cfg, list(entries), entries, cells, n_plain, n_la, games, la_req)


def cell_wins(cell: Cell, matrix: np.ndarray) -> tuple[np.ndarray, int]:
    """From a cell's result matrix int32[games, C]: bool[games] (the tested seat, entry 0,
    won game g; for a team, the team won) and the count of games without a result (stalls).
    The tested seat of game g is where entry 0 sits in ``run.perms[g % P]``, as
    :func:`sim.api.games_frame` places the entries."""
    run = cell.run
    cols = run.game.column_names(run.n_seats)
    stalls = int((matrix[:, cols.index("stalled")] != 0).sum()) if "stalled" in cols else 0
    if run.game.mode == "competitive":
        g = np.arange(matrix.shape[0], dtype=np.int64)
        rows = run.perms[g % run.perms.shape[0]]
        tested = np.argmax(rows == 0, axis=1)
        return matrix[:, cols.index("winner")] == tested, stalls
    return matrix[:, cols.index("team_win")] != 0, stalls


def play_table(table: SkillTable, threads: int | None = None, on_progress: Callable[[int], None] | None = None,
               backend: str = "local", workers: int = 2) -> SkillTable:
    """Play every cell of ``table`` with :func:`sim.api.play_run` (``on_progress(n)`` after
    each piece of n games, over the whole table); fills each cell's ``wins`` and ``stalls``
    and the table's wall time. Raises ValueError for an unknown backend or thread count."""
    from sim.api import play_run

    wall = 0.0
    for cell in table.cells:
        matrix, w, nthreads = play_run(cell.run, threads, on_progress, backend, workers)
        cell.wins, cell.stalls = cell_wins(cell, matrix)
        wall += w
        table.threads = nthreads
    table.wall_s = wall
    table.backend = backend
    table.workers = None if backend == "local" else workers
    return table


# ------------------------------------------------------------------------------ statistics


def cell_record(cell: Cell) -> dict:
    """The ``skill_win_rate`` record of a played cell (:func:`sim.metrics.proportion`)."""
    from sim.metrics import proportion

    by = {"policy": cell.policy} if cell.field is None else {"policy": cell.policy, "field": cell.field}
    rec = proportion(METRIC, by, int(cell.wins.sum()), int(cell.wins.size))
    rec["stalls"] = cell.stalls
    return rec


def comparisons(table: SkillTable) -> list[dict]:
    """Every pair of entries (A before B in the table's order) compared in the same field
    (competitive: the two cells of one column; cooperative: the two teams), game by game over
    the deals both played (the first min(n_A, n_B) games): ``diff`` = rate(A) - rate(B) with
    its 95 % interval and exact McNemar p (:func:`sim.stats.paired_difference`), ``p_holm``
    and ``significant`` under Holm's correction at :data:`ALPHA` over all comparisons."""
    from sim.stats import holm, paired_difference

    by_key = {(c.policy, c.field): c for c in table.cells}
    fields = table.names if table.competitive else [None]
    out = []
    for f in fields:
        for i, a in enumerate(table.names):
            for b in table.names[i + 1:]:
                ca, cb = by_key[(a, f)], by_key[(b, f)]
                m = min(ca.wins.size, cb.wins.size)
                wa, wb = ca.wins[:m], cb.wins[:m]
                nb, nc = int((wa & ~wb).sum()), int((~wa & wb).sum())
                d, lo, hi, p = paired_difference(nb, nc, m)
                out.append({"field": f, "a": a, "b": b, "diff": d, "ci_low": lo, "ci_high": hi, "p": p,
                            "n": m, "only_a": nb, "only_b": nc, "rate_a": float(wa.mean()) if m else None,
                            "rate_b": float(wb.mean()) if m else None, "n_a": int(ca.wins.size),
                            "n_b": int(cb.wins.size)})
    if out:
        reject, adj = holm([c["p"] for c in out], ALPHA)
        for c, r, q in zip(out, reject, adj):
            c["p_holm"] = float(q)
            c["significant"] = bool(r)
    return out


def verdict(table: SkillTable, records: list[dict], comps: list[dict]) -> str:
    """The first line of the report: does skill matter, and how much (markdown)."""
    from sim.report.format import fmt_interval, fmt_pct

    sig = sum(c["significant"] for c in comps)
    if not comps:
        return (f"**One entry only ({table.names[0]}): nothing to compare.** "
                f"It wins {fmt_interval(records[0])}.")
    biggest = max(comps, key=lambda c: abs(c["diff"]))
    if table.competitive:
        fair = 1.0 / table.n_seats
        lo = min(records, key=lambda r: r["value"])
        hi = max(records, key=lambda r: r["value"])
        head = ("**Skill matters" if sig else "**No evidence that skill matters") + \
               f" ({sig} of {len(comps)} paired differences significant, Holm {ALPHA:.0%}).**"
        spread = (f" One seat's win rate runs from {fmt_interval(lo)} ({lo['by']['policy']} against a field of "
                  f"{lo['by']['field']}) to {fmt_interval(hi)} ({hi['by']['policy']} against a field of "
                  f"{hi['by']['field']}); fair share 1/{table.n_seats} = {fmt_pct(fair)}.")
        strong, weak = (biggest["a"], biggest["b"]) if biggest["diff"] >= 0 else (biggest["b"], biggest["a"])
        d = abs(biggest["diff"])
        same = (f" Against the same field ({biggest['field']}), playing {strong} instead of {weak} moves one "
                f"seat's win rate by {d * 100:.1f} points [{_abs_ci(biggest)}]{_games_of(biggest)}.")
        return head + spread + same
    lo = min(records, key=lambda r: r["value"])
    hi = max(records, key=lambda r: r["value"])
    head = ("**Skill matters" if sig else "**No evidence that skill matters") + \
           f" ({sig} of {len(comps)} paired differences significant, Holm {ALPHA:.0%}).**"
    if lo["value"] == hi["value"]:
        return head + f" Every team policy wins {fmt_interval(lo)} of the same deals."
    return (head + f" The team wins from {fmt_interval(lo)} ({lo['by']['policy']}) to {fmt_interval(hi)} "
            f"({hi['by']['policy']}) of the same deals.")


def _games_of(c: dict) -> str:
    """Which games a comparison's difference is over, when they are not every game of both
    cells (a look-ahead cell plays fewer): the deals both played and each side's rate on them,
    so the figure can be checked against its parts, and the cells' own game counts (the
    table's rates are over those)."""
    n_a, n_b = c.get("n_a"), c.get("n_b")
    if n_a is None or n_b is None or n_a == n_b == c["n"] or c.get("rate_a") is None:
        return ""
    strong, weak = ("a", "b") if c["diff"] >= 0 else ("b", "a")
    rs, rw = c[f"rate_{strong}"], c[f"rate_{weak}"]
    return (f", on the {c['n']:,} deals both played ({c[strong]} {rs * 100:.1f}% − {c[weak]} {rw * 100:.1f}% of "
            f"them; the table's cells are over {c[f'n_{strong}']:,} and {c[f'n_{weak}']:,} games)")


def _abs_ci(c: dict) -> str:
    lo, hi = (c["ci_low"], c["ci_high"]) if c["diff"] >= 0 else (-c["ci_high"], -c["ci_low"])
    return f"{lo * 100:.1f}, {hi * 100:.1f}"


def summary(table: SkillTable) -> dict:
    """The content of ``skill.json``: run facts (config, config hash, seed, games, rules
    version), ``metrics`` (the cell records), ``comparisons`` and the ``verdict``."""
    import sim
    from sim.api import git_revision, versions

    records = [cell_record(c) for c in table.cells]
    comps = comparisons(table)
    cfg, gdef = table.cfg, table.gdef
    return {
        "format": FORMAT, "game": gdef.name, "title": gdef.title, "rules_version": gdef.version,
        "mode": gdef.mode, "run": cfg.run_name, "config": str(cfg.source), "config_hash": cfg.config_hash(),
        "seed": cfg.seed, "n_seats": table.n_seats,
        "fair_share": 1.0 / table.n_seats if table.competitive else None,
        "games": table.games, "lookahead_games": table.lookahead_games,
        "games_requested": table.games_requested, "lookahead_games_requested": table.lookahead_games_requested,
        "rotation": rotation(table.n_seats) if table.competitive else None,
        "policies": table.names, "entries": table.entries,
        "lookahead": [n for n in table.names if table.is_lookahead(n)],
        "metrics": records, "comparisons": comps, "alpha": ALPHA,
        "verdict": verdict(table, records, comps),
        "manifest": {
            "backend": table.backend, "threads": table.threads, "workers": table.workers,
            "wall_s": round(table.wall_s, 4), "games_total": table.total_games,
            "games_per_s": round(table.total_games / table.wall_s, 1) if table.wall_s > 0 else None,
            "versions": versions(), "git_revision": git_revision(), "source_hash": sim.source_hash(),
            "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        },
    }


# ------------------------------------------------------------------------------ report


def plot_heatmap(data: dict, folder: Path) -> str:
    """Write the win-rate heat map (rows: the tested policy, columns: the field; a cooperative
    table is one column) into ``folder``; returns its file name. Colours diverge around the
    fair share 1/S (competitive) or run 0..1 (cooperative); each cell is annotated with its
    rate and 95 % interval."""
    from matplotlib.colors import TwoSlopeNorm

    from sim.report.plots import DPI, _plt

    plt = _plt()
    names = data["policies"]
    recs = {(r["by"]["policy"], r["by"].get("field")): r for r in data["metrics"]}
    fields = names if data["mode"] == "competitive" else [None]
    grid = np.array([[recs[(p, f)]["value"] for f in fields] for p in names], dtype=float)
    k = len(names)
    fig, ax = plt.subplots(figsize=(1.6 + 1.5 * len(fields), 1.0 + 0.75 * k))
    if data["mode"] == "competitive":
        fair = data["fair_share"]
        vmax = max(2 * fair, float(np.nanmax(grid)) if grid.size else 0.0, fair + 1e-6)
        norm = TwoSlopeNorm(vmin=0.0, vcenter=fair, vmax=vmax)
        im = ax.imshow(grid, cmap="RdBu_r", norm=norm, aspect="auto")
        ax.set_xticks(range(k), names, rotation=20, ha="right")
        ax.set_xlabel(f"field (the other {data['n_seats'] - 1} seats)")
        ax.set_title(f"{data['title']}: one seat's win rate (fair share {fair:.0%})", fontsize=10)
    else:
        im = ax.imshow(grid, cmap="Blues", vmin=0.0, vmax=1.0, aspect="auto")
        ax.set_xticks([0], ["whole team"])
        ax.set_title(f"{data['title']}: team win rate", fontsize=10)
    ax.set_yticks(range(k), names)
    ax.set_ylabel("policy (tested seat)" if data["mode"] == "competitive" else "team policy")
    for i, p in enumerate(names):
        for j, f in enumerate(fields):
            r = recs[(p, f)]
            v = r["value"]
            rgba = im.cmap(im.norm(v))
            dark = 0.299 * rgba[0] + 0.587 * rgba[1] + 0.114 * rgba[2] < 0.5
            ax.text(j, i, f"{v:.1%}\n[{r['ci_low']:.1%}, {r['ci_high']:.1%}]", ha="center", va="center",
                    fontsize=8, color="white" if dark else "black")
    fig.colorbar(im, ax=ax, format=lambda x, _: f"{x:.0%}", shrink=0.85)
    fig.tight_layout()
    fig.savefig(folder / HEATMAP, dpi=DPI)
    plt.close(fig)
    return HEATMAP


def render_markdown(data: dict, figure: str | None) -> str:
    """The text of ``skill.md`` from the ``skill.json`` content ``data``."""
    from sim.report.format import fmt_count, fmt_interval, fmt_p, fmt_pct, md_escape, md_table

    comp = data["mode"] == "competitive"
    names = data["policies"]
    recs = {(r["by"]["policy"], r["by"].get("field")): r for r in data["metrics"]}
    S = data["n_seats"]
    out = [f"# {md_escape(data['title'])}: skill table `{md_escape(data['run'])}`", "", data["verdict"], ""]
    games_note = f"{fmt_count(data['games'])} per cell"
    if comp and data["games"] != data["games_requested"]:
        games_note += (f" ({fmt_count(data['games_requested'])} asked for, rounded up to whole seat rotations "
                       f"of {S}! = {data['rotation']} games)")
    facts = [
        ("Game", f"{md_escape(data['title'])} (`{md_escape(data['game'])}`, rules version {md_escape(data['rules_version'])})"),
        ("Mode", md_escape(data["mode"])),
        ("Config", f"`{md_escape(data['config'])}` (hash `{data['config_hash']}`)"),
        ("Seed", f"`{data['seed']}` (every cell: the same deals, common random numbers)"),
        ("Seats", str(S)),
        ("Games", games_note),
    ]
    if data["lookahead"]:
        facts.append(("Look-ahead cells", f"{fmt_count(data['lookahead_games'])} games per cell in which "
                      f"{', '.join(md_escape(n) for n in data['lookahead'])} plays (the first deals of the others)"))
    if comp:
        facts.append(("Fair share", f"1/{S} = {fmt_pct(data['fair_share'])}"))
    man = data["manifest"]
    speed = f"{man['wall_s']:.1f} s for {fmt_count(man['games_total'])} games"
    if man.get("games_per_s"):
        speed += f" ({man['games_per_s']:,.0f} games/s, {man['backend']})"
    facts.append(("Wall time", speed))
    out += [md_table(["Skill table", ""], facts, align="ll"), ""]

    if comp:
        out += ["## Win rate of one seat against a field", "",
                f"*Row: the policy of the tested seat; column: the policy of the other {S - 1} seats. "
                "Win rate with its 95% Wilson interval; the diagonal (a policy against copies of itself) "
                f"is the fair share {fmt_pct(data['fair_share'])} up to stalls and noise.*", ""]
        rows = []
        for p in names:
            row = [f"**{md_escape(p)}**"]
            for f in names:
                t = fmt_interval(recs[(p, f)])
                row.append(f"*{t}*" if p == f else t)
            rows.append(row)
        out += [md_table(["policy \\ field"] + [md_escape(f) for f in names], rows), ""]
        # the spread per field: who is weakest and strongest against the same opponents
        rows = []
        for f in names:
            col = [recs[(p, f)] for p in names]
            lo, hi = min(col, key=lambda r: r["value"]), max(col, key=lambda r: r["value"])
            rows.append([md_escape(f), f"{md_escape(lo['by']['policy'])}: {fmt_interval(lo)}",
                         f"{md_escape(hi['by']['policy'])}: {fmt_interval(hi)}",
                         f"{(hi['value'] - lo['value']) * 100:.1f} pp", fmt_pct(recs[(f, f)]["value"])])
        out += ["## Spread against each field", "",
                md_table(["Field", "Weakest seat", "Strongest seat", "Spread", "Diagonal"], rows), "",
                "*Spread: strongest minus weakest win rate of one seat against the same field on the same deals.*", ""]
        means = sorted(((float(np.mean([recs[(p, f)]["value"] for f in names])), p) for p in names), reverse=True)
        out += ["Ranking by mean win rate over the fields: "
                + " > ".join(f"{md_escape(p)} ({fmt_pct(m)})" for m, p in means) + ".", ""]
    else:
        out += ["## Team win rate of each policy", "",
                "*Each policy plays the whole team on the same deals; 95% Wilson intervals.*", ""]
        rows = [[md_escape(p), fmt_interval(recs[(p, None)]), fmt_count(recs[(p, None)]["n"]),
                 fmt_count(recs[(p, None)]["stalls"])] for p in names]
        out += [md_table(["Team policy", "Team win rate [95% CI]", "Games", "Stalls"], rows), ""]

    if figure:
        out += [f"![win-rate heat map]({figure})", ""]

    if data["comparisons"]:
        rows = []
        for c in data["comparisons"]:
            rows.append(([md_escape(c["field"])] if comp else [])
                        + [md_escape(c["a"]), md_escape(c["b"]),
                           f"{c['diff'] * 100:+.1f} pp [{c['ci_low'] * 100:+.1f}, {c['ci_high'] * 100:+.1f}]",
                           fmt_count(c["n"]), fmt_p(c["p"], label=False), fmt_p(c["p_holm"], label=False),
                           "yes" if c["significant"] else "no"])
        head = (["Field"] if comp else []) + ["A", "B", "A − B [95% CI]", "Games", "p", "Holm p", "Significant"]
        out += ["## Which differences are significant", "",
                ("*Two policies in the tested seat against the same field, compared game by game on the deals "
                 if comp else "*Two team policies compared game by game on the deals ")
                + "both played (exact McNemar test on the games only one of them won; paired 95% interval); "
                f"Holm correction over all {len(data['comparisons'])} comparisons at {data['alpha']:.0%}.*", "",
                md_table(head, rows), ""]

    rows = []
    for n in names:
        e = data["entries"][n]
        w = ", ".join(f"{k} = {v:g}" for k, v in (e.get("weights") or {}).items()) or "defaults"
        extra = ""
        if n in data["lookahead"]:
            extra = f"; base {md_escape(e.get('base') or 'default')}"
            if e.get("base_weights"):
                extra += " (" + ", ".join(f"{k} = {v:g}" for k, v in e["base_weights"].items()) + ")"
        rows.append([md_escape(n), f"`{md_escape(e['policy'])}`", md_escape(w) + extra])
    out += ["## How it was played", "",
            md_table(["Entry", "Policy", "Weights"], rows, align="lll"), "",
            ("Each cell is an ordinary run of the config with `seats` = one entry of the row's policy followed by "
             f"{S - 1} of the column's, `rotate_seats = true` and the seed above: `sim run` of that config plays "
             "the same games. A stalled game counts as a loss for the tested seat."
             if comp else
             "Each row is an ordinary run of the config with every seat playing the row's policy and the seed above: "
             "`sim run` of that config plays the same games."),
            "An entry named like a seat of the config plays that seat's weights (and base); any other plays the "
            "policy's defaults.", "",
            "Files: `skill.json` (every cell with its interval, the comparisons), `skill.md`, `skill.html`"
            + (f", `{figure}`" if figure else "") + ".", ""]
    return "\n".join(out)


def skill_page(folder: Path, md: str, title: str, figure: str | None) -> str:
    """``skill.html`` of a skill table or ladder: the markdown as one self-contained page, its
    chart ``figure`` (a PNG in ``folder``) embedded (render_html embeds ``plots/<name>`` from the
    folder given)."""
    from sim.report.writer import render_html

    page_md = md.replace(f"]({figure})", f"](plots/{figure})") if figure else md
    return render_html(page_md, title, folder)


def write_skill_report(out_dir: str | Path, data: dict) -> Path:
    """Write ``skill.json`` (strict JSON, :mod:`sim.jsonio`), the heat map, ``skill.md`` and
    ``skill.html`` into ``out_dir`` atomically (:func:`sim.outputs.atomic_folder`): on any
    failure nothing at ``out_dir`` changes. A folder that exists and is not a skill folder
    sim wrote is refused (:class:`sim.errors.OutputError`)."""
    from sim.jsonio import write_json
    from sim.outputs import atomic_folder, is_skill_folder

    with atomic_folder(out_dir, is_skill_folder, "skill") as tmp:
        figure = plot_heatmap(data, tmp)
        md = render_markdown(data, figure)
        (tmp / "skill.md").write_text(md, encoding="utf-8")
        (tmp / "skill.html").write_text(skill_page(tmp, md, f"{data['title']}: skill table {data['run']}", figure),
                                        encoding="utf-8")
        write_json(data, tmp / "skill.json")
    return Path(out_dir)
