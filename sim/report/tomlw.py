"""``config.toml`` of a report: the config exactly as run.

When the config file still parses to what was run, its bytes are copied (comments and
layout kept). When command-line overrides changed top-level values (``--games``,
``--seed``...), the file is copied with those lines rewritten and a header comment naming
them; the result is checked to parse back to the config as run. Anything else (a config
built in memory, a file edited since) is serialised from ``cfg.raw`` by the small TOML
writer here (no extra dependency).
"""

from __future__ import annotations

import datetime as _dt
import math
import re
import tomllib
from pathlib import Path
from typing import Any

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(k: str) -> str:
    return k if _BARE_KEY.match(k) else _str(k)


def _str(s: str) -> str:
    out = ['"']
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return _str(v)
    if isinstance(v, (_dt.datetime, _dt.date, _dt.time)):
        return v.isoformat()
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }" if v else "{}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if hasattr(v, "item"):  # numpy scalar
        return _value(v.item())
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


def _is_table_array(v: Any) -> bool:
    return isinstance(v, list) and len(v) > 0 and all(isinstance(x, dict) for x in v)


def _emit_table(d: dict, path: list[str], out: list[str]) -> None:
    scalars = [(k, v) for k, v in d.items() if not isinstance(v, dict) and not _is_table_array(v)]
    tables = [(k, v) for k, v in d.items() if isinstance(v, dict)]
    arrays = [(k, v) for k, v in d.items() if _is_table_array(v)]
    for k, v in scalars:
        out.append(f"{_key(k)} = {_value(v)}")
    for k, v in tables:
        sub = path + [_key(k)]
        out.append("")
        out.append(f"[{'.'.join(sub)}]")
        _emit_table(v, sub, out)
    for k, v in arrays:
        sub = path + [_key(k)]
        for item in v:
            out.append("")
            out.append(f"[[{'.'.join(sub)}]]")
            _emit_table(item, sub, out)


def dumps(data: dict) -> str:
    """Serialise a dict of TOML-representable values (tables, arrays of tables, scalars,
    arrays, dates) as TOML text that ``tomllib.loads`` reads back equal."""
    out: list[str] = []
    _emit_table(data, [], out)
    text = "\n".join(out).lstrip("\n") + "\n"
    return text


def _top_level_assignments(text: str) -> dict[str, int]:
    """Line index of each top-level ``key = ...`` before the first table header."""
    found: dict[str, int] = {}
    for i, line in enumerate(text.splitlines()):
        s = line.strip()
        if s.startswith("["):
            break
        m = re.match(r"^([A-Za-z0-9_-]+)\s*=", s)
        if m and line[: len(line) - len(line.lstrip())] == "":
            found[m.group(1)] = i
    return found


def config_text(raw: dict, source: str | Path | None) -> tuple[str, str]:
    """TOML text of the config as run and how it was made.

    Returns ``(text, how)`` with ``how`` one of ``"copied"`` (the source file's text,
    unchanged), ``"patched"`` (the source with overridden top-level values rewritten and a
    header comment listing them) or ``"serialised"`` (written from ``raw``).
    """
    src_text = None
    if source is not None:
        p = Path(source)
        try:
            if p.is_file():
                src_text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            src_text = None
    if src_text is not None:
        try:
            file_raw = tomllib.loads(src_text)
        except tomllib.TOMLDecodeError:
            file_raw = None
        if file_raw is not None:
            if file_raw == raw:
                return src_text, "copied"
            patched = _patch(src_text, file_raw, raw, str(source))
            if patched is not None:
                return patched, "patched"
    header = "# config as run by sim (serialised; "
    header += f"source: {source})\n" if source else "built in memory)\n"
    return header + dumps(raw), "serialised"


def _patch(text: str, file_raw: dict, raw: dict, source: str) -> str | None:
    """The source text with differing top-level scalar keys rewritten, or None when the
    difference is not of that kind (or the patch does not parse back to ``raw``)."""
    if set(file_raw) - set(raw):
        return None
    changed = {}
    for k, v in raw.items():
        if file_raw.get(k, _MISSING) == v:
            continue
        if isinstance(v, dict) or _is_table_array(v) or isinstance(file_raw.get(k), dict):
            return None
        changed[k] = v
    if not changed:
        return None
    lines = text.splitlines()
    where = _top_level_assignments(text)
    added = []
    for k, v in changed.items():
        new = f"{_key(k)} = {_value(v)}"
        if k in where:
            lines[where[k]] = new + "  # overridden; the file says: " + lines[where[k]].strip()
        else:
            added.append(new + "  # set from the command line")
    note = ", ".join(f"{k} = {_value(v)}" for k, v in changed.items())
    head = [
        f"# config as run by sim: {source}",
        f"# with command-line overrides: {note}",
    ]
    patched = "\n".join(head + added + lines) + "\n"
    try:
        if tomllib.loads(patched) != raw:
            return None
    except tomllib.TOMLDecodeError:
        return None
    return patched


_MISSING = object()
