"""
Dense ops as kernels: one semantics for everything outside a spatial program.

`prepare(op)` reads once what is static about an op (its types, attributes, maps,
body) and returns a *kernel*: a function from the op's operand values to its result
values. Tensors are numpy arrays, scalars numpy scalars (`index` as int64, `i1` as
bool, `bf16` as `ml_dtypes.bfloat16`). A kernel works on whole arrays, never a Python
loop per element; an elementwise kernel takes scalars and arrays alike, so it also
runs the body of a `linalg.generic` or of a `spatial.stage` over a whole iteration
space at once.

Both engines run these kernels. The reference engine prepares an op each time xDSL's
interpreter reaches it (`dense_functions()`); the compiled engine prepares every op
once, when it compiles the function.

A module that defines kernels registers each with `@kernel(OpType, ...)` on its
preparer; `KERNEL_MODULES` lists them, imported on first use.

An op with regions may use values defined outside it (a `linalg.generic` body that
reads a captured table with `tensor.extract`): its kernel takes those values after
its operands, in the order `captured_values(op)` gives. Captured constants are not
among them: the preparer reads a constant as it reads the op's attributes.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.ir import Operation

from xdsl_spatial.core.ir_io import captured_values
from xdsl_spatial.interpreters.errors import KernelError as KernelError

Kernel = Callable[[Sequence[Any]], tuple[Any, ...]]
"""Operand values in, result values out."""

Preparer = Callable[[Any], Kernel]
"""An op in, its kernel out (or a `KernelError` saying why it cannot run)."""

KERNEL_MODULES = (
    "xdsl_spatial.interpreters.arith",
    "xdsl_spatial.interpreters.cf",
    "xdsl_spatial.interpreters.dense",
    "xdsl_spatial.interpreters.linalg",
    "xdsl_spatial.interpreters.math",
    "xdsl_spatial.interpreters.q8",
    "xdsl_spatial.interpreters.tensor",
    "xdsl_spatial.interpreters.shard",
    "xdsl_spatial.interpreters.tm_tensor",
)
"""The modules whose import registers kernels."""

_PREPARERS: dict[type[Operation], Preparer] = {}
_loaded = False


def kernel(*op_types: type[Operation]) -> Callable[[Preparer], Preparer]:
    """Register the decorated preparer for `op_types` (each type once)."""

    def register(preparer: Preparer) -> Preparer:
        for t in op_types:
            if t in _PREPARERS:
                raise ValueError(f"{t.name} has two kernels")
            _PREPARERS[t] = preparer
        return preparer

    return register


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for name in KERNEL_MODULES:
            importlib.import_module(name)


def op_types() -> tuple[type[Operation], ...]:
    """Every op type that has a kernel."""
    _load()
    return tuple(_PREPARERS)


def has_kernel(op: Operation) -> bool:
    _load()
    return type(op) in _PREPARERS


def prepare(op: Operation) -> Kernel:
    """The kernel of `op`; a `KernelError` naming the op when it has none."""
    _load()
    preparer = _PREPARERS.get(type(op))
    if preparer is None:
        raise KernelError(op, "the interpreter has no implementation of this op")
    return preparer(op)


def dense_functions() -> InterpreterFunctions:
    """xDSL interpreter functions that run every op with a kernel (prepared each time
    the op runs)."""

    def run(
        self: InterpreterFunctions, interpreter: Interpreter, op: Operation, args: tuple[Any, ...]
    ):
        captured = captured_values(op)
        if captured:
            args = (*args, *interpreter.get_values(captured))
        return prepare(op)(args)

    attrs = {f"run_{i}": impl(t)(run) for i, t in enumerate(op_types())}
    cls = register_impls(type("DenseFunctions", (InterpreterFunctions,), attrs))
    return cls()
