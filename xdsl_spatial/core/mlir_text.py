"""
The ops of torch-mlir's `tm_tensor` dialect the project does not read: `unread_op` says
so where the project reads a module (`ir_io.SourceParser`), with what in PyTorch makes
the op and how to export without it. (A float `dense` with hexadecimal elements, the
other thing of torch-mlir's text xDSL 0.75 reads wrongly, is `hex_literals.py`'s.)
"""

from __future__ import annotations

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
