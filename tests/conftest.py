"""Test set-up: importing sim first points numba's cache at the source-keyed folder."""

import sim  # noqa: F401  (sets NUMBA_CACHE_DIR before numba is imported)
