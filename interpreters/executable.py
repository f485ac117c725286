"""
The compiled engine: a function read once into an immutable schedule, then run.

```python
exe = compile_function(module, "gemv")   # reads the IR once
result = exe(x, q, s)                     # .outputs, .traffic; call it as often as needed
```

`compile_function` walks the function's body once: every dense op becomes its kernel
(`kernels.py`, the same code the reference engine runs), every `spatial.view` and
`spatial.fold` a `CompiledProgram` (`program.py`), each reading and writing slots of
an environment. Calling the executable binds the arguments, runs the steps in order
and returns the results with the traffic of every program that ran.

The executable keeps nothing of the IR that it would read again: a module changed
after compiling needs a new compile, and the old executable goes on computing what
the module was.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.ir import Operation, SSAValue

from xdsl_spatial.core.progress import Count, Progress
from xdsl_spatial.dialects.spatial import ProgramOp
from xdsl_spatial.interpreters.dynamic import DynamicCompiler, DynamicProgram, runs_dynamically
from xdsl_spatial.interpreters.kernels import KernelError, captured_values, prepare
from xdsl_spatial.interpreters.program import CompiledProgram, ProgramCompiler
from xdsl_spatial.interpreters.traffic import Execution as Execution
from xdsl_spatial.interpreters.traffic import ProgramTraffic, Traffic
from xdsl_spatial.interpreters.values import SpatialRuntimeError


class CompileError(Exception):
    """The function cannot run: an op with no implementation, a value used before it
    is defined, or a program the chip refuses. The message names the op."""


@dataclass(frozen=True)
class FunctionStep:
    """One op of the function: a dense op's kernel or a compiled program, reading and
    writing slots of the environment."""

    run: Callable[[Sequence[Any]], tuple[Any, ...]] | None
    program: CompiledProgram | DynamicProgram | None
    ins: tuple[int, ...]
    outs: tuple[int, ...]
    name: str

    def __call__(self, args: Sequence[Any]) -> tuple[Sequence[Any], ProgramTraffic | None]:
        """The step's results, and a program's traffic."""
        if self.program is not None:
            return self.program.run(args)
        assert self.run is not None
        try:
            return self.run(args), None
        except KernelError:
            raise
        except (ValueError, IndexError, TypeError, MemoryError) as e:
            raise SpatialRuntimeError(f"{self.name}: {e}") from None


@dataclass(frozen=True)
class Executable:
    """A compiled function: call it on its arguments (numpy arrays, already of the
    function's types: `runner.execute` checks and converts them)."""

    name: str
    arity: int
    steps: tuple[FunctionStep, ...]
    slots: int
    results: tuple[int, ...]

    def __call__(self, *arrays: Any) -> Execution:
        if len(arrays) != self.arity:
            raise TypeError(f"@{self.name} takes {self.arity} arguments, got {len(arrays)}")
        env: list[Any] = [None] * self.slots
        env[: self.arity] = arrays
        traffic = Traffic()
        # NaN and inf propagate as the chip's arithmetic would; numpy's warnings about
        # them are not the user's concern (inputs are checked where they come in).
        with np.errstate(all="ignore"):
            for st in self.steps:
                outs, record = st([env[i] for i in st.ins])
                if record is not None:
                    traffic.programs.append(record)
                for i, v in zip(st.outs, outs):
                    env[i] = v
        return Execution(tuple(np.asarray(env[i]) for i in self.results), traffic)


def compile_function(
    fn: func.FuncOp, fast: bool = True, progress: Progress | None = None
) -> Executable:
    """The executable of `fn` (a function with one block of ops). `fast=False`
    compiles programs without their fast paths (see `ProgramCompiler`); `progress` is
    told how many of its ops are compiled."""
    if len(fn.body.blocks) != 1:
        raise CompileError(f"@{fn.sym_name.data}: a function of more than one block cannot run")
    block = fn.body.block
    slot: dict[SSAValue, int] = {a: i for i, a in enumerate(block.args)}
    steps: list[FunctionStep] = []
    results: tuple[int, ...] | None = None
    count = None
    if progress is not None:
        count = Count(progress, f"compiling @{fn.sym_name.data}", len(block.ops), "ops")
    for done, op in enumerate(block.ops):
        if count is not None:
            count(done)
        ins = []
        # A dense op's kernel also takes the values its regions capture from outside
        # (a gather's table in a linalg.generic body), after its operands.
        captured = () if isinstance(op, ProgramOp) else captured_values(op)
        for v in (*op.operands, *captured):
            if v not in slot:
                raise CompileError(
                    f"{op.name}: an operand is used before it is defined "
                    f"({_value_name(v)}); the function's ops are not in dominance order"
                )
            ins.append(slot[v])
        if isinstance(op, func.ReturnOp):
            results = tuple(ins)
            break
        outs = []
        for r in op.results:
            slot[r] = len(slot)
            outs.append(slot[r])
        if isinstance(op, ProgramOp):
            try:
                program = (
                    DynamicCompiler(op).compile()
                    if runs_dynamically(op)
                    else ProgramCompiler(op, fast).compile()
                )
            except SpatialRuntimeError as e:
                raise CompileError(str(e)) from None
            steps.append(FunctionStep(None, program, tuple(ins), tuple(outs), op.name))
        else:
            try:
                kernel = prepare(op)
            except KernelError as e:
                raise CompileError(str(e)) from None
            steps.append(FunctionStep(kernel, None, tuple(ins), tuple(outs), op.name))
    if results is None:
        raise CompileError(f"@{fn.sym_name.data}: the function does not end with func.return")
    return Executable(fn.sym_name.data, len(block.args), tuple(steps), len(slot), results)


def _value_name(v: SSAValue) -> str:
    if v.name_hint:
        return f"%{v.name_hint}"
    owner = v.owner
    return f"a result of {owner.name}" if isinstance(owner, Operation) else "a block argument"
