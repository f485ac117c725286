"""
Built models kept on disk, so that the next load of the same model is one read.

What a load makes from a GGUF file is the weights bound to the functions' arguments
and each function's compiled executable (the IR is built, lowered and compiled once,
and the executables are what runs). An entry holds exactly that, with the config, the
tokenizer's metadata and what `q8-lower` decided; not the IR, which the executables no
longer need and which xDSL would parse back far slower than it builds it.

An entry's key is a hash of

- the GGUF file's identity: its absolute path, size and modification time;
- the options that shape the model: the prefill's tokens, the cache's positions, the
  chips, whether it is lowered, whether weights were re-quantised;
- this package's version and a digest of its Python sources (an edited checkout never
  reads an entry an older one wrote), and the Python, numpy and xDSL versions.

Entries live under `$XDSL_SPATIAL_CACHE`, else `~/.cache/xdsl-spatial`, one file each,
written whole or not at all (`core.files.write_file`); the `KEEP` most recently used
are kept, older ones deleted when a new one is stored. A file starts with a magic line
and the SHA-256 of the rest: an entry that is cut short or altered is found when read,
deleted, and the model built again. The executables hold functions (kernels made when
compiling), stored by `cloudpickle`, which Python's `pickle` then loads: like any
pickle, an entry runs code when it is loaded, so the cache directory must be as
trusted as the package itself (it is the user's own, under their home).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import importlib.util
import io
import json
import os
import pickle
import sys
import warnings
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import xdsl
from xdsl.ir import Block, Operation, Region, SSAValue

from xdsl_spatial.core.files import ToolError, write_file

CACHE_ENV = "XDSL_SPATIAL_CACHE"
"""The environment variable naming the cache's directory."""

FORMAT = 1
"""The layout of an entry; a new one makes every older entry a miss."""

MAGIC = b"xdsl-spatial model cache\n"

SUFFIX = ".model"

KEEP = 4
"""Entries kept: storing one deletes the least recently used past these (an entry of
SmolLM2-135M is ~170 MB)."""

_PACKAGES = (
    "xdsl_spatial",
    "xdsl_spatial.dialects",
    "xdsl_spatial.passes",
    "xdsl_spatial.interpreters",
    "xdsl_spatial.tools",
)


def cache_dir() -> Path:
    """`$XDSL_SPATIAL_CACHE`, else `~/.cache/xdsl-spatial`."""
    where = os.environ.get(CACHE_ENV)
    return Path(where) if where else Path.home() / ".cache" / "xdsl-spatial"


@lru_cache(maxsize=1)
def code_digest() -> str:
    """The SHA-256 of every Python source of the package (its path and its bytes)."""
    h = hashlib.sha256()
    for name in _PACKAGES:
        spec = importlib.util.find_spec(name)
        for root in (spec.submodule_search_locations or []) if spec else []:
            for path in sorted(Path(root).rglob("*.py")):
                h.update(f"{name}/{path.relative_to(root)}\0".encode())
                h.update(path.read_bytes())
    return h.hexdigest()


def _version() -> str:
    try:
        return importlib.metadata.version("xdsl-spatial")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def model_key(path: str | os.PathLike[str], **options: Any) -> str:
    """The key of the model of the GGUF file `path` made with `options`."""
    st = os.stat(path)
    ident = {
        "format": FORMAT,
        "file": [os.path.abspath(path), st.st_size, st.st_mtime_ns],
        "options": options,
        "package": _version(),
        "code": code_digest(),
        "python": sys.version,
        "numpy": np.__version__,
        "xdsl": str(getattr(xdsl, "__version__", "unknown")),
    }
    return hashlib.sha256(json.dumps(ident, sort_keys=True).encode()).hexdigest()[:40]


def entry_path(where: Path, key: str) -> Path:
    return where / f"{key}{SUFFIX}"


def load(where: Path, key: str) -> Any | None:
    """The object stored under `key`, or None: no entry, or one that is damaged or
    whose loading fails (a native function whose code the compile cache no longer
    holds), which is deleted, so that the next store replaces it."""
    path = entry_path(where, key)
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head = len(MAGIC) + 32
    body = memoryview(data)[head:]
    try:
        if data[: len(MAGIC)] != MAGIC or hashlib.sha256(body).digest() != data[len(MAGIC) : head]:
            raise ValueError("its checksum does not match")
        obj = pickle.loads(body)
    except Exception as e:
        warnings.warn(
            f"the cached model {path} cannot be used ({e}); building it again", stacklevel=2
        )
        with contextlib.suppress(OSError):
            path.unlink()
        return None
    with contextlib.suppress(OSError):
        os.utime(path)  # used now: the last to be let go
    return obj


class _Pickler:
    """cloudpickle's pickler refusing IR: an executable holds none (it would drag the
    whole module, through the ops' links, into the entry)."""

    def __init__(self) -> None:
        import cloudpickle

        class Pickler(cloudpickle.Pickler):
            def reducer_override(self, obj: Any) -> Any:
                if isinstance(obj, (Operation, SSAValue, Block, Region)):
                    raise pickle.PicklingError(f"it holds IR ({type(obj).__name__})")
                return super().reducer_override(obj)

        self.cls = Pickler

    def dumps(self, obj: Any) -> bytes:
        out = io.BytesIO()
        self.cls(out, protocol=pickle.HIGHEST_PROTOCOL).dump(obj)
        return out.getvalue()


def store(where: Path, key: str, obj: Any) -> bool:
    """Keep `obj` under `key`; False (with a warning) when it cannot be, which only
    costs the next load its time."""
    path = entry_path(where, key)
    try:
        body = _Pickler().dumps(obj)
        where.mkdir(parents=True, exist_ok=True)
        write_file(str(path), MAGIC + hashlib.sha256(body).digest() + body, "the model cache")
    except (OSError, ToolError, pickle.PicklingError, RecursionError, ImportError) as e:
        warnings.warn(f"the model is not cached in {where}: {e}", stacklevel=2)
        return False
    _evict(where)
    return True


def _evict(where: Path, keep: int = KEEP) -> None:
    """Delete the entries past the `keep` most recently used."""
    entries = []
    for p in where.glob(f"*{SUFFIX}"):
        with contextlib.suppress(OSError):
            entries.append((p.stat().st_mtime_ns, p))
    for _, p in sorted(entries, reverse=True)[keep:]:
        with contextlib.suppress(OSError):
            p.unlink()
