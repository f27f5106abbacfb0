"""Test set-up: importing sim first points numba's cache at the source-keyed folder."""

from pathlib import Path

import sim  # noqa: F401  (sets NUMBA_CACHE_DIR before numba is imported)

ROOT = Path(__file__).resolve().parents[1]


def runner_config(game: str) -> Path:
    """The config a test of the runner plays for ``game`` (threads, batches, chunks, backends:
    nothing that depends on the player count): ``configs/<game>.toml``, except Now Boarding's
    2-player config, whose planner team plays about 7× as many games a second as the default
    4-player one (about 300 a second a thread), so these tests stay a small part of CI."""
    return ROOT / "configs" / ("now_boarding_2p.toml" if game == "now_boarding" else f"{game}.toml")
