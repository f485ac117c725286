"""
The names `q8-lower` gives: a view after the value it views and how often its
variable was written before (`x__q8_rows1`), a chip's things with `_c{chip}`, a weight
after its stored parts (`W__q8`, `W__q8_scale`: `stored_name` and `stored_part` in the
q8 dialect), and `Naming`, what one run of the pass has named so far in a module so
that names stay one per thing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import cast

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.traits import IsolatedFromAbove

from xdsl_spatial.core.q8_names import stored_part
from xdsl_spatial.dialects import q8
from xdsl_spatial.dialects.spatial import ReturnOp, TensorOp, ViewOp
from xdsl_spatial.passes.tensor_parallel import unshard


def q8_rows_name(x: str, writes: int, chip: int | None = None) -> str:
    """The view of the value `x` holds after the program wrote `x` `writes` times."""
    return f"{x}__q8_rows{writes}{chip_suffix(chip)}"


def value_name(v: SSAValue, fallback: str) -> str:
    return v.name_hint or fallback


def chip_suffix(chip: int | None) -> str:
    """What a name of chip `chip`'s (a program, a tensor, a value) ends with."""
    return "" if chip is None else f"_c{chip}"


def weight_name(dq: q8.DequantizeOp, index: int) -> str:
    """The weight's name: from its stored parts' names, else its own, else `w<index>`
    (a `shard.shard` annotation names nothing: the value it annotates does)."""
    values, scales = unshard(dq.values)[0], unshard(dq.scales)[0]
    for v in (values, scales):
        if v.name_hint and (parsed := stored_part(v.name_hint)) is not None:
            return parsed[0]
    src = values.owner
    if isinstance(src, q8.QuantizeOp) and src.input.name_hint:
        return src.input.name_hint
    return dq.result.name_hint or values.name_hint or f"w{index}"


def view_tensor_name(view: SSAValue) -> str:
    """The name of the tensor a view program returns (what a fold's input is named)."""
    prog = cast(ViewOp, view.owner)
    ret = prog.body.block.last_op
    assert isinstance(ret, ReturnOp)
    return cast(TensorOp, ret.values[0].owner).tensor_name.data


def function_of(v: SSAValue) -> Operation:
    """The nearest op isolated from above (the function) that defines `v`."""
    block = v.owner if isinstance(v, BlockArgument) else cast(Operation, v.owner).parent
    op = block.parent_op() if isinstance(block, Block) else None
    while op is not None and not op.has_trait(IsolatedFromAbove):
        op = op.parent_op()
    assert op is not None, "a value the pass reads is inside a module"
    return op


def defined_tensors(scope: Operation) -> Iterator[SSAValue]:
    """The tensors `scope`'s regions define, in program order, not looking into programs
    or nested functions."""
    for region in scope.regions:
        for block in region.blocks:
            yield from (a for a in block.args if isinstance(a.type, TensorType))
            for op in block.ops:
                if not op.has_trait(IsolatedFromAbove):
                    yield from defined_tensors(op)
                yield from (r for r in op.results if isinstance(r.type, TensorType))


@dataclass
class Naming:
    """What one run of the pass has named so far in a module, so that names stay one
    per thing: every product of an activation value reads one view of it (one per
    chip it runs on), named after the value and how often its variable was written
    before (`x__q8_rows1`: `x`'s second value; `x__q8_rows1_c2`: its view on chip 2);
    every weight (its values and scales) has one name however often it is read, and
    every shard of it one slice. The pass makes one per module and hands it to the
    pattern."""

    views: dict[tuple[SSAValue, int | None], tuple[SSAValue, tuple[int, int]]] = field(
        default_factory=dict
    )
    """The view of each activation value on each chip, and the K columns it views."""
    viewed: dict[SSAValue, tuple[str, int]] = field(default_factory=dict)
    """Each viewed value's name and writes before it."""
    after: dict[SSAValue, Operation] = field(default_factory=dict)
    """The last op the pattern put after each viewed value (its chips' views in order)."""
    writes: dict[SSAValue, int] = field(default_factory=dict)
    """How many same-named tensors a function defined before each named value."""
    unnamed: dict[Operation, int] = field(default_factory=dict)
    """Unnamed activations viewed so far, per function."""
    weights: dict[tuple[SSAValue, SSAValue], str] = field(default_factory=dict)
    """The name of each weight (values, scales)."""
    slices: dict[tuple[SSAValue, tuple[int, int], tuple[int, int]], SSAValue] = field(
        default_factory=dict
    )
    """The slice (rows, columns) of a weight's values or scales each chip reads."""

    def weight(self, dq: q8.DequantizeOp) -> str:
        """The weight's name, given it if it has none yet."""
        key = (unshard(dq.values)[0], unshard(dq.scales)[0])
        self.weights[key] = self.weight_as(dq)
        return self.weights[key]

    def weight_as(self, dq: q8.DequantizeOp) -> str:
        """The name the weight has, or would be given now."""
        key = (unshard(dq.values)[0], unshard(dq.scales)[0])
        return self.weights.get(key) or weight_name(dq, len(self.weights))

    def value(self, x: SSAValue) -> tuple[str, int]:
        """The name a view of `x` takes after, and how often it was written before."""
        if x not in self.viewed:
            self.viewed[x] = (value_name(x, "x"), self.writes_before(x))
        return self.viewed[x]

    def view_conflict(self, x: SSAValue, chip: int | None, cols: tuple[int, int]) -> str | None:
        """Why a product cannot read a view of columns `cols` of `x` on `chip`: the
        chip already views another slice of `x` under the one name a chip's view has."""
        made = self.views.get((x, chip))
        if made is None or made[1] == cols:
            return None
        base, writes = self.value(x)
        return (
            f"{q8_rows_name(base, writes, chip)} already views columns "
            f"{made[1][0]}..{made[1][1]} of %{base}; this product reads {cols[0]}..{cols[1]}"
        )

    def writes_before(self, x: SSAValue) -> int:
        """How many times the function wrote the tensor `x` names before `x`: the
        tensors of that name it defines earlier (`%x`, then `%x_1`, ...). An unnamed
        value is viewed as `x`, numbered after every tensor the function names `x`."""
        fn = function_of(x)
        if x.name_hint is None:
            named = sum(1 for v in defined_tensors(fn) if v.name_hint == "x")
            self.unnamed[fn] = self.unnamed.get(fn, 0) + 1
            return named + self.unnamed[fn] - 1
        if x not in self.writes:
            seen: dict[str, int] = {}
            for v in defined_tensors(fn):
                if v.name_hint is not None:
                    self.writes[v] = seen.get(v.name_hint, 0)
                    seen[v.name_hint] = self.writes[v] + 1
        return self.writes.get(x, 0)
