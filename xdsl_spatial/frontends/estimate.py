"""
How fast a llama-architecture model would prefill and decode on a chip (or several),
from its shapes alone: the step built with the real shapes (`llama.build_model`),
lowered as `spatial-generate` lowers it (`q8-lower{optimize=true}`, then on one chip
`spatial-lower-ops`: every op of the step a spatial program), and every op of it timed
(`analysis/chip_time.py`; an op left on the host, as `--products-only` or a step over
several chips leaves the ops between the products, by `analysis/step_time.py`). No weight is read: a 70B
model's estimate needs its config.json, not its 70 GB.

```python
config = read_hf_config("Llama-3.1-8B/config.json")
e = estimate(config, Scenario(batch=8, context=4096, chips=1, preset="blackhole_p150"))
e.decode.seconds, e.decode.tokens_per_s_per_user, e.prefill.seconds
```

A model's layers are alike, so one layer is built and lowered and its time counted
`n_layer` times, beside what is built once (the embedding, RoPE's tables, the last
norm and the LM head); `whole=True` builds every layer instead (`tests/test_estimate.py`
checks the two give the same times).

- **Decode** of `batch` users together: one step whose products are `batch`-row GEMMs,
  each user attending to its own KV cache of `context` positions (the lowering reads
  the whole cache every step, masked past a user's position), traced (each program
  after the one before at the op-to-op gap), plus what each token pays outside the
  chip (`step_time.token_costs`).
- **Prefill** of one user's `context` prompt tokens, in chunks of 32 (a fold's rows are
  at most a tile's, `llama.MAX_PREFILL`) as `spatial-generate` reads a prompt, not
  traced (as tt-metal runs a prefill): each op then takes at least the host's time to
  dispatch it. Users are prefilled one after another.
- **Over chips** (`chips` > 1): every product split as `spatial-generate --chips` splits
  it, each chip's programs in sequence and the chips at once, the gathers and sums
  between them timed as the measured collectives (`step_time.exchange_time`).

`Scenario.ffn` stores the FFN's weights (gate, up and down, or gate and up) as
block-float-4 on the chip (half the value bytes, the block-float-4 rate): the precisions
Tenstorrent's published "performance" figures use, so those can be compared at their own
precision. Every other product is Q8_0 (block-float-8 on the chip).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from enum import auto
from typing import Any

from xdsl.dialects import arith, func, tensor
from xdsl.ir import Operation, SSAValue
from xdsl.utils.str_enum import StrEnum

from xdsl_spatial.analysis.chip_time import ProgramTime, program_time
from xdsl_spatial.analysis.step_time import (
    Exchange,
    TokenCosts,
    chip_bytes,
    exchange_of,
    exchange_time,
    host_op_time,
    token_costs,
)
from xdsl_spatial.core.program_names import OpKind, is_index_program
from xdsl_spatial.core.program_names import op_kind as program_kind
from xdsl_spatial.dialects.q8 import Q8Part, stored_part
from xdsl_spatial.dialects.spatial import TARGET_PRESETS, ProgramOp, TargetPreset
from xdsl_spatial.frontends.llama import MAX_PREFILL, LlamaConfig, ModelError, build_model
from xdsl_spatial.interpreters.counting import program_traffic
from xdsl_spatial.interpreters.stats import layer_number
from xdsl_spatial.passes.q8_lower import lower_q8
from xdsl_spatial.passes.spatial_lower_ops import lower_ops

Progress = Callable[[str], None]

FFN_FORMATS = {
    "q8_0": (),
    "bfp4": ("ffn_gate", "ffn_up", "ffn_down"),
    "bfp4-ff1-ff3": ("ffn_gate", "ffn_up"),
}
"""How the FFN's weights are stored on the chip, and which of its products are then
block-float-4: none (Q8_0, block-float-8 on the chip, as every other product), all
three, or gate and up (FF1 and FF3 in tt-transformers' names) with down Q8_0."""


class Term(StrEnum):
    """What a part of a step's time is."""

    PROGRAMS = auto()
    """The spatial programs of the lowered step (`chip_time.py`)."""
    HOST_OPS = auto()
    """The ops left on the host (none when the whole step is lowered), estimated as
    programs (`step_time.py`)."""
    CHIPS = auto()
    """The gathers and sums between the chips."""
    TOKEN = auto()
    """What each token pays outside the chip: logits to the host, sampling, dispatch."""


TERM_LABELS = {
    Term.PROGRAMS: "spatial programs",
    Term.HOST_OPS: "ops left on the host (estimated as programs)",
    Term.CHIPS: "between chips",
    Term.TOKEN: "per token, outside the chip",
}


@dataclass(frozen=True)
class Scenario:
    """What is estimated: `batch` users (1 to 32) decoding together at `context`
    positions, on `chips` chips of `preset`, the FFN's weights in `ffn` format; with
    `products_only`, only the Q8_0 products lowered (`spatial-generate
    --products-only`), as a step over several chips is."""

    batch: int = 1
    context: int = 256
    chips: int = 1
    preset: str = "wormhole_n150"
    ffn: str = "q8_0"
    products_only: bool = False

    @property
    def whole_step(self) -> bool:
        """Every op of the step lowered to a program (`spatial-lower-ops`), as
        `spatial-generate` lowers a step on one chip."""
        return self.chips == 1 and not self.products_only

    def check(self, config: LlamaConfig) -> None:
        if not 1 <= self.batch <= MAX_PREFILL:
            raise ModelError(f"--batch: 1 to {MAX_PREFILL} users decode together, got {self.batch}")
        if self.context < self.batch:
            raise ModelError(f"--context: at least the batch ({self.batch}), got {self.context}")
        if self.context > config.context_length:
            raise ModelError(
                f"--context: {self.context} positions exceed the model's context length "
                f"{config.context_length}"
            )
        if self.preset not in TARGET_PRESETS:
            raise ModelError(
                f"--preset: unknown preset '{self.preset}', expected one of "
                + ", ".join(sorted(TARGET_PRESETS))
            )
        if self.ffn not in FFN_FORMATS:
            raise ModelError(f"--ffn: unknown format '{self.ffn}' ({', '.join(FFN_FORMATS)})")
        if self.chips < 1:
            raise ModelError(f"--chips: at least 1, got {self.chips}")
        if self.chips > 1:
            config.check_chips(self.chips)


@dataclass(frozen=True)
class OpCost:
    """One op of a step and its time."""

    name: str
    """The op's result (a program's: the product it computes, `blk.0.q`)."""
    kind: str
    """What it is: `matmul`, `norm`, `attention`, `all-reduce`, ..."""
    layer: int | None
    """The layer it belongs to (None: built once a step)."""
    term: Term
    seconds: float
    chip: int | None = None
    """The chip a program runs on (None: every chip, or a single-chip step)."""
    bound: str = ""
    """What bounds it: dram, noc, compute, launch, host (its dispatch), link."""
    independent: bool = False
    """A program that does not depend on the program before it (on its chip): it could
    start before that one ends, but is counted after it (see `StepTime.overlappable`)."""


@dataclass
class StepTime:
    """The time of one step, op by op: `ops` for the built layers (layer 0 stands for
    every layer when `layers_built` < `n_layer`) and the ops built once."""

    ops: list[OpCost]
    n_layer: int
    layers_built: int
    token: TokenCosts
    repeats: int = 1
    """Steps of this kind in a run (a prefill's chunks)."""

    def _weight(self, op: OpCost) -> float:
        """How many of the model's layers an op stands for."""
        if op.layer is None or self.layers_built == self.n_layer:
            return 1.0
        return self.n_layer / self.layers_built

    def _chip_seconds(self, ops: Iterable[OpCost], weighted: bool = True) -> float:
        """Programs of different chips at once (the slowest chip's), the rest in
        sequence; each op standing for its share of the layers (`weighted`) or once."""
        per_chip: dict[int, float] = {}
        rest = 0.0
        for op in ops:
            s = op.seconds * (self._weight(op) if weighted else 1.0)
            if op.chip is None:
                rest += s
            else:
                per_chip[op.chip] = per_chip.get(op.chip, 0.0) + s
        return rest + max(per_chip.values(), default=0.0)

    def term_seconds(self, term: Term) -> float:
        """One step's seconds of `term`."""
        if term == Term.TOKEN:
            return self.token.total
        return self._chip_seconds(op for op in self.ops if op.term == term)

    @property
    def step_seconds(self) -> float:
        """One step on the chip and the token's costs outside it."""
        return sum(self.term_seconds(t) for t in Term)

    @property
    def seconds(self) -> float:
        """Every step of the run (a prefill's chunks), once the token's costs."""
        return self.repeats * (self.step_seconds - self.token.total) + self.token.total

    def by_kind(self) -> dict[str, float]:
        """One step's seconds by op kind, over every layer (programs of several chips
        at once counted as the slowest chip's share)."""
        kinds: dict[str, list[OpCost]] = {}
        for op in self.ops:
            kinds.setdefault(op.kind, []).append(op)
        out = {k: self._chip_seconds(v) for k, v in kinds.items()}
        out["logits to the host"] = self.token.logits
        out["sampling"] = self.token.sampling
        out["host dispatch of the step"] = self.token.dispatch
        return dict(sorted(out.items(), key=lambda kv: -kv[1]))

    def layer_seconds(self) -> float:
        """One layer's seconds (the ops of layer 0)."""
        return self._chip_seconds((op for op in self.ops if op.layer == 0), weighted=False)

    def overlappable(self) -> int:
        """Programs of the step (over every layer) that could start before the program
        before them ends, not depending on its result (k and v after q, up after gate);
        counted in sequence, as a chip's command queue runs its programs."""
        return round(sum(self._weight(op) for op in self.ops if op.independent))

    def bounds(self) -> dict[str, int]:
        """How many of the step's ops (over every layer) each term bounds."""
        out: dict[str, int] = {}
        for op in self.ops:
            out[op.bound] = out.get(op.bound, 0) + round(self._weight(op))
        return dict(sorted(out.items(), key=lambda kv: -kv[1]))


@dataclass
class Estimate:
    """A model's prefill and decode on a chip, with what they were estimated for."""

    config: LlamaConfig
    scenario: Scenario
    decode: StepTime
    prefill: StepTime | None
    """None when not asked for."""
    notes: list[str] = field(default_factory=list)

    @property
    def decode_tokens_per_s_per_user(self) -> float:
        return 1.0 / self.decode.seconds

    @property
    def decode_tokens_per_s_total(self) -> float:
        return self.scenario.batch / self.decode.seconds

    @property
    def prefill_tokens_per_s(self) -> float:
        assert self.prefill is not None
        return self.scenario.context / self.prefill.seconds

    def summary(self) -> dict[str, Any]:
        """The estimate as JSON (what `spatial-estimate --json` prints)."""
        s = self.scenario
        return {
            "model": _describe(self.config),
            "preset": s.preset,
            "chips": s.chips,
            "batch": s.batch,
            "context": s.context,
            "ffn": s.ffn,
            "whole_step": s.whole_step,
            "decode": _step_json(self.decode, 1, s.batch),
            **({"prefill": _step_json(self.prefill, s.context, 1)} if self.prefill else {}),
            "notes": self.notes,
        }


def _describe(c: LlamaConfig) -> dict[str, Any]:
    return {
        "layers": c.n_layer,
        "d_model": c.d_model,
        "heads": c.n_head,
        "kv_heads": c.n_kv,
        "head_dim": c.head_dim,
        "d_ff": c.d_ff,
        "vocab": c.vocab,
        "tied_lm_head": c.lm_head == "token_embd.weight",
        "parameters": parameters(c),
    }


def _step_json(step: StepTime, tokens: int, users: int) -> dict[str, Any]:
    seconds = step.seconds
    return {
        "ms": seconds * 1e3,
        "ms_per_token": seconds * 1e3 / tokens,
        "tokens_per_s_per_user": tokens / seconds,
        "tokens_per_s_total": users * tokens / seconds,
        "steps": step.repeats,
        "terms_ms": {str(t): step.term_seconds(t) * 1e3 for t in Term},
        "per_layer_ms": step.layer_seconds() * 1e3,
        "per_kind_ms": {k: v * 1e3 for k, v in step.by_kind().items()},
        "bounds": step.bounds(),
        "programs_that_could_overlap": step.overlappable(),
    }


def parameters(c: LlamaConfig) -> int:
    """The model's weights: its products, the embedding when the head is untied, and
    its norms."""
    n = sum(k * v for _, k, v in c.products())
    if c.lm_head != "token_embd.weight":
        n += c.d_model * c.vocab
    return n + sum(n for _, n in c.vectors())


# --------------------------------------------------------------------------------------
# Op kinds
# --------------------------------------------------------------------------------------

_KINDS = (
    (re.compile(r"^(attn_in|ffn_in|head_in)(\.ss)?$"), "norm"),
    (re.compile(r"^(q_rope|k_rope|rope\.\w+)$"), "rope"),
    (re.compile(r"^(scores|max|exp|sum|pv|heads|v_heads)$"), "attention"),
    (re.compile(r"^cache(\.\d+)?$"), "kv cache update"),
    (re.compile(r"^(mid|out)$"), "residual add"),
    (re.compile(r"^ffn_mid$"), "silu x up"),
    (re.compile(r"^embd$"), "embedding"),
)


_PROGRAM_KINDS = {OpKind.CACHE: "kv cache update", OpKind.EMBEDDING: "embedding"}


def op_kind(op: Operation) -> str:
    """What a step's op is, in a word or two: a program or an op left on the host
    alike, by the value it makes (a lowered op's program makes the value the op made)."""
    if isinstance(op, ProgramOp):
        kind = program_kind(op.program_name.data)
        if kind in (OpKind.PRODUCTS, None):
            return "matmul" if op.KIND == "fold" else "matmul input (view)"
        if kind in _PROGRAM_KINDS:  # a cache's and an embedding's index programs too
            return _PROGRAM_KINDS[kind]
    hint = op.results[0].name_hint or "" if op.results else ""
    bare = re.sub(r"^blk\.\d+\.", "", hint)
    for pattern, kind in _KINDS:
        if pattern.search(bare):
            return kind
    if isinstance(op, ProgramOp):
        return str(program_kind(op.program_name.data))
    return op.name


# --------------------------------------------------------------------------------------
# Timing a built step
# --------------------------------------------------------------------------------------


def _in_block4(name: str, ffn: str) -> bool:
    """A tensor of a product `ffn` stores as block-float-4."""
    return any(f".{p}." in name for p in FFN_FORMATS[ffn])


def _part(name: str) -> Q8Part | None:
    stored = stored_part(name)
    return None if stored is None else stored[1]


def _program_cost(op: ProgramOp, preset: TargetPreset, ffn: str) -> tuple[ProgramTime, str]:
    """A program's time, its FFN weights stored as `ffn` says."""
    rec = program_traffic(op)
    assert rec.work is not None and rec.figures is not None
    dram, noc = rec.chip_dram_bytes(), rec.chip_noc_bytes()
    rate = None
    if any(_in_block4(t, ffn) for t in rec.loaded):
        # Block-float-4: 4 bits a value where Q8_0 has 8; the shared scale stays.
        values = [t for t in rec.loaded if _part(t) == Q8Part.VALUES]
        dram -= sum(rec.dram_loaded.get(t, rec.loaded[t]) for t in values) // 2
        noc -= sum(rec.loaded[t] for t in values) // 2
        rate = preset.chip.bfp4_macs
    t = program_time(rec.items, dram, noc, rec.work, rec.figures, rate)
    return t, str(t.bound)


def _caches(f: func.FuncOp) -> set[SSAValue]:
    """The step's KV caches: its cache arguments and what writes into them."""
    found: set[SSAValue] = {a for a in f.body.block.args if ".cache_" in (a.name_hint or "")}
    for op in f.body.block.ops:
        if isinstance(op, tensor.InsertSliceOp) and op.dest in found:
            found.add(op.result)
    return found


def time_step(
    f: func.FuncOp, preset: TargetPreset, users: int, ffn: str, traced: bool
) -> list[OpCost]:
    """Every op of the lowered step `f`, timed: programs by their traffic and work,
    the ops not yet lowered as programs, the chips' exchanges by the measured
    collectives. Untraced (`traced=False`), each op takes at least the host's time to
    dispatch it."""
    system = preset.system
    caches = _caches(f)
    chip_of: dict[SSAValue, int] = {}
    summed: set[SSAValue] = set()
    """Partial sums already all-reduced: the rest of their chain adds what came back."""
    out: list[OpCost] = []
    floor = 0.0 if traced else system.host_op_us * 1e-6

    fresh: dict[int | None, set[SSAValue]] = {}
    """What each chip's last program made, and what was made from it since."""

    def add(
        name: str,
        kind: str,
        term: Term,
        t: float,
        bound: str,
        chip: int | None,
        of: str,
        independent: bool = False,
    ) -> None:
        if floor > t:
            t, bound = floor, "host"
        out.append(OpCost(name, kind, layer_number(of), term, t, chip, bound, independent))

    chips = 1 + max((p.chip_index or 0 for p in f.walk() if isinstance(p, ProgramOp)), default=0)
    for op in f.body.block.ops:
        name = (op.results[0].name_hint or op.name) if op.results else op.name
        for made in fresh.values():
            if any(v in made for v in op.operands):
                made.update(op.results)
        # a cache's update is named for no layer: it belongs to its cache's
        name_of = op.dest.name_hint or name if isinstance(op, tensor.InsertSliceOp) else name
        if isinstance(op, ProgramOp):
            t, bound = _program_cost(op, preset, ffn)
            of = name
            kind = program_kind(op.program_name.data)
            if kind == OpKind.CACHE:
                # a cache's write is named for no layer: it belongs to the cache it stores
                of = next(iter(program_traffic(op).stored), name)
            if op.chip_index is not None:
                chip_of[op.results[0]] = op.chip_index
            made = fresh.get(op.chip_index)
            free = made is not None and not any(v in made for v in op.operands)
            if is_index_program(op.program_name.data):
                # Index programs (where the step's writes land, a token's tile): made
                # from the position or the tokens alone, they could run at the step's
                # start; the programs around them chain past them.
                free = True
            else:
                fresh[op.chip_index] = set(op.results)
            add(
                name,
                op_kind(op),
                Term.PROGRAMS,
                t.total,
                bound,
                op.chip_index,
                of,
                free,
            )
            continue
        if isinstance(op, arith.AddfOp) and _continues_sum(op, summed, chip_of):
            summed.add(op.result)
            continue
        kind = exchange_of(op, chip_of)
        if kind is not None:
            nbytes = chip_bytes(op.results[0].type)
            t = exchange_time(kind, nbytes, chips, system.links)
            if kind == Exchange.ALL_REDUCE:
                summed.add(op.results[0])
            add(name, str(kind).replace("_", "-"), Term.CHIPS, t, "link", None, name_of)
            continue
        ht = host_op_time(op, preset.chip, users, caches)
        if ht is not None:
            add(name, op_kind(op), Term.HOST_OPS, ht.total, str(ht.bound), None, name_of)
    return out


def _continues_sum(op: arith.AddfOp, summed: set[SSAValue], chip_of: dict[SSAValue, int]) -> bool:
    """`op` adds one more chip's partial sum to a sum the chips already exchanged."""
    a, b = op.lhs, op.rhs
    return (a in summed and b in chip_of) or (b in summed and a in chip_of)


def _step(
    built: LlamaConfig,
    scenario: Scenario,
    rows: int,
    users: int,
    traced: bool,
    n_layer: int,
    progress: Progress,
) -> StepTime:
    preset = TARGET_PRESETS[scenario.preset]
    what = f"a step of {rows} row{'s' * (rows > 1)} at {scenario.context} positions"
    progress(f"building {what} ({built.n_layer} of {n_layer} layers)")
    module = build_model(
        built, rows, scenario.context, functions=("prefill",), chips=scenario.chips
    )
    progress(f"lowering {what}")
    lower_q8(module, optimize=True, preset=scenario.preset)
    if scenario.whole_step:
        progress(f"lowering the rest of {what} (spatial-lower-ops)")
        lower_ops(module, preset=scenario.preset)
    (f,) = [op for op in module.body.block.ops if isinstance(op, func.FuncOp)]
    progress(f"timing {what}")
    ops = time_step(f, preset, users, scenario.ffn, traced)
    token = token_costs(rows, built.vocab, users, preset.system)
    return StepTime(ops, n_layer, built.n_layer, token)


def _quiet(_: str) -> None:
    pass


def estimate(
    config: LlamaConfig,
    scenario: Scenario,
    *,
    whole: bool = False,
    prefill: bool = True,
    progress: Progress = _quiet,
) -> Estimate:
    """The decode and prefill times of `config`'s model in `scenario` (one layer built
    and counted `n_layer` times; every layer with `whole`; no prefill without
    `prefill`, its time then None)."""
    scenario.check(config)
    built = config if whole else replace(config, n_layer=1)
    decode = _step(built, scenario, scenario.batch, scenario.batch, True, config.n_layer, progress)
    chunks = None
    if prefill:
        chunk = min(MAX_PREFILL, scenario.context)
        chunks = _step(built, scenario, chunk, 1, False, config.n_layer, progress)
        chunks.repeats = math.ceil(scenario.context / chunk)
    notes = [
        "every op of the step is a spatial program (spatial-lower-ops)"
        if scenario.whole_step
        else "ops left on the host (norms, RoPE, attention, residual adds, the KV cache's "
        "update) are estimated as programs would run them",
        "decode is traced (op-to-op gap); prefill is not (each op at least the host's "
        "dispatch), in chunks of at most 32 tokens",
        "each user's KV cache is read whole every step, in bf16",
    ]
    if FFN_FORMATS[scenario.ffn]:
        products = ", ".join(FFN_FORMATS[scenario.ffn])
        notes.append(f"{products} are block-float-4 on the chip; every other product Q8_0")
    if scenario.chips > 1:
        notes.append(
            f"{scenario.chips} chips: every N-split product's result is all-gathered and "
            "every K-split one's all-reduced, as the lowering combines them"
        )
    return Estimate(config, scenario, decode, chunks, notes)


def model_config(path: str) -> LlamaConfig:
    """The shapes of the model at `path`: a Hugging Face `config.json` (or a folder
    holding one), or a GGUF file, of which only the header is read."""
    from pathlib import Path

    from xdsl_spatial.frontends.gguf_io import GGUFError, read_header
    from xdsl_spatial.frontends.hf_config import read_hf_config
    from xdsl_spatial.frontends.llama import read_config

    where = Path(path)
    if where.is_dir():
        where = where / "config.json"
    try:
        with open(where, "rb") as f:
            magic = f.read(4)
    except OSError as e:
        raise ModelError(f"{where}: cannot read the file: {e.strerror or e}") from None
    if magic == b"GGUF":
        try:
            header = read_header(where)
        except GGUFError as e:
            raise ModelError(str(e)) from None
        return read_config(header, str(where))
    return read_hf_config(where)


def step_line(
    config: LlamaConfig,
    context: int,
    chips: int = 1,
    preset: str = "",
    products_only: bool = False,
    users: int = 1,
) -> str:
    """One line: a whole decode step of `users` users estimated (what `spatial-generate
    --stats` adds to its programs' time), term by term, lowered as the model was."""
    scenario = Scenario(
        users, context, chips, preset or Scenario.preset, products_only=products_only
    )
    e = estimate(config, scenario)
    d = e.decode
    terms = ", ".join(f"{TERM_LABELS[t]} {d.term_seconds(t) * 1e3:.3g} ms" for t in Term)
    rate = f"{e.decode_tokens_per_s_per_user:,.1f} tokens a second"
    if users > 1:
        rate = (
            f"{e.decode_tokens_per_s_total:,.1f} tokens a second in total, "
            f"{e.decode_tokens_per_s_per_user:,.1f} per user ({users} users)"
        )
    return (
        f"a whole decode step on {scenario.preset} (spatial-estimate): {d.seconds * 1e3:.3g} ms, "
        f"{rate}: {terms}"
    )
