# lit configuration for xdsl-spatial's FileCheck suites.
#
# The tools (xdsl-opt, filecheck, spatial-run, ...) are taken from the Python
# environment that runs lit, so `/tmp/venv/bin/lit lit_tests` and
# `python -m lit lit_tests` from a venv work without activating it.

import importlib.util
import os
import shlex
import shutil
import sys

import lit.formats

config.name = "xdsl-spatial"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["Output", "inputs", "lit.cfg.py", "lit.site.cfg.py"]
# `inputs/` holds modules the tests run, not tests.

config.test_source_root = os.path.dirname(os.path.abspath(__file__))
# Git-ignored (`lit_tests/**/Output/`), so a run leaves the work tree clean.
config.test_exec_root = os.path.join(config.test_source_root, "Output")

# The interpreter's own bin directory first: that is where pip put the console
# scripts of the packages it can import.
_bin = os.path.dirname(sys.executable)
_path = os.pathsep.join(
    p for p in (_bin, config.environment.get("PATH", os.environ.get("PATH", ""))) if p
)
config.environment["PATH"] = _path

for _tool in ("xdsl-opt", "filecheck"):
    if shutil.which(_tool, path=_path) is None:
        lit_config.fatal(
            f"'{_tool}' was found neither next to {sys.executable} nor on PATH; "
            "install the package with its test extras into this environment "
            "(pip install -e '.[test]') and run lit with that environment's Python"
        )

config.substitutions.append(("%python", shlex.quote(sys.executable)))

# `REQUIRES: ray`: the tests that run chips as Ray actors (the [ray] extra).
if importlib.util.find_spec("ray") is not None:
    config.available_features.add("ray")

# `REQUIRES: native`: the tests that compile with upstream MLIR (the [native] extra).
if importlib.util.find_spec("torch_mlir") is not None:
    config.available_features.add("native")
