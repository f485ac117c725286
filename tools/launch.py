"""
The console scripts' entry points. Each installs the handling of Ctrl-C before it
imports anything heavy (numpy, xDSL, Ray: the first second of a run), then runs its
tool, whose `cli.run` handles Ctrl-C from then on: one line, `PROG: interrupted`, exit
code 130, no traceback, and no output file written (outputs are renamed into place
only when a tool succeeds). After the first Ctrl-C, more are ignored while Python
exits (Ray's shutdown, say), so that none of them prints a traceback either.

A library may turn the KeyboardInterrupt into another error (numpy, interrupted while
it imports its C extension, raises an ImportError, and prints the interrupt's traceback
first): the handler notes that Ctrl-C was pressed (`signalled`), any error after it is
reported as the interrupt it is, and what the imports print is held until they are done.

Only the standard library is imported here.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import signal
import sys
from collections.abc import Callable
from types import FrameType, ModuleType

EXIT_INTERRUPTED = 130

_signalled = False


def signalled() -> bool:
    """Whether Ctrl-C was pressed (in a console script: `launch` installed the handler)."""
    return _signalled


def _on_sigint(signum: int, frame: FrameType | None) -> None:
    global _signalled
    _signalled = True
    raise KeyboardInterrupt


def interrupted(prog: str) -> int:
    """Say so, once, ignore Ctrl-C from now on, and give the exit code."""
    with contextlib.suppress(ValueError):  # not the main thread: nothing to ignore
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError, ValueError):
        print(f"{prog}: interrupted", file=sys.stderr, flush=True)
    return EXIT_INTERRUPTED


def _import(module: str) -> ModuleType:
    """The tool's module, imported with stderr held: a C extension interrupted while it
    imports numpy prints the interrupt's traceback itself (numpy's `import_array`),
    which is dropped; anything else the imports print is passed on."""
    held, real = io.StringIO(), sys.stderr
    sys.stderr = held
    try:
        tool = importlib.import_module(f"xdsl_spatial.tools.{module}")
    finally:
        sys.stderr = real
    if not _signalled:
        real.write(held.getvalue())
    return tool


def _launch(prog: str, module: str) -> Callable[[], None]:
    def main() -> None:
        signal.signal(signal.SIGINT, _on_sigint)
        try:
            code = _import(module).main()
        except KeyboardInterrupt:
            code = interrupted(prog)
        except Exception:
            if not _signalled:
                raise
            code = interrupted(prog)  # an interrupt a library turned into another error
        sys.exit(code)

    return main


spatial_run = _launch("spatial-run", "spatial_run")
spatial_opt = _launch("spatial-opt", "spatial_opt")
spatial_gguf = _launch("spatial-gguf", "spatial_gguf")
spatial_viz = _launch("spatial-viz", "spatial_viz")
spatial_generate = _launch("spatial-generate", "spatial_generate")
spatial_estimate = _launch("spatial-estimate", "spatial_estimate")
