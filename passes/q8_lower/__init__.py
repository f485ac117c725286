"""
`q8-lower`: a decode-step matmul over a Q8_0 weight, as a view and a fold program.

A decode step is weight-bound, so the weight should move as it is stored: 1 byte per
value and one scale per 32 values (about 1.13 bytes a weight) instead of a 2-byte
bf16 copy. The pass rewrites

```mlir
%w  = q8.dequantize %W__q8, %W__q8_scale : tensor<2048x4096xi8>, tensor<64x4096xf32> -> tensor<2048x4096xf32>
%xf = arith.extf %x : tensor<1x2048xbf16> to tensor<1x2048xf32>
%y  = linalg.matmul ins(%xf, %w : tensor<1x2048xf32>, tensor<2048x4096xf32>) outs(%zero : tensor<1x4096xf32>) -> tensor<1x4096xf32>
```

into

```mlir
%v = spatial.view "q8_view_1x2048_from0" grid [2] ... ins(%x : tensor<1x2048xbf16>) -> tensor<64x32xbf16> { ... }
%y = spatial.fold "q8_gemv_2048x4096_w8" grid [16] ... ins(%v, %W__q8, %W__q8_scale : ...) -> tensor<1x4096xf32> { ... }
```

The *view* lays `x` out as the `K/32 x 32` matrix of its 32-element blocks (for a
batch of `m` rows, each row's K block of 1024 a tile of its own), made once per
value and read by every product of it. The *fold* gives each work item `wb` column
tiles of the result; per K block of 1024 rows it loads the view's tiles, the int8
values (32 tile rows x wb) and the scales (1 tile row x wb), computes each row's
`sum_b s[b, n] * sum_i x[r, 32b + i] * q[32b + i, n]`, and adds it into an fp32
carry. The K mod 1024 rows (g whole Q8_0 blocks) are a tail folded once per item.

A product is left as it is, with its reason under `report=true`, when it is no
static 1-32 row product over whole Q8_0 blocks on 32x32 tiles, when neither the
fold's buffers (at one column tile) nor the view's fit a site, or when the byte
model's (docs/lowering.md), `K*Np + scale bytes*(K/32)*Np` of weight plus the items' view reads,
are not below a bf16 copy's `2*K*Np`.

The pass in files of one role each:

- `plan.py`: the cost model and the plans (numbers in, numbers out): `FoldPlan`,
  `ViewPlan`, `choose_wb`, `plan_product`;
- `match.py`: the matmul it rewrites (`match_q8_matmul`), or why not;
- `weights.py`: how the weight tensors start (a constant quantised, exactly);
- `build.py`: the view and fold programs, built with xDSL's `ImplicitBuilder`;
- `names.py`: the names it gives, and `Naming`, what a run has named;
- `report.py`: `Decision`, what it did with each matmul, and its `report=true` line;
- `options.py`: the target and the chips it lowers for;
- `pattern.py`: the rewrite, a stateless pattern handed a `Lowering` per run;
- `lower.py`: `lower_q8`, `raise_and_lower` and the pass, `Q8LowerPass`.
"""

from xdsl_spatial.passes.q8_lower.build import build_fold, build_view
from xdsl_spatial.passes.q8_lower.lower import (
    OPTIMIZE,
    OPTIMIZED,
    Q8LowerPass,
    lower_q8,
    raise_and_lower,
)
from xdsl_spatial.passes.q8_lower.match import Q8Matmul, match_q8_matmul
from xdsl_spatial.passes.q8_lower.names import Naming, q8_rows_name
from xdsl_spatial.passes.q8_lower.options import ParallelOptions, TargetOptions, resolve_target
from xdsl_spatial.passes.q8_lower.plan import (
    ACC_BYTES,
    BufferPlan,
    ChipPlan,
    FoldPlan,
    ViewPlan,
    choose_wb,
    declines,
    lanes_width,
    lift_rows,
    plan_product,
    view_rows,
)
from xdsl_spatial.passes.q8_lower.report import Decision
from xdsl_spatial.passes.q8_lower.weights import WeightInit, weight_init

__all__ = [
    "ACC_BYTES",
    "OPTIMIZE",
    "OPTIMIZED",
    "BufferPlan",
    "ChipPlan",
    "Decision",
    "FoldPlan",
    "Naming",
    "ParallelOptions",
    "Q8LowerPass",
    "Q8Matmul",
    "TargetOptions",
    "ViewPlan",
    "WeightInit",
    "build_fold",
    "build_view",
    "choose_wb",
    "declines",
    "lanes_width",
    "lift_rows",
    "lower_q8",
    "match_q8_matmul",
    "plan_product",
    "q8_rows_name",
    "raise_and_lower",
    "resolve_target",
    "view_rows",
    "weight_init",
]
