"""``sim export REPORT_DIR``: a report folder's games and summary as spreadsheets.

* ``--format csv`` (or ``--csv``): a folder (default ``<REPORT_DIR>-csv/``) of three files:
  ``run.csv`` (the run's facts as ``key,value`` rows: title, game, seed, games, config hash,
  rules version, seats), ``summary.csv`` (one row per metric record: ``metric``, ``by`` as
  ``key=value`` text, one column per grouping key, ``kind``, ``value``, ``ci_low``,
  ``ci_high``, ``n``, ``unit``) and ``games.csv`` (``games.parquet`` as it is, one row per game);
* ``--format xlsx``: one workbook (default ``<REPORT_DIR>.xlsx``) with the sheets ``run``,
  ``summary`` and ``games`` (polars' ``write_excel``, engine xlsxwriter).

Only a report folder ``sim run`` wrote (:func:`sim.outputs.is_sim_report`, with its
``summary.json`` and ``games.parquet``) is read; anything else is refused (ConfigError,
exit 2). Outputs are written atomically (a folder built aside and swapped in; a file through
a temporary file) and replace only an earlier export (:func:`is_csv_export`,
:func:`is_xlsx_export`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sim.errors import ConfigError

FORMATS = ("csv", "xlsx")
CSV_FILES = {"run.csv", "summary.csv", "games.csv"}
SHEETS = ("run", "summary", "games")
EXCEL_ROWS = 1_048_576
"""Rows of an Excel sheet, the header included."""


def read_report(folder: Path) -> tuple[dict, Any]:
    """(summary, games frame) of report folder ``folder``; raises ConfigError naming the
    folder (or file) and the reason when it is not a report ``sim run`` wrote or a file of it
    cannot be read."""
    import polars as pl

    from sim.outputs import is_sim_report

    if not folder.is_dir():
        raise ConfigError(str(folder), "", "no such folder; give a report folder of `sim run` (e.g. "
                          "reports/<config name>)")
    missing = [n for n in ("manifest.json", "summary.json", "games.parquet") if not (folder / n).is_file()]
    if missing or not is_sim_report(folder):
        why = f"has no {', '.join(missing)}" if missing else "holds files `sim run` does not write"
        raise ConfigError(str(folder), "", f"not a report folder of `sim run` ({why}); export reads what "
                          "`sim run CONFIG --out DIR` writes")
    try:
        summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ConfigError(str(folder / "summary.json"), "", f"not readable JSON ({type(e).__name__})") from None
    if not isinstance(summary, dict) or not isinstance(summary.get("metrics"), list):
        raise ConfigError(str(folder / "summary.json"), "metrics", "missing: not a summary `sim run` wrote")
    try:
        games = pl.read_parquet(folder / "games.parquet")
    except (pl.exceptions.PolarsError, OSError) as e:
        from sim.config import cut

        raise ConfigError(str(folder / "games.parquet"), "", f"not a readable parquet file ({cut(str(e), 100)})") \
            from None
    return summary, games


def run_frame(summary: dict):
    """The run's facts as a two-column frame (``key``, ``value``, text)."""
    import polars as pl

    keys = ("title", "game", "run", "mode", "seed", "games", "config_hash", "rules_version", "rotate_seats")
    rows = [(k, str(summary[k])) for k in keys if k in summary]
    rows += [(f"seat {i}", str(s)) for i, s in enumerate(summary.get("seats") or [])]
    return pl.DataFrame(rows, schema={"key": pl.Utf8, "value": pl.Utf8}, orient="row")


def summary_frame(summary: dict):
    """One row per metric record: metric, by (``key=value, ...``), a column per grouping key
    (``by_<key>``, text), kind, value, ci_low, ci_high, n, unit."""
    import polars as pl

    recs = summary["metrics"]
    by_keys = list(dict.fromkeys(k for r in recs for k in (r.get("by") or {})))

    def num(x):
        return float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else None

    cols: dict[str, list] = {"metric": [], "by": [], **{f"by_{k}": [] for k in by_keys}, "kind": [], "value": [],
                             "ci_low": [], "ci_high": [], "n": [], "unit": []}
    for r in recs:
        by = r.get("by") or {}
        cols["metric"].append(str(r.get("metric")))
        cols["by"].append(", ".join(f"{k}={v}" for k, v in by.items()))
        for k in by_keys:
            cols[f"by_{k}"].append(None if k not in by else str(by[k]))
        cols["kind"].append(r.get("kind"))
        for k in ("value", "ci_low", "ci_high"):
            cols[k].append(num(r.get(k)))
        n = r.get("n")
        cols["n"].append(int(n) if isinstance(n, int) and not isinstance(n, bool) else None)
        cols["unit"].append(r.get("unit"))
    schema = {k: (pl.Float64 if k in ("value", "ci_low", "ci_high") else pl.Int64 if k == "n" else pl.Utf8)
              for k in cols}
    return pl.DataFrame(cols, schema=schema)


def _plain_games(games):
    """games.parquet with categorical columns as text (CSV and Excel cells)."""
    import polars as pl

    return games.with_columns(pl.col(pl.Categorical).cast(pl.Utf8))


def is_csv_export(folder: Path) -> bool:
    """An earlier ``sim export --format csv`` folder: nothing but :data:`CSV_FILES`, all there."""
    try:
        names = {e.name for e in folder.iterdir() if e.is_file() and not e.is_symlink()}
        return names == CSV_FILES and len(list(folder.iterdir())) == len(CSV_FILES)
    except OSError:
        return False


def is_xlsx_export(path: Path) -> bool:
    """An earlier ``sim export --format xlsx`` workbook: a zip whose workbook has exactly the
    sheets :data:`SHEETS`."""
    import re
    import zipfile

    try:
        if path.is_symlink() or not path.is_file():
            return False
        with zipfile.ZipFile(path) as z:
            wb = z.read("xl/workbook.xml").decode("utf-8", "replace")
    except (OSError, KeyError, zipfile.BadZipFile, ValueError):
        return False
    return tuple(re.findall(r'<sheet name="([^"]*)"', wb)) == SHEETS


def default_out(folder: Path, fmt: str) -> Path:
    """``<folder>-csv`` (a folder) or ``<folder>.xlsx`` beside the report folder."""
    folder = Path(folder).resolve()  # '.' or '..' too: beside the folder, never inside it
    return folder.with_name(folder.name + ("-csv" if fmt == "csv" else ".xlsx"))


def export(folder: Path, fmt: str, out: Path | None = None) -> tuple[Path, int, int]:
    """Write the export of report folder ``folder`` in ``fmt`` (:data:`FORMATS`) to ``out``
    (default :func:`default_out`). Returns (path written, games rows, metric rows). Raises
    ConfigError for a folder that is not a report or a run too large for a sheet, OutputError
    for an output that cannot be written (nothing is then left behind)."""
    from sim.outputs import atomic_folder, check_folder_target, check_target, write_bytes

    if fmt not in FORMATS:
        raise ConfigError("--format", "", f"must be one of {', '.join(FORMATS)}, got {fmt!r}")
    dest = Path(out) if out is not None else default_out(folder, fmt)
    # the output is checked before anything is read or written
    if fmt == "csv":
        check_folder_target(dest, is_csv_export, "export")
    else:
        dest = check_target(dest, "file")
        if dest.exists() and not is_xlsx_export(dest):
            from sim.errors import OutputError

            raise OutputError(str(dest), "exists and is not a workbook sim export wrote; remove it or choose "
                              "another --out")
    summary, games = read_report(folder)
    games = _plain_games(games)
    frames = {"run": run_frame(summary), "summary": summary_frame(summary), "games": games}
    if fmt == "csv":
        with atomic_folder(dest, is_csv_export, "export") as tmp:
            for name, df in frames.items():
                df.write_csv(tmp / f"{name}.csv")
    else:
        if games.height + 1 > EXCEL_ROWS:
            raise ConfigError(str(folder / "games.parquet"), "", f"{games.height:,} games do not fit an Excel sheet "
                              f"({EXCEL_ROWS - 1:,} rows at most); use --format csv")
        import io

        buf = io.BytesIO()
        import xlsxwriter

        with xlsxwriter.Workbook(buf, {"in_memory": True}) as wb:
            for name, df in frames.items():
                df.write_excel(wb, worksheet=name, autofit=df.height <= 10_000)
        write_bytes(buf.getvalue(), dest, is_xlsx_export)
    return dest, games.height, frames["summary"].height
