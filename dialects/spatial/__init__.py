"""
The `spatial` dialect: programs for a tile-based dataflow accelerator.

The chip stores every tensor as tiles (32 x 32 elements on the default target;
a tensor of R x C elements is ceil(R/32) x ceil(C/32) tiles, the last ones padded
with zeros, tile `(tr, tc)` at linear index `tr * tiles_per_row + tc`). Work is
spread over *sites*, each with a small local memory. A *program* runs one body per
*work item*; the body declares its tensors, allocates *buffers* in local memory,
*loads* blocks of tiles into them as *pages*, runs *stages* over pages, and
*stores* pages back. A page of `n` tiles is the `32 x 32n` matrix of those tiles
side by side; the tiles of an `h x w` block land row-major (block tile `(a, b)` is
page tile `a * w + b`), and stages address page elements by their flat offset
`row * 32n + col`.

```mlir
%y = spatial.fold "q8_gemv_64x64_w2" grid [1] owns (d0) -> (0, d0 * 2) size [1, 2]
    target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
    plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 2]> numerics approx "..."
    ins(%xv, %q, %s : tensor<2x32xbf16>, tensor<64x64xi8>, tensor<2x64xf32>) -> tensor<1x64xf32> {
^bb0(%i: index, %a0: tensor<2x32xbf16>, %a1: tensor<64x64xi8>, %a2: tensor<2x64xf32>):
  %x = spatial.tensor "x__q8_rows0" external(%a0 : tensor<2x32xbf16>) : !spatial.tensor<2x32xbf16, input>
  ...
  %bx = spatial.buffer "in_x" : !spatial.buffer<1xbf16, depth 1>
  %px = spatial.load %x[0] block 1x1 stride 1 repeat 1 into %bx : !spatial.tensor<2x32xbf16, input> -> !spatial.page<1xbf16>
  %b = spatial.stage "block" iters(sum 2, par 64, sum 32)
         ins(%px[d0 * 32 + d2], %pq[d2 * 2048 + d0 * 64 + d1], %ps[d0 * 64 + d1]) into %bb[d1]
         : (...) -> !spatial.page<2xf32> { ^bb0(%xe: bf16, %qe: i8, %se: f32): ... spatial.yield %v : f32 }
  spatial.store %r to %y[%i * 2] block 1x2 stride 2 repeat 1 : !spatial.page<2xf32> -> !spatial.tensor<1x64xf32, output>
  spatial.return %y : !spatial.tensor<1x64xf32, output>
}
```

The package, a module a job: `targets` (the chips and their figures), `elements`,
`syntax` (linear forms as the ops spell them), `attributes`, `types`, `effects`,
`traits` (where an op may lie), then the ops: `program` (the programs), `tensors`
(tensors, buffers, the program's return), `moves` (loads and stores), `stages`
and `loop`. Everything is importable from `xdsl_spatial.dialects.spatial`.
"""

from xdsl.ir import Dialect

from xdsl_spatial.core.targets import (
    CHIP_FIELDS,
    DEFAULT_PRESET,
    TARGET_PRESETS,
    ChipFigures,
    Fit,
    LinkFigures,
    SystemFigures,
    TargetPreset,
    target_preset,
)
from xdsl_spatial.dialects.spatial.attributes import (
    IterKind,
    IterKindAttr,
    Numerics,
    NumericsAttr,
    NumericsKindAttr,
    PlanAttr,
    RepackAttr,
    Role,
    RoleAttr,
    TargetAttr,
    parse_numerics_body,
    print_numerics_body,
)
from xdsl_spatial.dialects.spatial.effects import (
    Allocates,
    FillsPage,
    LoadsPage,
)
from xdsl_spatial.dialects.spatial.elements import (
    element_bytes,
    element_name,
    is_element,
)
from xdsl_spatial.dialects.spatial.loop import (
    KLoopOp,
    KYieldOp,
    enclosing_loop,
)
from xdsl_spatial.dialects.spatial.moves import (
    LoadOp,
    StoreOp,
    TileMoveOp,
    same_tiles,
    value_str,
)
from xdsl_spatial.dialects.spatial.program import (
    ENUMERATION_COPIES,
    PROGRAM_OPS,
    FoldOp,
    MapOp,
    ProgramOp,
    ViewOp,
)
from xdsl_spatial.dialects.spatial.stages import (
    BODY_OPS,
    IndexOp,
    StageOp,
    YieldOp,
)
from xdsl_spatial.dialects.spatial.syntax import (
    AFTER_LINEAR,
    TABLE_TERM,
    defined_type,
    format_linear,
    linear_terms,
    parse_linear,
    parse_shape,
    print_linear_values,
    stage_map_str,
)
from xdsl_spatial.dialects.spatial.tensors import (
    BufferOp,
    ReturnOp,
    TensorOp,
    handle_str,
    is_weight_scales,
    is_weight_values,
)
from xdsl_spatial.dialects.spatial.traits import (
    InProgram,
    IsProgram,
    enclosing_program,
    is_program,
    outside_programs,
)
from xdsl_spatial.dialects.spatial.types import (
    BufferType,
    PageType,
    TensorHandleType,
)

Spatial = Dialect(
    "spatial",
    [
        ViewOp,
        FoldOp,
        MapOp,
        TensorOp,
        BufferOp,
        LoadOp,
        StoreOp,
        StageOp,
        IndexOp,
        YieldOp,
        KLoopOp,
        KYieldOp,
        ReturnOp,
    ],
    [
        TargetAttr,
        PlanAttr,
        NumericsKindAttr,
        NumericsAttr,
        RoleAttr,
        RepackAttr,
        IterKindAttr,
        TensorHandleType,
        BufferType,
        PageType,
    ],
)

__all__ = [
    "AFTER_LINEAR",
    "BODY_OPS",
    "CHIP_FIELDS",
    "DEFAULT_PRESET",
    "ENUMERATION_COPIES",
    "PROGRAM_OPS",
    "TABLE_TERM",
    "TARGET_PRESETS",
    "Allocates",
    "BufferOp",
    "BufferType",
    "ChipFigures",
    "FillsPage",
    "Fit",
    "FoldOp",
    "InProgram",
    "IndexOp",
    "IsProgram",
    "IterKind",
    "IterKindAttr",
    "KLoopOp",
    "KYieldOp",
    "LinkFigures",
    "LoadOp",
    "LoadsPage",
    "MapOp",
    "Numerics",
    "NumericsAttr",
    "NumericsKindAttr",
    "PageType",
    "PlanAttr",
    "ProgramOp",
    "RepackAttr",
    "ReturnOp",
    "Role",
    "RoleAttr",
    "Spatial",
    "StageOp",
    "StoreOp",
    "SystemFigures",
    "TargetAttr",
    "TargetPreset",
    "TensorHandleType",
    "TensorOp",
    "TileMoveOp",
    "ViewOp",
    "YieldOp",
    "defined_type",
    "element_bytes",
    "element_name",
    "enclosing_loop",
    "enclosing_program",
    "format_linear",
    "handle_str",
    "is_element",
    "is_program",
    "is_weight_scales",
    "is_weight_values",
    "linear_terms",
    "outside_programs",
    "parse_linear",
    "parse_numerics_body",
    "parse_shape",
    "print_linear_values",
    "print_numerics_body",
    "same_tiles",
    "stage_map_str",
    "target_preset",
    "value_str",
]
