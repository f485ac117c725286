"""
Upstream MLIR's side of the native engine: parse the prepared module with the
bindings `torch-mlir` ships, bufferize it, lower it to LLVM and JIT it at -O3.

```python
module = lower_to_llvm(prepared.text)             # the LLVM dialect
engine = ExecutionEngine(module, opt_level=3)     # its code not yet made
address = engine.raw_lookup("gemv")               # compiles the whole module
```

The pipeline, in order (each an upstream pass):

- `convert-elementwise-to-linalg`: `arith`/`math` ops on whole tensors (RoPE's
  `math.cos` of a tensor) as `linalg.generic`s;
- `one-shot-bufferize` with function boundaries and identity layouts: every tensor a
  buffer, the entry's arguments read-only (`prepare` marks them), so an in-place
  update of one is preceded by a copy, and the caller's arrays are never written
  (but for the states a caller donates, which the programs write: `donate.py`);
- `canonicalize`, `cse`: the copy an `insert_slice` of its own subview leaves (see
  `prepare.py`) is a copy of a buffer onto itself, erased;
- `buffer-results-to-out-params` (static allocations hoisted into the caller), first
  for the kernels, then for the entry too: a result is written where the caller says,
  so a kernel writes its result straight into the array Python made for the entry's
  (the entry returns the kernel's buffer itself, not a reshaped view of it:
  `outline_kernels.unreshaped`). Run once for all functions, the entry returned the
  kernels' results before their calls were given buffers, and copied each into
  Python's array: a decode step's caches, whole, at every step;
- `buffer-deallocation-pipeline`: every allocation freed after its last use;
- `convert-linalg-to-loops`, `expand-strided-metadata`, `lower-affine`,
  `convert-scf-to-cf`, then each dialect to LLVM (`ub` too: the `dot` kernel's
  `vector.shuffle` leaves `ub.poison`), `reconcile-unrealized-casts`;
  functions take a memref as a bare pointer (every one at a function boundary has a
  static shape and the identity layout): a decode step calls ~1,100 kernels, and
  with descriptors (5 + 2 x rank values a memref) its entry alone took LLVM half a
  minute to compile, with pointers a second.

The module is verified when it is parsed and once more after the last pass, not after
each pass (MLIR's default): verifying after each took half of the passes' time.

`ExecutionEngine` at opt level 3 makes the machine code for the host it runs on
(LLVM's host CPU and features: AVX-512 here), and resolves `malloc`, `free`,
`memcpy` and libm's functions from this process. Nothing emitted calls MLIR's runtime
library (`memrefCopy`, `printMemref`), which the wheel does not ship.

The bindings hold Python's lock while MLIR's passes and LLVM run, so two functions
compile at once only in two processes: run as a script, `python jit.py DIR` (which
imports nothing of this package) reads `DIR/request.json` (the function's name,
threads, whether it holds `x86` ops, the shared libraries, whether bf16 rounding is
expanded) and `DIR/module.mlir` (the
prepared module), compiles it as `object_code` does and writes the ELF object to
`DIR/code.o`, or `JitError: ...` to its error output and exit code 1.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from collections.abc import Sequence
from typing import Any

BUFFERS = (
    "func.func(convert-elementwise-to-linalg)",
    "one-shot-bufferize{bufferize-function-boundaries"
    " function-boundary-type-conversion=identity-layout-map}",
    "canonicalize",
    "cse",
    "canonicalize",
    "buffer-results-to-out-params{hoist-static-allocs}",
    "buffer-results-to-out-params{hoist-static-allocs modify-public-functions}",
    "buffer-deallocation-pipeline",
    "convert-linalg-to-loops",
    "expand-strided-metadata",
    "lower-affine",
)
X86 = "convert-vector-to-llvm{enable-x86}"
"""The `x86` ops (the stages `spatial-native-kernels{kind=amx|bf16}` marks: `x86.amx` tiles,
`x86.avx512.dot`) as LLVM's AMX and AVX512-BF16 intrinsics (LLVM configures the tiles'
shapes, `ldtilecfg`, in each function that uses them), and the `vector` ops as LLVM's."""
SOFT_BF16 = "arith-expand{include-bf16=true}"
"""Each `arith.truncf` to bf16 (rounding to nearest, ties to even) as integer ops, for
a CPU whose code has no instruction for it (`host.Kernels.soft_bf16`): LLVM would
call compiler-rt's `__truncsfbf2`, which the JIT does not find in this process."""
VECTOR = "convert-vector-to-llvm"
"""The `vector` ops (`linalg-contraction-in-registers`' sums, for every kernel choice but
`generic`) as LLVM's, where there are no `x86` ops."""
TO_LLVM = (
    "convert-scf-to-cf",
    "finalize-memref-to-llvm",
    "convert-math-to-llvm",
    "convert-arith-to-llvm",
    "convert-func-to-llvm{use-bare-ptr-memref-call-conv}",
    "convert-cf-to-llvm",
    "convert-ub-to-llvm",
    "reconcile-unrealized-casts",
)


def pipeline(threads: int = 1, x86: bool = False, soft_bf16: bool = False) -> str:
    """From the prepared module (upstream dialects on tensors) to the LLVM dialect.

    With `threads` > 1, each program's items (an `scf.parallel`, see
    `convert-spatial-to-linalg{parallel=true}`) run on that many OpenMP threads:
    `convert-scf-to-openmp` makes each item's body a `memref.alloca_scope` (its
    buffers are allocas, freed after the item), which the memref conversion must
    lower before `scf` becomes blocks (a scope holds one block); and
    `convert-openmp-to-llvm`, which also converts functions (with memref
    descriptors), runs after `convert-func-to-llvm` has made them take bare
    pointers. With `x86`, the `x86` and `vector` ops become LLVM's first (`X86`),
    else the `vector` ops (`VECTOR`); with `soft_bf16`, rounding to bf16 is expanded
    into integer ops before them (`SOFT_BF16`)."""
    tiles = (*((SOFT_BF16,) if soft_bf16 else ()), X86 if x86 else VECTOR)
    if threads == 1:
        return ",".join((*BUFFERS, *tiles, *TO_LLVM))
    return ",".join(
        (
            *BUFFERS[:-2],
            f"convert-scf-to-openmp{{num-threads={threads}}}",
            *BUFFERS[-2:],
            *tiles,
            "finalize-memref-to-llvm",
            "convert-scf-to-cf",
            *TO_LLVM[2:-1],
            "convert-openmp-to-llvm",
            TO_LLVM[-1],
        )
    )


OPT_LEVEL = 3


class NativeUnavailable(Exception):
    """The `native` extra is not installed."""


class JitError(Exception):
    """Upstream MLIR refused the module or could not compile it; the message is its
    diagnostic, `location` where the function is in the user's file (when known)."""

    def __init__(self, message: str, location: object | None = None):
        super().__init__(message)
        self.location = location


def bindings() -> Any:
    """The `torch_mlir` package, or NativeUnavailable naming the extra."""
    try:
        import torch_mlir  # noqa: F401
        from torch_mlir import execution_engine, ir, passmanager
    except ImportError:
        raise NativeUnavailable(
            "the native engine needs upstream MLIR's Python bindings: "
            "pip install -e '.[native]' (torch-mlir)"
        ) from None
    return ir, passmanager, execution_engine


def lower_to_llvm(text: str, threads: int = 1, x86: bool = False, soft_bf16: bool = False) -> Any:
    """The prepared module's text, parsed by upstream MLIR and lowered to the LLVM
    dialect (a `torch_mlir.ir.Module`, alive while its context is)."""
    ir, passmanager, _ = bindings()
    ctx = ir.Context()
    with ctx:
        try:
            module = ir.Module.parse(text)
            steps = passmanager.PassManager.parse(
                f"builtin.module({pipeline(threads, x86, soft_bf16)})"
            )
            # Verified once, at the end, not after each of the ~25 passes: SmolLM2's
            # decode step took 1.1-1.4 s verifying after each, 0.6-0.9 verifying once.
            steps.enable_verifier(False)
            steps.run(module.operation)
            module.operation.verify()
        except ir.MLIRError as e:
            raise JitError(_diagnostic(e, text)) from None
    return module


_CONVERTED_AT = re.compile(r'"-":(\d+):(\d+)')
_QUOTED = 160
"""The widest converted op a message quotes."""


def _diagnostic(e: Exception, text: str) -> str:
    """Upstream's errors, each located in the module converted for it (upstream names
    it `"-"`, which means nothing to a user): the line and the op there, quoted."""
    lines = text.splitlines()
    parts = []
    for d in getattr(e, "error_diagnostics", None) or []:
        m = _CONVERTED_AT.search(str(d.location))
        n = int(m.group(1)) if m else 0
        if 0 < n <= len(lines):
            op = lines[n - 1].strip()
            op = op if len(op) <= _QUOTED else op[: _QUOTED - 3] + "..."
            parts.append(f"{d.message} (line {n} of the converted module: {op})")
        else:
            parts.append(str(d.message))
    if not parts:  # no structured diagnostics: upstream's first lines, unlocated
        found = [_CONVERTED_AT.sub("line \\1", ln) for ln in str(e).splitlines() if ln.strip()]
        parts = found[:4]
    return "; ".join(parts)


def object_code(
    text: str,
    name: str,
    threads: int = 1,
    x86: bool = False,
    shared_libs: Sequence[str] = (),
    soft_bf16: bool = False,
) -> bytes:
    """The prepared module's machine code for this host, as the ELF object
    `ExecutionEngine.dump_to_object_file` writes (what the compile cache keeps and
    `objects.load_object` loads)."""
    _, _, execution_engine = bindings()
    module = lower_to_llvm(text, threads, x86, soft_bf16)
    with module.context:
        try:
            engine = execution_engine.ExecutionEngine(
                module, opt_level=OPT_LEVEL, shared_libs=list(shared_libs)
            )
        except RuntimeError as e:
            raise JitError(f"@{name}: LLVM could not compile it: {e}") from None
        if not engine.raw_lookup(name):
            raise JitError(f"@{name}: the JIT has no entry point for it")
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "code.o")
            engine.dump_to_object_file(path)
            with open(path, "rb") as f:
                return f.read()


def main(folder: str) -> int:
    """Compile the request in `folder` (see the module's docstring)."""
    with open(os.path.join(folder, "request.json"), encoding="utf-8") as f:
        head = json.load(f)
    with open(os.path.join(folder, "module.mlir"), encoding="utf-8") as f:
        text = f.read()
    try:
        code = object_code(
            text, head["name"], head["threads"], head["x86"], head["libs"], head["soft_bf16"]
        )
    except (JitError, NativeUnavailable) as e:
        print(f"{type(e).__name__}: {e}", file=sys.stderr)
        return 1
    with open(os.path.join(folder, "code.o"), "wb") as f:
        f.write(code)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
