"""
Generating with a llama GGUF checkpoint on the simulated chip: the model built by
`xdsl_spatial.frontends.llama`, lowered with `q8-lower` (or not), its weights bound from the
file, each function compiled once (by the compiled engine, or by the native one:
`options=RunOptions(Engine.NATIVE)`) and called step by step.

```python
model = load_model("model.gguf", batch=32, positions=256, requantize=True)
run = generate(model, prompt_ids, steps=16, sampler=Sampler(temperature=0.7, seed=1))
print(run.tokens, run.prompt_ms, run.decode_ms, run.step_bytes)
```

A prompt of any length (up to the cache) is read in chunks: each chunk of up to `batch`
tokens is one call of `@prefill` at its first position, its rows past the chunk's tokens
padded. A padded row writes keys and values at positions past the chunk, but no real
row attends to them (the mask is causal), and the step that reaches such a position
writes its own there before it reads it: the cache holds exactly what one token at a
time would have written. Where a whole chunk would run past the cache, or few tokens
are left (`few_tokens`), the rest are fed one at a time through `@decode`.

The last prompt position's logits give the first generated token; each decode step
feeds the last token at the next position and gives one more: greedily (the largest
logit, the lowest id on a tie) or drawn by a `Sampler` (top-k, then top-p, then the
temperature, as llama.cpp's sampler chain orders them) from numpy's `Generator`, so a
seed gives the same tokens every run. A stop token (end of text or of turn) ends it,
and so do logits that hold NaN (a damaged weight, an overflow: every token after
would be drawn from nothing), with one warning and no token chosen from them.

Each function is compiled before its first call (`Model.compile`), not before it is
needed: the prompt's function before the prompt is read, `@decode` before the first
step, so the first token does not wait for `@decode`. `Model.start` begins compiling
the functions a run will call at once: the native engine prepares each here and has
another process make its machine code (`native.start_native`), so `@decode` compiles
while `@prefill` does and while the prompt is read.

With `RunOptions(cache=True)` (or a directory) `load_model` keeps what it made on disk
(`model_cache.py`): the next load of the same file with the same options is one read
(the native engine's functions as references to their code in its compile cache).
With `keep=False` the model is kept when the caller says (`Model.keep`, after a run:
every function compiled first, the ones the run did not call too).
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from xdsl_spatial.core import disk_cache
from xdsl_spatial.core.memory import collector_frozen, collector_paused
from xdsl_spatial.core.progress import Progress, quiet
from xdsl_spatial.core.q8_names import stored_part
from xdsl_spatial.core.tile_columns import TileColumns, placed
from xdsl_spatial.frontends import model_cache
from xdsl_spatial.frontends.binding import bind_apart
from xdsl_spatial.frontends.binding import bind_model as bind_model  # (importable from here too)
from xdsl_spatial.frontends.model.architectures import read_config
from xdsl_spatial.frontends.model.config import (
    BATCH_ENTRY,
    WEIGHT_DTYPES,
    LlamaConfig,
    ModelError,
    cache_shapes,
    weight_args,
)
from xdsl_spatial.frontends.sampling import Sampler as Sampler  # (importable from here too)
from xdsl_spatial.frontends.sampling import greedy, has_nan
from xdsl_spatial.frontends.tokenizer import read_metadata
from xdsl_spatial.interpreters.errors import KernelError, RunError, SpatialRuntimeError
from xdsl_spatial.interpreters.native import NativeExecutable
from xdsl_spatial.interpreters.options import DEFAULT, Distribution, Engine, RunOptions

ENTRIES = ("prefill", "decode")

T = TypeVar("T")


@dataclass
class StepBytes:
    """What the folds of one step moved: weights (int8 values and scales, whole tiles)
    and view reads, over the weights' elements."""

    weight: int
    view: int
    weight_elems: int
    programs: int

    @property
    def total(self) -> int:
        return self.weight + self.view

    @property
    def per_weight(self) -> float:
        return self.total / self.weight_elems if self.weight_elems else 0.0


def step_bytes(traffic: Any) -> StepBytes:
    """The folds' loads in one execution's traffic."""
    weight = view = elems = n = 0
    for p in traffic.programs:
        if not p.weight_elems:
            continue
        n += 1
        elems += p.weight_elems
        for tensor, b in p.loaded.items():
            if stored_part(tensor) is not None:
                weight += b
            else:
                view += b
    return StepBytes(weight, view, elems, n)


Signature = list[tuple[tuple[int, ...], np.dtype[Any]]]
"""A function's arguments: shape and element type of each."""


def check_arrays(
    what: str, arrays: Sequence[np.ndarray], want: Sequence[tuple[tuple[int, ...], Any, str]]
) -> None:
    """That `arrays` are as many as `want` and each of its (shape, dtype, name): a
    `ModelError` naming the first that is not."""
    if len(arrays) != len(want):
        raise ModelError(f"the model takes {len(want)} {what} arrays, got {len(arrays)}")
    for a, (shape, dtype, name) in zip(arrays, want):
        if a.shape != shape or a.dtype != dtype:
            raise ModelError(
                f"{what} {name} is {a.dtype} {a.shape}, the model takes {dtype} {shape}"
            )


@dataclass
class Model:
    """A built (and possibly lowered) model with its weights bound."""

    config: LlamaConfig
    module: Any
    """The functions as IR (None for a model loaded from the disk cache, which holds
    their executables instead)."""
    weights: list[np.ndarray]
    """The weight arguments in the functions' order (after the tokens and position),
    in one mapping backed by huge pages where the system allows, each starting on a
    cache line (`memory.in_huge_pages`)."""
    batch: int
    """Tokens one `@prefill` chunk takes."""
    positions: int
    lowered: bool
    decisions: list[Any] = field(default_factory=list)
    """What `q8-lower` did with each product (empty when not lowered)."""
    lower_s: float = 0.0
    options: RunOptions = DEFAULT
    """How the functions run: the engine (`compiled` and `native` compile each once,
    timed apart in `seconds["compile"]`; `reference` runs the IR op by op, with nothing
    to compile), its threads and kernels, the chips every product is split over, and
    where they run (on Ray: each chip's programs in a Ray actor holding its weight
    shards)."""
    executables: dict[str, Any] = field(default_factory=dict)
    """Each function compiled once, when first called or by `compile` (on Ray: its
    chips made then, with the weights)."""
    signatures: dict[str, Signature] = field(default_factory=dict)
    """Each function's arguments, checked before a call."""
    tokenizer: dict[str, Any] = field(default_factory=dict)
    """The file's tokenizer metadata (`tokenizer.read_metadata`)."""
    requantized: list[Any] = field(default_factory=list)
    """What re-quantising cost, per weight (empty when none was)."""
    lowered_count: int = 0
    """Products `q8-lower` lowered."""
    declined: list[str] = field(default_factory=list)
    """`q8-lower`'s line for each product it left as it was."""
    whole_step: bool = False
    """Every op of the step lowered (`spatial-lower-ops`), not only the products."""
    ops_lowered: int = 0
    """Other ops `spatial-lower-ops` lowered (both functions)."""
    ops_declined: list[str] = field(default_factory=list)
    """`spatial-lower-ops`'s line for each op it left as it was."""
    host_ops: dict[str, int] = field(default_factory=dict)
    """Per function, the ops left computing on the host (0: the whole step is spatial
    programs, reshapes and constants)."""
    seconds: dict[str, float] = field(default_factory=dict)
    """Where loading took its time: `read`, `bind`, `build`, `lower` (q8-lower),
    `lower_ops` (spatial-lower-ops), `compile`
    (compiling every function), `cache` (reading or writing the disk cache)."""
    cached: bool = False
    """Loaded from the disk cache."""
    compiling: dict[str, Any] = field(default_factory=dict)
    """The functions another process is compiling (`start`)."""
    keep_in: tuple[Path, str] | None = None
    """The disk cache and key `keep` writes the model to (None: not kept, or kept)."""
    kept_as: str | None = None
    """Its key in the disk cache (None: no cache), which a batched model's derives from."""
    entries: tuple[str, ...] = ENTRIES
    """Its functions: `@prefill` and `@decode`, or a batched model's `@decode_batch`,
    whose weights are its base model's (its disk cache entry holds none)."""

    unlowered: tuple[str, ...] = ()
    """The functions `load_model` left for later (its `first` did not name them):
    `lower` lowers them when first needed."""

    laid_for: set[str] = field(default_factory=set)
    """The functions whose native code's weights in tile columns are laid so in
    `weights` (`lay_weights`)."""

    def __post_init__(self) -> None:
        self.check_weights()
        moved = placed(self.weights)
        if any(a is not w for a, w in zip(moved, self.weights)):
            self.weights = moved  # (else the same list: a batched model shares its base's)

    def absorb(self, lowered: Lowered) -> None:
        """What lowering some of the functions decided, added to what the model says
        of its lowering (`decisions` and the counts and lines made from them)."""
        self.decisions = [*self.decisions, *lowered.decisions]
        self.lowered_count += sum(1 for d in lowered.decisions if d.lowered)
        self.declined = [*self.declined, *(d.line() for d in lowered.decisions if not d.lowered)]
        self.ops_lowered += sum(1 for d in lowered.ops if d.lowered)
        self.ops_declined = [*self.ops_declined, *(d.line() for d in lowered.ops if not d.lowered)]
        merged = {**self.host_ops, **lowered.host_ops}
        order = {e: i for i, e in enumerate(self.entries)}  # (the entries' order: the report's)
        self.host_ops = dict(sorted(merged.items(), key=lambda e: order.get(e[0], len(order))))
        self.lower_s = self.seconds.get("lower", 0.0)

    def lower(self, progress: Progress = quiet) -> None:
        """The functions left for later (`unlowered`) lowered now, together (what a
        function that is called, compiled or kept needs first)."""
        if self.unlowered:
            names = self.unlowered
            label = ", ".join(f"@{n}" for n in names)
            self.absorb(
                lower_functions(self.module, names, self.whole_step, self.seconds, progress, label)
            )
            self.unlowered = ()

    def plain_weights(self) -> list[np.ndarray]:
        """The weights, each laid in rows (a copy of each the native engine reads laid
        in tile columns: `lay_weights`): what another engine or model is given."""
        return [w.plain() if isinstance(w, TileColumns) else w for w in self.weights]

    def lay_weights(self, entry: str, exe: Any, first: int) -> None:
        """Each weight the native code `exe` of `entry` reads laid in tile columns
        (`NativeExecutable.lay`; the weights its arguments from `first`) laid so, once,
        in place of its array in `weights`: the model holds the one copy the code
        reads (the weights placed in huge pages anew around it). A weight laid already
        stays so (a function that read it in rows would be given it laid in rows at
        each call: none of the model's does)."""
        if entry in self.laid_for or not isinstance(exe, NativeExecutable):
            return
        laid = list(exe.lay(self.weights, first))
        if any(a is not w for a, w in zip(laid, self.weights)):
            self.weights[:] = placed(laid)  # in place: a batched model shares the list
        self.laid_for.add(entry)

    def check_weights(self) -> None:
        """That the weights are the functions' weight arguments (`weight_args`), in
        order, of their shapes and element types: a `ModelError` naming the first that
        is not. No weights at all pass: a batched model kept in the disk cache holds
        none (its base model's are given to it when it is read back)."""
        if not self.weights:
            return
        want = [(shape, WEIGHT_DTYPES[e], name) for name, shape, e in weight_args(self.config)]
        check_arrays("weight", self.weights, want)

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Unpickled (from the disk cache): its weights placed as `__init__`'s are."""
        self.__dict__.update(state)
        self.__post_init__()

    @property
    def chips(self) -> int:
        """The chips every product is split over (1: one chip)."""
        return self.options.chips

    def signature(self, entry: str) -> Signature:
        if entry not in self.signatures:  # (a model read from the disk cache has them all)
            from xdsl_spatial.interpreters.runner import argument_types, find_function

            self.signatures[entry] = argument_types(find_function(self.module, entry))
        return self.signatures[entry]

    def start(self, entries: Sequence[str], progress: Progress = quiet) -> None:
        """Begin compiling `entries` (lowered first, if `load_model` left them for
        later): with the native engine each is prepared here and its machine code made
        by another process while this one goes on (`compile` waits for it); the
        compiled engine compiles a function when it is first called. The time spent
        compiling here is added to `seconds["compile"]`."""
        if any(e in self.unlowered for e in entries):
            self.lower(progress)
        if self.options.engine is not Engine.NATIVE or self.module is None:
            return
        for entry in entries:
            if entry not in self.executables and entry not in self.compiling:
                self.signature(entry)
                _begin(self.module, entry, self.options, self.compiling, self.seconds, progress)

    def compile(self, entry: str, progress: Progress | None = None) -> Any:
        """`entry`'s executable, compiled now if it was not (lowered first if it was
        left for later; or waited for, when `start` began it; the time it took added
        to `seconds["compile"]`; `progress` told how far it is)."""
        if entry in self.unlowered:
            self.lower(progress or quiet)
        if self.options.engine is Engine.REFERENCE:
            return None
        exe = self.executables.get(entry)
        if exe is None:
            if self.module is None:
                raise ModelError(f"the model has no function @{entry}")
            t0 = time.perf_counter()
            self.signature(entry)
            job = self.compiling.pop(entry, None)
            if job is not None:
                exe = job.result()
            else:
                from xdsl_spatial.interpreters.runner import compile_module

                o = self.options
                exe = compile_module(
                    self.module, entry, o.engine, o.threads, progress, kernels=o.kernels
                )
            self.executables[entry] = exe
            self.seconds["compile"] = self.seconds.get("compile", 0.0) + time.perf_counter() - t0
        return exe

    def keep(self, progress: Progress = quiet) -> None:
        """Write the model to the disk cache `load_model` was given, once: every
        function compiled first (the kept model holds executables, not IR)."""
        if self.keep_in is None:
            return
        where, key = self.keep_in
        self.start(self.entries, progress)
        for entry in self.entries:
            if entry not in self.executables:
                progress(f"compiling @{entry}")
                self.compile(entry, progress)
        progress("writing the model to the cache")
        t0 = time.perf_counter()
        weights = self.weights if self.entries == ENTRIES else []  # (a batched model's: none)
        kept = dataclasses.replace(
            self, module=None, weights=weights, decisions=[], seconds={}, compiling={}, keep_in=None
        )
        kept.cached = True
        if model_cache.store(where, key, kept):  # (else it warned: nothing written)
            self.seconds["cache"] = time.perf_counter() - t0
        self.keep_in = None

    def _run(
        self, entry: str, head: list[np.ndarray], caches: Sequence[Any], donate: bool = False
    ) -> Any:
        """One call of the function `entry` on `head` (its tokens and positions), the
        model's weights and `caches`: the one place a step reaches the engine.
        `donate`: the caches are the caller's no longer, and the native engine writes
        the new ones where they lie (`NativeExecutable`'s `donate`). The arguments
        but the weights are checked here, the weights when the model is made
        (`check_weights`): a step would look at each of ~550 weight arrays again,
        which the products' streaming has pushed out of the CPU's caches (SmolLM2 on
        the EPYC: the step's time outside the native call 0.45-0.52 ms with the
        weights checked each step, 0.19-0.23 ms without)."""
        if entry in self.unlowered:
            self.lower()
        weights = self.weights
        if self.options.engine is not Engine.NATIVE:  # (weights the native engine laid)
            weights = self.plain_weights()
        args = [*head, *weights, *caches]
        if self.options.distributed is Distribution.RAY:
            exe = self.executables.get(entry)
            if exe is None:
                if self.module is None:
                    raise ModelError("a model loaded from the disk cache runs on this host only")
                from xdsl_spatial.interpreters.runner import distribute

                exe = self.executables[entry] = distribute(
                    self.module, entry, args, address=self.options.address
                )
            return exe.call(args)
        if self.options.engine is Engine.REFERENCE:
            from xdsl_spatial.interpreters.runner import execute

            return execute(self.module, entry, args, options=self.options)
        exe = self.compile(entry)
        if self.options.engine is Engine.NATIVE:  # its weights as its code reads them
            self.lay_weights(entry, exe, len(head))
            args = [*head, *self.weights, *caches]
        want = self.signature(entry)
        if len(args) != len(want):
            raise RunError(f"@{entry} takes {len(want)} arguments, got {len(args)}")
        first = len(head) + len(self.weights)
        for i, a in [*enumerate(head), *enumerate(caches, first)]:
            shape, dtype = want[i]
            if a.shape != shape or a.dtype != dtype:
                raise RunError(
                    f"@{entry}: argument {i} is {a.dtype} {a.shape}, the function takes "
                    f"{dtype} {shape}"
                )
        try:
            return (
                exe(*args, donate=True)
                if donate and self.options.engine is Engine.NATIVE
                else exe(*args)
            )
        except (SpatialRuntimeError, KernelError) as e:
            raise RunError(str(e)) from None

    def close(self) -> None:
        """End the chips' Ray actors and the compiles still running, if any."""
        for entry, exe in list(self.executables.items()):
            if hasattr(exe, "close"):
                exe.close()
                del self.executables[entry]
        for job in self.compiling.values():
            job.close()
        self.compiling.clear()

    def new_caches(self) -> list[np.ndarray]:
        """An empty KV cache: zeros."""
        return [np.zeros(s, np.float32) for s in cache_shapes(self.config, self.positions)]

    def prefill(
        self, tokens: Sequence[int], pos: int, caches: Sequence[np.ndarray], donate: bool = False
    ) -> tuple[np.ndarray, list[np.ndarray], Any]:
        """One chunk of up to `batch` tokens at positions `pos`...: their logits (one
        row per token), the caches with their keys and values, and the traffic. With
        `donate`, `caches` are given up: the native engine writes the new keys and
        values into them and returns them (no copy of each whole cache), so they must
        not be read for the old state afterwards (`decode` and `decode_batch` too)."""
        n = len(tokens)
        if not 1 <= n <= self.batch:
            raise ModelError(f"a prefill chunk takes 1 to {self.batch} tokens, got {n}")
        if not 0 <= pos <= self.positions - self.batch:
            raise ModelError(
                f"a prefill chunk at position {pos} runs past the cache's {self.positions} positions"
            )
        padded = np.zeros(self.batch, np.int32)
        padded[:n] = tokens
        pos_arg = np.array([pos], np.int32)
        r = self._run("prefill", [padded, pos_arg], caches, donate)
        return r.outputs[0][:n], list(r.outputs[1:]), r.traffic

    def decode(
        self, token: int, pos: int, caches: Sequence[np.ndarray], donate: bool = False
    ) -> tuple[np.ndarray, list[np.ndarray], Any]:
        if not 0 <= pos < self.positions:
            raise ModelError(f"position {pos} is outside the cache's {self.positions} positions")
        head = [np.array([token], np.int32), np.array([pos], np.int32)]
        r = self._run("decode", head, caches, donate)
        return r.outputs[0], list(r.outputs[1:]), r.traffic

    def decode_batch(
        self,
        tokens: np.ndarray,
        pos: np.ndarray,
        caches: Sequence[np.ndarray],
        donate: bool = False,
    ) -> tuple[np.ndarray, list[np.ndarray], Any]:
        """One `@decode_batch` step (`batched.py`): a token of each sequence at its own
        position, its own row of the batched caches."""
        if pos.min() < 0 or pos.max() >= self.positions:
            raise ModelError(f"a position is outside the cache's {self.positions} positions")
        r = self._run(BATCH_ENTRY, [tokens, pos], caches, donate)
        return r.outputs[0], list(r.outputs[1:]), r.traffic

    def decode_entry(self) -> str:
        """The function a decode step calls."""
        return "decode"

    def used(self, prompt_len: int, steps: int) -> list[str]:
        """The functions a prompt of `prompt_len` tokens and `steps` decode steps call."""
        return used_entries(self.batch, self.positions, prompt_len, steps)

    def plan(self, prompt_len: int) -> list[tuple[int, int]]:
        """How a prompt of `prompt_len` tokens is read (`read_plan`)."""
        return read_plan(self.batch, self.positions, prompt_len)


def few_tokens(batch: int) -> int:
    """Tokens few enough to read a `@decode` step each: a padded `@prefill` chunk of
    `batch` tokens costs about `batch / 4` steps (docs/model.md), and is then never
    compiled."""
    return max(1, batch // 4)


def read_plan(batch: int, positions: int, prompt_len: int) -> list[tuple[int, int]]:
    """How a model with a `@prefill` of `batch` tokens and a cache of `positions` reads
    a prompt of `prompt_len` tokens: (first position, tokens) of each call, a `@prefill`
    chunk where more than `few_tokens` are left and a whole chunk fits the cache, else
    one `@decode` step a token."""
    out = []
    pos = 0
    while pos < prompt_len:
        left = prompt_len - pos
        n = min(left, batch) if left > few_tokens(batch) and pos + batch <= positions else 1
        out.append((pos, n))
        pos += n
    return out


def used_entries(batch: int, positions: int, prompt_len: int, steps: int) -> list[str]:
    """The functions a prompt of `prompt_len` tokens and `steps` decode steps call, in
    a model with a `@prefill` of `batch` tokens and a cache of `positions`."""
    calls = {"prefill" if n > 1 else "decode" for _, n in read_plan(batch, positions, prompt_len)}
    return [e for e in ENTRIES if e in calls or (e == "decode" and steps)]


def _beside(f: Callable[..., T], *args: Any) -> Future[T]:
    """`f(*args)` begun on a thread of its own while this one goes on (the digest of a
    file, which hashlib computes without Python's lock, beside reading its head and
    the prompt's tokens: 0.1 s of SmolLM2's cached start)."""
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="xdsl-spatial-beside")
    try:
        return pool.submit(f, *args)
    finally:
        pool.shutdown(wait=False)


def _begin(
    module: Any,
    entry: str,
    options: RunOptions,
    compiling: dict[str, Any],
    seconds: dict[str, float],
    progress: Progress,
) -> None:
    """`entry` of `module` begun by the native engine (`runner.start_compile`) into
    `compiling`, the seconds it took here added to `seconds["compile"]`."""
    from xdsl_spatial.interpreters.runner import start_compile

    progress(f"compiling @{entry} (its machine code in a process of its own)")
    t0 = time.perf_counter()
    compiling[entry] = start_compile(
        module, entry, options.threads, progress=progress, kernels=options.kernels
    )
    seconds["compile"] = seconds.get("compile", 0.0) + time.perf_counter() - t0


@contextmanager
def _without(module: Any, aside: Sequence[Any]) -> Iterator[None]:
    """`module` without its top-level ops `aside` while the with-block runs (a pass
    over it rewrites the rest), then each back in its place."""
    block = module.body.block
    order = list(block.ops)
    for op in aside:
        op.detach()
    try:
        yield
    finally:
        for i, op in enumerate(order):
            if any(op is a for a in aside):
                after = next((o for o in order[i + 1 :] if o.parent is block), None)
                if after is None:
                    block.add_op(op)
                else:
                    block.insert_op_before(op, after)


def _timed(f: Callable[[], Any]) -> tuple[Any, float]:
    """`f()` and the seconds it took."""
    t0 = time.perf_counter()
    return f(), time.perf_counter() - t0


def _read_head(
    path: str, reader: Any, config: LlamaConfig | None, progress: Progress
) -> tuple[Any, LlamaConfig, dict[str, Any]]:
    """The GGUF file's reader (`reader`, or opened now), its config (`config`, or read
    now) and its tokenizer metadata."""
    if reader is None:
        from xdsl_spatial.frontends.gguf_io import open_gguf

        progress(f"reading {path} ({_megabytes(path)})")
        reader = open_gguf(path)
    if config is None:
        config = read_config(reader, str(path))
    return reader, config, read_metadata(reader)


Check = Callable[[LlamaConfig, dict[str, Any]], int | None]
"""Called with the config and the tokenizer metadata before the seconds that building
takes (a prompt's checks, say): it raises to stop the load, and may return the KV cache
positions the run needs (its prompt's tokens and its steps: `config.fitted_positions`),
which size the cache when no `positions` are given."""


def load_model(
    path: str,
    batch: int,
    positions: int | None = None,
    *,
    lower: bool = True,
    whole_step: bool = True,
    requantize: bool = False,
    on_requantize: Callable[[Any], None] | None = None,
    progress: Progress = quiet,
    reader: Any = None,
    config: LlamaConfig | None = None,
    weights: list[np.ndarray] | None = None,
    check: Check | None = None,
    text: str | None = None,
    text_name: str = "<module>",
    keep: bool = True,
    options: RunOptions = DEFAULT,
    first: Sequence[str] | Callable[[], Sequence[str]] | None = None,
) -> Model:
    """Read, bind, build and lower (unless `lower=False`) the model of the GGUF file
    `path` with a `@prefill` of `batch` tokens and a cache of `positions` (default: what
    `check` returns, else the config's `default_positions`; with a `check` and no
    `positions`, the file's metadata is read before the disk cache is looked in, so that
    the key holds the positions), every product split over `options.chips` chips
    (`llama.ROW_SPLIT`). Lowering puts the whole step on the chip: its Q8_0 products
    (`q8-lower`) and every other op (`spatial-lower-ops`); with `whole_step=False`, or
    over several chips, only the products (the other ops run on the host). An open
    `reader`, and the `config` and bound `weights` of a model of the same file, are
    reused. The weights are bound by a process of their own (`binding.bind_apart`)
    while the module is built and lowered (the reader, which holds all the file's
    metadata, let go first). `text` is a module to run
    instead of the built one (e.g. the PyTorch model torch-mlir exported,
    `spatial-gguf --emit-model --frontend torch`; read from the file `text_name`, which
    its diagnostics name): its functions must have the built model's arguments and
    results for this batch and cache (`llama.check_signatures`).

    `options` (`RunOptions`, checked when made) say how the functions run: the engine,
    its threads and kernels, the chips and where they run. With `options.cache` (True:
    `model_cache.cache_dir()`; or a directory; never for the reference engine or chips
    on Ray: `RunOptions.cache_dir`), the model is compiled whole and kept on disk, keyed
    by the file and the options; a later load with the same key reads it back instead
    (`Model.cached`). With `keep=False` it is kept when the caller calls `Model.keep`
    (after a run, which compiled only what it called).

    `first`: the functions a run calls first (the ones a prompt calls: `used_entries`),
    or a callable giving them once `check` has run. Only these are lowered now, each
    alone and in turn, and with the native engine each one's machine code begun as
    soon as it is lowered (`Model.start`); the others are lowered when first needed
    (`Model.lower`: their compile, a call, `Model.keep`), so that a cold start waits
    for what it calls and nothing else. None (the default): every function lowered
    now, nothing begun."""
    chips = options.chips
    where = options.cache_dir
    key = None
    if where is not None and (weights is not None or config is not None):
        raise ModelError("a model kept in the disk cache binds its own weights")
    tokenizer: dict[str, Any] = {}
    read = False  # the file's head: its config and tokenizer
    head_s = 0.0
    digest = None if where is None else _beside(disk_cache.file_digest, path)
    if check is not None and positions is None:  # the run's own size, from its prompt
        t0 = time.perf_counter()
        reader, config, tokenizer = _read_head(path, reader, config, progress)
        read = True
        positions = check(config, tokenizer)
        head_s = time.perf_counter() - t0
    if where is not None:
        progress(f"checking the disk cache: the digest of {Path(path).name}")
        key = model_cache.model_key(
            path,
            digest,
            batch=batch,
            positions=positions,
            lower=lower,
            whole_step=lower and whole_step and chips == 1,
            requantize=requantize,
            chips=chips,
            module=None if text is None else hashlib.sha256(text.encode()).hexdigest(),
            engine=options.engine.value,
            threads=options.threads,
            kernels=options.kernels_name,
        )
        t0 = time.perf_counter()
        progress("reading the model from the cache")
        model = model_cache.load(where, key, Model)
        if isinstance(model, Model):
            model.seconds, model.kept_as = {"cache": time.perf_counter() - t0}, key
            model.options = options  # the kept options, with this run's address and stats
            if check is not None and not read:
                check(model.config, model.tokenizer)
            return model
    seconds: dict[str, float] = {}
    costs: list[Any] = []

    def cost(r: Any) -> None:
        costs.append(r)
        if on_requantize is not None:
            on_requantize(r)

    t0 = time.perf_counter()
    if not read and (config is None or weights is None or check is not None):
        reader, config, tokenizer = _read_head(path, reader, config, progress)
    assert config is not None
    if positions is None:
        positions = config.default_positions()
    if check is not None and not read:
        check(config, tokenizer)
    if chips > 1:
        config.check_chips(chips)  # before the seconds that binding takes
    seconds["read"] = head_s + time.perf_counter() - t0
    # Binding runs in another process (binding.py says why), which a thread here
    # waits for, telling its progress as it comes: on two cores binding and lowering
    # take the time of the longer.
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="xdsl-spatial-bind") as pool:
        bound = None
        if weights is None:
            progress("binding the weights")
            bind = partial(
                bind_apart,
                str(path),
                config,
                requantize=requantize,
                on_requantize=cost,
                progress=progress,
            )
            bound = pool.submit(_timed, bind)
        reader = None
        if text is None:
            progress(
                f"building the model ({config.n_layer} layers, {len(config.products())} products)"
            )
            from xdsl_spatial.frontends.model.step import build_model

            t0 = time.perf_counter()
            with collector_paused():
                module = build_model(config, batch, positions, chips=chips)
            seconds["build"] = time.perf_counter() - t0
        else:
            from xdsl_spatial.core.ir_io import parse_module
            from xdsl_spatial.frontends.model.step import check_signatures

            if chips > 1:
                raise ModelError("a given module runs on one chip (its products carry no split)")
            progress(f"parsing the module ({config.n_layer} layers)")
            t0 = time.perf_counter()
            module = parse_module(text, text_name)
            check_signatures(config, module, batch, positions)
            seconds["parse"] = time.perf_counter() - t0
        if bound is not None and bound.done():
            bound.result()  # a file that cannot bind is refused now, not after lowering
        whole = lower and whole_step and chips == 1
        names = list(_functions(module))
        now = list(names if first is None else first() if callable(first) else first)
        if unknown := [e for e in now if e not in names]:
            raise ModelError(f"no function @{unknown[0]} in the model to lower first")
        native = options.engine is Engine.NATIVE
        compiling: dict[str, Any] = {}
        lowered: list[Lowered] = []
        try:
            if first is None:  # every function now, at once; nothing begun
                if lower:
                    lowered.append(lower_functions(module, None, whole, seconds, progress))
            else:
                for entry in now:
                    if lower:
                        label = f"@{entry}"
                        lowered.append(
                            lower_functions(module, [entry], whole, seconds, progress, label)
                        )
                    if native:
                        _begin(module, entry, options, compiling, seconds, progress)
            if bound is not None:
                progress("binding the weights")
                weights, seconds["bind"] = bound.result()
            assert weights is not None
            model = Model(
                config,
                module,
                weights,
                batch,
                positions,
                lower,
                options=options,
                tokenizer=tokenizer,
                requantized=costs,
                whole_step=whole,
                seconds=seconds,
                compiling=compiling,
                unlowered=tuple(e for e in names if e not in now) if lower else (),
            )
        except BaseException:  # (weights refused, say): no compile left running
            for job in compiling.values():
                job.close()
            raise
    for done in lowered:
        model.absorb(done)
    if where is not None and key is not None:
        model.keep_in, model.kept_as = (where, key), key
        if keep:
            model.keep(progress)
    return model


@dataclass
class Lowered:
    """What lowering some of a model's functions decided (`lower_functions`)."""

    decisions: list[Any]
    """`q8-lower`'s, one per product."""
    ops: list[Any]
    """`spatial-lower-ops`'s, one per op it looked at (none when only the products
    were lowered)."""
    host_ops: dict[str, int]
    """Per function lowered whole, the ops it leaves computing on the host."""


def lower_functions(
    module: Any,
    names: Sequence[str] | None,
    whole_step: bool,
    seconds: dict[str, float],
    progress: Progress,
    label: str | None = None,
) -> Lowered:
    """The functions `names` of `module` lowered in place (None: the whole module),
    its other functions set aside meanwhile: `q8-lower{optimize=true}`, then with
    `whole_step` `spatial-lower-ops`. Each pass's seconds added to `seconds["lower"]`
    and `seconds["lower_ops"]`; `progress` told each step, after `label` when one is
    given (`lowering @decode: q8-lower: 120 of 211 products (56%)`)."""
    from xdsl_spatial.passes.q8_lower import lower_q8
    from xdsl_spatial.passes.spatial_lower_ops import host_ops, lower_ops

    fns = _functions(module)
    chosen = list(fns) if names is None else list(names)
    kept = {id(fns[n]) for n in chosen}
    aside = [f for f in fns.values() if id(f) not in kept]  # (not what they refer to: a grid)

    def say(text: str) -> None:
        progress(text if label is None else f"lowering {label}: {text}")

    with _without(module, aside):
        t0 = time.perf_counter()
        decisions = lower_q8(module, optimize=True, progress=say)
        seconds["lower"] = seconds.get("lower", 0.0) + time.perf_counter() - t0
        if not whole_step:
            return Lowered(decisions, [], {})
        say("lowering the rest of the step with spatial-lower-ops")
        t0 = time.perf_counter()
        ops = lower_ops(module)
        seconds["lower_ops"] = seconds.get("lower_ops", 0.0) + time.perf_counter() - t0
    return Lowered(decisions, ops, {n: len(host_ops(fns[n])) for n in chosen})


def _functions(module: Any) -> dict[str, Any]:
    """The functions with a body at `module`'s top level, by name, in order."""
    from xdsl.dialects import func

    return {
        op.sym_name.data: op
        for op in module.ops
        if isinstance(op, func.FuncOp) and not op.is_declaration
    }


def _megabytes(path: str) -> str:
    try:
        return f"{Path(path).stat().st_size / 1e6:,.0f} MB"
    except OSError:
        return "?"


_PREFILL_TOKENS = re.compile(r"func\.func @prefill\(%tokens: tensor<(\d+)xi32>")
_CACHE_ARG = re.compile(r"%blk\.0\.cache_k: tensor<\d+x\d+x(\d+)xf32>")


def module_sizes(text: str) -> tuple[int, int]:
    """The tokens a model module's `@prefill` takes a call and the positions of its
    caches (the first key cache's last axis), read from its text before the seconds
    parsing takes (`check_signatures` checks the whole signature once it is parsed)."""
    tokens, cache = _PREFILL_TOKENS.search(text), _CACHE_ARG.search(text)
    if tokens is None or cache is None:
        raise ModelError(
            "not a model module: it needs @prefill(%tokens: tensor<M x i32>, ...) and "
            "@decode's %blk.0.cache_k (n_kv x head_dim x positions)"
        )
    return int(tokens.group(1)), int(cache.group(1))


@dataclass
class Generation:
    prompt: list[int]
    tokens: list[int]
    """The generated ids: the prompt's next token, then one per decode step."""
    logits: np.ndarray
    """One row per generated token: the logits it was chosen from."""
    prompt_ms: float
    """Reading the prompt: every prefill chunk and decode step it took."""
    prompt_calls: int
    """Calls the prompt took (prefill chunks and decode steps)."""
    decode_ms: list[float]
    step_bytes: StepBytes | None
    """What one decode step's folds moved (None when nothing was lowered)."""
    prompt_logits: np.ndarray
    """The logits of every prompt position."""
    traffic: Any
    """What the programs of the first decode step (the prompt's first call, with no
    step) moved."""
    stopped: bool = False
    """Ended by a stop token, or by logits holding NaN, before its steps ran out."""
    nan: bool = False
    """Ended by logits holding NaN (warned once): no token was chosen from them."""

    @property
    def prefill_ms(self) -> float:
        return self.prompt_ms


def check_prompt(config: LlamaConfig, prompt: Sequence[int], steps: int, positions: int) -> None:
    """Nothing, or the `ModelError` of a prompt the model cannot read: no token, more
    tokens and steps than the cache's `positions`, a token outside the vocabulary.
    `generate` checks so, and a tool before the seconds that loading takes."""
    if not prompt:
        raise ModelError("the prompt has no token")
    if len(prompt) + steps > positions:
        raise ModelError(
            f"{len(prompt)} prompt tokens and {steps} steps need {len(prompt) + steps} positions; "
            f"the cache has {positions} (--context)"
        )
    bad = [t for t in prompt if not 0 <= t < config.vocab]
    if bad:
        raise ModelError(f"token {bad[0]} is outside the vocabulary (0..{config.vocab - 1})")


def generate(
    model: Model,
    prompt: Sequence[int],
    steps: int,
    *,
    sampler: Callable[[np.ndarray], int] = greedy,
    stop: Sequence[int] = (),
    on_token: Callable[[int], None] | None = None,
    progress: Progress = quiet,
    forced: Sequence[int] | None = None,
) -> Generation:
    """Read `prompt` (in chunks: `Model.plan`), then up to `steps` decode steps, each
    token chosen by `sampler` (greedy by default) and handed to `on_token` as it comes;
    a token of `stop` ends the generation. With `forced`, the tokens fed to the decode
    steps are those (the same tokens for two runs to compare), and the generated ids
    are still each step's own choice. Each function is compiled before its first call,
    outside the clock (`Model.start` begins every one the run calls at once)."""
    c = model.config
    check_prompt(c, prompt, steps, model.positions)
    plan = model.plan(len(prompt))
    compiles = model.options.compiles

    def compiled(entry: str) -> None:
        if compiles and entry not in model.executables:
            progress(f"compiling @{entry}")
            model.compile(entry, progress)

    if compiles:
        model.start(model.used(len(prompt), steps), progress)
    for entry in model.used(len(prompt), 0):  # the prompt's functions, before it is read
        compiled(entry)
    prompt_logits, caches, prompt_ms, first = read_prompt(model, prompt, progress)
    out_rows: list[np.ndarray] = []
    tokens: list[int] = []
    times: list[float] = []
    moved: StepBytes | None = None
    stopped = nan = False
    row = prompt_logits[-1]
    # the objects alive now out of the collector's passes while the steps run
    # (`memory.collector_frozen`: its full passes would walk the model's IR)
    with collector_frozen():
        for s in range(steps + 1):
            if has_nan(row, len(tokens)):
                stopped = nan = True
                break
            out_rows.append(row)
            tokens.append(sampler(row))
            if on_token is not None:
                on_token(tokens[-1])
            if s == steps:
                break
            if forced is None and tokens[-1] in stop:
                stopped = True
                break
            feed = tokens[-1] if forced is None else forced[s]
            compiled(model.decode_entry())
            progress(f"decode step {s + 1}/{steps}")
            t0 = time.perf_counter()
            out, caches, traffic = model.decode(feed, len(prompt) + s, caches, donate=True)
            times.append((time.perf_counter() - t0) * 1e3)
            if s == 0:
                first = traffic
                moved = step_bytes(traffic) if model.lowered else None
            row = out[0]
    if forced is None and tokens and tokens[-1] in stop:
        stopped = True
    logits = np.stack(out_rows) if out_rows else np.zeros((0, c.vocab), np.float32)
    return Generation(
        list(prompt),
        tokens,
        logits,
        prompt_ms,
        len(plan),
        times,
        moved,
        prompt_logits,
        first,
        stopped,
        nan,
    )


def read_prompt(
    model: Model, prompt: Sequence[int], progress: Progress = quiet
) -> tuple[np.ndarray, list[np.ndarray], float, Any]:
    """`prompt` read into a new cache in chunks (`Model.plan`): the logits of every
    prompt position, the caches, the milliseconds it took and the first call's
    traffic."""
    caches = model.new_caches()
    rows: list[np.ndarray] = []
    first = None
    t0 = time.perf_counter()
    for pos, n in model.plan(len(prompt)):
        chunk = list(prompt[pos : pos + n])
        progress(f"reading the prompt: tokens {pos + 1}-{pos + n} of {len(prompt)}")
        if n > 1:
            logits, caches, traffic = model.prefill(chunk, pos, caches, donate=True)
        else:
            logits, caches, traffic = model.decode(chunk[0], pos, caches, donate=True)
        rows.append(logits)
        first = traffic if first is None else first
    return np.concatenate(rows), caches, (time.perf_counter() - t0) * 1e3, first
