"""
Whether the native engine puts a Q8_0 block's lanes' sum on the host's AMX unit
(`convert-spatial-to-linalg{amx=true}`).

It does when the CPU has AMX-BF16 (`amx_tile` and `amx_bf16` in `/proc/cpuinfo`: Intel
Xeon from Sapphire Rapids on) and Linux grants this process the tile registers' state
(`arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)`, asked once; a process that
has not asked dies of SIGILL at its first tile instruction). `XDSL_SPATIAL_AMX=off`
keeps it off (the generic lanes' loop, on any CPU).
"""

from __future__ import annotations

import ctypes
import os
import platform
from functools import cache

AMX_ENV = "XDSL_SPATIAL_AMX"

_SYS_ARCH_PRCTL = 158
_ARCH_REQ_XCOMP_PERM = 0x1023
_XFEATURE_XTILEDATA = 18
"""Linux x86-64's numbers: the `arch_prctl` system call, its request for an extended
state component's permission, and the component of the AMX tiles' data."""


def _cpu_flags() -> set[str]:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


@cache
def amx_available() -> bool:
    """Whether this CPU has AMX-BF16 and Linux lets this process use its tiles
    (asked at the first call)."""
    if platform.system() != "Linux" or platform.machine() != "x86_64":
        return False
    if not {"amx_tile", "amx_bf16"} <= _cpu_flags():
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    # syscall(2) is variadic: each argument a whole long, as the kernel reads it
    args = (ctypes.c_long(v) for v in (_SYS_ARCH_PRCTL, _ARCH_REQ_XCOMP_PERM, _XFEATURE_XTILEDATA))
    return libc.syscall(*args) == 0


def amx_enabled() -> bool:
    """Whether to compile for the AMX unit: the host has it, and `XDSL_SPATIAL_AMX` is
    not `off`."""
    return os.environ.get(AMX_ENV, "").lower() != "off" and amx_available()
