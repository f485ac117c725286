"""`spatial-lower-ops`: each kind of program against the op it replaces.

Every engine runs the lowered module and the unlowered one on the same inputs. Bits are
claimed where they hold by construction: maps (each element from the same ops in the
same order: RoPE, the cache writes, the gather, the scaling of a norm), a max, and
integer-exact inputs (small integers: every partial sum exact in fp32, every factor
exact in bf16). Elsewhere the fp32 summation bound of an fp64 reference holds: a sum's
terms are added in another order, and a contraction of two activations multiplies
bf16-rounded factors (`docs/lowering_ops.md`), so its reference rounds them too.
"""

from __future__ import annotations

from typing import cast

import ml_dtypes
import numpy as np
import pytest
from lower_ops_modules import (
    attention,
    cache_write,
    gather,
    norm,
    rope,
    row_write,
    softmax,
    tensor_ops,
)
from q8_operands import fp32_bound
from xdsl.dialects import arith

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.dialects.spatial import LoadOp, ProgramOp
from xdsl_spatial.interpreters.arguments import RunError
from xdsl_spatial.interpreters.counting import program_traffic
from xdsl_spatial.interpreters.executable import compile_function
from xdsl_spatial.interpreters.runner import coerce_args, execute, find_function
from xdsl_spatial.interpreters.values import SpatialRuntimeError
from xdsl_spatial.passes.spatial_lower_ops import host_ops, lower_ops, pattern
from xdsl_spatial.passes.spatial_lower_ops.keys import program_key
from xdsl_spatial.passes.spatial_lower_ops.spec import OpSpec, spec_of_elementwise

WAYS = ("reference", "compiled", "plain", "native")
"""The reference engine, the compiled engine, the compiled engine without its fast
paths, and the native engine (`convert-spatial-to-linalg`; skipped, saying so, without
the [native] extra)."""

CHECKING = WAYS[:3]
"""The engines that refuse a move through a run-time table outside its tensor with a
diagnostic; the native engine leaves such a move out instead (see
`test_the_native_engine_writes_nothing_for_a_position_past_the_cache`)."""


def lowered(text: str, **options):
    """The module and its lowered copy; every op lowered (or the decisions)."""
    mod = parse_module(text, "<test>")
    low = parse_module(text, "<test>")
    decisions = lower_ops(low, **options)
    return mod, low, decisions


def all_lowered(decisions) -> None:
    assert decisions and all(d.lowered for d in decisions), [d.line() for d in decisions]


def run(mod, entry: str, arrays, way: str):
    """Outputs and traffic of one way of running `entry`."""
    if way in ("reference", "native"):
        if way == "native":
            pytest.importorskip("torch_mlir", reason="the [native] extra is not installed")
        r = execute(mod, entry, arrays, engine=way)
    else:
        fn = find_function(mod, entry)
        r = compile_function(fn, fast=way != "plain")(*coerce_args(fn, arrays))
    return [np.asarray(o) for o in r.outputs], r.traffic


def unlowered(way: str) -> str:
    """The engine that runs the unlowered function for `way`: the compiled one, or the
    native one for the native engine (a map's `math.exp` is then the same function on
    both sides: LLVM's, not numpy's, which differ in the last bit)."""
    return "native" if way == "native" else "compiled"


def outputs(mod, entry: str, arrays, way: str) -> list[np.ndarray]:
    return run(mod, entry, arrays, way)[0]


def same_bits(a: np.ndarray, b: np.ndarray) -> None:
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))


def bf16(x: np.ndarray) -> np.ndarray:
    return x.astype(ml_dtypes.bfloat16).astype(np.float64)


def ints(rng, shape, lo=-4, hi=4) -> np.ndarray:
    return rng.integers(lo, hi + 1, size=shape).astype(np.float32)


# --------------------------------------------------------------------------------------
# Reductions: an RMSNorm
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("m, k", [(1, 576), (3, 256), (2, 2048)])
@pytest.mark.parametrize("exact", [True, False])
def test_norm(way, m, k, exact):
    """The sum of squares folds along its row (a K loop past a K block of 1024) into
    an fp32 carry; the scaling is a map. Integer inputs: the same bits as the op."""
    mod, low, decisions = lowered(norm(m, k))
    all_lowered(decisions)
    rng = np.random.default_rng(m * k)
    x = ints(rng, (m, k)) if exact else rng.standard_normal((m, k)).astype(np.float32)
    w = ints(rng, (k,)) if exact else rng.standard_normal(k).astype(np.float32)
    want = outputs(mod, "norm", [x, w], unlowered(way))
    got = outputs(low, "norm", [x, w], way)
    if exact:
        for a, b in zip(got, want):
            same_bits(a, b)
        return
    ss64 = (x.astype(np.float64) ** 2).sum(axis=1)
    assert (np.abs(got[1] - ss64) <= fp32_bound(ss64, k + 1)).all()
    y, y0 = got[0].astype(np.float64), want[0].astype(np.float64)
    # one ulp of bf16 apart at most: the sums differ in their last bits
    assert (np.abs(y - y0) <= 2.0**-7 * np.abs(y0) + 1e-30).all()


def test_a_long_row_folds_in_k_blocks():
    """A row of 2048 is two K blocks: a K loop of two trips and an fp32 carry."""
    _, low, _ = lowered(norm(2, 2048))
    folds = [p for p in low.walk() if isinstance(p, ProgramOp) and p.KIND == "fold"]
    (fold,) = folds
    assert fold.program_name.data == "norm_sum_2x2048"
    assert fold.plan.k_blocks.data == 2


# --------------------------------------------------------------------------------------
# The softmax: a max, a map, a sum
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("shape", [(2, 3, 1, 40), (2, 2, 3, 64)])
@pytest.mark.parametrize("exact", [True, False])
def test_softmax(way, shape, exact):
    """The max is exact in any order, the exps a map (the same bits), the sum within
    the bound of its positions."""
    mod, low, decisions = lowered(softmax(*shape))
    all_lowered(decisions)
    rng = np.random.default_rng(sum(shape))
    s = ints(rng, shape) if exact else rng.standard_normal(shape).astype(np.float32)
    pos = np.array([shape[3] // 2], np.int32)
    want = outputs(mod, "softmax", [s, pos], unlowered(way))
    got = outputs(low, "softmax", [s, pos], way)
    same_bits(got[0], want[0])
    same_bits(got[1], want[1])
    e64 = want[1].astype(np.float64)
    total = e64.sum(axis=3)
    assert (np.abs(got[2] - total) <= fp32_bound(total, shape[3] + 1)).all()


# --------------------------------------------------------------------------------------
# Attention's contractions
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize(
    "kv, g, m, hd, c", [(2, 2, 1, 64, 64), (3, 3, 1, 64, 40), (2, 2, 3, 64, 32)]
)
@pytest.mark.parametrize("exact", [True, False])
def test_attention(way, kv, g, m, hd, c, exact):
    """`q . k` and `p . v` with bf16 factors and fp32 sums: integers (exact in bf16)
    give the op's bits; otherwise the bound of fp64 on bf16-rounded factors. 40
    positions a head are not whole tiles: the values' rows are read through a table."""
    mod, low, decisions = lowered(attention(kv, g, m, hd, c))
    all_lowered(decisions)
    rng = np.random.default_rng(kv * c)
    gen = (
        (lambda s: ints(rng, s)) if exact else (lambda s: rng.standard_normal(s).astype(np.float32))
    )
    q, kc = gen((kv, g, m, hd)), gen((kv, hd, c))
    p, vc = gen((kv, g, m, c)), gen((kv, c, hd))
    arrays = [q, kc, p, vc]
    got = outputs(low, "attention", arrays, way)
    if exact:
        for a, b in zip(got, outputs(mod, "attention", arrays, unlowered(way))):
            same_bits(a, b)
        return
    s64 = np.einsum("hgmd,hdc->hgmc", bf16(q), bf16(kc))
    smag = np.einsum("hgmd,hdc->hgmc", np.abs(bf16(q)), np.abs(bf16(kc)))
    assert (np.abs(got[0] - s64) <= fp32_bound(smag, hd + 1)).all()
    o64 = np.einsum("hgmc,hcd->hgmd", bf16(p), bf16(vc))
    omag = np.einsum("hgmc,hcd->hgmd", np.abs(bf16(p)), np.abs(bf16(vc)))
    assert (np.abs(got[1] - o64) <= fp32_bound(omag, c + 1)).all()


def test_the_query_is_a_multicast():
    """The scores' items split the cache's positions; every item reads the whole
    query, a multicast load."""
    _, low, _ = lowered(attention(2, 2, 1, 64, 256))
    scores = next(
        p for p in low.walk() if isinstance(p, ProgramOp) and "contract" in p.program_name.data
    )
    assert scores.num_items > 1
    loads = [o for o in scores.body.walk() if isinstance(o, LoadOp)]
    multicast = [o.tensor_name for o in loads if o.multicast is not None]
    assert multicast == ["q"]


# --------------------------------------------------------------------------------------
# Maps: RoPE through reshapes, ops on tensors
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("m, heads", [(1, 3), (3, 2), (32, 3)])
def test_rope(way, m, heads):
    """A map read through an expand (pairs) and written for a collapse (heads first):
    the same bits."""
    mod, low, decisions = lowered(rope(m, heads, 64))
    all_lowered(decisions)
    rng = np.random.default_rng(m + heads)
    x = rng.standard_normal((m, heads * 64)).astype(np.float32)
    cos, sin = (rng.standard_normal((m, 32)).astype(np.float32) for _ in range(2))
    got = outputs(low, "rope", [x, cos, sin], way)[0]
    same_bits(got, outputs(mod, "rope", [x, cos, sin], unlowered(way))[0])
    fn = find_function(low, "rope")
    (program,) = [o for o in fn.body.block.ops if isinstance(o, ProgramOp)]
    assert program.ins[0] is fn.body.block.args[0], "the pairs are read from %x itself"


@pytest.mark.parametrize("way", WAYS)
def test_tensor_ops(way):
    """`arith` and `math` ops on tensors are maps: the same bits."""
    mod, low, decisions = lowered(tensor_ops(3, 576))
    all_lowered(decisions)
    rng = np.random.default_rng(5)
    a, b = (rng.standard_normal((3, 576)).astype(np.float32) for _ in range(2))
    for x, y in zip(outputs(low, "ops", [a, b], way), outputs(mod, "ops", [a, b], unlowered(way))):
        same_bits(x, y)


# --------------------------------------------------------------------------------------
# The KV cache write and the gather: tables bound when the step runs
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize(
    "m, c, pos", [(1, 64, 0), (1, 64, 33), (1, 64, 63), (3, 64, 30), (3, 96, 93)]
)
def test_cache_write(way, m, c, pos):
    """The window of tiles the write touches, through the position's tables: the same
    bits as `insert_slice`, a window straddling two tiles included."""
    mod, low, decisions = lowered(cache_write(2, 64, m, c))
    all_lowered(decisions)
    rng = np.random.default_rng(pos)
    k = rng.standard_normal((2, 64, m)).astype(np.float32)
    v = rng.standard_normal((m, 128)).astype(np.float32)
    kc = rng.standard_normal((2, 64, c)).astype(np.float32)
    vc = rng.standard_normal((2, c, 64)).astype(np.float32)
    arrays = [k, v, kc, vc, np.array([pos], np.int32)]
    for a, b in zip(
        outputs(low, "cache", arrays, way), outputs(mod, "cache", arrays, unlowered(way))
    ):
        same_bits(a, b)


@pytest.mark.parametrize("way", CHECKING)
@pytest.mark.parametrize("pos", [64, 62, -1])
def test_a_position_past_the_cache_is_refused(way, pos):
    """A write that would run past the cache (or before it) is a diagnostic naming
    the program and the cache, never a write out of bounds."""
    _, low, decisions = lowered(cache_write(2, 64, 3, 64))
    all_lowered(decisions)
    rng = np.random.default_rng(0)
    arrays = [
        rng.standard_normal((2, 64, 3)).astype(np.float32),
        rng.standard_normal((3, 128)).astype(np.float32),
        np.zeros((2, 64, 64), np.float32),
        np.zeros((2, 64, 64), np.float32),
        np.array([pos], np.int32),
    ]
    with pytest.raises((RunError, SpatialRuntimeError), match=r"cache_write.*outside tensor 'kc'"):
        outputs(low, "cache", arrays, way)


@pytest.mark.parametrize("pos", [64, 62, -1])
def test_the_native_engine_writes_nothing_for_a_position_past_the_cache(pos):
    """Machine code does not refuse: a move through a run-time table whose block is not
    wholly inside its tensor, or a store's not inside what its item owns, is left out.
    So a write past the cache (or before it) writes nothing, neither out of bounds nor
    into another head's positions: both caches come back as they were."""
    _, low, decisions = lowered(cache_write(2, 64, 3, 64))
    all_lowered(decisions)
    rng = np.random.default_rng(pos + 2)
    kc = rng.standard_normal((2, 64, 64)).astype(np.float32)
    vc = rng.standard_normal((2, 64, 64)).astype(np.float32)
    arrays = [
        rng.standard_normal((2, 64, 3)).astype(np.float32),
        rng.standard_normal((3, 128)).astype(np.float32),
        kc,
        vc,
        np.array([pos], np.int32),
    ]
    k2, v2 = outputs(low, "cache", arrays, "native")
    same_bits(k2, kc)
    same_bits(v2, vc)


def test_positions_a_head_not_whole_tiles_stay_with_a_reason():
    """Values cached 40 positions a head: a head's rows start inside a tile, so the
    write is left as it is, saying why (the keys' write, along columns, is lowered)."""
    _, _, decisions = lowered(cache_write(2, 64, 1, 40))
    by = {d.where.split()[-1]: d for d in decisions}
    assert by["%k2"].lowered
    assert not by["%v2"].lowered
    assert "40 positions a head are not whole tiles" in by["%v2"].reason


ROW_WRITES = [
    (1, 2, 64, [17]),
    (2, 3, 64, [5, 40]),
    (4, 2, 96, [0, 31, 32, 95]),
    (8, 3, 64, [1, 2, 3, 4, 60, 63, 0, 33]),
]
"""Batched caches: sequences, KV heads, positions, and each sequence's position (tile
edges and equal positions in different rows included)."""


def row_write_arrays(n: int, kv: int, c: int, pos, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [
        rng.standard_normal((kv, 64, n)).astype(np.float32),
        rng.standard_normal((n, kv * 64)).astype(np.float32),
        rng.standard_normal((n, kv, 64, c)).astype(np.float32),
        rng.standard_normal((n, kv, c, 64)).astype(np.float32),
        np.array(pos, np.int32),
    ]


def cache_programs(low) -> dict[str, ProgramOp]:
    """The lowered module's cache writes, by the cache they write."""
    out = {}
    for p in find_function(low, "rows").walk():
        if isinstance(p, ProgramOp) and p.program_name.data.startswith("cache_write"):
            out[program_traffic(p).stored.popitem()[0]] = p
    return out


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("n, kv, c, pos", ROW_WRITES)
def test_row_write(way, n, kv, c, pos):
    """A batched step's write of every sequence's key and value, each at its own
    position (one map a cache: `cache.match_row_write`), as a cache write: an item a
    sequence (and head), each row's window through its own entry of the position's
    tables. The same bits as the map, moving each row's window alone."""
    mod, low, decisions = lowered(row_write(n, kv, 64, c))
    all_lowered(decisions)
    assert [d.program for d in decisions if d.program.startswith("cache_write")] == [
        f"cache_write_{kv}x64x{n}",
        f"cache_write_{kv}x{n}x64",
    ]
    arrays = row_write_arrays(n, kv, c, pos, n)
    for a, b in zip(
        outputs(low, "rows", arrays, way), outputs(mod, "rows", arrays, unlowered(way)), strict=True
    ):
        same_bits(a, b)
    # a row's window a head: the key's a tile column of the head's 64 rows, the value's
    # a tile row of its 64 columns, two tiles each (not the whole cache)
    window = n * kv * 2 * 32 * 32 * 4
    programs = cache_programs(low)
    assert sorted(programs) == ["kc", "vc"]
    for name, cache in programs.items():
        moved = program_traffic(cache)
        assert moved.loaded[name] == moved.stored[name] == window, name


@pytest.mark.parametrize("way", CHECKING)
@pytest.mark.parametrize("bad", [64, 63 + 2, -1])
def test_a_row_past_the_cache_is_refused(way, bad):
    """One sequence's position past its cache (or before it) is a diagnostic naming
    the write and the cache, as for one sequence."""
    _, low, decisions = lowered(row_write(2, 3, 64, 64))
    all_lowered(decisions)
    arrays = row_write_arrays(2, 3, 64, [5, bad], 3)
    with pytest.raises((RunError, SpatialRuntimeError), match=r"cache_write.*outside tensor 'kc'"):
        outputs(low, "rows", arrays, way)


def test_the_native_engine_writes_the_other_rows_of_a_row_past_the_cache():
    """Machine code leaves a move outside its tensor or its item's tiles out: a
    sequence whose position is past its cache keeps its rows as they were, and the
    other sequences' rows are written as the map writes them."""
    mod, low, decisions = lowered(row_write(4, 2, 64, 64))
    all_lowered(decisions)
    arrays = row_write_arrays(4, 2, 64, [3, 64, 40, -1], 4)
    k2, v2 = outputs(low, "rows", arrays, "native")
    want_k, want_v = outputs(mod, "rows", arrays, "native")
    for got, want, old in ((k2, want_k, arrays[2]), (v2, want_v, arrays[3])):
        for r in (0, 2):
            same_bits(got[r], want[r])
        for r in (1, 3):
            same_bits(got[r], old[r])


def test_a_map_like_a_row_write_but_not_one_stays_a_map():
    """A map of the same form whose rows read positions other than their own (here
    each row at `pos[0]`'s) is no row write: it is lowered as the map it is."""
    text = row_write(2, 3, 64, 64).replace(
        "affine_map<(r, b, i, j) -> (r)>", "affine_map<(r, b, i, j) -> (0)>"
    )
    mod, low, decisions = lowered(text)
    all_lowered(decisions)
    assert not any(d.program.startswith("cache_write") for d in decisions)
    arrays = row_write_arrays(2, 3, 64, [5, 40], 5)
    for a, b in zip(
        outputs(low, "rows", arrays, "compiled"), outputs(mod, "rows", arrays, "compiled")
    ):
        same_bits(a, b)


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("m, k", [(1, 256), (3, 576), (2, 2048)])
def test_gather(way, m, k):
    """Each token's column, loaded through the tokens' tile table and dequantised:
    the same bits (int8 times f16 is exact in fp32)."""
    n = 200
    mod, low, decisions = lowered(gather(m, k, n))
    all_lowered(decisions)
    rng = np.random.default_rng(k)
    w = rng.integers(-127, 128, size=(k, n)).astype(np.int8)
    s = (rng.random((k // 32, n)) * 0.01).astype(np.float16)
    tokens = rng.integers(0, n, size=m).astype(np.int32)
    tokens[0] = n - 1  # the last column, in the last (partial) tile
    same_bits(
        outputs(low, "gather", [tokens, w, s], way)[0],
        outputs(mod, "gather", [tokens, w, s], unlowered(way))[0],
    )


@pytest.mark.parametrize("way", CHECKING)
def test_a_token_outside_the_vocabulary_is_refused(way):
    _, low, _ = lowered(gather(1, 256, 64))
    w = np.zeros((256, 64), np.int8)
    s = np.zeros((8, 64), np.float16)
    with pytest.raises((RunError, SpatialRuntimeError), match=r"embd_gather.*outside tensor 'w'"):
        outputs(low, "gather", [np.array([64], np.int32), w, s], way)


# --------------------------------------------------------------------------------------
# Programs made once and copied (`keys.py`, `passes/templates.py`)
# --------------------------------------------------------------------------------------

ALIKE = """
func.func @alike(%a: tensor<2x576xf32>, %b: tensor<2x576xf32>, %c: tensor<2x576xf32>) -> (tensor<2x576xf32>, tensor<2x576xf32>, tensor<2x576xf32>, tensor<2x576xf32>) {
  %x = arith.mulf %a, %b : tensor<2x576xf32>
  %y = arith.mulf %b, %c : tensor<2x576xf32>
  %z = arith.mulf %c, %c : tensor<2x576xf32>
  %k = arith.constant dense<3.0> : tensor<2x576xf32>
  %w = arith.mulf %a, %k : tensor<2x576xf32>
  func.return %x, %y, %z, %w : tensor<2x576xf32>, tensor<2x576xf32>, tensor<2x576xf32>, tensor<2x576xf32>
}
"""
"""Three products of two tensors of one type: %y is %x's op on other operands (a copy
of its program), %z reads one operand twice (a program of its own); %w reads a
constant (no key)."""


def test_an_op_like_one_lowered_before_gets_a_copy_of_its_program(monkeypatch):
    """The programs a run copies are the ones it would build: the same module text as
    a run that builds every program, the inputs and names each op's own."""
    names: list[str] = []
    build = pattern.build_program
    monkeypatch.setattr(pattern, "build_program", lambda *a: names.append(a[3]) or build(*a))
    _, low, decisions = lowered(ALIKE)
    all_lowered(decisions)
    assert len(names) == 3  # %x, %z and %w: %y's is %x's, copied
    programs = [p for p in find_function(low, "alike").walk() if isinstance(p, ProgramOp)]
    assert [tuple(p.operands) for p in programs[:3]] == [
        tuple(low_args(low)[:2]),
        tuple(low_args(low)[1:]),
        (low_args(low)[2],),
    ]
    monkeypatch.setattr(pattern, "program_key", lambda *a: None)
    _, afresh, _ = lowered(ALIKE)
    assert str(low) == str(afresh)
    rng = np.random.default_rng(9)
    arrays = [rng.standard_normal((2, 576)).astype(np.float32) for _ in range(3)]
    mod = parse_module(ALIKE)
    for x, y in zip(
        outputs(low, "alike", arrays, "compiled"), outputs(mod, "alike", arrays, "compiled")
    ):
        same_bits(x, y)


def low_args(mod) -> list:
    return list(find_function(mod, "alike").body.block.args)


def test_what_has_no_key():
    """An op reading one operand twice keys apart from one reading two; an op reading
    a constant has no key (its program is built afresh)."""
    mod = parse_module(ALIKE)
    ops = [o for o in find_function(mod, "alike").body.block.ops if isinstance(o, arith.MulfOp)]
    keys = [program_key(cast(OpSpec, spec_of_elementwise(o)), "map") for o in ops]
    assert keys[0] == keys[1] != keys[2]
    assert keys[2] is not None and keys[3] is None


# --------------------------------------------------------------------------------------
# Traffic, and what is left on the host
# --------------------------------------------------------------------------------------


def test_every_engine_counts_the_same_bytes_as_the_ir():
    """The reference and compiled engines count what `program_traffic` reads off the
    IR, a multicast's block once a run against DRAM."""
    _, low, _ = lowered(attention(2, 2, 1, 64, 256))
    rng = np.random.default_rng(1)
    arrays = [
        rng.standard_normal(s).astype(np.float32)
        for s in ((2, 2, 1, 64), (2, 64, 256), (2, 2, 1, 256), (2, 256, 64))
    ]
    programs = [p for p in find_function(low, "attention").walk() if isinstance(p, ProgramOp)]
    static = [program_traffic(p) for p in programs]
    for way in WAYS:
        got = run(low, "attention", arrays, way)[1].programs
        assert [(p.loaded, p.stored, p.dram_loaded) for p in got] == [
            (p.loaded, p.stored, p.dram_loaded) for p in static
        ]
    scores = static[0]
    assert scores.dram_load_bytes < scores.load_bytes


@pytest.mark.parametrize(
    "text", [norm(1, 576), softmax(2, 3, 1, 40), cache_write(2, 64, 1, 64), gather(1, 256, 64)]
)
def test_nothing_is_left_on_the_host(text):
    _, low, decisions = lowered(text)
    all_lowered(decisions)
    for fn in low.body.block.ops:
        assert host_ops(fn) == []
