"""
Kernels of the `tensor` ops that read or reshape a tensor: `tensor.extract` (one
element, or, inside a `linalg.generic` body, a gather with index arrays) and
`tensor.collapse_shape` / `tensor.expand_shape` (a reshape: the row-major order of
the elements is unchanged, so no element moves).
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import TensorType

from xdsl_spatial.interpreters.kernels import Kernel, KernelError, kernel


@kernel(tensor.ExtractOp)
def _extract(op: tensor.ExtractOp) -> Kernel:
    """`t[i, j, ...]`; index arrays (from a generic's body) gather all at once. An
    index outside the tensor is an error, not numpy's wrap-around."""
    shape = tuple(cast(TensorType[Any], op.tensor.type).get_shape())

    def run(args: Any) -> tuple[Any, ...]:
        t, index = args[0], tuple(args[1:])
        for axis, (i, size) in enumerate(zip(index, shape)):
            if isinstance(i, np.ndarray):
                if i.size and (i.min() < 0 or i.max() >= size):
                    bad = i.min() if i.min() < 0 else i.max()
                    raise KernelError(
                        op, f"index {bad} of dimension {axis} is outside 0..{size - 1}"
                    )
            elif not 0 <= i < size:
                raise KernelError(op, f"index {i} of dimension {axis} is outside 0..{size - 1}")
        return (t[index],)

    return run


@kernel(tensor.CollapseShapeOp, tensor.ExpandShapeOp)
def _reshape(op: tensor.CollapseShapeOp | tensor.ExpandShapeOp) -> Kernel:
    t = cast(TensorType[Any], op.result.type)
    shape = tuple(t.get_shape())
    if any(d < 0 for d in shape):
        raise KernelError(op, f"the result has a dynamic shape ({t}); only static shapes run")
    return lambda args: (np.reshape(args[0], shape),)
