"""
The traffic of runs as JSON: what `spatial-run --stats-json` writes and
`spatial-viz --traffic` reads.

```json
{"format": "spatial-traffic", "version": 2,
 "runs": [{"entry": "gemv", "programs": [{"name": "q8_gemv_2048x4096_w8", "kind": "fold",
   "items": 16, "local_mem": 757760, "loaded": {"W__q8": 8388608, ...},
   "stored": {"y": 524288}, "weight_elems": 8388608}]}]}
```

A run is one call of one function (`entry`); a model's traffic is many runs, in one
file or several. A program of a tensor-parallel deployment also names its `"chip"`.
A program's `"work"` (multiply-accumulates per item, `{"matrix_macs": ...,
"vector_macs": ...}`) and its target's `"figures"` (`{"preset": "wormhole_n150",
"sites": 72, ...}`) let a reader estimate its time on the chip; a file without them
(written before they were) reads, and its programs have no estimate.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any

from xdsl_spatial.analysis.chip_time import Work
from xdsl_spatial.core.files import write_file
from xdsl_spatial.core.targets import ChipFigures
from xdsl_spatial.interpreters.traffic import ProgramTraffic

FORMAT = "spatial-traffic"
VERSION = 2
"""Version 2 added the block-float rates, the least rows a product, the scales' widths and
what a load read from DRAM (`"dram_loaded"`: a multicast load's block once a run); a
version-1 file reads, its programs without an estimate (its figures were the old ones)."""


class TrafficFileError(Exception):
    """A traffic file that cannot be read: the message names the file and the field."""


@dataclass(frozen=True)
class TrafficRun:
    """The programs one call of `entry` ran, with the bytes each moved."""

    entry: str
    programs: list[ProgramTraffic]


def to_json(runs: Sequence[TrafficRun]) -> str:
    return json.dumps(
        {
            "format": FORMAT,
            "version": VERSION,
            "runs": [
                {
                    "entry": r.entry,
                    "programs": [
                        {
                            "name": p.name,
                            "kind": p.kind,
                            "items": p.items,
                            "local_mem": p.local_mem,
                            "loaded": dict(p.loaded),
                            "dram_loaded": dict(p.dram_loaded),
                            "stored": dict(p.stored),
                            "weight_elems": p.weight_elems,
                            **({"chip": p.chip} if p.chip is not None else {}),
                            **({"work": asdict(p.work)} if p.work is not None else {}),
                            **({"figures": asdict(p.figures)} if p.figures is not None else {}),
                            **({"scale_bytes": dict(p.scale_bytes)} if p.scale_bytes else {}),
                        }
                        for p in r.programs
                    ],
                }
                for r in runs
            ],
        },
        indent=1,
    )


def write_json(path: str, runs: Sequence[TrafficRun]) -> None:
    write_file(path, (to_json(runs) + "\n").encode(), "traffic file")


def _field(obj: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise TrafficFileError(f"{where} has no '{key}'")
    v = obj[key]
    if not isinstance(v, kind) or isinstance(v, bool):
        raise TrafficFileError(f"{where}: '{key}' must be {_kind_name(kind)}, got {v!r}")
    return v


def _kind_name(kind: type | tuple[type, ...]) -> str:
    return {str: "a string", int: "an integer", list: "a list", dict: "an object"}.get(
        kind if isinstance(kind, type) else kind[0], "a value"
    )


def _bytes_map(obj: Any, key: str, where: str) -> dict[str, int]:
    m = _field(obj, key, dict, where)
    for k, v in m.items():
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise TrafficFileError(f"{where}: {key}['{k}'] must be a byte count, got {v!r}")
    return dict(m)


def _counts(obj: Any, key: str, names: Sequence[str], where: str) -> dict[str, int]:
    """`obj[key]`, an object of the integers `names` (each >= 0)."""
    m = _field(obj, key, dict, where)
    out = {}
    for n in names:
        v = _field(m, n, int, f"{where}.{key}")
        if v < 0:
            raise TrafficFileError(f"{where}.{key}: '{n}' must not be negative, got {v}")
        out[n] = v
    return out


def _work(p: Any, where: str) -> Work:
    return Work(**_counts(p, "work", [f.name for f in fields(Work)], where))


def _figures(p: Any, where: str) -> ChipFigures:
    names = [f.name for f in fields(ChipFigures) if f.name != "preset"]
    got = _counts(p, "figures", names, where)
    if any(v < 1 for v in got.values()):
        raise TrafficFileError(f"{where}.figures: every figure must be positive, got {got}")
    preset = p["figures"].get("preset")
    if preset is not None and not isinstance(preset, str):
        raise TrafficFileError(f"{where}.figures: 'preset' must be a string, got {preset!r}")
    return ChipFigures(preset, **got)


def from_json(text: str, name: str = "<traffic>") -> list[TrafficRun]:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise TrafficFileError(f"{name} is not JSON: {e}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise TrafficFileError(
            f'{name} is not a traffic file (expected "format": "{FORMAT}", as '
            "spatial-run --stats-json writes)"
        )
    version = doc.get("version")
    if version not in (1, VERSION):
        raise TrafficFileError(
            f"{name} has version {version!r}; this reads versions 1 and {VERSION}"
        )
    timed = version == VERSION
    runs = []
    for i, r in enumerate(_field(doc, "runs", list, name)):
        where = f"{name}: runs[{i}]"
        programs = []
        for j, p in enumerate(_field(r, "programs", list, where)):
            pw = f"{where}.programs[{j}]"
            programs.append(
                ProgramTraffic(
                    name=_field(p, "name", str, pw),
                    kind=_field(p, "kind", str, pw),
                    items=_field(p, "items", int, pw),
                    local_mem=_field(p, "local_mem", int, pw),
                    loaded=_bytes_map(p, "loaded", pw),
                    stored=_bytes_map(p, "stored", pw),
                    weight_elems=_field(p, "weight_elems", int, pw),
                    chip=_field(p, "chip", int, pw) if "chip" in p else None,
                    work=_work(p, pw) if timed and "work" in p else None,
                    figures=_figures(p, pw) if timed and "figures" in p else None,
                    dram_loaded=_bytes_map(p, "dram_loaded", pw) if "dram_loaded" in p else {},
                    scale_bytes=_bytes_map(p, "scale_bytes", pw) if "scale_bytes" in p else {},
                )
            )
        runs.append(TrafficRun(_field(r, "entry", str, where), programs))
    return runs


def read_json(path: str) -> list[TrafficRun]:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise TrafficFileError(f"cannot read {path}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise TrafficFileError(f"{path} is not a traffic file (not UTF-8 text)") from None
    return from_json(text, path)
