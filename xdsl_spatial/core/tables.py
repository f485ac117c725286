"""
Tables as the tools print them, laid out by `rich`: a header, a rule of dashes under it,
columns two spaces apart, text left-aligned and numbers right-aligned, never wrapped
however wide (a table goes to a file or a pipe as often as to a terminal), no colour.

```python
print(text_table(["program", "loaded B"], [["fold", "1,024"]], right=1))
```
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.box import Box


@cache
def _rule() -> Box:
    """rich's box for a header with a rule of dashes under it and nothing else (rich
    imported at the first table: a tool that prints none starts without it)."""
    from rich import box

    return box.Box(
        "    \n"  # top
        "    \n"  # header row
        " -  \n"  # under the header: dashes, spaces between the columns
        "    \n"  # between rows
        "    \n"  # a row
        "    \n"  # above a footer
        "    \n"  # a footer row
        "    \n",  # bottom
        ascii=True,
    )


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]], right: int = 0) -> str:
    """`rows` under `header`, the last `right` columns right-aligned (numbers)."""
    from rich.console import Console
    from rich.table import Table

    table = Table(
        box=_rule(),
        show_edge=False,
        pad_edge=False,
        padding=(0, 1),
        collapse_padding=True,
        highlight=False,
    )
    n = len(header)
    for i, name in enumerate(header):
        table.add_column(name, justify="right" if i >= n - right else "left", no_wrap=True)
    for r in rows:
        table.add_row(*r)
    width = sum(max(len(c) for c in (h, *(r[i] for r in rows))) + 2 for i, h in enumerate(header))
    out = io.StringIO()
    Console(file=out, width=width + 8, color_system=None, markup=False, emoji=False).print(table)
    return "\n".join(line.rstrip() for line in out.getvalue().splitlines())
