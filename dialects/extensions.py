"""
The forms of upstream dialects the project reads that xDSL 0.75 does not.

xDSL 0.75 lacks a few forms that MLIR and torch-mlir write: the mixed-precision
`linalg.matmul` (`linalg_mixed`), `linalg.batch_matmul` and a generic's parenthesised
result types (`linalg_extra`), the `x86.amx` tile ops (`x86_amx`), AVX512-BF16's
`x86.avx512.dot` (`x86_avx512`) and `memref.prefetch` (`memref_extra`). `EXTENSIONS`
gives, for `linalg`, `memref` and `x86`, xDSL's dialect with these added (new dialect objects:
xDSL's classes and dialects are unchanged). The package's universe hands them to the
project's contexts as its `read_as` (`core.ir_io.make_context`: every tool of the
package, `spatial-opt` included, and its Python API), not as dialects, so stock
`xdsl-opt` reads and prints exactly as it does without the package installed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from xdsl.ir import Dialect
from xdsl.universe import XDSL_UNIVERSE

from xdsl_spatial.dialects import linalg_extra, memref_extra, x86_amx, x86_avx512

EXTENSIONS: Mapping[str, Callable[[], Dialect]] = MappingProxyType(
    {
        "linalg": linalg_extra.linalg_dialect,
        "memref": memref_extra.with_prefetch(XDSL_UNIVERSE.all_dialects["memref"]),
        "x86": x86_avx512.with_dot(x86_amx.with_tiles(XDSL_UNIVERSE.all_dialects["x86"])),
    }
)
"""The dialects the project reads in place of xDSL's of the same name."""
