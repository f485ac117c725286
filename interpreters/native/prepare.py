"""
What the native engine hands to upstream MLIR: a function converted to upstream
dialects only, outlined into kernels, and printed once.

```python
prepared = prepare(fn)          # outlined; fn is left as it is
prepared.source                 # printed before conversion: the compile cache's key
text = convert(prepared)        # the module upstream MLIR parses
prepared.programs               # the programs it runs, in order, for their traffic
```

Steps, each on a copy of the function, each a registered pass of its own (lit-tested,
usable with `spatial-opt`):

1. `outline-kernels` (`passes/outline_kernels.py`): each computing op into a private
   kernel function of its own, ops that compute the same into one, so each of the rest
   is done once per kernel, not once per op;
2. `spatial-native-layout` (`passes/native_layout.py`; for the kernels that read
   them so, on one thread: `lays`) marks the Q8_0 weights the code reads laid
   in tile columns, which the caller passes so (`strips`, `call.Slot.strip`);
   `spatial-native-kernels` (`passes/native_kernels.py`, its `kind` the kernels
   chosen for the host: `host.py`) marks each summing stage with the kernel it runs
   as, then the target-neutral `convert-spatial-to-linalg` builds them and
   `convert-q8-to-linalg` the rest, on the whole module;
3. `tensor-slices-as-copies` (`passes/slices_as_copies.py`): no strided `memref.copy`
   left after bufferization (it would call `memrefCopy` from MLIR's runtime library,
   which the wheel does not ship);
4. `linalg-contiguous-output-innermost` (`passes/contiguous_output.py`): a generic
   whose innermost loop is a reduction runs its output's contiguous axis innermost (the
   same sums in the same order);
5. `linalg-contraction-in-registers` (`passes/contraction_in_registers.py`), for every
   kernel choice but `generic` (the plain path, which keeps the loops of step 4): an
   f32 sum of products over one axis into rows contiguous in the output and in the
   operand it reads rows of (the host's attention) as vector code whose sums stay in
   registers, the next block of rows asked for ahead (the same sums in the same order);
6. `linalg-masked-map` (`passes/masked_map.py`), for every kernel choice but
   `generic`: a map whose body yields `select(ok, value, c)`, `ok` varying along its
   innermost loop (a batched step's softmax `exp`, +0.0 past each sequence's
   position), computed only in the vectors of that loop where `ok` keeps a point,
   `c` stored in the rest (the same bits);
7. `math-exp-as-arith` (`passes/exp_as_arith.py`): every f32 `math.exp` as `arith`
   ops, which LLVM vectorises (a call of libm's `expf` an element would not be);
8. each kernel function given the LLVM attributes of the CPU its kernels are for
   (`host.Kernels.function_attributes`: `avx2`'s are compiled at 256 bits without
   AVX-512).

A program that reads an address from a table (an indirect move or stage map) is
first checked over its IR (`analysis/tables.py`): machine code reads where a constant
table says without checking, so a table not known before the run, or an address
outside a page, is refused here, in the other engines' words, or never. A table
another program makes when the step runs (`dynamic.runs_dynamically`: a cache write's
position, a gather's tokens) cannot be checked over the IR: such a program is checked
as the compiled engine would run it (`dynamic.DynamicCompiler`), and the conversion
guards each move through such a table (made only inside its tensor and, a store,
inside what its item owns), so a position past the cache writes nothing rather than
out of bounds.

A `cf.assert` (torch-mlir's bounds checks) is checked on the host before each call
and taken out of the code (`asserts.py` says why and what it takes).

A module that still holds an op of another dialect after that (a `q8.quantize
exact`, whose run-time refusal no generic can make) is refused here, naming the op.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects import func, memref
from xdsl.dialects.builtin import ArrayAttr, MemRefType, StringAttr
from xdsl.ir import Attribute, Operation

from xdsl_spatial.analysis.tables import table_reads
from xdsl_spatial.core.ir_io import op_text
from xdsl_spatial.dialects.spatial import ProgramOp
from xdsl_spatial.interpreters.counting import program_traffic
from xdsl_spatial.interpreters.dynamic import DynamicCompiler, runs_dynamically
from xdsl_spatial.interpreters.native.asserts import AssertError, assert_checks, strip_asserts
from xdsl_spatial.interpreters.native.host import Kernels
from xdsl_spatial.interpreters.traffic import ProgramTraffic
from xdsl_spatial.interpreters.values import SpatialRuntimeError, numpy_dtype
from xdsl_spatial.passes.contiguous_output import ContiguousOutputInnermostPass
from xdsl_spatial.passes.contraction_in_registers import ContractionInRegistersPass
from xdsl_spatial.passes.convert_q8_to_linalg import ConvertQ8ToLinalgPass
from xdsl_spatial.passes.convert_spatial_to_linalg import ConvertSpatialToLinalgPass
from xdsl_spatial.passes.convert_tm_tensor import ConvertTMTensorPass
from xdsl_spatial.passes.exp_as_arith import ExpAsArithPass
from xdsl_spatial.passes.masked_map import MaskedMapPass
from xdsl_spatial.passes.native_kernels import NativeKernelsPass
from xdsl_spatial.passes.native_layout import NativeLayoutPass, laid_arguments
from xdsl_spatial.passes.outline_kernels import Outlined, ir_text, outline
from xdsl_spatial.passes.outline_parallel_items import OutlineParallelItemsPass
from xdsl_spatial.passes.slices_as_copies import SlicesAsCopiesPass

UPSTREAM_DIALECTS = frozenset(
    {
        "builtin",
        "func",
        "arith",
        "math",
        "linalg",
        "tensor",
        "memref",
        "scf",
        "bufferization",
        "vector",
        "x86",
        "llvm",
    }
)
"""The dialects the converted module may hold: upstream MLIR's own (`llvm`: the `dot`
kernel widens int8 vectors with LLVM's `sext` and `sitofp`, which xDSL's `arith` casts,
scalar only, cannot say)."""


STACK_BYTES = 3 << 20
"""The bytes of a kernel's `memref.alloca`s (a site's buffers, a sum's scratch) the
native engine runs at most: they live on the stack of the thread that runs the
kernel, 8 MiB for a process's first thread and 4 MiB for an OpenMP worker's (LLVM's
`libomp`). The chips' presets give a site 1.5 MiB; a larger `local-mem` could
overflow it, which would end the process."""


def stack_bytes(kernel: func.FuncOp) -> int:
    """What `kernel`'s allocas that something reads or writes take (an alloca nothing
    uses is dropped by LLVM: a page read in place declares a buffer it never fills)."""
    total = 0
    for o in kernel.walk():
        if isinstance(o, memref.AllocaOp) and o.memref.first_use is not None:
            t = cast(MemRefType[Attribute], o.memref.type)
            total += math.prod(t.get_shape()) * numpy_dtype(t.element_type).itemsize
    return total


class PrepareError(Exception):
    """A function the native engine cannot hand to upstream MLIR; names the op."""


@dataclass
class Prepared:
    """A function outlined into kernels, before and after its conversion."""

    name: str
    outlined: Outlined
    """The entry and its kernels (converted in place by `convert`)."""
    programs: tuple[ProgramTraffic, ...]
    """What each program of the function moves in one call, in the order they run."""
    source: str
    """The outlined module before conversion, printed: what decides the machine code
    (the compile cache's key), made without converting anything."""
    checks: func.FuncOp | None = None
    """The function's `cf.assert`s and what their conditions read, run before each
    call (`asserts.assert_checks`); the outlined module holds none."""
    text: str = ""
    """The converted module, printed: what upstream MLIR parses (after `convert`)."""


def _foreign(ops: Iterable[Operation]) -> Operation | None:
    for o in ops:
        if o.name.split(".", 1)[0] not in UPSTREAM_DIALECTS:
            return o
    return None


def check_tables(program: ProgramOp) -> None:
    """The refusals of a program that reads addresses from tables (a table that is
    not constant, an address outside its page or tensor), made now: machine code does
    not check an address before it reads there. A table made at run time is the
    dynamic engine's to check (see the module's docstring)."""
    if runs_dynamically(program):
        try:
            DynamicCompiler(program).compile()
        except SpatialRuntimeError as e:
            raise PrepareError(str(e)) from None
        return
    why = table_reads(program)
    if why is not None:
        raise PrepareError(why)


def prepare(fn: func.FuncOp) -> Prepared:
    """`fn` (verified, one block) outlined into kernels, the same ones merged, its
    `cf.assert`s taken out into the checks run before each call; `fn` is unchanged."""
    programs = tuple(program_traffic(o) for o in fn.body.block.ops if isinstance(o, ProgramOp))
    try:
        checks = assert_checks(fn)
    except AssertError as e:
        raise PrepareError(str(e)) from None
    out = outline(fn)
    strip_asserts(out.module)
    return Prepared(fn.sym_name.data, out, programs, ir_text(out.module), checks)


def lays(kind: str) -> bool:
    """Whether the code for the kernels `kind` reads weights laid in tile columns
    (`host.Kernels.tile_columns`), on one thread or with its items on threads (each
    item's body a function of its own there: `outline-parallel-items`)."""
    return Kernels(kind).tile_columns


def strips(prepared: Prepared, kind: str) -> tuple[int, ...]:
    """For each argument of the function, the width of the tile columns its code for
    the kernels `kind` reads it laid in (`spatial-native-layout`, which `convert` runs
    where `lays`), or 0: laid in rows. What a caller passes each argument as
    (`call.Slot.strip`)."""
    args = prepared.outlined.entry.body.block.args
    if not lays(kind):
        return (0,) * len(args)
    laid = laid_arguments(prepared.outlined.module)
    return tuple(laid.get(a, 0) for a in args)


def add_passthrough(fn: func.FuncOp, attrs: Iterable[tuple[str, str]]) -> None:
    """`fn`'s LLVM attributes (`llvm.passthrough`) with `attrs`, each replacing one of
    the same name."""
    given = dict(attrs)
    if not given:
        return
    names = {StringAttr(k) for k in given}
    old = fn.attributes.get("llvm.passthrough")
    kept = [
        e
        for e in (old.data if isinstance(old, ArrayAttr) else ())
        if not (isinstance(e, ArrayAttr) and e.data and e.data[0] in names)
    ]
    new = [ArrayAttr([StringAttr(k), StringAttr(v)]) for k, v in given.items()]
    fn.attributes["llvm.passthrough"] = ArrayAttr([*kept, *new])


def convert(prepared: Prepared, parallel: bool = False, kind: str = "generic") -> str:
    """The kernels converted to upstream dialects (the checks of programs that read
    through tables first; with `parallel`, each program's items an `scf.parallel`
    calling a function of their body (`outline-parallel-items`);
    `kind` the kernels `spatial-native-kernels` chooses: `generic`, `loop`, `avx2`,
    `bf16`, `amx`, each kernel function given their LLVM attributes;
    all but `generic` also hold the sums `linalg-contraction-in-registers` takes in
    registers); the module's text, also kept in `prepared.text`."""
    out = prepared.outlined
    for k in out.kernels:
        for o in k.body.block.ops:
            if isinstance(o, ProgramOp):
                check_tables(o)
    ctx = Context()
    if lays(kind):
        NativeLayoutPass().apply(ctx, out.module)
    NativeKernelsPass(kind).apply(ctx, out.module)
    ConvertSpatialToLinalgPass(parallel=parallel).apply(ctx, out.module)
    ConvertQ8ToLinalgPass().apply(ctx, out.module)
    ConvertTMTensorPass().apply(ctx, out.module)
    SlicesAsCopiesPass().apply(ctx, out.module)
    ContiguousOutputInnermostPass().apply(ctx, out.module)
    if kind != "generic":  # a register block for the host's vectors; generic: the plain loops
        ContractionInRegistersPass().apply(ctx, out.module)
        MaskedMapPass().apply(ctx, out.module)
    ExpAsArithPass().apply(ctx, out.module)
    for k in out.kernels:
        add_passthrough(k, Kernels(kind).function_attributes)
    for k in out.kernels:
        used = stack_bytes(k)
        if used > STACK_BYTES:
            src = out.sources[k.sym_name.data][0]
            raise PrepareError(
                f"{src.name}: cannot run natively: its buffers and scratch take "
                f"{used:,} bytes, which the native engine keeps on the stack "
                f"({STACK_BYTES:,} at most): lower it for a site of less local memory "
                f"(q8-lower's local-mem) or run it with the compiled engine "
                f"({op_text(src)[:120]})"
            )
        bad = _foreign(k.walk())
        if bad is not None:
            src = out.sources[k.sym_name.data][0]
            raise PrepareError(
                f"{src.name}: cannot run natively: after conversion it leaves "
                f"{bad.name}, which upstream MLIR does not know ({op_text(src)[:120]})"
            )
    if parallel:  # after the checks above, which read each kernel's own allocas
        OutlineParallelItemsPass().apply(ctx, out.module)
    prepared.text = ir_text(out.module)
    return prepared.text
