"""
Progress of long work, as a line of text: a phase, and how far into it.

The library's long steps (reading a model, re-quantising its weights, `q8-lower`,
compiling) take a `progress` callback of text and call it as they go; the tools hand
them their status line (`tools.cli.Status`), a library user anything else (`print`).
A text names its phase before its first `:` (`q8-lower: 120 of 422 products (28%)`),
which the status line's clock goes by.

```python
count = Count(progress, "q8-lower", 422, "products")
for i, product in enumerate(products, 1):
    ...
    count(i)          # "q8-lower: 120 of 422 products (28%)", once a percent at most
```
"""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[str], None]
"""Called with a line saying what is being done (`phase: detail`)."""


def quiet(_: str) -> None:
    """The progress of work nobody watches."""


class Count:
    """The progress of `total` steps of `phase`: `count(done)` says `phase: done of
    total unit (p%)` through `progress` when the percentage changes."""

    def __init__(self, progress: Progress | None, phase: str, total: int, unit: str = ""):
        self.progress = progress or quiet
        self.phase, self.total, self.unit = phase, total, f" {unit}" if unit else ""
        self.shown = -1

    def __call__(self, done: int) -> None:
        percent = 100 * done // self.total if self.total else 100
        if percent != self.shown:
            self.shown = percent
            self.progress(f"{self.phase}: {done:,} of {self.total:,}{self.unit} ({percent}%)")
