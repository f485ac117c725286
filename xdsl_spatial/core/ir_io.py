"""
Reading modules and pipelines with every dialect and pass the environment offers,
and the diagnostics they give, in MLIR's shape.

```python
module = parse_module(text, "gemv.mlir")       # parsed, verified, dominance checked
apply_pipeline(module, "q8-lower{local-mem=393216},cse")
```

Every error about the IR is an `IRError` (a `VerifyException`) or xDSL's `ParseError`;
`format_diagnostic(e, prog)` renders either as MLIR does:

    gemv.mlir:6:3: error: 'q8.dequantize' op scales must have K/32 = 64 rows, got 65
      %w = q8.dequantize %W__q8, %W__q8_scale : tensor<2048x4096xi8>, ...

The op's line and column come from the file it was parsed from (`parse_module`
records them as each op's `FileLineColLoc`); an op a pass built has none and is
named by its text alone. Beyond what xDSL 0.75 checks, `parse_module`

- refuses, before lexing, a string literal that does not end on its line (xDSL's
  lexer backtracks exponentially over one) and a dense attribute whose elements
  would not fit the memory limit (`xdsl_spatial.core.memory`);
- names the op holding an attribute or type that does not verify (a page of 0
  tiles), which xDSL raises with no op;
- reads a hexadecimal float in a dense literal (`dense<0xFF800000> : tensor<4xf32>`,
  torch-mlir's `-inf`) as its bits, as MLIR does, where xDSL takes the hex as an
  integer's value (`hex_literals`);
- checks that every value's definition dominates its uses (`verify_dominance`),
  as MLIR's verifier does: xDSL resolves a use before its definition silently.

Pass pipelines (`parse_pipeline`) are checked against each pass's options before
anything runs; a malformed spec, an unknown pass or option, or an option value of
the wrong type is a `PipelineError` spelling the option as users type it
(`local-mem`).
"""

from __future__ import annotations

import dataclasses
import difflib
import io
import itertools
import math
import re
import struct
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points
from typing import Any, cast, get_args, get_origin, get_type_hints

import ml_dtypes
import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyDenseElement,
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    FileLineColLoc,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntAttr,
    IntegerType,
    ModuleOp,
    RankedStructure,
    StringAttr,
    TensorType,
)
from xdsl.ir import (
    Attribute,
    Block,
    BlockArgument,
    Dialect,
    Operation,
    OpResult,
    Region,
    SSAValue,
)
from xdsl.irdl.dominance import DominanceInfo
from xdsl.parser import Parser
from xdsl.passes import ModulePass, PassPipeline
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, NoTerminator
from xdsl.universe import Universe
from xdsl.utils.arg_spec import ArgSpec
from xdsl.utils.arg_spec import parse_pipeline as parse_pipeline_specs
from xdsl.utils.exceptions import (
    ArgSpecParseError,
    DiagnosticException,
    ParseError,
    VerifyException,
)
from xdsl.utils.lexer import Input, Location, Span

from xdsl_spatial.core import resources
from xdsl_spatial.core.files import ToolError
from xdsl_spatial.core.hex_literals import has_hex, parse_dense_with_hex
from xdsl_spatial.core.memory import collector_paused, format_bytes, limit_text, memory_limit
from xdsl_spatial.core.mlir_text import unread_op

# --------------------------------------------------------------------------------------
# Diagnostics
# --------------------------------------------------------------------------------------


class IRError(VerifyException):
    """A diagnostic about the IR: the message, where the op is (when it came from a
    file) and the op as written, rendered as MLIR renders one."""

    def __init__(
        self,
        message: str,
        location: Location | None = None,
        context: str = "",
        notes: Sequence[str] = (),
    ):
        super().__init__(message)
        self.message = message
        self.location = location
        self.context = context
        self.notes = tuple(notes)

    def render(self, prog: str | None = None) -> str:
        """`FILE:LINE:COL: error: MESSAGE` (or `PROG: error: MESSAGE` without a
        location), then the op's text and any notes."""
        if self.location is not None:
            head = f"{self.location}: error: {self.message}"
        else:
            head = f"{prog}: error: {self.message}" if prog else f"error: {self.message}"
        return "\n".join([head, *filter(None, [self.context.rstrip("\n")]), *self.notes])

    def __str__(self) -> str:
        return self.render()


_CONTEXT_WIDTH = 200
"""The widest op text a diagnostic quotes; longer ones end in `...`."""


class _FirstLine(io.StringIO):
    """A stream that stops the printer at the end of the op's first line."""

    class Full(Exception):
        pass

    def write(self, s: str) -> int:
        n = super().write(s)
        if "\n" in s or self.tell() > _CONTEXT_WIDTH:
            raise self.Full
        return n


def op_text(op: Operation) -> str:
    """The first line of `op` as its custom syntax prints it (the generic form if the
    custom printer cannot print it), cut to a line's width."""
    for generic in (False, True):
        stream = _FirstLine()
        try:
            Printer(stream=stream, print_generic_format=generic).print_op(op)
        except _FirstLine.Full:
            pass
        except Exception:
            continue
        text = stream.getvalue().split("\n", 1)[0].rstrip()
        if len(text) > _CONTEXT_WIDTH:
            text = text[: _CONTEXT_WIDTH - 3] + "..."
        return text
    return op.name


def op_location(op: Operation, *, inherit: bool = True) -> Location | None:
    """Where `op` was parsed from; for an op the parser did not read (the implicit
    body of a `linalg.matmul`, an op a pass built), where the nearest enclosing op
    that it did read was (unless `inherit` is false); None when there is none."""
    x: Operation | None = op
    while x is not None:
        loc = x.location
        if isinstance(loc, FileLineColLoc):
            return Location(loc.filename.data, loc.line.data, loc.column.data)
        if not inherit:
            return None
        x = x.parent_op()
    return None


def op_error(op: Operation, message: str, notes: Sequence[str] = ()) -> IRError:
    """A diagnostic about `op`: `'NAME' op MESSAGE` at its location, with its text."""
    return IRError(f"'{op.name}' op {message}", op_location(op), "  " + op_text(op), notes)


def _source_context(span: Span[Any]) -> str:
    """The source line of `span` and a caret under its start, as MLIR quotes one."""
    start = span.input.get_start_of_line(span.start)
    end = span.input.get_end_of_line(span.start)
    line = span.input.content[start:end]
    if isinstance(line, bytes):
        line = line.decode("utf-8", "replace")
    line = line.rstrip("\r")
    col = span.start - start
    if len(line) > _CONTEXT_WIDTH:
        lo = max(0, col - _CONTEXT_WIDTH // 2)
        line, col = line[lo : lo + _CONTEXT_WIDTH], col - lo
    return f"{line}\n{' ' * col}^"


def format_diagnostic(e: BaseException, prog: str) -> str:
    """The text a tool prints for a diagnostic `e` (without a trailing newline)."""
    if isinstance(e, IRError):
        return e.render(prog)
    if isinstance(e, ParseError):
        where = e.span.get_location()
        msg = e.msg
        if msg.startswith(" in "):  # xDSL's message for a block label it did not find
            msg = "expected an op, a block label (^name:) or the region's '}'" + msg
        lines = [f"{where}: error: {msg}", _source_context(e.span)]
        for span, msg in getattr(e, "refs", ()):
            lines += [f"{span.get_location()}: note: {msg or ''}".rstrip(), _source_context(span)]
        return "\n".join(lines)
    return f"{prog}: error: {diagnostic_text(e)}"


_MARKED = re.compile(
    r'\s*((?:%[\w.$-]+(?::\d+)?(?:\s*,\s*%[\w.$-]+(?::\d+)?)*)\s*=\s*)?"([\w.$-]+)"'
)


def marked_op(module: Operation, e: BaseException) -> Operation | None:
    """The op of `module` that xDSL marked in `e`'s notes (a pattern that raised: xDSL
    prints the module with the op underlined), found by its name and its results'
    names; None when it is not there or not one op."""
    for note in getattr(e, "__notes__", ()):
        lines = str(note).splitlines()
        for above, line in itertools.pairwise(lines):
            if not re.fullmatch(r"\s*\^+-*\s*", line):
                continue
            m = _MARKED.match(above)
            if m is None:
                return None
            names = re.findall(r"%([\w.$-]+)", m.group(1) or "")
            found = [
                op
                for op in module.walk()
                if op.name == m.group(2)
                and (not names or [r.name_hint for r in op.results] == names)
            ]
            return found[0] if len(found) == 1 else None
    return None


def locate(module: Operation, e: DiagnosticException) -> DiagnosticException:
    """`e` as an `IRError` about the op xDSL marked in it, when that op is found in
    `module`; `e` itself otherwise."""
    if isinstance(e, IRError):
        return e
    op = marked_op(module, e)
    return e if op is None else op_error(op, str(e).strip())


def diagnostic_text(e: BaseException) -> str:
    """A diagnostic's message, and the op it is about: for an `IRError` its whole
    text; for xDSL's own exceptions, the op xDSL marked in the exception's notes (the
    line above the `^^^` marker)."""
    if isinstance(e, IRError):
        return e.render()
    text = str(e).strip()
    for note in getattr(e, "__notes__", ()):
        lines = str(note).splitlines()
        for above, line in itertools.pairwise(lines):
            if re.fullmatch(r"\s*\^+-*\s*", line):
                op = above.strip()
                if len(op) > _CONTEXT_WIDTH:
                    op = op[: _CONTEXT_WIDTH - 3] + "..."
                return f"{text}\n  at: {op}"
    return text


# --------------------------------------------------------------------------------------
# Reading the text before xDSL's lexer does
# --------------------------------------------------------------------------------------

_TOKENS = re.compile(
    r"""//[^\n]*
      | "[^"\\\n\v\f]*(?:\\(?:["nt\\]|[0-9A-Fa-f]{2})[^"\\\n\v\f]*)*"
      | [^"/]+
      | /""",
    re.VERBOSE,
)
"""Comments, string literals (what xDSL's lexer accepts as one, written so that no
two ways of matching compete: a failed match costs one pass over the line, where
xDSL's own pattern backtracks exponentially) and everything else."""

_ESCAPE = re.compile(r'\\(?:["nt\\]|[0-9A-Fa-f]{2})')

_DENSE = re.compile(r"(?<![\w.$-])dense<")
_DENSE_TYPE = re.compile(r"\s*:\s*(?:tensor|vector|memref)\s*<\s*((?:\d+\s*x\s*)*)([A-Za-z]\w*)")
_ELEMENT_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "tf32": 4, "f64": 8, "index": 8}

PARSE_BYTES_PER_ELEMENT = 8
"""What xDSL's parser holds per element of a dense attribute besides its bytes: a
splat is expanded to a Python list of that many entries before it is packed."""


def _string_error(text: str, pos: int) -> str:
    """Why the string literal at `pos` does not lex."""
    end = text.find("\n", pos + 1)
    line = text[pos + 1 : end if end >= 0 else len(text)]
    i = 0
    while i < len(line):
        c = line[i]
        if c == '"':
            break
        if c == "\\":
            if _ESCAPE.match(line, i) is None:
                return (
                    f"invalid escape sequence '{line[i : i + 2]}' in a string literal "
                    '(allowed: \\n, \\t, \\\\, \\" and two hex digits)'
                )
            i += 3 if line[i + 1] not in '"nt\\' else 2
            continue
        if c in "\v\f":
            return "a string literal cannot hold a vertical tab or form feed"
        i += 1
    return "unterminated string literal: no closing '\"' on this line"


def _element_bytes(name: str) -> int:
    if name in _ELEMENT_BYTES:
        return _ELEMENT_BYTES[name]
    m = re.fullmatch(r"[su]?i(\d+)", name)
    if m:
        return max(1, -(-int(m.group(1)) // 8))
    return 16 if name == "complex" else 8


def check_source(text: str, name: str = "<input>") -> None:
    """Refuse, as a `ParseError` at its place, what xDSL's lexer or parser cannot
    survive: a string literal that does not end on its line, or a dense attribute
    whose elements need more memory than the limit to parse."""
    source = Input(text, name)
    masked: list[str] = []
    pos = 0
    while pos < len(text):
        m = _TOKENS.match(text, pos)
        if m is None:  # a '"' that starts no valid string literal
            raise ParseError(Span(pos, pos + 1, source), _string_error(text, pos))
        token = m.group()
        masked.append(token if token[0] not in '"/' or token == "/" else " " * len(token))
        pos = m.end()
    plain = "".join(masked)
    limit = memory_limit()
    for m in _DENSE.finditer(plain):
        close = plain.find(">", m.end())
        if close < 0:
            continue
        t = _DENSE_TYPE.match(plain, close + 1)
        if t is None:
            continue
        dims = [int(d) for d in re.findall(r"\d+", t.group(1))]
        count = math.prod(dims)
        need = count * (_element_bytes(t.group(2)) + PARSE_BYTES_PER_ELEMENT)
        if need > limit:
            shape = "x".join(map(str, dims))
            raise ParseError(
                Span(m.start(), m.end(), source),
                f"dense attribute of {count:,} elements ({shape}x{t.group(2)}) would "
                f"need {format_bytes(need)} to parse, more than {limit_text(limit)}",
            )


# --------------------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------------------


def make_context() -> Context:
    """The project's context: every registered dialect (xDSL's and the plugins'), with
    a `builtin` dialect of its own to hold the blobs of the modules it parses
    (`resources`), and the upstream dialects the plugins read otherwise (`read_as`)."""
    ctx = Context()
    register_dialects(ctx)
    return ctx


def register_dialects(ctx: Context) -> None:
    """Register every dialect of the installed universes in `ctx`, as `make_context`."""
    extra = read_as()
    for name, factory in Universe.get_multiverse().all_dialects.items():
        if name == "builtin":
            factory = resources.builtin_dialect
        ctx.register_dialect(name, extra.get(name, factory))


def read_as() -> dict[str, Callable[[], Dialect]]:
    """The dialects the installed plugins read in place of xDSL's of the same name, in
    the project's contexts only: an `xdsl.universe` entry point's `read_as` (this
    package's is `dialects.extensions.EXTENSIONS`, the forms of MLIR that xDSL 0.75
    does not read). xDSL's own `Universe` has none, so stock `xdsl-opt`, which builds
    its context from the universes' dialects alone, reads as it does without them."""
    out: dict[str, Callable[[], Dialect]] = {}
    for point in entry_points(group="xdsl.universe"):
        out.update(getattr(point.load(), "read_as", {}))
    return out


_OP_NAME = re.compile(r'\s*(?:%[^=]*=\s*)?"?([A-Za-z_][\w.$-]*)')


class SourceParser(Parser):
    """xDSL's parser, recording where each op starts (its `FileLineColLoc`), naming
    the op whose attributes or types fail to verify, and reading a hexadecimal float
    in a dense literal as its bits, as MLIR does (`hex_literals`)."""

    def __init__(self, ctx: Context, text: str, name: str = "<input>", line_offset: int = 0):
        super().__init__(ctx, text, name)
        self.source = Input(text, name)
        self.file_attr = StringAttr(name)
        self.line_offset = line_offset
        self.line_pos = 0
        self.line_no = 1

    def location_at(self, pos: int) -> Location:
        """The 1-based line and column of `pos` (counted on from the last one asked)."""
        text = self.source.content
        if pos < self.line_pos:
            self.line_pos, self.line_no = 0, 1
        self.line_no += text.count("\n", self.line_pos, pos)
        self.line_pos = pos
        col = pos - text.rfind("\n", 0, pos)
        return Location(self.source.name, self.line_no + self.line_offset, col)

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        """The module of the text; an empty one for a text of comments alone, as
        MLIR reads it."""
        if allow_implicit_module and self.pos >= len(self.source.content):
            return ModuleOp([])
        return super().parse_module(allow_implicit_module)

    def parse_dense_int_or_fp_elements_attr(
        self, type: RankedStructure[AnyDenseElement] | None
    ) -> DenseIntOrFPElementsAttr:
        text = self.source.content
        if isinstance(text, str) and has_hex(text, self.pos):
            return parse_dense_with_hex(self, self.source, type)
        return super().parse_dense_int_or_fp_elements_attr(type)

    def op_error_at(self, start: int, message: str) -> IRError:
        """A diagnostic about the op whose text starts at `start`."""
        m = _OP_NAME.match(self.source.content, start)
        what = f"'{m.group(1)}' op " if m else ""
        return IRError(
            f"{what}{message}",
            self.location_at(start),
            _source_context(Span(start, start, self.source)),
        )

    def parse_operation(self) -> Operation:
        start = self.pos
        m = _OP_NAME.match(self.source.content, start)
        if m is not None and (why := unread_op(m.group(1))) is not None:
            raise self.op_error_at(start, why)
        try:
            op = super().parse_operation()
        except IRError:
            raise
        except VerifyException as e:
            raise self.op_error_at(start, str(e)) from None
        except (
            ValueError,
            OverflowError,
            IndexError,
            KeyError,
            TypeError,
            AssertionError,
            struct.error,
        ) as e:
            # xDSL's op parsers assume well-formed text: a missing `outs(...)` indexes
            # past a tuple, an integer beyond i64 fails a conversion, a grid axis beyond
            # i16 fails to pack (`shard.sharding`'s split axes).
            reason = str(e) or type(e).__name__
            raise self.op_error_at(start, f"cannot be parsed: {reason}") from None
        if op_location(op, inherit=False) is None:
            where = self.location_at(start)
            op.location = FileLineColLoc(self.file_attr, IntAttr(where.line), IntAttr(where.col))
        return op


def parse_module(text: str, name: str = "<input>", ctx: Context | None = None) -> ModuleOp:
    """Parse `text` (from the file `name`) and verify it, dominance included; every
    `dense_resource` constant becomes the `dense` constant of its blob
    (`resources.materialize`), and a float `dense` written with hexadecimal elements
    is read as their bits (`SourceParser`)."""
    check_source(text, name)
    ctx = ctx or make_context()
    module = SourceParser(ctx, text, name).parse_module()
    try:
        resources.materialize(module, ctx)
    except resources.ResourceError as e:
        raise op_error(cast(Operation, e.op), str(e)) from None
    verify_module(module)
    return module


# --------------------------------------------------------------------------------------
# Verifying
# --------------------------------------------------------------------------------------


def _check_structure(op: Operation) -> None:
    """What `Operation.verify` checks besides `verify_` (terminators, successors),
    without the printout of the whole module it attaches to a failure."""
    block = op.parent
    region = block.parent if block is not None else None
    if op.successors:
        if block is None or region is None:
            raise VerifyException("an op with successors must be in a block")
        if block.last_op is not op:
            raise VerifyException("an op with successors must end its block")
        for succ in op.successors:
            if succ.parent is not region:
                raise VerifyException("branches to a block of another region")
    if block is not None and region is not None and block.last_op is op:
        parent = region.parent
        needs = len(region.blocks) > 1 or (
            parent is not None and not parent.has_trait(NoTerminator)
        )
        if needs and not op.has_trait(IsTerminator):
            raise VerifyException("ends its block but is not a terminator")
    for r in op.regions:
        if len(r.blocks) == 1 and r.block.first_op is None and not op.has_trait(NoTerminator):
            raise VerifyException("has an empty block where a terminator is expected")


def verify_module(module: Operation) -> None:
    """Verify `module` and every op in it, as `module.verify()` does, plus dominance;
    the first failure is an `IRError` naming its op. (The collector paused meanwhile:
    `memory.collector_paused`.)"""
    with collector_paused():
        verify_dominance(module)
        for op in module.walk(region_first=True):
            try:
                _check_structure(op)
                op.verify_()
            except IRError:
                raise
            except VerifyException as e:
                raise op_error(op, str(e)) from None
            except OverflowError as e:
                # A number in the op too large for the verifier's int64 arithmetic.
                raise op_error(op, f"holds a number too large to check ({e})") from None


def _value_name(v: SSAValue) -> str:
    if v.name_hint:
        return f"%{v.name_hint}"
    if isinstance(v, OpResult):
        return f"result #{v.index}"
    if isinstance(v, BlockArgument):
        return f"block argument #{v.index}"
    return "a value"  # (the parser's placeholder for a use it never saw defined)


class _Dominance:
    """Dominance queries over one module, with each block's op order and each
    region's block dominance computed once, when first asked."""

    def __init__(self) -> None:
        self.order: dict[Block, dict[Operation, int]] = {}
        self.blocks: dict[Region, tuple[DominanceInfo, set[Block]]] = {}

    def index(self, op: Operation, block: Block) -> int:
        order = self.order.get(block)
        if order is None:
            order = self.order[block] = {o: i for i, o in enumerate(block.ops)}
        return order[op]

    def block_info(self, region: Region) -> tuple[DominanceInfo, set[Block]]:
        info = self.blocks.get(region)
        if info is None:
            reachable: set[Block] = set()
            todo = [region.blocks[0]]
            while todo:
                b = todo.pop()
                if b not in reachable:
                    reachable.add(b)
                    if b.last_op is not None:
                        todo.extend(b.last_op.successors)
            info = self.blocks[region] = (DominanceInfo(region), reachable)
        return info

    def why_not(self, value: SSAValue, user: Operation) -> str | None:
        """None when `value` is visible at `user`, else why not."""
        if isinstance(value, OpResult):
            def_op: Operation | None = value.op
            def_block = value.op.parent
        elif isinstance(value, BlockArgument):
            def_op, def_block = None, value.block
        else:  # the parser's placeholder: no definition it could see
            return "it is defined nowhere this use can see (later, or inside a region)"
        if def_block is None:
            return "its definition is in no block"
        x: Operation | None = user
        while x is not None:
            block = x.parent
            if block is None:
                break
            region = block.parent
            if block is def_block:
                if def_op is None or isinstance(region.parent if region else None, ModuleOp):
                    return None  # a block argument, or a graph region (a module's body)
                if def_op is x:
                    return "it is this op's own result"
                if self.index(def_op, block) < self.index(x, block):
                    return None
                where = op_location(def_op)
                return "it is defined after this use" + (f", at {where}" if where else "")
            if region is not None and region is def_block.parent:
                dom, reachable = self.block_info(region)
                if block not in reachable or dom.dominates(def_block, block):
                    return None
                return "its block does not dominate this use's block"
            x = region.parent if region is not None else None
        return "it is defined in a region that does not enclose this use"


def verify_dominance(module: Operation) -> None:
    """Every operand of every op in `module` is defined before its use: earlier in
    the same block, in a dominating block of the same region, or in an enclosing
    region (a module's body, a graph region, takes its ops in any order). The first
    use that is not is an `IRError` naming the op and the operand."""
    dom = _Dominance()
    for op in module.walk():
        for i, v in enumerate(op.operands):
            why = dom.why_not(v, op)
            if why is not None:
                raise op_error(
                    op, f"operand #{i} ({_value_name(v)}) does not dominate this use: {why}"
                )


# --------------------------------------------------------------------------------------
# Pipelines
# --------------------------------------------------------------------------------------


class PipelineError(ToolError, ValueError):
    """A pass pipeline that cannot run: malformed, or naming an unknown pass or
    option, or an option value of the wrong type (a tool's `PROG: error: MESSAGE`)."""


def _option(name: str) -> str:
    return name.replace("_", "-")


def _expects(t: Any) -> str:
    """What a pass option of type `t` takes, in words."""
    args = [a for a in get_args(t) if a is not type(None)] or [t]
    if get_origin(t) is tuple or any(get_origin(a) is tuple for a in args):
        return "a comma-separated list"
    words = {int: "an integer", bool: "true or false", float: "a number", str: "a string"}
    return " or ".join(words.get(a, getattr(a, "__name__", str(a))) for a in args)


def _check_options(cls: type[ModulePass], spec: ArgSpec) -> None:
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init and f.name != "name"}
    hints = get_type_hints(cls)
    for key, value in spec.parameters.items():
        field = key.replace("-", "_")
        if field not in fields:
            known = ", ".join(_option(f) for f in fields) or "none"
            raise PipelineError(f"pass {spec.name} has no option '{key}' (its options: {known})")
        try:
            cls.from_pass_spec(ArgSpec(spec.name, {key: value}))
        except (ValueError, TypeError):
            given = ",".join(str(v) for v in value) if value else "nothing"
            raise PipelineError(
                f"option {_option(field)} of pass {spec.name} takes "
                f"{_expects(hints.get(field))}, got {given}"
            ) from None


def _pipeline_syntax_error(spec: str, e: ArgSpecParseError) -> PipelineError:
    """xDSL's pipeline syntax error (a multi-line picture) as one line."""
    lines = [line for line in str(e).splitlines() if line.strip()]
    col = re.search(r":(\d+)$", lines[1]) if len(lines) > 1 else None
    reason = lines[-1].strip() if lines else str(e)
    reason = reason[:1].lower() + reason[1:]
    at = f" at column {col.group(1)}" if col else ""
    return PipelineError(f"pass pipeline '{spec}': {reason}{at}")


def parse_pipeline(
    spec: str,
    callback: Callable[[ModulePass | None, ModuleOp, ModulePass | None], None] | None = None,
) -> PassPipeline:
    """The passes of an `xdsl-opt -p` spec, every option checked; PipelineError if not."""
    try:
        specs = list(parse_pipeline_specs(spec))
    except ArgSpecParseError as e:
        raise _pipeline_syntax_error(spec, e) from None
    available = Universe.get_multiverse().all_passes
    passes = []
    for s in specs:
        if s.name not in available:
            close = difflib.get_close_matches(s.name, list(available), n=3)
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            raise PipelineError(f"unknown pass '{s.name}' in the pipeline{hint}")
        cls = available[s.name]()
        _check_options(cls, s)
        try:
            passes.append(cls.from_pass_spec(s))
        except (ValueError, TypeError) as e:
            raise PipelineError(
                f"pass {s.name}: " + re.sub(r"\b\w+_\w+\b", lambda m: _option(m.group()), str(e))
            ) from None
    return PassPipeline(tuple(passes), callback)


def pass_error(module: Operation, e: Exception, pass_name: str | None = None) -> Exception:
    """A pass's failure as a diagnostic about the op it failed on, when xDSL marked
    one that is in `module`: a `DiagnosticException` (`PassFailedException`), or a
    `NotImplementedError` (a pass that does not handle this input). Anything else is
    returned as it is."""
    if isinstance(e, IRError):
        return e
    if isinstance(e, NotImplementedError):
        what = f"{pass_name} does not handle this input" if pass_name else "not supported"
        message = f"{what}: {str(e).strip() or 'not implemented'}"
        op = marked_op(module, e)
        return op_error(op, message) if op is not None else IRError(message)
    if isinstance(e, DiagnosticException):
        return locate(module, e)
    return e


def apply_pipeline(
    module: ModuleOp, spec: str, ctx: Context | None = None, *, verify_each: bool = False
) -> None:
    """Apply an `xdsl-opt -p` pipeline, e.g. `q8-lower{local-mem=393216},cse`, then
    verify the module (dominance included) once; with `verify_each`, after every pass
    (to name the pass that broke it)."""
    ctx = ctx or make_context()
    passes = parse_pipeline(spec).passes
    for i, p in enumerate(passes):
        try:
            p.apply(ctx, module)
        except (DiagnosticException, NotImplementedError) as e:
            located = pass_error(module, e, p.name)
            if located is e:
                raise
            raise located from None
        if verify_each or i == len(passes) - 1:
            verify_module(module)


def captured_values(op: Operation) -> tuple[SSAValue, ...]:
    """The values defined outside `op`, other than constants, that its regions use, in
    order of first use (empty for an op without regions)."""
    if not op.regions:
        return ()
    inside: set[Block] = set(op.walk_blocks())
    seen: dict[SSAValue, None] = {}
    for inner in op.walk():
        if inner is op:
            continue
        for v in inner.operands:
            if v in seen or isinstance(v.owner, arith.ConstantOp):
                continue
            home = v.block if isinstance(v, BlockArgument) else v.owner.parent
            if home not in inside:
                seen[v] = None
    return tuple(seen)


# --------------------------------------------------------------------------------------
# Dense attributes
# --------------------------------------------------------------------------------------


def dense_attr(t: TensorType[Attribute], values: Sequence[int | float]) -> DenseIntOrFPElementsAttr:
    """A dense constant of type `t` holding `values` (row-major). `from_list` is typed
    per element kind; a type read from IR is only known as `TensorType[Attribute]`."""
    return DenseIntOrFPElementsAttr.from_list(cast(Any, t), list(values))


def dense_array(attr: DenseIntOrFPElementsAttr) -> np.ndarray:
    """A dense constant's elements, read from its bytes: a weight of millions of
    elements never becomes a Python list."""
    et = attr.get_element_type()
    if isinstance(et, IntegerType) and et.width.data in (8, 16, 32, 64):
        dt = np.dtype(f"<i{et.width.data // 8}")
    elif isinstance(et, IndexType):
        dt = np.dtype("<i8")
    elif isinstance(et, BFloat16Type):
        dt = np.dtype(ml_dtypes.bfloat16)
    elif isinstance(et, Float16Type | Float32Type | Float64Type):
        dt = np.dtype(f"<f{et.bitwidth // 8}")
    else:
        return np.asarray(attr.get_values()).reshape(attr.get_shape())
    return np.frombuffer(attr.data.data, dtype=dt).reshape(attr.get_shape())
