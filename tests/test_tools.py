"""The command-line tools: spatial-run and spatial-opt, as a user meets them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from xdsl_spatial.tools import spatial_opt, spatial_run
from xdsl_spatial.tools.spatial_gguf import q8_matmul_func

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "gemv_q8.mlir"


@pytest.fixture
def small(tmp_path: Path) -> Path:
    p = tmp_path / "mm.mlir"
    p.write_text(
        "builtin.module {\n" + q8_matmul_func("mm", "W", 1088, 96, 2, "bf16", "f16") + "}\n"
    )
    return p


def arrays(rng=None):
    rng = rng or np.random.default_rng(0)
    return {
        "arg0": rng.standard_normal((2, 1088)).astype(np.float32),
        "arg1": rng.integers(-127, 128, (1088, 96)).astype(np.int8),
        "arg2": rng.uniform(0.001, 0.02, (34, 96)).astype(np.float16),
    }


def reference(a: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """y in fp64 on the values the chip holds (x rounded to bf16), and the fp32
    summation bound of a K-term sum in any order, gamma_K * sum |x| |w| (Higham),
    with one more rounding for the scale product."""
    x = a["arg0"].astype(ml_dtypes.bfloat16).astype(np.float64)
    w = a["arg1"].astype(np.float64) * np.repeat(a["arg2"].astype(np.float64), 32, axis=0)
    k = x.shape[1] + 1
    gamma = k * 2.0**-24 / (1 - k * 2.0**-24)
    return x @ w, gamma * (np.abs(x) @ np.abs(w))


def test_run_writes_outputs_and_they_match_numpy(small, tmp_path, capsys):
    a = arrays()
    np.savez(tmp_path / "in.npz", **a)
    out = tmp_path / "out.npz"
    rc = spatial_run.main(
        [
            str(small),
            "--inputs",
            str(tmp_path / "in.npz"),
            "--outputs",
            str(out),
            "-p",
            "q8-lower",
            "--stats",
        ]
    )
    assert rc == 0
    text = capsys.readouterr().out
    assert "res0: 2x96 float32" in text
    assert "q8_gemm_2x1088x96_w3" in text and "B/weight" in text
    with np.load(out, allow_pickle=False) as z:
        y = z["res0"]
    ref, bound = reference(a)
    assert (np.abs(y - ref) <= bound).all()


def test_compare_prints_the_difference(small, tmp_path, capsys):
    a = arrays(np.random.default_rng(3))
    np.savez(tmp_path / "in.npz", **a)
    assert spatial_run.main([str(small), "--inputs", str(tmp_path / "in.npz"), "--compare"]) == 0
    text = capsys.readouterr().out
    assert "before:" in text and "after q8-lower{optimize=true}:" in text
    diff = float(text.split("max |before - after| = ")[1].split(",")[0])
    # Both runs are within the bound of the fp64 result, so within twice it of each
    # other (the printed difference is rounded to 6 digits: 1e-6 relative slack).
    _, bound = reference(a)
    assert diff <= 2 * bound.max() * (1 + 1e-6)


def test_missing_argument_needs_inputs_or_a_seed(small, capsys):
    assert spatial_run.main([str(small)]) == 1
    err = capsys.readouterr().err
    assert "arg0 (%x) is missing" in err and "--seed" in err


def test_inputs_naming_no_argument_are_refused(small, tmp_path, capsys):
    np.savez(tmp_path / "in.npz", **arrays(), arg7=np.zeros(3))
    assert spatial_run.main([str(small), "--inputs", str(tmp_path / "in.npz")]) == 1
    assert "arg7, which name no argument" in capsys.readouterr().err


def test_pickled_inputs_are_refused(small, tmp_path, capsys):
    a = arrays()
    a["arg0"] = np.array([object()], dtype=object)
    np.savez(tmp_path / "in.npz", **a)
    assert spatial_run.main([str(small), "--inputs", str(tmp_path / "in.npz")]) == 1
    assert "allow_pickle=False" in capsys.readouterr().err


def test_not_an_npz_is_refused(small, tmp_path, capsys):
    (tmp_path / "in.npz").write_bytes(b"not a zip")
    assert spatial_run.main([str(small), "--inputs", str(tmp_path / "in.npz")]) == 1
    assert "cannot read inputs" in capsys.readouterr().err


def test_float_values_for_int8_are_refused_by_name(small, tmp_path, capsys):
    a = arrays()
    a["arg1"] = a["arg1"].astype(np.float32)
    np.savez(tmp_path / "in.npz", **a)
    assert spatial_run.main([str(small), "--inputs", str(tmp_path / "in.npz")]) == 1
    assert "arg1 (%W__q8) is int8 but the array holds float32" in capsys.readouterr().err


def test_outputs_are_written_whole_or_not_at_all(small, tmp_path, capsys):
    out = tmp_path / "out.npz"
    out.write_bytes(b"previous")
    a = arrays()
    a["arg0"] = a["arg0"][:1]  # wrong shape: the run fails
    np.savez(tmp_path / "in.npz", **a)
    assert (
        spatial_run.main([str(small), "--inputs", str(tmp_path / "in.npz"), "--outputs", str(out)])
        == 1
    )
    assert out.read_bytes() == b"previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.npz", "mm.mlir", "out.npz"]
    assert "must have shape 2x1088" in capsys.readouterr().err


def test_parse_error_and_unknown_pass_are_one_clean_message(tmp_path, capsys):
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f( {\n")
    assert spatial_run.main([str(bad), "--seed", "0"]) == 1
    err = capsys.readouterr().err
    # MLIR's shape: FILE:LINE:COL: error: MESSAGE, the source line, a caret.
    assert (
        err.startswith(f"{bad}:1:15: error: Expected argument or type\n") and "Traceback" not in err
    )
    assert err.splitlines()[1:] == ["func.func @f( {", " " * 14 + "^"]
    assert spatial_run.main([str(EXAMPLE), "--seed", "0", "-p", "no-such-pass"]) == 1
    assert "no-such-pass" in capsys.readouterr().err
    assert spatial_run.main([str(tmp_path / "absent.mlir")]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_spatial_opt_reports_a_verifier_error_without_a_traceback(tmp_path, capsys):
    bad = tmp_path / "bad.mlir"
    bad.write_text(
        "func.func @f(%q: tensor<64x64xi8>, %s: tensor<3x64xf32>) -> tensor<64x64xf32> {\n"
        "  %w = q8.dequantize %q, %s : tensor<64x64xi8>, tensor<3x64xf32> -> tensor<64x64xf32>\n"
        "  func.return %w : tensor<64x64xf32>\n}\n"
    )
    assert spatial_opt.main([str(bad)]) == 1
    err = capsys.readouterr().err
    # The op's place in the file, and the op as written (custom syntax, not generic).
    assert err.splitlines() == [
        f"{bad}:2:3: error: 'q8.dequantize' op scales must have K/32 = 2 rows, got 3",
        "  %w = q8.dequantize %q, %s : tensor<64x64xi8>, tensor<3x64xf32> -> tensor<64x64xf32>",
    ]


def test_spatial_opt_lowers_the_example(capsys):
    assert spatial_opt.main(["-p", "q8-lower", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert 'spatial.fold "q8_gemv_2048x4096_w8"' in out and "linalg.matmul" not in out


def test_console_scripts_are_installed():
    bin_dir = Path(sys.executable).parent
    for tool in ("spatial-run", "spatial-opt", "spatial-gguf", "xdsl-opt"):
        assert (bin_dir / tool).exists(), tool
    r = subprocess.run(
        [str(bin_dir / "spatial-run"), str(EXAMPLE), "--seed", "0", "--compare"],
        capture_output=True,
        text=True,
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},
    )
    assert r.returncode == 0, r.stderr
    assert "max |before - after|" in r.stdout


def write_checkpoint(path: Path) -> dict[str, np.ndarray]:
    """A GGUF with one Q8_0 and one Q4_1 linear weight, as llama.cpp stores them ([N, K])."""
    from gguf import GGMLQuantizationType as T
    from gguf import GGUFWriter
    from gguf.quants import quantize

    rng = np.random.default_rng(5)
    dense = {
        "blk.0.attn_q.weight": rng.standard_normal((96, 1088)).astype(np.float32),
        "blk.0.ffn_up.weight": rng.standard_normal((64, 1088)).astype(np.float32),
    }
    writer = GGUFWriter(path, "llama")
    writer.add_tensor(
        "blk.0.attn_q.weight", quantize(dense["blk.0.attn_q.weight"], T.Q8_0), raw_dtype=T.Q8_0
    )
    writer.add_tensor(
        "blk.0.ffn_up.weight", quantize(dense["blk.0.ffn_up.weight"], T.Q4_1), raw_dtype=T.Q4_1
    )
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return dense


def test_run_binds_gguf_weights_by_name(tmp_path, capsys):
    from gguf import GGMLQuantizationType as T
    from gguf import GGUFReader
    from gguf.quants import dequantize

    from xdsl_spatial.tools import spatial_gguf

    ckpt = tmp_path / "model.gguf"
    write_checkpoint(ckpt)
    mlir = tmp_path / "layer0.mlir"
    assert spatial_gguf.main([str(ckpt), "--emit", "--layer", "0", "-o", str(mlir)]) == 0
    x = np.random.default_rng(1).standard_normal((1, 1088)).astype(np.float32)
    np.savez(tmp_path / "x.npz", arg0=x)
    out = tmp_path / "y.npz"
    rc = spatial_run.main(
        [
            str(mlir),
            "--entry",
            "blk_0_attn_q",
            "--weights",
            str(ckpt),
            "--inputs",
            str(tmp_path / "x.npz"),
            "-p",
            "q8-lower",
            "--stats",
            "--outputs",
            str(out),
        ]
    )
    assert rc == 0, capsys.readouterr().err
    stats = capsys.readouterr().out
    assert "blk.0.attn_q.weight__q8 " in stats and "blk.0.attn_q.weight__q8_scale" in stats
    # f16 scales as GGUF stores them: 1 byte a value, 2 bytes a scale (in whole tile rows).
    assert "B/weight" in stats
    reader = GGUFReader(ckpt)
    t = next(t for t in reader.tensors if t.name == "blk.0.attn_q.weight")
    w = dequantize(t.data, T.Q8_0).astype(np.float64).T  # K x N, exactly what llama.cpp multiplies
    ref = x.astype(ml_dtypes.bfloat16).astype(np.float64) @ w
    with np.load(out, allow_pickle=False) as z:
        y = z["res0"]
    bound = 1090 * 2.0**-24 * (np.abs(x.astype(ml_dtypes.bfloat16).astype(np.float64)) @ np.abs(w))
    assert (np.abs(y - ref) <= bound + 1e-30).all()


def test_run_requantizes_other_types_only_when_asked(tmp_path, capsys):
    from xdsl_spatial.tools import spatial_gguf

    ckpt = tmp_path / "model.gguf"
    write_checkpoint(ckpt)
    mlir = tmp_path / "layer0.mlir"
    assert spatial_gguf.main([str(ckpt), "--emit", "--layer", "0", "-o", str(mlir)]) == 0
    args = [
        str(mlir),
        "--entry",
        "blk_0_ffn_up",
        "--weights",
        str(ckpt),
        "--seed",
        "0",
        "--compare",
    ]
    assert spatial_run.main(args) == 1
    err = capsys.readouterr().err
    assert "blk.0.ffn_up.weight is Q4_1, not Q8_0" in err
    assert err.endswith("must be asked for explicitly (spatial-run --requantize)\n")
    assert spatial_run.main([*args, "--requantize"]) == 0
    captured = capsys.readouterr()
    assert "blk.0.ffn_up.weight" in captured.err and "Q4_1" in captured.err
    assert "max |before - after|" in captured.out


def test_run_refuses_a_checkpoint_whose_shapes_differ(tmp_path, capsys):
    ckpt = tmp_path / "model.gguf"
    write_checkpoint(ckpt)
    mlir = tmp_path / "wrong.mlir"
    mlir.write_text(
        "builtin.module {\n"
        + q8_matmul_func("f", "blk.0.attn_q.weight", 1088, 64, 1, "bf16", "f16")
        + "}\n"
    )
    assert spatial_run.main([str(mlir), "--weights", str(ckpt), "--seed", "0"]) == 1
    err = capsys.readouterr().err
    assert "blk.0.attn_q.weight" in err and "expects shape" in err


def test_spatial_opt_help_lists_every_pass_option_with_its_default(capsys):
    import dataclasses

    from xdsl_spatial.passes.q8_lower import Q8LowerPass

    assert spatial_opt.main(["--help"]) == 0
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if ln.strip().startswith("q8-lower{"))
    for f in dataclasses.fields(Q8LowerPass):
        assert f" {f.name.replace('_', '-')}=" in line or "{" + f.name.replace("_", "-") in line
    assert "chips=1 split=n report=false optimize=false}" in line and "act=(the target's)" in line
    assert "q8-raise{report=false}" in out


@pytest.fixture
def verifications(monkeypatch):
    """How often each whole-module verification and each function's runs."""
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.dialects.func import FuncOp

    from xdsl_spatial.core import ir_io
    from xdsl_spatial.interpreters import runner

    counts = {"verify_module": 0, "ModuleOp.verify": 0, "FuncOp.verify": 0}

    def counted(name, f):
        def wrapper(*a, **k):
            counts[name] += 1
            return f(*a, **k)

        return wrapper

    mod = counted("verify_module", ir_io.verify_module)
    for where in (ir_io, spatial_opt):
        monkeypatch.setattr(where, "verify_module", mod)
    monkeypatch.setattr(ModuleOp, "verify", counted("ModuleOp.verify", ModuleOp.verify))
    monkeypatch.setattr(FuncOp, "verify", counted("FuncOp.verify", FuncOp.verify))
    assert runner.verified  # the engines verify through FuncOp.verify
    return counts


def test_spatial_opt_verifies_the_input_and_the_result_once(verifications, capsys):
    assert spatial_opt.main(["-p", "q8-lower{optimize=true},cse", str(EXAMPLE)]) == 0
    assert verifications == {"verify_module": 2, "ModuleOp.verify": 0, "FuncOp.verify": 0}


def test_spatial_opt_verify_each_verifies_after_every_pass(verifications, capsys):
    argv = ["-p", "q8-lower{optimize=true},cse", "--verify-each", str(EXAMPLE)]
    assert spatial_opt.main(argv) == 0
    # xdsl-opt's: before the first pass and after each (the function in each); then
    # once with dominance
    assert verifications == {"verify_module": 2, "ModuleOp.verify": 3, "FuncOp.verify": 3}


def test_spatial_run_verifies_the_input_and_the_result_once(verifications, small, capsys):
    assert spatial_run.main([str(small), "--seed", "0", "-p", "q8-lower,cse"]) == 0
    assert verifications == {"verify_module": 2, "ModuleOp.verify": 0, "FuncOp.verify": 0}
    for k in verifications:
        verifications[k] = 0
    assert spatial_run.main([str(small), "--seed", "0", "--compare"]) == 0
    assert verifications == {"verify_module": 2, "ModuleOp.verify": 0, "FuncOp.verify": 0}
