"""Interpreter functions for the `q8` dialect."""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.utils.exceptions import InterpretationError

from xdsl_spatial.dialects.q8 import Q8_BLOCK, DequantizeOp, QuantizeOp
from xdsl_spatial.interpreters.values import numpy_dtype


@register_impls
class Q8Functions(InterpreterFunctions):
    @impl(DequantizeOp)
    def run_dequantize(
        self, interpreter: Interpreter, op: DequantizeOp, args: tuple[Any, ...]
    ):
        values, scales = args
        w = values.astype(np.float32)
        w = w.reshape(-1, Q8_BLOCK, w.shape[1])
        w *= scales.astype(np.float32)[:, None, :]
        out = numpy_dtype(cast(TensorType, op.result.type).element_type)
        return (w.reshape(values.shape).astype(out, copy=False),)

    @impl(QuantizeOp)
    def run_quantize(
        self, interpreter: Interpreter, op: QuantizeOp, args: tuple[Any, ...]
    ):
        from xdsl_spatial.quant import NotExactQ8_0, exact_q8_0, quantize_q8_0

        (w,) = args
        sdt = numpy_dtype(cast(TensorType, op.scales.type).element_type)
        if op.exact is None:
            return quantize_q8_0(w, sdt)
        try:
            return exact_q8_0(w, sdt)
        except NotExactQ8_0 as e:
            raise InterpretationError(f"{op.name} exact: {e}") from None
