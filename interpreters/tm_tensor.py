"""
The kernel of `tm_tensor.scan` (torch-mlir's `torch.cumsum`): a cumulative sum along
its axis in one numpy call, as MLIR's scalar implementation of the op defines it
(inclusive: `out[0] = in[0]`, `out[i] = out[i-1] + in[i]`; exclusive: `out[0] = acc`,
`out[i] = out[i-1] + in[i-1]`; the accumulator result is the last output). A scan
whose body combines by anything but `arith.addi` / `arith.addf` of its two arguments
is refused, naming it. The native engine runs the same scan as the `linalg.generic`s
`passes/convert_tm_tensor.py` writes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from xdsl_spatial.dialects.tm_tensor import ScanOp, scan_combiner
from xdsl_spatial.interpreters.kernels import Kernel, KernelError, kernel
from xdsl_spatial.interpreters.values import numpy_dtype


@kernel(ScanOp)
def _scan(op: ScanOp) -> Kernel:
    why = scan_combiner(op)
    if why is not None:
        raise KernelError(op, why)
    axis = op.dimension.value.data
    inclusive = bool(op.inclusive.value.data)
    dtype = numpy_dtype(op.results_[0].type.get_element_type())  # pyright: ignore[reportAttributeAccessIssue]

    def run(args: Any) -> tuple[Any, ...]:
        x, acc = np.asarray(args[0]), np.asarray(args[2])
        if inclusive:
            out = np.cumsum(x, axis=axis, dtype=dtype)
        else:
            shifted = np.concatenate(
                [
                    np.expand_dims(acc.astype(dtype), axis),
                    np.take(x, range(x.shape[axis] - 1), axis),
                ],
                axis=axis,
            )
            out = np.cumsum(shifted, axis=axis, dtype=dtype)
        last = np.take(out, x.shape[axis] - 1, axis=axis)
        return out, np.ascontiguousarray(last)

    return run
