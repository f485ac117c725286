"""`dense_resource` blobs (`core/resources.py`): a blob's alignment, its first four
bytes, is a power of two, as MLIR requires; another is a diagnostic at the constant."""

from __future__ import annotations

import pytest

from xdsl_spatial.core.ir_io import IRError, format_diagnostic, parse_module


def module(alignment: int) -> str:
    blob = alignment.to_bytes(4, "little").hex().upper() + "0000803F00000040"
    return (
        "func.func @main() -> tensor<2xf32> {\n"
        "  %c = arith.constant dense_resource<w> : tensor<2xf32>\n"
        "  func.return %c : tensor<2xf32>\n"
        "}\n"
        "{-#\n  dialect_resources: {\n    builtin: {\n"
        f'      w: "0x{blob}"\n'
        "    }\n  }\n#-}\n"
    )


@pytest.mark.parametrize("alignment", [1, 2, 4, 8, 64, 1 << 31])
def test_a_power_of_two_alignment_reads(alignment):
    assert "dense<[1.000000e+00, 2.000000e+00]>" in str(parse_module(module(alignment)))


@pytest.mark.parametrize("alignment", [0, 3, 6, 100, (1 << 32) - 1])
def test_another_alignment_is_a_diagnostic(alignment):
    with pytest.raises(IRError) as e:
        parse_module(module(alignment), "blob.mlir")
    assert format_diagnostic(e.value, "prog").startswith(
        f"blob.mlir:2:3: error: 'arith.constant' op dense_resource<w>: the blob's alignment "
        f"is {alignment}, not a power of two"
    )
