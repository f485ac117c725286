"""
Diagnostics located where the user can find them: a `spatial-generate --module`
file's own name and line (not `<module>`), and upstream MLIR's refusal of the native
engine's converted code at the user's function, the converted op quoted (not
`"-":7:10`, a line of a text the user never saw).
"""

from __future__ import annotations

from pathlib import Path

from native_engine import needs_native
from tiny_llama import write_tiny_llama

from xdsl_spatial.tools import spatial_generate, spatial_run

REPO = Path(__file__).resolve().parents[1]


def test_a_module_s_diagnostic_names_its_file(tmp_path, capsys):
    gguf = write_tiny_llama(tmp_path / "tiny.gguf")
    lines = (REPO / "examples" / "torch" / "llama_tiny.mlir").read_text().splitlines()
    at = next(i for i, ln in enumerate(lines) if "arith.addf" in ln)
    lines[at] = lines[at].replace("arith.addf", "arith.addf %nowhere,")
    module = tmp_path / "broken.mlir"
    module.write_text("\n".join(lines) + "\n")
    argv = [str(gguf), "--module", str(module), "--tokens", "5", "--steps", "1", "--no-cache"]
    assert spatial_generate.main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{module}:{at + 1}:"), err
    assert "<module>" not in err


def test_upstream_mlir_s_refusal_is_located_at_the_function(tmp_path, capsys):
    needs_native()
    path = tmp_path / "slice.mlir"
    path.write_text(
        "func.func @main(%a: tensor<4x8xf32>) -> tensor<2x8xf32> {\n"
        "  %s = tensor.extract_slice %a[3, 0] [2, 8] [1, 1] : tensor<4x8xf32> to tensor<2x8xf32>\n"
        "  func.return %s : tensor<2x8xf32>\n"
        "}\n"
    )
    assert spatial_run.main([str(path), "--seed", "0", "--engine", "native"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        f"{path}:1:1: error: upstream MLIR refused @main as converted for it: slice along "
        "dimension 0 runs out-of-bounds: 4 >= 4 (line "
    )
    assert "of the converted module: %s = tensor.extract_slice" in err
    assert '"-"' not in err
