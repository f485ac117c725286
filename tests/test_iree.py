"""The frontend examples compiled and run by IREE, against this interpreter.

Optional: it runs only where IREE's Python packages are installed
(`pip install iree-base-compiler iree-base-runtime`, not a test dependency) and is
skipped, as skipped, elsewhere. Each input file of `examples/frontends/` is compiled
as it is for IREE's CPU backend; IREE's result, the interpreter's before q8-lower and
(for a Q8_0 form) after it must each be within the fp32 summation bound of an fp64
reference of the file's own arithmetic."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

ic = pytest.importorskip("iree.compiler", reason="IREE's compiler is not installed")
rt = pytest.importorskip("iree.runtime", reason="IREE's runtime is not installed")

from xdsl.dialects.builtin import TensorType  # noqa: E402
from xdsl.dialects.func import FuncOp  # noqa: E402

from xdsl_spatial.core.ir_io import parse_module  # noqa: E402
from xdsl_spatial.dialects.spatial import ViewOp  # noqa: E402
from xdsl_spatial.interpreters.runner import execute  # noqa: E402
from xdsl_spatial.interpreters.values import numpy_dtype  # noqa: E402
from xdsl_spatial.passes.q8_lower import lower_q8  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "frontends"
U32 = 2.0**-24
BF16 = np.dtype(ml_dtypes.bfloat16)


def _f64(a: np.ndarray) -> np.ndarray:
    return a.astype(np.float64)


def _rows(s: np.ndarray, block: int, axis: int) -> np.ndarray:
    return np.repeat(_f64(s), block, axis=axis)


# The K x N weight each file dequantises (fp64), from its arguments, and the
# activation as m x K; `bf16` marks a weight the file rounds to bf16.
FORMS = {
    "kn_floordiv": (lambda x, q, s: (x, _f64(q) * _rows(s, 32, 0)), False),
    "kn_floordiv_group64": (lambda x, q, s: (x, _f64(q) * _rows(s, 64, 0)), False),
    "nk_linear": (lambda x, q, s: (x, (_f64(q) * _rows(s, 32, 1)).T), False),
    "nk_linear_zero_point": (
        lambda x, q, s, z: (x, ((_f64(q) - _rows(z, 32, 1)) * _rows(s, 32, 1)).T),
        False,
    ),
    "nk_transpose_matmul": (lambda x, q, s: (x, (_f64(q) * _rows(s, 32, 1)).T), True),
    "grouped_iree": (
        lambda q, x, s: (x.reshape(1, -1), (_f64(q) * _f64(s)).reshape(q.shape[0], -1).T),
        False,
    ),
    "grouped_iree_unsigned": (
        lambda q, x, s, z: (
            x.reshape(1, -1),
            ((_f64(q.view(np.uint8)) - _f64(z)) * _f64(s)).reshape(q.shape[0], -1).T,
        ),
        False,
    ),
}
Q8_0_FORMS = {"kn_floordiv", "nk_linear", "nk_transpose_matmul", "grouped_iree"}


def arguments(module, name, rng):
    """Arguments by role: int8 values uniform over their range (zero points small and
    non-negative), scales in Q8_0's range, activations N(0, 1), each in its type.
    IREE's files name them %arg0 (values), %arg1 (activation), %arg2 (scales) and
    %arg3 (zero points)."""
    fn = next(o for o in module.walk() if isinstance(o, FuncOp) and o.sym_name.data == name)
    out = []
    for a in fn.body.block.args:
        assert isinstance(a.type, TensorType)
        shape = tuple(a.type.get_shape())
        dt = numpy_dtype(a.type.element_type)
        hint = a.name_hint or ""
        if hint in ("W_zero", "arg3"):
            out.append(rng.integers(0, 16, shape).astype(dt))
        elif dt == np.int8:
            out.append(rng.integers(-127, 128, shape).astype(dt))
        elif hint in ("W_scale", "arg2"):
            out.append(rng.uniform(0.001, 0.02, shape).astype(dt))
        else:
            out.append(rng.standard_normal(shape).astype(np.float32).astype(dt))
    return out


def iree_run(text: str, name: str, args):
    vmfb = ic.compile_str(
        text, target_backends=["llvm-cpu"], extra_args=["--iree-llvmcpu-target-cpu=host"]
    )
    ctx = rt.SystemContext(config=rt.Config("local-task"))
    ctx.add_vm_module(rt.VmModule.copy_buffer(ctx.instance, vmfb))
    return np.asarray(ctx.modules.module[name](*args).to_host())


def within(got, x, w):
    x64, y_shape = _f64(x), got.shape
    k = w.shape[0]
    y = x64.reshape(-1, k) @ w
    gamma = (k + 3) * U32 / (1 - (k + 3) * U32)
    bound = gamma * (np.abs(x64.reshape(-1, k)) @ np.abs(w)) + 1e-30
    err = np.abs(got.astype(np.float64).reshape(y.shape) - y)
    return bool((err <= bound).all()), float(err.max()), y_shape


@pytest.mark.parametrize("name", sorted(FORMS))
def test_iree_and_the_interpreter_agree_on_each_example(name):
    text = (EXAMPLES / f"{name}.mlir").read_text()
    module = parse_module(text)
    args = arguments(module, name, np.random.default_rng(0))
    weight, bf16 = FORMS[name]
    x, w = weight(*args)
    w_run = w.astype(BF16).astype(np.float64) if bf16 else w
    ours = execute(module, name, args).outputs[0]
    theirs = iree_run(text, name, args)
    assert theirs.shape == ours.shape
    for who, got in (("IREE", theirs), ("interpreter", ours)):
        ok, err, _ = within(got, x, w_run)
        assert ok, f"{who}: max |y - y64| = {err}"
    if name in Q8_0_FORMS:
        lowered = parse_module(text)
        lower_q8(lowered)
        assert not any(o.name == "linalg.generic" for o in lowered.walk())
        after = execute(lowered, name, args).outputs[0]
        # The fold multiplies the exact q * s by the activation as its view holds it.
        views = [o for o in lowered.walk() if isinstance(o, ViewOp)]
        held = numpy_dtype(views[0].outs[0].type.element_type)
        ok, err, _ = within(after, x.astype(held), w)
        assert ok, f"lowered: max |y - y64| = {err}"
