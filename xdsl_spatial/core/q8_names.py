"""
The names a Q8_0 weight's two stored tensors go by: `W__q8` (its int8 values) and
`W__q8_scale` (its scales). The `q8` dialect's ops and attributes speak of them
(`dialects/q8.py` re-exports these); what runs a model without its IR (a model read
back from the disk cache, the binding of weights) needs them without the dialect.
"""

from __future__ import annotations

from xdsl.utils.str_enum import StrEnum


class Q8Part(StrEnum):
    """Which of a Q8_0 weight's two stored tensors a name refers to."""

    VALUES = "q8_0.values"
    """The int8 values, K x N."""
    SCALES = "q8_0.scales"
    """One scale per 32 K-rows of each column, K/32 x N."""


_SUFFIX = {Q8Part.VALUES: "__q8", Q8Part.SCALES: "__q8_scale"}


def stored_name(weight: str, part: Q8Part) -> str:
    """The chip's name for `part` of the Q8_0 weight `weight`: `W__q8`, `W__q8_scale`."""
    return weight + _SUFFIX[part]


def stored_part(name: str) -> tuple[str, Q8Part] | None:
    """The weight and part a stored name refers to, or None for any other name."""
    if name.endswith(_SUFFIX[Q8Part.SCALES]):
        return name[: -len(_SUFFIX[Q8Part.SCALES])], Q8Part.SCALES
    if name.endswith(_SUFFIX[Q8Part.VALUES]):
        return name[: -len(_SUFFIX[Q8Part.VALUES])], Q8Part.VALUES
    return None
