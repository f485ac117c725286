"""
How much memory a run may take, and byte counts written the way people read them.

A tensor the machine cannot hold is refused before anything allocates it (by the
parser for a dense attribute, by `interpreters.arguments.check_allocations` for a
function's values), with the bytes it would need. The limit is the machine's
physical memory, or `XDSL_SPATIAL_MEMORY_LIMIT` (bytes, or with a K, M, G or T
suffix: `512M`) when set; a setting that is not a byte count is an error naming the
variable, and a refusal says which of the two the limit came from.

`aligned` and `aligned_empty` give arrays whose data starts on a 64-byte cache line:
numpy's large arrays start 16 bytes past a page (glibc's header), and the native
engine's stream kernels read a weight that starts so about 1.5x slower (a strip of a
row then spans one line more than the lines asked for ahead: docs/native.md).

`in_huge_pages` places a model's weights in one mapping the kernel is asked to back
with transparent huge pages: a decode step reads every weight once, a row of a wide one
a page apart from the next, and with 4 KiB pages the translations miss.

`keep_freed_memory` tunes glibc's allocator for a process that allocates the same large
arrays again and again (a decode step's results); `collector_paused` keeps Python's
cyclic collector off while a step makes many IR objects.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import math
import mmap
import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from xdsl_spatial.core.files import ToolError

MEMORY_LIMIT_ENV = "XDSL_SPATIAL_MEMORY_LIMIT"
"""The environment variable that lowers (or raises) the memory limit."""

_SUFFIX = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def physical_memory() -> int:
    """Bytes of physical memory, as the OS reports them (2**63 when it does not)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 1 << 63


def parse_bytes(text: str) -> int:
    """`1048576`, `512M`, `4G` as bytes; ValueError for anything else."""
    m = re.fullmatch(r"\s*(\d+)\s*([KMGT]?)i?B?\s*", text, re.IGNORECASE)
    if m is None:
        raise ValueError(f"expected a byte count such as 1048576, 512M or 4G, got {text!r}")
    return int(m.group(1)) * _SUFFIX[m.group(2).upper()]


def memory_limit() -> int:
    """The most bytes one value may take: `XDSL_SPATIAL_MEMORY_LIMIT`, else physical
    memory. A setting that is not a byte count is a `ToolError` naming the variable."""
    text = os.environ.get(MEMORY_LIMIT_ENV)
    if text:
        try:
            return parse_bytes(text)
        except ValueError as e:
            raise ToolError(f"{MEMORY_LIMIT_ENV}={text}: {e}") from None
    return physical_memory()


def limit_text(limit: int) -> str:
    """`the memory limit of N bytes (...)`, saying where the limit comes from: the
    variable, or the machine's memory (and the variable that sets another)."""
    if os.environ.get(MEMORY_LIMIT_ENV):
        source = f"set by {MEMORY_LIMIT_ENV}"
    else:
        source = f"the machine's memory; {MEMORY_LIMIT_ENV} sets another"
    return f"the memory limit of {format_bytes(limit)} ({source})"


def format_bytes(n: int) -> str:
    """`9,437,184 bytes (9.0 MiB)`: exact, with thousands separators, and readable."""
    exact = f"{n:,} byte" + ("" if n == 1 else "s")
    for unit, shift in (
        ("EiB", 60),
        ("PiB", 50),
        ("TiB", 40),
        ("GiB", 30),
        ("MiB", 20),
        ("KiB", 10),
    ):
        if n >= 1 << shift:
            return f"{exact} ({n / (1 << shift):.1f} {unit})"
    return exact


def plural(n: int, word: str, words: str | None = None) -> str:
    """`1 item`, `2 items`, `1,024 tiles`."""
    return f"{n:,} {word if n == 1 else (words or word + 's')}"


LINE = 64
"""Bytes of a cache line: where `aligned` arrays start."""


def aligned_empty(shape: Sequence[int], dtype: Any, past: int = 0) -> np.ndarray:
    """An uninitialised C-contiguous array of `shape` whose data starts on a `LINE`,
    or `past` bytes after one (an empty one has no data to place)."""
    dt = np.dtype(dtype)
    size = math.prod(shape) * dt.itemsize
    buf = np.empty(size + LINE, np.uint8)
    start = (past - buf.ctypes.data) % LINE
    return buf[start : start + size].view(dt).reshape(tuple(shape))


def aligned(a: np.ndarray) -> np.ndarray:
    """`a` itself when its data is C-contiguous and starts on a `LINE`, else a copy
    that is (the same values)."""
    if a.flags.c_contiguous and a.ctypes.data % LINE == 0:
        return a
    out = aligned_empty(a.shape, a.dtype)
    out[...] = a
    return out


HUGE_PAGE = 2 << 20
"""A transparent huge page on x86-64 and arm64 (4 KiB base pages): where the mapping
starts, so that every 2 MiB of it may be one."""


class HugePages(mmap.mmap):
    """A private anonymous mapping that `in_huge_pages` asked the kernel to back with
    transparent huge pages."""


def in_huge_pages(arrays: Sequence[np.ndarray]) -> list[np.ndarray]:
    """`arrays`, the same values, in one private anonymous mapping that the kernel is
    asked to back with transparent huge pages (`madvise(MADV_HUGEPAGE)`, which Linux
    honours when `/sys/kernel/mm/transparent_hugepage/enabled` is `always` or
    `madvise`), from a `HUGE_PAGE` boundary on, each starting on a `LINE`. A decode
    step streams every weight once; in 4 KiB pages a head's 576 rows of 49,152 bytes
    are a page each, and each costs a page walk (docs/native.md measures what huge
    pages save a decode step). Arrays each in such a mapping already are returned as
    they are; without the advice (not Linux) each is `aligned`."""
    if all(huge_mapping(a) is not None for a in arrays):
        return list(arrays)
    starts, size = [], 0
    for a in arrays:
        starts.append(size)
        size += -(-a.nbytes // LINE) * LINE
    region = huge_region(size)
    if region is None:
        return [aligned(a) for a in arrays]
    flat = np.frombuffer(region, np.uint8)
    out = []
    for a, start in zip(arrays, starts):
        placed = flat[start : start + a.nbytes].view(a.dtype).reshape(a.shape)
        placed[...] = a
        out.append(placed)
    return out


def huge_region(size: int) -> memoryview | None:
    """`size` writable bytes of a new `HugePages` mapping (private, anonymous, the
    kernel asked to back it with transparent huge pages), starting on a `HUGE_PAGE`
    boundary, whole huge pages from there however the mapping falls; None without the
    advice (not Linux). An array viewing it is in huge pages (`in_huge_pages` leaves
    it where it is)."""
    advice = getattr(mmap, "MADV_HUGEPAGE", None)
    flags = getattr(mmap, "MAP_PRIVATE", 0) | getattr(mmap, "MAP_ANONYMOUS", 0)
    if advice is None or not flags:
        return None
    mapping = HugePages(-1, (-(-size // HUGE_PAGE) + 1) * HUGE_PAGE, flags=flags)
    with contextlib.suppress(OSError):  # a kernel without them: 4 KiB pages, as before
        mapping.madvise(advice)
    first = -np.frombuffer(mapping, np.uint8).ctypes.data % HUGE_PAGE
    return memoryview(mapping)[first : first + size]


def huge_mapping(a: np.ndarray) -> HugePages | None:
    """The `HugePages` mapping `a` is a view of, or None."""
    base: object = a
    while isinstance(base, np.ndarray):
        base = base.base
    if isinstance(base, memoryview):  # np.frombuffer's view of the mapping
        base = base.obj
    return base if isinstance(base, HugePages) else None


def keep_freed_memory() -> str:
    """Tell glibc's malloc to keep the memory a process frees (no trimming, no `mmap`
    below 32 MiB) rather than give it back to the system, and say what was done. A
    process that allocates the same large arrays call after call (a model's decode
    step returns its KV caches anew each time, and the native engine's results are
    fresh arrays) otherwise pays a page fault for every page of them at every call:
    about a fifth of SmolLM2's decode step at 256 positions. The memory it keeps is what
    the process used at its peak, which it would take again. No-op without glibc."""
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return "malloc as is (no glibc)"
    m_trim_threshold, m_mmap_threshold = -1, -3
    ok = libc.mallopt(m_mmap_threshold, 32 << 20) == 1
    ok = libc.mallopt(m_trim_threshold, 1 << 30) == 1 and ok
    return "malloc keeps freed memory" if ok else "malloc as is (mallopt refused)"


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic collector off while a step makes many IR objects (building a
    model, lowering it, preparing it for the native engine): each object made counts
    towards the collector's next pass, and its full passes walk every object the
    process holds (a whole model's IR, its copies), which made lowering SmolLM2 half
    again as slow and preparing its decode step 2-3x slower. What the step leaves
    unreachable is collected once the collector runs again."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


@contextmanager
def collector_frozen() -> Iterator[None]:
    """The objects alive now left out of Python's cyclic collector's passes while a
    loop runs (`gc.freeze`), and given back after: a decode loop makes few objects that
    live, but its full passes would walk every object the process holds (the model's
    IR, the weights' wrappers). Measured on SmolLM2's batched step of 8 sequences, the
    passes took 39% of a step (perf), and with them frozen out (and malloc keeping
    freed memory) a step took 168 ms instead of 350."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
