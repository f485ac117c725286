"""The IR the conversions write, pinned: every example lowered (plainly and with
`optimize=true`) and converted (as it is, with `parallel=true`, with `amx=true`), and
the tiny llama's functions as the native engine converts them, each the same bytes as
`tests/converted_ir.sha256` records (`tests/converted_ir.py` names the cases and writes
the file). A change meant to keep every kernel keeps every digest; one that changes a
kernel on purpose records the new digests with it."""

from __future__ import annotations

import pytest

pytest.importorskip("gguf", reason="the tiny llama is written with gguf's GGUFWriter")

from converted_ir import PINS, digests, pinned


def test_the_converted_ir_is_the_pinned_ir():
    want = pinned()
    got = digests()
    assert got.keys() == want.keys(), "the cases changed: python tests/converted_ir.py --write"
    changed = sorted(name for name in got if got[name] != want[name])
    assert not changed, f"{len(changed)} case(s) differ from {PINS.name}: {changed[:8]}"
