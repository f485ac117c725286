"""Whether the native engine can run here, for the tests that need it."""

from __future__ import annotations

import pytest

from xdsl_spatial.interpreters.runner import native_available


def needs_native() -> None:
    """Skip the calling test, with the reason, where the native engine cannot run
    (`runner.native_available`: upstream MLIR's bindings missing or unusable)."""
    try:
        native_available()
    except Exception as e:
        pytest.skip(str(e))
