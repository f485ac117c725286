"""Memory effects: what xDSL's passes (cse, dce, licm) may do with an op."""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from xdsl.ir import (
    Operation,
)
from xdsl.traits import (
    EffectInstance,
    MemoryEffect,
    MemoryEffectKind,
)


class Allocates(MemoryEffect):
    """Allocates the memory its result names (a buffer in a site's local memory, a
    tensor in the chip's), as `memref.alloc` does: `cse` never merges two, and `dce`
    drops one nobody uses."""

    @classmethod
    def get_effects(cls, op: Operation) -> AbstractSet[EffectInstance]:
        return frozenset((EffectInstance(MemoryEffectKind.ALLOC, op.results[0]),))


class FillsPage(MemoryEffect):
    """Writes a page of its buffer (a stage's output): `cse` never merges two, since the
    page kept would have to stay in the buffer past the pages filled between them."""

    @classmethod
    def get_effects(cls, op: Operation) -> AbstractSet[EffectInstance]:
        return frozenset((EffectInstance(MemoryEffectKind.WRITE, op.operands[-1]),))


class LoadsPage(MemoryEffect):
    """Reads a block of its tensor and writes it as a page of its buffer (a load):
    `cse` never merges two, for the page's sake as with `FillsPage` and because the
    traffic a program reports is what its loads move."""

    @classmethod
    def get_effects(cls, op: Operation) -> AbstractSet[EffectInstance]:
        return frozenset(
            (
                EffectInstance(MemoryEffectKind.READ, op.operands[0]),
                EffectInstance(MemoryEffectKind.WRITE, op.operands[1]),
            )
        )
