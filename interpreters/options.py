"""
How a function or a model runs: the engine, its threads and kernels, the chips and
where they run, the disk cache, and what is reported. One `RunOptions` holds them,
checked once when it is made; the tools declare them once (`add_run_options`) and
read them back (`from_args`); the engines, `load_model` and the tools take the object.

```python
from xdsl_spatial.interpreters.options import Engine, RunOptions
options = RunOptions(Engine.NATIVE, threads=2)      # OptionError: a bad value, named
model = load_model("model.gguf", 32, options=options)
```

A bad value is one `OptionError` naming the option and the reason, in the tools'
words (`--threads 0: give 1 or more`): a usage error to a tool (exit code 2), a
`RunError` to the engines' callers. Kernels this CPU cannot run are a `HostError`
(exit code 1: the options go together, the machine does not take them).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from xdsl.utils.str_enum import StrEnum

from xdsl_spatial.core.disk_cache import cache_root
from xdsl_spatial.core.files import EXIT_ERROR, UsageError
from xdsl_spatial.interpreters.errors import RunError
from xdsl_spatial.interpreters.native.host import CHOICES, KernelsError, choose_kernels
from xdsl_spatial.interpreters.stats import Detail


class Engine(StrEnum):
    """What runs a function: three engines, one semantics."""

    COMPILED = "compiled"
    """The function read once into an executable of numpy calls (`executable.py`)."""
    REFERENCE = "reference"
    """xDSL's interpreter, op by op (`reference.py`): what a program means."""
    NATIVE = "native"
    """Machine code from upstream MLIR and LLVM (`native/`: the `native` extra)."""


class Distribution(StrEnum):
    """Where the chips of a function lowered over several run."""

    LOCAL = "local"
    """All on this host."""
    RAY = "ray"
    """Each chip's programs in a Ray actor holding its weight shards (`distributed.py`)."""


ENGINES: tuple[str, ...] = tuple(e.value for e in Engine)
DISTRIBUTIONS: tuple[str, ...] = tuple(d.value for d in Distribution)


class OptionError(UsageError, RunError):
    """A bad value of a running option, or options that do not go together: one
    message naming the option and the reason."""


class HostError(OptionError):
    """Options this machine cannot run (kernels its CPU lacks)."""

    exit_code = EXIT_ERROR


_E = TypeVar("_E", bound=StrEnum)


def _member(kind: type[_E], value: object, what: str) -> _E:
    """`value` as a member of `kind`, else an `OptionError` listing the members."""
    try:
        return kind(value)
    except ValueError:
        names = ", ".join(m.value for m in kind)
        raise OptionError(f"unknown {what} '{value}', expected one of {names}") from None


def engine_of(value: Engine | str) -> Engine:
    """The engine `value` names (`OptionError` for none)."""
    return _member(Engine, value, "engine")


def distribution_of(value: Distribution | str) -> Distribution:
    """The distribution `value` names (`OptionError` for none)."""
    return _member(Distribution, value, "distribution")


@dataclass(frozen=True)
class RunOptions:
    """The options of a run, checked when made (`OptionError`); a string that names
    an engine, a distribution or a detail (from argparse) is kept as its member."""

    engine: Engine = Engine.COMPILED
    threads: int = 1
    """The native engine's OpenMP threads: a program's items on that many at once."""
    kernels: str | None = None
    """The native engine's kernels (`native.host.CHOICES`); None: `XDSL_SPATIAL_KERNELS`,
    else what this CPU has."""
    chips: int = 1
    """The chips a model's every product is split over."""
    distributed: Distribution = Distribution.LOCAL
    address: str | None = None
    """With `ray`: the cluster to join (None: a local instance)."""
    cache: bool | str | Path = False
    """Keep a built model in the disk cache: True (its default place) or a directory."""
    stats: Detail | None = None
    """What the traffic report prints (None: no report)."""
    stats_json: str | None = None
    """A file to write the traffic to, as JSON."""

    def __post_init__(self) -> None:
        set_ = object.__setattr__  # a frozen dataclass: its members made once, here
        set_(self, "engine", engine_of(self.engine))
        set_(self, "distributed", distribution_of(self.distributed))
        if self.stats is not None:
            set_(self, "stats", _member(Detail, self.stats, "--stats detail"))
        native = self.engine is Engine.NATIVE
        if isinstance(self.threads, bool) or not isinstance(self.threads, int):
            raise OptionError(f"--threads {self.threads!r}: give a whole number, 1 or more")
        if self.threads < 1:
            raise OptionError(f"--threads {self.threads}: give 1 or more")
        if self.threads > 1 and not native:
            raise OptionError(
                "--threads runs the native engine's items on threads: add --engine native"
            )
        if self.kernels is not None:
            if not native:
                raise OptionError(
                    "--kernels chooses the native engine's kernels: add --engine native"
                )
            if self.kernels not in CHOICES:
                names = ", ".join(CHOICES)
                raise OptionError(f"unknown kernels '{self.kernels}', expected one of {names}")
            try:
                choose_kernels(self.kernels)
            except KernelsError as e:
                raise HostError(str(e)) from None
        if self.distributed is Distribution.RAY and self.engine is not Engine.COMPILED:
            raise OptionError(
                f"--distributed ray runs the compiled engine; drop --engine {self.engine}"
            )
        if self.address is not None and self.distributed is not Distribution.RAY:
            raise OptionError("--address joins a Ray cluster: it needs --distributed ray")
        if isinstance(self.chips, bool) or not isinstance(self.chips, int) or self.chips < 1:
            raise OptionError(f"--chips {self.chips}: give 1 or more")

    @property
    def compiles(self) -> bool:
        """Whether each function is compiled on this host before its first call (not
        by the reference engine, which runs the IR, nor on Ray, whose actors do)."""
        return self.engine is not Engine.REFERENCE and self.distributed is Distribution.LOCAL

    @property
    def cache_dir(self) -> Path | None:
        """Where a built model is kept: None when it is not (`cache` off, the reference
        engine, which keeps no executables, chips on Ray, or the disk cache off)."""
        if not self.cache or not self.compiles:
            return None
        return cache_root() if self.cache is True else Path(self.cache)

    @property
    def kernels_name(self) -> str | None:
        """The native engine's kernels as chosen for this CPU (None for the others)."""
        if self.engine is not Engine.NATIVE:
            return None
        try:
            return choose_kernels(self.kernels).name
        except KernelsError as e:  # XDSL_SPATIAL_KERNELS names none
            raise HostError(str(e)) from None


DEFAULT = RunOptions()
"""The default options: the compiled engine on one thread, one chip on this host."""


def add_run_options(p: argparse.ArgumentParser, *, model: bool = False) -> None:
    """The running options, as every tool that runs functions declares them; with
    `model`, a built model's too (`--chips`, `--no-cache`)."""
    p.add_argument(
        "--engine",
        choices=ENGINES,
        default=Engine.COMPILED.value,
        help="compiled (default: each function read once into a fast numpy executable), "
        "reference (op by op, what the programs mean; slow, nothing cached) or native "
        "(machine code from upstream MLIR and LLVM, kept in the compile cache; needs the "
        "[native] extra: pip install -e '.[native]'); all give the same numbers (within the "
        "fp32 summation bound where sums are ordered differently)",
    )
    p.add_argument(
        "--threads",
        type=int,
        default=1,
        metavar="N",
        help="with --engine native: run each program's items on N threads (OpenMP; "
        "default 1); the same bits as one thread",
    )
    p.add_argument(
        "--kernels",
        choices=CHOICES,
        help="with --engine native: how a Q8_0 product's sums are laid out for this CPU "
        "(default: $XDSL_SPATIAL_KERNELS, else auto): auto (amx where the CPU has AMX-BF16, "
        "else bf16 on an AMD CPU with AVX512-BF16, else avx512 where it has AVX-512, else "
        "avx2 where it has AVX2 and FMA, else loop), loop (a product of one row streams its "
        "weight, the rest in blocks of 8 rows x 32 columns), avx2 (loop, with 2 rows or more "
        "as 256-bit fused multiply-adds held in registers, compiled without AVX-512), avx512 "
        "(avx2's sums in 512-bit vectors, compiled for this CPU), bf16 (loop, with "
        "2 rows or more as AVX512-BF16 dot products, a pair of lanes an instruction), amx (loop, with "
        "2 rows or more on AMX tiles) or generic (the conversion as the chip's programs are "
        "written), the kind of the pass "
        "spatial-native-kernels the engine runs; the same numbers, within the fp32 "
        "summation bound",
    )
    if model:
        p.add_argument(
            "--chips",
            type=int,
            default=1,
            help="split every product over this many chips of a tensor-parallel deployment "
            "(default 1): q, k, v, gate, up and the LM head on their columns, attn_output and "
            "down on their rows, as Megatron-style tensor parallelism does; prints the bytes "
            "each chip moves per decode step",
        )
    p.add_argument(
        "--distributed",
        choices=DISTRIBUTIONS,
        default=Distribution.LOCAL.value,
        help="where the chips of a function lowered over several run: local (default: all "
        "on this host) or ray (each chip's programs in a Ray actor holding only its weight "
        "shards; needs the [ray] extra; not cached); the same outputs, bit for bit",
    )
    p.add_argument(
        "--address",
        help="with --distributed ray: the Ray cluster to join (e.g. ray://head:10001 or "
        "auto); default: a local Ray instance started for the run",
    )
    if model:
        p.add_argument(
            "--no-cache",
            action="store_true",
            help="build the model anew, neither reading nor writing the disk cache",
        )
    p.add_argument(
        "--stats",
        nargs="?",
        const=Detail.SUMMARY.value,
        choices=[d.value for d in Detail],
        help="print the bytes each program moved (a model's: in one decode step, with the "
        "tokens a second it gives) and its estimated time on the chip (the target's figures: "
        "docs/chip_time.md) and what bounds it; --stats (summary) groups a model's programs "
        "by layer, --stats=full lists every program and tensor",
    )
    p.add_argument(
        "--stats-json",
        metavar="FILE",
        help="write the traffic (a model's: one decode step's, every program) as JSON, for "
        "spatial-viz --traffic FILE",
    )


def from_args(args: argparse.Namespace) -> RunOptions:
    """The options `add_run_options` declared, as parsed: checked now."""
    return RunOptions(
        engine=args.engine,
        threads=args.threads,
        kernels=args.kernels,
        chips=getattr(args, "chips", 1),
        distributed=args.distributed,
        address=args.address,
        cache=not getattr(args, "no_cache", True),
        stats=args.stats,
        stats_json=args.stats_json,
    )
