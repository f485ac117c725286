"""
Running a module's function on numpy arrays: before `q8-lower` (q8, linalg, arith,
tensor, func) and after it (spatial programs), with the traffic every program moved.

```python
from xdsl_spatial.interpreters.runner import run
(y,) = run(module, "gemv", x, q, s)
```
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.interpreter import Interpreter
from xdsl.interpreters.func import FuncFunctions
from xdsl.ir import Operation, SSAValue
from xdsl.utils.exceptions import InterpretationError

from xdsl_spatial.dialects.spatial import ProgramOp
from xdsl_spatial.interpreters.arguments import (  # noqa: F401 - RunError, arg_name: re-exported
    RunError,
    arg_name,
    check_allocations,
    coerce_args,
)
from xdsl_spatial.interpreters.engine import Traffic, same_parts
from xdsl_spatial.interpreters.kernels import KernelError, dense_functions
from xdsl_spatial.interpreters.spatial import SpatialFunctions
from xdsl_spatial.interpreters.values import SpatialRuntimeError


@dataclass
class Execution:
    outputs: tuple[np.ndarray, ...]
    traffic: Traffic


def _functions(module: ModuleOp) -> Iterator[func.FuncOp]:
    """The defined functions of `module` and of the modules nested in it (their
    bodies are not searched: a function does not hold another)."""
    op = module.body.block.first_op
    while op is not None:
        if isinstance(op, func.FuncOp) and op.body.first_block is not None:
            yield op
        elif isinstance(op, ModuleOp):
            yield from _functions(op)
        op = op.next_op


def find_function(module: ModuleOp, entry: str | None) -> func.FuncOp:
    if entry is not None:
        # The last function found by this name, while it is still in the module.
        found: dict[str, func.FuncOp] = module.__dict__.setdefault(_FOUND_ATTR, {})
        f = found.get(entry)
        if f is not None and _defined_in(f, module, entry):
            return f
        for f in _functions(module):
            if f.sym_name.data == entry:
                found[entry] = f
                return f
    funcs = list(_functions(module))
    names = [f.sym_name.data for f in funcs]
    if entry is None:
        if len(funcs) != 1:
            raise RunError(
                f"the module has {len(funcs)} functions ({', '.join(names) or 'none'}); "
                "name one with --entry"
            )
        return funcs[0]
    raise RunError(
        f"no function @{entry} in the module (it has: {', '.join(names) or 'none'})"
    )


_FOUND_ATTR = "_spatial_functions"
"""The attribute of a module op that holds the functions found in it by name."""


def _defined_in(f: func.FuncOp, module: ModuleOp, name: str) -> bool:
    """Whether `f` is still named `name`, has a body and sits in `module` or a module
    nested in it (read off xDSL's fields: this runs on every call)."""
    sym = f.properties.get("sym_name")
    if not isinstance(sym, StringAttr) or sym.data != name:
        return False
    if f.regions[0]._first_block is None:  # pyright: ignore[reportPrivateUsage]
        return False
    op: Operation | None = f
    while op is not None:
        block = op.parent
        region = block.parent if block is not None else None
        op = region.parent if region is not None else None
        if op is module:
            return True
        if not isinstance(op, ModuleOp):
            return False
    return False


def make_interpreter(module: ModuleOp, traffic: Traffic, memory_budget: int) -> Interpreter:
    interp = Interpreter(module)
    for fns in (
        FuncFunctions(),
        dense_functions(),
        SpatialFunctions(traffic, memory_budget),
    ):
        interp.register_implementations(fns, override=False)
    return interp


def execute(
    module: ModuleOp,
    entry: str | None,
    arrays: Sequence[Any],
    *,
    memory_budget: int = 8 << 20,
) -> Execution:
    """Run `entry` on `arrays`; the outputs and the traffic of every program that ran."""
    fn = find_function(module, entry)
    check_allocations(fn)
    args = coerce_args(fn, arrays)
    traffic = Traffic()
    try:
        outs = _run_programs(fn, args, SpatialFunctions(traffic, memory_budget))
        if outs is None:
            interp = make_interpreter(module, traffic, memory_budget)
            outs = interp.call_op(fn.sym_name.data, tuple(args))
    except (SpatialRuntimeError, KernelError) as e:
        raise RunError(str(e)) from None
    except InterpretationError as e:
        raise RunError(str(e).strip()) from None
    return Execution(tuple(np.asarray(o) for o in outs), traffic)


def _run_programs(
    fn: func.FuncOp, args: Sequence[np.ndarray], programs: SpatialFunctions
) -> tuple[Any, ...] | None:
    """A function whose body is spatial programs and its return (what `q8-lower`
    leaves), run program by program without xDSL's interpreter loop around them (the
    same implementations, less dispatch); None for any other function."""
    chain = _program_chain(fn)
    if chain is None:
        return None
    values = list(args)
    for op, ins in chain[0]:
        values.extend(programs.run_program(op, [values[i] for i in ins]))
    return tuple(values[i] for i in chain[1])


_CHAIN_ATTR = "_spatial_chain"
"""The attribute of a function op that holds its chain of programs (`_program_chain`)
and the parts it was read from."""

Chain = tuple[list[tuple[ProgramOp, list[int]]], list[int]]


def _program_chain(fn: func.FuncOp) -> Chain | None:
    """The function's programs in order, each with the indices of its operands among
    the function's arguments and the results of the programs before it, and the
    indices the return takes; None unless the body is one block of programs and a
    return. Read once and kept on the function while its block, ops and their
    operand tuples are the same objects (xDSL replaces those tuples on change)."""
    block = fn.regions[0]._first_block  # pyright: ignore[reportPrivateUsage]
    parts: list[object] = [block]
    op = block._first_op if block is not None else None  # pyright: ignore[reportPrivateUsage]
    if block is not None:
        parts.append(block._args)  # pyright: ignore[reportPrivateUsage]
        parts.append(block._next_block)  # pyright: ignore[reportPrivateUsage]
    while op is not None:
        parts += (op, op._operands)  # pyright: ignore[reportPrivateUsage]
        op = op._next_op  # pyright: ignore[reportPrivateUsage]
    hit: tuple[list[object], Chain | None] | None = fn.__dict__.get(_CHAIN_ATTR)
    if hit is not None and same_parts(hit[0], parts):
        return hit[1]
    chain = _read_chain(fn)
    fn.__dict__[_CHAIN_ATTR] = (parts, chain)
    return chain


def _read_chain(fn: func.FuncOp) -> Chain | None:
    if len(fn.body.blocks) != 1:
        return None
    ops = list(fn.body.block.ops)
    if not ops or not isinstance(ops[-1], func.ReturnOp):
        return None
    slot: dict[SSAValue, int] = {a: i for i, a in enumerate(fn.body.block.args)}
    programs: list[tuple[ProgramOp, list[int]]] = []
    for op in ops[:-1]:
        if not isinstance(op, ProgramOp) or any(v not in slot for v in op.operands):
            return None
        programs.append((op, [slot[v] for v in op.operands]))
        for r in op.results:
            slot[r] = len(slot)
    if any(v not in slot for v in ops[-1].operands):
        return None
    return programs, [slot[v] for v in ops[-1].operands]


def run(module: ModuleOp, entry: str | None, *arrays: Any) -> tuple[np.ndarray, ...]:
    """The outputs of `entry` on `arrays`."""
    return execute(module, entry, arrays).outputs
