"""Strict JSON for every file ``sim`` writes (summary.json, manifest.json, baselines, check
and compare results): NaN and infinities become ``null`` so jq and CI tools can read the
files, numpy scalars and arrays become plain numbers and lists, paths become strings, keys
starting with ``_`` (in-memory annotations such as ``_path``) are dropped, and a file is
written atomically (:mod:`sim.outputs`: a temporary file in the target's folder, fsync,
then ``os.replace``), so a reader never sees half a file.

Only the standard library is imported.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Callable


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


def write_json(obj: Any, path: str | Path, owned: Callable[[Path], bool] | None = None) -> Path:
    """Write ``obj`` as strict JSON to ``path`` atomically (:func:`sim.outputs.write_text`:
    temporary file in the same folder, fsync, rename); creates missing folders and returns
    the path. ``owned(path)``, when given, must hold for an existing file to be replaced. On
    any error the target is left as it was and no temporary file remains; raises TypeError
    for an object JSON cannot hold, :class:`sim.errors.OutputError` for the file system."""
    from sim.outputs import write_text

    text = dumps(obj)  # serialise first: a TypeError must not leave a temporary file
    return write_text(text, path, owned)
