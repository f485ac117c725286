"""Element types as the chip holds them: their names and sizes."""

from __future__ import annotations

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    IndexType,
    IntegerType,
)
from xdsl.ir import (
    Attribute,
)
from xdsl.utils.exceptions import VerifyException

from xdsl_spatial.dialects.element_types import element_name

__all__ = ["element_bytes", "element_name", "is_element"]


def element_bytes(t: Attribute) -> int:
    """Bytes one element of `t` occupies on the chip."""
    if isinstance(t, IntegerType):
        return max(1, t.width.data // 8)
    if isinstance(t, BFloat16Type | Float16Type):
        return 2
    if isinstance(t, Float32Type):
        return 4
    if isinstance(t, IndexType):
        return 4
    raise VerifyException(f"element type {t} has no size on the chip")


def is_element(t: Attribute) -> bool:
    return isinstance(t, IntegerType | BFloat16Type | Float16Type | Float32Type)
