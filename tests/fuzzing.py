"""
Mutants of the bundled examples, run through every tool: each must exit with a
diagnostic or succeed, never with a Python traceback, an internal error or a hang.

A mutant is an example with one to three random edits: an integer literal changed
(to 0, 1, -1, its neighbours, powers of two up to 2^64, ...), once or everywhere it
occurs (so that shapes still agree: N = 0, K = 2^31), an element type swapped (once
or everywhere), a line deleted, duplicated or swapped with the next, the text cut short, a
value use renamed to another value, a bracket or quote deleted or inserted. Each
runs, in a forked process of its own with a time limit (so a hang is caught and a
crash cannot take the campaign down), through

    spatial-opt FILE
    spatial-opt -p q8-lower FILE
    spatial-run FILE --entry F --seed 0
    spatial-run FILE --entry F --seed 0 -p q8-lower --stats

with `XDSL_SPATIAL_MEMORY_LIMIT=1G`, so that a mutant asking for a huge tensor is
refused (as it must be) rather than allocated.

    python tests/fuzzing.py --count 1000 --seed 7      # a campaign, with its numbers

`tests/test_fuzz.py` runs a few hundred a run.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import multiprocessing
import os
import random
import re
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

ROOT = Path(__file__).resolve().parents[1]

SOURCES = (
    sorted((ROOT / "examples").glob("*.mlir"))
    + sorted((ROOT / "examples" / "bad").glob("*.mlir"))
    + [ROOT / "lit_tests" / "run" / "gemv_tail.mlir"]
    + [
        ROOT / "lit_tests" / "passes" / "q8_lower" / f
        for f in ("gemv.mlir", "views.mlir", "untouched.mlir")
    ]
)
"""The texts mutated: the bundled examples and a few of the lit tests' modules."""

LARGE = {"gemv_q8.mlir", "gemv_q8_lowered.mlir"}
"""Sources whose runs take a while (K = 2048, N = 4096): drawn less often."""

MEMORY_LIMIT = "1G"
TOOLS = ("opt", "opt-lower", "run", "run-lower")

_INT = re.compile(r"(?:(?<=\dx)|(?<![\w.%@#$^]))-?\d+(?![.\d])")
_TYPE = re.compile(r"(?<![\w.$-])(?:i1|i8|i16|i32|i64|f16|bf16|f32|f64|index)(?![\w.$-])")
_TYPES = ("i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64", "index")
_USE = re.compile(r"%[A-Za-z_][\w.$-]*")
_PUNCT = re.compile(r'[\[\](){}<>,:="]')


@dataclass
class Mutant:
    source: str
    edits: list[str]
    text: str
    entry: str | None


def _new_int(rng: random.Random, n: int) -> int:
    return rng.choice(
        [
            0,
            1,
            -1,
            2,
            3,
            n - 1,
            n + 1,
            n * 2,
            n // 2,
            31,
            32,
            33,
            1023,
            1024,
            1025,
            4097,
            10**6,
            2**24,
            2**31 - 1,
            2**31,
            2**32,
            2**40,
            2**63 - 1,
            2**63,
            2**64,
            rng.randrange(10**4),
        ]
    )


def mutate(text: str, rng: random.Random) -> tuple[str, str]:
    """One random edit of `text`, and what it was."""
    lines = text.split("\n")
    kind = rng.choice(
        [
            "int",
            "int",
            "int",
            "int-all",
            "int-all",
            "int-all",
            "type",
            "type",
            "type-all",
            "delete",
            "duplicate",
            "swap",
            "truncate",
            "rename",
            "punct",
            "quote",
        ]
    )
    if kind == "int-all":  # every occurrence: shapes that still agree (N = 0, K = 2^31)
        values = sorted({m.group() for m in _INT.finditer(text)})
        if values:
            old = rng.choice(values)
            new = str(_new_int(rng, int(old)))
            pattern = re.compile(_INT.pattern.replace(r"-?\d+", re.escape(old)))
            return pattern.sub(new, text), f"int-all {old}->{new}"
    if kind == "type-all":
        values = sorted({m.group() for m in _TYPE.finditer(text)})
        if values:
            old = rng.choice(values)
            new = rng.choice([t for t in _TYPES if t != old])
            pattern = re.compile(
                _TYPE.pattern.replace(
                    "(?:i1|i8|i16|i32|i64|f16|bf16|f32|f64|index)", re.escape(old)
                )
            )
            return pattern.sub(new, text), f"type-all {old}->{new}"
    if kind == "int":
        hits = list(_INT.finditer(text))
        if hits:
            m = rng.choice(hits)
            new = _new_int(rng, int(m.group()))
            return text[: m.start()] + str(new) + text[
                m.end() :
            ], f"int {m.group()}->{new} at {m.start()}"
    if kind == "type":
        hits = list(_TYPE.finditer(text))
        if hits:
            m = rng.choice(hits)
            new = rng.choice([t for t in _TYPES if t != m.group()])
            return text[: m.start()] + new + text[
                m.end() :
            ], f"type {m.group()}->{new} at {m.start()}"
    if kind in ("delete", "duplicate", "swap") and len(lines) > 2:
        i = rng.randrange(len(lines) - 1)
        if kind == "delete":
            out = lines[:i] + lines[i + 1 :]
        elif kind == "duplicate":
            out = lines[: i + 1] + lines[i:]
        else:
            out = [*lines[:i], lines[i + 1], lines[i], *lines[i + 2 :]]
        return "\n".join(out), f"{kind} line {i + 1}"
    if kind == "rename":
        uses = list(_USE.finditer(text))
        names = sorted({m.group() for m in uses})
        if len(names) > 1:
            m = rng.choice(uses)
            new = rng.choice([n for n in names if n != m.group()])
            return text[: m.start()] + new + text[
                m.end() :
            ], f"rename {m.group()}->{new} at {m.start()}"
    if kind == "punct":
        hits = list(_PUNCT.finditer(text))
        if hits:
            m = rng.choice(hits)
            return text[: m.start()] + text[m.end() :], f"delete {m.group()!r} at {m.start()}"
    if kind == "quote":
        i = rng.randrange(len(text) + 1)
        return text[:i] + '"' + text[i:], f"insert '\"' at {i}"
    i = rng.randrange(len(text) + 1)  # (an earlier edit may have left nothing)
    return text[:i], f"truncate at {i}"


def mutants(seed: int, count: int) -> list[Mutant]:
    """`count` mutants, the same ones for the same seed."""
    rng = random.Random(seed)
    texts = {p.name: p.read_text() for p in SOURCES}
    bad = {p.name for p in SOURCES if p.parent.name == "bad"}
    weights = [0.25 if name in LARGE else 0.5 if name in bad else 1.0 for name in texts]
    out = []
    for _ in range(count):
        (name,) = rng.choices(list(texts), weights)
        text = texts[name]
        funcs = re.findall(r"func\.func @([\w.$-]+)", text)
        edits = []
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            text, edit = mutate(text, rng)
            edits.append(edit)
        out.append(Mutant(name, edits, text, rng.choice(funcs) if funcs else None))
    return out


# --------------------------------------------------------------------------------------
# Running the tools on one mutant
# --------------------------------------------------------------------------------------


@dataclass
class Outcome:
    tool: str
    code: int
    stderr: str
    seconds: float

    @property
    def escaped(self) -> bool:
        """A traceback, an internal error or an exit code no tool gives."""
        return (
            "Traceback" in self.stderr
            or "internal error" in self.stderr
            or self.code not in (0, 1, 2)
        )


def _argv(tool: str, path: str, entry: str | None) -> list[str]:
    e = ["--entry", entry] if entry else []
    return {
        "opt": [path],
        "opt-lower": ["-p", "q8-lower", path],
        "run": [path, *e, "--seed", "0"],
        "run-lower": [path, *e, "--seed", "0", "-p", "q8-lower", "--stats"],
    }[tool]


def run_tool(tool: str, path: str, entry: str | None) -> Outcome:
    """One tool on the file `path`, in this process; its exit code and stderr."""
    from xdsl_spatial.tools import spatial_opt, spatial_run

    main = spatial_opt.main if tool.startswith("opt") else spatial_run.main
    err, out = io.StringIO(), io.StringIO()
    t = time.perf_counter()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        try:
            code = main(_argv(tool, path, entry))
        except BaseException as e:
            import traceback

            code = -1
            err.write("".join(traceback.format_exception(e)))
    return Outcome(tool, code, err.getvalue(), time.perf_counter() - t)


def _child(conn, text: str, entry: str | None) -> None:
    os.environ["XDSL_SPATIAL_MEMORY_LIMIT"] = MEMORY_LIMIT
    os.environ["XDSL_SPATIAL_TRACEBACK"] = (
        "1"  # an internal error raises: its traceback is the report
    )
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "mutant.mlir")
        with open(path, "w") as f:
            f.write(text)
        for tool in TOOLS:
            conn.send(("started", tool))
            conn.send(("done", run_tool(tool, path, entry)))
    conn.send(("end", None))


@dataclass
class Result:
    mutant: Mutant
    outcomes: list[Outcome] = field(default_factory=list)
    hung: str | None = None
    crashed: str | None = None

    @property
    def bad(self) -> bool:
        return (
            self.hung is not None
            or self.crashed is not None
            or any(o.escaped for o in self.outcomes)
        )


class _Running:
    """A mutant running in a forked process of its own."""

    def __init__(self, m: Mutant, timeout: float):
        ctx = multiprocessing.get_context("fork")
        self.conn, send = ctx.Pipe(duplex=False)
        self.process = ctx.Process(target=_child, args=(send, m.text, m.entry), daemon=True)
        self.process.start()
        send.close()
        self.result = Result(m)
        self.current: str | None = None
        self.deadline = time.monotonic() + timeout

    def read(self) -> bool:
        """Take what the process sent; True once it is finished."""
        try:
            kind, value = self.conn.recv()
        except EOFError:
            self.result.crashed = (
                f"the process died (exit code {self.process.exitcode}) in {self.current}"
            )
            return True
        if kind == "started":
            self.current = value
        elif kind == "done":
            self.result.outcomes.append(value)
        return kind == "end"

    def stop(self, hung: bool = False) -> Result:
        if hung:
            self.result.hung = self.current or "start"
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()
        return self.result


def run_mutants(ms: list[Mutant], *, jobs: int, timeout: float) -> list[Result]:
    """Every tool on each mutant, `jobs` forked processes at a time (forked from this
    thread alone: no other thread holds a lock the child would inherit); a hang is a
    mutant still running after `timeout` seconds (its process is killed)."""
    from multiprocessing.connection import Connection, wait

    todo = list(enumerate(ms))[::-1]
    running: dict[Connection, tuple[int, _Running]] = {}
    results: list[Result | None] = [None] * len(ms)
    while todo or running:
        while todo and len(running) < jobs:
            i, m = todo.pop()
            r = _Running(m, timeout)
            running[r.conn] = (i, r)
        soonest = min(r.deadline for _, r in running.values())
        # wait gives back the connections it was given, those ready to read
        ready = cast("list[Connection]", wait(list(running), max(0.0, soonest - time.monotonic())))
        for conn in ready:
            i, r = running[conn]
            if r.read():
                results[i] = r.stop()
                del running[conn]
        now = time.monotonic()
        for conn, (i, r) in list(running.items()):
            if now >= r.deadline:
                results[i] = r.stop(hung=True)
                del running[conn]
    return [r for r in results if r is not None]


@dataclass
class Report:
    results: list[Result]
    seconds: float

    @property
    def bad(self) -> list[Result]:
        return [r for r in self.results if r.bad]

    def summary(self) -> str:
        codes = Counter((o.tool, o.code) for r in self.results for o in r.outcomes)
        runs = sum(len(r.outcomes) for r in self.results)
        escapes = sum(o.escaped for r in self.results for o in r.outcomes)
        hangs = sum(r.hung is not None for r in self.results)
        crashes = sum(r.crashed is not None for r in self.results)
        lines = [
            f"{len(self.results)} mutants, {runs} tool runs in {self.seconds:.1f} s: "
            f"{escapes} escaped (traceback or internal error), {hangs} hung, {crashes} crashed"
        ]
        for tool in TOOLS:
            by = {c: n for (t, c), n in codes.items() if t == tool}
            lines.append(
                f"  {tool:9}  " + ", ".join(f"exit {c}: {n}" for c, n in sorted(by.items()))
            )
        return "\n".join(lines)

    def signatures(self) -> Counter[str]:
        """Distinct escapes: the exception and the innermost frame of this package."""
        out: Counter[str] = Counter()
        for r in self.bad:
            if r.hung or r.crashed:
                out[f"hang in {r.hung}" if r.hung else r.crashed or ""] += 1
            for o in r.outcomes:
                if o.escaped:
                    out[_signature(o.stderr)] += 1
        return out

    def describe_bad(self, limit: int = 20) -> str:
        out = []
        for r in self.bad[:limit]:
            out.append(
                f"--- {r.mutant.source}: {'; '.join(r.mutant.edits)} (entry {r.mutant.entry})"
            )
            if r.hung:
                out.append(f"    hung in {r.hung}")
            if r.crashed:
                out.append(f"    {r.crashed}")
            for o in r.outcomes:
                if o.escaped:
                    out.append(
                        f"    {o.tool}: exit {o.code}\n      "
                        + o.stderr.strip()[-1500:].replace("\n", "\n      ")
                    )
        return "\n".join(out)


def _signature(stderr: str) -> str:
    frames = re.findall(r'File "([^"]+)", line (\d+), in (\S+)', stderr)
    ours = [f for f in frames if "site-packages" not in f[0]] or frames
    last = stderr.strip().splitlines()[-1] if stderr.strip() else ""
    where = f"{Path(ours[-1][0]).name}:{ours[-1][1]} {ours[-1][2]}" if ours else "?"
    return f"{last.split(':')[0]} at {where}"


def campaign(seed: int, count: int, *, jobs: int = 2, timeout: float = 60.0) -> Report:
    """Run `count` mutants (seeded) with `jobs` at a time."""
    # Import what the children run once, before forking, so each starts warm.
    from xdsl_spatial.interpreters import runner  # noqa: F401
    from xdsl_spatial.tools import spatial_opt, spatial_run  # noqa: F401

    t = time.perf_counter()
    results = run_mutants(mutants(seed, count), jobs=jobs, timeout=timeout)
    return Report(results, time.perf_counter() - t)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--count", type=int, default=300)
    p.add_argument("--seed", type=int, default=int(time.time()))
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=float, default=60.0, help="seconds a mutant may take")
    p.add_argument("-v", "--verbose", action="store_true", help="print every escape")
    args = p.parse_args(argv)
    print(f"seed {args.seed}")
    report = campaign(args.seed, args.count, jobs=args.jobs, timeout=args.timeout)
    print(report.summary())
    for sig, n in report.signatures().most_common():
        print(f"  {n:4}  {sig}")
    if report.bad and args.verbose:
        print(report.describe_bad(limit=1000))
    return 1 if report.bad else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
