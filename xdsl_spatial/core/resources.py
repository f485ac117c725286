"""
`dense_resource` constants: elements kept in the file's `dialect_resources` section.

torch-mlir writes a module's buffers and parameters as

```mlir
%cst = arith.constant dense_resource<torch_tensor_64_4_torch.float16> : tensor<64x4xf16>
...
{-#
  dialect_resources: {
    builtin: {
      torch_tensor_64_4_torch.float16: "0x02000000FE2E143B..."
    }
  }
#-}
```

the blob being MLIR's: a 4-byte little-endian alignment, then the elements' bytes in
the tensor's row-major order (an `i1` a byte each). xDSL 0.75 parses the section and
keeps each blob in the `builtin` dialect's `OpAsmDialectInterface`, outside the IR:
one table per dialect object, which is one object for the whole process, so a second
parse of the same key is renamed (`key_0`) and reads an empty blob.

`make_context` (`ir_io`) gives each context a `builtin` dialect of its own, so each
parse has its own table; `materialize` then turns every `dense_resource` constant
into the `dense` constant of the same bytes, so the module holds its elements itself:
passes and every engine read it as any other dense constant, and it prints back as
`dense<...>`. `resource_array` reads one blob where a module still holds the
reference (parsed by xDSL's own reader, as `xdsl-opt` does).
"""

from __future__ import annotations

from typing import Any, cast

import ml_dtypes
import numpy as np
from xdsl.context import Context
from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    Builtin,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Attribute, Dialect, Operation

ALIGNMENT_BYTES = 4
"""A blob starts with its alignment, a little-endian u32, before the elements."""


class ResourceError(ValueError):
    """A `dense_resource` whose blob is missing or does not hold its tensor. The
    message names the resource; `op` is the constant holding it, when known."""

    op: Operation | None = None


def builtin_dialect() -> Dialect:
    """xDSL's `builtin` dialect with a resource table of its own (see the module doc)."""
    return Dialect(
        Builtin.name, list(Builtin.operations), list(Builtin.attributes), [OpAsmDialectInterface()]
    )


def _tensor_type(attr: DenseResourceAttr) -> TensorType[Attribute]:
    return cast(TensorType[Attribute], attr.type)


def _numpy_dtype(t: Attribute) -> np.dtype[Any] | None:
    if isinstance(t, IntegerType):
        width = t.width.data
        if width == 1:
            return np.dtype(np.bool_)
        return np.dtype(f"<i{width // 8}") if width in (8, 16, 32, 64) else None
    if isinstance(t, IndexType):
        return np.dtype("<i8")
    if isinstance(t, BFloat16Type):
        return np.dtype(ml_dtypes.bfloat16)
    if isinstance(t, Float16Type | Float32Type | Float64Type):
        return np.dtype(f"<f{t.bitwidth // 8}")
    return None


def _blob(attr: DenseResourceAttr, ctx: Context | None) -> str | None:
    dialect = ctx.get_optional_dialect("builtin") if ctx is not None else Builtin
    table = dialect.get_interface(OpAsmDialectInterface) if dialect is not None else None
    return table.lookup(attr.resource_handle.data) if table is not None else None


def resource_bytes(attr: DenseResourceAttr, ctx: Context | None = None) -> bytes:
    """The elements' bytes of `attr` (without the alignment), from the blob the
    context parsed (xDSL's own table with no context)."""
    key = attr.resource_handle.data
    t = _tensor_type(attr)
    dt = _numpy_dtype(t.get_element_type())
    if dt is None:
        raise ResourceError(
            f"dense_resource<{key}>: elements of {t.get_element_type()} are not read"
        )
    hexed = _blob(attr, ctx)
    if not hexed:
        raise ResourceError(
            f"dense_resource<{key}>: the file has no blob for it (its dialect_resources "
            "section is missing, or leaves it out)"
        )
    try:
        raw = bytes.fromhex(hexed[2:])
    except ValueError:
        raise ResourceError(f"dense_resource<{key}>: the blob is not hexadecimal") from None
    count = 1
    for d in t.get_shape():
        count *= d
    want = count * dt.itemsize
    if len(raw) != ALIGNMENT_BYTES + want:
        raise ResourceError(
            f"dense_resource<{key}>: the blob holds {len(raw) - ALIGNMENT_BYTES} bytes of "
            f"elements, the tensor {t} needs {want}"
        )
    align = int.from_bytes(raw[:ALIGNMENT_BYTES], "little")
    if align == 0 or align & (align - 1):
        raise ResourceError(
            f"dense_resource<{key}>: the blob's alignment is {align}, not a power of two "
            "(MLIR refuses the blob)"
        )
    return raw[ALIGNMENT_BYTES:]


def resource_array(attr: DenseResourceAttr, ctx: Context | None = None) -> np.ndarray:
    """The elements of `attr` as an array of its tensor's shape (read-only)."""
    t = _tensor_type(attr)
    dt = _numpy_dtype(t.get_element_type())
    assert dt is not None
    return np.frombuffer(resource_bytes(attr, ctx), dtype=dt).reshape(t.get_shape())


def dense_of(attr: DenseResourceAttr, ctx: Context | None = None) -> DenseIntOrFPElementsAttr:
    """The `dense` attribute of the same elements."""
    t = _tensor_type(attr)
    data = resource_bytes(attr, ctx)
    et = t.get_element_type()
    if isinstance(et, IntegerType) and et.width.data == 1:
        # xDSL stores an i1 element as a byte of 0 or 1, as the blob does.
        data = np.frombuffer(data, np.uint8).astype(bool).astype(np.uint8).tobytes()
    return DenseIntOrFPElementsAttr(t, BytesAttr(data))  # pyright: ignore[reportArgumentType]


def resource_constants(module: Operation) -> list[arith.ConstantOp]:
    return [
        op
        for op in module.walk()
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, DenseResourceAttr)
    ]


def materialize(module: ModuleOp, ctx: Context | None = None) -> None:
    """Every `dense_resource` constant of `module` made the `dense` constant of its
    blob's elements (a `ResourceError` naming the first one that has none)."""
    for op in resource_constants(module):
        value = op.value
        assert isinstance(value, DenseResourceAttr)
        try:
            op.properties["value"] = dense_of(value, ctx)
        except ResourceError as e:
            e.op = op
            raise
