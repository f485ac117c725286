"""`linalg-contraction-in-registers` (`passes/contraction_in_registers.py`): a sum of
products over one axis into rows contiguous in the output and in the row operand, as
vector code holding the sums in registers, on the native engine for every kernel choice
but `generic` (the plain path, which keeps the loops). Each output's terms
are added in the generic's order, each product and sum rounded once as before, so the
results are the bits of the same loop run in numpy's float32 (a multiply and an add a
step, from the output's initial value). Which generics it takes and the code it makes
are pinned by `lit_tests/passes/linalg_contraction_in_registers/`."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch_mlir", reason="the [native] extra (torch-mlir) is not installed")

from xdsl.context import Context
from xdsl.dialects.linalg.ops import GenericOp

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.interpreters.native.prepare import convert, prepare
from xdsl_spatial.interpreters.options import Engine
from xdsl_spatial.interpreters.runner import compile_module, find_function
from xdsl_spatial.passes.contraction_in_registers import (
    ContractionInRegistersPass,
    contraction,
)

Spec = tuple[str, str, str, tuple[str, str, str], str]
"""Shapes of the two inputs and the output, the three maps, the iterator kinds."""


def module(spec: Spec, body: str) -> str:
    a, b, out, maps, kinds = spec
    return f"""
func.func @f(%a: tensor<{a}xf32>, %b: tensor<{b}xf32>, %init: tensor<{out}xf32>) -> tensor<{out}xf32> {{
  %r = linalg.generic {{indexing_maps = [affine_map<{maps[0]}>, affine_map<{maps[1]}>, affine_map<{maps[2]}>], iterator_types = [{kinds}]}} ins(%a, %b : tensor<{a}xf32>, tensor<{b}xf32>) outs(%init : tensor<{out}xf32>) {{
  ^bb0(%x: f32, %y: f32, %o: f32):
{body}
    linalg.yield %s : f32
  }} -> tensor<{out}xf32>
  func.return %r : tensor<{out}xf32>
}}
"""


MUL_ADD = "    %m = arith.mulf %x, %y : f32\n    %s = arith.addf %o, %m : f32"
SWAPPED = "    %m = arith.mulf %y, %x : f32\n    %s = arith.addf %m, %o : f32"
P, R = '"parallel"', '"reduction"'

# Attention's scores at 8 sequences as the host runs them: (KV head, row, key, query
# head, position), a query head's element times a cached row of 64 positions
SCORES: Spec = (
    "3x3x8x64",
    "8x3x64x64",
    "3x3x8x64",
    (
        "(d0, d1, d2, d3, d4) -> (d0, d3, d1, d2)",
        "(d0, d1, d2, d3, d4) -> (d1, d0, d2, d4)",
        "(d0, d1, d2, d3, d4) -> (d0, d3, d1, d4)",
    ),
    ", ".join([P, P, R, P, P]),
)

# The same at 128 positions: 3 query heads x 8 vectors are 24 sums, held as two runs
# of the sum over 4 vectors each (12 sums)
LONG: Spec = (
    "3x3x8x64",
    "8x3x64x128",
    "3x3x8x128",
    SCORES[3],
    SCORES[4],
)

# No axis but the sum's and the columns' in the row operand: no outer loop
ROWS: Spec = (
    "2x40",
    "40x32",
    "2x32",
    ("(d0, d1, d2) -> (d0, d2)", "(d0, d1, d2) -> (d2, d1)", "(d0, d1, d2) -> (d0, d1)"),
    ", ".join([P, P, R]),
)

# 8 rows of 4 vectors (32 sums): two runs of the sum over 2 vectors each (16 sums)
WIDE: Spec = ("8x40", "40x64", "8x64", ROWS[3], ROWS[4])

# The row operand's sum axis outermost, its rows of one sequence far apart
FAR: Spec = (
    "5x7",
    "7x5x48",
    "5x48",
    ("(d0, d1, d2) -> (d0, d1)", "(d0, d1, d2) -> (d1, d0, d2)", "(d0, d1, d2) -> (d0, d2)"),
    ", ".join([P, R, P]),
)


def same_order(
    a: np.ndarray, b: np.ndarray, init: np.ndarray, spec: Spec, swapped: bool
) -> np.ndarray:
    """The generic's loops in numpy's float32: for each step of the sum, every output
    plus its product, each rounded once: the order `convert-linalg-to-loops` runs."""
    maps = [m.split("->")[1].strip(" ()").split(", ") for m in spec[3]]
    kinds = [k.strip() for k in spec[4].split(",")]
    dims = [f"d{i}" for i in range(len(kinds))]
    red = dims[kinds.index(R)]
    letters = {d: chr(ord("i") + i) for i, d in enumerate(dims)}
    out = init.copy()
    for r in range(a.shape[maps[0].index(red)]):
        fixed = {red: r}
        sub_a = a[tuple(fixed.get(d, slice(None)) for d in maps[0])]
        sub_b = b[tuple(fixed.get(d, slice(None)) for d in maps[1])]
        ia = "".join(letters[d] for d in maps[0] if d != red)
        ib = "".join(letters[d] for d in maps[1] if d != red)
        io = "".join(letters[d] for d in maps[2])
        wa = _spread(sub_a, ia, io)
        wb = _spread(sub_b, ib, io)
        product = (wb * wa) if swapped else (wa * wb)
        out = (product + out) if swapped else (out + product)
    return out


def _spread(v: np.ndarray, have: str, want: str) -> np.ndarray:
    """`v`, indexed by the letters `have`, laid out along `want` (missing ones of
    extent 1, to broadcast)."""
    order = [have.index(c) for c in want if c in have]
    v = np.transpose(v, order)
    shape = [v.shape[[c for c in want if c in have].index(c)] if c in have else 1 for c in want]
    return v.reshape(shape)


@pytest.mark.parametrize(
    "spec,body,runs",
    [
        (SCORES, MUL_ADD, 1),
        (SCORES, SWAPPED, 1),
        (LONG, MUL_ADD, 2),
        (WIDE, SWAPPED, 2),
        (ROWS, MUL_ADD, 1),
        (FAR, SWAPPED, 1),
    ],
    ids=[
        "scores",
        "scores-swapped",
        "scores-128",
        "rows-in-two-runs",
        "no-outer-loop",
        "rows-far-apart",
    ],
)
def test_sums_are_the_loops_bits(spec: Spec, body: str, runs: int):
    """Random inputs and a random initial output: the native engine's results with the
    kernels `loop` (which take the generic: nothing of it is left for
    `convert-linalg-to-loops`; more sums than the registers hold in `runs` runs of the
    sum, each over some of the columns) and with `generic` (the plain path, which
    keeps its loops) are both the bits of the same loop in numpy's float32."""
    text = module(spec, body)
    fn = find_function(parse_module(text), "f")
    (generic,) = [o for o in fn.walk() if isinstance(o, GenericOp)]
    assert contraction(generic) is not None
    converted = convert(prepare(fn), kind="loop")
    assert "linalg.generic" not in converted and converted.count("iter_args") == runs
    assert "linalg.generic" in convert(prepare(fn), kind="generic")  # the plain loops
    rng = np.random.default_rng(7)
    shapes = [tuple(int(n) for n in s.split("x")) for s in spec[:3]]
    a, b, init = (rng.standard_normal(s).astype(np.float32) for s in shapes)
    want = same_order(a, b, init, spec, body == SWAPPED)
    for kernels in ("loop", "generic"):
        exe = compile_module(parse_module(text), "f", Engine.NATIVE, kernels=kernels)
        got = exe(a, b, init).outputs[0]
        assert got.dtype == np.float32 and got.shape == want.shape
        assert np.array_equal(got.view(np.uint32), want.view(np.uint32)), kernels


@pytest.mark.parametrize(
    "spec,body,why",
    [
        (SCORES, MUL_ADD.replace("addf", "subf"), "a difference, not a sum"),
        (
            ("2x40", "40x20", "2x20", ROWS[3], ROWS[4]),
            MUL_ADD,
            "20 columns: not whole vectors",
        ),
        (
            ("17x40", "40x16", "17x16", ROWS[3], ROWS[4]),
            MUL_ADD,
            "17 rows: more sums than registers at a vector each",
        ),
    ],
)
def test_other_generics_are_left_alone(spec: Spec, body: str, why: str):
    """A generic outside what the pass takes keeps its form ({why})."""
    mod = parse_module(module(spec, body))
    before = str(mod)
    ContractionInRegistersPass().apply(Context(), mod)
    assert str(mod) == before, why


def masked_module(spec: Spec, ok: str) -> str:
    """`module`'s generic with a third input, each row's position (the row is `d1`),
    and the body `out + (ok ? x * y : +0.0)`, `ok` computed by the lines `ok` from
    `%pos` (an index) and `%j` (the key's position) into `%ok`."""
    a, b, out, maps, kinds = spec
    body = "\n".join(
        [
            "    %m = arith.mulf %x, %y : f32",
            "    %pos = arith.index_cast %q : i32 to index",
            ok,
            "    %z = arith.constant 0.0 : f32",
            "    %t = arith.select %ok, %m, %z : f32",
            "    %s = arith.addf %o, %t : f32",
        ]
    )
    return f"""
func.func @f(%a: tensor<{a}xf32>, %b: tensor<{b}xf32>, %p: tensor<8xi32>, %init: tensor<{out}xf32>) -> tensor<{out}xf32> {{
  %r = linalg.generic {{indexing_maps = [affine_map<{maps[0]}>, affine_map<{maps[1]}>, affine_map<(d0, d1, d2, d3, d4) -> (d1)>, affine_map<{maps[2]}>], iterator_types = [{kinds}]}} ins(%a, %b, %p : tensor<{a}xf32>, tensor<{b}xf32>, tensor<8xi32>) outs(%init : tensor<{out}xf32>) {{
  ^bb0(%x: f32, %y: f32, %q: i32, %o: f32):
{body}
    linalg.yield %s : f32
  }} -> tensor<{out}xf32>
  func.return %r : tensor<{out}xf32>
}}
"""


CAUSAL = "    %ok = arith.cmpi ule, %j, %pos : index"
WINDOW = "\n".join(
    [
        CAUSAL.replace("%ok", "%seen"),
        "    %w = arith.constant 40 : index",
        "    %end = arith.addi %j, %w : index",
        "    %near = arith.cmpi ult, %pos, %end : index",
        "    %ok = arith.andi %seen, %near : i1",
    ]
)

# A batched step's attention as its host runs it: the scores' positions are the
# columns (d4), the values' positions the sum (d2); the same maps, 128 positions
MASKED_SCORES: Spec = ("3x3x8x64", "8x3x64x128", "3x3x8x128", SCORES[3], SCORES[4])
MASKED_PV: Spec = ("3x3x8x128", "8x3x128x64", "3x3x8x64", SCORES[3], SCORES[4])


def masked_reference(
    a: np.ndarray, b: np.ndarray, pos: np.ndarray, init: np.ndarray, on_sum: bool, window: int
) -> np.ndarray:
    """The masked generic's loop in numpy's float32: at each step of the sum, every
    output plus its product where the row sees the key, plus +0.0 elsewhere."""
    out = init.copy()
    zero = np.float32(0.0)
    cols = np.arange(out.shape[-1])
    for r in range(a.shape[-1]):
        # (kv, g, row, col): a's element of the step times b's row of the step
        product = a[:, :, :, r][..., None] * b[:, :, r, :].transpose(1, 0, 2)[:, None]
        key = np.full_like(cols, r) if on_sum else cols
        seen = key[None, :] <= pos[:, None]
        if window:
            seen &= pos[:, None] < key[None, :] + window
        out = out + np.where(seen[None, None], product, zero)
    return out


@pytest.mark.parametrize("on_sum", [False, True], ids=["scores", "values"])
@pytest.mark.parametrize("ok,window", [(CAUSAL, 0), (WINDOW, 40)], ids=["causal", "window"])
def test_masked_sums_read_only_what_a_row_sees(on_sum: bool, ok: str, window: int):
    """A batched step's `q . k` and `p . v` with each row's position (the body's
    `out + (seen ? x * y : +0.0)`): the native engine's results, with the kernels that
    take the generic (a run over a vector of columns no row sees skipped whole, a
    step of the sum the row does not see skipped) and with `generic`, are the bits of
    the loop in numpy's float32; the compiled engine's are within the fp32 bound of
    it. Positions from 0 (7 of the 8 runs of a row unseen) to the last, some in the
    middle of a run; a cache past each position (and before the window) holds NaN,
    which no engine may read into a result."""
    spec = MASKED_PV if on_sum else MASKED_SCORES
    j = f"    %j = linalg.index {2 if on_sum else 4} : index"
    text = masked_module(spec, j + "\n" + ok)
    fn = find_function(parse_module(text), "f")
    (generic,) = [o for o in fn.walk() if isinstance(o, GenericOp)]
    c = contraction(generic)
    assert c is not None and c.ok is not None and c.on_red == on_sum
    converted = convert(prepare(fn), kind="loop")
    assert "linalg.generic" not in converted and "scf.if" in converted
    # the values: one run of the sum; the scores: one for each of the 8 vectors of
    # columns, each after a loop asking whether the row sees any of them
    assert converted.count("iter_args") == (1 if on_sum else 8 + 8)
    rng = np.random.default_rng(11)
    shapes = [tuple(int(n) for n in s.split("x")) for s in spec[:3]]
    a, b, init = (rng.standard_normal(s).astype(np.float32) for s in shapes)
    pos = np.array([0, 3, 63, 64, 70, 100, 126, 127], np.int32)
    # b's positions past each row's: NaN (the values' at the sum's axis, the keys' at
    # their columns), as is every key the window hides
    positions = np.arange(128)
    hidden = positions[None, :] > pos[:, None]
    if window:
        hidden |= positions[None, :] <= pos[:, None] - window
    if on_sum:
        b[np.broadcast_to(hidden[:, None, :, None], b.shape)] = np.nan
    else:
        b[np.broadcast_to(hidden[:, None, None, :], b.shape)] = np.nan
    want = masked_reference(a, b, pos, init, on_sum, window)
    assert not np.isnan(want).any()
    for kernels in ("loop", "generic"):
        exe = compile_module(parse_module(text), "f", Engine.NATIVE, kernels=kernels)
        got = exe(a, b, pos, init).outputs[0]
        assert np.array_equal(got.view(np.uint32), want.view(np.uint32)), kernels
    # the compiled engine sums in numpy's order: within the fp32 bound of the loop's
    # terms (n eps times the sum of their magnitudes, the initial value's among them)
    exe = compile_module(parse_module(text), "f", Engine.COMPILED)
    got = exe(a, b, pos, init).outputs[0]
    sizes = masked_reference(np.abs(a), np.abs(b), pos, np.abs(init), on_sum, window)
    bound = (a.shape[-1] + 1) * np.finfo(np.float32).eps * sizes.astype(np.float64)
    assert np.all(np.abs(got.astype(np.float64) - want) <= bound)


def test_a_masked_sum_keeps_the_sign_of_its_zeros():
    """`p . v` whose every term is -0.0 (+0.0 times a negative value) into sums that
    start at -0.0: a row that sees every key keeps -0.0; a row with steps it does not
    see has them add +0.0 (the body's `select`), so its sums are +0.0. The native
    code adds that +0.0 once after its loop rather than at each such step: the same
    bits as the loop in numpy's float32."""
    text = masked_module(MASKED_PV, "    %j = linalg.index 2 : index\n" + CAUSAL)
    a = np.zeros((3, 3, 8, 128), np.float32)
    b = np.full((8, 3, 128, 64), -1.0, np.float32)
    init = np.full((3, 3, 8, 64), -0.0, np.float32)
    pos = np.array([0, 3, 63, 64, 127, 100, 127, 5], np.int32)
    b[np.broadcast_to((np.arange(128)[None, :] > pos[:, None])[:, None, :, None], b.shape)] = np.nan
    want = masked_reference(a, b, pos, init, True, 0)
    assert np.array_equal(np.signbit(want[:, :, [4, 6]]), np.ones((3, 3, 2, 64), bool))
    assert not np.signbit(np.delete(want, [4, 6], axis=2)).any()
    exe = compile_module(parse_module(text), "f", Engine.NATIVE, kernels="loop")
    got = exe(a, b, pos, init).outputs[0]
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))
