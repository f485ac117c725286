"""Every tool, misused: each bad input or command line gets one diagnostic naming what
is wrong, exit code 1 (2 for a usage error argparse refuses), no traceback, no hang,
and no existing file changed.

Most cases run the tool's `main` in this process (what the console script calls); the
ones that once hung or crashed the process also run as a subprocess with a time limit.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from xdsl_spatial.tools import spatial_gguf, spatial_opt, spatial_run
from xdsl_spatial.tools.spatial_gguf import q8_matmul_func

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "gemv_q8.mlir"
TOOLS = {
    "spatial-opt": spatial_opt.main,
    "spatial-run": spatial_run.main,
    "spatial-gguf": spatial_gguf.main,
}


def run(capsys, tool: str, *argv: object) -> tuple[int, str, str]:
    """The tool's exit code, stdout and stderr, run in this process."""
    code = TOOLS[tool]([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err, err
    return code, out, err


def run_process(tool: str, *argv: object, timeout: float = 60) -> subprocess.CompletedProcess:
    """The console script, as a process; a hang fails the test after `timeout` s."""
    exe = Path(sys.executable).with_name(tool)
    r = subprocess.run([str(exe), *map(str, argv)], capture_output=True, text=True, timeout=timeout)
    assert "Traceback" not in r.stderr, r.stderr
    return r


def mlir(tmp_path: Path, text: str, name: str = "in.mlir") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def matmul(k: int, n: int, m: int = 1, act: str = "bf16", scale: str = "f16") -> str:
    return "builtin.module {\n" + q8_matmul_func("mm", "W", k, n, m, act, scale) + "}\n"


def small_inputs(tmp_path: Path, **override: np.ndarray) -> Path:
    """Inputs for `matmul(64, 32)`: x 1x64, values 64x32 int8, scales 2x32 f16."""
    rng = np.random.default_rng(0)
    a = {
        "arg0": rng.standard_normal((1, 64)).astype(np.float32),
        "arg1": rng.integers(-127, 128, (64, 32)).astype(np.int8),
        "arg2": rng.uniform(0.01, 0.02, (2, 32)).astype(np.float16),
        **override,
    }
    p = tmp_path / "in.npz"
    np.savez(p, **a)
    return p


def write_q8_checkpoint(path: Path, bad_scale: tuple[int, int] | None = None) -> Path:
    """A GGUF holding one Q8_0 weight, blk.0.attn_q.weight (K = 64, N = 8); with
    `bad_scale` = (row, block), that block's fp16 scale is inf."""
    from gguf import GGMLQuantizationType, GGUFWriter
    from gguf.quants import quantize

    raw = quantize(
        np.random.default_rng(4).standard_normal((8, 64)).astype(np.float32),
        GGMLQuantizationType.Q8_0,
    )
    if bad_scale is not None:
        raw = raw.copy()
        row, block = bad_scale
        raw.reshape(8, 2, 34)[row, block, :2] = np.array([np.inf], np.float16).view(np.uint8)
    writer = GGUFWriter(path, "llama")
    writer.add_tensor("blk.0.attn_q.weight", raw, raw_dtype=GGMLQuantizationType.Q8_0)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


USE_BEFORE_DEF = """\
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.addf %b, %a : tensor<4xf32>
  %b = arith.addf %a, %a : tensor<4xf32>
  func.return %c : tensor<4xf32>
}
"""


# --------------------------------------------------------------------------------------
# The IR: parsing and verifying
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("tool", ["spatial-opt", "spatial-run"])
def test_a_value_used_before_its_definition_is_a_dominance_error(tmp_path, capsys, tool):
    f = mlir(tmp_path, USE_BEFORE_DEF)
    argv = [f] if tool == "spatial-opt" else [f, "--seed", "0"]
    code, _, err = run(capsys, tool, *argv)
    assert code == 1
    assert err.splitlines() == [
        f"{f}:2:3: error: 'arith.addf' op operand #0 (%b) does not dominate this use: "
        f"it is defined after this use, at {f}:3:3",
        "  %c = arith.addf %b, %a : tensor<4xf32>",
    ]


def test_dominance_across_blocks_and_regions(tmp_path, capsys):
    # A value of one branch used in the other; a value from inside a region used after it.
    branches = """\
func.func @f(%c: i1, %a: f32) -> f32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %x = arith.addf %a, %a : f32
  cf.br ^bb3
^bb2:
  %y = arith.mulf %x, %a : f32
  cf.br ^bb3
^bb3:
  func.return %a : f32
}
"""
    code, _, err = run(capsys, "spatial-opt", mlir(tmp_path, branches))
    assert (
        code == 1 and "'arith.mulf' op operand #0 (%x) does not dominate this use: its block" in err
    )
    fine = branches.replace("%y = arith.mulf %x, %a", "%y = arith.mulf %a, %a")
    assert run(capsys, "spatial-opt", mlir(tmp_path, fine, "fine.mlir"))[0] == 0


def test_an_operand_defined_only_inside_the_ops_own_region_is_a_dominance_error(tmp_path, capsys):
    # The parser keeps a placeholder for a use whose definition it met only inside
    # the using op's own region (a loop's init value defined in its body): a
    # diagnostic naming the op, not an internal error.
    text = """\
func.func @f(%a: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%acc = %in) -> (f32) {
    %in = arith.addf %a, %a : f32
    scf.yield %in : f32
  }
  func.return %r : f32
}
"""
    f = mlir(tmp_path, text)
    code, _, err = run(capsys, "spatial-opt", f)
    assert code == 1
    assert err.splitlines()[0] == (
        f"{f}:4:3: error: 'scf.for' op operand #3 (a value) does not dominate this use: "
        "it is defined nowhere this use can see (later, or inside a region)"
    )


@pytest.mark.parametrize(
    "attr,kind",
    [
        ("dense<1.0> : tensor<9223372036854775807xf32>", "9,223,372,036,854,775,807 elements"),
        (
            'dense<"0x0000803F"> : tensor<9223372036854775808xf32>',
            "9,223,372,036,854,775,808 elements",
        ),
        ("dense<1.0> : tensor<4294967296x4xf32>", "17,179,869,184 elements"),
    ],
)
def test_a_dense_attribute_too_large_to_parse_is_refused_before_parsing(
    tmp_path, capsys, attr, kind
):
    shape = attr.split(": ")[1]
    f = mlir(
        tmp_path,
        f"func.func @f() -> {shape} {{\n  %c = arith.constant {attr}\n  func.return %c : {shape}\n}}\n",
    )
    code, _, err = run(capsys, "spatial-opt", f)
    assert code == 1
    assert err.startswith(f"{f}:2:23: error: dense attribute of {kind}")
    assert "would need" in err and "more than the memory limit" in err


def test_an_unterminated_string_literal_is_refused_at_once(tmp_path):
    # xDSL's lexer backtracks exponentially over it: 500 characters took minutes.
    f = mlir(tmp_path, 'func.func @f() {\n  "test.op"() {a = "' + "ab " * 200 + "} : () -> ()\n}\n")
    r = run_process("spatial-opt", f, timeout=30)
    assert r.returncode == 1
    assert r.stderr.startswith(
        f"{f}:2:20: error: unterminated string literal: no closing '\"' on this line\n"
    )
    bad_escape = mlir(tmp_path, '"test.op"() {a = "\\q' + "x" * 500 + '"} : () -> ()\n', "esc.mlir")
    r = run_process("spatial-opt", bad_escape, timeout=30)
    assert r.returncode == 1 and "invalid escape sequence '\\q'" in r.stderr


def test_a_matmul_cut_off_after_ins_names_the_matmul(tmp_path, capsys):
    f = mlir(
        tmp_path,
        "func.func @f(%x: tensor<1x64xf32>, %w: tensor<64x32xf32>) -> tensor<1x32xf32> {\n"
        "  %y = linalg.matmul ins(%x, %w : tensor<1x64xf32>, tensor<64x32xf32>)\n"
        "  func.return %y : tensor<1x32xf32>\n}\n",
    )
    code, _, err = run(capsys, "spatial-opt", f)
    assert code == 1
    assert err.startswith(
        f"{f}:2:3: error: 'linalg.matmul' op a matmul takes two inputs, ins(A, B), and one "
        "accumulator, outs(C); got 2 inputs and 0 outputs"
    )


def test_other_linalg_ops_cut_short_name_the_op(tmp_path, capsys):
    f = mlir(tmp_path, "func.func @f() {\n  %acc = linalg.fill i\n}\n")
    code, _, err = run(capsys, "spatial-opt", f)
    assert code == 1 and err.startswith(f"{f}:2:3: error: 'linalg.fill' op cannot be parsed")


@pytest.mark.parametrize(
    "line,message",
    [
        (
            '%b = spatial.buffer "in_q8" : !spatial.buffer<256xi8, depth 0>',
            "'spatial.buffer' op buffer depth must be at least 1, got 0",
        ),
        (
            '%p = "test.op"() : () -> !spatial.page<0xf32>',
            "'test.op' op a page holds at least 1 tile, got 0",
        ),
        (
            '"test.op"() {t = #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 0, acc_tiles = 1>} : () -> ()',
            "'test.op' op local memory must be at least 1 byte, got 0",
        ),
    ],
)
def test_an_attribute_or_type_that_does_not_verify_names_its_op(tmp_path, capsys, line, message):
    f = mlir(tmp_path, "func.func @f() {\n  " + line + "\n  func.return\n}\n")
    code, _, err = run(capsys, "spatial-opt", f)
    assert code == 1
    assert err.splitlines()[:3] == [f"{f}:2:3: error: {message}", "  " + line, "  ^"]


def test_an_integer_beyond_int64_in_a_program_is_a_diagnostic(tmp_path, capsys):
    text = (ROOT / "examples" / "bad" / "unwritten_output_tiles.mlir").read_text()
    huge = text.replace("stride 16 repeat 1 :", "stride 18446744073709551616 repeat 1 :", 1)
    assert huge != text
    code, _, err = run(capsys, "spatial-opt", mlir(tmp_path, huge))
    assert code == 1 and ": error: 'spatial." in err


def test_a_comment_only_file_is_an_empty_module(tmp_path, capsys):
    code, out, _ = run(capsys, "spatial-opt", mlir(tmp_path, "// nothing here\n"))
    assert code == 0 and out.split() == ["builtin.module", "{", "}"]


# --------------------------------------------------------------------------------------
# Pipelines and options
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec,message",
    [
        ("q8-lower{", "pass pipeline 'q8-lower{': expected argument name here at column 10"),
        (
            "q8-lower}",
            "pass pipeline 'q8-lower}': expected a comma or pass arguments here at column 9",
        ),
        ("q8-lowr", "unknown pass 'q8-lowr' in the pipeline (did you mean q8-lower?)"),
        (
            "q8-lower{nope=1}",
            "pass q8-lower has no option 'nope' (its options: preset, local-mem, acc-tiles, tile-rows, tile-cols, act, chips, split, report, optimize)",
        ),
        ("q8-lower{local-mem=abc}", "option local-mem of pass q8-lower takes an integer, got abc"),
        ("q8-lower{report=maybe}", "option report of pass q8-lower takes true or false, got maybe"),
        ("q8-lower{local-mem=-5}", "q8-lower: local-mem must be positive, got -5"),
    ],
)
@pytest.mark.parametrize("tool", ["spatial-opt", "spatial-run"])
def test_a_bad_pipeline_is_one_line_with_options_as_users_spell_them(capsys, tool, spec, message):
    argv = ["-p", spec, EXAMPLE] if tool == "spatial-opt" else [EXAMPLE, "-p", spec, "--seed", "0"]
    code, out, err = run(capsys, tool, *argv)
    assert code == 1 and out == ""
    assert err == f"{tool}: error: {message}\n"


def test_spatial_run_seed_must_be_non_negative(capsys):
    code, _, err = run(capsys, "spatial-run", EXAMPLE, "--seed", "-1")
    assert code == 2
    assert (
        err
        == "spatial-run: error: argument --seed: expected a non-negative integer, got -1 (see spatial-run --help)\n"
    )


@pytest.mark.parametrize("tool", ["spatial-opt", "spatial-run", "spatial-gguf"])
def test_a_missing_input_file_is_named(tmp_path, capsys, tool):
    missing = tmp_path / "absent.mlir"
    code, _, err = run(capsys, tool, missing)
    assert code == 1 and str(missing) in err and len(err.splitlines()) == 1
    assert "No such file" in err or "cannot read" in err


def test_a_directory_as_input_is_named(tmp_path, capsys):
    code, _, err = run(capsys, "spatial-opt", tmp_path)
    assert (
        code == 1
        and err == f"spatial-opt: error: cannot read input '{tmp_path}': it is a directory\n"
    )


# --------------------------------------------------------------------------------------
# spatial-run's inputs and allocations
# --------------------------------------------------------------------------------------


def test_inputs_as_an_npy_file_are_refused(tmp_path, capsys):
    f = mlir(tmp_path, matmul(64, 32))
    npy = tmp_path / "x.npy"
    np.save(npy, np.zeros((1, 64), np.float32))
    code, _, err = run(capsys, "spatial-run", f, "--inputs", npy)
    assert code == 1
    assert err.startswith(
        f"spatial-run: error: cannot read inputs '{npy}': a .npy file; --inputs takes an .npz"
    )


def test_int32_and_bool_for_int8_are_taken_only_when_every_value_fits(tmp_path, capsys):
    f = mlir(tmp_path, matmul(64, 32))
    fits = np.random.default_rng(1).integers(-128, 128, (64, 32)).astype(np.int32)
    assert run(capsys, "spatial-run", f, "--inputs", small_inputs(tmp_path, arg1=fits))[0] == 0
    flags = np.random.default_rng(2).integers(0, 2, (64, 32)).astype(bool)
    assert run(capsys, "spatial-run", f, "--inputs", small_inputs(tmp_path, arg1=flags))[0] == 0
    wide = fits.copy()
    wide[3, 4] = 300
    code, _, err = run(capsys, "spatial-run", f, "--inputs", small_inputs(tmp_path, arg1=wide))
    assert code == 1
    assert err == (
        "spatial-run: error: arg1 (%W__q8) is int8 but 1 of its int32 values leave [-128, 127] (e.g. 300)\n"
    )


def test_nan_in_an_input_is_one_warning_naming_the_argument(tmp_path, capsys):
    f = mlir(tmp_path, matmul(64, 32))
    x = np.random.default_rng(3).standard_normal((1, 64)).astype(np.float32)
    x[0, 5] = np.nan
    x[0, 9] = np.inf
    code, out, err = run(
        capsys, "spatial-run", f, "--inputs", small_inputs(tmp_path, arg0=x), "--compare"
    )
    assert code == 0 and "max |before - after|" in out
    lines = err.splitlines()
    assert lines[0] == (
        "spatial-run: warning: arg0 (%x): 2 of its 64 values are NaN or inf; the run goes on and they propagate"
    )
    assert "RuntimeWarning" not in err and len([x for x in lines if "arg0" in x]) == 1


def test_a_scale_beyond_f16_warns_that_it_became_inf(tmp_path, capsys):
    f = mlir(tmp_path, matmul(64, 32))
    s = np.full((2, 32), 0.01, np.float32)
    s[1, 3] = 1e6  # beyond float16's 65504
    code, _, err = run(capsys, "spatial-run", f, "--inputs", small_inputs(tmp_path, arg2=s))
    assert code == 0
    assert (
        "arg2 (%W__q8_scale): 1 of its 64 values are NaN or inf (1 of them finite values beyond float16's range)"
        in err
    )


def test_k_zero_with_n_two_to_the_31_says_how_many_bytes_before_allocating(
    tmp_path, capsys, monkeypatch
):
    monkeypatch.setenv("XDSL_SPATIAL_MEMORY_LIMIT", "16G")
    f = mlir(tmp_path, matmul(0, 2**31))
    code, _, err = run(capsys, "spatial-run", f, "--seed", "0")
    assert code == 1
    assert err.startswith(
        f"{f}:2:3: error: @mm holds 25,769,803,776 bytes (24.0 GiB) of tensors at once, more than "
        "the memory limit of 17,179,869,184 bytes (16.0 GiB)"
    )
    assert "the largest is 'tensor.empty' op result tensor<1x2147483648xf32>" in err


def test_a_malformed_memory_limit_is_refused_naming_the_variable(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XDSL_SPATIAL_MEMORY_LIMIT", "lots")
    f = mlir(tmp_path, "func.func @f() {\n  func.return\n}\n")
    for tool in ("spatial-run", "spatial-opt"):
        code, out, err = run(capsys, tool, f)
        assert code == 1 and out == ""
        assert err.splitlines() == [
            f"{tool}: error: XDSL_SPATIAL_MEMORY_LIMIT=lots: expected a byte count such as "
            "1048576, 512M or 4G, got 'lots'"
        ]


def test_stats_json_into_a_missing_directory_is_refused_before_the_run(tmp_path, capsys):
    code, _, err = run(
        capsys, "spatial-run", EXAMPLE, "--seed", "0", "--stats-json", "nodir/t.json"
    )
    assert code == 1 and "cannot write --stats-json 'nodir/t.json': no directory" in err


def test_a_tensor_larger_than_memory_is_refused_naming_its_op(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XDSL_SPATIAL_MEMORY_LIMIT", "1G")
    text = (
        "func.func @f() -> tensor<65536x8192xf32> {\n"
        "  %e = tensor.empty() : tensor<65536x8192xf32>\n"
        "  func.return %e : tensor<65536x8192xf32>\n}\n"
    )
    f = mlir(tmp_path, text)
    code, _, err = run(capsys, "spatial-run", f)
    assert code == 1
    assert err.splitlines() == [
        f"{f}:2:3: error: 'tensor.empty' op result tensor<65536x8192xf32> needs 2,147,483,648 "
        "bytes (2.0 GiB), more than the memory limit of 1,073,741,824 bytes (1.0 GiB) (set "
        "by XDSL_SPATIAL_MEMORY_LIMIT)",
        "  %e = tensor.empty() : tensor<65536x8192xf32>",
    ]


def test_an_argument_too_large_to_draw_is_refused_before_drawing(tmp_path, capsys):
    f = mlir(tmp_path, matmul(64, 2**40))
    code, _, err = run(capsys, "spatial-run", f, "--seed", "0")
    assert code == 1
    assert err.startswith(
        "spatial-run: error: arg1 (%W__q8): tensor<64x1099511627776xi8> needs 70,368,744,177,664 bytes (64.0 TiB)"
    )


@pytest.mark.parametrize("n,k", [(0, 64), (32, 0)])
def test_degenerate_shapes_run_or_get_a_message_about_the_op(tmp_path, capsys, n, k):
    f = mlir(tmp_path, matmul(k, n))
    for extra in ([], ["-p", "q8-lower"]):
        code, out, err = run(capsys, "spatial-run", f, "--seed", "0", "--print", *extra)
        assert code == 0, err
        assert f"res0: 1x{n} float32" in out
    if k == 0:  # an empty sum: zeros
        assert "[[0. 0. 0." in out


# --------------------------------------------------------------------------------------
# Outputs: written whole, or not at all
# --------------------------------------------------------------------------------------


def test_spatial_opt_output_survives_a_failed_run(tmp_path, capsys):
    out = tmp_path / "out.mlir"
    out.write_text("previous")
    bad = mlir(tmp_path, USE_BEFORE_DEF)
    assert run(capsys, "spatial-opt", bad, "-o", out)[0] == 1
    assert run(capsys, "spatial-opt", "-p", "q8-lower{", EXAMPLE, "-o", out)[0] == 1
    assert out.read_text() == "previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.mlir", "out.mlir"]
    assert run(capsys, "spatial-opt", "-p", "q8-lower", EXAMPLE, "-o", out)[0] == 0
    assert "spatial.fold" in out.read_text()


@pytest.mark.parametrize("tool", ["spatial-opt", "spatial-run", "spatial-gguf"])
def test_an_output_into_a_missing_directory_or_onto_a_directory(tmp_path, capsys, tool):
    option = {"spatial-opt": "-o", "spatial-run": "--outputs", "spatial-gguf": "-o"}[tool]
    for target, why in (
        (tmp_path / "no" / "such" / "out", "no directory"),
        (tmp_path, "it is a directory"),
    ):
        if tool == "spatial-opt":
            argv = [EXAMPLE, "-o", target]
        elif tool == "spatial-run":
            argv = [EXAMPLE, "--seed", "0", "--outputs", target]
        else:
            argv = [ROOT / "README.md", "--emit", "-o", target]
        code, _, err = run(capsys, tool, *argv)
        assert code == 1
        assert err.startswith(f"{tool}: error: cannot write {option} '{target}': {why}"), err


def test_spatial_run_outputs_survive_a_failed_run(tmp_path, capsys):
    f = mlir(tmp_path, matmul(64, 32))
    out = tmp_path / "out.npz"
    out.write_bytes(b"previous")
    wide = np.full((64, 32), 300, np.int32)
    assert (
        run(
            capsys,
            "spatial-run",
            f,
            "--inputs",
            small_inputs(tmp_path, arg1=wide),
            "--outputs",
            out,
        )[0]
        == 1
    )
    assert run(capsys, "spatial-run", f, "-p", "q8-lower{", "--seed", "0", "--outputs", out)[0] == 1
    assert out.read_bytes() == b"previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.mlir", "in.npz", "out.npz"]
    mode = 0o640
    os.chmod(out, mode)
    assert run(capsys, "spatial-run", f, "--seed", "0", "--outputs", out)[0] == 0
    with np.load(out) as z:
        assert z["res0"].shape == (1, 32)
    assert os.stat(out).st_mode & 0o777 == mode  # the file keeps its permissions


def test_spatial_gguf_output_survives_a_failed_run(tmp_path, capsys):
    ckpt = write_q8_checkpoint(tmp_path / "m.gguf")
    out = tmp_path / "out.mlir"
    out.write_text("previous")
    assert run(capsys, "spatial-gguf", ckpt, "--emit", "--tensors", "nope", "-o", out)[0] == 1
    assert run(capsys, "spatial-gguf", ckpt, "--emit", "--batch", 2**40, "-o", out)[0] == 1
    assert out.read_text() == "previous"
    assert run(capsys, "spatial-gguf", ckpt, "--emit", "-o", out)[0] == 0
    assert "func.func @blk_0_attn_q" in out.read_text()


# --------------------------------------------------------------------------------------
# GGUF: scales that are not numbers
# --------------------------------------------------------------------------------------


def test_a_q8_0_tensor_with_non_finite_scales_is_refused_naming_the_tensor(tmp_path, capsys):
    ckpt = write_q8_checkpoint(tmp_path / "m.gguf", bad_scale=(3, 1))
    f = tmp_path / "layer.mlir"
    assert run(capsys, "spatial-gguf", ckpt, "--emit", "-o", f)[0] == 0
    code, _, err = run(capsys, "spatial-run", f, "--weights", ckpt, "--seed", "0")
    assert code == 1
    assert err == (
        f"spatial-run: error: {ckpt}: tensor blk.0.attn_q.weight has 1 non-finite Q8_0 scale "
        "(NaN or inf), the first inf for K-rows 32..63 of column 3 (row 3, block 1 in the "
        "file); the file is corrupt\n"
    )


def test_an_output_through_a_symlink_or_to_a_device(tmp_path, capsys):
    real = tmp_path / "real.mlir"
    real.write_text("previous")
    link = tmp_path / "link.mlir"
    link.symlink_to(real)
    assert run(capsys, "spatial-opt", EXAMPLE, "-o", link)[0] == 0
    assert link.is_symlink() and "func.func @gemv" in real.read_text()
    # A device is written to, never replaced by a regular file.
    assert run(capsys, "spatial-opt", EXAMPLE, "-o", os.devnull)[0] == 0
    assert not os.path.isfile(os.devnull)


def test_a_grid_of_millions_of_items_is_refused_before_it_is_enumerated(tmp_path):
    # The verifiers check each item; 16M of them once took gigabytes before failing.
    text = (
        (ROOT / "examples" / "gemv_q8_lowered.mlir")
        .read_text()
        .replace("grid [16]", "grid [16777216]")
    )
    r = run_process("spatial-opt", mlir(tmp_path, text), timeout=60)
    assert r.returncode == 1
    assert (
        "program 'q8_gemv_2048x4096_w8': 16,777,216 items owning 1x8 tiles each need "
        "134,217,728 tiles, but its result (1x4096) has 128"
    ) in r.stderr
