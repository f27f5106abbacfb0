"""`sim export REPORT_DIR` (issue 40, item 8): a report's games and summary as CSV files or an
Excel workbook, the same numbers as games.parquet and summary.json; anything but a report
folder of `sim run` is refused (exit 2, nothing written); an output that is not an earlier
export is never replaced."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from sim.cli import app

ROOT = Path(__file__).resolve().parents[1]
DICE = ROOT / "configs" / "dice_race.toml"
runner = CliRunner()


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    base = tmp_path_factory.mktemp("export")
    r = runner.invoke(app, ["run", str(DICE), "--games", "60", "--threads", "1", "--quiet", "--out",
                            str(base / "rep")])
    assert r.exit_code == 0, r.output
    return base / "rep"


def test_csv_export_holds_the_reports_games_and_summary(report, tmp_path):
    out = tmp_path / "csv"
    r = runner.invoke(app, ["export", str(report), "--csv", "--out", str(out)])
    assert r.exit_code == 0, r.output
    summary = json.loads((report / "summary.json").read_text())
    n = len(summary["metrics"])
    assert r.output.strip() == f"exported: {out} (run.csv, summary.csv, games.csv: {n} metric records, 60 games)"
    assert sorted(p.name for p in out.iterdir()) == ["games.csv", "run.csv", "summary.csv"]
    games = pl.read_csv(out / "games.csv")
    parquet = pl.read_parquet(report / "games.parquet")
    assert games.columns == parquet.columns and games.height == 60
    assert games["turns"].to_list() == parquet["turns"].to_list()
    assert games["policy_s0"].to_list() == parquet["policy_s0"].cast(pl.Utf8).to_list()
    rows = pl.read_csv(out / "summary.csv")
    assert rows.height == n
    first = summary["metrics"][0]
    assert rows.row(0, named=True)["metric"] == first["metric"] and rows["value"][0] == pytest.approx(first["value"])
    assert rows["by"][0] == ", ".join(f"{k}={v}" for k, v in first["by"].items())
    run = dict(pl.read_csv(out / "run.csv").iter_rows())
    assert run["game"] == "dice_race" and run["games"] == "60" and run["seed"] == str(summary["seed"])
    # an earlier export is replaced; the default place is beside the report
    r = runner.invoke(app, ["export", str(report), "--format", "csv", "--out", str(out)])
    assert r.exit_code == 0, r.output


def test_xlsx_export_is_one_workbook_with_three_sheets(report, tmp_path):
    out = tmp_path / "rep.xlsx"
    r = runner.invoke(app, ["export", str(report), "--format", "xlsx", "--out", str(out)])
    assert r.exit_code == 0, r.output
    with zipfile.ZipFile(out) as z:
        wb = z.read("xl/workbook.xml").decode()
        assert re.findall(r'<sheet name="([^"]*)"', wb) == ["run", "summary", "games"]
        games_sheet = z.read("xl/worksheets/sheet3.xml").decode()
    ncols = len(pl.read_parquet(report / "games.parquet").columns)
    last = ""
    while ncols:  # the column letters of the last column
        ncols, k = divmod(ncols - 1, 26)
        last = chr(65 + k) + last
    assert f'<dimension ref="A1:{last}61"/>' in games_sheet  # a header and 60 games
    r = runner.invoke(app, ["export", str(report), "--format", "xlsx", "--out", str(out)])
    assert r.exit_code == 0, r.output  # its own earlier workbook is replaced


def test_export_refuses_what_is_not_a_report_and_writes_nothing(report, tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.txt").write_text("mine")
    r = runner.invoke(app, ["export", str(tmp_path / "notes"), "--csv"])
    assert r.exit_code == 2
    assert r.output.strip() == (f"error: {tmp_path / 'notes'}: not a report folder of `sim run` (has no "
                                "manifest.json, summary.json, games.parquet); export reads what `sim run CONFIG "
                                "--out DIR` writes")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes"]
    r = runner.invoke(app, ["export", str(tmp_path / "nosuch")])
    assert r.exit_code == 2 and "no such folder" in r.output
    # a file of the user's at --out is never replaced
    mine = tmp_path / "mine.xlsx"
    mine.write_text("not a workbook")
    r = runner.invoke(app, ["export", str(report), "--format", "xlsx", "--out", str(mine)])
    assert r.exit_code == 2 and "is not a workbook sim export wrote" in r.output
    assert mine.read_text() == "not a workbook"
    r = runner.invoke(app, ["export", str(report), "--out", str(tmp_path / "notes")])
    assert r.exit_code == 2 and "is not a sim export folder" in r.output
    assert [p.name for p in (tmp_path / "notes").iterdir()] == ["a.txt"]
    r = runner.invoke(app, ["export", str(report), "--csv", "--format", "xlsx"])
    assert r.exit_code == 2 and r.output.strip() == "error: --csv and --format xlsx ask for two formats: give one"
    r = runner.invoke(app, ["export", str(report), "--format", "ods"])
    assert r.exit_code == 2 and r.output.strip() == "error: --format: must be one of csv, xlsx, got 'ods'"


def test_export_from_inside_the_report_writes_beside_it(report, tmp_path, monkeypatch):
    """`sim export .` run inside a report folder writes REPORT-csv beside it, never inside (the
    folder would stop being a report); '--format CSV' is '--csv' in any case."""
    import shutil

    rep = tmp_path / "rep"
    shutil.copytree(report, rep)
    monkeypatch.chdir(rep)
    r = runner.invoke(app, ["export", ".", "--csv", "--format", "CSV"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "rep-csv" / "games.csv").is_file() and not (rep / "rep-csv").exists()
    r = runner.invoke(app, ["export", "."])  # the report is still a report, and the export is replaced
    assert r.exit_code == 0, r.output
