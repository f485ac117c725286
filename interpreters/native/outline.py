"""
A function made ready for upstream MLIR: every op that computes in a function of its
own, identical functions kept once.

```python
mod = outline(fn)          # a new module; `fn` is left as it is
print(mod.entry, [f.sym_name.data for f in mod.kernels])
```

The entry (`@decode`, say) keeps the ops that only name or reshape values (scalar
constants, `tensor.empty`, `tensor.expand_shape`/`collapse_shape`, scalar
`tensor.extract`, scalar `arith` ops) and calls a private function for each other op
(a `linalg` op, a `q8` op, a `tensor.insert_slice`, a converted `spatial` program):
its operands and the values its regions capture are the function's arguments (scalar
constants are copied in), its results the function's. Two ops whose functions compute
the same (`fingerprint`: the same ops, types and properties, the names of programs,
tensors, buffers and stages aside) call one function: a model's 30 layers make a few
dozen functions, not a thousand, and each is converted and compiled once.

Each function is `llvm.no_inline` (which `convert-func-to-llvm` hands to LLVM):
inlined back into the entry, a whole model is one function of thousands of loops,
which LLVM at -O3 takes many minutes over. The entry itself is `llvm.optimize_none`.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

from xdsl.dialects import arith, func, tensor
from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DictionaryAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.printer import Printer
from xdsl.rewriter import InsertPoint, Rewriter

from xdsl_spatial.interpreters.kernels import captured_values

VECTOR_BITS = "512"
"""The vector width LLVM vectorises kernels to. LLVM's default on AVX-512 hosts is 256
(for the clock some chips drop to on 512-bit ops); the kernels' loops are long and
stream the weights, and 512-bit lanes halve their instructions."""

_VIEW_OPS = (tensor.EmptyOp, tensor.ExpandShapeOp, tensor.CollapseShapeOp, tensor.ExtractOp)


def stays_in_entry(op: Operation) -> bool:
    """Ops that only name, reshape or compute a scalar: cheaper inline than called."""
    if isinstance(op, arith.ConstantOp):
        return not isinstance(op.result.type, TensorType)
    if isinstance(op, _VIEW_OPS):
        return True
    if op.regions:
        return False
    return all(not isinstance(t, TensorType) for t in (*op.operand_types, *op.result_types))


@dataclass
class Outlined:
    """The module the native engine hands to upstream MLIR."""

    module: ModuleOp
    entry: func.FuncOp
    kernels: list[func.FuncOp] = field(default_factory=list)
    """The private functions the entry calls, each once."""
    sources: dict[str, list[Operation]] = field(default_factory=dict)
    """For each kernel, the ops of the original function it runs (for messages)."""


def _kernel_for(op: Operation, name: str) -> tuple[func.FuncOp, list[SSAValue]]:
    """A function running a clone of `op`, and the values the call passes it."""
    args: list[SSAValue] = []
    for v in (*op.operands, *captured_values(op)):
        if v not in args and not (
            isinstance(v.owner, arith.ConstantOp) and not isinstance(v.type, TensorType)
        ):
            args.append(v)
    block = Block(arg_types=[a.type for a in args])
    mapping: dict[SSAValue, SSAValue] = dict(zip(args, block.args))
    consts: list[Operation] = []
    for v in (*op.operands, *_all_used(op)):
        if v not in mapping and isinstance(v.owner, arith.ConstantOp):
            c = v.owner.clone()
            consts.append(c)
            mapping[v] = c.result
    clone = op.clone(value_mapper=mapping)
    block.add_ops([*consts, clone, func.ReturnOp(*clone.results)])
    fn = func.FuncOp(
        name,
        ([a.type for a in args], list(op.result_types)),
        Region(block),
        visibility="private",
    )
    fn.attributes["llvm.no_inline"] = UnitAttr()
    fn.attributes["llvm.passthrough"] = ArrayAttr(
        [ArrayAttr([StringAttr("prefer-vector-width"), StringAttr(VECTOR_BITS)])]
    )
    return fn, args


def _all_used(op: Operation) -> list[SSAValue]:
    """Every value the ops inside `op` use (defined inside or not)."""
    return [v for inner in op.walk() if inner is not op for v in inner.operands]


def ir_text(op: Operation) -> str:
    """`op` printed whole, as upstream MLIR reads it."""
    stream = io.StringIO()
    Printer(stream=stream).print_op(op)
    return stream.getvalue()


NAMING = frozenset({"sym_name", "tensor_name", "buffer_name", "stage_name"})
"""Properties that only name things (a program, its tensors, buffers and stages): two
kernels that differ in them alone compute the same."""


def fingerprint(fn: func.FuncOp) -> tuple[object, ...]:
    """What `fn` computes, as a hashable value: every op's name, types, operands (by
    the order of their definitions) and properties and attributes, names aside. Equal
    for equal kernels; compared whole (tuples of attributes), so never a collision."""
    ids: dict[SSAValue, int] = {}
    out: list[object] = [fn.function_type]
    for op in fn.walk():
        for r in op.results:
            ids[r] = len(ids)
        for region in op.regions:
            for block in region.blocks:
                for a in block.args:
                    ids[a] = len(ids)
                out.append(("block", tuple(block.arg_types)))
        out.append(
            (
                op.name,
                tuple(ids.get(v, -1) for v in op.operands),
                tuple(op.result_types),
                tuple(sorted((k, v) for k, v in op.properties.items() if k not in NAMING)),
                tuple(sorted((k, v) for k, v in op.attributes.items() if k not in NAMING)),
            )
        )
    return tuple(out)


def outline(fn: func.FuncOp) -> Outlined:
    """`fn` (one block, ending in `func.return`) as an entry calling a kernel per
    computing op, in a new module. `fn` itself is not changed."""
    entry = fn.clone()
    name = entry.sym_name.data
    module = ModuleOp([entry])
    out = Outlined(module, entry)
    for orig, op in zip(list(fn.body.block.ops), list(entry.body.block.ops)):
        if isinstance(op, func.ReturnOp) or stays_in_entry(op):
            continue
        kernel, args = _kernel_for(op, f"{name}__k{len(out.kernels)}")
        out.kernels.append(kernel)
        out.sources[kernel.sym_name.data] = [orig]
        Rewriter.replace_op(op, func.CallOp(kernel.sym_name.data, args, list(op.result_types)))
        Rewriter.insert_op(kernel, InsertPoint.at_end(module.body.block))
    entry.attributes["llvm.emit_c_interface"] = UnitAttr()
    # The entry only calls, allocates and frees: optimising it buys nothing and costs
    # LLVM most of its time (a decode step calls ~1,100 kernels).
    entry.attributes["llvm.no_inline"] = UnitAttr()
    entry.attributes["llvm.optimize_none"] = UnitAttr()
    # The caller's arrays are read, never written: bufferization copies before an
    # in-place update of an argument (a KV cache's insert_slice).
    read_only = DictionaryAttr({"bufferization.writable": BoolAttr.from_bool(False)})
    entry.arg_attrs = ArrayAttr([read_only] * len(entry.body.block.args))
    return out


def deduplicate(out: Outlined) -> None:
    """Calls of kernels that compute the same (`fingerprint`) call the first of them;
    the others are erased."""
    first: dict[tuple[object, ...], str] = {}
    rename: dict[str, str] = {}
    kept: list[func.FuncOp] = []
    for k in out.kernels:
        key = fingerprint(k)
        name = k.sym_name.data
        if key in first:
            rename[name] = first[key]
            out.sources[first[key]] += out.sources.pop(name)
            Rewriter.erase_op(k)
        else:
            first[key] = name
            kept.append(k)
    for op in out.entry.body.block.ops:
        if isinstance(op, func.CallOp) and op.callee.string_value() in rename:
            op.callee = SymbolRefAttr(rename[op.callee.string_value()])
    out.kernels = kept
