"""
What MLIR's text (torch-mlir's output) holds that xDSL 0.75 reads wrongly or not at all,
handled where the project reads a module (`ir_io.parse_module`, `SourceParser`):

- a float `dense` attribute with hexadecimal elements, the bit patterns MLIR prints for
  an infinity, a NaN or a float its decimal digits would round (`dense<0xFF7FFFFF> :
  tensor<f32>`, torch's `finfo(float32).min`, an attention mask's fill): xDSL reads
  the element as an integer (4286578687.0) and prints `-inf` the same way itself.
  `read_hex_floats` writes each such attribute as the hex blob of its elements
  (`dense<"0xFFFF7FFF">`), which xDSL reads exactly, before parsing;
- an op of torch-mlir's `tm_tensor` dialect the project does not read: `unread_op`
  says so, with what in PyTorch makes it and how to export without it.
"""

from __future__ import annotations

import re

import ml_dtypes
import numpy as np

_DENSE = re.compile(r"(?<![\w.$-])dense<")
_FLOAT_TYPE = re.compile(
    r"\s*:\s*(?:tensor|vector|memref)\s*<\s*(?:\d+\s*x\s*)*(f16|bf16|f32|f64)\s*>"
)
_FLOAT_DTYPES = {
    "f16": np.float16,
    "bf16": ml_dtypes.bfloat16,
    "f32": np.float32,
    "f64": np.float64,
}
_INT_OF = {2: np.uint16, 4: np.uint32, 8: np.uint64}


def _float_elements(body: str, element: str) -> str:
    """A float `dense<...>` body with hexadecimal elements (the bit patterns MLIR and
    xDSL print for an infinity, a NaN, or a float decimal digits would round) as the
    hex blob of its elements (`"0x..."`, little-endian), which xDSL reads exactly; xDSL
    0.75 reads `0xFF800000` in a dense list as the integer 4286578688."""
    dtype = np.dtype(_FLOAT_DTYPES[element])
    bits = _INT_OF[dtype.itemsize]
    values = []
    for token in re.findall(r"[-+]?0x[0-9A-Fa-f]+|[-+]?[\d.]+(?:[eE][-+]?\d+)?", body):
        if "0x" in token.lower():
            values.append(np.array(int(token, 16), bits).view(dtype))
        else:
            values.append(np.array(float(token), dtype))
    return (
        '"0x'
        + np.array(values, dtype).astype(dtype.newbyteorder("<")).tobytes().hex().upper()
        + '"'
    )


def read_hex_floats(text: str) -> str:
    """`text` with each float `dense<...>` that holds hexadecimal elements written as
    its hex blob (`_float_elements`); the same lines, so diagnostics keep their line."""
    if "0x" not in text:
        return text
    out: list[str] = []
    pos = 0
    for m in _DENSE.finditer(text):
        close = text.find(">", m.end())
        if close < 0 or m.start() < pos:
            continue
        body = text[m.end() : close]
        if "0x" not in body or '"' in body:
            continue
        t = _FLOAT_TYPE.match(text, close + 1)
        if t is None:
            continue
        out += [text[pos : m.end()], _float_elements(body, t.group(1))]
        pos = close
    return "".join(out) + text[pos:]


TM_TENSOR_READ = frozenset({"scan", "yield"})
"""The ops of the `tm_tensor` dialect `dialects/tm_tensor.py` defines."""

_TM_TENSOR_HINTS = {
    "scatter": "an indexed write (`x[idx] = v`, `index_put`); write it with "
    "`torch.slice_scatter` at a position, or `torch.where`",
    "sort": "`torch.sort`, `argsort`",
    "topk": "`torch.topk`",
    "attention": "`scaled_dot_product_attention`; load the model with "
    '`attn_implementation="eager"`',
}
"""What a `tm_tensor` op the project does not read comes from, and how to export
without it."""


def unread_op(name: str) -> str | None:
    """Why an op of torch-mlir's `tm_tensor` dialect is not read (None: it is, or it is
    of another dialect): the op, what in PyTorch makes it and how to avoid it."""
    dialect, _, op = name.partition(".")
    if dialect != "tm_tensor" or op in TM_TENSOR_READ:
        return None
    hint = _TM_TENSOR_HINTS.get(op)
    made = f": torch-mlir makes it of {hint}" if hint else ""
    return (
        f"is torch-mlir's own op, which linalg on tensors does not hold and this "
        f"package does not read (of its tm_tensor dialect it reads tm_tensor.scan){made}"
    )
