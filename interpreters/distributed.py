"""
Chips as Ray actors: a tensor-parallel function run with each chip's programs in a
process of its own, which holds only that chip's weight shard.

```python
from xdsl_spatial.interpreters.runner import distribute, execute

result = execute(module, "gemv", [x, q, s], distributed="ray")   # one call
with distribute(module, "gemv", [x, q, s]) as chips:             # the shards sent once
    result = chips(x)                                            # the activations only
```

The function is compiled once, on the driver, by the compiled engine
(`executable.py`); its steps are then placed:

- a *weight* is a value read only as a `param` of chips' programs, or by the dense ops
  that cut it into such params (the `tensor.extract_slice` of each chip's shard); the
  function arguments some chip's param is (or is cut from) are the weights, bound when
  the chips are made: the ops that cut them run then, on the driver, and each chip's
  actor receives its shards (and its compiled programs) once. A weight the driver's
  own ops read too (a tied embedding's lookup) stays with the driver as well;
- each program that names a chip (`spatial.fold "..." chip 2`) runs in that chip's
  actor; a value it makes stays there unless a step elsewhere reads it (the view a
  chip's folds read never leaves the chip);
- everything else (the slices of an activation a K split hands out, the gather of
  an N split, the sum of a K split's partial sums, the programs of no chip) runs on
  the driver, which sends each actor what its programs read and collects what the
  function returns.

The actors run the same compiled programs, and the driver the same kernels in the
same order, as a run on one host; each actor's BLAS runs with the driver's thread count
(OpenBLAS splits a product's sums by its threads, and Ray starts its workers with one),
so on machines of the driver's kind (the same BLAS on the same CPU) the outputs are the
same bits. `Distributed.blas_differs` says when an actor's BLAS is not the driver's.
The calls to different actors overlap; each actor runs its calls in the order they
were made.

Ray is an optional extra (`pip install -e '.[ray]'`). Without an address,
a local Ray instance is started (few CPUs, no dashboard) and kept for the process's
later runs; with one (`ray://host:10001`, `host:6379`, `auto`), the actors go to that
cluster, whose nodes need xdsl-spatial installed.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import secrets
import signal
import socket
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

import numpy as np

from xdsl_spatial.dialects.spatial import Role
from xdsl_spatial.interpreters.executable import Executable, Execution, FunctionStep
from xdsl_spatial.interpreters.kernels import KernelError
from xdsl_spatial.interpreters.traffic import ProgramTraffic, Traffic
from xdsl_spatial.interpreters.values import SpatialRuntimeError

RAY_EXTRA = "pip install -e '.[ray]'"


class DistributedError(Exception):
    """The chips could not be made or run: Ray is missing or unreachable, an actor
    failed, or a program refused to run (the message names it)."""


# --------------------------------------------------------------------------------------
# Where each step runs
# --------------------------------------------------------------------------------------


def param_inputs(step: FunctionStep) -> set[int]:
    """The positions of a program's inputs that it binds to `param` tensors."""
    p = step.program
    if p is None:
        return set()
    return {t.source for t in p.tensors if t.role == Role.PARAM and t.source is not None}


@dataclass(frozen=True)
class Placement:
    """Where an executable's steps run, and what moves between the driver and chips."""

    chip_of: tuple[int | None, ...]
    """Per step: the chip whose actor runs it (None: the driver)."""
    setup: tuple[int, ...]
    """The steps that cut weights, run once when the chips are made."""
    weight_args: tuple[int, ...]
    """The arguments that are weights (some chip's param is one, or is cut from one),
    bound when the chips are made."""
    driver_weights: tuple[int, ...]
    """The weight arguments the driver's own steps read too: it keeps them."""
    activations: tuple[int, ...]
    """The other arguments: what each call takes."""
    shards: dict[int, tuple[int, ...]]
    """Per chip: the slots of the weights its programs read, sent once."""
    sent: dict[int, tuple[int, ...]]
    """Per chip step: the slots it reads that the driver sends each call."""
    kept: dict[int, tuple[int, ...]]
    """Per chip step: the slots it makes that stay in its actor (read there later)."""
    returned: dict[int, tuple[int, ...]]
    """Per chip step: the slots it makes that the driver or another chip reads."""

    @property
    def chips(self) -> list[int]:
        return sorted({c for c in self.chip_of if c is not None})


def place(exe: Executable) -> Placement:
    """Where each step of `exe` runs (see the module's docstring)."""
    steps = exe.steps
    chip_of = tuple(st.program.record.chip if st.program is not None else None for st in steps)
    results = set(exe.results)
    uses: dict[int, list[tuple[int, int]]] = {}
    for s, st in enumerate(steps):
        for pos, v in enumerate(st.ins):
            uses.setdefault(v, []).append((s, pos))
    params = [param_inputs(st) if chip_of[s] is not None else set() for s, st in enumerate(steps)]

    def feeds_params(v: int, cutting: set[int]) -> bool:
        """Whether `v` is read only as a chip's param or by a step in `cutting`."""
        us = uses.get(v, [])
        return (
            bool(us) and v not in results and all(pos in params[s] or s in cutting for s, pos in us)
        )

    def a_param(s: int, pos: int, cutting: set[int]) -> bool:
        return pos in params[s] or s in cutting

    # Cutting steps: dense ops all of whose results are weights, read as chips' params
    # (or by other cutting steps), found from the end; then only those whose inputs
    # are weight arguments (an argument some chip's param is cut from, or is) or cut
    # weights, until nothing changes.
    cutting: set[int] = set()
    for s in range(len(steps) - 1, -1, -1):
        st = steps[s]
        if st.program is None and st.outs and all(feeds_params(v, cutting) for v in st.outs):
            cutting.add(s)
    while True:
        weight_args = {
            a
            for a in range(exe.arity)
            if any(a_param(s, pos, cutting) for s, pos in uses.get(a, []))
        }
        cut = {v for s in cutting for v in steps[s].outs}
        bad = {s for s in cutting if not all(v in weight_args or v in cut for v in steps[s].ins)}
        if not bad:
            break
        cutting -= bad
    # A weight the driver reads too (a tied embedding: the driver's lookup, the LM
    # head's shards) stays with the driver as well.
    driver_weights = {
        a
        for a in weight_args
        if a in results or any(chip_of[s] is None and s not in cutting for s, _ in uses.get(a, []))
    }
    known = weight_args | cut
    shards: dict[int, set[int]] = {}
    sent: dict[int, tuple[int, ...]] = {}
    kept: dict[int, tuple[int, ...]] = {}
    returned: dict[int, tuple[int, ...]] = {}
    made_on: dict[int, int] = {}
    for s, st in enumerate(steps):
        c = chip_of[s]
        if c is None:
            continue
        shards.setdefault(c, set()).update(v for v in st.ins if v in known)
        sent[s] = tuple(dict.fromkeys(v for v in st.ins if v not in known and made_on.get(v) != c))
        for v in st.outs:
            made_on[v] = c
        readers = {v: [u for u, _ in uses.get(v, [])] for v in st.outs}
        returned[s] = tuple(
            v for v in st.outs if v in results or any(chip_of[u] != c for u in readers[v])
        )
        kept[s] = tuple(v for v in st.outs if any(chip_of[u] == c for u in readers[v]))
    return Placement(
        chip_of,
        tuple(sorted(cutting)),
        tuple(sorted(weight_args)),
        tuple(sorted(driver_weights)),
        tuple(a for a in range(exe.arity) if a not in weight_args),
        {c: tuple(sorted(v)) for c, v in shards.items()},
        sent,
        kept,
        returned,
    )


# --------------------------------------------------------------------------------------
# A chip's actor
# --------------------------------------------------------------------------------------


def blas() -> list[tuple[str, str, str, int]]:
    """The BLAS libraries this process has loaded: (library, version, CPU kernels,
    threads), as threadpoolctl reads them from the libraries themselves."""
    from threadpoolctl import threadpool_info

    return sorted(
        (
            str(i.get("internal_api")),
            str(i.get("version")),
            str(i.get("architecture")),
            int(i.get("num_threads", 0)),
        )
        for i in threadpool_info()
        if i.get("user_api") == "blas"
    )


class Chip:
    """What one chip's actor holds: its compiled programs (by step) and its weights
    (by slot), and the values its programs made in the current call."""

    def __init__(
        self,
        chip: int,
        programs: dict[int, FunctionStep],
        placement: Placement,
        weights: dict[int, np.ndarray],
        threads: int | None = None,
    ):
        if threads is not None:
            from threadpoolctl import threadpool_limits

            # Held, so the limit lasts as long as the actor: its products are then split
            # over as many threads as the driver's, and sum in the same order.
            self._threads = threadpool_limits(limits=threads, user_api="blas")
        self.chip = chip
        self.programs = programs
        self.sent = {s: placement.sent[s] for s in programs}
        self.kept = {s: placement.kept[s] for s in programs}
        self.returned = {s: placement.returned[s] for s in programs}
        self.env: dict[int, Any] = dict(weights)

    def ready(self) -> list[tuple[str, str, str, int]]:
        """Its BLAS, once it has started (`blas`)."""
        return blas()

    def held_bytes(self) -> int:
        """Bytes of the weights it holds (and of what its last call left)."""
        return sum(v.nbytes for v in self.env.values() if isinstance(v, np.ndarray))

    def run(self, step: int, *values: Any) -> Any:
        """Run one program on the values the driver sent: what it returns off the chip,
        then its traffic (the traffic alone when nothing leaves the chip)."""
        st = self.programs[step]
        self.env.update(zip(self.sent[step], values))
        with np.errstate(all="ignore"):
            outs, record = st([self.env[i] for i in st.ins])
        made = dict(zip(st.outs, outs))
        for v in self.kept[step]:
            self.env[v] = made[v]
        away = tuple(made[v] for v in self.returned[step])
        return (*away, record) if away else record


# --------------------------------------------------------------------------------------
# The driver
# --------------------------------------------------------------------------------------


def _ray() -> Any:
    try:
        import ray
        import threadpoolctl  # noqa: F401 - the actors set their BLAS threads with it
    except ImportError:
        raise DistributedError(
            f"running chips as Ray actors needs Ray, an optional extra: {RAY_EXTRA}"
        ) from None
    return ray


def _reachable(address: str) -> None:
    """Refuse, at once, a `host:port` (or `ray://host:port`) nothing listens on: Ray
    itself retries for minutes."""
    hostport = address.removeprefix("ray://")
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit():
        return  # `auto`, or an address Ray resolves itself
    try:
        socket.create_connection((host or "127.0.0.1", int(port)), timeout=5).close()
    except OSError as e:
        raise DistributedError(
            f"cannot reach the Ray cluster at {address}: {e.strerror or e}"
        ) from None


OWNER_ENV = "XDSL_SPATIAL_RAY_OWNER"
"""Set, before a local Ray instance starts, to a mark of the process starting it: every
process of the instance inherits it, which is how `stop_local_ray` finds them."""


def start_ray(address: str | None = None) -> Any:
    """Ray, initialised once per process: joined to the cluster at `address`, or a
    local instance started here (2 CPUs unless `XDSL_SPATIAL_RAY_CPUS` says otherwise,
    no dashboard), which is shut down when the process exits, however it exits (a
    Ctrl-C included: see `stop_local_ray`)."""
    ray = _ray()
    if ray.is_initialized():
        return ray
    try:
        if address is not None:
            _reachable(address)
            with _sigint_deferred():
                ray.init(address=address, logging_level="ERROR", log_to_driver=False)
        else:
            mark = f"{os.getpid()}.{secrets.token_hex(8)}"
            os.environ[OWNER_ENV] = mark
            atexit.register(stop_local_ray, mark)
            with _sigint_deferred():
                ray.init(
                    num_cpus=int(os.environ.get("XDSL_SPATIAL_RAY_CPUS", "2")),
                    include_dashboard=False,
                    logging_level="ERROR",
                    log_to_driver=False,
                )
    except (ConnectionError, RuntimeError, ValueError) as e:
        where = f"the Ray cluster at {address}" if address else "a local Ray instance"
        raise DistributedError(f"cannot start {where}: {e}") from None
    return ray


@contextlib.contextmanager
def _sigint_deferred() -> Iterator[None]:
    """Ctrl-C held while Ray starts, and delivered once it has: interrupted half way,
    Ray leaves the processes it had started running, beyond the reach of its own
    shutdown (and it has crashed there)."""
    held: list[FrameType | None] = []
    try:
        previous = signal.signal(signal.SIGINT, lambda _s, frame: held.append(frame))
    except ValueError:  # not the main thread: no signal arrives here
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if held and previous != signal.SIG_IGN:
        if callable(previous):
            previous(signal.SIGINT, held[0])  # a tool's handler: it raises
        raise KeyboardInterrupt


def stop_local_ray(mark: str) -> None:
    """Shut the local Ray instance down and end any of its processes still running:
    Ray's own shutdown leaves some (its agents) for minutes when it was interrupted.
    Its processes are those whose environment holds `OWNER_ENV=mark` (on Linux, read
    from /proc; elsewhere only Ray's shutdown runs). Ctrl-C is ignored meanwhile."""
    with contextlib.suppress(ValueError):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    ray = sys.modules.get("ray")
    with contextlib.suppress(Exception):
        if ray is not None and ray.is_initialized():
            ray.shutdown()
    left = marked_processes(mark)
    for sig, wait in ((signal.SIGTERM, 3.0), (signal.SIGKILL, 1.0)):
        for pid in left:
            with contextlib.suppress(OSError):
                os.kill(pid, sig)
        deadline = time.monotonic() + wait
        while left and time.monotonic() < deadline:
            time.sleep(0.05)
            left = marked_processes(mark)
        if not left:
            return


def marked_processes(mark: str) -> list[int]:
    """The processes (but this one) whose environment holds `OWNER_ENV=mark`."""
    needle = f"{OWNER_ENV}={mark}".encode()
    try:
        pids = [int(d) for d in os.listdir("/proc") if d.isdigit()]
    except OSError:
        return []
    found = []
    for pid in pids:
        if pid == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                if needle in f.read().split(b"\0"):
                    found.append(pid)
        except OSError:  # gone, or another user's
            continue
    return found


def compare_bits(there: Sequence[np.ndarray], here: Sequence[np.ndarray]) -> str:
    """`the same bits`, or how far apart two runs' outputs are: the largest difference,
    absolute and in fp32 units in the last place of the largest output (one unit is
    the rounding of one fp32 operation there; an fp32 sum of K terms in another order
    may differ by up to about K of them)."""
    if len(there) == len(here) and all(
        a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
        for a, b in zip(there, here)
    ):
        return "the same bits"
    if len(there) != len(here) or any(a.shape != b.shape for a, b in zip(there, here)):
        return "different outputs (not even their shapes agree)"
    diff = big = 0.0
    for a, b in zip(there, here):
        if a.size:
            a64, b64 = a.astype(np.float64), b.astype(np.float64)
            diff = max(diff, float(np.nanmax(np.abs(a64 - b64))))
            big = max(big, float(np.nanmax(np.abs(b64))))
    ulp = float(np.spacing(np.float32(big))) if big else 0.0
    units = (
        f", {diff / ulp:.3g} fp32 units in the last place of the largest, {big:.6g}" if ulp else ""
    )
    return f"different bits: max |Ray - host| = {diff:.3g}{units}"


def _blas_text(libs: Sequence[tuple[str, str, str, int]]) -> str:
    return "; ".join(f"{lib} {v} ({arch}, {n} threads)" for lib, v, arch, n in libs) or "none"


def _cause(e: BaseException) -> str:
    """The message of the error an actor raised (Ray wraps it)."""
    cause = getattr(e, "cause", None)
    if isinstance(cause, (SpatialRuntimeError, KernelError)):
        return str(cause)
    return str(cause if cause is not None else e).strip().splitlines()[-1]


@dataclass
class Distributed:
    """A function whose chips run as Ray actors, their weights bound: call it on the
    activations (the function's other arguments, `inputs`, in order, of the
    function's types)."""

    exe: Executable
    placement: Placement
    actors: dict[int, Any]
    ray: Any
    kept: dict[int, np.ndarray]
    """The weights the driver reads itself (`Placement.driver_weights`)."""
    blas_differs: dict[int, str] = field(default_factory=dict)
    """The chips whose actor's BLAS is not the driver's (another library, version,
    CPU kernels or thread count), each with its and the driver's: their products may
    sum in another order, so their bits may differ from one host's."""
    inputs: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        self.inputs = self.placement.activations

    @staticmethod
    def make(
        exe: Executable, arrays: Sequence[np.ndarray], address: str | None = None
    ) -> Distributed:
        """Start (or join) Ray, cut the weights of `arrays` (the function's arguments;
        only the weights are read) and make one actor per chip, holding its programs
        and its shards."""
        pl = place(exe)
        if not pl.chips:
            raise DistributedError(
                f"@{exe.name} runs no program on a chip: lower it over chips first "
                "(q8-lower{chips=N split=n|k}, or a shard.sharding on its weights)"
            )
        ray = start_ray(address)
        env: dict[int, Any] = {a: arrays[a] for a in pl.weight_args}
        with np.errstate(all="ignore"):
            for s in pl.setup:
                st = exe.steps[s]
                outs, _ = st([env[i] for i in st.ins])
                env.update(zip(st.outs, outs))
        remote = ray.remote(Chip)
        here = blas()
        threads = max((b[3] for b in here), default=None)
        actors = {}
        for c in pl.chips:
            programs = {s: st for s, st in enumerate(exe.steps) if pl.chip_of[s] == c}
            weights = {v: env[v] for v in pl.shards.get(c, ())}
            actors[c] = remote.remote(c, programs, pl, weights, threads)
        try:
            theirs = ray.get([a.ready.remote() for a in actors.values()])
        except Exception as e:  # an actor that cannot start: Ray's many kinds
            for a in actors.values():
                ray.kill(a)
            raise DistributedError(f"a chip's Ray actor could not start: {_cause(e)}") from None
        differs = {
            c: f"{_blas_text(b)}, the driver's {_blas_text(here)}"
            for c, b in zip(actors, theirs)
            if b != here
        }
        kept = {a: arrays[a] for a in pl.driver_weights}
        return Distributed(exe, pl, actors, ray, kept, differs)

    def __call__(self, *activations: np.ndarray) -> Execution:
        ray, pl, steps = self.ray, self.placement, self.exe.steps
        if len(activations) != len(pl.activations):
            raise TypeError(
                f"@{self.exe.name} on chips takes {len(pl.activations)} activations "
                f"(arguments {list(pl.activations)}), got {len(activations)}"
            )
        env: dict[int, Any] = {**self.kept, **dict(zip(pl.activations, activations))}
        records: list[Any] = []
        refs: dict[int, Any] = {}

        def value(v: int) -> Any:
            if v in refs:
                env[v] = ray.get(refs.pop(v))
            return env[v]

        def sendable(v: int) -> Any:
            if v in refs:
                return refs[v]
            refs[v] = ray.put(env[v])
            return refs[v]

        setup = set(pl.setup)
        try:
            with np.errstate(all="ignore"):
                for s, st in enumerate(steps):
                    if s in setup:
                        continue
                    c = pl.chip_of[s]
                    if c is None:
                        outs, record = st([value(v) for v in st.ins])
                        env.update(zip(st.outs, outs))
                        if record is not None:
                            records.append(record)
                        continue
                    n = len(pl.returned[s]) + 1
                    got = (
                        self.actors[c]
                        .run.options(num_returns=n)
                        .remote(s, *(sendable(v) for v in pl.sent[s]))
                    )
                    got = [got] if n == 1 else list(got)
                    refs.update(zip(pl.returned[s], got[:-1]))
                    records.append(got[-1])
            outputs = tuple(np.asarray(value(v)) for v in self.exe.results)
            traffic = [r if isinstance(r, ProgramTraffic) else ray.get(r) for r in records]
        except ray.exceptions.RayError as e:
            raise DistributedError(_cause(e)) from None
        return Execution(outputs, Traffic(traffic))

    def held_bytes(self) -> dict[int, int]:
        """Per chip: the bytes its actor holds (its weights, and its last call's views)."""
        ray = self.ray
        return dict(
            zip(self.actors, ray.get([a.held_bytes.remote() for a in self.actors.values()]))
        )

    def close(self) -> None:
        """End the chips' actors (Ray itself keeps running for later runs)."""
        for a in self.actors.values():
            self.ray.kill(a)
        self.actors = {}

    def __enter__(self) -> Distributed:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
