"""
Built models kept on disk, so that the next load of the same model is one read.

What a load makes from a GGUF file is the weights bound to the functions' arguments
and each function's compiled executable (the IR is built, lowered and compiled once,
and the executables are what runs). An entry holds exactly that, with the config, the
tokenizer's metadata and what `q8-lower` decided; not the IR, which the executables no
longer need and which xDSL would parse back far slower than it builds it.

An entry's key is a hash of

- the GGUF file: the SHA-256 of its contents (read once a load: ~0.2 s for
  SmolLM2-135M's 98 MB), so a file changed in place, even with its modification time
  put back, is never answered from the cache; and its absolute path, size and
  modification time;
- the options that shape the model: the prefill's tokens, the cache's positions, the
  chips, whether it is lowered, whether weights were re-quantised, the engine;
- this package's version and a digest of all its Python sources
  (`disk_cache.code_digest`: an edited checkout never reads an entry an older one
  wrote), and the Python, numpy and xDSL versions.

Entries live in the disk cache's directory (`core/disk_cache.py`: `$XDSL_SPATIAL_CACHE`,
else `~/.cache/xdsl-spatial`; `off` for none), one file each, written whole or not at
all with mode 0600, under the cache's size cap (`$XDSL_SPATIAL_CACHE_SIZE`, default 2
GiB: the least recently used are deleted when a new one is stored). A file starts
with a magic line and a checksum of the rest (SHA-256s of its parts, `checksum`): an
entry that is cut short or altered is found when read, before its pickle runs,
deleted, and the model built again; one that holds something else than a model is
reported and replaced. The executables hold functions (kernels made
when compiling), stored by `cloudpickle`, which Python's `pickle` then loads: like any
pickle, an entry runs code when it is loaded, so an entry or a directory that is not
the user's alone (another owner, writable by its group or others) is never read:
one warning, and the model is built without the cache.

An entry's arrays (the weights) are not in its pickle: pickle's protocol 5 hands them
over apart, and they follow it, each on a cache line, so that a load reads the file
once into one mapping of huge pages (`memory.huge_region`) and the unpickled arrays
are views of it where the file put them: no copy, and already where
`memory.in_huge_pages` would have put them. The layout after the magic line and the
checksum: the pickle's length and the arrays' count (two little-endian u64), each
array's offset in the file and length (two u64 each), the pickle, the arrays.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import io
import json
import os
import pickle
import struct
import sys
import warnings
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import xdsl

from xdsl_spatial.core import disk_cache
from xdsl_spatial.core.disk_cache import CACHE_ENV
from xdsl_spatial.core.memory import LINE, huge_region

__all__ = [
    "CACHE_ENV",
    "batched_key",
    "cache_dir",
    "checksum",
    "entry_bytes",
    "load",
    "model_key",
    "store",
]

MAGIC = b"xdsl-spatial model cache\n"

FORMAT = 3
"""The layout of an entry; a new one makes every older entry a miss."""

_COUNTS = struct.Struct("<QQ")
"""The pickle's length and the arrays' count."""

_SPAN = struct.Struct("<QQ")
"""An array's offset in the file and its length."""

_DIGEST = len(MAGIC) + 32
"""Where the checksummed part of an entry starts."""

_PARTS = 8
"""The parts an entry's checksum hashes apart (`checksum`): as many as a machine's
cores may use at once, whatever the machine that reads it."""

SUFFIX = ".model"


def cache_dir() -> Path | None:
    """The disk cache's directory (`disk_cache.cache_root`); None when it is off."""
    return disk_cache.cache_root()


def _version() -> str:
    try:
        return importlib.metadata.version("xdsl-spatial")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def model_key(
    path: str | os.PathLike[str], contents: Future[str] | None = None, **options: Any
) -> str:
    """The key of the model of the GGUF file `path` made with `options`; `contents`:
    the digest of the file (`disk_cache.file_digest`) begun beside, else taken now."""
    st = os.stat(path)
    ident = {
        "format": FORMAT,
        "file": [os.path.abspath(path), st.st_size, st.st_mtime_ns],
        "contents": disk_cache.file_digest(path) if contents is None else contents.result(),
        "options": options,
        "package": _version(),
        "code": disk_cache.code_digest(),
        "python": sys.version,
        "numpy": np.__version__,
        "xdsl": str(getattr(xdsl, "__version__", "unknown")),
    }
    return hashlib.sha256(json.dumps(ident, sort_keys=True).encode()).hexdigest()[:40]


def batched_key(key: str, entry: str, sequences: int) -> str:
    """The key of the batched model (`entry` for `sequences` sequences) of the model
    kept under `key`: its file, options and code are that model's."""
    ident = {"format": FORMAT, "model": key, "entry": entry, "sequences": sequences}
    return hashlib.sha256(json.dumps(ident, sort_keys=True).encode()).hexdigest()[:40]


def entry_path(where: Path, key: str) -> Path:
    return where / f"{key}{SUFFIX}"


def load(where: Path, key: str, kind: type = object) -> Any | None:
    """The object stored under `key`, or None: no entry, one that is not to be trusted
    (`disk_cache.read_entry` warns), or one that is damaged, whose loading fails (a
    native function whose code the compile cache no longer holds) or that holds no
    `kind`, which is deleted (with a warning), so that the next store replaces it."""
    path = entry_path(where, key)
    if disk_cache.open_dir(where) is None:
        return None
    data = disk_cache.read_entry_into(path, _region)
    if data is None:
        return None
    try:
        body, arrays = _parts(data)
        obj = pickle.loads(body, buffers=arrays)
        if not isinstance(obj, kind):
            raise ValueError(f"it holds a {type(obj).__name__}, not a {kind.__name__}")
    except Exception as e:
        warnings.warn(
            f"the cached model {path} cannot be used ({e}); building it again", stacklevel=2
        )
        with contextlib.suppress(OSError):
            path.unlink()
        return None
    return obj


def checksum(data: memoryview) -> bytes:
    """An entry's checksum of `data`: the SHA-256 of the SHA-256s of its `_PARTS`
    equal parts, hashed on as many threads as there are cores (hashlib lets go of
    Python's lock while it hashes): SmolLM2's 145 MB in 0.07 s on two cores, 0.13 s
    on one."""
    n = -(-len(data) // _PARTS)
    parts = [data[i * n : (i + 1) * n] for i in range(_PARTS)]
    with ThreadPoolExecutor(max_workers=min(_PARTS, os.cpu_count() or 1)) as pool:
        digests = list(pool.map(lambda p: hashlib.sha256(p).digest(), parts))
    return hashlib.sha256(b"".join(digests)).digest()


def _region(size: int) -> memoryview:
    """Where an entry is read: huge pages where the system has them."""
    region = huge_region(size)
    return memoryview(bytearray(size)) if region is None else region


def _parts(data: memoryview) -> tuple[memoryview, list[memoryview]]:
    """An entry's pickle and its arrays' bytes, checked against its checksum and
    bounds (a `ValueError` saying what is wrong)."""
    if data[: len(MAGIC)] != MAGIC or len(data) < _DIGEST + _COUNTS.size:
        raise ValueError("it is not a model entry")
    if checksum(data[_DIGEST:]) != data[len(MAGIC) : _DIGEST]:
        raise ValueError("its checksum does not match")
    size, count = _COUNTS.unpack_from(data, _DIGEST)
    start = _DIGEST + _COUNTS.size + count * _SPAN.size
    if start + size > len(data):
        raise ValueError("it ends inside its header")
    spans = [_SPAN.unpack_from(data, _DIGEST + _COUNTS.size + i * _SPAN.size) for i in range(count)]
    if any(at < start + size or at + n > len(data) for at, n in spans):
        raise ValueError("an array lies outside it")
    return data[start : start + size], [data[at : at + n] for at, n in spans]


class _Pickler:
    """cloudpickle's pickler refusing IR: an executable holds none (it would drag the
    whole module, through the ops' links, into the entry)."""

    def __init__(self) -> None:
        import cloudpickle
        from xdsl.ir import Block, Operation, Region, SSAValue

        class Pickler(cloudpickle.Pickler):
            def reducer_override(self, obj: Any) -> Any:
                if isinstance(obj, (Operation, SSAValue, Block, Region)):
                    raise pickle.PicklingError(f"it holds IR ({type(obj).__name__})")
                return super().reducer_override(obj)

        self.cls = Pickler

    def dumps(self, obj: Any) -> tuple[bytes, list[memoryview]]:
        """The pickle of `obj` and, apart, the bytes of the arrays it holds."""
        out, arrays = io.BytesIO(), []
        self.cls(out, protocol=5, buffer_callback=arrays.append).dump(obj)
        return out.getvalue(), [a.raw() for a in arrays]


def entry_bytes(body: bytes, arrays: list[memoryview]) -> bytearray:
    """An entry's bytes: its header, the pickle `body` and the `arrays`, each on a
    cache line of the file, checksummed."""
    start = _DIGEST + _COUNTS.size + len(arrays) * _SPAN.size
    at, spans = start + len(body), []
    for a in arrays:
        at = -(-at // LINE) * LINE
        spans.append((at, a.nbytes))
        at += a.nbytes
    out = bytearray(at)
    out[: len(MAGIC)] = MAGIC
    _COUNTS.pack_into(out, _DIGEST, len(body), len(arrays))
    for i, span in enumerate(spans):
        _SPAN.pack_into(out, _DIGEST + _COUNTS.size + i * _SPAN.size, *span)
    out[start : start + len(body)] = body
    for a, (at, n) in zip(arrays, spans):
        out[at : at + n] = a
    out[len(MAGIC) : _DIGEST] = checksum(memoryview(out)[_DIGEST:])
    return out


def store(where: Path, key: str, obj: Any) -> bool:
    """Keep `obj` under `key`; False (with a warning) when it cannot be, which only
    costs the next load its time."""
    if disk_cache.open_dir(where) is None:
        return False
    path = entry_path(where, key)
    try:
        body, arrays = _Pickler().dumps(obj)
    except (pickle.PicklingError, RecursionError, ImportError, TypeError) as e:
        warnings.warn(f"the model is not cached in {where}: {e}", stacklevel=2)
        return False
    why = disk_cache.write_entry(path, entry_bytes(body, arrays))
    if why is not None:
        warnings.warn(f"the model is not cached in {where}: {why}", stacklevel=2)
        return False
    disk_cache.evict(where)
    return True
