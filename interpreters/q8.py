"""Kernels of the `q8` dialect."""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import TensorType

from xdsl_spatial.dialects.q8 import Q8_BLOCK, DequantizeOp, QuantizeOp
from xdsl_spatial.interpreters.kernels import Kernel, KernelError, kernel
from xdsl_spatial.interpreters.values import as_f32, numpy_dtype


@kernel(DequantizeOp)
def _dequantize(op: DequantizeOp) -> Kernel:
    """`w[k, n] = fp32(values[k, n]) * fp32(scales[k / 32, n])`, in the result's type."""
    out = numpy_dtype(cast(TensorType[Any], op.result.type).element_type)
    k, n = cast(TensorType[Any], op.values.type).get_shape()

    def run(args: Any) -> tuple[Any, ...]:
        values, scales = args
        w = values.astype(np.float32).reshape(k // Q8_BLOCK, Q8_BLOCK, n)
        w *= as_f32(scales)[:, None, :]
        return (w.reshape(k, n).astype(out, copy=False),)

    return run


@kernel(QuantizeOp)
def _quantize(op: QuantizeOp) -> Kernel:
    from xdsl_spatial.core.quant import NotExactQ8_0, exact_q8_0, quantize_q8_0

    sdt = numpy_dtype(cast(TensorType[Any], op.scales.type).element_type)
    quantise = quantize_q8_0 if op.exact is None else exact_q8_0

    def run(args: Any) -> tuple[Any, ...]:
        try:
            return quantise(args[0], sdt)
        except NotExactQ8_0 as e:
            raise KernelError(op, f"exact: {e}") from None
        except ValueError as e:  # a weight GGML's rule cannot quantise (NaN, inf)
            raise KernelError(op, str(e)) from None

    return run
