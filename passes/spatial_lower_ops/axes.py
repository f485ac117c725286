"""
The iteration space of an op being lowered, and how its addresses are cut at tile
boundaries. Numbers in, numbers out.

An op's dims (a `linalg.generic`'s `d0, d1, ...`) become *axes*. A dim may be cut into
several, `d = f * hi + lo`, whenever an address the program computes would otherwise
not be linear: a tensor's row and column from an element's linear offset (`row = L div
C`, `col = L mod C`), a page's tile row and the row inside the tile (`row = 32 A + r`),
an item's first tile. `cut(form, m)` splits a linear form into `m * hi + lo` with
`0 <= lo < m` at every point, or says which axis must be cut first, or that none can:

```python
space = Space((64, 3))                         # d0 of 64, d1 of 3
form = space.form(LinearForm(0, (1, 64), ()))  # d0 + 64 d1: a row of a 3 x 64 tensor
cut(form, space.extents(), 32)                 # NeedCut(axis 0, by 2): d0 = 32 hi + lo
space = space.cut(0, 32)
cut(space.form(...), space.extents(), 32)      # (hi + 2 d1, lo): tile row and row in it
```
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from xdsl_spatial.core.geometry import LinearForm


class NotLinear(Exception):
    """An address no cut of the axes makes linear (the op is not lowered)."""


@dataclass(frozen=True)
class NeedCut(Exception):
    """Axis `axis` must first be cut into `extent / by` steps of `by` (its low part)."""

    axis: int
    by: int


@dataclass(frozen=True)
class Axis:
    """One axis of the space: part of the op's dim `dim`, one step along it adding
    `scale` to the dim, `extent` steps."""

    dim: int
    scale: int
    extent: int
    role: str = "stage"
    """Where it runs: `stage` (an axis of the program's stage), `item` (an axis of its
    item grid) or `trip` (its K loop)."""


@dataclass(frozen=True)
class Space:
    """The axes of an op's dims: each dim is the sum of `scale * axis` over its axes
    (a dim of extent 1 has none)."""

    axes: tuple[Axis, ...]

    @staticmethod
    def of(extents: Sequence[int]) -> Space:
        return Space(tuple(Axis(d, 1, e) for d, e in enumerate(extents) if e > 1))

    def extents(self) -> tuple[int, ...]:
        return tuple(a.extent for a in self.axes)

    def form(self, dims: LinearForm) -> LinearForm:
        """A linear form over the op's dims as a form over the axes."""
        return LinearForm(dims.const, tuple(dims.dims[a.dim] * a.scale for a in self.axes), ())

    def cut(self, axis: int, by: int) -> Space:
        """Axis `axis` as a high axis (steps of `by`) and a low one (`by` steps), the
        high one first."""
        a = self.axes[axis]
        assert a.extent % by == 0 and 1 < by < a.extent, "a cut leaves two axes"
        hi = Axis(a.dim, a.scale * by, a.extent // by, a.role)
        lo = Axis(a.dim, a.scale, by, a.role)
        return Space((*self.axes[:axis], hi, lo, *self.axes[axis + 1 :]))

    def with_role(self, axis: int, role: str) -> Space:
        axes = list(self.axes)
        axes[axis] = replace(axes[axis], role=role)
        return Space(tuple(axes))

    def of_role(self, role: str) -> list[int]:
        return [i for i, a in enumerate(self.axes) if a.role == role]

    def of_dim(self, dim: int) -> list[int]:
        return [i for i, a in enumerate(self.axes) if a.dim == dim]


def cut(form: LinearForm, extents: Sequence[int], m: int) -> tuple[LinearForm, LinearForm]:
    """`(hi, lo)` with `form = m * hi + lo` and `0 <= lo < m` at every point of the
    axes' `extents`; `NeedCut` when an axis must be cut first (the one of the largest
    coefficient that can be), `NotLinear` when none can."""
    if form.const < 0 or any(c < 0 for c in form.dims):
        raise NotLinear(f"a negative coefficient in {format_form(form)}")
    hi_c, lo_c = divmod(form.const, m)
    hi = [c // m for c in form.dims]
    lo = [c % m for c in form.dims]
    reach = lo_c + sum(c * (e - 1) for c, e in zip(lo, extents))
    if reach < m:
        return LinearForm(hi_c, tuple(hi), ()), LinearForm(lo_c, tuple(lo), ())
    for a in sorted(range(len(lo)), key=lambda a: -lo[a] * extents[a]):
        if not lo[a]:
            continue
        by = m // math.gcd(lo[a], m)
        if 1 < by < extents[a] and extents[a] % by == 0:
            raise NeedCut(a, by)
    raise NotLinear(f"{format_form(form)} is not linear in whole steps of {m}")


def restrict(form: LinearForm, keep: Sequence[int]) -> LinearForm:
    """The form with only the axes `keep` (the others at 0), its constant kept."""
    return LinearForm(form.const, tuple(c if a in keep else 0 for a, c in enumerate(form.dims)), ())


def without_const(form: LinearForm) -> LinearForm:
    return LinearForm(0, form.dims, form.syms)


def plus(a: LinearForm, b: LinearForm, scale: int = 1) -> LinearForm:
    """`a + scale * b`."""
    return LinearForm(
        a.const + scale * b.const,
        tuple(x + scale * y for x, y in zip(a.dims, b.dims)),
        (),
    )


def format_form(form: LinearForm) -> str:
    parts = [f"{c} a{i}" if c != 1 else f"a{i}" for i, c in enumerate(form.dims) if c]
    if form.const or not parts:
        parts.append(str(form.const))
    return " + ".join(parts)
