"""The converted IR of every example and of the tiny llama's functions, as the native
engine hands it to upstream MLIR, by name: what `test_converted_ir.py` pins by digest.

    python tests/converted_ir.py            # print each case's SHA-256 and name
    python tests/converted_ir.py --write    # write them to tests/converted_ir.sha256

A change to the conversions that changes no kernel leaves every digest as it was; one
that changes a kernel on purpose writes the new digests in the same commit.
"""

from __future__ import annotations

import hashlib
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from xdsl.context import Context
from xdsl.dialects import func

from xdsl_spatial.core.ir_io import apply_pipeline, parse_module
from xdsl_spatial.interpreters.native.prepare import convert, prepare
from xdsl_spatial.passes.outline_kernels import ir_text

REPO = Path(__file__).resolve().parents[1]
PINS = Path(__file__).resolve().parent / "converted_ir.sha256"

EXAMPLES = sorted(
    p.relative_to(REPO / "examples").as_posix()
    for p in (REPO / "examples").rglob("*.mlir")
    if p.parent.name != "bad"
)
LOWERINGS = {"plain": "q8-lower", "optimize": "q8-lower{optimize=true}"}
CONVERSIONS = {
    "": "convert-spatial-to-linalg",
    "parallel": "convert-spatial-to-linalg{parallel=true}",
    "amx": "spatial-native-kernels{kind=amx},convert-spatial-to-linalg",
    "bf16": "spatial-native-kernels{kind=bf16},convert-spatial-to-linalg",
    "avx2": "spatial-native-kernels{kind=avx2},convert-spatial-to-linalg",
    "avx512": "spatial-native-kernels{kind=avx512},convert-spatial-to-linalg",
    "stream": "spatial-native-kernels{kind=loop},convert-spatial-to-linalg",
    "laid": "spatial-native-layout,convert-spatial-to-linalg",
    "laid stream": "spatial-native-layout,spatial-native-kernels{kind=loop},convert-spatial-to-linalg",
    "laid bf16": "spatial-native-layout,spatial-native-kernels{kind=bf16},convert-spatial-to-linalg",
    "laid avx2": "spatial-native-layout,spatial-native-kernels{kind=avx2},convert-spatial-to-linalg",
    "laid avx512": "spatial-native-layout,spatial-native-kernels{kind=avx512},"
    "convert-spatial-to-linalg",
}
"""The plain conversion, its items in parallel, and after each of the native engine's
kernel choices (`spatial-native-kernels`), with and without its weights laid in tile
columns (`spatial-native-layout`); the engine's own are pinned on the tiny llama
below."""
ENGINE = {
    "": (False, "generic"),
    "parallel": (True, "generic"),
    "amx": (False, "amx"),
    "bf16": (False, "bf16"),
    "avx2": (False, "avx2"),
    "avx512": (False, "avx512"),
    "stream": (False, "loop"),
    "parallel stream": (True, "loop"),
}
"""The native engine's conversion (`prepare.convert`): (parallel, kind)."""


def example_cases() -> Iterator[tuple[str, str]]:
    for name in EXAMPLES:
        source = (REPO / "examples" / name).read_text()
        for low, lowering in LOWERINGS.items():
            lowered = parse_module(source, name)
            apply_pipeline(lowered, lowering)
            for conv, conversion in CONVERSIONS.items():
                mod = lowered.clone()
                apply_pipeline(mod, conversion)
                yield f"{name} {low} {conv}".rstrip(), ir_text(mod)


def model_cases() -> Iterator[tuple[str, str]]:
    from tiny_llama import write_tiny_llama

    from xdsl_spatial.frontends.generation import load_model

    with tempfile.TemporaryDirectory() as tmp:
        path = str(write_tiny_llama(Path(tmp) / "tiny.gguf"))
        # the products alone (`--products-only`), and the whole step lowered
        models = {
            "": load_model(path, 3, 24, whole_step=False),
            " whole": load_model(path, 3, 24),
        }
    for what, model in models.items():
        assert model.module is not None
        for fn in model.module.body.block.ops:
            if not isinstance(fn, func.FuncOp):
                continue
            for conv, (parallel, kind) in ENGINE.items():
                text = convert(prepare(fn), parallel, kind)
                yield f"tiny_llama{what} @{fn.sym_name.data} engine {conv}".rstrip(), text


def cases() -> Iterator[tuple[str, str]]:
    Context()  # the dialects registered before any parse
    yield from example_cases()
    yield from model_cases()


def digests() -> dict[str, str]:
    return {name: hashlib.sha256(text.encode()).hexdigest() for name, text in cases()}


def pinned() -> dict[str, str]:
    out: dict[str, str] = {}
    for line in PINS.read_text().splitlines():
        digest, name = line.split(" ", 1)
        out[name] = digest
    return out


if __name__ == "__main__":
    found = digests()
    lines = [f"{d} {n}" for n, d in found.items()]
    if "--write" in sys.argv[1:]:
        PINS.write_text("\n".join(lines) + "\n")
    else:
        print("\n".join(lines))
