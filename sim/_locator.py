"""numba's cache locator for the ``sim`` package: the compiled kernels of a file of the package
are cached under ``$NUMBA_CACHE_DIR/sim-<folder inside the package>`` (for example
``sim-games-yukon_airways``), where numba's own locator names the folder after a hash of the
file's *absolute* path. A cache is then valid for every copy of the same source: a clone in
another folder, a CI runner's fresh checkout, an installed wheel, and the compiled cache
shipped with the package (:mod:`sim.prebuilt`). Freshness is numba's content hash of each file
(numba 0.68), and the whole folder is keyed on the package's source hash (:func:`sim.source_hash`),
so a cache of other source is never read.

``sim`` puts this class first in ``NUMBA_CACHE_LOCATOR_CLASSES`` before numba is imported
(:func:`sim._configure_numba_cache`); files outside the package (a user policy's file) fall
through to numba's own locators."""

from __future__ import annotations

import os
from pathlib import Path

from numba.core import config
from numba.core.caching import UserProvidedCacheLocator

PACKAGE = Path(__file__).resolve().parent
"""The ``sim`` package folder."""


def cache_subfolder(py_file: str) -> str | None:
    """``sim-<folder of py_file inside the package, '/' -> '-'>``, or None for a file outside
    the package."""
    try:
        rel = Path(py_file).resolve().parent.relative_to(PACKAGE).as_posix()
    except ValueError:
        return None
    return "sim" if rel in ("", ".") else "sim-" + rel.replace("/", "-")


class PackageCacheLocator(UserProvidedCacheLocator):
    """numba's ``UserProvidedCacheLocator`` (the folder ``NUMBA_CACHE_DIR``, freshness by the
    file's content hash) whose sub-folder is named after the file's place in the package
    (:func:`cache_subfolder`) instead of a hash of its absolute path."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        self._cache_path = os.path.join(config.CACHE_DIR, cache_subfolder(py_file))

    @classmethod
    def from_function(cls, py_func, py_file):
        if not config.CACHE_DIR or cache_subfolder(py_file) is None:
            return None
        return super().from_function(py_func, py_file)
