"""What the passes share to leave no dead op behind them."""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter


def erase_if_unused(
    op: Operation | None,
    rewriter: PatternRewriter,
    producers: tuple[type[Operation], ...] = (),
) -> None:
    """Erase `op` when nothing reads its results (and it is still in the IR), then, the
    same way, each op of the types `producers` that made one of its operands: the
    constants, empty tensors or annotations only it read."""
    if op is None or op.parent is None or any(r.first_use for r in op.results):
        return
    made = [v.owner for v in op.operands if isinstance(v.owner, producers)]
    rewriter.erase(op)
    for p in made:
        erase_if_unused(p, rewriter, producers)
