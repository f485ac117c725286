"""
`spatial-estimate --plot`: a model's estimated decode rates against batch, a line per
context: tokens a second for each user (left) and for all of them (right).

```python
data = draw_rates(estimates, "svg")      # bytes of an SVG (or "png")
```
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl_spatial.frontends.estimate import Estimate
from xdsl_spatial.viz.pictures.render import figure_bytes, require


def draw_rates(estimates: Sequence[Estimate], fmt: str) -> bytes:
    """The picture of `estimates` (one per batch and context), as `fmt` (svg or png)."""
    mfig = require("matplotlib.figure")
    fig = mfig.Figure(figsize=(10, 4), layout="constrained")
    per_user, total = fig.subplots(1, 2)
    contexts = sorted({e.scenario.context for e in estimates})
    for ctx in contexts:
        row = sorted(
            (e for e in estimates if e.scenario.context == ctx), key=lambda e: e.scenario.batch
        )
        batches = [e.scenario.batch for e in row]
        per_user.plot(
            batches, [e.decode_tokens_per_s_per_user for e in row], "o-", label=f"context {ctx}"
        )
        total.plot(
            batches, [e.decode_tokens_per_s_total for e in row], "o-", label=f"context {ctx}"
        )
    first = estimates[0].scenario
    chips = f" x {first.chips}" if first.chips > 1 else ""
    fig.suptitle(f"decode on {first.preset}{chips} (estimated; FFN weights {first.ffn})")
    for ax, what in ((per_user, "tokens/s per user"), (total, "tokens/s, all users")):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("batch (users decoding together)")
        ax.set_ylabel(what)
        ax.grid(True, alpha=0.3)
        ax.legend()
    return figure_bytes(fig, fmt)
