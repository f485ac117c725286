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
module's text before conversion (the conversions are this package's: its version and
a digest of the conversions' and this engine's source files are in the key too), the pass pipeline and opt level, this package's, xDSL's and
torch-mlir's versions, the loader's format, and the host CPU (its model and feature
flags: the JIT compiles for the host it runs on). A stale entry is never found (its
key differs); an entry that does not read back whole (truncated, a wrong checksum,
an object the loader refuses) is compiled afresh and replaced. Entries are written
beside and renamed, so a crash never leaves half of one.

`XDSL_SPATIAL_CACHE=off` turns the cache off.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from xdsl_spatial.core.files import ToolError, write_file
from xdsl_spatial.interpreters.native.host import host_cpu
from xdsl_spatial.interpreters.native.jit import OPT_LEVEL
from xdsl_spatial.interpreters.native.objects import Image, ObjectError, load_object
from xdsl_spatial.passes import convert_q8_to_linalg, convert_spatial_to_linalg

CACHE_ENV = "XDSL_SPATIAL_CACHE"
MAGIC = b"xdsl-spatial native object 1\n"
FORMAT = 1
"""The entry format and the loader's: a change makes every older entry stale."""


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "none"


def _code_digest() -> str:
    """The SHA-256 of the code that turns a function into machine code (the two
    conversions and this engine): with an editable install, code changes without the
    package's version, and an entry made by older code must not be found."""
    files = [Path(convert_q8_to_linalg.__file__)]
    files += sorted(Path(convert_spatial_to_linalg.__file__).parent.glob("*.py"))
    files += sorted(Path(__file__).parent.glob("*.py"))
    h = hashlib.sha256()
    for f in files:
        h.update(f.read_bytes())
    return h.hexdigest()


@dataclass(frozen=True)
class CompileCache:
    """A folder of compiled functions (None: no cache)."""

    folder: Path | None

    @staticmethod
    def default() -> CompileCache:
        where = os.environ.get(CACHE_ENV)
        if where == "off":
            return CompileCache(None)
        base = Path(where) if where else Path.home() / ".cache" / "xdsl-spatial"
        return CompileCache(base / "native")

    def key(self, text: str, pipeline: str) -> str:
        h = hashlib.sha256()
        for part in (
            str(FORMAT),
            pipeline,
            str(OPT_LEVEL),
            _version("xdsl-spatial"),
            _code_digest(),
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

    def load(self, key: str, symbol: str) -> Image | None:
        """The entry's code loaded, or None (absent, or not whole: to be rebuilt)."""
        path = self.path(key)
        if path is None:
            return None
        try:
            data = path.read_bytes()
        except OSError:
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
        """Keep `obj` (best effort: a cache that cannot be written is skipped)."""
        path = self.path(key)
        if path is None:
            return
        head = {"symbol": symbol, "size": len(obj), "sha256": hashlib.sha256(obj).hexdigest()}
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_file(str(path), MAGIC + json.dumps(head).encode() + b"\n" + obj, "cache entry")
        except (OSError, ToolError):
            pass
