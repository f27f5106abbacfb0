"""Where ``sim`` writes, and how: every output (report and compare folders, baselines, check
JSON, JUnit XML) is written atomically and only where it is allowed to write.

* a file is written to a fresh temporary file in its target's folder, flushed, fsynced and
  renamed over the target (:func:`write_text`); a reader never sees half a file and a full
  disk leaves the old file as it was;
* a folder is built in a fresh hidden sibling (``.<name>.tmp-XXXXXXXX``) and swapped in at the
  end (:func:`atomic_folder`); an existing target is replaced only when it is provably one of
  ``sim``'s own (a report: its ``manifest.json`` names sim and it holds nothing but report
  files and the plots its report.md shows; see :func:`is_sim_report`), else :class:`sim.errors.OutputError` is raised before
  anything is written;
* any failure (unwritable, below a file, read-only, full, a name too long) is an
  :class:`OutputError` naming the path and the reason, and every temporary file or folder
  is removed, also on KeyboardInterrupt and SIGTERM (see :mod:`sim.cli`).

Only the standard library is imported.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import secrets
import shutil
import tempfile
from pathlib import Path
from typing import Callable, Iterator

from sim.errors import OutputError

NAME_MAX = 255 - 24
"""Longest target name (bytes): the file system's 255 less the temporary prefix and suffix."""

REPORT_FILES = {"report.md", "report.html", "summary.json", "manifest.json", "games.parquet", "config.toml"}
"""Files of a report folder (besides ``plots/``, which holds only ``*.png``)."""
COMPARE_FILES = {"compare.json", "compare.md", "compare.html"}
"""Files of a compare folder (besides ``*.png`` plots)."""
SKILL_FILES = {"skill.json", "skill.md", "skill.html"}
"""Files of a skill-table folder (``sim skill``; besides ``*.png`` plots)."""


def reason(e: BaseException) -> str:
    """A short reason for an OS or library error (``strerror`` when there is one)."""
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    text = str(e) or type(e).__name__
    return text if len(text) <= 200 else text[:200] + "..."


def check_target(path: str | Path, what: str = "file") -> Path:
    """``path`` as a Path after refusing what can never be a target: an empty path, ``.``,
    ``..``, a path ending in ``/``, a name longer than :data:`NAME_MAX` bytes, a NUL
    character, a ``..`` after a folder that does not exist; an existing folder where a file is wanted and the reverse. Raises
    :class:`OutputError`."""
    text = os.fspath(path)
    if text in ("", ".") or text.endswith(("/", "/.")):
        raise OutputError(text, f"not a {what} name")
    if "\x00" in text:
        raise OutputError(text.replace("\x00", "\\0")[:80], "a path cannot hold a NUL character")
    p = Path(text)
    if p.name in ("", ".", ".."):
        raise OutputError(text, f"not a {what} name")
    for i, part in enumerate(p.parts):  # never create folders on the way through '..'
        if part == ".." and i and not Path(*p.parts[:i]).is_dir():
            raise OutputError(text, f"{Path(*p.parts[:i])} is not an existing folder (a path through '..' must "
                              "name existing folders)")
    if len(os.fsencode(p.name)) > NAME_MAX:
        raise OutputError(f"{text[:60]}...", f"name too long (at most {NAME_MAX} bytes)")
    if what == "file" and p.is_dir():
        raise OutputError(text, "is a folder")
    if what == "folder" and (p.exists() or p.is_symlink()) and not p.is_dir():
        raise OutputError(text, "exists and is not a folder")
    _check_ancestor(p, text)
    return p


def _check_ancestor(p: Path, text: str) -> None:
    """The nearest existing folder above ``p`` must be a folder this process can write
    (``os.access`` also reports a read-only file system, for root too; a probe folder,
    created and removed at once, settles the rest)."""
    anc = p.absolute().parent
    while not anc.exists() and anc != anc.parent:
        anc = anc.parent
    if not anc.is_dir():
        raise OutputError(text, f"{anc} is not a folder")
    if not os.access(anc, os.W_OK | os.X_OK):
        why = "read-only file system" if _read_only(anc) else "permission denied"
        raise OutputError(text, f"cannot write in {anc}: {why}")
    # root passes os.access everywhere, and /proc or /sys refuse only a real attempt: probe
    # with an empty folder, removed at once
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".sim-probe-", dir=anc))
    except OSError as e:
        # /proc answers "No such file or directory" for a folder that plainly exists
        why = "its file system does not allow new files there" if e.errno == errno.ENOENT else reason(e)
        raise OutputError(text, f"cannot write in {anc}: {why}") from None


def _read_only(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):
        return False


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _mkdir_parent(path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise OutputError(str(path), f"cannot create its folder {path.parent}: {reason(e)}") from None


def write_bytes(data: bytes, path: str | Path, owned: Callable[[Path], bool] | None = None) -> Path:
    """Write ``data`` to ``path`` atomically (temporary file in the same folder, fsync,
    rename; missing folders are created). ``owned(path)``, when given, must be True for an
    existing target to be replaced. Raises :class:`OutputError`; the target is then as it was
    and no temporary file is left."""
    path = check_target(path, "file")
    if owned is not None and path.exists() and not owned(path):
        raise OutputError(str(path), "exists and is not a file sim wrote; remove it or choose another path")
    _mkdir_parent(path)
    tmp = path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp"
    try:
        # a fresh name opened exclusively: the file gets the umask's permissions, as open() gives
        with open(tmp, "xb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise OutputError(str(path), f"cannot write: {reason(e)}") from None
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(path.parent)
    return path


def write_text(text: str, path: str | Path, owned: Callable[[Path], bool] | None = None) -> Path:
    """:func:`write_bytes` of ``text`` in UTF-8."""
    return write_bytes(text.encode("utf-8"), path, owned)


def _fresh_sibling(out_dir: Path, tag: str) -> Path:
    while True:
        p = out_dir.parent / f".{out_dir.name}.{tag}-{secrets.token_hex(4)}"
        try:
            p.mkdir()
            return p
        except FileExistsError:
            continue


def _read_json(path: Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None


def is_sim_report(folder: Path) -> bool:
    """True when ``folder`` is a report ``sim`` wrote: its ``manifest.json`` is a JSON object
    whose ``versions`` name ``sim``, and it holds nothing but :data:`REPORT_FILES` and a
    ``plots/`` folder of the ``*.png`` files its ``report.md`` shows."""
    man = _read_json(folder / "manifest.json")
    if not (isinstance(man, dict) and isinstance(man.get("versions"), dict) and "sim" in man["versions"]):
        return False
    return only_own(folder, REPORT_FILES, "report.md", plots="plots")


def is_compare_folder(folder: Path) -> bool:
    """True when ``folder`` is a ``sim compare`` folder: its ``compare.json`` has the compare
    format and it holds nothing but :data:`COMPARE_FILES` and the ``*.png`` plots its
    ``compare.md`` shows."""
    data = _read_json(folder / "compare.json")
    if not (isinstance(data, dict) and str(data.get("format", "")).startswith("sim-compare/")):
        return False
    return only_own(folder, COMPARE_FILES, "compare.md")


def is_skill_folder(folder: Path) -> bool:
    """True when ``folder`` is a ``sim skill`` folder: its ``skill.json`` has the skill format
    (``sim-skill/...``) and it holds nothing but :data:`SKILL_FILES` and the ``*.png`` plots
    its ``skill.md`` shows."""
    data = _read_json(folder / "skill.json")
    if not (isinstance(data, dict) and str(data.get("format", "")).startswith("sim-skill/")):
        return False
    return only_own(folder, SKILL_FILES, "skill.md")


_PNG_REF = re.compile(r"[\w.-]+\.png")


def shown_pngs(md: Path, prefix: str = "") -> set[str]:
    """The ``*.png`` names the markdown file ``md`` shows (``prefix/name.png`` with a
    ``prefix``, else bare names); empty when it cannot be read."""
    try:
        text = md.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return set()
    if prefix:
        return {m[len(prefix) + 1:] for m in re.findall(re.escape(prefix) + r"/[\w.-]+\.png", text)}
    return {m for m in _PNG_REF.findall(text) if "/" not in m}


def only_own(folder: Path, names: set[str], md: str, plots: str = "",
             dirs: dict[str, Callable[[Path], bool]] | None = None) -> bool:
    """True when every entry of ``folder`` is one the command writes: a file of ``names``, a
    ``*.png`` its markdown file ``md`` shows (in the folder itself, or in the sub-folder
    ``plots`` when given, which must hold only such plots), or a sub-folder of ``dirs`` whose
    test passes. A link, any other file or folder, or an unreadable folder: False (so a user's
    file is never deleted by replacing the folder)."""
    pngs = shown_pngs(folder / md, plots)
    try:
        for e in folder.iterdir():
            if e.is_symlink():
                return False
            if e.is_file() and (e.name in names or (not plots and e.name in pngs)):
                continue
            if plots and e.is_dir() and e.name == plots:
                if all(x.is_file() and not x.is_symlink() and x.name in pngs for x in e.iterdir()):
                    continue
            if dirs and e.is_dir() and e.name in dirs and dirs[e.name](e):
                continue
            return False
    except OSError:
        return False
    return True


def check_folder_target(out_dir: str | Path, owned: Callable[[Path], bool], what: str = "report") -> Path:
    """Refuse (OutputError) a folder target that cannot be written or replaced: see
    :func:`check_target`; an existing non-empty folder must satisfy ``owned``. A symlink
    is followed (its target is the folder replaced). Returns the folder to write."""
    out_dir = check_target(out_dir, "folder")
    if out_dir.is_symlink():
        out_dir = Path(os.path.realpath(out_dir))
    if out_dir.is_dir():
        try:
            empty = not any(out_dir.iterdir())
        except OSError as e:
            raise OutputError(str(out_dir), f"cannot read: {reason(e)}") from None
        if not empty and not owned(out_dir):
            raise OutputError(str(out_dir), f"exists and is not a sim {what} folder; choose a new or empty folder")
    return out_dir


@contextlib.contextmanager
def atomic_folder(out_dir: str | Path, owned: Callable[[Path], bool], what: str = "report") -> Iterator[Path]:
    """Build a folder in a fresh hidden sibling of ``out_dir`` (yielded) and swap it in when
    the block ends; an existing ``out_dir`` (checked by :func:`check_folder_target`) is
    renamed aside, replaced, then deleted. On any exception the temporary folder is removed,
    ``out_dir`` is as it was and the exception propagates (OSError as :class:`OutputError`)."""
    out_dir = check_folder_target(out_dir, owned, what)
    _mkdir_parent(out_dir)
    try:
        tmp = _fresh_sibling(out_dir, "tmp")
    except OSError as e:
        raise OutputError(str(out_dir), f"cannot write: {reason(e)}") from None
    try:
        try:
            yield tmp
            _swap_in(tmp, out_dir)
        except (OutputError, FileNotFoundError):
            # a file missing inside the temporary folder is a producer's bug, not the target's
            raise
        except OSError as e:
            raise OutputError(str(out_dir), f"cannot write: {reason(e)}") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    _fsync_dir(out_dir.parent)


def _swap_in(tmp: Path, out_dir: Path) -> None:
    old = None
    if out_dir.exists():
        old = out_dir.parent / f".{out_dir.name}.old-{secrets.token_hex(4)}"
        os.replace(out_dir, old)
    try:
        os.replace(tmp, out_dir)
    except BaseException:
        if old is not None:
            os.replace(old, out_dir)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def is_sim_json(fmt_prefix: str) -> Callable[[Path], bool]:
    """An ``owned`` test for :func:`write_bytes`: the existing file is a JSON object whose
    ``format`` starts with ``fmt_prefix`` (``"sim-baseline/"``, ``"sim-check/"``)."""

    def owned(path: Path) -> bool:
        data = _read_json(path) if path.is_file() and not path.is_symlink() else None
        return isinstance(data, dict) and str(data.get("format", "")).startswith(fmt_prefix)

    return owned


def is_sim_junit(path: Path) -> bool:
    """An ``owned`` test: the existing file is JUnit XML written by ``sim check``."""
    try:
        with open(path, "rb") as f:
            head = f.read(2000)
    except OSError:
        return False
    return path.is_file() and not path.is_symlink() and b'<testsuite name="sim check' in head
