"""
The AMX tiles' permission: Linux lets a process use the tile registers only once it
has asked (`arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)`); a process that has
not dies of SIGILL at its first tile instruction. Whether the CPU has the unit, and
whether the engine uses it, is `host.py`'s to say.
"""

from __future__ import annotations

import ctypes
import platform
from functools import cache

AMX_ENV = "XDSL_SPATIAL_AMX"
"""`off`: the kernels `auto` chooses keep a block's lanes' loop (`host.choose_kernels`)."""

_SYS_ARCH_PRCTL = 158
_ARCH_REQ_XCOMP_PERM = 0x1023
_XFEATURE_XTILEDATA = 18
"""Linux x86-64's numbers: the `arch_prctl` system call, its request for an extended
state component's permission, and the component of the AMX tiles' data."""


@cache
def tiles_granted() -> bool:
    """Whether Linux grants this process the AMX tiles' state (asked at the first
    call; False off Linux x86-64)."""
    if platform.system() != "Linux" or platform.machine() != "x86_64":
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    # syscall(2) is variadic: each argument a whole long, as the kernel reads it
    args = (ctypes.c_long(v) for v in (_SYS_ARCH_PRCTL, _ARCH_REQ_XCOMP_PERM, _XFEATURE_XTILEDATA))
    return libc.syscall(*args) == 0
