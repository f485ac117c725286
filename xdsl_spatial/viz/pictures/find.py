"""Finding what to draw in a module: its functions and programs, a program by name, and
the part of a model (a layer, a name) a picture is of.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from xdsl_spatial.dialects.spatial import (
    ProgramOp,
    TensorOp,
)
from xdsl_spatial.interpreters.stats import first_layer
from xdsl_spatial.viz.pictures.render import VizError

if TYPE_CHECKING:
    pass


@dataclass(frozen=True)
class Selection:
    """Which part of a model to draw: the programs (and ops) of its layer N, and those a
    name of which holds some text (a program's name, its tensors', its results')."""

    layer: int | None = None
    match: str | None = None

    def __bool__(self) -> bool:
        return self.layer is not None or bool(self.match)

    def takes(self, names: Sequence[str]) -> bool:
        """Whether a program or op of these names (its tensors' first) is selected."""
        if self.layer is not None and first_layer(names) != self.layer:
            return False
        return not self.match or any(self.match in n for n in names)

    def describe(self) -> str:
        parts = [f"layer {self.layer}"] * (self.layer is not None)
        parts += [f"matching '{self.match}'"] * bool(self.match)
        return ", ".join(parts)


def op_names(op: Operation) -> list[str]:
    """What an op is known by: a program's tensors (its weights' names first), its name
    and its results'; another op's results'."""
    names = []
    if isinstance(op, ProgramOp):
        names += [t.tensor_name.data for t in op.body.walk() if isinstance(t, TensorOp)]
        names.append(op.program_name.data)
    return names + [r.name_hint for r in op.results if r.name_hint]


def functions(module: ModuleOp) -> list[func.FuncOp]:
    return [op for op in module.walk() if isinstance(op, func.FuncOp) and op.body.blocks]


def programs(module: ModuleOp) -> list[tuple[str, ProgramOp]]:
    """(function name, program) of every program in the module, in order."""
    out = []
    for f in functions(module):
        for op in f.body.walk():
            if isinstance(op, ProgramOp):
                out.append((f.sym_name.data, op))
    return out


LISTED = 8
"""Programs an error lists when the one asked for is not there."""


def find_program(
    module: ModuleOp, name: str, entry: str | None = None, select: Selection | None = None
) -> ProgramOp:
    """The program named `name` (or the only `view`/`fold`, when `name` is the kind),
    among the selected ones."""
    select = select or Selection()
    found = [
        (fn, p)
        for fn, p in programs(module)
        if (entry is None or fn == entry) and select.takes(op_names(p))
    ]
    hits = [(fn, p) for fn, p in found if p.program_name.data == name]
    if not hits:
        hits = [(fn, p) for fn, p in found if name == p.KIND]
    if len(hits) == 1:
        return hits[0][1]
    shown = [f"{p.program_name.data} ({p.KIND}, @{fn})" for fn, p in found[:LISTED]]
    if len(found) > LISTED:
        shown.append(f"and {len(found) - LISTED} more (name a function with --entry)")
    listing = ", ".join(shown) or "none"
    where = (f" in @{entry}" if entry else "") + (f" of {select.describe()}" if select else "")
    if not hits:
        raise VizError(f"no program '{name}'{where}; the module has: {listing}")
    raise VizError(
        f"{len(hits)} programs{where} answer to '{name}' (in "
        + ", ".join(f"@{fn}" for fn, _ in hits)
        + "); pick one with --entry FUNC"
    )


def select_functions(module: ModuleOp, name: str | None) -> list[func.FuncOp]:
    fns = functions(module)
    if name is None:
        if not fns:
            raise VizError("the module has no function")
        return fns
    hits = [f for f in fns if f.sym_name.data == name]
    if not hits:
        have = ", ".join(f"@{f.sym_name.data}" for f in fns) or "none"
        raise VizError(f"no function @{name} in the module (it has: {have})")
    return hits
