"""Strict JSON for every file ``sim`` writes (summary.json, manifest.json, baselines, check
and compare results): NaN and infinities become ``null`` so jq and CI tools can read the
files, numpy scalars and arrays become plain numbers and lists, paths become strings, keys
starting with ``_`` (in-memory annotations such as ``_path``) are dropped, and a file is
written atomically (a temporary file in the target's folder, then ``os.replace``), so a
reader never sees half a file.

Only the standard library is imported.
"""

from __future__ import annotations

import json
import math
import os
import secrets
from pathlib import Path
from typing import Any


def strict(obj: Any) -> Any:
    """A JSON-safe copy of ``obj``: non-finite floats -> None, numpy values -> Python,
    tuples -> lists, ``Path`` -> str, dict keys -> str (keys starting with ``_`` dropped).

    Raises TypeError for any other object (a bug in the producer, not something to stringify).
    """
    if obj is None or isinstance(obj, bool | str | int):
        return obj
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {str(k): strict(v) for k, v in obj.items() if not (isinstance(k, str) and k.startswith("_"))}
    if isinstance(obj, list | tuple):
        return [strict(v) for v in obj]
    if isinstance(obj, Path):
        return str(obj)
    if hasattr(obj, "tolist"):  # numpy scalar or array
        return strict(obj.tolist())
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")


def dumps(obj: Any) -> str:
    """Indented strict JSON text of ``obj`` (see :func:`strict`), UTF-8 characters kept,
    ending in a newline."""
    return json.dumps(strict(obj), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def write_json(obj: Any, path: str | Path) -> Path:
    """Write ``obj`` as strict JSON to ``path`` atomically; creates missing folders and
    returns the path. On any error the target is left as it was and the temporary file is
    removed; raises TypeError for an object JSON cannot hold, OSError for the file system."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = dumps(obj)  # serialise first: a TypeError must not leave a temporary file
    # a fresh name opened exclusively: the file gets the umask's permissions, as open() gives
    tmp = path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp"
    with open(tmp, "x", encoding="utf-8") as f:
        try:
            f.write(text)
        except BaseException:
            f.close()
            tmp.unlink(missing_ok=True)
            raise
    try:
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path
