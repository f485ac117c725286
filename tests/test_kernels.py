"""The native engine's kernel choices (`interpreters/native/host.py`): each one this CPU
can run against the plain one (`generic`, the conversion as the chip's programs are
written) and fp64, and how a choice is made and refused.

Bits are claimed only on integer-exact inputs (every partial sum exact in fp32, so no
order of summation changes one); random inputs are held to the fp32 summation bound
of an fp64 reference. A choice this CPU lacks is skipped, naming why.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

pytest.importorskip("torch_mlir", reason="the [native] extra (torch-mlir) is not installed")

from lower_ops_modules import attention
from q8_operands import check_q8_result, fp32_bound, q8_fp64
from test_engines import operands, product
from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IntegerAttr, MemRefType, StringAttr
from xdsl.dialects.linalg.ops import CopyOp

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.dialects.memref_extra import PrefetchOp
from xdsl_spatial.dialects.spatial import StageOp
from xdsl_spatial.interpreters.native import amx, host, jit
from xdsl_spatial.interpreters.native.compiler import compile_native
from xdsl_spatial.interpreters.native.prepare import convert, prepare
from xdsl_spatial.interpreters.runner import coerce_args, find_function, verified
from xdsl_spatial.passes.convert_spatial_to_linalg import ConvertSpatialToLinalgPass
from xdsl_spatial.passes.native_kernels import NativeKernelsPass
from xdsl_spatial.passes.q8_lower import lower_q8
from xdsl_spatial.passes.spatial_lower_ops import lower_ops

GEMV = str(Path(__file__).resolve().parents[1] / "examples" / "gemv_q8.mlir")

needs_bf16 = pytest.mark.skipif(not host.bf16_available(), reason="this CPU has no AVX512-BF16")
needs_avx2 = pytest.mark.skipif(not host.avx2_available(), reason="this CPU has no AVX2 and FMA")
needs_avx512 = pytest.mark.skipif(not host.avx512_available(), reason="this CPU has no AVX-512")

KERNELS = [
    "generic",
    "loop",
    pytest.param("avx2", marks=needs_avx2),
    pytest.param("avx512", marks=needs_avx512),
    pytest.param("bf16", marks=needs_bf16),
    pytest.param(
        "amx",
        marks=pytest.mark.skipif(
            not host.amx_available(), reason="this CPU has no AMX-BF16, or Linux refuses its tiles"
        ),
    ),
]


def run(m, k, n, act, scale, arrays, optimize: bool, kernels: str) -> np.ndarray:
    mod = product(m, k, n, act, scale)
    lower_q8(mod, act=act, optimize=optimize)
    exe = compile_native(verified(mod, "mm"), kernels=kernels)
    return exe(*coerce_args(find_function(mod, "mm"), arrays)).outputs[0]


@pytest.mark.parametrize("kernels", KERNELS)
@pytest.mark.parametrize("optimize", [False, True])
@pytest.mark.parametrize("exact", [True, False])
@pytest.mark.parametrize(
    ("m", "blocks", "n", "act", "scale"),
    [
        (1, 64, 256, "bf16", "f32"),  # K blocks of 1024, whole tiles
        (1, 37, 144, "bf16", "f16"),  # K with a tail, N not a multiple of 32
        (1, 12, 96, "f32", "f32"),  # an f32 view
        (9, 37, 192, "bf16", "f32"),  # a group of 8 rows and one
        (32, 12, 160, "bf16", "f16"),  # 32 rows, N not a multiple of 32
        (1, 4, 4096, "bf16", "f16"),  # a wide weight, laid in tile columns as all are
        (9, 3, 4096, "bf16", "f32"),  # laid, a group of 8 rows and one
        (8, 6, 256, "bf16", "f16"),  # laid, 8 rows: `dot` and `fma512` hold their outputs
    ],
)
def test_each_kernel_gives_the_plain_kernels_numbers(
    m, blocks, n, act, scale, exact, optimize, kernels
):
    """Each kernel choice, the products as q8-lower writes them and optimised: the bits
    of fp64 rounded once on integer-exact inputs, as the generic kernels give them;
    within the fp32 bound else. A weight of whole tiles is read laid in tile columns
    (but by `generic` and `avx2`: `host.Kernels.tile_columns`)."""
    k = 32 * blocks
    rng = np.random.default_rng(m * 100 + blocks)
    x, q, s = operands(m, k, n, scale, exact, rng)
    want, mag = q8_fp64(x, q, s, act)
    got = run(m, k, n, act, scale, [x, q, s], optimize, kernels)
    check_q8_result(got, want, mag, k, exact)
    if exact:
        plain = run(m, k, n, act, scale, [x, q, s], optimize, "generic")
        assert got.tobytes() == plain.tobytes()


def test_a_streamed_row_reads_its_weight_in_place():
    """`spatial-native-kernels{kind=loop}` at m = 1: no copy into the int8 page (the
    weight is read where it is), and the lanes' sum covers all of an item's columns;
    with `kind=generic`, the page is copied and the lanes run 32 columns at a time."""

    def converted(kind: str):
        mod = product(1, 2048, 512, "bf16", "f32")
        lower_q8(mod, act="bf16", optimize=True)
        out = parse_module(str(mod))
        NativeKernelsPass(kind).apply(Context(), out)
        marks = {o.attributes.get("kernel") for o in out.walk() if isinstance(o, StageOp)}
        assert marks == ({None, StringAttr("stream")} if kind == "loop" else {None})
        ConvertSpatialToLinalgPass().apply(Context(), out)
        return out

    def copies_into(mod, name: str) -> int:
        """The copies into a view of the buffer `name`."""
        return sum(
            isinstance(o, CopyOp)
            and isinstance(into := o.outputs[0].owner, memref.ReinterpretCastOp)
            and into.source.name_hint == name
            for o in mod.walk()
        )

    streamed, plain = converted("loop"), converted("generic")
    assert "%in_q8 = " in str(plain) and copies_into(plain, "in_q8")
    assert not copies_into(streamed, "in_q8")
    assert "memref<256xf32>" in str(streamed)  # the lanes' sums of the item's 256 columns
    assert "memref<32xf32>" in str(plain)
    # each lane asks for its 256 columns 32 rows on, a line each, never past the end;
    # each trip for the next block's 256 scales (f32), a line each
    assert not any(isinstance(o, PrefetchOp) for o in plain.walk())
    rows, scales = asks_by_page(streamed, 2048 * 512, 2048 // 32 * 512)
    assert len(rows) == 256 // 64 * len({o.parent_op() for o, _ in rows})
    assert len(scales) == 256 * 4 // 64 * len({o.parent_op() for o, _ in scales})
    assert all(isinstance(o.parent_op(), scf.ForOp) for o, _ in rows)
    assert {ahead for _, ahead in rows} == {32 * 512}
    assert {o.localityHint.value.data for o, _ in rows} == {3}  # the first level
    assert {o.localityHint.value.data for o, _ in scales} == {2}


@pytest.mark.parametrize("kernels", KERNELS)
def test_attention_reads_its_cache_in_place(kernels):
    """Attention's scores read each cached key once a query head, and `p . v` each
    cached value once a query row: with a kind that streams (every one but
    `generic`), the pages of the caches are read where the caches lie, not copied,
    and the numbers are the plain kernels': their bits on integers (bf16 holds them
    exactly, every sum exact), the fp32 bound of fp64 on bf16-rounded factors
    otherwise."""
    kv, g, m, hd, c = 3, 3, 1, 64, 256  # SmolLM2's heads, a 256-position cache

    def lowered():
        mod = parse_module(attention(kv, g, m, hd, c), "<attention>")
        lower_ops(mod)
        return mod

    def copied(kind: str) -> set[str | None]:
        """The names of the tensors a page is copied from."""
        mod = lowered()
        NativeKernelsPass(kind).apply(Context(), mod)
        ConvertSpatialToLinalgPass().apply(Context(), mod)
        return {
            src.source.name_hint
            for o in mod.walk()
            if isinstance(o, CopyOp)
            and isinstance(src := o.inputs[0].owner, memref.ReinterpretCastOp)
        }

    assert {"kc", "vc"} <= copied("generic")
    if kernels != "generic":
        assert not {"kc", "vc"} & copied(kernels)
    rng = np.random.default_rng(0)
    shapes = [(kv, g, m, hd), (kv, hd, c), (kv, g, m, c), (kv, c, hd)]
    mod = lowered()
    args = [rng.integers(-4, 5, size=s).astype(np.float32) for s in shapes]
    want = compile_native(verified(mod, "attention"), kernels="generic")(*args).outputs
    got = compile_native(verified(mod, "attention"), kernels=kernels)(*args).outputs
    for a, b in zip(got, want):
        np.testing.assert_array_equal(a.view(np.uint32), b.view(np.uint32))
    args = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    got = compile_native(verified(mod, "attention"), kernels=kernels)(*args).outputs
    r = [a.astype(ml_dtypes.bfloat16).astype(np.float64) for a in args]
    s64 = np.einsum("hgmd,hdc->hgmc", r[0], r[1])
    smag = np.einsum("hgmd,hdc->hgmc", np.abs(r[0]), np.abs(r[1]))
    assert (np.abs(got[0] - s64) <= fp32_bound(smag, hd + 1)).all()
    o64 = np.einsum("hgmc,hcd->hgmd", r[2], r[3])
    omag = np.einsum("hgmc,hcd->hgmd", np.abs(r[2]), np.abs(r[3]))
    assert (np.abs(got[1] - o64) <= fp32_bound(omag, c + 1)).all()


def constant_of(v) -> int:
    c = v.owner
    assert isinstance(c, arith.ConstantOp) and isinstance(c.value, IntegerAttr)
    return c.value.value.data


def asks_by_page(
    mod, weights: int, scales: int
) -> tuple[list[tuple[PrefetchOp, int]], list[tuple[PrefetchOp, int]]]:
    """The prefetches of `mod`, of the int8 weights (`weights` elements) and of the
    scales (`scales`), each with how far ahead of what its trip reads it asks. Each
    asks for a line of a row whose start is clamped (`arith.minui`) so that the row's
    last line, and so this one, is inside its tensor; both kinds found."""
    by: dict[str, list[tuple[PrefetchOp, int]]] = {"i8": [], "f32": []}
    for o in mod.walk():
        if isinstance(o, PrefetchOp):
            (at,) = o.indices
            line = 0
            if isinstance(add := at.owner, arith.AddiOp):
                at, line = add.lhs, constant_of(add.rhs)
            clamp = at.owner
            assert isinstance(clamp, arith.MinUIOp)
            ahead = clamp.lhs.owner
            assert isinstance(ahead, arith.AddiOp)
            t = o.memref.type
            assert isinstance(t, MemRefType)
            elem = str(t.element_type)
            total = weights if elem == "i8" else scales
            assert 0 <= constant_of(clamp.rhs) + line <= total - 1
            by[elem].append((o, constant_of(ahead.rhs)))
    assert by["i8"] and by["f32"]
    return by["i8"], by["f32"]


def test_a_dot_kernel_asks_for_the_block_two_on():
    """`spatial-native-kernels{kind=bf16}` at m = 8: each trip asks for the block two on
    (the same columns 64 rows on: 32 rows of 256 bytes, a line each, clamped to the
    weight's end), into the second-level cache, a share before each of its 16 loops over
    the pairs (16 columns each); and for the next block's scales."""
    mod = product(8, 2048, 512, "bf16", "f32")
    lower_q8(mod, act="bf16", optimize=True)
    out = parse_module(str(mod))
    NativeKernelsPass("bf16").apply(Context(), out)
    assert StringAttr("dot") in {o.attributes.get("kernel") for o in out.walk()}
    ConvertSpatialToLinalgPass().apply(Context(), out)
    asks, scales = asks_by_page(out, 2048 * 512, 2048 // 32 * 512)
    trips = {o.parent_op() for o, _ in asks}
    assert len(trips) == 1
    trip = trips.pop()
    assert isinstance(trip, scf.ForOp)
    assert len(asks) == 32 * 256 // 64
    assert {ahead for _, ahead in asks} == {64 * 512}
    assert {o.localityHint.value.data for o, _ in asks} == {2}
    mine = {o for o, _ in asks}
    shares, since = [], 0  # the weight's lines asked for before each loop over the pairs
    for o in trip.body.ops:
        if isinstance(o, scf.ForOp):
            shares, since = [*shares, since], 0
        since += o in mine
    assert shares == [8] * 16  # 2 rows of 4 lines each
    assert len(scales) == 256 * 4 // 64 * len({o.parent_op() for o, _ in scales})


def test_the_choice_is_named_and_checked(monkeypatch):
    monkeypatch.delenv(host.KERNELS_ENV, raising=False)
    monkeypatch.delenv(amx.AMX_ENV, raising=False)
    auto = host.choose_kernels()
    if host.bf16_available() and host.cpu_info()[0].startswith("AMD"):
        best = "bf16"
    elif "avx512f" in host.cpu_info()[1]:
        best = "avx512"
    elif host.avx2_available():
        best = "avx2"
    else:
        best = "loop"
    assert auto.name == ("amx" if host.amx_available() else best)
    assert auto.pass_text == f"spatial-native-kernels{{kind={auto.name}}}"
    plain = host.choose_kernels("generic")
    assert not plain.amx and plain.pass_text == "spatial-native-kernels{kind=generic}"
    monkeypatch.setenv(host.KERNELS_ENV, "generic")
    assert host.choose_kernels() == plain
    assert host.choose_kernels("loop").name == "loop"  # the argument over the variable
    monkeypatch.setenv(host.KERNELS_ENV, "fast")
    with pytest.raises(host.KernelsError, match=r"unknown kernels 'fast' \(XDSL_SPATIAL_KERNELS\)"):
        host.choose_kernels()
    monkeypatch.delenv(host.KERNELS_ENV)
    monkeypatch.setenv(amx.AMX_ENV, "off")  # the tiles passed over
    assert host.choose_kernels().name == best


def test_a_cpu_without_avx512_bf16_gets_the_512_bit_fmas(monkeypatch):
    """On a CPU with AVX-512 whose flags lack AVX512-BF16 (this one's, with AVX-512
    and without BF16 and AMX), `auto` chooses `avx512` and `bf16` is refused, naming
    the CPU."""
    model, flags = host.cpu_info()
    without = (flags | {"avx512f"}) - {"avx512_bf16", "amx_tile", "amx_bf16"}
    monkeypatch.setattr(host, "cpu_info", lambda: (model or "a CPU", without))
    monkeypatch.delenv(host.KERNELS_ENV, raising=False)
    assert not host.bf16_available()
    assert host.choose_kernels().name == "avx512"
    with pytest.raises(host.KernelsError, match="kernels 'bf16' need a CPU with AVX512-BF16"):
        host.choose_kernels("bf16")


def test_bf16_dots_are_chosen_on_amd_cores_and_fmas_on_intel_cores(monkeypatch):
    """With AVX512-BF16 and no AMX, `auto` chooses `bf16` on an AMD core (where its dot
    products were measured to pay) and `avx512` on an Intel one (where they issue at a
    quarter of an FMA's rate); without AVX-512, `avx512` is refused, naming the CPU."""
    flags = frozenset({"avx2", "fma", "avx512f", "avx512_bf16"})
    monkeypatch.delenv(host.KERNELS_ENV, raising=False)
    monkeypatch.setattr(host, "cpu_info", lambda: ("AMD EPYC 9454P 48-Core Processor", flags))
    assert host.choose_kernels().name == "bf16"
    monkeypatch.setattr(host, "cpu_info", lambda: ("Intel(R) Xeon(R) Processor", flags))
    assert host.choose_kernels().name == "avx512"
    assert host.choose_kernels("bf16").name == "bf16"  # named, it is what runs
    monkeypatch.setattr(host, "cpu_info", lambda: ("an AVX2 CPU", flags - {"avx512f"}))
    with pytest.raises(
        host.KernelsError, match=r"kernels 'avx512' need .* AVX-512; this one \(an AVX2 CPU\)"
    ):
        host.choose_kernels("avx512")


def test_a_cpu_with_avx2_and_no_avx512_gets_avx2(monkeypatch):
    """On a CPU with AVX2 and FMA and no AVX-512 (flags made so), `auto` chooses `avx2`;
    on one without AVX2, `auto` chooses `loop` and `avx2` is refused, naming the CPU."""
    avx2 = frozenset({"sse4_2", "avx", "avx2", "fma", "f16c"})
    monkeypatch.setattr(host, "cpu_info", lambda: ("an AVX2 CPU", avx2))
    monkeypatch.delenv(host.KERNELS_ENV, raising=False)
    chosen = host.choose_kernels()
    assert chosen.name == "avx2" and not chosen.x86
    assert chosen.pass_text == "spatial-native-kernels{kind=avx2}"
    assert chosen.function_attributes == host.WITHOUT_AVX512
    assert host.choose_kernels("loop").function_attributes == ()
    # no instruction rounds to bf16 on it: every kind's code expands the rounding
    assert chosen.soft_bf16 and host.choose_kernels("loop").soft_bf16
    assert jit.SOFT_BF16 in jit.pipeline(1, soft_bf16=True)
    assert jit.SOFT_BF16 not in jit.pipeline(1)
    monkeypatch.setattr(host, "cpu_info", lambda: ("an older CPU", avx2 - {"avx2"}))
    assert host.choose_kernels().name == "loop"
    with pytest.raises(
        host.KernelsError, match=r"kernels 'avx2' need .* AVX2 and FMA; this one \(an older CPU\)"
    ):
        host.choose_kernels("avx2")


def test_the_avx2_kernels_are_fused_multiply_adds_compiled_without_avx512():
    """`avx2` at m = 8: the lanes' sums `fma` (a trip's weights widened once, vector
    fused multiply-adds, no copy of the weight's page: read where it lies), and every
    kernel function compiled at 256 bits without AVX-512 (LLVM's function attributes);
    `loop` keeps the host's."""
    mod = product(8, 2048, 512, "bf16", "f32")
    lower_q8(mod, act="bf16", optimize=True)
    out = parse_module(str(mod))
    NativeKernelsPass("avx2").apply(Context(), out)
    assert StringAttr("fma") in {o.attributes.get("kernel") for o in out.walk()}
    plain_pages = parse_module(str(out))
    NativeKernelsPass("generic").apply(Context(), plain_pages)
    for m in (out, plain_pages):
        ConvertSpatialToLinalgPass().apply(Context(), m)

    def weight_copies(m) -> int:
        return sum(
            isinstance(o, CopyOp)
            and isinstance(into := o.outputs[0].owner, memref.ReinterpretCastOp)
            and (into.source.name_hint or "").startswith("in_q8")
            for o in m.walk()
        )

    assert weight_copies(plain_pages) and not weight_copies(out)
    prepared = prepare(verified(mod, "mm"))
    text = convert(prepared, kind="avx2")
    assert "vector.fma" in text and "q8_f32" in text and "x86." not in text
    kernels = [line for line in text.splitlines() if "func.func private @" in line]
    assert kernels
    assert all('["target-features", "-avx512f"]' in k for k in kernels)
    assert all('["prefer-vector-width", "256"]' in k for k in kernels)
    plain = convert(prepare(verified(mod, "mm")), kind="loop")
    assert "-avx512f" not in plain and '["prefer-vector-width", "512"]' in plain


def test_the_avx512_kernels_are_the_same_fmas_in_512_bit_vectors():
    """`avx512` at m = 8: the lanes' sums `fma512`, `avx2`'s fused multiply-adds in
    vectors of 16 f32 (8 rows x 2 vectors of accumulators), compiled for the host's
    own features. With every row in one register block (m = 8) each weight is
    multiplied once a trip, widened in registers where it is loaded (16 int8); with
    more rows (m = 32: three blocks) widened once into a scratch (`q8_f32`) that each
    block reads."""
    texts = {}
    for m in (8, 32):
        mod = product(m, 2048, 512, "bf16", "f32")
        lower_q8(mod, act="bf16", optimize=True)
        out = parse_module(str(mod))
        NativeKernelsPass("avx512").apply(Context(), out)
        assert StringAttr("fma512") in {o.attributes.get("kernel") for o in out.walk()}
        texts[m] = convert(prepare(verified(mod, "mm")), kind="avx512")
        fmas = [line for line in texts[m].splitlines() if "vector.fma" in line]
        assert fmas and all("vector<16xf32>" in line for line in fmas)
        assert "x86." not in texts[m] and "-avx512f" not in texts[m]
    assert "q8_f32" not in texts[8] and "q8_f32" in texts[32]
    assert "vector<16xi8>" in texts[8] and "llvm.sitofp" in texts[8]
    assert host.Kernels("avx512").function_attributes == ()
    assert host.Kernels("avx512").tile_columns and not host.Kernels("avx512").x86


@pytest.mark.skipif(host.amx_available(), reason="this CPU has AMX-BF16: amx is not refused")
def test_amx_is_refused_where_the_cpu_lacks_it(tmp_path):
    with pytest.raises(host.KernelsError, match="need a CPU with AMX-BF16"):
        host.choose_kernels("amx")
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "xdsl_spatial.tools.spatial_run",
            GEMV,
            "-p",
            "q8-lower",
            "--engine",
            "native",
            "--kernels",
            "amx",
        ],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 1, r.stderr
    assert "spatial-run: error: kernels 'amx' need a CPU with AMX-BF16" in r.stderr
    assert "Traceback" not in r.stderr


def test_kernels_need_the_native_engine():
    r = subprocess.run(
        [sys.executable, "-m", "xdsl_spatial.tools.spatial_run", GEMV, "--kernels", "loop"],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 2, r.stderr
    assert "--kernels chooses the native engine's kernels: add --engine native" in r.stderr
