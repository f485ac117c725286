"""Files written whole or not at all: a temporary file beside the target, renamed
over it on success, so a failed command leaves an existing file as it was."""

from __future__ import annotations

import os
import tempfile


def write_atomic(path: str, data: bytes) -> None:
    """Write `data` to `path`, replacing it only once all of it is on disk."""
    directory = os.path.dirname(os.path.abspath(path))
    name = os.path.basename(path)
    try:
        mode = os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        # mkstemp makes the file private (0600); the picture gets the mode a plain
        # open() would give it, or keeps the one it had.
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
