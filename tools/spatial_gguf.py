"""
`spatial-gguf`: what a GGUF checkpoint holds, and Q8_0 matmuls over its weights.

    spatial-gguf model.gguf                       # table: name, type, K x N, bytes
    spatial-gguf model.gguf --emit --layer 0 --batch 1 -o layer0.mlir

`--emit` writes one `func.func` per 2-d weight: `y = x . W` with `W` the Q8_0
dequantisation of two arguments named by the weight's stored names, the form the
`q8-lower` pass rewrites and `bind_weights` fills from the file. `-o` is written
whole or not at all. Exit codes: 0 success, 1 an error (one diagnostic on
stderr), 2 a usage error.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from xdsl_spatial.core.memory import format_bytes, limit_text, memory_limit, plural
from xdsl_spatial.core.tables import text_table
from xdsl_spatial.dialects.q8 import Q8_BLOCK, Q8Part, stored_name
from xdsl_spatial.tools import cli

if TYPE_CHECKING:
    from xdsl_spatial.frontends.gguf_io import TensorInfo

PROG = "spatial-gguf"

_SSA_NAME = re.compile(r"[A-Za-z_$.-][A-Za-z0-9_$.-]*")
"""Names MLIR (and xDSL's name hints) accept after `%`."""

_FUNC = """\
  func.func @{fn}(%x: tensor<{m}x{k}x{act}>, %{q}: tensor<{k}x{n}xi8>, %{s}: tensor<{kb}x{n}x{st}>) -> tensor<{m}x{n}xf32> {{
    %w = q8.dequantize %{q}, %{s} : tensor<{k}x{n}xi8>, tensor<{kb}x{n}x{st}> -> tensor<{k}x{n}xf32>
{extf}    %e = tensor.empty() : tensor<{m}x{n}xf32>
    %zero = arith.constant 0.000000e+00 : f32
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
    %y = linalg.matmul ins(%{xin}, %w : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) outs(%acc : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
    func.return %y : tensor<{m}x{n}xf32>
  }}
"""
_EXTF = "    %xf = arith.extf %x : tensor<{m}x{k}xbf16> to tensor<{m}x{k}xf32>\n"


_BadInput = cli.ToolError
"""A selection the file cannot satisfy; reported on one line, exit code 1."""


def _parser() -> argparse.ArgumentParser:
    p = cli.ArgumentParser(
        prog=PROG,
        description="List a GGUF file's tensors or emit Q8_0 matmuls over them.",
    )
    p.add_argument("file", help="the GGUF checkpoint")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--list", action="store_true", help="print a table of tensors (default)")
    what.add_argument("--emit", action="store_true", help="write an MLIR module of Q8_0 matmuls")
    what.add_argument(
        "--emit-model",
        action="store_true",
        help="write the whole model (llama, qwen2 or gemma3) as @prefill of --batch tokens "
        "and @decode of one, in linalg on tensors",
    )
    pick = p.add_mutually_exclusive_group()
    pick.add_argument("--tensors", help="comma-separated tensor names to emit")
    pick.add_argument("--layer", type=int, help="emit every 2-d tensor named blk.LAYER.*")
    p.add_argument("--batch", type=cli.positive_int, help="rows of the activation x (default 1)")
    p.add_argument("--act", choices=("bf16", "f32"), help="activation type (default bf16)")
    p.add_argument("--scale-type", choices=("f16", "f32"), help="scale type (default f16)")
    p.add_argument(
        "--context",
        type=cli.positive_int,
        help="with --emit-model: positions of the KV cache (default 256, or the model's "
        "context length if smaller)",
    )
    p.add_argument(
        "--frontend",
        choices=("mlir", "torch"),
        help="with --emit-model: who writes the model: mlir (default; the MLIR text "
        "written directly, xdsl_spatial.frontends.llama) or torch (the same model written "
        "in PyTorch, xdsl_spatial.frontends.torch_llama, exported by torch-mlir; needs the "
        "[torch] extra); both have the same functions, arguments and results",
    )
    p.add_argument("-o", "--output", help="write the module here instead of stdout")
    return p


def _shape(t: TensorInfo) -> str:
    return " x ".join(map(str, t.dims[:2] if t.is_matrix else t.dims))


def _table(tensors: list[TensorInfo]) -> str:
    rows = [(t.name, t.type_name, _shape(t), f"{t.nbytes:,}") for t in tensors]
    lines = text_table(("name", "type", "K x N", "bytes"), rows, right=2).splitlines()
    total = sum(t.nbytes for t in tensors)
    lines.append(f"{plural(len(tensors), 'tensor')}, {plural(total, 'byte')}")
    return "\n".join(lines) + "\n"


def func_name(tensor: str) -> str:
    """The function for a tensor: its name without `.weight`, other than [A-Za-z0-9_] as `_`."""
    base = tensor.removesuffix(".weight")
    name = re.sub(r"[^A-Za-z0-9_]", "_", base)
    return name if name[:1].isalpha() or name[:1] == "_" else "_" + name


def q8_matmul_func(fn: str, weight: str, k: int, n: int, batch: int, act: str, scale: str) -> str:
    """The text of `y = x . W` over the Q8_0 weight `weight` (K x N)."""
    return _FUNC.format(
        fn=fn,
        q=stored_name(weight, Q8Part.VALUES),
        s=stored_name(weight, Q8Part.SCALES),
        m=batch,
        k=k,
        n=n,
        kb=k // Q8_BLOCK,
        act=act,
        st=scale,
        extf=_EXTF.format(m=batch, k=k) if act == "bf16" else "",
        xin="xf" if act == "bf16" else "x",
    )


def _selected(args: argparse.Namespace, tensors: list[TensorInfo]) -> list[TensorInfo]:
    by_name = {t.name: t for t in tensors}
    if args.tensors is not None:
        chosen = []
        for name in filter(None, (s.strip() for s in args.tensors.split(","))):
            if name not in by_name:
                raise _BadInput(f"{args.file}: no tensor {name} in the file")
            if not by_name[name].is_matrix:
                raise _BadInput(
                    f"{args.file}: tensor {name} is not a 2-d tensor (dims {_shape(by_name[name])})"
                )
            chosen.append(by_name[name])
        if not chosen:
            raise _BadInput("--tensors names no tensor")
        return chosen
    matrices = [t for t in tensors if t.is_matrix]
    if args.layer is not None:
        matrices = [t for t in matrices if t.name.startswith(f"blk.{args.layer}.")]
        if not matrices:
            raise _BadInput(
                f"{args.file}: no 2-d tensor in layer {args.layer} (blk.{args.layer}.*)"
            )
    return matrices


_ACT_BYTES = {"bf16": 2, "f32": 4}


def _check_fits(t: TensorInfo, batch: int, act: str) -> None:
    """Refuse a batch whose activation or result could not be allocated here."""
    limit = memory_limit()
    for what, rows, cols, size in (
        (f"x ({act})", batch, t.k, _ACT_BYTES[act]),
        ("y (f32)", batch, t.n, 4),
    ):
        need = rows * cols * size
        if need > limit:
            raise cli.ToolError(
                f"--batch {batch:,}: {t.name}'s {what}, {rows:,} x {cols:,}, would need "
                f"{format_bytes(need)}, more than {limit_text(limit)}"
            )


def _module(args: argparse.Namespace, tensors: list[TensorInfo]) -> str:
    batch, act, scale = args.batch or 1, args.act or "bf16", args.scale_type or "f16"
    funcs, used = [], set()
    for t in _selected(args, tensors):
        if t.k % Q8_BLOCK:
            print(
                f"{PROG}: note: skipping {t.name}: K = {t.k} is not a multiple of {Q8_BLOCK}",
                file=sys.stderr,
            )
            continue
        if not _SSA_NAME.fullmatch(t.name):
            print(
                f"{PROG}: note: skipping {t.name}: not usable as an MLIR value name",
                file=sys.stderr,
            )
            continue
        _check_fits(t, batch, act)
        fn = func_name(t.name)
        while fn in used:
            fn += "_"
        used.add(fn)
        funcs.append(q8_matmul_func(fn, t.name, t.k, t.n, batch, act, scale))
    if not funcs:
        raise _BadInput(f"{args.file}: no tensor to emit")
    header = f"// {PROG}: Q8_0 matmuls of {args.file}, batch {batch}, {act} activations, {scale} scales\n"
    return header + "builtin.module {\n" + "".join(funcs) + "}\n"


def main(argv: Sequence[str] | None = None) -> int:
    return cli.run(_parser(), _main, argv)


def _main(args: argparse.Namespace) -> int:
    if args.emit_model:
        return _emit_model(args)
    if args.frontend is not None:
        raise cli.UsageError("--frontend needs --emit-model")
    if not args.emit and any(
        v is not None
        for v in (
            args.tensors,
            args.layer,
            args.batch,
            args.act,
            args.scale_type,
            args.output,
        )
    ):
        raise cli.UsageError("--tensors, --layer, --batch, --act, --scale-type and -o need --emit")
    try:
        from xdsl_spatial.frontends.gguf_io import GGUFError, list_tensors
    except ImportError as e:
        raise cli.ToolError(f"needs the gguf package ({e}); pip install -e '.[gguf]'") from None
    cli.check_output_path(args.output, "-o")
    try:
        tensors = list_tensors(args.file)
    except GGUFError as e:
        raise cli.ToolError(str(e)) from None
    if not args.emit:
        sys.stdout.write(_table(tensors))
        return 0
    text = _module(args, tensors)
    with cli.atomic_write(args.output, option="-o") as f:
        f.write(text)
    return 0


def _emit_model(args: argparse.Namespace) -> int:
    """--emit-model: the whole model, from xdsl_spatial.frontends.llama."""
    from xdsl_spatial.frontends.gguf_io import GGUFError, open_gguf
    from xdsl_spatial.frontends.llama import ModelError, build_model, describe, read_config

    cli.check_output_path(args.output, "-o")
    export_model = None
    if args.frontend == "torch":
        try:
            from xdsl_spatial.frontends.torch_llama import export_model
        except ImportError as e:
            raise cli.ToolError(
                f"--frontend torch needs torch and torch-mlir ({e}); pip install -e '.[torch]'"
            ) from None
    try:
        reader = open_gguf(args.file)
        config = read_config(reader, args.file)
        positions = args.context or config.default_positions()
        batch = args.batch or 1
        if export_model is not None:
            text = export_model(config, batch, positions, args.file)
        else:
            module = build_model(config, batch, positions)
            text = f"// {describe(config, batch, positions, args.file)}\n{module!s}\n"
    except (GGUFError, ModelError) as e:
        raise cli.ToolError(str(e)) from None
    with cli.atomic_write(args.output, "w", option="-o") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
