"""
The options of `q8-lower`: the chip it lowers for (`TargetOptions`, resolved against
the module's `spatial.target` by `resolve_target`) and the chips a product is spread
over (`ParallelOptions`). Each is checked before anything is rewritten, and a wrong
one is a diagnostic naming it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, cast

from xdsl.dialects.builtin import BFloat16Type, Float32Type, ModuleOp
from xdsl.utils.exceptions import PassFailedException

from xdsl_spatial.dialects import spatial
from xdsl_spatial.dialects.spatial import TargetAttr
from xdsl_spatial.passes.tensor_parallel import Split


@dataclass(frozen=True)
class TargetOptions:
    """The options that override the chip the pass lowers for (each None: the
    module's `spatial.target`, else the preset's)."""

    preset: str | None = None
    local_mem: int | None = None
    acc_tiles: int | None = None
    tile_rows: int | None = None
    tile_cols: int | None = None
    act: str | None = None


@dataclass(frozen=True)
class ParallelOptions:
    """The options that spread every product without a `shard` annotation over chips
    (an annotated product follows its annotation)."""

    chips: int = 1
    split: str = Split.N.value

    def check(self) -> None:
        if self.chips < 1:
            raise PassFailedException(f"q8-lower: chips must be positive, got {self.chips}")
        if self.split not in [s.value for s in Split]:
            raise PassFailedException(
                f"q8-lower: split must be one of {', '.join(s.value for s in Split)}, "
                f"got '{self.split}'"
            )


def fields_of(cls: type, options: dict[str, Any]) -> dict[str, Any]:
    """The entries of `options` that are fields of the dataclass `cls`."""
    names = {f.name for f in dataclasses.fields(cls)}
    return {k: v for k, v in options.items() if k in names}


def resolve_target(module: ModuleOp, **options: Any) -> TargetAttr:
    """The module's `spatial.target` (or a preset), with any option given overriding it
    (the fields of `TargetOptions`)."""
    o = TargetOptions(**options)
    base = module.attributes.get("spatial.target")
    if o.preset is not None or not isinstance(base, TargetAttr):
        if o.preset is not None and o.preset not in spatial.TARGET_PRESETS:
            raise PassFailedException(
                f"q8-lower: unknown target preset '{o.preset}', expected one of "
                + ", ".join(sorted(spatial.TARGET_PRESETS))
            )
        base = TargetAttr(preset=o.preset or spatial.DEFAULT_PRESET)
    for name, v in (
        ("local-mem", o.local_mem),
        ("acc-tiles", o.acc_tiles),
        ("tile-rows", o.tile_rows),
        ("tile-cols", o.tile_cols),
    ):
        if v is not None and v < 1:
            raise PassFailedException(f"q8-lower: {name} must be positive, got {v}")
    acts = {"bf16": BFloat16Type(), "f32": Float32Type()}
    if o.act is not None and o.act not in acts:
        raise PassFailedException(f"q8-lower: act must be one of {', '.join(acts)}, got '{o.act}'")
    return TargetAttr(
        tile=(o.tile_rows or base.tile_rows.data, o.tile_cols or base.tile_cols.data),
        act=acts[o.act] if o.act is not None else base.act,
        acc=base.acc,
        local_mem=o.local_mem if o.local_mem is not None else base.local_mem.data,
        acc_tiles=o.acc_tiles if o.acc_tiles is not None else base.acc_tiles.data,
        **cast(dict[str, Any], base.chip_figures()),
    )
