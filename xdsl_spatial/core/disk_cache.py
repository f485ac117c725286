"""
The disk cache's directory, kept as careful tools keep theirs: what is read from it is
the user's own, what is written to it is the user's alone, and it stays under a cap.

Two caches share the directory: built models (`frontends/model_cache.py`, `*.model`)
and the native engine's machine code (`interpreters/native/cache.py`, `native/*.o`).
A model entry is a pickle, which runs code when it is loaded, and an object is machine
code the engine calls: neither is read from a place another user could have written.

```python
root = cache_root()                    # $XDSL_SPATIAL_CACHE, ~/.cache/xdsl-spatial, or None: off
folder = open_dir(root / "native")     # made 0700; None (one warning) when not to be trusted
data = read_entry(folder / "k.o")      # None when absent; refused (warned) when not the user's
write_entry(folder / "k.o", payload)   # whole or not at all, mode 0600
evict(root)                            # stale temporary files, then the least recently used
```

The rules:

- `XDSL_SPATIAL_CACHE=off` turns both caches off; any other value is the directory
  (default `~/.cache/xdsl-spatial`), made with mode 0700 when missing.
- A directory, or an entry, that is not owned by the user, or that its group or
  others may write, is not used: one warning names it and why, and the model is built
  (or the code compiled) without the cache. So is an entry of the wrong kind (a
  directory, a symbolic link, a device where a file should be). An entry is checked on
  the open file (`fstat`), so it cannot be swapped between the check and the read.
- Entries are written beside and renamed (`files.write_file`), with mode 0600; a
  failed write removes its temporary file, and one a killed process left (`.NAME.*.tmp`)
  is deleted by the next eviction once it is `STALE_SECONDS` old.
- `XDSL_SPATIAL_CACHE_SIZE` caps the entries' total size (default `DEFAULT_SIZE`, 2
  GiB; `512M`, `10G`, or `0` to keep nothing): after each store the least recently
  used entries (a load marks an entry used) are deleted until the rest fit. An entry
  larger than the cap is not stored.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import mmap
import os
import stat
import time
import warnings
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from xdsl_spatial.core.files import ToolError, write_file
from xdsl_spatial.core.memory import format_bytes, parse_bytes

Buffer = bytes | bytearray | memoryview
"""What an entry is written from, or read into."""

CACHE_ENV = "XDSL_SPATIAL_CACHE"
"""The environment variable naming the cache's directory (`off`: no cache)."""

CACHE_SIZE_ENV = "XDSL_SPATIAL_CACHE_SIZE"
"""The environment variable capping the cache's size."""

DEFAULT_SIZE = 2 << 30
"""The cap without `XDSL_SPATIAL_CACHE_SIZE`: a dozen SmolLM2-135M models (~100-170
MB each) and their machine code."""

STALE_SECONDS = 3600
"""A temporary file older than this is one a killed process left (writing an entry
takes seconds), deleted by the next eviction."""

ENTRIES = ("*.model", "native/*.o")
"""The entries of both caches, relative to the directory: what the cap counts."""

TEMPORARIES = (".*.model.*.tmp", "native/.*.o.*.tmp")
"""The temporary files `write_entry` makes beside them."""

HELP = (
    f"The disk cache of built models and native code is ${CACHE_ENV} (default "
    f"~/.cache/xdsl-spatial; off: no cache), capped at ${CACHE_SIZE_ENV} bytes (default "
    f"{DEFAULT_SIZE >> 30}G, e.g. 512M; the least recently used entries go first); a "
    "directory or entry that is not yours alone is not used."
)
"""What the tools' `--help` says about the cache."""

_PACKAGES = (
    "xdsl_spatial",
    "xdsl_spatial.dialects",
    "xdsl_spatial.passes",
    "xdsl_spatial.interpreters",
    "xdsl_spatial.tools",
)

_warned: set[str] = set()


def _warn_once(message: str) -> None:
    """A warning about the cache, given once a process (both caches may meet the
    same directory)."""
    if message not in _warned:
        _warned.add(message)
        warnings.warn(message, stacklevel=3)


def cache_root() -> Path | None:
    """`$XDSL_SPATIAL_CACHE`, else `~/.cache/xdsl-spatial`; None when it is `off`."""
    where = os.environ.get(CACHE_ENV)
    if where is not None and where.strip().lower() == "off":
        return None
    return Path(where) if where else Path.home() / ".cache" / "xdsl-spatial"


def cache_size() -> int:
    """The cap on the entries' total size: `XDSL_SPATIAL_CACHE_SIZE`, else
    `DEFAULT_SIZE`; a setting that is not a byte count is a `ToolError` naming it."""
    text = os.environ.get(CACHE_SIZE_ENV)
    if not text:
        return DEFAULT_SIZE
    try:
        return parse_bytes(text)
    except ValueError as e:
        raise ToolError(f"{CACHE_SIZE_ENV}={text}: {e}") from None


def untrusted(st: os.stat_result) -> str | None:
    """Why a cache directory or entry of this status is not to be trusted (another
    user's, or writable by its group or others), or None."""
    me = os.geteuid()
    if st.st_uid != me:
        return f"it is owned by user id {st.st_uid}, not by you ({me})"
    who = [
        w for w, bit in (("its group", stat.S_IWGRP), ("others", stat.S_IWOTH)) if st.st_mode & bit
    ]
    if who:
        mode = stat.S_IMODE(st.st_mode)
        return f"{' and '.join(who)} may write it (mode {mode:o}; chmod go-w makes it yours alone)"
    return None


def open_dir(where: Path) -> Path | None:
    """`where`, made with mode 0700 if missing; None, with one warning, when it cannot
    be made or is not to be trusted (not a directory, another user's, writable by
    others): the caller then works without the cache."""
    try:
        where.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = os.stat(where)  # through a symbolic link: the directory it names
    except FileExistsError:
        _warn_once(f"the cache directory {where} is not a directory; working without the cache")
        return None
    except OSError as e:
        _warn_once(
            f"the cache directory {where} cannot be used ({e.strerror or e}); working without it"
        )
        return None
    if not stat.S_ISDIR(st.st_mode):
        _warn_once(f"the cache directory {where} is not a directory; working without the cache")
        return None
    why = untrusted(st)
    if why is not None:
        _warn_once(f"the cache directory {where} is not used: {why}; working without it")
        return None
    return where


def read_entry(path: Path) -> bytes | None:
    """The bytes of the entry `path`, or None: absent, or refused with one warning (of
    the wrong kind, another user's, writable by others), which leaves it unread."""
    data = read_entry_into(path, bytearray)
    return None if data is None else bytes(data)


def read_entry_into(path: Path, allocate: Callable[[int], Buffer]) -> memoryview | None:
    """`read_entry`, read into the buffer `allocate(size)` gives (the entry's size when
    it was opened: one that changed meanwhile is read as far as that, or less when it
    was cut short, which its checksum then tells), as a memoryview of what was read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as e:
        if path.is_symlink():
            _warn_once(f"the cache entry {path} is a symbolic link, not a file; not read")
        else:
            _warn_once(f"the cache entry {path} cannot be read ({e.strerror or e})")
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            _warn_once(f"the cache entry {path} is not a file; not read")
            return None
        why = untrusted(st)
        if why is not None:
            _warn_once(f"the cache entry {path} is not read: {why}")
            return None
        data = memoryview(allocate(st.st_size)).cast("B")
        done = 0
        with os.fdopen(os.dup(fd), "rb", buffering=0) as f:
            while done < st.st_size and (n := f.readinto(data[done:])):
                done += n
    finally:
        os.close(fd)
    with contextlib.suppress(OSError):
        os.utime(path)  # used now: the last to be let go
    return data[:done]


def write_entry(path: Path, payload: Buffer) -> str | None:
    """Store `payload` as the entry `path` (beside and renamed, mode 0600); None, or why
    it was not stored: larger than the cap, an entry of the wrong kind in its place (a
    directory, a link: left alone), or a write that failed (its temporary file removed)."""
    cap = cache_size()
    size = memoryview(payload).nbytes
    if size > cap:
        return f"it is {format_bytes(size)}, more than the cache's cap of {format_bytes(cap)} ({CACHE_SIZE_ENV})"
    if path.is_symlink() or (path.exists() and not path.is_file()):
        return f"{path} is not a file"
    try:
        write_file(str(path), payload, "cache entry", mode=0o600)
    except ToolError as e:
        return str(e)
    return None


def evict(root: Path) -> None:
    """Delete the temporary files killed writers left (older than `STALE_SECONDS`),
    then the least recently used entries of `root` until the rest fit the cap."""
    now = time.time()
    for pattern in TEMPORARIES:
        for p in root.glob(pattern):
            with contextlib.suppress(OSError):
                if now - p.lstat().st_mtime > STALE_SECONDS:
                    p.unlink()
    entries = []
    for pattern in ENTRIES:
        for p in root.glob(pattern):
            with contextlib.suppress(OSError):
                st = p.lstat()
                if stat.S_ISREG(st.st_mode):
                    entries.append((st.st_mtime_ns, st.st_size, p))
    left = cache_size()
    for _, size, p in sorted(entries, key=lambda e: e[0], reverse=True):
        if size <= left:
            left -= size
            continue
        left = 0  # everything older goes too: the cache keeps the most recent
        with contextlib.suppress(OSError):
            p.unlink()


def source_files() -> list[tuple[str, Path]]:
    """Every Python source of the package: its name in the package and its path."""
    out = []
    for name in _PACKAGES:
        spec = importlib.util.find_spec(name)
        for root in (spec.submodule_search_locations or []) if spec else []:
            out += [(f"{name}/{p.relative_to(root)}", p) for p in sorted(Path(root).rglob("*.py"))]
    return out


def sources_digest(files: list[tuple[str, Path]]) -> str:
    """The SHA-256 of `files`' names and bytes."""
    h = hashlib.sha256()
    for name, path in files:
        h.update(f"{name}\0".encode())
        h.update(path.read_bytes())
    return h.hexdigest()


@lru_cache(maxsize=1)
def code_digest() -> str:
    """The digest of every Python source of the package (`sources_digest`): an edited
    checkout or an upgrade never reads an entry an older one wrote, whichever file
    decided it (a dialect's verifier, the tile arithmetic, a conversion)."""
    return sources_digest(source_files())


def file_digest(path: str | os.PathLike[str]) -> str:
    """The SHA-256 of a file's contents (SmolLM2-135M's 98 MB: ~0.1 s), hashed in one
    call over its mapping: hashlib lets go of Python's lock for the whole of it, so a
    digest taken on another thread runs beside Python code there (read chunk by chunk,
    it took the lock back after each chunk, and waited for it: 0.35 s beside reading
    the file's head and the prompt's tokens, 0.1 s alone)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        if os.fstat(f.fileno()).st_size:
            with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
                h.update(m)
    return h.hexdigest()
