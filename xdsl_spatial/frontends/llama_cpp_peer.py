"""
llama.cpp (llama-cpp-python), the peer the tests and benchmarks check and time the
engines against: never a dependency, imported by whoever asks for it.

`open_llama(llama_cpp, path, **options)` is `llama_cpp.Llama(path, **options)`, and
`model_params(llama_cpp.llama_model_default_params)` llama.cpp's default model
parameters, except on a CPU with AMX-INT8 tiles (`AMX_FLAGS`): there llama.cpp's extra
weight buffers (its AMX and repacked layouts) are off. llama-cpp-python 0.3.36 built on
an Intel Xeon with AMX (family 6 model 207) dies of SIGILL at a `tilezero` under
`ggml_backend_amx_mul_mat` reading prompts of 3 and of 14 tokens (one thread; a
one-word prompt ran): the tests' and benchmarks' prompts. Without those buffers it
runs its plain CPU kernels and reads the same prompts.
Elsewhere llama.cpp runs as its users run it.
"""

from __future__ import annotations

from typing import Any

from xdsl_spatial.interpreters.native.host import cpu_info

AMX_FLAGS = frozenset({"amx_tile", "amx_int8"})
"""The CPU features with which llama.cpp builds its AMX weight buffers."""


def extra_buffers_off() -> bool:
    """Whether llama.cpp runs here without its extra weight buffers (`AMX_FLAGS`)."""
    return cpu_info()[1] >= AMX_FLAGS


def note() -> str | None:
    """What a benchmark prints beside llama.cpp's times where its extra weight buffers
    are off, else None."""
    if not extra_buffers_off():
        return None
    return (
        "llama.cpp runs without its extra weight buffers here (AMX and repacked "
        "layouts): with them it faults on this CPU (xdsl_spatial/frontends/llama_cpp_peer.py)"
    )


def model_params(default: Any) -> Any:
    """`default()` (llama.cpp's `llama_model_default_params`), its extra weight
    buffers off where `extra_buffers_off` says."""
    params = default()
    if extra_buffers_off():
        params.use_extra_bufts = False
    return params


def open_llama(llama_cpp: Any, path: str, **options: Any) -> Any:
    """`llama_cpp.Llama(path, **options)`, its model loaded with `model_params`:
    `Llama` takes no such option, so its module's default is `model_params` while it
    loads."""
    lib = llama_cpp.llama_cpp
    default = lib.llama_model_default_params
    lib.llama_model_default_params = lambda: model_params(default)
    try:
        return llama_cpp.Llama(model_path=path, **options)
    finally:
        lib.llama_model_default_params = default
