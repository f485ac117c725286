"""
The bytes every program moves: per program run, per tensor, loaded and stored.

The chip moves whole tiles, so a load or store of an `h x w` block moves
`h * w * tile elements * element bytes`, once per item and per time it runs (its
`repeat`: the K loop's trips). Both engines count the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl_spatial.memory import plural


@dataclass
class ProgramTraffic:
    """Bytes one run of a program moved, per tensor."""

    name: str
    kind: str
    """`view` or `fold`."""
    items: int
    local_mem: int
    """Bytes of local memory its buffers take on a site."""
    loaded: dict[str, int] = field(default_factory=dict)
    stored: dict[str, int] = field(default_factory=dict)
    weight_elems: int = 0
    """K x N of the Q8_0 weight a fold reads (0 when it reads none)."""

    @property
    def load_bytes(self) -> int:
        return sum(self.loaded.values())

    @property
    def store_bytes(self) -> int:
        return sum(self.stored.values())

    def bytes_per_weight(self) -> float | None:
        if not self.weight_elems:
            return None
        return self.load_bytes / self.weight_elems

    def add_load(self, tensor: str, nbytes: int) -> None:
        self.loaded[tensor] = self.loaded.get(tensor, 0) + nbytes

    def add_store(self, tensor: str, nbytes: int) -> None:
        self.stored[tensor] = self.stored.get(tensor, 0) + nbytes


@dataclass
class Traffic:
    """Every program run of one call, in the order they ran."""

    programs: list[ProgramTraffic] = field(default_factory=list)

    def table(self) -> str:
        rows = [("program", "tensor", "loaded B", "stored B")]
        for p in self.programs:
            for t in sorted(set(p.loaded) | set(p.stored)):
                rows.append((p.name, t, f"{p.loaded.get(t, 0):,}", f"{p.stored.get(t, 0):,}"))
            bpw = p.bytes_per_weight()
            extra = f"{plural(p.items, 'item')}, local memory {p.local_mem:,} B"
            if bpw is not None:
                extra += f", {bpw:.4f} B/weight"
            rows.append((p.name, f"total ({extra})", f"{p.load_bytes:,}", f"{p.store_bytes:,}"))
        if len(rows) == 1:
            return "no spatial program ran"
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        lines = []
        for j, r in enumerate(rows):
            lines.append(
                "  ".join(
                    c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))
                ).rstrip()
            )
            if j == 0:
                lines.append("  ".join("-" * w for w in widths))
        return "\n".join(lines)
