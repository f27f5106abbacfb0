"""Per-game outcomes of the headline metrics, so two runs on the same seed can be compared
game by game (paired), and the headline set itself.

**Headline metrics** (what ``sim check`` gates on): :data:`COMMON_HEADLINE` (seat and policy
win rates, the team win rate, first-player advantage, stall rate, game length) plus the game's
own ``GameDef.headline`` (declared in ``sim/games/<game>/catalogue.py``). A pattern is ``"name"`` (records of that name with no ``by``), ``"name[k]"``
(records grouped by exactly the key ``k``) or ``"name[*]"`` (every record of that name).

**Per-game outcomes.** Every headline metric is a ratio of per-game sums, ``r = sum(num_g) /
sum(den_g)``: a per-game yes/no or value has ``den_g = 1`` (win_rate by seat, stall_rate,
turns_mean), a rate per seat appearance or a share of turns has a varying ``den_g``
(win_rate by policy, weather_share). :func:`per_game` gives ``label -> (num, den)`` (float64
arrays over the run's games) for the common headline metrics, plus the game's ``per_game``
hook (``GameDef.per_game``, ``metrics.per_game(df, cfg)``) for its ``headline``.

**Baselines store them** (the choice of issue 11: compact, no replay of old code needed):
``sim baseline`` writes ``"per_game": {"games": N, "encoding": "zlib+base64", "records":
{label: {"num": ..., "den": ... | null, "den_of"?: label}}}`` where each array is the smallest
of uint8 / int16 / int32 that holds it (when whole) or float64, little-endian, zlib-compressed
and base64-encoded (den null = all ones; ``den_of`` = the same den as that earlier record, e.g.
the turns of every weather share). A baseline without the key is compared unpaired.
"""

from __future__ import annotations

import base64
import re
import zlib
from typing import Any

import numpy as np

COMMON_HEADLINE = ("win_rate[seat]", "win_rate[policy]", "win_rate", "first_player_advantage", "stall_rate",
                   "turns_mean")
"""Headline patterns every game has (those its mode produces)."""

DUPLICATES = {("rank_share", "rank", 1): "win_rate"}
"""(metric, by key, value) -> the common metric it repeats: left out of the check and compare
tables (a game adds its own with ``GameDef.duplicates``)."""


def is_duplicate(rec: dict, game_duplicates: tuple[str, ...] = ()) -> bool:
    """True when a record repeats another metric: ``rank_share[rank=1]`` is ``win_rate`` by
    seat, and whatever the game's ``GameDef.duplicates`` patterns (``game_duplicates``: the
    record's label, ``*`` matching any text) name."""
    by = rec.get("by") or {}
    for (m, k, v), _ in DUPLICATES.items():
        if rec.get("metric") == m and by.get(k) == v:
            return True
    if not game_duplicates:
        return False
    label = _label(str(rec.get("metric")), by)
    return any(re.fullmatch(re.escape(p).replace(r"\*", ".*"), label) for p in game_duplicates)


def duplicate_patterns(game: str | None) -> tuple[str, ...]:
    """The ``GameDef.duplicates`` of registered game ``game`` (empty for any other name)."""
    gdef = registered_game(game)
    return tuple(gdef.duplicates) if gdef is not None else ()


def registered_game(game: str | None):
    """The :class:`sim.games.base.GameDef` of registered game ``game``; None for a name that is
    not registered (hand-made summaries, tests)."""
    from sim.games import GAMES, get_game

    if not game or game not in GAMES:
        return None
    return get_game(game)


def headline_patterns(game: str) -> tuple[str, ...]:
    """The common headline patterns plus the game's ``GameDef.headline``; ``("*",)`` (every
    metric is headline) for a game that is not registered (hand-made summaries, tests)."""
    gdef = registered_game(game)
    if gdef is None:
        return ("*",)
    return COMMON_HEADLINE + tuple(gdef.headline)


def matches(pattern: str, rec: dict) -> bool:
    """True when metric record ``rec`` is one of ``pattern`` (see the module docstring)."""
    if pattern == "*":
        return True
    name, _, key = pattern.partition("[")
    if rec.get("metric") != name:
        return False
    by = rec.get("by") or {}
    key = key.rstrip("]")
    if key == "*":
        return True
    return set(by) == ({key} if key else set())


def is_headline(rec: dict, patterns: tuple[str, ...]) -> bool:
    return any(matches(p, rec) for p in patterns)


def _label(metric: str, by: dict) -> str:
    from sim.records import metric_label

    return metric_label(metric, by)


def per_game(df, cfg, mode: str, game: str) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """``label -> (num, den)`` float64 arrays [games] of every headline metric of a run
    (frame ``df`` of :func:`sim.api.games_frame`, config ``cfg``), game index order."""
    n = df.height
    S = cfg.n_seats
    one = np.ones(n)
    out: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    if mode == "competitive":
        winner = df["winner"].to_numpy()
        for s in range(S):
            out[_label("win_rate", {"seat": s})] = ((winner == s).astype(float), one)
        out["first_player_advantage"] = ((winner == 0).astype(float), one)
        labels = dict.fromkeys(seat.name for seat in cfg.seats)
        for lab in labels:
            num, den = np.zeros(n), np.zeros(n)
            for s in range(S):
                at = (df[f"policy_s{s}"] == lab).to_numpy()
                den += at
                num += at & (winner == s)
            if den.sum():
                out[_label("win_rate", {"policy": lab})] = (num, den)
    else:
        out["win_rate"] = (df["team_win"].to_numpy().astype(float), one)
    out["stall_rate"] = (df["stalled"].to_numpy().astype(float), one)
    out["turns_mean"] = (df["turns"].to_numpy().astype(float), one)
    from sim.metrics import tension_per_game

    out.update(tension_per_game(df, mode))  # not gated unless [checks] names them, but paired
    gdef = registered_game(game)
    if gdef is not None:
        out.update({k: (np.asarray(a, float), np.asarray(b, float)) for k, (a, b) in gdef.per_game(df, cfg).items()})
    return out


def folder_per_game(folder, summary: dict, df) -> tuple[dict[str, tuple[np.ndarray, np.ndarray]] | None, str]:
    """Per-game headline outcomes of a report folder (``sim run --out``): :func:`per_game` of
    its games ``df`` (``games.parquet``, None when absent) under its ``config.toml`` (the
    config as run), in game index order.

    Returns ``(outcomes, "")``, or ``(None, why)`` when the folder cannot be paired: no
    games.parquet, a config.toml that does not load, game indices that are not 0 .. N-1, or
    a frame per_game cannot read (the comparison is then unpaired and says why)."""
    from pathlib import Path

    from sim.config import load
    from sim.errors import ConfigError
    from sim.games import GAMES

    folder = Path(folder)
    if df is None:
        return None, f"{folder.name} has no games.parquet"
    game = str(summary.get("game"))
    if game not in GAMES:
        return None, f"{folder.name}: game {game!r} is not registered here"
    try:
        cfg = load(folder / "config.toml")
    except (ConfigError, OSError, ValueError) as e:  # ValueError: undecodable text, bad TOML
        return None, f"{folder.name}/config.toml does not load ({type(e).__name__})"
    if "game_index" not in df.columns or not np.array_equal(df["game_index"].to_numpy(), np.arange(df.height)):
        return None, f"{folder.name}/games.parquet: game indices are not 0 .. N-1"
    try:
        return per_game(df, cfg, str(summary.get("mode") or "competitive"), game), ""
    except Exception as e:  # noqa: BLE001 - a frame of another version: compare unpaired, say why
        return None, f"{folder.name}/games.parquet: no per-game outcomes ({type(e).__name__}: {e})"


def _enc(x: np.ndarray) -> str:
    arr = x.astype("<f8")
    if np.all(x == np.round(x)):
        lo, hi = x.min(initial=0), x.max(initial=0)
        for dt in ("u1", "<i2", "<i4"):
            info = np.iinfo(np.dtype(dt))
            if info.min <= lo and hi <= info.max:
                arr = x.astype(dt)
                break
    return arr.dtype.str + ":" + base64.b64encode(zlib.compress(arr.tobytes(), 9)).decode("ascii")


def _dec(s: str) -> np.ndarray:
    dt, _, body = s.partition(":")
    return np.frombuffer(zlib.decompress(base64.b64decode(body)), dtype=np.dtype(dt)).astype(float)


def encode(pg: dict[str, tuple[np.ndarray, np.ndarray]]) -> dict[str, Any]:
    """The baseline's ``per_game`` entry (see the module docstring)."""
    recs: dict[str, dict] = {}
    games = 0
    seen: list[tuple[np.ndarray, str]] = []  # a den shared by several records is stored once
    for k, (num, den) in pg.items():
        games = num.size
        rec: dict[str, Any] = {"num": _enc(num), "den": None}
        if not np.all(den == 1):
            ref = next((lab for d, lab in seen if np.array_equal(d, den)), None)
            if ref is None:
                rec["den"] = _enc(den)
                seen.append((den, k))
            else:
                rec["den_of"] = ref
        recs[k] = rec
    return {"games": games, "encoding": "zlib+base64", "records": recs}


def decode(entry: Any) -> dict[str, tuple[np.ndarray, np.ndarray]] | None:
    """Inverse of :func:`encode`; None when ``entry`` is absent or malformed (the comparison
    is then unpaired)."""
    if not isinstance(entry, dict) or not isinstance(entry.get("records"), dict):
        return None
    try:
        n = int(entry["games"])
        out = {}
        for k, r in entry["records"].items():
            num = _dec(r["num"])
            if r.get("den_of") is not None:
                den = out[r["den_of"]][1]
            else:
                den = np.ones(n) if r.get("den") is None else _dec(r["den"])
            if num.size != n or den.size != n:
                return None
            out[k] = (num, den)
        return out
    except (KeyError, TypeError, ValueError, zlib.error):
        return None
