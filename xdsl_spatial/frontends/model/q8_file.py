"""
The same weights as a Q8_0 GGUF file, for llama.cpp: what `--requantize` binds, written
so that llama.cpp runs exactly the chip's weights (the tests and benchmarks compare
with it on such a file); or the same values dequantised to f32, where llama.cpp adds no
rounding of its activations.
"""

from __future__ import annotations

import os
import tempfile
from typing import Any

import numpy as np

from xdsl_spatial.core.quant import Q8_BLOCK
from xdsl_spatial.frontends.model.architectures import read_config
from xdsl_spatial.frontends.model.config import ModelError

MOSTLY_Q8_0 = 7
"""`general.file_type` of a file whose tensors are mostly Q8_0 (llama.cpp's LLAMA_FTYPE_MOSTLY_Q8_0)."""
ALL_F32 = 0
"""`general.file_type` of a file whose tensors are all f32 (LLAMA_FTYPE_ALL_F32)."""


def write_q8_0_gguf(reader: Any, path: str, out: str, *, requantize: bool = True) -> None:
    """Write a copy of the GGUF file `reader` reads to `out` whose weight products are
    Q8_0 exactly as the chip binds them: the file's Q8_0 tensors as they are, any other
    re-quantised with GGML's rule (the same values `--requantize` binds); every other
    tensor and all metadata copied. Written beside `out` and renamed into place."""
    _write_copy(reader, path, out, requantize, f32=False)


def write_f32_gguf(reader: Any, path: str, out: str, *, requantize: bool = True) -> None:
    """`write_q8_0_gguf`'s copy with each product's Q8_0 values dequantised to f32
    (int8 times an f16 scale: exact in f32), so that llama.cpp computes with the chip's
    weights and no rounding of its own beyond fp32 (it quantises the activations a Q8_0
    product reads to Q8_0, but not those an f32 product reads)."""
    _write_copy(reader, path, out, requantize, f32=True)


def _write_copy(reader: Any, path: str, out: str, requantize: bool, f32: bool) -> None:
    from gguf import GGMLQuantizationType, GGUFValueType, GGUFWriter

    from xdsl_spatial.frontends.gguf_io import q8_0_parts, requantized_parts

    config = read_config(reader, path)
    products = {name for name, _, _ in config.products()} | {"token_embd.weight"}
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(out)) or ".", suffix=".gguf.tmp")
    os.close(fd)
    try:
        w = GGUFWriter(tmp, config.arch)
        for key, f in reader.fields.items():
            if key.startswith("GGUF.") or key == "general.architecture":
                continue
            if key == "general.file_type":
                w.add_key_value(key, ALL_F32 if f32 else MOSTLY_Q8_0, GGUFValueType.UINT32)
                continue
            vtype = f.types[0]
            sub = f.types[1] if vtype == GGUFValueType.ARRAY and len(f.types) > 1 else None
            w.add_key_value(key, f.contents(), vtype, sub)
        for t in reader.tensors:
            if t.name in products:
                if t.tensor_type == GGMLQuantizationType.Q8_0:
                    values, scales = q8_0_parts(reader, t.name)
                elif requantize:
                    values, scales, _ = requantized_parts(reader, t.name)
                else:
                    raise ModelError(f"{path}: tensor {t.name} is {t.tensor_type.name}, not Q8_0")
                k, n = values.shape
                if f32:
                    blocked = values.reshape(k // Q8_BLOCK, Q8_BLOCK, n).astype(np.float32)
                    blocked *= scales.astype(np.float32)[:, None, :]
                    w.add_tensor(t.name, np.ascontiguousarray(blocked.reshape(k, n).T))
                    continue
                blocks = np.empty((n, k // Q8_BLOCK, 2 + Q8_BLOCK), np.uint8)
                blocks[:, :, :2] = (
                    scales.astype("<f2").T.copy().view(np.uint8).reshape(n, k // Q8_BLOCK, 2)
                )
                blocks[:, :, 2:] = (
                    values.reshape(k // Q8_BLOCK, Q8_BLOCK, n).transpose(2, 0, 1).view(np.uint8)
                )
                w.add_tensor(t.name, blocks.reshape(n, -1), raw_dtype=GGMLQuantizationType.Q8_0)
            else:
                data = np.asarray(t.data)
                shape = [int(d) for d in reversed(t.shape)]
                w.add_tensor(t.name, data, raw_shape=shape, raw_dtype=t.tensor_type)
        w.write_header_to_file()
        w.write_kv_data_to_file()
        w.write_tensors_to_file()
        w.close()
        os.replace(tmp, out)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
