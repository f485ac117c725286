"""
The console scripts' entry points. Each installs the handling of Ctrl-C before it
imports anything heavy (numpy, xDSL, Ray: the first second of a run), then runs its
tool, whose `cli.run` handles Ctrl-C from then on: one line, `PROG: interrupted`, exit
code 130, no traceback, and no output file written (outputs are renamed into place
only when a tool succeeds). After the first Ctrl-C, more are ignored while Python
exits (Ray's shutdown, say), so that none of them prints a traceback either; and once
the tool has returned (its work done, its files written), Ctrl-C is ignored while
Python exits: a Python handler run while the interpreter finalizes aborted it
("Fatal Python error: ... finalizing", exit -6).

A library may turn the KeyboardInterrupt into another error (numpy, interrupted while
it imports its C extension, raises an ImportError, and prints the interrupt's traceback
first): the handler notes that Ctrl-C was pressed (`signalled`), any error after it is
reported as the interrupt it is, and what the imports print is held until they are done.
One may swallow it whole (an import guard that takes that ImportError for a missing
optional module), and the tool then runs on: no output is renamed into place once
Ctrl-C was pressed (`files.write_file`), and the exit is the interrupt's all the same.

Only the standard library is imported here, and the package's `core.interrupts`,
which imports nothing.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import signal
import sys
import time
from collections.abc import Callable
from types import FrameType, ModuleType
from typing import TextIO

from xdsl_spatial.core.interrupts import note_pressed, signalled

EXIT_INTERRUPTED = 130

_started: float | None = None


def started() -> float | None:
    """When the console script's process started, on `time.perf_counter`'s clock (its
    imports and loading count towards "first token ... after the start"); None when
    the tool was not started by its console script (its `main` called in Python)."""
    return _started


def _process_start() -> float:
    """When this process started, from Linux's /proc (the interpreter's own start-up
    included); now, where there is no /proc."""
    now = time.perf_counter()
    try:
        with open("/proc/self/stat", encoding="ascii") as f:
            ticks = int(f.read().rsplit(")", 1)[1].split()[19])  # field 22, starttime
        with open("/proc/uptime", encoding="ascii") as f:
            uptime = float(f.read().split()[0])
        age = uptime - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return now
    return now - min(max(age, 0.0), 60.0)  # a clock that disagrees is no reason to lie


def _on_sigint(signum: int, frame: FrameType | None) -> None:
    note_pressed()
    raise KeyboardInterrupt


def _ignore_sigint() -> None:
    """Ctrl-C ignored from now on (a disposition, not a Python handler: none runs)."""
    with contextlib.suppress(ValueError):  # not the main thread: nothing to ignore
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def interrupted(prog: str) -> int:
    """Say so, once, ignore Ctrl-C from now on, and give the exit code."""
    _ignore_sigint()
    with contextlib.suppress(OSError, ValueError):
        print(f"{prog}: interrupted", file=sys.stderr, flush=True)
    return EXIT_INTERRUPTED


def _show(stream: TextIO, text: str) -> bool:
    """`text` on the terminal's current line (the line erased first), if `stream` is a
    terminal; whether it was."""
    try:
        if not stream.isatty():
            return False
        stream.write(f"\r\x1b[K{text}")
        stream.flush()
    except (OSError, ValueError):
        return False
    return True


def _import(prog: str, module: str) -> ModuleType:
    """The tool's module, imported with stderr held: a C extension interrupted while it
    imports numpy prints the interrupt's traceback itself (numpy's `import_array`),
    which is dropped; anything else the imports print is passed on. On a terminal a
    line says so meanwhile (the imports take seconds on a loaded machine), erased when
    they are done."""
    held, real = io.StringIO(), sys.stderr
    shown = _show(real, f"{prog}: starting (importing its modules)")
    sys.stderr = held
    try:
        tool = importlib.import_module(f"xdsl_spatial.tools.{module}")
    finally:
        sys.stderr = real
        if shown:
            _show(real, "")
    if not signalled():
        real.write(held.getvalue())
    return tool


def _launch(prog: str, module: str) -> Callable[[], None]:
    def main() -> None:
        global _started
        _started = _process_start()
        signal.signal(signal.SIGINT, _on_sigint)
        try:
            code = _import(prog, module).main()
        except KeyboardInterrupt:
            code = interrupted(prog)
        except Exception:
            if not signalled():
                raise
            code = interrupted(prog)  # an interrupt a library turned into another error
        else:
            if signalled() and code != EXIT_INTERRUPTED:  # one a library swallowed whole
                code = interrupted(prog)
        _ignore_sigint()  # the work is done: only Python's exit is left to interrupt
        sys.exit(code)

    return main


spatial_run = _launch("spatial-run", "spatial_run")
spatial_opt = _launch("spatial-opt", "spatial_opt")
spatial_gguf = _launch("spatial-gguf", "spatial_gguf")
spatial_viz = _launch("spatial-viz", "spatial_viz")
spatial_generate = _launch("spatial-generate", "spatial_generate")
spatial_estimate = _launch("spatial-estimate", "spatial_estimate")
