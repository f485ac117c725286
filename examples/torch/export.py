"""
Export the PyTorch modules the tests read, through torch-mlir, into this folder.

    pip install -e '.[torch]'
    python examples/torch/export.py            # rewrites every examples/torch/*.mlir

Each module is a weight-only Q8_0 linear (or a few) as a PyTorch user writes one: an
int8 weight `[N, K]` and an f16 scale per 32 of K, dequantised in `forward` as
`q.reshape(N, K // 32, 32).float() * s.float().unsqueeze(-1)`. The weights are
forward arguments (`*_args.mlir`) or module buffers, which torch-mlir writes as
`dense_resource` constants (`*_const.mlir`). The `not_q8_*` modules are the
negatives `q8-raise` must decline: one scale per row, blocks of 64 or 16, a zero
point, unsigned values, a scale per element. These files are torch-mlir's text as it
prints it, a comment line added on top; the values are seeded, so a rerun writes the
same files.

`llama_tiny.mlir` is the whole model, `xdsl_spatial.frontends.torch_llama` exported
for the architecture of `tests/tiny_llama.py`'s checkpoint (`TINY`: two layers) with
a prefill of 3 tokens and a cache of 24 positions, as `spatial-gguf --emit-model
--frontend torch` writes it (both functions in one module, printed by xDSL with the
emitted model's names; the weights are arguments, so it holds none of them).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import torch
from torch_mlir import fx

from xdsl_spatial.frontends.llama import LlamaConfig
from xdsl_spatial.frontends.torch_llama import export_model

HERE = Path(__file__).resolve().parent
BLOCK = 32


def dequant(q: torch.Tensor, s: torch.Tensor, block: int = BLOCK) -> torch.Tensor:
    """The [N, K] weight of int8 values `q` [N, K] and one scale per `block` of K."""
    n, k = q.shape
    return (q.reshape(n, k // block, block).float() * s.float().unsqueeze(-1)).reshape(n, k)


def q8_parts(n: int, k: int, seed: int, block: int = BLOCK) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    q = torch.randint(-127, 128, (n, k), generator=g, dtype=torch.int8)
    s = (torch.rand(n, k // block, generator=g) * 0.02 + 0.002).half()
    return q, s


class LinearArgs(torch.nn.Module):
    """`y = x W^T`, the Q8_0 weight's values and scales forward arguments."""

    def forward(self, x: torch.Tensor, q: torch.Tensor, s: torch.Tensor) -> torch.Tensor:
        return x @ dequant(q, s).t()


class LinearBmm(torch.nn.Module):
    """`torch.bmm` of a [1, m, K] activation and the weight as a batch of one."""

    def forward(self, x: torch.Tensor, q: torch.Tensor, s: torch.Tensor) -> torch.Tensor:
        return torch.bmm(x, dequant(q, s).t().unsqueeze(0))


class LinearConst(torch.nn.Module):
    """`y = x W^T`, the Q8_0 weight module buffers (constants in the export)."""

    q: torch.Tensor
    s: torch.Tensor

    def __init__(self, n: int, k: int, seed: int):
        super().__init__()
        q, s = q8_parts(n, k, seed)
        self.register_buffer("q", q)
        self.register_buffer("s", s)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.linear(x, dequant(self.q, self.s))


class SwiGLU(torch.nn.Module):
    """`down(silu(gate(x)) * up(x))`: gate and up read one bf16 activation."""

    def forward(self, x: torch.Tensor, *w: torch.Tensor) -> torch.Tensor:
        gq, gs, uq, us, dq, ds = w
        xb = x.to(torch.bfloat16).float()
        gate = xb @ dequant(gq, gs).t()
        up = xb @ dequant(uq, us).t()
        h = (torch.nn.functional.silu(gate) * up).to(torch.bfloat16).float()
        return h @ dequant(dq, ds).t()


class NotQ8(torch.nn.Module):
    """A weight-only int8 linear that is not Q8_0, made by `weight(q, s)`."""

    def __init__(self, weight: Callable[[torch.Tensor, torch.Tensor], torch.Tensor]):
        super().__init__()
        self.weight = weight

    def forward(self, x: torch.Tensor, q: torch.Tensor, s: torch.Tensor) -> torch.Tensor:
        return x @ self.weight(q, s).t()


def _exports() -> dict[str, tuple[torch.nn.Module, tuple[torch.Tensor, ...], str]]:
    k, n = 2048, 1024
    q, s = q8_parts(n, k, 0)
    x1, x8 = torch.randn(1, k), torch.randn(8, k)
    small_q, small_s = q8_parts(128, 256, 1)
    g = q8_parts(512, 256, 2)
    u = q8_parts(512, 256, 3)
    d = q8_parts(256, 512, 4)
    q64 = q8_parts(n, k, 5, 64)
    q16 = q8_parts(n, k, 6, 16)
    return {
        "linear_args": (LinearArgs(), (x1, q, s), "m = 1, weight arguments, K = 2048, N = 1024"),
        "linear_args_batch": (LinearArgs(), (x8, q, s), "m = 8, weight arguments"),
        "linear_args_3d": (
            LinearArgs(),
            (torch.randn(1, 4, k), q, s),
            "a [1, 4, K] activation (a leading batch of 1)",
        ),
        "linear_bmm": (
            LinearBmm(),
            (torch.randn(1, 4, k), q, s),
            "torch.bmm over a batch of 1: linalg.batch_matmul",
        ),
        "linear_const": (LinearConst(128, 256, 1), (torch.randn(1, 256),), "m = 1, buffers"),
        "linear_const_batch": (
            LinearConst(128, 256, 1),
            (torch.randn(4, 256),),
            "m = 4, buffers",
        ),
        "swiglu": (SwiGLU(), (torch.randn(2, 256), *g, *u, *d), "gate and up share one view"),
        "not_q8_per_row": (
            NotQ8(lambda q, s: q.float() * s.float()[:, :1]),
            (x1, q, s),
            "one scale per row",
        ),
        "not_q8_group64": (NotQ8(lambda q, s: dequant(q, s, 64)), (x1, *q64), "blocks of 64"),
        "not_q8_group16": (NotQ8(lambda q, s: dequant(q, s, 16)), (x1, *q16), "blocks of 16"),
        "not_q8_zero_point": (
            NotQ8(
                lambda q, s: (
                    (q.reshape(n, k // BLOCK, BLOCK).float() - 3.0) * s.float().unsqueeze(-1)
                ).reshape(n, k)
            ),
            (x1, q, s),
            "a zero point",
        ),
        "not_q8_unsigned": (
            NotQ8(dequant),
            (x1, q.view(torch.uint8), s),
            "unsigned values (uint8)",
        ),
        "not_q8_per_element": (
            NotQ8(lambda q, s: q.float() * s.float()),
            (x1, q, torch.rand(n, k).half()),
            "a scale per element, not a per-block broadcast",
        ),
        "small_args": (LinearArgs(), (torch.randn(1, 256), small_q, small_s), "K = 256, N = 128"),
        "linear_bf16_scales": (
            LinearArgs(),
            (torch.randn(2, 256), small_q, small_s.bfloat16()),
            "bf16 scales",
        ),
        "linear_f32_scales": (
            LinearArgs(),
            (torch.randn(2, 256), small_q, small_s.float()),
            "f32 scales (no extf)",
        ),
    }


def _linear(x, w, b=None):
    return torch.nn.functional.linear(x, w, b)


def _repeat(q, s):
    """`q * s` with each scale repeated over its block of 32 along K."""
    return q.float() * s.float().repeat_interleave(BLOCK, -1)


def _torchao(config_of: Callable[[], object], dtype=torch.float32) -> torch.nn.Module:
    """A `torch.nn.Linear(K=128, N=64)` quantised by torchao's `quantize_`."""
    from torchao.quantization import quantize_

    torch.manual_seed(7)
    lin = torch.nn.Linear(128, 64, bias=False).to(dtype)
    quantize_(lin, config_of())  # pyright: ignore[reportArgumentType]
    return lin


def _intx(scale_dtype=None):
    from torchao.quantization import IntxWeightOnlyConfig
    from torchao.quantization.granularity import PerGroup
    from torchao.quantization.quant_primitives import MappingType

    return IntxWeightOnlyConfig(
        weight_dtype=torch.int8,
        granularity=PerGroup(32),
        mapping_type=MappingType.SYMMETRIC,
        scale_dtype=scale_dtype,
    )


def _int8():
    from torchao.quantization import Int8WeightOnlyConfig
    from torchao.quantization.granularity import PerGroup

    return Int8WeightOnlyConfig(granularity=PerGroup(32))


class Fn(torch.nn.Module):
    """A module of one function of its inputs."""

    def __init__(self, fn: Callable[..., torch.Tensor]):
        super().__init__()
        self.fn = fn

    def forward(self, *args: torch.Tensor) -> torch.Tensor:
        return self.fn(*args)


def spellings() -> dict[str, tuple[torch.nn.Module, tuple[torch.Tensor, ...], str]]:
    """The natural spellings of a weight-only Q8_0 linear (K = 128, N = 64, m = 2), each
    exported with its inputs and PyTorch eager's output (`spell_*.npz`, `x`, `args`,
    `eager`): the ones `q8-raise` raises, and the `not_q8_*` it must decline."""
    n, k = 64, 128
    q, s = q8_parts(n, k, 11)
    g = torch.Generator().manual_seed(12)
    x = torch.randn(2, k, generator=g)
    b = torch.randn(n, generator=g)
    z = torch.randint(-3, 4, (n, k // BLOCK), generator=g, dtype=torch.int8)
    return {
        "spell_repeat_interleave": (
            Fn(lambda x, q, s: _linear(x, _repeat(q, s))),
            (x, q, s),
            "F.linear(x, q.float() * s.float().repeat_interleave(32, -1))",
        ),
        "spell_view_t": (
            Fn(
                lambda x, q, s: (
                    x @ (q.view(n, k // 32, 32).float() * s.float()[..., None]).view(n, k).T
                )
            ),
            (x, q, s),
            "x @ (q.view(N, K/32, 32).float() * s.float()[..., None]).view(N, K).T",
        ),
        "spell_preblocked": (
            Fn(lambda x, q, s: torch.matmul(x, (q.float() * s.float()).reshape(n, k).t())),
            (x, q.view(n, k // BLOCK, BLOCK), s.view(n, k // BLOCK, 1)),
            "torch.matmul over values stored N x K/32 x 32 and scales N x K/32 x 1",
        ),
        "spell_bias": (
            Fn(lambda x, q, s, b: _linear(x, _repeat(q, s), b)),
            (x, q, s, b),
            "F.linear with a bias",
        ),
        "spell_bf16_scales": (
            Fn(lambda x, q, s: _linear(x, _repeat(q, s))),
            (x, q, s.bfloat16()),
            "repeat_interleave of bf16 scales",
        ),
        "spell_f32_scales": (
            Fn(lambda x, q, s: _linear(x, q.float() * s.repeat_interleave(BLOCK, -1))),
            (x, q, s.float()),
            "repeat_interleave of f32 scales",
        ),
        "spell_torchao_intx": (
            _torchao(_intx),
            (x,),
            "torchao IntxWeightOnlyConfig(int8, PerGroup(32), SYMMETRIC): a zero point of zeros",
        ),
        "spell_torchao_intx_f16_scales": (
            _torchao(lambda: _intx(torch.float16)),
            (x,),
            "the same with f16 scales: the scale's extf in the multiply's body",
        ),
        "spell_torchao_int8": (
            _torchao(_int8),
            (x,),
            "torchao Int8WeightOnlyConfig(granularity=PerGroup(32))",
        ),
        "spell_torchao_bf16": (
            _torchao(_intx, torch.bfloat16),
            (x.bfloat16(),),
            "a bf16 model: dequantised in bf16",
        ),
        "not_q8_f16_dequant": (
            Fn(lambda x, q, s: _linear(x, (q.half() * s.repeat_interleave(BLOCK, -1)).float())),
            (x, q, s),
            "dequantised in f16 (each weight rounded to f16)",
        ),
        "not_q8_zero_point_arg": (
            Fn(
                lambda x, q, s, z: _linear(
                    x,
                    (
                        (q.float() - z.float().repeat_interleave(BLOCK, -1))
                        * s.float().repeat_interleave(BLOCK, -1)
                    ),
                )
            ),
            (x, q, s, z),
            "a zero point that is an argument: nothing proves it zero",
        ),
    }


def write_spelling(name: str) -> None:
    import numpy as np

    module, args, what = spellings()[name]
    write(name, export(module, args), what)
    with torch.no_grad():
        eager = module(*args)
    arrays = {f"arg{i}": _numpy(a) for i, a in enumerate(args)}
    np.savez(HERE / f"{name}.npz", eager=_numpy(eager), **arrays)  # pyright: ignore[reportArgumentType]


def _numpy(t: torch.Tensor):
    """A tensor as numpy (bf16 as f32: exact, and what an `.npz` holds)."""
    return (t.float() if t.dtype == torch.bfloat16 else t).detach().numpy()


TINY = LlamaConfig(
    n_layer=2,
    d_model=256,
    n_head=4,
    n_kv=2,
    head_dim=64,
    n_rot=64,
    d_ff=512,
    vocab=320,
    eps=1e-5,
    rope_base=10000.0,
    context_length=128,
    lm_head="token_embd.weight",
)
"""`tests/tiny_llama.py`'s checkpoint's hyperparameters (its test reads them back)."""
TINY_PREFILL, TINY_POSITIONS = 3, 24


def export(module: torch.nn.Module, args: tuple[torch.Tensor, ...]) -> str:
    return str(fx.export_and_import(module, *args, output_type="linalg-on-tensors"))


def write(name: str, text: str, what: str) -> None:
    path = HERE / f"{name}.mlir"
    path.write_text(f"// torch-mlir export ({what}); written by examples/torch/export.py\n{text}")
    print(f"wrote {path.relative_to(HERE.parents[1])}")


def main(argv: list[str]) -> None:
    torch.manual_seed(0)
    only = set(argv)
    for name, (module, args, what) in _exports().items():
        if not only or name in only:
            write(name, export(module, args), what)
    for name in spellings():
        if not only or name in only:
            write_spelling(name)
    if not only or "llama_tiny" in only:
        text = export_model(TINY, TINY_PREFILL, TINY_POSITIONS)
        path = HERE / "llama_tiny.mlir"
        path.write_text(text)
        print(f"wrote {path.relative_to(HERE.parents[1])}")


if __name__ == "__main__":
    main(sys.argv[1:])
