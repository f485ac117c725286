"""
The console scripts' entry points. Each installs the handling of Ctrl-C before it
imports anything heavy (numpy, xDSL, Ray: the first second of a run), then runs its
tool, whose `cli.run` handles Ctrl-C from then on: one line, `PROG: interrupted`, exit
code 130, no traceback, and no output file written (outputs are renamed into place
only when a tool succeeds). After the first Ctrl-C, more are ignored while Python
exits (Ray's shutdown, say), so that none of them prints a traceback either.

Only the standard library is imported here.
"""

from __future__ import annotations

import contextlib
import importlib
import signal
import sys
from collections.abc import Callable

EXIT_INTERRUPTED = 130


def interrupted(prog: str) -> int:
    """Say so, once, ignore Ctrl-C from now on, and give the exit code."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError, ValueError):
        print(f"{prog}: interrupted", file=sys.stderr, flush=True)
    return EXIT_INTERRUPTED


def _launch(prog: str, module: str) -> Callable[[], None]:
    def main() -> None:
        try:
            tool = importlib.import_module(f"xdsl_spatial.tools.{module}")
            code = tool.main()
        except KeyboardInterrupt:
            code = interrupted(prog)
        if code == EXIT_INTERRUPTED:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        sys.exit(code)

    return main


spatial_run = _launch("spatial-run", "spatial_run")
spatial_opt = _launch("spatial-opt", "spatial_opt")
spatial_gguf = _launch("spatial-gguf", "spatial_gguf")
spatial_viz = _launch("spatial-viz", "spatial_viz")
spatial_generate = _launch("spatial-generate", "spatial_generate")
