"""
The module-wide part of the conversion: each `values` tensor of a program (a table, a
constant) as a private `memref.global` at the top of the module, padded to whole
tiles and named after the tensor, made by the pass before its pattern runs and handed
to it (a pattern reads the global with `memref.get_global`).

```mlir
%t = spatial.tensor "lanes" values(dense<[0, 1]> : tensor<1x2xi32>) : ...
```
becomes
```mlir
memref.global "private" constant @lanes__values : memref<32x32xi32> = dense<...>
...
%lanes = memref.get_global @lanes__values : memref<32x32xi32>
```
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from xdsl.dialects import memref
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnitAttr,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolTable

from xdsl_spatial.core.ir_io import dense_array
from xdsl_spatial.dialects.spatial import ProgramOp, TensorOp
from xdsl_spatial.passes.convert_spatial_to_linalg.pages import tensor_plan

Globals = dict[TensorOp, memref.GlobalOp]
"""Each `values` tensor's global."""


def make_globals(module: ModuleOp, rewriter: Rewriter) -> Globals:
    """A private constant global for every `values` tensor of every program in
    `module`, inserted at its top (the last made first), named `<tensor>__values`
    (then `_1`, `_2`, ... where the name is taken)."""
    made: Globals = {}
    for program in module.walk():
        if not isinstance(program, ProgramOp):
            continue
        for o in program.entry.ops:
            if isinstance(o, TensorOp) and o.values is not None:
                g = values_global(module, o, program.target.tile)
                rewriter.insert_op(g, InsertPoint.at_start(module.body.block))
                made[o] = g
    return made


def values_global(module: ModuleOp, o: TensorOp, tile: tuple[int, int]) -> memref.GlobalOp:
    """`o`'s values padded to whole tiles with zeros, as a global of a name no symbol
    of `module` has."""
    assert o.values is not None
    plan = tensor_plan(o, tile)
    vals = dense_array(o.values).reshape(plan.dims)
    padded = np.zeros(plan.padded, dtype=vals.dtype)
    padded[: plan.dims[0], : plan.dims[1]] = vals
    elem = o.handle.element_type
    base = name = f"{o.tensor_name.data}__values"
    n = 0
    while SymbolTable.lookup_symbol(module, name) is not None:
        n += 1
        name = f"{base}_{n}"
    init = DenseIntOrFPElementsAttr.from_list(
        cast(Any, TensorType(elem, plan.padded)), padded.reshape(-1).tolist()
    )
    t = MemRefType(elem, plan.padded)
    return memref.GlobalOp.get(StringAttr(name), t, init, StringAttr("private"), UnitAttr())
