"""
The OpenMP runtime that a function compiled for threads calls.

`convert-openmp-to-llvm` emits calls into LLVM's OpenMP runtime ABI
(`__kmpc_fork_call`, `__kmpc_for_static_init_8u`, ...), which LLVM's `libomp` and
Intel's `libiomp5` provide (GCC's `libgomp` does not). The `[native]` extra installs
LLVM's from PyPI (`cmeel-libomp`, 2 MB, into `site-packages/cmeel.prefix/lib`); a
system's or a prefix's is found too. The first found is loaded into the process with
its symbols global, so that the JIT and the compile cache's loader (`objects.py`,
which resolves from the process) both find them.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
import sysconfig
from functools import cache
from pathlib import Path

from xdsl_spatial.interpreters.native.jit import NativeUnavailable

NAMES = ("omp", "iomp5")
"""The libraries that provide the ABI: LLVM's, then Intel's (`pip install intel-openmp`)."""


def _candidates() -> list[str]:
    """Where the runtime may be: the `[native]` extra's, a prefix's `lib`, the system's."""
    folders = [
        Path(sysconfig.get_paths()["purelib"]) / "cmeel.prefix" / "lib",
        Path(sys.prefix) / "lib",
        Path(sys.base_prefix) / "lib",
    ]
    found = [str(f / f"lib{n}.so") for n in NAMES for f in folders if (f / f"lib{n}.so").exists()]
    found += [p for p in (ctypes.util.find_library(n) for n in NAMES) if p is not None]
    return found


@cache
def openmp_runtime() -> str:
    """The path of the runtime, loaded (once) with global symbols; NativeUnavailable
    naming what to install when there is none."""
    for path in _candidates():
        try:
            lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        except OSError:
            continue
        if hasattr(lib, "__kmpc_fork_call"):
            return path
    raise NativeUnavailable(
        "native threads need an OpenMP runtime with LLVM's ABI (libomp or libiomp5): "
        "pip install -e '.[native]' (cmeel-libomp), or the system's libomp"
    )
