"""The package as users get it: the xdsl-opt plugin entry point, and the wheel."""

from __future__ import annotations

import configparser
import importlib.metadata
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import venv
import zipfile
from pathlib import Path

import pytest
from xdsl.universe import Universe

from xdsl_spatial.dialects.q8 import Q8
from xdsl_spatial.dialects.spatial import Spatial

REPO = Path(__file__).resolve().parents[1]
ENTRY = "xdsl_spatial = xdsl_spatial.universe:SPATIAL_UNIVERSE"

# The card's top-level folders and the import package each becomes (pyproject.toml).
PACKAGE_DIRS = {
    "xdsl_spatial": "xdsl_spatial",
    "dialects": "xdsl_spatial/dialects",
    "passes": "xdsl_spatial/passes",
    "interpreters": "xdsl_spatial/interpreters",
    "tools": "xdsl_spatial/tools",
}

Q8_SOURCE = """\
func.func @w(%q: tensor<64x96xi8>, %s: tensor<2x96xf32>) -> tensor<64x96xf32> {
  %w = q8.dequantize %q, %s : tensor<64x96xi8>, tensor<2x96xf32> -> tensor<64x96xf32>
  func.return %w : tensor<64x96xf32>
}
"""


def tool(name: str) -> str:
    """A console script of the environment running the tests."""
    here = Path(sys.executable).with_name(name)
    found = str(here) if here.exists() else shutil.which(name)
    assert found, f"{name} is installed neither next to {sys.executable} nor on PATH"
    return found


# --------------------------------------------------------------------------------------
# The xdsl.universe entry point
# --------------------------------------------------------------------------------------


def test_entry_point_loads_the_universe():
    eps = importlib.metadata.entry_points(group="xdsl.universe")
    ours = [ep for ep in eps if ep.name == "xdsl_spatial"]
    assert len(ours) == 1
    assert ours[0].value == "xdsl_spatial.universe:SPATIAL_UNIVERSE"
    universe = ours[0].load()
    assert isinstance(universe, Universe)
    assert {"q8", "spatial"} <= set(universe.all_dialects)
    assert universe.all_dialects["q8"]() is Q8
    assert universe.all_dialects["spatial"]() is Spatial
    assert "q8-lower" in universe.all_passes
    assert universe.all_passes["q8-lower"]().name == "q8-lower"


def test_multiverse_knows_the_dialects_and_the_pass():
    multiverse = Universe.get_multiverse()
    assert {"q8", "spatial"} <= set(multiverse.all_dialects)
    assert "q8-lower" in multiverse.all_passes
    # Stock xDSL's dialects are still there.
    assert {"builtin", "func", "linalg", "arith"} <= set(multiverse.all_dialects)


def test_xdsl_opt_parses_q8_with_no_flags():
    r = subprocess.run([tool("xdsl-opt")], input=Q8_SOURCE, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert (
        "%w = q8.dequantize %q, %s : tensor<64x96xi8>, tensor<2x96xf32> -> tensor<64x96xf32>"
        in r.stdout
    )


def test_spatial_opt_knows_the_mixed_matmul_without_q8():
    """spatial-opt reads linalg.matmul with MLIR's mixed-precision body (stock xdsl-opt,
    which the plugin leaves unchanged, refuses it: tests/test_plugin.py)."""
    src = textwrap.dedent(
        """\
        func.func @m(%x: tensor<1x64xbf16>, %w: tensor<64x32xbf16>, %acc: tensor<1x32xf32>) -> tensor<1x32xf32> {
          %y = linalg.matmul ins(%x, %w : tensor<1x64xbf16>, tensor<64x32xbf16>) outs(%acc : tensor<1x32xf32>) -> tensor<1x32xf32>
          func.return %y : tensor<1x32xf32>
        }
        """
    )
    r = subprocess.run(
        [tool("spatial-opt"), "--print-op-generic"], input=src, capture_output=True, text=True
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.count('"arith.extf"') == 2


def test_xdsl_opt_runs_q8_lower():
    r = subprocess.run(
        [tool("xdsl-opt"), "-p", "q8-lower", str(REPO / "examples" / "gemv_q8.mlir")],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    assert "spatial.view" in r.stdout and "spatial.fold" in r.stdout


# --------------------------------------------------------------------------------------
# The wheel
# --------------------------------------------------------------------------------------

_IGNORE = shutil.ignore_patterns(
    ".git",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    "Output",
    ".pytest_cache",
    ".hypothesis",
    ".lit_test_times.txt",
    ".venv",
    "*.whl",
)


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """
    The work tree as `pip install .` sees it. Built from a copy: setuptools reuses a
    `build/` it finds, so a module deleted from the tree could still ship.
    """
    dst = tmp_path_factory.mktemp("src") / "xdsl-spatial"
    shutil.copytree(REPO, dst, ignore=_IGNORE)
    return dst


def pip(*args: str, python: Path | None = None) -> None:
    """pip of the environment running the tests, offline: no index, no build isolation."""
    cmd = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    if python is not None:
        cmd += ["--python", str(python)]
    cmd += [*args, "--no-deps", "--no-build-isolation", "--no-index"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, (
        f"{' '.join(cmd)} failed (building needs setuptools and wheel in this "
        f"environment, the test extras):\n{r.stdout}\n{r.stderr}"
    )


@pytest.fixture(scope="module")
def wheel(source: Path, tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    pip("wheel", "-w", str(out), str(source))
    (built,) = out.glob("xdsl_spatial-*.whl")
    return zipfile.ZipFile(built)


def dist_info(wheel: zipfile.ZipFile, name: str) -> str:
    (path,) = [n for n in wheel.namelist() if n.endswith(f".dist-info/{name}")]
    return wheel.read(path).decode()


def test_wheel_holds_every_subpackage(wheel: zipfile.ZipFile):
    names = set(wheel.namelist())
    expected = {
        "xdsl_spatial/__init__.py",
        "xdsl_spatial/universe.py",
        "xdsl_spatial/dialects/__init__.py",
        "xdsl_spatial/dialects/q8.py",
        "xdsl_spatial/dialects/spatial/__init__.py",
        "xdsl_spatial/dialects/spatial/program.py",
        "xdsl_spatial/dialects/linalg_mixed.py",
        "xdsl_spatial/passes/__init__.py",
        "xdsl_spatial/passes/q8_lower/__init__.py",
        "xdsl_spatial/interpreters/__init__.py",
        "xdsl_spatial/tools/__init__.py",
    }
    assert expected <= names, sorted(expected - names)


def test_wheel_ships_every_module_of_the_tree(wheel: zipfile.ZipFile, source: Path):
    """A module added to a folder (or a new sub-folder) must not be left out."""
    names = set(wheel.namelist())
    missing = [
        f"{folder}/{py.relative_to(source / folder)}"
        for folder, package in PACKAGE_DIRS.items()
        for py in (source / folder).rglob("*.py")
        if f"{package}/{py.relative_to(source / folder).as_posix()}" not in names
    ]
    assert not missing, f"not in the wheel: {missing}"


def test_wheel_has_no_top_level_card_folders(wheel: zipfile.ZipFile):
    tops = {n.split("/")[0] for n in wheel.namelist() if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"xdsl_spatial"}
    assert dist_info(wheel, "top_level.txt").split() == ["xdsl_spatial"]


def test_wheel_declares_the_universe_entry_point(wheel: zipfile.ZipFile):
    entry_points = configparser.ConfigParser()
    entry_points.read_string(dist_info(wheel, "entry_points.txt"))
    assert entry_points["xdsl.universe"]["xdsl_spatial"] == "xdsl_spatial.universe:SPATIAL_UNIVERSE"
    assert ENTRY in dist_info(wheel, "entry_points.txt")


def test_fresh_install_into_a_new_venv(source: Path, tmp_path: Path):
    """
    A non-editable `pip install .` into a new venv, then xdsl-opt from there.
    `--system-site-packages` only reaches the base interpreter, which need not have
    xdsl; the dependencies come from the environment running the tests (a .pth file),
    so the install needs no index.
    """
    env = tmp_path / "venv"
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(env)
    python = env / "bin" / "python"
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(site, "test_env_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    pip("install", "--ignore-installed", str(source), python=python)

    check = textwrap.dedent(
        f"""\
        import importlib.util
        import xdsl_spatial.passes.q8_lower
        from xdsl.universe import Universe

        env = {str(env)!r}
        for mod in ("xdsl_spatial", "xdsl_spatial.dialects.q8", "xdsl_spatial.passes.q8_lower"):
            spec = importlib.util.find_spec(mod)
            assert spec.origin.startswith(env), (mod, spec.origin)
        for card_folder in ("dialects", "passes", "interpreters", "tools"):
            assert importlib.util.find_spec(card_folder) is None, card_folder
        multiverse = Universe.get_multiverse()
        assert {{"q8", "spatial"}} <= set(multiverse.all_dialects)
        assert "q8-lower" in multiverse.all_passes
        """
    )
    r = subprocess.run([python, "-c", check], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr

    xdsl_opt = "from xdsl.tools.xdsl_opt import main; main()"
    r = subprocess.run(
        [python, "-c", xdsl_opt, "-p", "q8-lower", str(REPO / "examples" / "gemv_q8.mlir")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stderr
    assert "spatial.fold" in r.stdout
