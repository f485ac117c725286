"""
A model's weights bound from its GGUF file: `bind_model` here, or `bind_apart` in a
process of its own, which `load_model` runs while it builds and lowers the model.

Re-quantising a file's weights (gguf's dequantisation, then GGML's Q8_0 rule, on whole
arrays) lets go of Python's lock only inside each numpy call, and building and lowering
a model are Python, which hands the lock over every 5 ms: on a thread beside them,
binding SmolLM2's weights ended about when it would have after them. In a process of
its own it runs on the other core (`bench_startup.py`: the cold first token 2.0-4.0 s
sooner in three pairs of runs, benchmarks/README.md). That process opens the
file itself and writes to its standard output, pickled: each progress line, each
weight's re-quantisation cost, then that it is done, or the error that stopped it,
raised here as it was raised there. The arrays it writes, pickled, to a file without a
name that this process made and handed to it (its descriptor), which this one reads
once it is told they are there, mapped and unpickled in one call. Through the pipe,
each 64 KiB that arrived waited for Python's lock, which the building and lowering
beside it held, and each read of a file does too: SmolLM2's arrays came after lowering
had ended, where mapped they come 0.3 s after the last weight is re-quantised. Only
the two processes read and write those pickles: what is unpickled here is what the
child this process started wrote.

```python
weights = bind_apart("model.gguf", config, requantize=True, progress=print)
```
"""

from __future__ import annotations

import mmap
import os
import pickle
import subprocess
import sys
import tempfile
from collections.abc import Callable
from typing import IO, Any

import numpy as np

from xdsl_spatial.core.progress import Count, Progress
from xdsl_spatial.core.q8_names import stored_part
from xdsl_spatial.frontends.model.config import WEIGHT_DTYPES, LlamaConfig, ModelError, weight_args


def bind_model(
    reader: Any,
    path: str,
    config: LlamaConfig,
    *,
    requantize: bool = False,
    on_requantize: Callable[[Any], None] | None = None,
    progress: Progress | None = None,
) -> list[np.ndarray]:
    """Arrays for the functions' weight arguments (`weight_args`), read from the file:
    Q8_0 parts by `bind_weights` (repacked exactly, or re-quantised when asked, each
    told to `progress`), norm weights as f32 (F16 and BF16 ones widen exactly), none of
    them a view of the file."""
    from gguf import GGMLQuantizationType
    from gguf.quants import dequantize

    from xdsl_spatial.frontends.gguf_io import GGUFError, bind_weights

    args = weight_args(config)
    wanted = {n: (shape, WEIGHT_DTYPES[e]) for n, shape, e in args if stored_part(n) is not None}
    by_name = {t.name: t for t in reader.tensors}
    stored = {part[0] for n in wanted if (part := stored_part(n)) is not None}
    others = [w for w in stored if w in by_name and by_name[w].tensor_type.name != "Q8_0"]
    count = Count(progress, "re-quantising to Q8_0", len(others), "weights")
    done: list[Any] = []

    def requantized(r: Any) -> None:
        done.append(r)
        count(len(done))
        if on_requantize is not None:
            on_requantize(r)

    if requantize and others:
        count(0)
    bound = bind_weights(reader, wanted, requantize=requantize, on_requantize=requantized)
    plain = (GGMLQuantizationType.F32, GGMLQuantizationType.F16, GGMLQuantizationType.BF16)
    for name, shape, _ in args:
        if name in bound:
            continue
        t = by_name.get(name)
        if t is None:
            raise GGUFError(f"{path}: no tensor {name} in the file")
        if t.tensor_type not in plain:
            raise GGUFError(
                f"{path}: tensor {name} is {t.tensor_type.name}; a vector (a norm weight or a bias) must be F32, F16 or BF16"
            )
        data = np.asarray(t.data)
        v = data if t.tensor_type == GGMLQuantizationType.F32 else dequantize(data, t.tensor_type)
        # A copy: a view would keep the whole file mapped (and its read pages resident).
        bound[name] = np.array(v, np.float32).reshape(shape)
    return [bound[n] for n, _, _ in args]


def bind_apart(
    path: str,
    config: LlamaConfig,
    *,
    requantize: bool = False,
    on_requantize: Callable[[Any], None] | None = None,
    progress: Progress | None = None,
) -> list[np.ndarray]:
    """`bind_model` on the file `path`, run by another Python process: the same
    arrays, progress lines and re-quantisation costs (told here as they come), and the
    same error if it fails."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    with tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as arrays:
        proc = subprocess.Popen(
            [sys.executable, "-m", __name__],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
            env=env,
            pass_fds=(arrays.fileno(),),
        )
        assert proc.stdin is not None and proc.stdout is not None
        try:
            try:
                with proc.stdin:
                    pickle.dump((path, config, requantize, arrays.fileno()), proc.stdin)
            except BrokenPipeError:
                pass  # it ended before it read the request: said below, from its exit
            while True:
                try:
                    kind, value = pickle.load(proc.stdout)
                except EOFError:
                    proc.wait()
                    err.seek(0)
                    lines = err.read().decode(errors="replace").strip().splitlines()
                    raise ModelError(
                        f"{path}: binding its weights: the process that binds them ended "
                        f"(exit code {proc.returncode})" + (f": {lines[-1]}" if lines else "")
                    ) from None
                if kind == "progress":
                    if progress is not None:
                        progress(value)
                elif kind == "requantized":
                    if on_requantize is not None:
                        on_requantize(value)
                elif kind == "error":
                    raise value
                else:
                    # Mapped and unpickled in one call: no read lets go of the lock.
                    with mmap.mmap(arrays.fileno(), 0, access=mmap.ACCESS_READ) as m:
                        return pickle.loads(m)
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            proc.stdout.close()


def _serve(stdin: IO[bytes], stdout: IO[bytes]) -> None:
    """`bind_apart`'s other side: the request from `stdin`, the messages to `stdout`,
    the arrays to the file whose descriptor the request gives."""
    from xdsl_spatial.frontends.gguf_io import open_gguf

    def send(kind: str, value: object) -> None:
        pickle.dump((kind, value), stdout, protocol=pickle.HIGHEST_PROTOCOL)
        stdout.flush()

    path, config, requantize, arrays = pickle.load(stdin)
    try:
        weights = bind_model(
            open_gguf(path),
            path,
            config,
            requantize=requantize,
            on_requantize=lambda r: send("requantized", r),
            progress=lambda text: send("progress", text),
        )
    except Exception as e:
        try:
            pickle.dumps(e)
        except Exception:  # (an error that does not pickle is sent as its words)
            e = ModelError(f"{type(e).__name__}: {e}")
        send("error", e)
        return
    with os.fdopen(arrays, "wb", closefd=False) as out:
        pickle.dump(weights, out, protocol=pickle.HIGHEST_PROTOCOL)
    send("done", None)


if __name__ == "__main__":
    _serve(sys.stdin.buffer, sys.stdout.buffer)
