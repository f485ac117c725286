"""Every test's disk cache of built models (`XDSL_SPATIAL_CACHE`) is a directory of its
session, never the user's own."""

from __future__ import annotations

import os
import tempfile

import pytest

from xdsl_spatial.frontends.model_cache import CACHE_ENV


@pytest.fixture(scope="session", autouse=True)
def _model_cache():
    with tempfile.TemporaryDirectory(prefix="xdsl-spatial-cache-") as where:
        before = os.environ.get(CACHE_ENV)
        os.environ[CACHE_ENV] = where
        yield where
        if before is None:
            del os.environ[CACHE_ENV]
        else:
            os.environ[CACHE_ENV] = before
