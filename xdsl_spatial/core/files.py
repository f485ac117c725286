"""
Files written whole or not at all, and the error a user can fix.

Every output of the package (a module, an `.npz`, a picture, a traffic file) goes
through `atomic_write` or `write_file`: the bytes are written to a temporary file
beside the target and renamed into place, so a failed command leaves every existing
file as it was. `read_text` reads an input or says, as a `ToolError`, why it cannot.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
from collections.abc import Iterator
from typing import IO, Any

from xdsl_spatial.core.interrupts import signalled

EXIT_ERROR = 1
EXIT_USAGE = 2


class ToolError(Exception):
    """An error the user can fix: `PROG: error: MESSAGE`, exit code 1."""

    exit_code = EXIT_ERROR


class UsageError(ToolError):
    """Options that do not go together: `PROG: error: MESSAGE`, exit code 2."""

    exit_code = EXIT_USAGE


def read_text(path: str, what: str = "") -> str:
    """The UTF-8 text of `path` (`-` reads stdin), or a ToolError saying why not."""
    label = f"{what} '{path}'" if what else f"'{path}'"
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, "rb") as f:
            data = f.read()
    except IsADirectoryError:
        raise ToolError(f"cannot read {label}: it is a directory") from None
    except OSError as e:
        raise ToolError(f"cannot read {label}: {e.strerror or e}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ToolError(
            f"cannot read {label}: not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start})"
        ) from None


def check_output_path(path: str | None, option: str) -> None:
    """A ToolError now if `path` (given with `option`) cannot be written."""
    if path is None or path == "-":
        return
    if os.path.isdir(path):
        raise ToolError(f"cannot write {option} '{path}': it is a directory")
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise ToolError(f"cannot write {option} '{path}': no directory '{directory}'")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise ToolError(f"cannot write {option} '{path}': '{directory}' is not writable")


def _mode_for(path: str) -> int:
    """The permissions the written file gets: the existing file's, else the umask's."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


@contextlib.contextmanager
def atomic_write(path: str | None, mode: str = "w", option: str = "output") -> Iterator[IO[Any]]:
    """A stream to write the output into; it replaces `path` only when the block
    succeeds (the text is held in memory, then written beside `path` and renamed).
    `path` None or `-` streams to stdout instead."""
    binary = "b" in mode
    if path is None or path == "-":
        yield sys.stdout.buffer if binary else sys.stdout
        return
    check_output_path(path, option)
    held: io.BytesIO | io.StringIO = io.BytesIO() if binary else io.StringIO()
    yield held
    data = held.getvalue()
    write_file(path, data if isinstance(data, bytes) else data.encode("utf-8"), option)


def write_file(
    path: str,
    payload: bytes | bytearray | memoryview,
    option: str = "output",
    mode: int | None = None,
) -> None:
    """Write `payload` to `path` whole or not at all (see `atomic_write`), with the
    permissions `mode` (default: the existing file's, else the umask's); a write that
    fails is a `ToolError` naming `option` and `path`."""
    try:
        _replace(path, payload, mode)
    except OSError as e:
        raise ToolError(f"cannot write {option} '{path}': {e.strerror or e}") from None


def _replace(path: str, payload: bytes | bytearray | memoryview, mode: int | None = None) -> None:
    """Put `payload` in `path`: through a temporary file beside it, renamed; a failure
    (an interrupt included) removes the temporary file. Not renamed once Ctrl-C was
    pressed in a console script (`interrupts.signalled`), even where a library swallowed
    the interrupt and the tool ran on: the command was interrupted."""
    if os.path.exists(path) and not os.path.isfile(path):
        # A device or a pipe (/dev/null, /dev/stdout): nothing to replace, write to it.
        with open(path, "wb") as f:
            f.write(payload)
        return
    path = os.path.realpath(path)  # through a symlink: replace the file, keep the link
    fd, tmp = tempfile.mkstemp(
        prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=os.path.dirname(path)
    )
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, _mode_for(path) if mode is None else mode)
        if signalled():
            raise KeyboardInterrupt
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
