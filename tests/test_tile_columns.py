"""Weights laid in tile columns (`core/tile_columns.py`, `spatial-native-layout`): where
each element lies, which weights the native engine takes laid so, what a caller passes
for them, and that the numbers do not change (the same terms in the same order: bits
on any input)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch_mlir", reason="the [native] extra (torch-mlir) is not installed")

from test_engines import operands, product
from xdsl.context import Context
from xdsl.dialects.builtin import StringAttr

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.core.tile_columns import LAYOUT, TILE_COLUMNS, LayoutError, TileColumns
from xdsl_spatial.dialects.spatial import TensorOp
from xdsl_spatial.interpreters.native import host
from xdsl_spatial.interpreters.native.compiler import compile_native
from xdsl_spatial.interpreters.native.prepare import prepare, strips
from xdsl_spatial.interpreters.runner import coerce_args, find_function, verified
from xdsl_spatial.passes.convert_spatial_to_linalg import ConvertSpatialToLinalgPass, PlanError
from xdsl_spatial.passes.q8_lower import lower_q8

KIND = "bf16" if host.bf16_available() else "loop"


def test_lay_puts_each_element_where_the_layout_says_and_plain_undoes_it():
    k, n, w = 96, 160, 32
    a = np.random.default_rng(0).integers(-128, 128, (k, n), dtype=np.int8)
    laid = TileColumns.lay(a, w)
    assert laid.shape == (k, n) and laid.dtype == np.int8 and laid.nbytes == a.nbytes
    assert laid.data.flags.c_contiguous and laid.data.ctypes.data % 64 == 0
    kk, nn = np.meshgrid(np.arange(k), np.arange(n), indexing="ij")
    flat = laid.data.reshape(-1)
    assert (flat[(nn // w) * w * k + kk * w + nn % w] == a).all()
    assert (laid.plain() == a).all()


@pytest.mark.parametrize("shape", [(64,), (32, 48), (2, 32, 32)])
def test_an_array_that_cannot_be_laid_is_refused_naming_its_shape(shape):
    with pytest.raises(LayoutError, match=r"multiple of 32 columns, got int8 \("):
        TileColumns.lay(np.zeros(shape, np.int8))


def lowered(m: int, k: int, n: int):
    mod = product(m, k, n, "bf16", "f16")
    lower_q8(mod, act="bf16", optimize=True)
    return mod, verified(mod, "mm")


@pytest.mark.parametrize("m", [1, 8])
@pytest.mark.parametrize("n", [4096, 1536, 192])
def test_a_product_takes_its_weight_laid_and_gives_the_same_bits(m, n):
    """The weight's values are read laid (`Slot.strip`), whatever its width (SmolLM2's
    products: N from 192 to 1536, its head 49,152): passed laid once, or as an array
    laid at each call, the same bits; the scales stay in rows; the plain kernels and
    `avx2` read it in rows. With the items on threads too (each item's body a call)."""
    k = 256
    mod, fn = lowered(m, k, n)
    assert strips(prepare(fn), KIND) == (0, 32, 0)
    assert strips(prepare(fn), "generic") == strips(prepare(fn), "avx2") == (0, 0, 0)
    exe = compile_native(fn, kernels=KIND)
    assert [s.strip for s in exe.caller.ins] == [0, 32, 0]
    x, q, s = coerce_args(
        find_function(mod, "mm"), operands(m, k, n, "f16", False, np.random.default_rng(m))
    )
    each_call = exe(x, q, s).outputs[0]
    args = exe.lay([x, q, s])
    assert isinstance(args[1], TileColumns) and args[0] is x and args[2] is s
    once = exe(*args).outputs[0]
    again = exe(*args).outputs[0]  # (bound already: the same pointer)
    assert each_call.tobytes() == once.tobytes() == again.tobytes()
    plain = compile_native(fn, kernels="generic")(x, q, s).outputs[0]
    if m == 1 or KIND == "loop":  # the same terms in the same order as the plain loops
        assert plain.tobytes() == once.tobytes()
    threads = compile_native(fn, threads=2, kernels=KIND)
    assert [s.strip for s in threads.caller.ins] == [0, 32, 0]
    assert threads(*args).outputs[0].tobytes() == once.tobytes()


def test_a_weight_laid_at_another_width_or_shape_is_refused_naming_the_argument():
    mod, fn = lowered(1, 64, 4096)
    exe = compile_native(fn, kernels=KIND)
    x, q, s = coerce_args(
        find_function(mod, "mm"), operands(1, 64, 4096, "f16", False, np.random.default_rng(1))
    )
    with pytest.raises(ValueError, match=r"argument #1 is read laid in tile columns 32 wide"):
        exe(x, TileColumns.lay(q, 16), s)
    with pytest.raises(ValueError, match=r"got tile columns 32 wide of int8 \(64, 224\)"):
        exe(x, TileColumns.lay(q[:, :224], 32), s)


def test_a_weight_read_by_anything_else_stays_in_rows():
    """A weight the function also returns (a reader on the host) is passed in rows."""
    mod = parse_module(
        """
func.func @mm(%x: tensor<1x256xbf16>, %W__q8: tensor<256x256xi8>, %W__q8_scale: tensor<8x256xf32>) -> (tensor<1x256xf32>, tensor<256x256xi8>) {
  %w = q8.dequantize %W__q8, %W__q8_scale : tensor<256x256xi8>, tensor<8x256xf32> -> tensor<256x256xf32>
  %xf = arith.extf %x : tensor<1x256xbf16> to tensor<1x256xf32>
  %empty = tensor.empty() : tensor<1x256xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x256xf32>) -> tensor<1x256xf32>
  %y = linalg.matmul ins(%xf, %w : tensor<1x256xf32>, tensor<256x256xf32>) outs(%acc : tensor<1x256xf32>) -> tensor<1x256xf32>
  func.return %y, %W__q8 : tensor<1x256xf32>, tensor<256x256xi8>
}
"""
    )
    lower_q8(mod, optimize=True)
    assert strips(prepare(verified(mod, "mm")), KIND) == (0, 0, 0)


def test_a_mark_on_a_tensor_that_cannot_be_laid_is_refused_naming_it():
    mod, _ = lowered(1, 256, 4096)
    scales = next(
        t for t in mod.walk() if isinstance(t, TensorOp) and t.tensor_name.data == "W__q8_scale"
    )
    scales.attributes[LAYOUT] = StringAttr(TILE_COLUMNS)
    with pytest.raises(
        PlanError, match=r"tensor 'W__q8_scale' is marked layout = \"tile_columns\""
    ):
        ConvertSpatialToLinalgPass().apply(Context(), mod)


def test_a_native_model_lays_its_q8_weights_once_and_agrees_with_the_reference(tmp_path):
    """A model on the native engine lays each Q8_0 weight its code reads in tile
    columns (the layers' and the head, which the embedding's gather reads too) once, in
    place of the array (one copy held), at its first call; its numbers are the
    reference's within the bound, and `plain_weights` gives the weights back."""
    from test_llama import check_against_reference
    from tiny_llama import write_tiny_llama

    from xdsl_spatial.frontends.generation import load_model
    from xdsl_spatial.frontends.model.config import weight_args
    from xdsl_spatial.interpreters.options import Engine, RunOptions

    path = str(write_tiny_llama(tmp_path / "tiny.gguf", vocab=4096))
    native = load_model(path, 3, 24, options=RunOptions(Engine.NATIVE))
    before = [np.array(w) for w in native.weights]
    shared = native.weights
    plain = load_model(
        path, 3, 24, lower=False, config=native.config, weights=native.plain_weights()
    )
    check_against_reference(path, native, plain, [104, 101, 108], 4)
    assert native.weights is shared and native.laid_for == {"prefill", "decode"}
    args = weight_args(native.config)
    laid = {name for (name, _, _), w in zip(args, native.weights) if isinstance(w, TileColumns)}
    assert "token_embd.weight__q8" in laid
    assert laid == {name for name, _, _ in args if name.endswith("__q8")}
    assert all((a == b).all() for a, b in zip(native.plain_weights(), before))


def test_an_array_given_in_rows_is_read_anew_at_each_call():
    """A weight passed in rows is laid at each call, so a change to it between calls is
    read (what a call laid is not kept for the next); a non-contiguous activation too."""
    mod, fn = lowered(1, 64, 4096)
    exe = compile_native(fn, kernels=KIND)
    x, q, s = coerce_args(
        find_function(mod, "mm"), operands(1, 64, 4096, "f16", False, np.random.default_rng(2))
    )
    wide = np.zeros((1, 2 * x.shape[1]), x.dtype)
    wide[:, ::2] = x
    first = exe(wide[:, ::2], q, s).outputs[0]
    q //= 2  # in place: the same array object
    halved = exe(wide[:, ::2], q, s).outputs[0]
    assert halved.tobytes() == exe(x, TileColumns.lay(q), s).outputs[0].tobytes()
    assert halved.tobytes() != first.tobytes()
