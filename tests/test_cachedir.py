"""The compile cache folder (sim/cachedir.py): numba unpickles what it finds there, so a folder
another user can write to is never used (issue 33: a planted index file ran inside sim)."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

import pytest

from sim.cachedir import choose, not_private, private_fallback

pytestmark = pytest.mark.skipif(not hasattr(os, "geteuid"), reason="file owners are a POSIX notion")


@pytest.fixture
def tmpdir_(tmp_path, monkeypatch):
    """The system temp folder is tmp_path/tmp for the test."""
    t = tmp_path / "tmp"
    t.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(t))
    return t


def mode(p: Path) -> int:
    return stat.S_IMODE(os.lstat(p).st_mode)


def test_a_private_folder_is_used_as_it_is(tmp_path, tmpdir_):
    heard = []
    got = choose(tmp_path / "cache", "abc", heard.append)
    assert got == tmp_path / "cache" / "numba" / "abc" and got.is_dir() and heard == []
    assert list(tmpdir_.iterdir()) == []


def test_an_unwritable_cache_falls_back_to_a_folder_private_to_the_user(tmp_path, tmpdir_):
    (tmp_path / "afile").write_text("x")
    heard = []
    got = choose(tmp_path / "afile" / "cache", "abc", heard.append)
    assert got == tmpdir_ / f"sim-numba-{os.geteuid()}" / "abc"
    assert mode(got) == 0o700 and mode(got.parent) == 0o700 and os.stat(got).st_uid == os.geteuid()
    assert heard == []  # nothing suspicious: the folder just cannot be made
    assert choose(tmp_path / "afile" / "cache", "abc", heard.append) == got  # reused by the next run


@pytest.mark.parametrize("plant", ["folder mode", "file mode", "subfolder mode"])
def test_a_cache_others_can_write_to_is_not_used(tmp_path, tmpdir_, plant):
    folder = tmp_path / "cache" / "numba" / "abc"
    (folder / "games_x").mkdir(parents=True)
    index = folder / "games_x" / "play.simulate-1.py311.nbi"
    index.write_bytes(b"planted")
    if plant == "folder mode":
        folder.chmod(0o777)
    elif plant == "file mode":
        index.chmod(0o666)
    else:
        (folder / "games_x").chmod(0o777)
    assert not_private(folder) is not None
    heard = []
    got = choose(tmp_path / "cache", "abc", heard.append)
    assert got == tmpdir_ / f"sim-numba-{os.geteuid()}" / "abc" and mode(got) == 0o700
    assert not any(got.iterdir())  # the planted index is not there
    assert len(heard) == 1 and str(folder) in heard[0] and str(got) in heard[0], heard


@pytest.mark.parametrize("plant", ["mode 0777", "a link", "a file"])
def test_a_planted_fallback_name_is_never_used(tmp_path, tmpdir_, plant):
    """Another user (or a wide mode) owns the predictable name: a fresh mkdtemp folder instead."""
    name = tmpdir_ / f"sim-numba-{os.geteuid()}"
    other = tmp_path / "theirs"
    (other / "abc").mkdir(parents=True)
    (other / "abc" / "x.nbi").write_bytes(b"planted")
    if plant == "mode 0777":
        name.mkdir()
        name.chmod(0o777)
        (name / "abc").mkdir(mode=0o700)
    elif plant == "a link":
        other.chmod(0o700)
        name.symlink_to(other)
    else:
        name.write_text("x")
    got = private_fallback("abc")
    assert got.parent == tmpdir_ and got.name.startswith("sim-numba-") and got != name
    assert mode(got) == 0o700 and list(got.iterdir()) == []


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to give a folder away")
def test_a_fallback_owned_by_another_user_is_never_used(tmp_path, tmpdir_):
    name = tmpdir_ / f"sim-numba-{os.geteuid()}"
    (name / "abc").mkdir(parents=True, mode=0o700)
    name.chmod(0o700)
    os.chown(name, 65534, 65534)
    assert "another user (uid 65534)" in not_private(name, strict=True)
    got = private_fallback("abc")
    assert got.parent == tmpdir_ and got != name / "abc" and mode(got) == 0o700


def test_import_sim_never_uses_a_planted_shared_cache(tmp_path):
    """Issue 33 as reported: SIM_CACHE_DIR unwritable, the old predictable fallback
    (<temp>/sim-numba/<hash>) and the new one (<temp>/sim-numba-<uid>) planted world-writable
    with an index file: `import sim` points numba at neither."""
    import subprocess
    import sys

    import sim

    tmp = tmp_path / "tmp"
    for planted in (tmp / "sim-numba" / sim.source_hash(), tmp / f"sim-numba-{os.geteuid()}" / sim.source_hash()):
        planted.mkdir(parents=True)
        (planted / "x.nbi").write_bytes(b"planted")
        for f in (planted, planted.parent):
            f.chmod(0o777)
    (tmp_path / "afile").write_text("x")
    env = {**os.environ, "SIM_CACHE_DIR": str(tmp_path / "afile" / "cache"), "TMPDIR": str(tmp),
           "SIM_PREBUILT": "0"}  # the shipped cache would fill the chosen folder (sim.prebuilt)
    out = subprocess.run([sys.executable, "-c", "import os, sim; print(sim.NUMBA_CACHE_DIR); "
                          "print(os.environ['NUMBA_CACHE_DIR'])"], env=env, capture_output=True, text=True,
                         check=True)
    chosen, numba_dir = out.stdout.split()
    assert chosen == numba_dir and Path(chosen).parent == tmp and Path(chosen).name.startswith("sim-numba-")
    assert mode(Path(chosen)) == 0o700 and list(Path(chosen).iterdir()) == []
    assert out.stderr == ""


def test_a_docstring_mentioning_numba_decorators_does_not_key_the_cache():
    """Only a line that starts with a numba decorator puts a module outside sim/games/ in the
    source hash (editing sim/__init__.py or a CLI module keeps the compiled kernels)."""
    from sim import _DECORATOR

    assert _DECORATOR.search(b"@njit(cache=True)\ndef f(): pass")
    assert _DECORATOR.search(b"    @numba.njit\n") and _DECORATOR.search(b"@jit\n")
    assert not _DECORATOR.search(b'"""any module with an ``@njit``/``@jit`` decorator"""')
