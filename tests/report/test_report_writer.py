"""write_report: the files of a report, their contents, and atomic replacement."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import tomllib
from pathlib import Path

import polars as pl
import pytest

from sim.report import write_report
from sim.report.format import find

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
FILES = ["report.html", "report.md", "summary.json", "games.parquet", "config.toml", "manifest.json"]


def _pct(r: dict) -> str:
    """The win-rate cell written by hand from a record (1 decimal for n in the thousands)."""
    return f"{r['value'] * 100:.1f}% [{r['ci_low'] * 100:.1f}, {r['ci_high'] * 100:.1f}]"


def _assert_png(path: Path) -> None:
    data = path.read_bytes()
    assert data[:8] == PNG_MAGIC, path
    assert len(data) > 2000, path
    # IHDR width/height: a readable figure, not a 1x1 stub
    w, h = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert 400 <= w <= 2000 and 250 <= h <= 1500, (path, w, h)


def _siblings(parent: Path) -> list[str]:
    return sorted(p.name for p in parent.iterdir())


def test_competitive_report_files_and_contents(race_report):
    out, cfg, gdef, df, summary, manifest = race_report
    assert out.name == "fake_race"
    for f in FILES:
        assert (out / f).is_file(), f
    # nothing else left next to the report (no temp folders) nor in it (no temp JSON files)
    assert _siblings(out.parent) == ["fake_race"]
    assert _siblings(out) == sorted(FILES + ["plots"])

    # summary and manifest round-trip
    assert json.loads((out / "summary.json").read_text()) == summary
    assert json.loads((out / "manifest.json").read_text()) == manifest

    # parquet holds the frame, zstd-compressed
    back = pl.read_parquet(out / "games.parquet")
    assert back.height == 4000
    assert back.equals(df)
    assert back.schema == df.schema


def test_parquet_is_zstd(race_report):
    out = race_report[0]
    raw = (out / "games.parquet").read_bytes()
    assert raw[:4] == b"PAR1" and raw[-4:] == b"PAR1"
    # zstd frames start with magic 28 b5 2f fd
    assert b"\x28\xb5\x2f\xfd" in raw


def test_markdown_tables_show_record_values(race_report):
    out, cfg, gdef, df, summary, manifest = race_report
    md = (out / "report.md").read_text()
    recs = summary["metrics"]
    winner = df["winner"].to_numpy()
    labels = ["greedy", "greedy", "heuristic", "random"]
    for seat in range(4):
        r = find(recs, "win_rate", seat=seat)
        assert r["value"] == pytest.approx((winner == seat).mean())
        assert f"| {seat} | {labels[seat]} | {_pct(r)} | 4,000 |" in md
    # seat 0 is favoured by construction: its interval lies above the fair share
    assert find(recs, "win_rate", seat=0)["ci_low"] > 0.25
    g = find(recs, "win_rate", policy="greedy")
    assert g["n"] == 8000
    assert f"| greedy | {_pct(g)} | 8,000 |" in md
    # rank distribution: a row per seat with 1st..4th and unranked columns
    assert "| Seat | 1st | 2nd | 3rd | 4th | unranked |" in md
    r01 = find(recs, "rank_share", seat=0, rank=1)
    assert f"| 0 (greedy) | {_pct(r01)} |" in md
    # first-player advantage in signed percentage points
    fpa = find(recs, "first_player_advantage")
    assert f"| all games | {fpa['value'] * 100:+.1f} pp [{fpa['ci_low'] * 100:+.1f}, {fpa['ci_high'] * 100:+.1f}]" in md
    # game length: quantiles as integers, mean with its interval and sd
    p50 = find(recs, "turns_p50")["value"]
    assert f"| `turns_p50` | median game length (player turns): half the games are this long or shorter | {int(p50)} |" in md
    mean = find(recs, "turns_mean")
    assert f"| `turns_mean` | mean game length, in player turns per game (stalled games included) | {mean['value']:.1f} [{mean['ci_low']:.1f}, {mean['ci_high']:.1f}] | {mean['sd']:.2f} |" in md
    # game-specific metrics land in the generic table, grouped by name
    assert "| `weather_share` |  | weather storm | 24.7% [23.5, 25.9] | share | 5,000 |" in md
    assert "|  |  | weather clear | 75.3% [74.1, 76.5] | share | 5,000 |" in md
    assert "| `failures_mean` |  | seat 2 (heuristic) | 1.46 [1.40, 1.51] | mean | 4,000 |" in md
    assert "| `longest_delay` |  | all games | 17 | count | 4,000 |" in md
    # headline metrics are not repeated in the generic table
    other = md.split("## Other metrics", 1)[1].split("## Plots", 1)[0]
    assert "win_rate" not in other and "rank_share" not in other and "turns_mean" not in other
    # order of sections
    order = ["## Verdict", "## Plots", "## Win rate by seat", "## Win rate by policy", "## Rank distribution",
             "## First-player advantage", "## Game length", "## Other metrics", "## Run", "## Reproducibility"]
    pos = [md.index("\n" + h) for h in order]
    assert pos == sorted(pos)
    assert "| git_revision | `abc1234` |" in md
    assert "| versions.numba | `0.68` |" in md
    assert "| Games played | 4,000 |" in md
    assert f"| Config hash | `{cfg.config_hash()}` |" in md


def test_plots_written_and_referenced(race_report):
    out = race_report[0]
    names = sorted(p.name for p in (out / "plots").glob("*.png"))
    assert names == ["game_length.png", "rank_distribution.png", "reshuffles.png", "weather.png",
                     "win_rate_policy.png", "win_rate_seat.png"]
    md = (out / "report.md").read_text()
    html = (out / "report.html").read_text()
    for n in names:
        if n != "weather.png":
            _assert_png(out / "plots" / n)
        assert f"](plots/{n})" in md
        # embedded: the page is one file
        assert f'src="plots/{n}"' not in html
        import base64

        assert f'src="data:image/png;base64,{base64.b64encode((out / "plots" / n).read_bytes()).decode()}"' in html
    assert (out / "plots" / "weather.png").read_bytes()[:8] == PNG_MAGIC
    assert "### Weather" in md


def test_html_is_a_page_with_tables(race_report):
    out, cfg, gdef, df, summary, manifest = race_report
    html = (out / "report.html").read_text()
    assert html.startswith("<!doctype html>")
    assert "<style>" in html and "<table>" in html and "</html>" in html
    assert "<title>Fake Race: fake_race</title>" in html
    r = find(summary["metrics"], "win_rate", seat=3)
    assert f"<td>{_pct(r)}</td>" in html.replace(' style="text-align: right;"', "")
    assert "http" not in html.split("<body>")[1]  # nothing fetched from elsewhere


def test_cooperative_report(tmp_path, cooperative):
    cfg, gdef, df, summary, manifest = cooperative
    out = write_report(tmp_path / "reports" / "coop", cfg, gdef, df, summary, manifest)
    md = (out / "report.md").read_text()
    w = find(summary["metrics"], "win_rate")
    assert w["value"] == pytest.approx(df["team_win"].mean())
    assert f"| Team wins | {_pct(w)} | 3,000 |" in md
    loss = find(summary["metrics"], "loss_rate")
    assert f"| Team loses | {_pct(loss)} | 3,000 |" in md
    assert "## Win rate by seat" not in md and "## Rank distribution" not in md
    names = sorted(p.name for p in (out / "plots").glob("*.png"))
    # no reshuffles happened: no reshuffle plot
    assert names == ["game_length.png", "team_outcome.png"]
    for n in names:
        _assert_png(out / "plots" / n)
    assert json.loads((out / "summary.json").read_text()) == summary


def test_replaces_existing_report(tmp_path, competitive):
    cfg, gdef, df, summary, manifest = competitive
    out = tmp_path / "reports" / "x"
    write_report(out, cfg, gdef, df, summary, manifest)
    # an earlier report that showed a plot this one does not make: its plot goes with it (a
    # picture no report.md shows is not ours, and blocks the replacement: test_hostile.py)
    (out / "plots" / "stale.png").write_bytes(b"old plot")
    md = out / "report.md"
    md.write_text("previous report\n\n" + md.read_text() + "\n![stale](plots/stale.png)\n")
    write_report(out, cfg, gdef, df, summary, manifest)
    assert not (out / "plots" / "stale.png").exists()
    assert not md.read_text().startswith("previous report")
    assert _siblings(out.parent) == ["x"]


@pytest.mark.parametrize("layout", [
    {"stale.txt": "old"},                                     # not a report at all
    {"manifest.json": "{}", "src/app.js": "x"},               # a manifest that does not name sim
    {"manifest.json": '{"versions": {"sim": "0.1"}}', "important.txt": "keep"},  # sim's, plus a stranger
])
def test_a_folder_that_is_not_a_sim_report_is_never_replaced(tmp_path, competitive, layout):
    from sim.errors import OutputError

    cfg, gdef, df, summary, manifest = competitive
    out = tmp_path / "x"
    for name, text in layout.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(text)
    with pytest.raises(OutputError, match="is not a sim report folder"):
        write_report(out, cfg, gdef, df, summary, manifest)
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()) == sorted(layout)
    assert _siblings(tmp_path) == sorted(["fake_race.toml", "x"])


def test_failure_leaves_existing_report_untouched(tmp_path, make_competitive):
    def broken(df, records, folder):
        (folder / "half.png").write_bytes(b"junk")
        raise RuntimeError("plot exploded")

    cfg, gdef, df, summary, manifest = make_competitive(plots=broken)
    out = tmp_path / "reports" / "x"
    out.mkdir(parents=True)
    (out / "report.md").write_text("previous report")
    (out / "manifest.json").write_text('{"versions": {"sim": "0.1.0"}}')
    with pytest.raises(RuntimeError, match="plot exploded"):
        write_report(out, cfg, gdef, df, summary, manifest)
    assert sorted(p.name for p in out.iterdir()) == ["manifest.json", "report.md"]
    assert (out / "report.md").read_text() == "previous report"
    assert _siblings(out.parent) == ["x"]  # temp folder removed


def test_failure_without_existing_report_leaves_nothing(tmp_path, make_competitive):
    def lying(df, records, folder):
        return [("Ghost", "ghost.png")]  # claims a file it did not write

    cfg, gdef, df, summary, manifest = make_competitive(plots=lying)
    out = tmp_path / "reports" / "x"
    with pytest.raises(FileNotFoundError, match="ghost.png"):
        write_report(out, cfg, gdef, df, summary, manifest)
    assert not out.exists()
    assert _siblings(out.parent) == []


def test_nan_becomes_null(tmp_path, competitive):
    cfg, gdef, df, summary, manifest = competitive
    summary = dict(summary, metrics=summary["metrics"] + [
        {"metric": "empty_rate", "by": {}, "value": 0.0, "ci_low": math.nan, "ci_high": math.nan, "n": 0,
         "kind": "proportion"}])
    out = write_report(tmp_path / "r", cfg, gdef, df, summary, manifest)
    text = (out / "summary.json").read_text()
    assert "NaN" not in text
    rec = json.loads(text)["metrics"][-1]
    assert rec["ci_low"] is None and rec["ci_high"] is None
    assert "| `empty_rate` |  | all games | 0.0% | proportion | 0 |" in (out / "report.md").read_text()


def test_json_that_cannot_be_written_leaves_the_old_report(tmp_path, competitive):
    """summary.json goes through the one strict writer (sim.jsonio): an object JSON cannot
    hold is an error, not a silently stringified value, and the report in place survives."""
    cfg, gdef, df, summary, manifest = competitive
    out = write_report(tmp_path / "r", cfg, gdef, df, summary, manifest)
    before = (out / "summary.json").read_text()
    with pytest.raises(TypeError, match="not JSON serialisable: object"):
        write_report(tmp_path / "r", cfg, gdef, df, dict(summary, extra=object()), manifest)
    assert (out / "summary.json").read_text() == before
    assert _siblings(tmp_path) == ["fake_race.toml", "r"]  # the config and the report only


def test_config_copied_when_unchanged(race_report):
    out, cfg = race_report[:2]
    assert (out / "config.toml").read_bytes() == Path(cfg.source).read_bytes()


def test_config_records_cli_overrides(tmp_path, competitive):
    cfg, gdef, df, summary, manifest = competitive
    raw = dict(cfg.raw, games=123, seed=42)
    cfg2 = cfg.model_copy(update={"raw": raw, "games": 123, "seed": 42})
    out = write_report(tmp_path / "r", cfg2, gdef, df, summary, manifest)
    text = (out / "config.toml").read_text()
    assert tomllib.loads(text) == raw
    assert "# with command-line overrides: games = 123, seed = 42" in text
    assert "# a comment that must survive the copy" in text


def test_config_serialised_without_source(tmp_path, competitive):
    cfg, gdef, df, summary, manifest = competitive
    raw = dict(cfg.raw, seats=[{"policy": "greedy", "label": "a \"quoted\" one", "weights": {"x": 0.5}},
                               {"policy": "random"}])
    cfg2 = cfg.model_copy(update={"raw": raw, "source": "<memory>"})
    out = write_report(tmp_path / "r", cfg2, gdef, df, summary, manifest)
    text = (out / "config.toml").read_text()
    assert text.startswith("# config as run by sim (serialised")
    assert tomllib.loads(text) == raw


def test_import_is_cheap():
    code = "import sys, sim.report; print(sorted(m for m in ('matplotlib', 'polars', 'markdown') if m in sys.modules))"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert res.stdout.strip() == "[]"


def test_rotated_seats_hide_seat_labels(tmp_path, competitive):
    cfg, gdef, df, summary, manifest = competitive
    cfg = cfg.model_copy(update={"rotate_seats": True})
    out = write_report(tmp_path / "r", cfg, gdef, df, summary, manifest)
    md = (out / "report.md").read_text()
    r = find(summary["metrics"], "win_rate", seat=1)
    assert f"| 1 | {_pct(r)} | 4,000 |" in md
    assert "| Seat | Win rate [95% CI] | Games |" in md
    assert "| Seat entries (rotated over the seats) | 0: greedy, 1: greedy, 2: heuristic, 3: random |" in md
    assert "| 0 (greedy) |" not in md  # rank rows are by seat only
    # issue 33: 4,000 games over the 24 seatings of 4 entries is not an exact balance; say so
    note = ("each of the 24 seating permutations of 4 seat entries played 166 or 167 times (16 of them once "
            "more: 4,000 games is not a multiple of 24; 3,984 or 4,008 games balance exactly)")
    assert f"| Seat rotation | {note} |" in md
    assert f"*Policies rotate over the seats: {note}.*" in md


def test_rotation_note_says_when_the_seatings_are_balanced():
    """Issue 33: rotated seats are exactly balanced only at a multiple of S! games (permutation
    game_index % S!), unless every entry is the same policy."""
    from sim.report.writer import rotation_note

    assert rotation_note(["a", "b", "c", "d"], 48) == "every seating permutation played equally often"
    assert rotation_note(["a", "a", "a"], 7) == "every seating permutation played equally often"
    assert rotation_note(["a", "b"], 5) == (
        "each of the 2 seating permutations of 2 seat entries played 2 or 3 times (1 of them once more: 5 games "
        "is not a multiple of 2; 4 or 6 games balance exactly)")
    assert rotation_note(["a", "b", "c"], 5).endswith("played 0 or 1 times (5 of them once more: 5 games is not "
                                                      "a multiple of 6; 6 games balance exactly)")


def test_plots_fall_back_to_the_frame_without_records(tmp_path, competitive):
    cfg, gdef, df, summary, manifest = competitive
    summary = dict(summary, metrics=[])
    out = write_report(tmp_path / "r", cfg, gdef, df, summary, manifest)
    names = sorted(p.name for p in (out / "plots").glob("*.png"))
    # no by-policy records: no policy plot; the rest is computed from the games
    assert names == ["game_length.png", "rank_distribution.png", "reshuffles.png", "win_rate_seat.png"]
    md = (out / "report.md").read_text()
    assert "\n## Win rate by seat" not in md and "\n## Other metrics" not in md
    assert json.loads((out / "summary.json").read_text())["metrics"] == []


def test_first_player_section_and_seat_test(race_report):
    out, cfg, gdef, df, summary, manifest = race_report
    md = (out / "report.md").read_text()
    decided = int((df["winner"] >= 0).sum())
    assert "*Seat 0's win rate minus the fair share 25.0%, in percentage points.*" in md
    assert (f"Test of equal win rates for all seats (chi-square over {decided:,} decided games): "
            "p = 3.2e-09 (the seats differ beyond sampling noise).") in md
    assert "seat_equality_p" not in md


def test_real_metrics_module_records_all_land_in_the_report(tmp_path, competitive, cooperative):
    """Records from sim.metrics (the producer of summary.json) all find a headline section."""
    from sim import metrics

    for cfg, gdef, df, summary, manifest in (competitive, cooperative):
        labels = summary["seats"]
        recs = metrics.common_metrics(df, gdef.mode, len(labels), labels)
        s = dict(summary, metrics=recs)
        out = write_report(tmp_path / gdef.name, cfg, gdef, df, s, manifest)
        md = (out / "report.md").read_text()
        assert "\n## Other metrics" not in md, md.split("## Other metrics")[1][:500]
        assert json.loads((out / "summary.json").read_text()) == s
        if gdef.mode == "competitive":
            r = find(recs, "win_rate", seat=2)
            assert f"| 2 | heuristic | {_pct(r)} | 4,000 |" in md
        else:
            assert f"| Team wins | {_pct(find(recs, 'win_rate'))} | 3,000 |" in md
