"""
Kernels of the `shard` dialect's annotations, for a run on one host.

`shard.sharding` says how a tensor is laid out over a grid of chips and
`shard.shard` attaches that layout to a value; neither changes a value. A run on
one host holds every value whole, so an annotated module runs (and `spatial-run
--compare` compares it) as the same module without its annotations: a sharding is
a descriptor no kernel reads, a `shard.shard` passes its tensor on unchanged.
`q8-lower` is what reads the annotations and makes each chip's programs
(docs/tensor_parallel.md).
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects import shard

from xdsl_spatial.interpreters.kernels import Kernel, kernel


@kernel(shard.ShardingOp)
def _sharding(op: shard.ShardingOp) -> Kernel:
    return lambda args: (None,)


@kernel(shard.ShardOp)
def _shard(op: shard.ShardOp) -> Kernel:
    def run(args: Any) -> tuple[Any, ...]:
        return (args[0],)

    return run
