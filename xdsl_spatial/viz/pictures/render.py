"""What every picture shares: the optional `[viz]` extra, the one font, text measured in
it, and a graph or a figure made into SVG or PNG bytes.
"""

from __future__ import annotations

import functools
import importlib
import io
import os
import re
import shutil
import subprocess
import sysconfig
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any, ParamSpec

if TYPE_CHECKING:
    import graphviz
    from matplotlib.figure import Figure


P = ParamSpec("P")

EXTRA = "viz"
INSTALL_HINT = "pip install -e '.[viz]'"
FORMATS = ("svg", "png")
DOT_PROGRAMS = ("dot", "graphviz-pure")
"""Graphviz layout programs tried in turn: the system's, then the extra's."""
PNG_DPI = 110
FONT = "DejaVu Sans"
"""The pictures' one font: Debian ships it (fonts-dejavu-core), matplotlib bundles it,
and Graphviz lays a label out with its metrics, so a box sized for its text holds it
wherever the SVG is shown; `text_inches` measures with the same metrics."""


class VizError(Exception):
    """A picture that cannot be made; the message says why."""


class MissingExtra(VizError):
    def __init__(self, module: str):
        super().__init__(
            f"spatial-viz needs the optional extra [{EXTRA}] (the Python module "
            f"'{module}' is not installed): {INSTALL_HINT}"
        )
        self.module = module


def require(module: str) -> ModuleType:
    """Import a module of the `[viz]` extra, or say which extra brings it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtra(module.split(".")[0]) from None


def check_extra() -> None:
    """Fail now, naming the extra, if any of its Python modules is missing."""
    for m in ("graphviz", "matplotlib"):
        require(m)


def output_format(path: str) -> str:
    ext = os.path.splitext(path)[1].lower().lstrip(".")
    if ext not in FORMATS:
        raise VizError(f"cannot tell the picture's format from '{path}': name it .svg or .png")
    return ext


def short_refusal(refusal: str) -> list[str]:
    """The verifier's message, and the op it is about cut to a line."""
    lines = refusal.splitlines()
    if len(lines) > 1 and re.match(r'\s*at: %[^=]*= "spatial\.(fold|view)"', lines[1]):
        lines = lines[:1]  # the program itself, which the title names
    if len(lines) > 1 and len(lines[1]) > 100:
        lines[1] = lines[1][:97].rstrip() + "..."
    return lines[:2]


# --------------------------------------------------------------------------------------
# Words and numbers
# --------------------------------------------------------------------------------------


def human_bytes(n: float) -> str:
    """`512 KiB`, `8 MiB`, `1.13 MiB`: binary units, three significant digits."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if abs(n) >= scale:
            v = n / scale
            return f"{v:.3g} {unit}"
    return f"{int(n)} B"


@functools.cache
def _font(size: float, bold: bool) -> Any:
    fm = require("matplotlib.font_manager")
    return fm.FontProperties(family=FONT, size=size, weight="bold" if bold else "normal")


def text_inches(text: str, size: float, bold: bool = False) -> float:
    """The width of `text`'s longest line in `FONT` at `size` points, in inches, from
    the font's own metrics."""
    measure = require("matplotlib.textpath").TextToPath().get_text_width_height_descent
    return (
        max(
            (measure(line, _font(size, bold), ismath=False)[0] for line in text.splitlines()),
            default=0.0,
        )
        / 72.0
    )


def in_font(draw: Callable[P, Figure]) -> Callable[P, Figure]:
    """`draw` with its text in `FONT` (a figure's text takes the font it is made in)."""

    @functools.wraps(draw)
    def drawn(*args: P.args, **kwargs: P.kwargs) -> Figure:
        with require("matplotlib").rc_context({"font.family": [FONT]}):
            return draw(*args, **kwargs)

    return drawn


def render_graph(g: graphviz.Digraph, fmt: str, dot: str | None = None) -> bytes:
    """The graph laid out by Graphviz, as SVG or PNG bytes."""
    exe = find_dot(dot)
    cmd = [exe, f"-T{fmt}"] + ([f"-Gdpi={PNG_DPI}"] if fmt == "png" else [])
    try:
        done = subprocess.run(cmd, input=g.source.encode(), capture_output=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise VizError(f"cannot run {exe}: {e}") from None
    if done.returncode != 0 or not done.stdout:
        err = done.stderr.decode(errors="replace").strip()
        raise VizError(f"{exe} failed (exit code {done.returncode}): {err}")
    return done.stdout


def find_dot(dot: str | None = None) -> str:
    """The Graphviz layout program: `dot` named by the caller, else the system's
    `dot`, else `graphviz-pure` (installed by the `[viz]` extra beside Python)."""
    scripts = sysconfig.get_path("scripts")
    names = (dot,) if dot else DOT_PROGRAMS
    for name in names:
        found = shutil.which(name) or shutil.which(name, path=scripts)
        if found:
            return found
    if dot:
        raise VizError(f"--dot: no program '{dot}' found")
    raise VizError(
        "no Graphviz layout program found (looked for "
        + " and ".join(f"'{n}'" for n in DOT_PROGRAMS)
        + f"): {INSTALL_HINT} brings graphviz-pure, or install Graphviz (apt-get install graphviz)"
    )


# --------------------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------------------


def new_figure(width: float, height: float) -> Figure:
    mfig = require("matplotlib.figure")
    return mfig.Figure(figsize=(width, height), layout=None)


def figure_bytes(fig: Figure, fmt: str) -> bytes:
    """SVG with its text kept as text, or PNG; no date, so a picture remakes the same."""
    mpl = require("matplotlib")
    buf = io.BytesIO()
    rc = {"svg.fonttype": "none", "svg.hashsalt": "spatial-viz"}
    meta = {"Date": None} if fmt == "svg" else {"Software": None}
    with mpl.rc_context(rc):
        fig.savefig(buf, format=fmt, dpi=PNG_DPI, metadata=meta)
    return buf.getvalue()
