"""
`outline-kernels`: a function made ready for upstream MLIR, every op that computes in a
function of its own, identical functions kept once (what the native engine compiles).

```python
mod = outline(fn)          # a new module; `fn` is left as it is
print(mod.entry, [f.sym_name.data for f in mod.kernels])
```

```mlir
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = linalg.generic ... ins(%x ...)      // computes
  %b = linalg.generic ... ins(%a ...)      // the same, on another value
  func.return %b : tensor<4xf32>
}
```
becomes
```mlir
func.func @f(%x: tensor<4xf32> {bufferization.writable = false}) -> tensor<4xf32> attributes {llvm.no_inline, llvm.optimize_none} {
  %a = func.call @f__k0(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = func.call @f__k0(%a) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %b : tensor<4xf32>
}
func.func private @f__k0(%0: tensor<4xf32>) -> tensor<4xf32> attributes {llvm.no_inline, ...} {
  %1 = linalg.generic ... ins(%0 ...)
  func.return %1 : tensor<4xf32>
}
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

A result that only reshapes a computed value is returned as that value (`unreshaped`):
the entry's result types are those values', the same elements in the same order, so
the caller's arrays are the same bytes (the native engine makes them in the declared
shapes), and bufferized, the kernel writes straight into them.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith, func, shard, tensor
from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DictionaryAttr,
    FunctionType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.printer import Printer
from xdsl.rewriter import InsertPoint, Rewriter

from xdsl_spatial.core.ir_io import captured_values

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


def _is_scalar_constant(v: SSAValue) -> bool:
    return isinstance(v.owner, arith.ConstantOp) and not isinstance(v.type, TensorType)


def kernel_args(op: Operation) -> list[SSAValue]:
    """The values a call of `op`'s kernel passes: its operands and the values its
    regions capture, each once, scalar constants aside (copied into the kernel)."""
    args: list[SSAValue] = []
    for v in (*op.operands, *captured_values(op)):
        if v not in args and not _is_scalar_constant(v):
            args.append(v)
    return args


def _kernel_for(op: Operation, args: list[SSAValue], name: str) -> func.FuncOp:
    """A function running a clone of `op`, taking `args`."""
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
    return fn


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


def fingerprint(op: Operation, args: list[SSAValue]) -> tuple[object, ...]:
    """What the kernel of `op` taking `args` computes, as a hashable value: every op's
    name, types, operands (an argument by its place, a constant by its value, the
    rest by the order of their definitions) and properties and attributes, names
    aside. Equal for kernels that compute the same; compared whole (tuples of
    attributes), so never a collision."""
    ids: dict[SSAValue, object] = {a: ("arg", i) for i, a in enumerate(args)}
    out: list[object] = [tuple(a.type for a in args)]

    def ref(v: SSAValue) -> object:
        if v in ids:
            return ids[v]
        owner = v.owner
        assert isinstance(owner, arith.ConstantOp), "kernels capture only constants"
        return ("const", owner.value, v.type)

    for o in op.walk():
        for r in o.results:
            ids[r] = len(ids)
        for region in o.regions:
            for block in region.blocks:
                for a in block.args:
                    ids[a] = len(ids)
                out.append(("block", tuple(block.arg_types)))
        out.append(
            (
                o.name,
                tuple(ref(v) for v in o.operands),
                tuple(o.result_types),
                tuple(sorted((k, v) for k, v in o.properties.items() if k not in NAMING)),
                tuple(sorted((k, v) for k, v in o.attributes.items() if k not in NAMING)),
            )
        )
    return tuple(out)


def reshape_chain(v: SSAValue) -> list[SSAValue]:
    """`v`, then the value it reshapes, and so on back through `tensor.expand_shape`s
    and `collapse_shape`s: the last is not a reshape's result."""
    chain = [v]
    while isinstance(owner := chain[-1].owner, tensor.ExpandShapeOp | tensor.CollapseShapeOp):
        chain.append(owner.src)
    return chain


def unreshaped(v: SSAValue) -> SSAValue:
    """The value `v` reshapes (`reshape_chain`'s last), or `v`: the entry returns that,
    the same elements in the same order. A result is written where the caller says
    (`buffer-results-to-out-params`) only when the function returns the buffer made
    for it, not a reshaped view of one, which is copied: a decode step's caches
    (3 x 64 x 256 for the 192 x 256 its cache write makes) were copied whole at every
    step."""
    return reshape_chain(v)[-1]


def outline(fn: func.FuncOp) -> Outlined:
    """`fn` (one block, ending in `func.return`) as an entry calling a kernel per
    computing op, ops that compute the same calling one kernel (`fingerprint`), in a
    new module. `fn` itself is not changed: each kernel is made from a clone of the
    first op it runs, the entry from clones of the ops that stay in it."""
    block = Block(arg_types=fn.function_type.inputs)
    mapping: dict[SSAValue, SSAValue] = dict(zip(fn.body.block.args, block.args))
    for a, b in zip(fn.body.block.args, block.args):
        b.name_hint = a.name_hint
    entry = func.FuncOp(fn.sym_name.data, fn.function_type, Region(block))
    name = entry.sym_name.data
    module = ModuleOp([entry])
    out = Outlined(module, entry)
    known: dict[tuple[object, ...], str] = {}
    for op in fn.body.block.ops:
        # Layout annotations over chips change no value on one host (as the other
        # engines run them: interpreters/shard.py): a shard is its tensor.
        if isinstance(op, shard.ShardingOp):
            continue
        if isinstance(op, shard.ShardOp):
            mapping[op.result] = mapping[op.src]
            continue
        if isinstance(op, func.ReturnOp):
            block.add_op(func.ReturnOp(*(unreshaped(mapping[v]) for v in op.operands)))
            continue
        if stays_in_entry(op):
            block.add_op(op.clone(value_mapper=mapping))
            mapping.update(zip(op.results, cast(Operation, block.last_op).results))
            continue
        args = kernel_args(op)
        key = fingerprint(op, args)
        callee = known.get(key)
        if callee is None:
            callee = known[key] = f"{name}__k{len(out.kernels)}"
            out.kernels.append(_kernel_for(op, args, callee))
            out.sources[callee] = []
        out.sources[callee].append(op)
        call = func.CallOp(callee, [mapping[a] for a in args], list(op.result_types))
        block.add_op(call)
        for r, c in zip(op.results, call.results):
            mapping[r] = c
            c.name_hint = r.name_hint
    for k in out.kernels:
        module.body.block.add_op(k)
    returned = cast(func.ReturnOp, block.last_op).operands
    entry.properties["function_type"] = FunctionType.from_lists(
        fn.function_type.inputs.data, [v.type for v in returned]
    )
    # The entry only calls, allocates and frees: optimising it buys nothing and costs
    # LLVM time (a decode step calls ~1,100 kernels).
    entry.attributes["llvm.no_inline"] = UnitAttr()
    entry.attributes["llvm.optimize_none"] = UnitAttr()
    # The caller's arrays are read, never written (but a state the native engine's
    # caller donates: its program writes it, interpreters/native/donate.py):
    # bufferization copies before an in-place update of an argument (an insert_slice).
    read_only = DictionaryAttr({"bufferization.writable": BoolAttr.from_bool(False)})
    entry.arg_attrs = ArrayAttr([read_only] * len(block.args))
    return out


@dataclass(frozen=True)
class OutlineKernelsPass(ModulePass):
    """
    Every public function with a body outlined (`outline`): an entry calling a private
    kernel per computing op, ops that compute the same calling one kernel, the kernels
    placed after their entry.
    """

    name = "outline-kernels"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in list(op.body.block.ops):
            if not isinstance(fn, func.FuncOp) or fn.is_declaration:
                continue
            if fn.sym_visibility is not None and fn.sym_visibility.data == "private":
                continue
            out = outline(fn)
            made = list(out.module.body.block.ops)
            for f in made:
                f.detach()
            Rewriter.insert_op(made, InsertPoint.after(fn))
            Rewriter.erase_op(fn)
