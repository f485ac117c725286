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

from xdsl_spatial.dialects.tm_tensor import ScanOp
from xdsl_spatial.interpreters.kernels import Kernel, KernelError, kernel
from xdsl_spatial.interpreters.values import numpy_dtype


def scan_combiner(op: ScanOp) -> str | None:
    """Why the scan's body is not a sum of its two arguments (None: it is)."""
    from xdsl.dialects import arith

    body = op.region.block
    ops = list(body.ops)
    if len(ops) != 2 or not isinstance(ops[0], arith.AddiOp | arith.AddfOp):
        names = ", ".join(o.name for o in ops[:-1]) or "nothing"
        return f"the scan combines by {names}; only a sum (arith.addi, arith.addf: torch.cumsum) is read"
    if set(ops[0].operands) != set(body.args) or ops[1].operands[0] is not ops[0].results[0]:
        return "the scan's body does not add its two arguments"
    return None


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
