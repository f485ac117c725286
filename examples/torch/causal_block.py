"""
Export a llama decoder block with a causal mask through torch-mlir, with PyTorch's
eager output, into this folder: the fixture of `tests/test_hex_literals.py`.

    pip install -e '.[torch]'
    python examples/torch/causal_block.py     # rewrites causal_block.mlir and .npz

The block is RMSNorm, attention over 5 tokens with 2 heads and the mask `-inf` above
the diagonal, the output projection and residual, RMSNorm and a SwiGLU MLP, its
weights forward arguments. torch-mlir writes the mask's `-inf` as the hexadecimal
splat `dense<0xFF800000> : tensor<5x5xf32>`, which xDSL 0.75's own parser reads as
4286578688.0 (a mask that masks nothing: rows 0-3 then attend to later tokens).
`causal_block.npz` holds the inputs (`arg0` ... `arg9`, seeded) and eager's output
(`eager`); the module is torch-mlir's text as it prints it, a comment line on top.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch_mlir import fx

HERE = Path(__file__).resolve().parent
T, D, H, FF = 5, 32, 2, 64
HD = D // H
EPS = 1e-5


class CausalBlock(torch.nn.Module):
    """One llama decoder layer over T tokens (no RoPE: the mask is what is tested)."""

    def forward(self, x, wq, wk, wv, wo, wg, wu, wd, n1, n2):
        def rms(v: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
            return v * torch.rsqrt(v.pow(2).mean(-1, keepdim=True) + EPS) * w

        h = rms(x, n1)
        q = (h @ wq.t()).view(T, H, HD).transpose(0, 1)
        k = (h @ wk.t()).view(T, H, HD).transpose(0, 1)
        v = (h @ wv.t()).view(T, H, HD).transpose(0, 1)
        scores = q @ k.transpose(-1, -2) / math.sqrt(HD)
        mask = torch.full((T, T), float("-inf")).triu(1)
        attn = torch.softmax(scores + mask, dim=-1) @ v
        x = x + attn.transpose(0, 1).reshape(T, D) @ wo.t()
        h = rms(x, n2)
        return x + (torch.nn.functional.silu(h @ wg.t()) * (h @ wu.t())) @ wd.t()


def inputs() -> list[np.ndarray]:
    """The activation N(0, 1), each weight N(0, 1/fan-in), the norms' weights near 1."""
    rng = np.random.default_rng(0)
    shapes = [(D, D)] * 4 + [(FF, D), (FF, D), (D, FF)]
    x = rng.standard_normal((T, D))
    weights = [rng.standard_normal(s) / math.sqrt(s[1]) for s in shapes]
    norms = [1 + 0.1 * rng.standard_normal(D) for _ in range(2)]
    return [a.astype(np.float32) for a in (x, *weights, *norms)]


def export(args: list[np.ndarray]) -> str:
    tensors = [torch.from_numpy(a) for a in args]
    text = str(fx.export_and_import(CausalBlock(), *tensors, output_type="linalg-on-tensors"))
    return f"// torch-mlir export (a llama decoder block, causal mask); written by examples/torch/causal_block.py\n{text}"


def eager(args: list[np.ndarray]) -> np.ndarray:
    with torch.no_grad():
        return CausalBlock()(*(torch.from_numpy(a) for a in args)).numpy()


def main() -> None:
    args = inputs()
    (HERE / "causal_block.mlir").write_text(export(args))
    arrays: dict[str, Any] = {f"arg{i}": a for i, a in enumerate(args)}
    arrays["eager"] = eager(args)
    np.savez(HERE / "causal_block.npz", **arrays)
    print("wrote examples/torch/causal_block.mlir and examples/torch/causal_block.npz")


if __name__ == "__main__":
    main()
