"""
Every natural spelling of a weight-only Q8_0 linear in PyTorch, torchao's included
(`examples/torch/spell_*`, written by `examples/torch/export.py` with their inputs and
PyTorch eager's output): raised by `q8-raise`, lowered by `q8-lower`, and run before
and after against eager; the `not_q8_*` ones left exactly as they were, with the
reason in the user's terms. With torch and torchao installed, the script writes the
committed files again.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from test_q8_raise import BF16, check_declined

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.interpreters.runner import execute
from xdsl_spatial.passes.q8_lower import raise_and_lower

EXPORTS = Path(__file__).resolve().parent.parent / "examples" / "torch"
RAISED = (
    "spell_repeat_interleave",
    "spell_view_t",
    "spell_preblocked",
    "spell_bias",
    "spell_bf16_scales",
    "spell_f32_scales",
    "spell_torchao_intx",
    "spell_torchao_intx_f16_scales",
    "spell_torchao_int8",
    "spell_torchao_bf16",
)
DECLINED = {
    "not_q8_f16_dequant": "it dequantises in f16: each weight q*s is rounded to f16",
    "not_q8_zero_point_arg": "offset by a zero point (arith.subf) that is a function argument",
}
HAS_TORCHAO = all(
    importlib.util.find_spec(m) is not None for m in ("torch", "torch_mlir", "torchao")
)


def load(name: str):
    text = (EXPORTS / f"{name}.mlir").read_text()
    with np.load(EXPORTS / f"{name}.npz") as f:
        args = [f[f"arg{i}"] for i in range(len(f.files) - 1)]
        eager = f["eager"]
    return text, args, eager


def _typed(module, args: list[np.ndarray]) -> list[np.ndarray]:
    """The `.npz`'s f32 copies of bf16 arguments back in bf16 (exact)."""
    fn = next(op for op in module.walk() if op.name == "func.func")
    out = []
    for a, t in zip(args, fn.function_type.inputs.data):
        out.append(a.astype(BF16) if "bf16" in str(t) else a)
    return out


@pytest.mark.parametrize("name", RAISED)
def test_spelling_is_raised_lowered_and_runs_as_eager(name):
    text, args, eager = load(name)
    module = parse_module(text, name)
    args = _typed(module, args)
    scale = float(np.abs(eager).max())
    before = execute(module, "main", args).outputs[0].astype(np.float32)
    # bf16 models round the result (and, before lowering, each weight) to bf16
    bf16 = "bf16" in name
    assert np.abs(before - eager).max() <= (2.0**-7 if bf16 else 1e-5) * scale
    raised, lowered = raise_and_lower(module)
    assert [d.raised for d in raised] == [True], [d.line() for d in raised]
    assert [d.lowered for d in lowered] == [True], [d.line() for d in lowered]
    names = {op.name for op in module.walk()}
    assert "spatial.fold" in names and "linalg.matmul" not in names
    after = execute(module, "main", args).outputs[0].astype(np.float32)
    # the fold reads the activation in bf16: 2^-8 relative per term, and the bf16
    # models' own roundings
    assert np.abs(after - eager).max() <= 2.0**-6 * scale


@pytest.mark.parametrize("name", sorted(DECLINED))
def test_non_q8_spelling_is_declined_in_the_users_terms(name):
    text, args, eager = load(name)
    module = parse_module(text, name)
    check_declined(module, DECLINED[name])
    out = execute(module, "main", args).outputs[0]
    assert np.abs(out - eager).max() <= 1e-5 * float(np.abs(eager).max())


def test_the_zero_point_is_proven_zero_by_its_elements():
    """torchao's symmetric zero point is a constant (its blob all zeros): raised; the
    same module with one zero point of 1 is declined, naming it."""
    text, _, _ = load("spell_torchao_intx")
    key = "torch_tensor_64_4_torch.int8: "
    at = text.index(key) + len(key)
    blob = text[at : text.index('"', at + 1) + 1]
    assert set(blob[11:-1]) == {"0"}  # after the quotes, "0x" and the alignment word
    assert raise_and_lower(parse_module(text))[0][0].raised
    one = blob[:11] + "01" + blob[13:]
    raised, _ = raise_and_lower(parse_module(text.replace(blob, one)))
    assert not raised[0].raised
    assert "a zero point that is not all zeros" in raised[0].detail


@pytest.mark.skipif(not HAS_TORCHAO, reason="torch, torch-mlir and torchao are not installed")
@pytest.mark.parametrize("name", [*RAISED, *DECLINED])
def test_the_script_writes_the_committed_spellings(name, tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(EXPORTS))
    import sys

    sys.modules.pop("export", None)
    import export  # pyright: ignore[reportMissingImports]

    monkeypatch.setattr(export, "HERE", tmp_path)
    export.write_spelling(name)
    assert (tmp_path / f"{name}.mlir").read_text() == (EXPORTS / f"{name}.mlir").read_text()
    with np.load(tmp_path / f"{name}.npz") as fresh, np.load(EXPORTS / f"{name}.npz") as old:
        assert sorted(fresh.files) == sorted(old.files)
        for key in old.files:
            assert fresh[key].tobytes() == old[key].tobytes(), key
