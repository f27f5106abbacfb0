"""The shipped compile cache (sim.prebuilt) and the package's cache locator (sim._locator):
a cache built in one folder serves a copy of the source in another, an archive unpacks once,
never over a file, never outside the cache folder, and a new process with an empty cache runs
a game from the archive without compiling."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tarfile
import threading
from pathlib import Path

import pytest

import sim
from sim import prebuilt
from sim._locator import PACKAGE, cache_subfolder

ROOT = Path(__file__).resolve().parents[1]


def test_cache_subfolder_names_the_place_in_the_package_not_the_absolute_path():
    assert cache_subfolder(str(PACKAGE / "games" / "yukon_airways" / "hooks.py")) == "sim-games-yukon_airways"
    assert cache_subfolder(str(PACKAGE / "rng.py")) == "sim"
    assert cache_subfolder("/somewhere/else/policy.py") is None


def test_a_game_kernel_caches_under_its_package_folder():
    from sim.games.dice_race import hooks

    kernel = hooks.KERNELS.play_batch.kernel
    assert Path(kernel._cache._cache_path) == Path(sim.NUMBA_CACHE_DIR) / "sim-games"
    assert os.environ["NUMBA_CPU_NAME"] == "generic"  # the target the archives are built for


def _fake_cache(root: Path) -> Path:
    cache = root / "cache"
    (cache / "sim-games-x").mkdir(parents=True)
    (cache / "sim-games-x" / "f-1.py311.nbi").write_bytes(b"index")
    (cache / "sim-games-x" / "f-1.py311.1.nbc").write_bytes(b"data" * 1000)
    (cache / "sim").mkdir()
    (cache / "sim" / "rng.g-2.py311.nbi").write_bytes(b"rng")
    (cache / "other_1234").mkdir()  # a user file's folder: not the package's
    (cache / "other_1234" / "u.nbi").write_bytes(b"user")
    return cache


@pytest.fixture
def archive_dir(tmp_path, monkeypatch):
    d = tmp_path / "archives"
    monkeypatch.setenv("SIM_PREBUILT_DIR", str(d))
    monkeypatch.setenv("NUMBA_CPU_NAME", "generic")
    monkeypatch.delenv("SIM_PREBUILT", raising=False)
    return d


def test_pack_then_install_unpacks_the_package_folders_once(tmp_path, archive_dir):
    out = prebuilt.pack(_fake_cache(tmp_path), "abc")
    assert out == archive_dir / f"abc-{prebuilt.platform_tag()}.tar.xz"
    with tarfile.open(out) as tar:
        assert sorted(tar.getnames()) == ["sim-games-x/f-1.py311.1.nbc", "sim-games-x/f-1.py311.nbi",
                                          "sim/rng.g-2.py311.nbi"]
    dest = tmp_path / "fresh"
    dest.mkdir()
    (dest / "sim").mkdir()
    (dest / "sim" / "rng.g-2.py311.nbi").write_bytes(b"compiled here")  # already there: kept
    assert prebuilt.install(dest, "abc") == out.name
    assert (dest / "sim-games-x" / "f-1.py311.1.nbc").read_bytes() == b"data" * 1000
    assert (dest / "sim" / "rng.g-2.py311.nbi").read_bytes() == b"compiled here"
    assert (dest / prebuilt.MARKER).read_text().strip() == out.name
    assert not list(dest.rglob(".unpack-*"))
    (dest / "sim-games-x" / "f-1.py311.1.nbc").unlink()
    assert prebuilt.install(dest, "abc") is None  # once per folder
    assert not (dest / "sim-games-x" / "f-1.py311.1.nbc").exists()


def test_install_needs_this_source_the_generic_cpu_and_no_opt_out(tmp_path, archive_dir, monkeypatch):
    prebuilt.pack(_fake_cache(tmp_path), "abc")
    for n, (env, source) in enumerate([({}, "other"), ({"SIM_PREBUILT": "0"}, "abc"),
                                       ({"NUMBA_CPU_NAME": "znver4"}, "abc")]):
        with monkeypatch.context() as m:
            for k, v in env.items():
                m.setenv(k, v)
            dest = tmp_path / f"d{n}"
            dest.mkdir()
            assert prebuilt.install(dest, source) is None
            assert list(dest.iterdir()) in ([], [dest / ".prebuilt.lock"])


def test_pack_replaces_the_archive_of_older_source(tmp_path, archive_dir):
    cache = _fake_cache(tmp_path)
    old = prebuilt.pack(cache, "old")
    new = prebuilt.pack(cache, "new")
    assert not old.exists() and new.exists()
    with pytest.raises(FileNotFoundError, match="no compiled kernels"):
        prebuilt.pack(tmp_path / "archives", "x")


def test_an_archive_member_outside_the_folder_is_refused(tmp_path, archive_dir, capsys):
    archive_dir.mkdir()
    with tarfile.open(prebuilt.archive_for("abc"), "w:xz") as tar:
        data = b"evil"
        info = tarfile.TarInfo("../escaped.nbi")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    dest = tmp_path / "c" / "cache"
    dest.mkdir(parents=True)
    assert prebuilt.install(dest, "abc") is None
    assert not (tmp_path / "c" / "escaped.nbi").exists()
    assert "could not unpack the shipped compile cache" in capsys.readouterr().err
    assert not (dest / prebuilt.MARKER).exists()


def test_concurrent_installs_unpack_once(tmp_path, archive_dir):
    prebuilt.pack(_fake_cache(tmp_path), "abc")
    dest = tmp_path / "shared"
    dest.mkdir()
    got: list = []
    threads = [threading.Thread(target=lambda: got.append(prebuilt.install(dest, "abc"))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(got, key=str) == sorted([None, None, None, f"abc-{prebuilt.platform_tag()}.tar.xz"], key=str)


def test_a_new_process_with_an_empty_cache_plays_from_the_archive_without_compiling(tmp_path, monkeypatch):
    """The real thing on the smallest game: this session's Dice Race kernels (compiled by the
    warm-up into this test run's cache) packed, then ``sim run`` in a fresh process with an
    empty ``SIM_CACHE_DIR`` unpacks them, compiles nothing and prints the same result."""
    own = Path(sim.NUMBA_CACHE_DIR)
    subset = tmp_path / "subset"
    for name in ("sim", "sim-games", "sim-games-dice_race"):
        if not (own / name).is_dir():
            pytest.skip(f"{own / name} missing: the warm-up did not run in this cache")
        (subset / name).mkdir(parents=True)
        for f in (own / name).iterdir():
            if f.is_file():
                (subset / name / f.name).write_bytes(f.read_bytes())
    arch = tmp_path / "archives"
    env = dict(os.environ, SIM_PREBUILT_DIR=str(arch), SIM_CACHE_DIR=str(tmp_path / "empty"))
    env.pop("NUMBA_CACHE_DIR", None)
    env.pop("SIM_PREBUILT", None)
    env.pop("NUMBA_CPU_NAME", None)
    monkeypatch.setenv("SIM_PREBUILT_DIR", str(arch))
    prebuilt.pack(subset, sim.source_hash(), preset=0)
    cfg = ROOT / "configs" / "dice_race.toml"
    cmd = [sys.executable, "-m", "sim.cli", "run", str(cfg), "--games", "200", "--quiet", "--out", str(tmp_path / "out")]
    first = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    assert "compil" not in first.stderr.lower(), first.stderr
    marker = tmp_path / "empty" / "numba" / sim.source_hash() / prebuilt.MARKER
    assert marker.read_text().strip().startswith(sim.source_hash())
    import polars as pl

    from sim.compile import load_run
    from sim.runner import run_games

    run = load_run(cfg, games=200)
    here = run_games(run)
    there = pl.read_parquet(tmp_path / "out" / "games.parquet")
    assert there.height == 200
    for j, c in enumerate(run.game.column_names(run.n_seats)):
        if c in there.columns:
            assert there[c].to_list() == here[:, j].tolist(), c
