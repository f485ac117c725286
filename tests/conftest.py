"""Every test's disk cache of built models (`XDSL_SPATIAL_CACHE`) is a directory of its
session, never the user's own; Hypothesis draws without a deadline (a time limit per
example is a timing asserted in a test, and fails on a loaded machine)."""

from __future__ import annotations

import os
import tempfile

import pytest
from hypothesis import settings

from xdsl_spatial.frontends.model_cache import CACHE_ENV

settings.register_profile("untimed", deadline=None)
settings.load_profile("untimed")


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
