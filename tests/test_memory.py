"""Arrays on cache lines (`core.memory.aligned`), which the native kernels read fastest,
the native engine's results, which start on one too, and a model's weights in huge
pages (`core.memory.in_huge_pages`)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

from xdsl_spatial.core.memory import (
    HUGE_PAGE,
    LINE,
    aligned,
    aligned_empty,
    huge_region,
    in_huge_pages,
)


@pytest.mark.parametrize("shape", [(0,), (1,), (3, 5), (1000, 4096), (2, 0, 7)])
@pytest.mark.parametrize("dtype", [np.int8, np.float16, np.float32, np.int64])
def test_aligned_empty_starts_on_a_line(shape, dtype):
    a = aligned_empty(shape, dtype)
    assert a.shape == shape and a.dtype == dtype and a.flags.c_contiguous
    assert a.ctypes.data % LINE == 0 or a.size == 0  # (an empty one has no data)
    a[...] = 1  # writable, and the whole of it
    assert (a == 1).all()


def test_aligned_copies_only_what_is_off_a_line():
    rng = np.random.default_rng(0)
    big = rng.integers(-127, 128, (512, 1024), dtype=np.int8)
    moved = aligned_empty(big.shape, big.dtype, past=16)  # as glibc places large blocks
    moved[...] = big
    assert moved.ctypes.data % LINE == 16
    fixed = aligned(moved)
    assert fixed.ctypes.data % LINE == 0 and fixed.tobytes() == big.tobytes()
    assert aligned(fixed) is fixed  # on a line already: itself
    strided = big[:, ::2]  # not contiguous: a contiguous copy on a line
    got = aligned(strided)
    assert got.flags.c_contiguous and got.ctypes.data % LINE == 0
    assert np.array_equal(got, strided)


def test_native_results_start_on_a_line():
    pytest.importorskip("torch_mlir")
    from xdsl_spatial.core.ir_io import parse_module
    from xdsl_spatial.interpreters.native.compiler import compile_native
    from xdsl_spatial.interpreters.runner import verified

    text = """
    func.func @twice(%x: tensor<300x7xf32>) -> (tensor<300x7xf32>, tensor<5xf32>) {
      %y = arith.addf %x, %x : tensor<300x7xf32>
      %z = arith.constant dense<1.0> : tensor<5xf32>
      func.return %y, %z : tensor<300x7xf32>, tensor<5xf32>
    }
    """
    module = parse_module(text)
    exe = compile_native(verified(module, "twice"))
    x = np.arange(2100, dtype=np.float32).reshape(300, 7)
    for _ in range(3):
        y, z = exe(x).outputs
        assert y.ctypes.data % LINE == 0 and z.ctypes.data % LINE == 0
        assert np.array_equal(y, 2 * x) and np.array_equal(z, np.ones(5, np.float32))


def _smaps_field(address: int, field: str) -> int | None:
    """`field` of the mapping of this process that holds `address` (/proc/self/smaps)."""
    inside = False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        if m := re.match(r"([0-9a-f]+)-([0-9a-f]+) ", line):
            inside = int(m[1], 16) <= address < int(m[2], 16)
        elif inside and line.startswith(f"{field}:"):
            return int(line.split()[1])
    return None


def test_weights_in_huge_pages():
    """Every array copied, the same values, shapes and types, each on a line, into one
    mapping from a 2 MiB boundary (the first array there); arrays placed so already
    are themselves. On Linux with transparent huge pages on (`always` or `madvise`),
    the kernel reports the mapping eligible for them."""
    rng = np.random.default_rng(0)
    arrays = [
        rng.integers(-127, 128, (576, 1536), dtype=np.int8),
        rng.standard_normal((18, 1536)).astype(np.float16),
        np.zeros((0, 4), np.float32),
        rng.standard_normal(7).astype(np.float32),
    ]
    placed = in_huge_pages(arrays)
    for a, p in zip(arrays, placed):
        assert p is not a and p.dtype == a.dtype and p.shape == a.shape
        assert p.flags.c_contiguous and p.tobytes() == a.tobytes()
        assert p.ctypes.data % LINE == 0 or p.size == 0
    assert placed[0].ctypes.data % HUGE_PAGE == 0
    ends = [p.ctypes.data + p.nbytes for p in placed if p.size]
    assert max(ends) - placed[0].ctypes.data < sum(a.nbytes for a in arrays) + len(arrays) * LINE
    again = in_huge_pages(placed)
    assert all(a is b for a, b in zip(again, placed))
    assert in_huge_pages([]) == []
    # arrays viewing a region of huge pages (a model read from the disk cache) are
    # where they should be already: left there, not copied
    region = huge_region(3 * LINE)
    if region is not None:
        assert np.frombuffer(region, np.uint8).ctypes.data % HUGE_PAGE == 0
        views = [np.frombuffer(region, np.float32, 4, at) for at in (0, LINE, 2 * LINE)]
        assert all(a is b for a, b in zip(in_huge_pages(views), views))
    setting = Path("/sys/kernel/mm/transparent_hugepage/enabled")
    if not sys.platform.startswith("linux") or not setting.exists():
        return
    on = "[never]" not in setting.read_text()
    eligible = _smaps_field(placed[0].ctypes.data, "THPeligible")
    if eligible is not None:
        assert eligible == int(on)
