"""sim: a Monte-Carlo balance simulator for board and card games.

Importing ``sim`` points numba's on-disk cache at a folder keyed on a hash of the
package source (see :func:`_configure_numba_cache`). numba's own cache notices edits to
the file that holds a jitted function but not edits to jitted helpers it calls in other
modules; keying the whole folder on the source hash means an edit anywhere in ``sim``
starts a fresh cache, so a stale kernel can never run.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from pathlib import Path

__version__ = "0.1.0"

_PKG = Path(__file__).resolve().parent
_DECORATOR = re.compile(rb"^[ \t]*@(numba\.)?n?jit\b", re.M)
"""A line that decorates a function with numba's compiler (a mention in text does not count)."""


def source_hash() -> str:
    """Hex SHA-256 (first 16 chars) over the source that compiled kernels can depend on:
    every ``.py`` file under ``sim/games/``, ``sim/rng.py``, ``sim/jit.py`` and any other module with a line
    that starts with a numba decorator (path and bytes). Edits to the CLI, reports or
    statistics (and to this file) keep the compiled kernels; any edit that could change a
    kernel drops them."""
    h = hashlib.sha256()
    for p in sorted(_PKG.rglob("*.py")):
        data = p.read_bytes()
        rel = p.relative_to(_PKG).as_posix()
        if not (rel.startswith("games/") or rel in ("rng.py", "jit.py") or _DECORATOR.search(data)):
            continue
        h.update(rel.encode())
        h.update(data)
    return h.hexdigest()[:16]


def _configure_numba_cache() -> str:
    """Set ``NUMBA_CACHE_DIR`` to ``$SIM_CACHE_DIR/numba/<source hash>``, numba's CPU target to
    ``generic`` (unless ``NUMBA_CPU_NAME`` is set or ``SIM_NATIVE_CPU=1``) and unpack the shipped
    compile cache into the folder when it matches (:mod:`sim.prebuilt`).

    ``SIM_CACHE_DIR`` defaults to ``~/.cache/sim``; where that is not writable, or not this
    user's alone (numba unpickles what it finds there), a folder private to the user in the
    system temp dir is used (:mod:`sim.cachedir`). Returns the folder chosen.
    """
    from sim.cachedir import choose
    from sim.prebuilt import install, portable

    if "NUMBA_CPU_NAME" not in os.environ and os.environ.get("SIM_NATIVE_CPU", "") != "1":
        # numba's generic CPU target: a cache that is valid on any machine of the platform,
        # such as the one the package ships (sim.prebuilt); as fast here as the host's target
        os.environ["NUMBA_CPU_NAME"] = "generic"
    base = Path(os.environ.get("SIM_CACHE_DIR", Path.home() / ".cache" / "sim"))
    source = source_hash()
    folder = choose(base, source)
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    # the package's files cache under a folder named after their place in the package, not
    # after their absolute path (sim._locator): a cache serves every copy of the same source
    os.environ["NUMBA_CACHE_LOCATOR_CLASSES"] = LOCATORS
    if "numba" in sys.modules:  # numba read its config already: tell it too
        from numba.core import config as _nc

        _nc.CACHE_DIR = str(folder)
        _nc.CACHE_LOCATOR_CLASSES = LOCATORS
        if portable() and _nc.CPU_NAME is None:
            _nc.CPU_NAME, _nc.CPU_FEATURES = "generic", ""
    global PREBUILT
    PREBUILT = install(folder, source)
    return str(folder)


PREBUILT: str | None = None
"""The shipped compile cache this process unpacked into the cache folder (:mod:`sim.prebuilt`),
or None (none for this source and platform, disabled, or unpacked before)."""


LOCATORS = ("sim._locator.PackageCacheLocator,UserProvidedCacheLocator,InTreeCacheLocator,"
            "UserWideCacheLocator,IPythonCacheLocator,ZipCacheLocator")
"""numba's cache locator classes, ``sim``'s first (``NUMBA_CACHE_LOCATOR_CLASSES``): numba's own
list after it, for functions outside the package."""


NUMBA_CACHE_DIR = _configure_numba_cache()
