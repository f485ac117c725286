"""
`spatial-opt`: `xdsl-opt` with this package's dialects and passes, and diagnostics as
MLIR gives them: a parse error, a verifier error (dominance included) or a failed
pass is one `FILE:LINE:COL: error: MESSAGE` with the op as written, exit code 1,
never a Python traceback; `-o FILE` is written whole or not at all. Everything else
(options, output) is xdsl-opt's; `--help` ends with this package's passes, each option
with its default.

    spatial-opt -p 'q8-lower{report=true}' examples/gemv_q8.mlir -o lowered.mlir
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import sys
import textwrap
from collections.abc import Sequence
from typing import IO, Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException
from xdsl.xdsl_opt_main import xDSLOptMain

from xdsl_spatial.core.ir_io import (
    SourceParser,
    check_source,
    parse_pipeline,
    pass_error,
    register_dialects,
    verify_module,
)
from xdsl_spatial.core.memory import memory_limit
from xdsl_spatial.passes.convert_q8_to_linalg import ConvertQ8ToLinalgPass
from xdsl_spatial.passes.convert_spatial_to_linalg import ConvertSpatialToLinalgPass
from xdsl_spatial.passes.q8_lower import Q8LowerPass
from xdsl_spatial.passes.q8_raise import Q8RaisePass
from xdsl_spatial.passes.spatial_hoist import HoistPass
from xdsl_spatial.passes.spatial_siblings import MergeSiblingsPass
from xdsl_spatial.passes.spatial_sum_trips import SumTripsPass
from xdsl_spatial.tools import cli

PROG = "spatial-opt"


class _Output(io.StringIO):
    """What xdsl-opt writes to `-o`, held until the run has succeeded (xdsl-opt
    closes its output stream when it is done; the text must outlive that)."""

    def close(self) -> None:
        pass


PASSES = (
    Q8LowerPass,
    Q8RaisePass,
    MergeSiblingsPass,
    SumTripsPass,
    HoistPass,
    ConvertSpatialToLinalgPass,
    ConvertQ8ToLinalgPass,
)
"""This package's passes, described at the end of `spatial-opt --help`."""


def _default(f: dataclasses.Field[Any]) -> str:
    if f.default is dataclasses.MISSING:
        return "?"
    if f.default is None:
        return "(the target's)"
    if isinstance(f.default, bool):
        return str(f.default).lower()
    return str(f.default)


def pass_help() -> str:
    """Each of `PASSES` with every option and its default, read from the pass's own
    dataclass fields, then its docstring."""
    out = ["passes of xdsl-spatial (-p 'NAME{option=value ...}'), with their defaults:"]
    for cls in PASSES:
        options = " ".join(
            f"{f.name.replace('_', '-')}={_default(f)}"
            for f in dataclasses.fields(cls)
            if not f.name.startswith("_")
        )
        out.append(f"\n  {cls.name}{{{options}}}" if options else f"\n  {cls.name}")
        out += ["  " + line for line in textwrap.dedent(cls.__doc__ or "").strip().splitlines()]
    return "\n".join(out)


class SpatialOptMain(xDSLOptMain):
    """xdsl-opt reading with `ir_io` (locations, dominance, the lexer's traps checked
    first) in the project's context (`ir_io.make_context`), checking the pipeline's options up front and holding `-o`'s output back
    until every chunk has gone through."""

    def register_all_dialects(self) -> None:
        register_dialects(self.ctx)

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.prog = PROG
        arg_parser.formatter_class = argparse.RawDescriptionHelpFormatter
        arg_parser.epilog = pass_help()

    def setup_pipeline(self) -> None:
        parse_pipeline(self.args.passes)  # every pass and option checked, in our words
        super().setup_pipeline()

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        if self.args.input_file is None:
            return sys.stdin.buffer, "mlir"
        text = cli.read_text(self.args.input_file, "input")
        ext = self.args.input_file.rsplit(".", 1)[-1] if "." in self.args.input_file else "mlir"
        return io.BytesIO(text.encode("utf-8")), ext if ext in self.available_frontends else "mlir"

    def parse_chunk(
        self, chunk: IO[bytes], file_extension: str, start_offset: int = 0
    ) -> ModuleOp | None:
        if self.args.frontend or file_extension != "mlir":
            return super().parse_chunk(chunk, file_extension, start_offset)
        try:
            text = chunk.read().decode("utf-8")
        except UnicodeDecodeError as e:
            raise cli.ToolError(
                f"cannot read input: not UTF-8 text ({e.reason} at byte {e.start})"
            ) from None
        name = self.get_input_name()
        check_source(text, name)
        parser = SourceParser(self.ctx, text, name, line_offset=start_offset)
        module = parser.parse_module(not self.args.no_implicit_module)
        if not self.args.disable_verify:
            verify_module(module)
        return module

    def apply_passes(self, prog: ModuleOp) -> None:
        try:
            super().apply_passes(prog)
        except (DiagnosticException, NotImplementedError) as e:
            located = pass_error(prog, e)
            if located is e:
                raise
            raise located from None
        if self.pipeline.passes and not self.args.disable_verify:
            verify_module(prog)  # xdsl-opt verified each pass; dominance too

    def output_resulting_program(self, prog: ModuleOp) -> str:
        try:
            return super().output_resulting_program(prog)
        except Exception as e:
            lines = str(e).strip().splitlines()
            why = f"{type(e).__name__}: {lines[0]}" if len(lines) == 1 else type(e).__name__
            raise cli.ToolError(
                f"target {self.args.target} cannot print this module ({why}); it prints "
                "only the ops it knows"
            ) from None

    def prepare_output(self) -> IO[str]:
        if self.args.output_file is None:
            return sys.stdout
        cli.check_output_path(self.args.output_file, "-o")
        self.held = _Output()
        return self.held


def _run(argv: Sequence[str] | None) -> int:
    memory_limit()  # a malformed XDSL_SPATIAL_MEMORY_LIMIT is refused before any work
    opt = SpatialOptMain(args=list(argv) if argv is not None else None)
    opt.run()
    if opt.args.output_file is not None:
        with cli.atomic_write(opt.args.output_file, option="-o") as f:
            f.write(opt.held.getvalue())
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    return cli.guarded(PROG, lambda: _run(argv))


if __name__ == "__main__":
    sys.exit(main())
