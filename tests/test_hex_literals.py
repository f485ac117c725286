"""
Hexadecimal numbers in dense literals read as MLIR reads them (`core/hex_literals.py`,
docs/errors.md "What the package reads differently from xDSL"): each float element's
bits for every float width, integers as xDSL reads them, MLIR's refusals; and the
PyTorch decoder block with a causal mask (`examples/torch/causal_block.py`, committed
with eager's output so this runs without torch) giving eager's numbers in every
engine, where xDSL's own parser's reading of its mask does not. With torch and
torch-mlir installed, the block is exported and run eagerly again and compared with
the committed files.
"""

from __future__ import annotations

import importlib.util
import math
import struct
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from native_engine import needs_native
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError

from xdsl_spatial.core.ir_io import (
    IRError,
    SourceParser,
    dense_array,
    format_diagnostic,
    make_context,
    parse_module,
)
from xdsl_spatial.interpreters.runner import execute

EXPORTS = Path(__file__).resolve().parent.parent / "examples" / "torch"
HAS_TORCH = all(importlib.util.find_spec(m) is not None for m in ("torch", "torch_mlir"))

CTX = make_context()


def read(text: str) -> np.ndarray:
    return dense_array(SourceParser(CTX, text, "x.mlir").parse_attribute())  # type: ignore[arg-type]


def bits(a: np.ndarray) -> list[int]:
    return a.view(f"<u{a.dtype.itemsize}").ravel().tolist()


@pytest.mark.parametrize(
    ("type_", "dtype", "patterns"),
    [
        ("f16", np.float16, [0x7C00, 0xFC00, 0x7E00, 0xFFFF, 0x7C01, 0x8000, 0x3C00, 0x0001]),
        ("bf16", ml_dtypes.bfloat16, [0x7F80, 0xFF80, 0x7FC0, 0xFFFF, 0x7F81, 0x8000, 0x3F80, 1]),
        (
            "f32",
            np.float32,
            [0xFF800000, 0x7F800000, 0x7FC00000, 0x7FC00001, 0xFFFFFFFF, 0x80000000],
        ),
        ("f64", np.float64, [0xFFF0000000000000, 0x7FF8000000000000, 0x8000000000000000, 1]),
    ],
)
def test_each_hex_float_is_its_bits(type_, dtype, patterns):
    """A list of patterns and each pattern as a splat: the element's bits, payloads
    and signs of NaNs included."""
    listed = ", ".join(f"0x{p:X}" for p in patterns)
    a = read(f"dense<[{listed}]> : tensor<{len(patterns)}x{type_}>")
    assert a.dtype == np.dtype(dtype)
    assert bits(a) == patterns
    for p in patterns:
        assert bits(read(f"dense<0x{p:X}> : tensor<2x3x{type_}>")) == [p] * 6


def test_hex_and_decimal_elements_mixed():
    a = read("dense<[[0.0, 0xFF800000], [1.5, // a comment\n 0x80000000]]> : tensor<2x2xf32>")
    assert bits(a) == [0, 0xFF800000, 0x3FC00000, 0x80000000]
    assert a.shape == (2, 2)


def test_xdsl_alone_reads_the_mask_as_a_finite_number():
    """What the package avoids: xDSL 0.75's own parser takes the hex as an integer.
    (When this fails, xDSL reads hex floats right and docs/errors.md must say so.)"""
    attr = Parser(CTX, "dense<0xFF800000> : tensor<2xf32>").parse_attribute()
    assert dense_array(attr).tolist() == [4286578688.0, 4286578688.0]  # type: ignore[arg-type]


WIDTHS = {"i1": 1, "i8": 8, "ui8": 8, "si16": 16, "i32": 32, "i64": 64, "index": 64}


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(sorted(WIDTHS)),
    st.lists(
        st.tuples(st.sampled_from(["hex", "dec", "neg", "bool"]), st.integers(0, 2**66)),
        min_size=1,
        max_size=5,
    ),
    st.booleans(),
)
def test_integer_literals_read_as_xdsl_reads_them(type_, elements, in_range):
    """The package's own reading of a literal holding hex (`parse_dense_with_hex`) gives
    xDSL's attribute, or xDSL's refusal, for every integer element type."""
    limit = 1 << WIDTHS[type_]
    spelled = {
        "hex": lambda v: f"0x{v:X}",
        "dec": str,
        "neg": lambda v: f"-{v}",
        "bool": lambda v: "true" if v % 2 else "false",
    }
    items = [spelled[kind](v % limit if in_range else v) for kind, v in elements]
    items[0] = f"0x{(elements[0][1] % limit if in_range else elements[0][1]):X}"  # hex present
    text = f"dense<[{', '.join(items)}]> : tensor<{len(items)}x{type_}>"

    def outcome(parser_type: type[Parser]):
        try:
            return parser_type(CTX, text).parse_attribute()
        except (ParseError, ValueError, OverflowError, struct.error) as e:
            return type(e)

    assert outcome(SourceParser) == outcome(Parser)


def test_refusals_are_located_diagnostics():
    text = "func.func @f() -> tensor<2xf32> {\n  %a = arith.constant dense<[1.0, -0x7F800000]> : tensor<2xf32>\n  func.return %a : tensor<2xf32>\n}\n"
    with pytest.raises(ParseError) as e:
        parse_module(text, "m.mlir")
    message = format_diagnostic(e.value, "prog")
    assert message.startswith(
        "m.mlir:2:36: error: a hexadecimal float literal cannot have a leading minus"
    )
    with pytest.raises(ParseError, match="out of range for type bf16"):
        read("dense<0x1FF80> : tensor<2xbf16>")


def test_raw_bytes_and_integer_types_are_left_to_xdsl():
    assert read('dense<"0x0000807F"> : tensor<2xf32>').tolist() == [math.inf] * 2
    assert read("dense<[0xFF, 0x7F]> : tensor<2xi8>").tolist() == [-1, 127]


# --------------------------------------------------------------------------------------
# The decoder block
# --------------------------------------------------------------------------------------


def block_inputs() -> tuple[str, list[np.ndarray], np.ndarray]:
    data = np.load(EXPORTS / "causal_block.npz")
    args = [data[f"arg{i}"] for i in range(10)]
    return (EXPORTS / "causal_block.mlir").read_text(), args, data["eager"]


BOUND = 1e-4
"""Of the largest |eager|: the block's fp32 sums (K = 32 and 64), softmax and norms
in another order than PyTorch's; a mask that masks nothing is off by about the
output's own size."""


@pytest.mark.parametrize("engine", ["reference", "compiled", "native"])
def test_the_decoder_block_gives_eagers_numbers(engine):
    if engine == "native":
        needs_native()
    text, args, eager = block_inputs()
    scale = float(np.abs(eager).max())
    out = execute(parse_module(text, "causal_block.mlir"), "main", args, engine=engine).outputs[0]
    assert np.abs(out - eager).max() <= BOUND * scale
    # xDSL's own reading of the mask: every row but the last (which sees every token
    # anyway) attends to later tokens.
    raw = Parser(CTX, text).parse_module()
    wrong = execute(raw, "main", args, engine=engine).outputs[0]
    per_row = np.abs(wrong - eager).max(axis=1)
    assert (per_row[:-1] > 0.05 * scale).all() and per_row[-1] <= BOUND * scale


@pytest.mark.skipif(
    not HAS_TORCH, reason="torch and torch-mlir are not installed (pip install -e '.[torch]')"
)
def test_the_committed_block_is_what_pytorch_exports_and_computes(monkeypatch):
    monkeypatch.syspath_prepend(str(EXPORTS))
    spec = importlib.util.spec_from_file_location("causal_block", EXPORTS / "causal_block.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    text, args, eager = block_inputs()
    for a, b in zip(script.inputs(), args):
        assert np.array_equal(a, b)
    assert script.export(args) == text
    fresh = script.eager(args)
    assert np.abs(fresh - eager).max() <= BOUND * float(np.abs(eager).max())


ELEMENT_TYPES = ["f16", "bf16", "f32", "f64", "i1", "i8", "ui8", "i64", "index"]
ELEMENT_TYPES += ["complex<f32>", "complex<i8>"]


def _literal_element(draw, complex_: bool) -> str:
    def number() -> str:
        kind = draw(st.sampled_from(["hex", "-hex", "int", "-int", "float", "bool"]))
        v = draw(st.integers(0, 2**70))
        return {
            "hex": f"0x{v:X}",
            "-hex": f"-0x{v:X}",
            "int": str(v % 1000),
            "-int": f"-{v % 1000}",
            "float": f"{v % 1000}.5",
            "bool": "true" if v % 2 else "false",
        }[kind]

    if complex_ and draw(st.booleans()):
        return f"({number()}, {number()})"
    return number()


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_any_hex_literal_is_read_or_refused_with_a_diagnostic(data):
    """Literals of every element type, hex and not, of any shape and nesting, right or
    wrong: a module that parses, or a diagnostic, never another exception."""
    et = data.draw(st.sampled_from(ELEMENT_TYPES))
    dims = data.draw(st.lists(st.integers(0, 3), max_size=2))
    shape = [data.draw(st.integers(0, 3)) if data.draw(st.booleans()) else d for d in dims]
    draw = data.draw

    def literal(depth: int) -> str:
        if depth == len(shape):
            return _literal_element(draw, et.startswith("complex"))
        return "[" + ", ".join(literal(depth + 1) for _ in range(shape[depth])) + "]"

    body = literal(0) if draw(st.booleans()) else _literal_element(draw, et.startswith("complex"))
    t = "x".join([*map(str, dims), et])
    text = (
        f"func.func @f() {{\n  %c = arith.constant dense<{body}> : tensor<{t}>\n  func.return\n}}\n"
    )
    try:
        parse_module(text, "fuzz.mlir")
    except (ParseError, IRError) as e:
        assert format_diagnostic(e, "prog").startswith(("fuzz.mlir:", "prog:"))
