"""
Which results of a function the native engine may write over an argument's array: a
state a program updates (a KV cache's write at the position) whose array the caller
donates, so the step writes the new row where the cache lies instead of copying the
whole cache into a new array first.

```python
pairs = updated_states(fn)      # ((result, argument), ...)
exe(*arrays, donate=True)       # each such result written into arrays[argument]
```

A pair is taken only when writing in place gives what the function says:

- the result is (through reshapes) a program's state tensor, and that tensor's initial
  value is (through reshapes) the argument, used by nothing else in the function: no
  op reads the old state after the program writes the new one over it;
- the program returns that state alone, and every load of it, outside any K loop, is
  followed in its block by a store of it to the same tiles (the same origin, table,
  block, stride and repeat): an item reads only tiles it then writes, and items write
  apart (verified, or guarded where a run-time table places the write), so no item
  reads what another has already written;
- the argument's type is the result's, and neither is paired twice.

The conversion copies a state into its result only when the result's buffer is not
the argument's own (`copy_unless_same`), so a donated array is updated where it lies
and a fresh one is filled as before: the same stores, the same bits.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects import func
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue

from xdsl_spatial.dialects.spatial import (
    LoadOp,
    ProgramOp,
    ReturnOp,
    StoreOp,
    TensorOp,
    same_tiles,
)
from xdsl_spatial.dialects.spatial.attributes import Role
from xdsl_spatial.dialects.spatial.loop import enclosing_loop
from xdsl_spatial.passes.outline_kernels import reshape_chain, unreshaped


def updated_states(fn: func.FuncOp) -> tuple[tuple[int, int], ...]:
    """(result, argument) pairs of `fn` whose result may be written into the
    argument's array (the module's docstring says when)."""
    ret = fn.body.block.last_op
    assert isinstance(ret, func.ReturnOp), "a function ends in func.return (verified)"
    returned = [unreshaped(v) for v in ret.operands]
    ins, outs = fn.function_type.inputs.data, fn.function_type.outputs.data
    pairs: list[tuple[int, int]] = []
    taken: set[int] = set()
    for j, v in enumerate(returned):
        arg = updated_argument(v, fn)
        if arg is None or arg.index in taken or returned.count(v) != 1:
            continue
        if ins[arg.index] != outs[j]:
            continue
        taken.add(arg.index)
        pairs.append((j, arg.index))
    return tuple(pairs)


def updated_argument(v: SSAValue, fn: func.FuncOp) -> BlockArgument | None:
    """The argument of `fn` whose state the program making `v` updates in place, if
    it does (`in_place`) and nothing else in `fn` reads that argument."""
    prog = v.owner
    if not isinstance(v, OpResult) or not isinstance(prog, ProgramOp):
        return None
    term = prog.entry.last_op
    if not isinstance(term, ReturnOp) or len(term.values) != 1:
        return None
    t = cast(TensorOp, term.values[0].owner)
    if Role(t.handle.role.data) != Role.STATE or t.source is None:
        return None
    if not isinstance(t.source, BlockArgument) or not in_place(prog, t):
        return None
    # Back through reshapes to the argument, each value on the way read by one op.
    chain = reshape_chain(prog.ins[t.source.index - len(prog.grid_shape)])
    value = chain[-1]
    if not all(c.has_one_use() for c in chain) or not isinstance(value, BlockArgument):
        return None
    return value if value.owner is fn.body.block else None


def in_place(prog: ProgramOp, t: TensorOp) -> bool:
    """Whether every load of `t` in `prog` lies outside K loops and is followed in its
    block by a store of `t` to the same tiles."""
    for op in prog.structure():
        if not isinstance(op, LoadOp) or op.tensor is not t.result:
            continue
        if enclosing_loop(op) is not None:
            return False
        later: Operation | None = op.next_op
        while later is not None:
            if isinstance(later, StoreOp) and later.tensor is t.result and same_tiles(op, later):
                break
            later = later.next_op
        if later is None:
            return False
    return True
