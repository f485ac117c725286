"""
A factored sum's lanes as AVX512-BF16 dot products (a stage marked `kernel = "dot"`,
which `spatial-native-kernels{kind=bf16}` marks where `amx.lanes_fit` with `DOT_ROWS`
rows or more): the same operands as the AMX tiles (`amx.py`: each row sums
`extf(x) * sitofp(q)` of a bf16 activation and int8 weights over a Q8_0 block's 32
lanes, both exact in bf16), summed a pair of lanes an instruction in vector registers.

Each trip of the loops outside the lanes interleaves its block of weights in lane
pairs (`amx.pair_words`: word `(p, c)` the bf16 of lanes `2p` and `2p + 1` of column
`c`), then, for `ACCUMULATORS` 16-column vectors at a time (rows x column groups),
runs the 16 pairs in an `scf.for` carrying the accumulators:

```mlir
%sums:2 = scf.for %p = %c0 to %c16 step %c1 iter_args(%a0 = %zero, %a1 = %zero) -> (...) {
  %w0 = vector.load %words[%p, %c0] : memref<16x32xi32>, vector<16xi32>   // columns 0-15
  %x = vector.load %xs[%c0, %k] : memref<8x32xbf16, strided<...>>, vector<2xbf16>  // k = 2p
  ...                                                        // the pair, broadcast
  %s0 = x86.avx512.dot %a0, %xv, %wv0 : vector<32xbf16> -> vector<16xf32>
  ...
}
vector.store %sums#0, %scratch[%c0] : memref<256xf32>, vector<16xf32>
```

and stores each row's sums where the scaling generic reads them, as the tiles do. The
products are exact; `VDPBF16PS` adds a lane's two into its sum in its own order and
rounding (and reads denormal activations as zero, as the tiles do), so the numbers
are the lanes' loop's within the fp32 bound, and its bits on integer-exact inputs.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith, scf, vector
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    IndexType,
    VectorType,
    f32,
    i32,
)
from xdsl.ir import Block, SSAValue

from xdsl_spatial.dialects.x86_avx512 import DotBF16Op
from xdsl_spatial.passes.convert_spatial_to_linalg.amx import AmxLanes, pair_words
from xdsl_spatial.passes.convert_spatial_to_linalg.build import drop, idx, inside, view
from xdsl_spatial.passes.convert_spatial_to_linalg.generic import Generic
from xdsl_spatial.passes.convert_spatial_to_linalg.loops import LoopAxis
from xdsl_spatial.passes.convert_spatial_to_linalg.prefetch import prefetch_block
from xdsl_spatial.passes.convert_spatial_to_linalg.scope import ProgramScope

LANES = 16
"""f32 sums a 512-bit `dot` holds: the columns of one accumulator."""

CHUNK = 32
"""Columns a row's accumulators cover at once (two `dot`s a pair): with 8 rows, 16
accumulators."""

ACCUMULATORS = 16
"""Accumulators held in vector registers at once (of AVX-512's 32: the rest hold the
weights' pairs and the broadcast activations)."""

DOT_ROWS = 8
"""The fewest rows whose lanes' sums are `dot`s: with fewer, interleaving the weights
costs more than the lanes' loop saves (on an AMD EPYC Zen 5, 4096 x 4096: slower at
m = 2-6, faster from 8)."""


def dot_sums(
    pt: ProgramScope,
    b: Builder,
    lanes: AmxLanes,
    loops: Sequence[LoopAxis],
    outer: Sequence[tuple[LoopAxis, SSAValue]],
    scratch: SSAValue,
) -> None:
    """Every row's lanes' sums as `dot`s of this trip's weight pairs
    (`amx.pair_words`) and the row's activation pairs, broadcast; row `j`'s 16
    columns `h` stored at `j * columns + 16 h` of `scratch`, where `lane_sums` would
    have summed them."""
    lane, cols = loops
    pairs = lane.extent // 2
    width = CHUNK if cols.extent % CHUNK == 0 else LANES
    groups = width // LANES
    prefetch_block(pt, b, lanes.q_page, lanes.q_form, loops, outer)
    _, words = pair_words(pt, b, lanes, loops, outer)
    x_page = pt.values[lanes.x_page]
    rows, stride = lanes.x_rows, lanes.x_stride
    at_once = max(1, ACCUMULATORS // groups)
    for r0 in range(0, len(rows), at_once):
        n = min(at_once, len(rows) - r0)
        x = Generic(b, pt, lanes.stage.iter_kinds, [lane], outer).strided(x_page, rows[r0])[0]
        xs = view(b, x, 0, (n, lane.extent), (stride, 1))
        drop(x)  # only its offset was wanted
        for c0 in range(0, cols.extent, width):
            sums = pair_loop(b, words, xs, n, groups, pairs, c0)
            for j in range(n):
                for h in range(groups):
                    at = idx(b, (r0 + j) * cols.extent + c0 + h * LANES)
                    b.insert(vector.StoreOp(sums[j * groups + h], scratch, [at]))


def pair_loop(
    b: Builder, words: SSAValue, xs: SSAValue, rows: int, groups: int, pairs: int, c0: int
) -> list[SSAValue]:
    """`rows x groups` accumulators, row `j` column group `h`: the sum over the
    `pairs` lane pairs `p` of `dot(xs[j, 2p : 2p + 2] broadcast, words[p, c : c + 16])`,
    `c = c0 + 16 h`, an `scf.for` over `p` carrying them."""
    acc_t = VectorType(f32, (LANES,))
    pair_t = VectorType(BFloat16Type(), (2 * LANES,))
    word_t = VectorType(i32, (LANES,))
    zero = b.insert(arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(acc_t, [0.0]))).result
    blk = Block(arg_types=[IndexType(), *([acc_t] * (rows * groups))])
    loop = b.insert(scf.ForOp(idx(b, 0), idx(b, pairs), idx(b, 1), [zero] * (rows * groups), blk))
    body = inside(blk)
    p, accs = blk.args[0], blk.args[1:]
    ws = []
    for h in range(groups):
        w = body.insert(vector.LoadOp(words, [p, idx(body, c0 + h * LANES)], word_t)).result
        ws.append(body.insert(vector.BitcastOp(w, pair_t)).result)
    k = body.insert(arith.MuliOp(p, idx(body, 2))).result
    out: list[SSAValue] = []
    for j in range(rows):
        two = body.insert(vector.LoadOp(xs, [idx(body, j), k], VectorType(BFloat16Type(), (2,))))
        word = body.insert(vector.BitcastOp(two.result, VectorType(i32, (1,)))).result
        one = body.insert(vector.ExtractOp(word, [0], i32)).result
        every = body.insert(vector.BroadcastOp(one, word_t)).vector
        xv = body.insert(vector.BitcastOp(every, pair_t)).result
        out += [body.insert(DotBF16Op(accs[j * groups + h], xv, ws[h])).dst for h in range(groups)]
    body.insert(scf.YieldOp(*out))
    return list(loop.results)
