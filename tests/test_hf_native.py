"""
Hugging Face exports on the native engine, as they come (`docs/frontends.md`): the
committed exports of `examples/hf/` run natively before and after `q8-lower` against
PyTorch eager's logits and within the fp32 bound of the compiled engine; their
`cf.assert`s are checked before the machine code runs (`native/asserts.py`), so a
token outside the vocabulary is the diagnostic the other engines give, and the process
goes on; `tm_tensor.scan` runs as the generics `convert-tm-tensor-to-linalg` writes.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch_mlir", reason="the [native] extra (torch-mlir) is not installed")

from test_hf_exports import (
    EAGER_REL,
    FAMILIES,
    HF,
    LOWERED_REL,
    SCAN,
    _margin_ok,
    load,
)

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.interpreters.runner import RunError, execute
from xdsl_spatial.passes.q8_lower import raise_and_lower

FP32_REL = 2.0**-16
"""Native against the compiled engine, relative to the largest logit: the same fp32
model, its sums in other orders (BLAS against LLVM's loops), through two layers."""


@pytest.mark.parametrize("name", FAMILIES)
def test_export_runs_natively_as_eager_before_and_after_lowering(name):
    _, module, args, eager = load(name)
    scale = float(np.abs(eager).max())
    for lowered in (False, True):
        if lowered:
            raise_and_lower(module)
        native = execute(module, "main", args, engine="native").outputs[0]
        compiled = execute(module, "main", args).outputs[0]
        tol = (LOWERED_REL if lowered else EAGER_REL) * scale
        assert np.abs(native - eager).max() <= tol, (name, lowered)
        assert (native.argmax(-1) == eager.argmax(-1))[_margin_ok(eager, tol)].all()
        assert np.abs(native - compiled).max() <= FP32_REL * scale, (name, lowered)


@pytest.mark.parametrize("lowered", [False, True])
def test_a_token_outside_the_vocabulary_is_the_same_diagnostic_natively(lowered):
    """The checks run before the code: the process is not aborted, and a good call
    after a bad one gives the logits."""
    _, module, args, eager = load("llama_torchao")
    if lowered:
        raise_and_lower(module)
    vocab = eager.shape[-1]
    for bad_id, said in (
        (vocab, "index must be smaller"),
        (-1, "index must be larger or equal to 0"),
    ):
        bad = args[0].copy()
        bad[0, 2] = bad_id
        for engine in ("native", "compiled"):
            with pytest.raises(RunError, match=rf"cf\.assert: assertion failed: {said}"):
                execute(module, "main", [bad, *args[1:]], engine=engine)
    good = execute(module, "main", args, engine="native").outputs[0]
    tol = (LOWERED_REL if lowered else EAGER_REL) * float(np.abs(eager).max())
    assert np.abs(good - eager).max() <= tol


def test_an_assert_on_a_computed_value_is_refused_naming_it():
    text = """func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %c0 = arith.constant 0.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%y : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %ok = arith.cmpf oge, %v, %c0 : f32
    cf.assert %ok, "not negative"
    linalg.yield %v : f32
  } -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}"""
    x = np.ones(4, np.float32)
    module = parse_module(text)
    assert execute(module, "main", [x]).outputs[0].tolist() == [2.0] * 4
    with pytest.raises(RunError, match=r'cf\.assert "not negative".*reads linalg\.add'):
        execute(module, "main", [x], engine="native")
    on_output = text.replace("ins(%y : tensor<4xf32>) outs(%e", "ins(%x : tensor<4xf32>) outs(%y")
    on_output = on_output.replace("arith.cmpf oge, %v, %c0", "arith.cmpf oge, %o, %c0")
    module = parse_module(on_output)
    assert execute(module, "main", [x]).outputs[0].tolist() == [1.0] * 4
    with pytest.raises(RunError, match=r'cf\.assert "not negative".*reads the output of'):
        execute(module, "main", [x], engine="native")


@pytest.mark.parametrize("inclusive", [True, False])
@pytest.mark.parametrize("elem", ["i64", "f32"])
def test_the_scan_runs_natively_as_it_runs_in_numpy(inclusive, elem):
    """The converted scan sums in the scan's own order (later terms add zero): the
    same bits as the compiled engine's cumsum for integers and, by construction, for
    floats of integer values."""
    op = "arith.addi" if elem == "i64" else "arith.addf"
    text = SCAN.replace("ELEM", elem).replace("INCL", str(inclusive).lower()).replace("OP", op)
    rng = np.random.default_rng(1)
    dt = np.int64 if elem == "i64" else np.float32
    x = rng.integers(-50, 50, (2, 5, 3)).astype(dt)
    acc = rng.integers(-50, 50, (2, 3)).astype(dt)
    module = parse_module(text)
    want = execute(module, "main", [x, np.zeros_like(x), acc]).outputs
    got = execute(module, "main", [x, np.zeros_like(x), acc], engine="native").outputs
    assert [g.tobytes() for g in got] == [w.tobytes() for w in want]


def test_the_export_without_a_mask_runs_its_scan_natively():
    assert "tm_tensor.scan" in (HF / "llama.mlir").read_text()
    _, module, args, _ = load("llama")
    _, masked, margs, _ = load("llama_mask")
    a = execute(module, "main", args, engine="native").outputs[0]
    b = execute(masked, "main", margs, engine="native").outputs[0]
    # the same weights and tokens; the mask of ones and the packed-sequence check agree
    assert np.abs(a - b).max() <= FP32_REL * float(np.abs(b).max())


def test_a_cache_position_past_the_end_is_a_diagnostic_natively(tmp_path):
    """torch-mlir's top-level cf.asserts (torch._check's bounds of the KV cache's write
    position in `examples/torch/llama_tiny.mlir`) are checked before the code runs:
    upstream's own lowering of them would abort the process."""
    from tiny_llama import write_tiny_llama

    from xdsl_spatial.frontends.generation import load_model
    from xdsl_spatial.interpreters.options import Engine, RunOptions

    tiny = str(write_tiny_llama(tmp_path / "tiny.gguf"))
    text = (HF.parent / "torch" / "llama_tiny.mlir").read_text()
    options = RunOptions(engine=Engine.NATIVE)
    native = load_model(tiny, 3, 24, lower=False, text=text, options=options)
    compiled = load_model(tiny, 3, 24, lower=False, text=text, weights=native.weights)
    caches = [np.zeros((2, 64, 24), np.float32), np.zeros((2, 24, 64), np.float32)] * 2

    def decode(model, pos):
        return model._run("decode", [np.array([5], np.int32), np.array([pos], np.int32)], caches)

    with pytest.raises(RunError, match=r"cf\.assert: assertion failed: Runtime assertion"):
        decode(native, 24)
    got, want = decode(native, 5).outputs[0], decode(compiled, 5).outputs[0]
    assert np.abs(got - want).max() <= FP32_REL * float(np.abs(want).max())


def test_the_checks_travel_with_a_kept_executable():
    """A built model kept on disk holds its native executables (their code from the
    compile cache) with their checks, and no IR (`model_cache`'s pickler refuses it)."""
    import pickle

    from xdsl_spatial.frontends.model_cache import _Pickler
    from xdsl_spatial.interpreters.runner import call, compile_module, find_function

    _, module, args, eager = load("llama")
    exe = compile_module(module, "main", "native")
    body, arrays = _Pickler().dumps(exe)
    back = pickle.loads(body, buffers=arrays)
    scale = float(np.abs(eager).max())
    assert np.abs(back(*args).outputs[0] - eager).max() <= EAGER_REL * scale
    bad = args[0].copy()
    bad[0, 1] = eager.shape[-1]
    with pytest.raises(RunError, match=r"cf\.assert: assertion failed: index must be smaller"):
        call(back, find_function(module, "main"), [bad, *args[1:]])
