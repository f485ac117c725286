"""
Kernels of `linalg` on tensors beyond `dense.py`'s fill and matmul: `linalg.generic`,
`linalg.transpose`, `linalg.broadcast`, `linalg.reduce`, `linalg.copy` and xDSL's named
elementwise ops (`linalg.add`, `sub`, `mul`, `exp`, `log`, `sqrt`, `max`, `min`,
`select`).

Every one of them is a *structured op*: loops, one indexing map per operand, and a
body that computes one output element from one element of each operand. The kernel
runs the body once, over the whole iteration space:

- each input is read through its map as an array over the loops, with a size-1 axis
  for every loop the map does not use: a view for a projected permutation
  (transposes, broadcasts, constant indices), a row gather (`np.take`) for a result
  of one loop such as `d0 floordiv 32` or `d1 mod 8`, fancy indexing for anything else
  whose results evaluate to integer index arrays (`d0 + d1`);
- every body op runs through its own kernel (`kernels.prepare`) on those arrays;
  `linalg.index` is an `arange` along its loop, `tensor.extract` a gather;
- each output takes the yielded value. With reduction loops, the body must read its
  output argument only as the one operand of a combining op (`addf`/`addi`: sum,
  `mulf`/`muli`: product, `maximumf`, `maxnumf`, `minimumf`, `minnumf`, `maxsi`,
  `minsi`, `maxui`, `minui`, `andi`, `ori`, `xori`); the other operand is reduced over
  the reduction loops and combined once with the initial output. An output that keeps
  the index of another's maximum (`select(cmpf ogt(v, max), index, out)`, torch's `max`
  with its index) is that maximum's first position along its one reduction loop. A
  sum of products
  (`out + a * b * ...`) is a contraction: factors that depend on fewer loops are
  multiplied into the others, and two factors left are one batched BLAS matmul
  (more, `np.einsum`), so the product over the whole space is never made.

Precision: body ops compute as their kernels do (bf16 and f16 in fp32, rounded once
per op). A reduction accumulates in fp32 for f32, f16 and bf16 (fp64 for f64, wrapping
int64 for integers) and rounds once, when combined with the initial output; the
products of a contraction are fp32 products of the factors. Sums are not in loop
order (numpy's pairwise sums, BLAS's blocking): within the fp32 summation bound of
the sequential sum, not equal to it bit for bit.

Refused at prepare time, with a `KernelError` naming the op and the reason: memref
operands, dynamic shapes, symbols in maps, an index a map reaches outside its
operand, a body op that is not elementwise (or has regions), a reduction whose body
reads its output other than as a combiner's operand, an output map that is not a
permutation of the parallel loops (a size-1 axis may be indexed by the constant 0, as
a `keepdim` reduction writes), and a body value that would span more than
`MAX_SPACE_ELEMENTS` elements of the iteration space. Nothing runs element by
element.

A body may use values defined outside the op: a constant is read when the kernel is
prepared; anything else (`tensor.extract %table[%i, %j]` of a table that is a
function argument) the kernel takes after its operands, in the order
`kernels.captured_values(op)` gives.

The package: `structure` (what a structured op is: operands, maps, loops),
`operands` (an operand read through its map), `body` (the body run over the whole
space), `reductions` (outputs over reduction loops); importing it registers the kernels.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.dialects.linalg.ops import (
    AddOp,
    BroadcastOp,
    CopyOp,
    ExpOp,
    GenericOp,
    LogOp,
    MaxOp,
    MinOp,
    MulOp,
    ReduceOp,
    SelectOp,
    SqrtOp,
    SubOp,
    TransposeOp,
)
from xdsl.ir import Operation

from xdsl_spatial.dialects.linalg_extra import ResultsGenericOp
from xdsl_spatial.interpreters.kernels import Kernel, kernel
from xdsl_spatial.interpreters.linalg.body import structured_kernel
from xdsl_spatial.interpreters.linalg.structure import structure_of
from xdsl_spatial.interpreters.values import numpy_dtype

# --------------------------------------------------------------------------------------
# Registration
# --------------------------------------------------------------------------------------


def transpose_bytes(a: np.ndarray) -> np.ndarray:
    """`a.T` of a matrix of 1-byte elements whose sides are multiples of 8, copied as
    8-byte words and then shuffled within cache-sized rows: numpy copies a transposed
    int8 matrix one strided byte at a time, several times slower. (A fast path of the
    plain transpose; tests/test_linalg_kernels.py checks they are equal.)"""
    n, k = a.shape
    words = np.ascontiguousarray(a).view(np.uint64).reshape(n, k // 8)
    t = np.ascontiguousarray(words.T).view(a.dtype).reshape(k // 8, n, 8)
    return np.ascontiguousarray(t.transpose(0, 2, 1)).reshape(k, n)


@kernel(TransposeOp)
def _transpose(op: TransposeOp) -> Kernel:
    plain = structured_kernel(structure_of(op))  # also checks the op runs at all
    t = op.inputs[0].type
    if (
        isinstance(t, TensorType)
        and list(op.permutation.get_values()) == [1, 0]
        and numpy_dtype(t.element_type).itemsize == 1
        and all(d % 8 == 0 and d > 0 for d in t.get_shape())
    ):
        return lambda args: (transpose_bytes(args[0]),)
    return plain


@kernel(
    GenericOp,
    ResultsGenericOp,
    BroadcastOp,
    ReduceOp,
    AddOp,
    SubOp,
    MulOp,
    ExpOp,
    LogOp,
    SqrtOp,
    MaxOp,
    MinOp,
    SelectOp,
    CopyOp,
)
def _structured_op(op: Operation) -> Kernel:
    return structured_kernel(structure_of(op))
