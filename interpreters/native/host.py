"""
The host's CPU, read once, and the kernels the native engine compiles for it: the one
place that reads the CPU's features and makes the choice.

```python
chosen = choose_kernels()          # XDSL_SPATIAL_KERNELS, else what this CPU has
chosen.name, chosen.pass_text      # "avx512", "spatial-native-kernels{kind=avx512}"
choose_kernels("generic")          # the plain conversion, on any CPU
```

What a choice decides is how a Q8_0 product's sums are laid out for the CPU, never
what they compute: it is the `kind` of the pass `spatial-native-kernels`
(`passes/native_kernels.py`), which the native engine runs before the target-neutral
`convert-spatial-to-linalg` (docs/native.md). Every choice but `generic` also runs
`linalg-contraction-in-registers` (the host's f32 sums of products, attention's, as
vector code holding 16-column sums in registers); `generic` keeps their loops.

- `generic`: the conversion as written for the chip: every page copied, a block's lanes
  summed for 8 rows x 32 columns at a time (16 vector accumulators). The plain path,
  which the others are tested against.
- `loop`: a product of one row streams its weight (the pages only its sum reads once
  are read where the weight is, and a block's lanes run over all of an item's
  columns), the other rows as in `generic`. Plain loops: on every CPU.
- `avx2`: `loop`, and the lanes of 2 rows or more as 256-bit fused multiply-adds,
  a lane an instruction, the sums held in registers (a block's weights widened to f32
  once for all the rows); the kernels compiled without AVX-512, as a CPU with AVX2
  and FMA but not AVX-512 runs them (any x86-64 CPU with AVX2 and FMA runs them).
- `avx512`: `avx2`'s sums in 512-bit vectors, 24 accumulators, compiled for the host;
  on a CPU with AVX-512.
- `bf16`: `loop`, and the lanes of 2 rows or more as AVX512-BF16 dot products
  (`VDPBF16PS`: a pair of lanes an instruction, bf16 activations times int8 weights,
  both exact in bf16); on a CPU that has it (Xeon from Cooper Lake on, AMD from Zen 4).
- `amx`: `loop`, and the lanes of 2 rows or more on the AMX-BF16 tile unit; on a CPU
  that has it (Xeon from Sapphire Rapids on).
- `auto` (the default): `amx` where the CPU has AMX-BF16 and Linux grants the tiles,
  else `bf16` where its dot products outrun its fused multiply-adds
  (`dots_outrun_fmas`: AMD's cores with AVX512-BF16), else `avx512` where it has
  AVX-512, else `avx2` where it has AVX2 and FMA, else `loop`.

`XDSL_SPATIAL_KERNELS` (or `--kernels` of `spatial-run` and `spatial-generate`) names
one; `XDSL_SPATIAL_AMX=off` makes `auto` pass over the tiles (`bf16`, `avx512` or
`loop`).
The vector instructions themselves are LLVM's choice for the host it compiles on (the
JIT targets the host CPU: AVX-512 where it has it, at 512 bits, `outline.VECTOR_BITS`),
except for `avx2`, whose kernels LLVM compiles at 256 bits without AVX-512
(`Kernels.function_attributes`).
"""

from __future__ import annotations

import os
import platform
from dataclasses import dataclass
from functools import cache

from xdsl_spatial.interpreters.native.amx import AMX_ENV, tiles_granted

KERNELS_ENV = "XDSL_SPATIAL_KERNELS"
CHOICES = ("auto", "generic", "loop", "avx2", "avx512", "bf16", "amx")

BF16_FLAGS = frozenset({"avx512f", "avx512_bf16"})
"""The CPU flags `x86.avx512.dot` (`VDPBF16PS` on 512 bits) needs."""

AVX2_FLAGS = frozenset({"avx2", "fma"})
"""The CPU flags the `avx2` kernels need (256-bit integer widening and fused
multiply-adds)."""

WITHOUT_AVX512 = (("prefer-vector-width", "256"), ("target-features", "-avx512f"))
"""LLVM function attributes of a kernel compiled for a CPU with AVX2 and no AVX-512:
256-bit vectors, and no AVX-512 instruction (turning off `avx512f` turns off every
extension that needs it)."""


class KernelsError(Exception):
    """A kernel choice this host cannot run, or no choice at all; names it."""


@cache
def cpu_info() -> tuple[str, frozenset[str]]:
    """This CPU's model name and feature flags (`/proc/cpuinfo`; empty elsewhere)."""
    model, flags = "", ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name") and not model:
                    model = line.split(":", 1)[1].strip()
                elif line.startswith("flags") and not flags:
                    flags = line.split(":", 1)[1].strip()
    except OSError:
        pass
    return model, frozenset(flags.split())


def amx_available() -> bool:
    """Whether this CPU has AMX-BF16 (`amx_tile`, `amx_bf16`) and Linux lets this
    process use its tiles (asked at the first call)."""
    return {"amx_tile", "amx_bf16"} <= cpu_info()[1] and tiles_granted()


def bf16_available() -> bool:
    """Whether this CPU has AVX512-BF16 (`BF16_FLAGS`), which the kernels `bf16` use."""
    return cpu_info()[1] >= BF16_FLAGS


def avx512_available() -> bool:
    """Whether this CPU has AVX-512 (`avx512f`), which the kernels `avx512` use."""
    return "avx512f" in cpu_info()[1]


def dots_outrun_fmas() -> bool:
    """Whether AVX512-BF16's dot products are the CPU's fastest way to a block's sums
    without tiles: on AMD's cores with it (Zen 4, Zen 5), where the `bf16` kernels were
    measured to pay (the Zen 4 runs one `VDPBF16PS` a cycle: docs/speed.md); not on
    Intel's, where it issues at a quarter of a 512-bit FMA's rate, half its
    multiply-adds (a Xeon of family 6 model 207, instructions on independent sums:
    1.3 G a second against 5.2 G), so there `avx512` is chosen."""
    return bf16_available() and cpu_info()[0].startswith("AMD")


def avx2_available() -> bool:
    """Whether this CPU has AVX2 and FMA (`AVX2_FLAGS`), which the kernels `avx2` use."""
    return cpu_info()[1] >= AVX2_FLAGS


def host_cpu() -> str:
    """What the JIT tunes for: the machine, the CPU's model and its feature flags."""
    model, flags = cpu_info()
    return f"{platform.machine()} {model} {' '.join(sorted(flags))}"


@dataclass(frozen=True)
class Kernels:
    """A kernel choice (`choose_kernels`): `generic`, `loop`, `avx2`, `avx512`, `bf16` or
    `amx`, the `kind` of `spatial-native-kernels`."""

    name: str

    @property
    def amx(self) -> bool:
        """Whether the code uses AMX tiles (LLVM's lowering must know, and the
        process must have asked for them)."""
        return self.name == "amx"

    @property
    def x86(self) -> bool:
        """Whether the code holds upstream's `x86` ops (tiles or `dot`), which LLVM's
        lowering must convert (`jit.X86`)."""
        return self.name in ("amx", "bf16")

    @property
    def soft_bf16(self) -> bool:
        """Whether the code has no instruction that rounds f32 to bf16, so that LLVM's
        lowering must expand it (`jit.SOFT_BF16`): kernels compiled without AVX-512
        (`avx2`), or a CPU without AVX512-BF16."""
        return self.function_attributes == WITHOUT_AVX512 or not bf16_available()

    @property
    def function_attributes(self) -> tuple[tuple[str, str], ...]:
        """LLVM attributes each kernel function gets beyond the outlining's (the
        vector width), for the CPU these kernels are for: `WITHOUT_AVX512` for
        `avx2`, else none (the host's own features)."""
        return WITHOUT_AVX512 if self.name == "avx2" else ()

    @property
    def tile_columns(self) -> bool:
        """Whether the code reads the Q8_0 weights `spatial-native-layout` picks laid in
        tile columns: every choice but `generic` (the plain path: pages copied as the
        chip's programs are written) and `avx2`, whose 256-bit registers do not hold a
        streamed item's sums, so that a stream over strips spilled them and was no
        faster than over rows (docs/speed.md)."""
        return self.name not in ("generic", "avx2")

    @property
    def pass_text(self) -> str:
        """The pass that marks the stages for these kernels, as a pipeline names it."""
        return f"spatial-native-kernels{{kind={self.name}}}"


def choose_kernels(choice: str | None = None) -> Kernels:
    """The kernels named by `choice`, else by `XDSL_SPATIAL_KERNELS`, else `auto`."""
    asked = (choice or os.environ.get(KERNELS_ENV) or "auto").strip().lower()
    if asked not in CHOICES:
        where = "" if choice else f" ({KERNELS_ENV})"
        raise KernelsError(
            f"unknown kernels '{asked}'{where}, expected one of {', '.join(CHOICES)}"
        )
    if asked == "auto":
        tiles_off = os.environ.get(AMX_ENV, "").lower() == "off"
        if not tiles_off and amx_available():
            asked = "amx"
        elif dots_outrun_fmas():
            asked = "bf16"
        elif avx512_available():
            asked = "avx512"
        elif avx2_available():
            asked = "avx2"
        else:
            asked = "loop"
    elif asked == "bf16" and not bf16_available():
        raise KernelsError(
            "kernels 'bf16' need a CPU with AVX512-BF16; "
            f"this one ({cpu_info()[0] or platform.machine()}) has none: use auto or loop"
        )
    elif asked == "avx512" and not avx512_available():
        raise KernelsError(
            "kernels 'avx512' need an x86-64 CPU with AVX-512; "
            f"this one ({cpu_info()[0] or platform.machine()}) has none: use auto or loop"
        )
    elif asked == "avx2" and not avx2_available():
        raise KernelsError(
            "kernels 'avx2' need an x86-64 CPU with AVX2 and FMA; "
            f"this one ({cpu_info()[0] or platform.machine()}) has none: use auto or loop"
        )
    elif asked == "amx" and not amx_available():
        raise KernelsError(
            "kernels 'amx' need a CPU with AMX-BF16 whose tiles Linux grants this process; "
            f"this one ({cpu_info()[0] or platform.machine()}) has none: use auto or loop"
        )
    return Kernels(asked)
