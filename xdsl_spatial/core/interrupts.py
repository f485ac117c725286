"""
Whether Ctrl-C was pressed in a console script: `tools.launch` notes it (its handler,
installed before anything heavy is imported), and what must not happen once it was asks
here (`files` renames no output into place), even where a library swallowed the
KeyboardInterrupt and the tool ran on. It imports nothing.
"""

from __future__ import annotations

_pressed = False


def note_pressed() -> None:
    """Ctrl-C was pressed (the console script's handler)."""
    global _pressed
    _pressed = True


def signalled() -> bool:
    """Whether Ctrl-C was pressed (in a console script: `launch` installed the handler)."""
    return _pressed
