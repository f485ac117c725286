"""
What every command-line tool of the package shares: one diagnostic per error, the
exit codes, and outputs that are written whole or not at all.

Exit codes: 0 success; 1 an error (a diagnostic on stderr); 2 a usage error (an
option argparse cannot read, or options that do not go together); 130 interrupted
(Ctrl-C: `PROG: interrupted`, one line; the console scripts' entry points in
`launch.py` handle it from before the first heavy import).

A tool is a parser and a body; `run` does the rest:

```python
from xdsl_spatial.tools import cli

def _parser() -> cli.ArgumentParser:
    p = cli.ArgumentParser(prog="spatial-foo", description="...")
    p.add_argument("file", help="the .mlir module")
    p.add_argument("--seed", type=cli.non_negative_int, help="...")
    p.add_argument("-o", "--output", help="write here instead of stdout")
    return p

def _main(args) -> int:
    text = cli.read_text(args.file)                 # ToolError naming the file
    cli.check_output_path(args.output, "-o")        # before any work is done
    with cli.atomic_write(args.output) as f:        # renamed into place on success
        f.write(text)
    return 0

def main(argv=None) -> int:
    return cli.run(_parser(), _main, argv)
```

The API:

- `ToolError(message)`: raise it for an error the user can fix; printed as
  `PROG: error: MESSAGE`, exit code 1. `UsageError(message)`: the same with exit
  code 2, for options that do not go together.
- `ArgumentParser`: argparse's, printing a usage error as one line
  (`PROG: error: argument --seed: ...`), exit code 2. Option types:
  `non_negative_int`, `positive_int`, `byte_count` (`512M`).
- `run(parser, body, argv)`: parses `argv` and calls `body(args)`, returning its
  exit code; every error becomes one diagnostic. `guarded(prog, body)` does the
  same for a `body()` that reads its own arguments. An `ir_io.IRError` or xDSL
  `ParseError` prints in MLIR's `FILE:LINE:COL: error: MESSAGE` shape; a
  `RunError` with a location likewise; `ToolError` (a `PipelineError` too), an `OSError`
  with its file, a `MemoryError` as `PROG: error: ...`. A warning
  (`warnings.warn`) prints as `PROG: warning: MESSAGE`, once. An exception nothing
  expects prints as `PROG: internal error: TYPE: MESSAGE`, exit code 1, no
  traceback (set `XDSL_SPATIAL_TRACEBACK=1` to see it); it is a bug to report.
- `read_text(path)`: a file's text, or a `ToolError` saying why not (missing, a
  directory, unreadable, not UTF-8).
- `check_output_path(path, option)`: a `ToolError` now, before any work, if `path`
  cannot be written (its directory is missing, it is a directory).
- `write_file(path, payload, option)`: `payload` (bytes) into `path` the same way.
- `atomic_write(path, mode="w")`: a context manager giving a stream (text, or
  bytes with `"wb"`) whose contents replace `path` when the block ends without an
  exception, through a temporary file beside `path` renamed into place; nothing is
  written otherwise. An existing `path` keeps its permissions, a symlink stays a
  link to the new file, a device (`/dev/null`) is written to directly; a write that
  fails (a full disk) is a `ToolError` naming `path`. `path=None` or `-` streams to
  stdout.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from xdsl.utils.exceptions import DiagnosticException, ParseError

from xdsl_spatial.core.disk_cache import cache_size
from xdsl_spatial.core.files import (  # re-exported: a tool needs only `cli`
    EXIT_ERROR,
    EXIT_USAGE,
    ToolError,
    UsageError,
    atomic_write,
    check_output_path,
    read_text,
    write_file,
)
from xdsl_spatial.core.interrupts import signalled
from xdsl_spatial.core.memory import memory_limit, parse_bytes
from xdsl_spatial.interpreters.errors import RunError
from xdsl_spatial.tools.launch import EXIT_INTERRUPTED, interrupted

EXIT_OK = 0

__all__ = [  # the files' half lives in core.files; a tool needs only `cli`
    "EXIT_ERROR",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "ArgumentParser",
    "Status",
    "ToolError",
    "UsageError",
    "atomic_write",
    "byte_count",
    "check_output_path",
    "guarded",
    "non_negative_int",
    "positive_int",
    "read_text",
    "report",
    "run",
    "write_file",
]

TRACEBACK_ENV = "XDSL_SPATIAL_TRACEBACK"
"""Set to 1 to let an internal error raise with its traceback."""


class ArgumentParser(argparse.ArgumentParser):
    """argparse's parser, with a usage error as one line and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _int_from(text: str, low: int, what: str) -> int:
    """`text` as an integer (any base prefix) of at least `low`, else an argparse
    type error saying it expected `what`."""
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
    if value < low:
        raise argparse.ArgumentTypeError(f"expected {what}, got {value}")
    return value


def non_negative_int(text: str) -> int:
    """An argparse type: an integer >= 0."""
    return _int_from(text, 0, "a non-negative integer")


def positive_int(text: str) -> int:
    """An argparse type: an integer >= 1."""
    return _int_from(text, 1, "a positive integer")


def byte_count(text: str) -> int:
    """An argparse type: bytes, as `1048576`, `512M` or `4G`."""
    try:
        return parse_bytes(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


# --------------------------------------------------------------------------------------
# Progress
# --------------------------------------------------------------------------------------


class Status:
    """A status line on stderr while a tool works (rich's spinner, the text given last
    and the seconds since that text's phase began, counted live), when stderr is a
    terminal; nothing at all when it is not (piped, a file). `status(text)` shows or
    updates it: a text whose phase (what comes before its first `:`) is the last one's
    keeps the phase's clock (`q8-lower: 120 of 422 products (28%)`); `status.done()`
    clears it (before a tool prints anything else)."""

    def __init__(self, prog: str):
        self.prog = prog
        self.console: Any = None
        self.live = sys.stderr.isatty() or "FORCE_TERMINAL" in os.environ
        if self.live:  # (rich only then: a piped run starts without it)
            from rich.console import Console

            self.console = Console(stderr=True)
            self.live = self.console.is_terminal
        self._status: Any = None
        self._line = _StatusLine(prog)

    def __call__(self, text: str) -> None:
        if not self.live:
            return
        self._line.show(text)
        if self._status is None:
            self._status = self.console.status(self._line)
            self._status.start()

    def done(self) -> None:
        if self._status is not None:
            self._status.stop()
            self._status = None


class _StatusLine:
    """What the status line shows, rendered afresh at each refresh of the spinner (so
    the seconds count while one long step runs)."""

    def __init__(self, prog: str):
        self.prog = prog
        self.text = ""
        self.phase = ""
        self.since = time.monotonic()

    def show(self, text: str) -> None:
        phase = text.split(":", 1)[0]
        if phase != self.phase:
            self.phase, self.since = phase, time.monotonic()
        self.text = text

    def __rich__(self) -> Any:
        from rich.text import Text

        seconds = time.monotonic() - self.since
        clock = f" ({seconds:.0f} s)" if seconds >= 1 else ""
        return Text(f"{self.prog}: {self.text}{clock}")


# --------------------------------------------------------------------------------------
# Running a tool
# --------------------------------------------------------------------------------------


def diagnostic(prog: str, e: BaseException) -> tuple[str, int] | None:
    """The text (one diagnostic) and exit code of an error the tools expect, or None
    for one nothing expects."""
    if isinstance(e, ToolError):
        return f"{prog}: error: {e}", e.exit_code
    if isinstance(e, (ParseError, DiagnosticException)):
        from xdsl_spatial.core.ir_io import format_diagnostic  # (xDSL's: IR was read)

        return format_diagnostic(e, prog), EXIT_ERROR
    if isinstance(e, RunError):
        where = e.location or prog
        return f"{where}: error: {e}", EXIT_ERROR
    if isinstance(e, OSError):
        where = f" '{e.filename}'" if e.filename else ""
        return f"{prog}: error: cannot access{where}: {e.strerror or e}", EXIT_ERROR
    if isinstance(e, MemoryError):
        return f"{prog}: error: out of memory{f' ({e})' if str(e) else ''}", EXIT_ERROR
    if isinstance(e, RecursionError):
        return f"{prog}: error: the input nests too deeply to read", EXIT_ERROR
    return None


def report(prog: str, e: BaseException) -> int:
    """Print `e` as the one diagnostic it is (an error nothing expects as an internal
    error); the exit code."""
    known = diagnostic(prog, e)
    if known is None:
        known = (
            f"{prog}: internal error: {type(e).__name__}: {e}\n"
            f"  this is a bug in xdsl-spatial; {TRACEBACK_ENV}=1 shows where",
            EXIT_ERROR,
        )
    print(known[0], file=sys.stderr)
    return known[1]


def _show_warning(prog: str) -> Callable[..., None]:
    def show(message: Warning | str, category: type[Warning], *args: Any, **kwargs: Any) -> None:
        print(f"{prog}: warning: {message}", file=sys.stderr)

    return show


def run(
    parser: argparse.ArgumentParser,
    body: Callable[[argparse.Namespace], int | None],
    argv: Sequence[str] | None = None,
) -> int:
    """Parse `argv` with `parser`, run `body`; its exit code, every error one diagnostic."""
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # --help (0) or a usage error (2), already printed
        return e.code if isinstance(e.code, int) else EXIT_USAGE

    def checked() -> int | None:
        memory_limit()  # a malformed XDSL_SPATIAL_MEMORY_LIMIT is refused before any work
        cache_size()  # and so is a malformed XDSL_SPATIAL_CACHE_SIZE
        return body(args)

    return guarded(parser.prog, checked)


def guarded(prog: str, body: Callable[[], int | None]) -> int:
    """`body()`'s exit code, with every error one diagnostic and every warning one
    line, both naming `prog`."""
    with warnings.catch_warnings():
        warnings.simplefilter("default")
        # A process a library left running when it was interrupted is its business
        # (Ray's are ended as the tool exits), not a warning to the user.
        warnings.simplefilter("ignore", ResourceWarning)
        warnings.showwarning = _show_warning(prog)
        try:
            return body() or EXIT_OK
        except SystemExit as e:  # a library that exits (argparse inside xdsl-opt)
            return e.code if isinstance(e.code, int) else EXIT_USAGE
        except KeyboardInterrupt:
            return interrupted(prog)
        except BrokenPipeError:
            with contextlib.suppress(OSError):
                sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - stdout's reader has gone
            return EXIT_ERROR
        except Exception as e:  # every error is one diagnostic
            if signalled():  # Ctrl-C, which a library turned into this error
                return interrupted(prog)
            if diagnostic(prog, e) is None and os.environ.get(TRACEBACK_ENV):
                raise
            return report(prog, e)
