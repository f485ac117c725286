"""Reading modules and pipelines with every dialect and pass the environment offers."""

from __future__ import annotations

import re

import ml_dtypes
import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    ModuleOp,
)
from xdsl.parser import Parser
from xdsl.passes import PassPipeline
from xdsl.universe import Universe


def make_context() -> Context:
    """A context that knows every registered dialect (xDSL's and this package's)."""
    ctx = Context()
    for name, factory in Universe.get_multiverse().all_dialects.items():
        ctx.register_dialect(name, factory)
    return ctx


def parse_module(text: str, name: str = "<input>", ctx: Context | None = None) -> ModuleOp:
    """Parse and verify `text`."""
    module = Parser(ctx or make_context(), text, name).parse_module()
    module.verify()
    return module


def apply_pipeline(module: ModuleOp, spec: str, ctx: Context | None = None) -> None:
    """Apply an `xdsl-opt -p` pipeline, e.g. `q8-lower{local-mem=393216},cse`."""
    passes = Universe.get_multiverse().all_passes
    PassPipeline.parse_spec(passes, spec).apply(ctx or make_context(), module)
    module.verify()


def diagnostic_text(e: BaseException) -> str:
    """A diagnostic's message, and the op it is about (xDSL keeps the annotated IR in
    the exception's notes: the op is the line above the `^^^` marker)."""
    text = str(e).strip()
    for note in getattr(e, "__notes__", ()):
        lines = str(note).splitlines()
        for above, line in zip(lines, lines[1:]):
            if re.fullmatch(r"\s*\^+-*\s*", line):
                op = above.strip()
                if len(op) > 240:
                    op = op[:237] + "..."
                return f"{text}\n  at: {op}"
    return text


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
