"""Where numba's compile cache lives, chosen so that no other local user can plant files in it.

numba unpickles the index files it finds in its cache folder, so a file another user can write
there runs inside ``sim``. :func:`choose` takes ``$SIM_CACHE_DIR/numba/<tag>`` (default
``~/.cache/sim``) only when that folder, its ``numba`` parent and every file already in it are
this user's and writable by nobody else; otherwise (not creatable, not writable, or not
private) a folder private to the user in the system temp folder: ``sim-numba-<uid>/<tag>``,
created with mode 0700 and used only when it is a real folder (not a link) of this user with no
group or other rights; when that name is taken by anything else a fresh
:func:`tempfile.mkdtemp` folder (no reuse between runs, still private).
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path


def _uid() -> int | None:
    return os.geteuid() if hasattr(os, "geteuid") else None


def _raise(e: OSError) -> None:
    raise e


def not_private(folder: Path, strict: bool = False, walk: bool = True) -> str | None:
    """Why ``folder`` (an existing folder) is not safe to load compiled code from, or None:
    another owner, a link (``strict``), group/other write rights (``strict``: any group/other
    rights), or (``walk``) a file or folder anywhere in it owned by another user, writable by
    others or a link."""
    uid = _uid()
    if uid is None:  # no owners to compare on this platform
        return None
    try:
        st = os.lstat(folder) if strict else os.stat(folder)
    except OSError as e:
        return f"cannot be read ({e.strerror})"
    if stat.S_ISLNK(st.st_mode):
        return "is a symbolic link"
    if not stat.S_ISDIR(st.st_mode):
        return "is not a folder"
    if st.st_uid != uid:
        return f"belongs to another user (uid {st.st_uid})"
    wide = 0o077 if strict else 0o022
    if st.st_mode & wide:
        return f"has mode {stat.S_IMODE(st.st_mode):04o} (others may write or read it)"
    if not walk:
        return None
    try:
        for root, dirs, files in os.walk(folder, onerror=_raise):
            for name in dirs + files:
                s = os.lstat(os.path.join(root, name))
                if s.st_uid != uid or s.st_mode & 0o022 or stat.S_ISLNK(s.st_mode):
                    rel = os.path.relpath(os.path.join(root, name), folder)
                    return f"holds {rel}, which is not this user's alone"
    except OSError as e:
        return f"cannot be listed ({e.strerror})"
    return None


def _usable(folder: Path) -> str | None:
    """Why ``folder`` (created when missing) cannot be the cache, or None."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        return f"cannot be created ({e.strerror})"
    for f, walk in ((folder.parent, False), (folder, True)):
        why = not_private(f, walk=walk)
        if why:
            return f"{f} {why}"
    try:
        probe = folder / f".w{os.getpid()}"
        probe.write_text("")
        probe.unlink()
    except OSError as e:
        return f"is not writable ({e.strerror})"
    return None


def private_fallback(tag: str) -> Path:
    """``<temp>/sim-numba-<uid>/<tag>``, private to this user (module docstring); a fresh
    ``tempfile.mkdtemp`` folder when that name is not such a folder."""
    uid = _uid()
    top = Path(tempfile.gettempdir()) / f"sim-numba-{uid if uid is not None else 'user'}"
    try:
        os.mkdir(top, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return Path(tempfile.mkdtemp(prefix="sim-numba-"))
    if not_private(top, strict=True, walk=False) is not None:
        return Path(tempfile.mkdtemp(prefix="sim-numba-"))
    folder = top / tag
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return Path(tempfile.mkdtemp(prefix="sim-numba-"))
    if not_private(folder, strict=True) is not None:
        return Path(tempfile.mkdtemp(prefix="sim-numba-"))
    return folder


def choose(base: Path, tag: str, warn=None) -> Path:
    """The cache folder for source hash ``tag`` under ``base`` (``$SIM_CACHE_DIR`` or
    ``~/.cache/sim``), or the private fallback when that one is not usable; ``warn`` (default:
    a line on stderr) hears why when the folder exists but is not private."""
    folder = base / "numba" / tag
    why = _usable(folder)
    if why is None:
        return folder
    chosen = private_fallback(tag)
    if "another user" in why or "mode" in why or "not this user's" in why or "link" in why:
        (warn or (lambda m: print(m, file=sys.stderr)))(
            f"note: compile cache {why}; using {chosen} instead")
    return chosen
