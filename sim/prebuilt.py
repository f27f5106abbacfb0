"""The compiled kernels shipped with the package: a first run loads them instead of compiling.

numba compiles a game's kernels in one to three minutes on a 2-core machine (issue 34). The
package therefore ships numba's cache of every kernel that ``make test`` compiles (the shipped
configs, the warm-up's policies, the tests' kernels) as one archive,
``sim/prebuilt/<source hash>-<platform tag>.tar.xz``, built by ``make prebuilt``. When ``sim``
is imported and its cache folder (:mod:`sim.cachedir`) has not received it yet, the archive that
matches this source and this platform is unpacked into the folder (:func:`install`, once per
folder, under a lock, never over a file already there); numba then finds every kernel cached.

What makes a cache built on one machine valid on another:

* the kernels are compiled for numba's ``generic`` CPU (``NUMBA_CPU_NAME=generic``, which
  ``sim`` sets unless ``NUMBA_CPU_NAME`` is already set or ``SIM_NATIVE_CPU=1``): numba keys each
  cached kernel on the CPU name and features, and the host's would tie the cache to one CPU
  model. Measured on this project's games the generic build plays as fast as the host build
  (README's bench table; the kernels are scalar integer code);
* the cache sub-folders are named after each file's place in the package, not its absolute path
  (:mod:`sim._locator`);
* the archive's name carries the source hash (:func:`sim.source_hash`, the same key as the cache
  folder) and the platform tag (:func:`platform_tag`: Python's cache tag, numba's version, the
  machine and OS). Another source, Python, numba or machine finds no archive and compiles, as
  before; numba itself still checks every entry's signature, CPU and content hash.

``SIM_PREBUILT=0`` ignores the archive (``make bench`` measures the cold compile that way).
The archive is code of this package, as trusted as its ``.py`` files; it is unpacked only into
the private cache folder :mod:`sim.cachedir` chose, regular files only (links and other member
kinds are skipped) and none with an absolute path or ``..`` (the whole archive is then refused).

``main(["pack"])`` (:func:`main`, which ``make prebuilt`` calls after a ``make
test`` in an empty ``SIM_CACHE_DIR``) writes the archive from the cache folder ``sim`` chose
(or the folder given) and removes archives of other source of the same platform.
"""

from __future__ import annotations

import os
import sys
import tarfile
from pathlib import Path

ARCHIVES = Path(__file__).resolve().parent / "prebuilt"
"""Where the package keeps its archives (``SIM_PREBUILT_DIR`` names another folder: the tests'
archives, or a site's own build)."""


def archives() -> Path:
    """The archive folder in use: ``$SIM_PREBUILT_DIR``, else :data:`ARCHIVES`."""
    return Path(os.environ.get("SIM_PREBUILT_DIR") or ARCHIVES)


MARKER = ".prebuilt"
"""The file :func:`install` writes into a cache folder once it has unpacked an archive there
(its content: the archive's name), or found none: the folder is not looked at again."""


def platform_tag() -> str:
    """``<Python cache tag>-numba<version>-<machine>-<os>``, for example
    ``cpython-311-numba0.68.1-x86_64-linux``: what a cached kernel depends on besides the
    source and the CPU target."""
    import platform
    from importlib import metadata  # here, not at `import sim`: 20 ms a CLI start-up does not need

    try:
        nb = metadata.version("numba")
    except metadata.PackageNotFoundError:  # pragma: no cover - numba is a dependency
        nb = "none"
    return f"{sys.implementation.cache_tag}-numba{nb}-{platform.machine().lower()}-{sys.platform}"


def archive_for(source: str, tag: str | None = None) -> Path:
    """The archive path for source hash ``source`` on platform ``tag`` (default: this one)."""
    return archives() / f"{source}-{tag or platform_tag()}.tar.xz"


def portable() -> bool:
    """True when numba compiles for the generic CPU, the target the archives are built for."""
    return os.environ.get("NUMBA_CPU_NAME", "").lower() == "generic"


def install(folder: Path, source: str) -> str | None:
    """Unpack the archive of ``source`` for this platform into cache folder ``folder`` when it
    has not had one yet (:data:`MARKER`); returns the archive's name when it unpacked one, else
    None (disabled by ``SIM_PREBUILT=0``, not the generic CPU, no archive, already done).

    Files already in ``folder`` are kept. The marker is written last, under an exclusive lock
    on ``folder/.prebuilt.lock``, so concurrent processes unpack once and none reads a half
    unpacked cache: a process that finds the lock taken waits for it. Errors (a damaged
    archive, a full disk) leave the cache as numba would have it and are reported as a note on
    stderr: the kernels are then compiled."""
    if os.environ.get("SIM_PREBUILT", "1") == "0" or not portable():
        return None
    folder = Path(folder)
    if (folder / MARKER).exists():
        return None
    archive = archive_for(source)
    if not archive.is_file():
        return None
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on this project's platforms
        return None
    try:
        with open(folder / ".prebuilt.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if (folder / MARKER).exists():
                return None
            _unpack(archive, folder)
            (folder / MARKER).write_text(archive.name + "\n")
            return archive.name
    except (OSError, tarfile.TarError) as e:
        print(f"note: could not unpack the shipped compile cache {archive.name} ({e}); "
              "kernels will be compiled", file=sys.stderr)
        return None


def _unpack(archive: Path, folder: Path) -> None:
    """Every regular file of ``archive`` that ``folder`` does not hold yet, each written to a
    temporary name and moved into place (a reader sees a whole file or none)."""
    import tempfile

    with tarfile.open(archive, "r:xz") as tar:
        for m in tar:
            if not m.isfile():
                continue
            rel = Path(m.name)
            if rel.is_absolute() or ".." in rel.parts:
                raise tarfile.TarError(f"unsafe member {m.name!r}")
            dest = folder / rel
            if dest.exists():
                continue
            dest.parent.mkdir(parents=True, exist_ok=True)
            src = tar.extractfile(m)
            fd, tmp = tempfile.mkstemp(dir=dest.parent, prefix=".unpack-")
            try:
                with os.fdopen(fd, "wb") as out:
                    while chunk := src.read(1 << 20):
                        out.write(chunk)
                os.chmod(tmp, 0o644)
                os.replace(tmp, dest)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise


def pack(cache: Path, source: str, preset: int = 9) -> Path:
    """Write the archive of ``source`` for this platform from cache folder ``cache`` (its
    package sub-folders ``sim*``: a user policy file's kernels elsewhere stay out), replacing
    the archives of other source for this platform; returns its path. Raises FileNotFoundError
    when ``cache`` holds no package kernels. ``preset``: xz's (9, the smallest archive, takes
    about a minute for the whole cache; the tests pack small ones faster)."""
    subs = sorted(p for p in Path(cache).iterdir() if p.is_dir() and p.name.startswith("sim"))
    if not subs:
        raise FileNotFoundError(f"{cache} holds no compiled kernels of the package (sim* folders)")
    archives().mkdir(parents=True, exist_ok=True)
    out = archive_for(source)
    tmp = out.with_suffix(".partial")
    with tarfile.open(tmp, "w:xz", preset=preset) as tar:
        for sub in subs:
            for f in sorted(sub.rglob("*")):
                if f.is_file() and not f.name.startswith("."):
                    info = tar.gettarinfo(f, arcname=f.relative_to(cache).as_posix())
                    info.uid = info.gid = 0
                    info.uname = info.gname = ""
                    info.mtime = 0
                    with open(f, "rb") as fh:
                        tar.addfile(info, fh)
    os.replace(tmp, out)
    for old in archives().glob(f"*-{platform_tag()}.tar.xz"):
        if old != out:
            old.unlink()
    return out


def main(argv: list[str] | None = None) -> None:
    import argparse

    ap = argparse.ArgumentParser(description="pack the shipped compile cache (sim/prebuilt/)")
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("pack", help="write the archive of this source from a filled cache folder")
    p.add_argument("cache", type=Path, nargs="?", default=None,
                   help="the cache folder of a finished `make test` (default: the one sim uses, "
                        "$SIM_CACHE_DIR/numba/<source hash>)")
    sub.add_parser("status", help="say whether this source has an archive for this platform")
    a = ap.parse_args(argv)
    import sim

    if a.cmd == "pack":
        out = pack(a.cache or Path(sim.NUMBA_CACHE_DIR), sim.source_hash())
        print(f"prebuilt: wrote {out} ({out.stat().st_size / 1e6:.1f} MB)")
    else:
        arc = archive_for(sim.source_hash())
        print(f"prebuilt: {'found ' + arc.name if arc.is_file() else 'no archive for this source and platform (' + arc.name + ')'}")


if __name__ == "__main__":
    main()
