"""
`spatial-viz`: pictures of a module's spatial programs, as SVG or PNG (by the output's
extension), written whole or not at all.

    spatial-viz gemv.mlir -p q8-lower --graph q8_gemv_2048x4096_w8 -o fold.svg
    spatial-viz gemv.mlir -p q8-lower --graph -o functions.svg      # views and folds
    spatial-viz gemv.mlir -p q8-lower --tiles fold -o tiles.png
    spatial-viz gemv.mlir -p q8-lower --traffic -o traffic.png      # runs it (--seed)
    spatial-run layer.mlir --weights m.gguf --seed 0 --stats-json t.json
    spatial-viz --traffic t.json -o traffic.svg
    spatial-viz model.mlir -p q8-lower --entry decode --graph --layer 3 -o layer3.svg
    spatial-viz model.mlir -p q8-lower --entry decode --traffic -o step.svg   # per layer

Needs the `[viz]` extra (`pip install -e '.[viz]'`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import VerifyException

from xdsl_spatial.core.ir_io import SourceParser, apply_pipeline, diagnostic_text, make_context
from xdsl_spatial.interpreters.runner import execute
from xdsl_spatial.interpreters.traffic_io import TrafficFileError, TrafficRun, read_json
from xdsl_spatial.tools import cli

PROG = "spatial-viz"


def _parser() -> argparse.ArgumentParser:
    p = cli.ArgumentParser(
        prog=PROG,
        description="Draw a module's spatial programs: a program's or a function's "
        "dataflow, the tiles each work item owns, or the bytes a run moves.",
        epilog="The picture is SVG or PNG, by the extension of -o. Graphs are laid out "
        "by Graphviz: the system's `dot` when on PATH, else graphviz-pure (from the "
        "[viz] extra). A module the verifier refuses is still drawn (--graph, --tiles), "
        "with the refusal and the offending tiles marked.",
    )
    p.add_argument("file", nargs="?", help="the .mlir module (not needed for --traffic STATS.json)")
    p.add_argument("-p", "--pipeline", help="xdsl-opt passes to apply first, e.g. q8-lower")
    p.add_argument("--entry", metavar="FUNC", help="only this function's programs")
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument(
        "--graph",
        nargs="?",
        const="",
        metavar="PROGRAM",
        help="the dataflow of PROGRAM (a program's name, or `view`/`fold` when there is "
        "one); with no PROGRAM or with @FUNC, the views and folds of the functions",
    )
    what.add_argument(
        "--tiles",
        metavar="PROGRAM",
        help="PROGRAM's tensors as tile grids, each tile coloured by the item that "
        "writes (or reads) it",
    )
    what.add_argument(
        "--traffic",
        nargs="*",
        metavar="STATS",
        help="bytes loaded and stored per program and tensor (per layer for several "
        "runs): from STATS files of spatial-run --stats-json, or by running FILE",
    )
    p.add_argument(
        "--layer",
        type=cli.non_negative_int,
        metavar="N",
        help="only layer N of a model: the programs and ops whose tensors (or results) are "
        "named blk.N.* (a function's graph, the traffic, or where --graph/--tiles PROGRAM "
        "is looked for)",
    )
    p.add_argument(
        "--match",
        metavar="TEXT",
        help="only the programs and ops a name of which holds TEXT (a program's name, its "
        "tensors', its results'), e.g. attn_q",
    )
    p.add_argument("-o", "--output", required=True, help="the picture to write: .svg or .png")
    p.add_argument(
        "--seed",
        type=int,
        default=0,
        help="--traffic FILE: draw the arguments at random with this seed (bytes moved "
        "do not depend on the values; default 0)",
    )
    p.add_argument("--dot", metavar="PROGRAM", help="the Graphviz layout program to run")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    return cli.run(_parser(), _main, argv)


def _main(args: argparse.Namespace) -> int:
    from xdsl_spatial.viz import pictures as viz

    try:
        fmt = viz.output_format(args.output)
    except viz.VizError as e:
        raise cli.UsageError(str(e)) from None
    if args.traffic is not None and args.traffic and args.file:
        raise cli.UsageError("give a module to run or traffic files, not both")
    if args.traffic is None and not args.file:
        raise cli.UsageError("--graph and --tiles draw a module: give FILE")
    if args.traffic is not None and not args.traffic and not args.file:
        raise cli.UsageError("--traffic needs a module to run (FILE) or STATS files")
    cli.check_output_path(args.output, "-o")
    try:
        viz.check_extra()
        data = _picture(args, fmt)
    except (viz.VizError, TrafficFileError) as e:
        raise cli.ToolError(str(e)) from None
    cli.write_file(args.output, data, "-o")
    return 0


def _read_module(path: str, pipeline: str | None) -> tuple[ModuleOp, str]:
    """The module, and the verifier's refusal ('' when it verifies): a refused module
    is still drawn, but no pass runs on it."""
    from xdsl_spatial.viz import pictures as viz

    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise viz.VizError(f"cannot read {path}: {e.strerror}") from None
    ctx = make_context()
    module = SourceParser(ctx, text, path).parse_module()  # hex floats as MLIR reads them
    try:
        module.verify()
    except VerifyException as e:
        if pipeline:
            raise
        return module, diagnostic_text(e)
    if pipeline:
        apply_pipeline(module, pipeline, ctx)
    return module, ""


def _picture(args: argparse.Namespace, fmt: str) -> bytes:
    from xdsl_spatial.analysis.ownership import ownership
    from xdsl_spatial.viz import pictures as viz

    select = viz.Selection(args.layer, args.match)
    if args.traffic is not None:
        runs = _traffic(args)
        return viz.figure_bytes(viz.traffic_figure(runs, select), fmt)
    module, refusal = _read_module(args.file, args.pipeline)
    try:
        if args.tiles is not None:
            program = viz.find_program(module, args.tiles, args.entry, select)
            return viz.figure_bytes(viz.tiles_figure(ownership(program), refusal), fmt)
        target = args.graph
        if target and not target.startswith("@"):
            program = viz.find_program(module, target, args.entry, select)
            return viz.render_graph(viz.program_graph(program, refusal), fmt, args.dot)
        name = target[1:] if target else args.entry
        fns = viz.select_functions(module, name or None)
        return viz.render_graph(viz.function_graph(fns, refusal, select), fmt, args.dot)
    except (viz.VizError, VerifyException, IndexError, KeyError, ValueError) as e:
        if not refusal:
            raise
        # Nothing to draw, or a module refused for a reason the picture cannot survive:
        # the refusal is the answer.
        raise viz.VizError(f"{refusal}\n(so nothing is drawn: {e})") from None


def _traffic(args: argparse.Namespace) -> list[TrafficRun]:
    if args.traffic:
        runs: list[TrafficRun] = []
        for path in args.traffic:
            runs.extend(read_json(path))
        return runs
    from xdsl_spatial.tools.spatial_run import gather_arguments
    from xdsl_spatial.viz import pictures as viz

    module, refusal = _read_module(args.file, args.pipeline)
    if refusal:
        raise viz.VizError(f"cannot run {args.file}: {refusal}")
    runs = []
    for f in viz.select_functions(module, args.entry):
        name = f.sym_name.data
        try:
            arrays = gather_arguments(module, name, {}, args.seed, {})
        except cli.ToolError as e:
            raise viz.VizError(f"cannot run @{name}: {e}") from None
        runs.append(TrafficRun(name, execute(module, name, arrays).traffic.programs))
    return runs


if __name__ == "__main__":
    sys.exit(main())
