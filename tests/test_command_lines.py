"""A sweep of command lines, right and wrong, through every tool: each exits with the
code in the table, with no traceback and no internal error, and an error is one
diagnostic. The files it names are made by the `files` fixture: `mm.mlir` (a Q8_0
matmul, K = 64, N = 32), `two.mlir` (two functions), `empty.mlir`, `bin.mlir` (not
text), `latin.mlir` (not UTF-8), `long.mlir` (a megabyte-long comment), `dir.mlir`
and `outdir` (directories), `good.npz` and broken inputs, `x.npy`, `tiny.gguf` (Q8_0,
Q4_1, a 1-d and a K = 48 tensor), `cut.gguf` and `head.gguf` (truncated),
`notgguf.gguf`, and `t.mlir`, `t33.mlir` (`spatial-gguf tiny.gguf --emit`, batch 1
and 33). Each tool runs in this process, from that directory.
"""

from __future__ import annotations

import io
import os
import re
import shlex
import sys
from pathlib import Path

import numpy as np
import pytest

from xdsl_spatial.tools import spatial_gguf, spatial_opt, spatial_run
from xdsl_spatial.tools.spatial_gguf import q8_matmul_func

MAINS = {
    "spatial-opt": spatial_opt.main,
    "spatial-run": spatial_run.main,
    "spatial-gguf": spatial_gguf.main,
}

# Exit code, then the command line.
TABLE = """\
0  spatial-opt
0  spatial-opt --help
2  spatial-opt mm.mlir -p
0  spatial-opt mm.mlir -p ''
1  spatial-opt mm.mlir -p ','
1  spatial-opt mm.mlir -p 'q8-lower{'
0  spatial-opt mm.mlir -p 'q8-lower{}'
0  spatial-opt mm.mlir -p 'q8-lower{local-mem}'
1  spatial-opt mm.mlir -p 'q8-lower{local-mem=}'
1  spatial-opt mm.mlir -p 'q8-lower{local-mem=1,2}'
1  spatial-opt mm.mlir -p 'q8-lower{local-mem=1.5}'
0  spatial-opt mm.mlir -p 'q8-lower{local-mem=99999999999999999999999}'
1  spatial-opt mm.mlir -p 'q8-lower{local-mem=0}'
1  spatial-opt mm.mlir -p 'q8-lower{acc-tiles=0}'
0  spatial-opt mm.mlir -p 'q8-lower{tile-rows=16}'
1  spatial-opt mm.mlir -p 'q8-lower{tile-rows=0}'
1  spatial-opt mm.mlir -p 'q8-lower{preset=nope}'
1  spatial-opt mm.mlir -p 'q8-lower{preset=1}'
0  spatial-opt mm.mlir -p 'q8-lower{preset="tensix"}'
1  spatial-opt mm.mlir -p 'q8-lower{report}'
1  spatial-opt mm.mlir -p 'q8-lower{report=1}'
0  spatial-opt mm.mlir -p 'q8-lower,q8-lower'
0  spatial-opt mm.mlir -p 'q8-lower,cse,canonicalize,dce'
1  spatial-opt mm.mlir -p 'builtin.module(q8-lower)'
0  spatial-opt mm.mlir -p 'q8-lower{local-mem=1024}'
0  spatial-opt mm.mlir -p 'linalg-generalize-named-ops'
1  spatial-opt mm.mlir -p 'convert-linalg-to-loops'
0  spatial-opt mm.mlir -p 'lower-affine'
2  spatial-opt mm.mlir -t nope
1  spatial-opt mm.mlir -t riscv-asm
2  spatial-opt mm.mlir -f nope
0  spatial-opt mm.mlir --print-op-generic
0  spatial-opt mm.mlir --print-debuginfo
0  spatial-opt mm.mlir --split-input-file
0  spatial-opt mm.mlir --verify-diagnostics
0  spatial-opt mm.mlir --parsing-diagnostics
0  spatial-opt mm.mlir --no-implicit-module
0  spatial-opt mm.mlir --allow-unregistered-dialect
0  spatial-opt empty.mlir
1  spatial-opt empty.mlir --no-implicit-module
1  spatial-opt bin.mlir
1  spatial-opt latin.mlir
0  spatial-opt long.mlir
1  spatial-opt dir.mlir
1  spatial-opt nofile.mlir
0  spatial-opt /dev/null
1  spatial-opt mm.mlir -o outdir
1  spatial-opt mm.mlir -o nodir/x.mlir
1  spatial-opt mm.mlir -o /dev/full
1  spatial-opt mm.mlir -o /proc/x.mlir
1  spatial-opt good.npz
1  spatial-opt x.npy
2  spatial-opt mm.mlir extra.mlir
2  spatial-run
0  spatial-run --help
1  spatial-run mm.mlir
0  spatial-run mm.mlir --seed 0
2  spatial-run mm.mlir --seed -1
2  spatial-run mm.mlir --seed x
0  spatial-run mm.mlir --seed 99999999999999999999999999
0  spatial-run mm.mlir --seed 0x10
1  spatial-run mm.mlir --entry nope --seed 0
1  spatial-run mm.mlir --entry '' --seed 0
1  spatial-run two.mlir --seed 0
0  spatial-run two.mlir --entry b --seed 0 --compare
0  spatial-run mm.mlir --inputs good.npz
0  spatial-run mm.mlir --inputs good.npz --print
1  spatial-run mm.mlir --inputs keys.npz
1  spatial-run mm.mlir --inputs scalar.npz --seed 0
1  spatial-run mm.mlir --inputs obj.npz --seed 0
1  spatial-run mm.mlir --inputs bf.npz --seed 0
1  spatial-run mm.mlir --inputs cplx.npz --seed 0
1  spatial-run mm.mlir --inputs str.npz --seed 0
1  spatial-run mm.mlir --inputs x.npy
1  spatial-run mm.mlir --inputs empty.npz
1  spatial-run mm.mlir --inputs nofile.npz
1  spatial-run mm.mlir --inputs outdir
1  spatial-run mm.mlir --inputs /dev/null
1  spatial-run mm.mlir --inputs mm.mlir
1  spatial-run mm.mlir --seed 0 --outputs outdir
1  spatial-run mm.mlir --seed 0 --outputs nodir/o.npz
1  spatial-run mm.mlir --seed 0 --outputs /dev/full
0  spatial-run mm.mlir --seed 0 --outputs /dev/null
0  spatial-run mm.mlir --seed 0 --outputs o.npz
0  spatial-run mm.mlir --seed 0 --outputs o
1  spatial-run mm.mlir --seed 0 -p 'q8-lower{'
1  spatial-run mm.mlir --seed 0 -p nope
1  spatial-run mm.mlir --seed 0 -p 'convert-linalg-to-loops'
0  spatial-run mm.mlir --seed 0 -p 'linalg-generalize-named-ops'
0  spatial-run mm.mlir --seed 0 -p 'lower-affine'
0  spatial-run mm.mlir --seed 0 -p 'q8-lower,canonicalize'
0  spatial-run mm.mlir --seed 0 -p 'q8-lower,cse,dce'
0  spatial-run mm.mlir --seed 0 --compare -p 'q8-lower{local-mem=1024}'
1  spatial-run mm.mlir --seed 0 --weights notgguf.gguf
1  spatial-run mm.mlir --seed 0 --weights nofile.gguf
1  spatial-run mm.mlir --seed 0 --weights outdir
1  spatial-run mm.mlir --seed 0 --weights mm.mlir
0  spatial-run mm.mlir --seed 0 --requantize
1  spatial-run empty.mlir --seed 0
1  spatial-run bin.mlir --seed 0
1  spatial-run dir.mlir --seed 0
1  spatial-run /dev/null --seed 0
1  spatial-run nofile.mlir --seed 0
0  spatial-run mm.mlir --seed 0 --stats --print --compare
2  spatial-gguf
0  spatial-gguf --help
1  spatial-gguf nofile.gguf
1  spatial-gguf notgguf.gguf
1  spatial-gguf outdir
1  spatial-gguf /dev/null
1  spatial-gguf mm.mlir
1  spatial-gguf notgguf.gguf --emit
1  spatial-gguf notgguf.gguf --emit --batch 1099511627776
2  spatial-gguf notgguf.gguf --emit --batch -1
1  spatial-gguf notgguf.gguf --emit --layer -1
2  spatial-gguf notgguf.gguf --emit --layer x
1  spatial-gguf notgguf.gguf --emit --tensors ''
1  spatial-gguf notgguf.gguf --emit -o outdir
2  spatial-gguf notgguf.gguf -o x.mlir
2  spatial-gguf notgguf.gguf --list --emit
0  spatial-gguf tiny.gguf
1  spatial-gguf cut.gguf
1  spatial-gguf head.gguf
0  spatial-gguf tiny.gguf --emit
0  spatial-gguf tiny.gguf --emit --layer 0
1  spatial-gguf tiny.gguf --emit --layer 7
1  spatial-gguf tiny.gguf --emit --tensors odd.weight
1  spatial-gguf tiny.gguf --emit --tensors blk.0.norm.weight
1  spatial-gguf tiny.gguf --emit --tensors ,,,
0  spatial-gguf tiny.gguf --emit --batch 33 --act f32 --scale-type f32 -o t33.mlir
1  spatial-gguf tiny.gguf --emit --batch 1099511627776
1  spatial-gguf tiny.gguf --emit -o /dev/full
0  spatial-gguf tiny.gguf --emit -o /dev/null
0  spatial-run t.mlir --entry blk_0_attn_q --weights tiny.gguf --seed 0 --compare --stats
1  spatial-run t.mlir --entry blk_0_ffn_up --weights tiny.gguf --seed 0
0  spatial-run t.mlir --entry blk_0_ffn_up --weights tiny.gguf --requantize --seed 0 -p q8-lower
1  spatial-run t.mlir --entry blk_0_attn_q --weights cut.gguf --seed 0
1  spatial-run t.mlir --entry blk_0_attn_q --weights head.gguf --seed 0
1  spatial-run t.mlir --entry blk_0_attn_q --weights tiny.gguf
0  spatial-run t.mlir --entry blk_0_attn_q --weights tiny.gguf --inputs good.npz
1  spatial-run mm.mlir --weights tiny.gguf --seed 0
0  spatial-run t33.mlir --entry blk_0_attn_q --weights tiny.gguf --seed 0 --compare
"""

CASES = [(int(c), line) for c, line in (row.split(None, 1) for row in TABLE.splitlines())]


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("sweep")
    module = lambda *fs: "builtin.module {\n" + "".join(fs) + "}\n"
    (d / "mm.mlir").write_text(module(q8_matmul_func("mm", "W", 64, 32, 1, "bf16", "f16")))
    (d / "two.mlir").write_text(
        module(
            q8_matmul_func("a", "W", 64, 32, 1, "bf16", "f16"),
            q8_matmul_func("b", "V", 64, 32, 1, "bf16", "f16"),
        )
    )
    (d / "empty.mlir").write_text("")
    (d / "bin.mlir").write_bytes(bytes(range(256)) * 4)
    (d / "latin.mlir").write_bytes(
        "func.func @f() { // caf\xe9\n func.return\n}\n".encode("latin-1")
    )
    (d / "long.mlir").write_text("func.func @f() {\n  func.return\n}\n// " + "x" * 1_000_000 + "\n")
    (d / "dir.mlir").mkdir()
    (d / "outdir").mkdir()
    np.savez(
        d / "good.npz",
        arg0=np.ones((1, 64), np.float32),
        arg1=np.ones((64, 32), np.int8),
        arg2=np.full((2, 32), 0.01, np.float16),
    )
    np.savez(d / "keys.npz", x=np.ones(3))
    np.savez(d / "scalar.npz", arg0=np.float32(1.0))
    np.savez(d / "obj.npz", arg0=np.array([1, "a"], dtype=object))
    np.savez(
        d / "bf.npz", arg0=np.ones((1, 64), np.float32).view(np.uint32).astype(np.uint16).view("V2")
    )
    np.savez(d / "cplx.npz", arg0=np.ones((1, 64), np.complex64))
    np.savez(d / "str.npz", arg0=np.array([["a"] * 64]))
    np.save(d / "x.npy", np.ones((1, 64), np.float32))
    (d / "empty.npz").write_text("")
    (d / "notgguf.gguf").write_text("hello")
    from gguf import GGMLQuantizationType as T
    from gguf import GGUFWriter
    from gguf.quants import quantize

    rng = np.random.default_rng(0)
    w = GGUFWriter(d / "tiny.gguf", "llama")
    w.add_tensor(
        "blk.0.attn_q.weight",
        quantize(rng.standard_normal((32, 64)).astype(np.float32), T.Q8_0),
        raw_dtype=T.Q8_0,
    )
    w.add_tensor(
        "blk.0.ffn_up.weight",
        quantize(rng.standard_normal((32, 64)).astype(np.float32), T.Q4_1),
        raw_dtype=T.Q4_1,
    )
    w.add_tensor("blk.0.norm.weight", rng.standard_normal(64).astype(np.float32))
    w.add_tensor("odd.weight", rng.standard_normal((4, 48)).astype(np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    data = (d / "tiny.gguf").read_bytes()
    (d / "cut.gguf").write_bytes(data[: len(data) // 2])
    (d / "head.gguf").write_bytes(data[:40])
    assert spatial_gguf.main([str(d / "tiny.gguf"), "--emit", "-o", str(d / "t.mlir")]) == 0
    assert (
        spatial_gguf.main(
            [str(d / "tiny.gguf"), "--emit", "--batch", "33", "-o", str(d / "t33.mlir")]
        )
        == 0
    )
    return d


@pytest.mark.parametrize("code,line", CASES, ids=[line for _, line in CASES])
def test_command_line(files, monkeypatch, capsys, code, line):
    argv = shlex.split(line)
    for device in ("/dev/full", "/proc"):
        if any(a.startswith(device) for a in argv) and not os.path.exists(device):
            pytest.skip(f"no {device} on this machine")
    monkeypatch.chdir(files)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    capsys.readouterr()
    got = MAINS[argv[0]](argv[1:])
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error" not in err, err
    assert got == code, err
    if code == 1:
        # One diagnostic: one error line (notes and warnings before it aside).
        assert len(re.findall(r"(^|\n)\S[^\n]*: error: ", err)) == 1, err
    if code == 2:
        assert "error: " in err, err
