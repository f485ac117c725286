"""Reading modules and pipelines with every dialect and pass the environment offers."""

from __future__ import annotations

import re

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
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
