"""
`binding.bind_apart`, the weights bound by a process of its own (what `load_model`
runs beside building and lowering): the same arrays as `bind_model` in this process,
bit for bit (the same code on the same file), the same progress lines and
re-quantisation costs, the same error when the file cannot be bound, and a clear
one when the process itself fails.
"""

from __future__ import annotations

import shutil
import sys

import numpy as np
import pytest
from tiny_llama import write_tiny_llama

from xdsl_spatial.frontends.binding import bind_apart, bind_model
from xdsl_spatial.frontends.gguf_io import GGUFError, open_gguf
from xdsl_spatial.frontends.llama import ModelError, read_config


def _config(path):
    return read_config(open_gguf(str(path)), str(path))


def test_the_process_binds_what_this_one_binds(tmp_path):
    path = str(write_tiny_llama(tmp_path / "f32.gguf", f32_weights=True))
    config = _config(path)
    here_said: list[str] = []
    here_costs: list[object] = []
    here = bind_model(
        open_gguf(path),
        path,
        config,
        requantize=True,
        on_requantize=here_costs.append,
        progress=here_said.append,
    )
    apart_said: list[str] = []
    apart_costs: list[object] = []
    apart = bind_apart(
        path, config, requantize=True, on_requantize=apart_costs.append, progress=apart_said.append
    )
    assert len(apart) == len(here) > 0
    for a, h in zip(apart, here):
        assert a.dtype == h.dtype and a.shape == h.shape
        np.testing.assert_array_equal(a, h)
    assert apart_said == here_said and any("re-quantising" in s for s in apart_said)
    assert apart_costs == here_costs and len(apart_costs) == 14


def test_a_file_that_cannot_bind_says_so_as_it_would_here(tmp_path):
    path = str(write_tiny_llama(tmp_path / "f32.gguf", f32_weights=True))
    config = _config(path)
    with pytest.raises(GGUFError) as here:
        bind_model(open_gguf(path), path, config)
    with pytest.raises(GGUFError) as apart:
        bind_apart(path, config)
    assert str(apart.value) == str(here.value) and "requantize" in str(here.value)


def test_a_process_that_cannot_run_is_one_error(tmp_path, monkeypatch):
    path = str(write_tiny_llama(tmp_path / "q8.gguf"))
    config = _config(path)
    monkeypatch.setattr(sys, "executable", shutil.which("false") or "/bin/false")
    with pytest.raises(ModelError, match=r"binding its weights: the process .* \(exit code 1\)"):
        bind_apart(path, config)
