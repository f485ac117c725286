"""
Programs built once and copied: a lowering that makes many programs differing only in
the values they read and the names of their tensors (a model's 30 layers make the
same fold for each layer's `attn_q`) builds the first of a kind, optimises it, and
copies it for the others, where building and optimising each would cost as much every
time.

```python
templates = Templates(optimize)                    # one per run of a pass
progs = templates.programs(key, [x, w], ["x", "w"], build)
# progs: build([x', w'], [n0, n1]) made once for `key` (on stand-ins x', w' of the
# types of x and w, its tensors named with place-holders n0, n1), optimised by
# `optimize`, then cloned onto [x, w] with its tensors renamed "x" and "w"
```

`build(ins, names)` makes the programs of a kind from their inputs and their names:
the programs only, in order (a later one may read an earlier one's results), none
inserted anywhere. What they are must follow from `key`, the types of `ins` and the
names alone, and a name may reach the programs only as (part of) a `spatial.tensor`
name: a copy renames every `spatial.tensor` whose name holds a place-holder, by
replacing it. `optimize(module)` runs on a module holding the first programs alone (in
a function whose arguments stand for `ins`): a pass that rewrites each program by
itself gives a program the same result there as among the module's others.

A copy is the programs `Operation.clone` makes: the same ops, attributes and name
hints, so the module printed is the one building each program would print
(`tests/test_templates.py` compares them). Cloning costs a few microseconds an op;
building one through its constructor several times that, and the passes walk and
rewrite what they are given.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Block, Region, SSAValue

from xdsl_spatial.dialects.spatial import ProgramOp

Build = Callable[[Sequence[SSAValue], Sequence[str]], Sequence[ProgramOp]]
"""Makes a kind's programs from their inputs and their tensors' names."""

Optimize = Callable[[ModuleOp], None]
"""Rewrites every program of a module in place."""


def place_holder(i: int) -> str:
    """The name that stands for the `i`th name in a template: NUL never appears in a
    name a user or a pass gives."""
    return f"\0{i}\0"


@dataclass
class Template:
    """The programs of one kind, built once on stand-ins for their inputs."""

    ins: tuple[SSAValue, ...]
    """What the programs read in place of the real inputs (a function's arguments)."""
    programs: tuple[ProgramOp, ...]
    names: int
    """How many names the programs take."""


@dataclass
class Templates:
    """The kinds of program one run of a pass has made so far, each optimised by
    `optimize` (when given) once."""

    optimize: Optimize | None = None
    made: dict[Hashable, Template] = field(default_factory=dict)

    def programs(
        self, key: Hashable, ins: Sequence[SSAValue], names: Sequence[str], build: Build
    ) -> list[ProgramOp]:
        """`build(ins, names)`, made for `key` (and the types of `ins`) once and copied."""
        kind = (key, tuple(v.type for v in ins), len(names))
        template = self.made.get(kind)
        if template is None:
            template = self.made[kind] = self.make(ins, len(names), build)
        return copy(template, ins, names)

    def make(self, ins: Sequence[SSAValue], names: int, build: Build) -> Template:
        block = Block(arg_types=[v.type for v in ins])
        programs = tuple(build(block.args, [place_holder(i) for i in range(names)]))
        block.add_ops(programs)
        block.add_op(func.ReturnOp())
        fn = func.FuncOp("template", ([v.type for v in ins], []), Region(block))
        if self.optimize is not None:
            self.optimize(ModuleOp([fn]))
        made = tuple(op for op in block.ops if isinstance(op, ProgramOp))
        return Template(tuple(block.args), made, names)


def copy(template: Template, ins: Sequence[SSAValue], names: Sequence[str]) -> list[ProgramOp]:
    """The template's programs reading `ins`, their tensors named with `names`."""
    mapping: dict[SSAValue, SSAValue] = dict(zip(template.ins, ins, strict=True))
    out: list[ProgramOp] = []
    for p in template.programs:
        c = p.clone(value_mapper=mapping)
        for t in c.tensors():
            name = t.tensor_name.data
            if "\0" in name:
                for i, n in enumerate(names):
                    name = name.replace(place_holder(i), n)
                t.tensor_name = StringAttr(name)
        out.append(c)
    return out
