"""The package's layers: a module imports only from its own layer or below.

    core  <-  dialects  <-  analysis  <-  passes  <-  interpreters (engines)
          <-  frontends, viz, universe  <-  tools

`core` is numbers and IR plumbing (memory, Q8_0 arithmetic, tile geometry, parsing,
files); the dialects define the IR; analyses read it; passes rewrite it; engines run
it; the model frontends and the pictures use all of those; the tools are thin
command lines over everything. An import that goes up, even one inside a function,
is a test failure: the code belongs in another layer.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

# Each top-level folder and the import package it becomes (pyproject.toml).
FOLDERS = {
    "xdsl_spatial": "xdsl_spatial",
    "dialects": "xdsl_spatial.dialects",
    "passes": "xdsl_spatial.passes",
    "interpreters": "xdsl_spatial.interpreters",
    "tools": "xdsl_spatial.tools",
}

LAYERS = [
    ("xdsl_spatial.core", 0),
    ("xdsl_spatial.dialects", 1),
    ("xdsl_spatial.analysis", 2),
    ("xdsl_spatial.passes", 3),
    ("xdsl_spatial.interpreters", 4),
    ("xdsl_spatial.frontends", 5),
    ("xdsl_spatial.viz", 5),
    ("xdsl_spatial.universe", 5),
    ("xdsl_spatial.tools", 6),
]


def layer(module: str) -> int | None:
    for prefix, n in LAYERS:
        if module == prefix or module.startswith(prefix + "."):
            return n
    return None


def modules() -> list[tuple[str, Path]]:
    out = []
    for folder, package in FOLDERS.items():
        for path in sorted((REPO / folder).rglob("*.py")):
            parts = path.relative_to(REPO / folder).with_suffix("").parts
            name = ".".join((package, *parts)).removesuffix(".__init__")
            out.append((name, path))
    return out


def imported(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import of the package in `path`, at any depth."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.startswith("xdsl_spatial"):
                found.append((node.lineno, node.module))
                found += [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
        elif isinstance(node, ast.Import):
            found += [
                (node.lineno, a.name) for a in node.names if a.name.startswith("xdsl_spatial")
            ]
    return found


def test_every_module_has_a_layer():
    unplaced = [name for name, _ in modules() if name != "xdsl_spatial" and layer(name) is None]
    assert not unplaced, f"modules outside every layer: {unplaced}"


@pytest.mark.parametrize("name,path", modules(), ids=[n for n, _ in modules()])
def test_imports_go_down(name: str, path: Path):
    mine = layer(name)
    if mine is None:
        return  # the package's __init__: imports nothing of its own
    upward = [
        f"{path.relative_to(REPO)}:{line}: imports {target}"
        for line, target in imported(path)
        if (theirs := layer(target)) is not None and theirs > mine
    ]
    assert not upward, "\n".join(upward)
