"""
The native engine's compile cache: the machine code of a function kept on disk, so a
second run of the same model loads it in well under a second instead of compiling.

```python
cache = CompileCache.default()               # $XDSL_SPATIAL_CACHE or ~/.cache/xdsl-spatial
key = cache.key(prepared.source, pipeline(threads))
image = cache.load(key, symbol)              # an objects.Image, or None
cache.store(key, symbol, object_bytes)
```

An entry is one file, `native/<key>.o`: a first line `xdsl-spatial native object 1`,
a JSON line (the symbol called, the object's size and SHA-256), then the object the
JIT wrote. The key is the SHA-256 of everything that decides the code: the outlined
module's text before conversion; a digest of every Python source of the package
(`disk_cache.code_digest`: the conversions, and all they call on, the dialects'
definitions and the tile arithmetic of `core/geometry.py`, decide the converted code);
the pass pipeline and opt level; this package's, xDSL's and torch-mlir's versions; the
loader's format; and the host CPU (its model and feature flags: the JIT compiles for
the host it runs on). A stale entry is never found (its key differs); an entry that
does not read back whole (truncated, a wrong checksum, an object the loader refuses)
is compiled afresh and replaced.

The folder is the disk cache's (`core/disk_cache.py`): `XDSL_SPATIAL_CACHE=off` turns
it off, a folder or entry that is not the user's alone is not used (one warning, and
the code is compiled afresh), entries are written beside and renamed with mode 0600,
a load marks an entry used, and each store evicts past the cache's size cap.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from xdsl_spatial.core import disk_cache
from xdsl_spatial.core.disk_cache import CACHE_ENV
from xdsl_spatial.interpreters.native.host import host_cpu
from xdsl_spatial.interpreters.native.jit import OPT_LEVEL
from xdsl_spatial.interpreters.native.objects import Image, ObjectError, load_object

__all__ = ["CACHE_ENV", "CompileCache", "host_cpu"]

MAGIC = b"xdsl-spatial native object 1\n"
FORMAT = 1
"""The entry format and the loader's: a change makes every older entry stale."""


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "none"


@dataclass(frozen=True)
class CompileCache:
    """The compiled functions in the `native/` folder of a disk cache's directory
    `root` (None: no cache)."""

    root: Path | None

    @staticmethod
    def default() -> CompileCache:
        """The disk cache's (`disk_cache.cache_root`); no cache when it is off."""
        return CompileCache(disk_cache.cache_root())

    @property
    def folder(self) -> Path | None:
        return None if self.root is None else self.root / "native"

    def key(self, text: str, pipeline: str) -> str:
        h = hashlib.sha256()
        for part in (
            str(FORMAT),
            pipeline,
            str(OPT_LEVEL),
            _version("xdsl-spatial"),
            disk_cache.code_digest(),
            _version("xdsl"),
            _version("torch-mlir"),
            host_cpu(),
            text,
        ):
            h.update(part.encode())
            h.update(b"\0")
        return h.hexdigest()

    def path(self, key: str) -> Path | None:
        return None if self.folder is None else self.folder / f"{key}.o"

    def _usable(self) -> bool:
        """The root and its folder exist (made if missing) and are the user's alone
        (`disk_cache.open_dir` warns once when not)."""
        return (
            self.root is not None
            and self.folder is not None
            and disk_cache.open_dir(self.root) is not None
            and disk_cache.open_dir(self.folder) is not None
        )

    def load(self, key: str, symbol: str) -> Image | None:
        """The entry's code loaded, or None (absent, or not whole: to be rebuilt)."""
        path = self.path(key)
        if path is None or not self._usable():
            return None
        data = disk_cache.read_entry(path)
        if data is None:
            return None
        try:
            if not data.startswith(MAGIC):
                return None
            head_end = data.index(b"\n", len(MAGIC))
            head = json.loads(data[len(MAGIC) : head_end])
            body = data[head_end + 1 :]
            if (
                head.get("symbol") != symbol
                or head.get("size") != len(body)
                or head.get("sha256") != hashlib.sha256(body).hexdigest()
            ):
                return None
            return load_object(body)
        except (ValueError, ObjectError):
            return None

    def store(self, key: str, symbol: str, obj: bytes) -> None:
        """Keep `obj` (best effort: a cache that cannot be written is skipped, with a
        warning when it is not to be trusted)."""
        path = self.path(key)
        if path is None or self.root is None or not self._usable():
            return
        head = {"symbol": symbol, "size": len(obj), "sha256": hashlib.sha256(obj).hexdigest()}
        if disk_cache.write_entry(path, MAGIC + json.dumps(head).encode() + b"\n" + obj) is None:
            disk_cache.evict(self.root)  # both caches' entries count
