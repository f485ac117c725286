"""
Every whole-model decode rate Tenstorrent publishes for llama-family models on the
systems `spatial-estimate` can express, beside its estimate: model, system, batch,
precision, how the step is lowered, measured tokens/s per user, estimated, and their
ratio.

    python benchmarks/bench_published.py               # every row (~5 minutes)
    python benchmarks/bench_published.py --quick       # the single-chip rows
    python benchmarks/bench_published.py --markdown    # the table docs/chip_time.md holds

The published figures are transcribed below with the file and commit of tenstorrent/tt-metal
they come from. The estimate's physics comes from Tenstorrent's microbenchmarks only
(docs/chip_time.md); none of it is fitted to these rows, which are what it is checked
against. A row's system is a chip preset and a chip count (N150: 1 Wormhole, N300: 2,
T3K: 8 on a ring; P150: 1 Blackhole); its precision the weights' format: "bfp8" every
product Q8_0 (block-float-8 on the chip), "bfp4 MLP" gate, up and down block-float-4,
"bfp4 FF1+FF3" gate and up. The models' shapes are their config.json's. "lowered" says
how the step is estimated: "every op" (one chip: every op of the step a program, as
`spatial-generate` lowers it) or "products" (several chips: the products lowered, the ops
between them estimated as programs, as `spatial-generate --chips` runs them).

Rows the estimator cannot express are listed at the end with the reason (a Galaxy is a
2-D mesh of 32 chips; a P100 has no preset; data parallel runs replicas; 11B and 90B are
vision models).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, replace

from xdsl_spatial.frontends.estimate import Scenario, estimate
from xdsl_spatial.frontends.hf_config import hf_config

TT_METAL = "tenstorrent/tt-metal"
PERF_MD = ("models/tt_transformers/PERF.md", "040a27c125587553626a7e57baa42571c8af91fa")
TARGETS = ("models/model_targets.yaml", "0008cdce6ac231e780396fbd18b061564fb9fc28")

_LLAMA3 = {
    "model_type": "llama",
    "hidden_act": "silu",
    "rms_norm_eps": 1e-05,
    "rope_theta": 500000.0,
    "vocab_size": 128256,
    "max_position_embeddings": 131072,
}
_SCALING = {"factor": 32.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0}
MODELS = {
    "Llama-3.2-1B": {
        **_LLAMA3,
        "hidden_size": 2048,
        "num_hidden_layers": 16,
        "num_attention_heads": 32,
        "num_key_value_heads": 8,
        "head_dim": 64,
        "intermediate_size": 8192,
        "tie_word_embeddings": True,
        "rope_scaling": {
            **_SCALING,
            "original_max_position_embeddings": 8192,
            "rope_type": "llama3",
        },
    },
    "Llama-3.2-3B": {
        **_LLAMA3,
        "hidden_size": 3072,
        "num_hidden_layers": 28,
        "num_attention_heads": 24,
        "num_key_value_heads": 8,
        "head_dim": 128,
        "intermediate_size": 8192,
        "tie_word_embeddings": True,
        "rope_scaling": {
            **_SCALING,
            "original_max_position_embeddings": 8192,
            "rope_type": "llama3",
        },
    },
    "Llama-3.1-8B": {
        **_LLAMA3,
        "hidden_size": 4096,
        "num_hidden_layers": 32,
        "num_attention_heads": 32,
        "num_key_value_heads": 8,
        "intermediate_size": 14336,
        "tie_word_embeddings": False,
        "rope_scaling": {
            **_SCALING,
            "factor": 8.0,
            "original_max_position_embeddings": 8192,
            "rope_type": "llama3",
        },
    },
    "Llama-3.1-70B": {
        **_LLAMA3,
        "hidden_size": 8192,
        "num_hidden_layers": 80,
        "num_attention_heads": 64,
        "num_key_value_heads": 8,
        "intermediate_size": 28672,
        "tie_word_embeddings": False,
        "rope_scaling": {
            **_SCALING,
            "factor": 8.0,
            "original_max_position_embeddings": 8192,
            "rope_type": "llama3",
        },
    },
}
MODELS["Llama-3.3-70B"] = MODELS["Llama-3.1-70B"]

SYSTEMS = {
    "N150": ("wormhole_n150", 1),
    "N300": ("wormhole_n150", 2),
    "T3K": ("wormhole_n150", 8),
    "P150": ("blackhole_p150", 1),
}
"""A published system as a chip preset and a chip count (tensor parallel)."""

FFN = {"bfp8": "q8_0", "bfp4 MLP": "bfp4", "bfp4 FF1+FF3": "bfp4-ff1-ff3"}


@dataclass(frozen=True)
class Row:
    """One published decode rate and what it was measured at."""

    model: str
    system: str
    batch: int
    context: int
    """The KV cache's positions: the prompt and the tokens generated after it."""
    precision: str
    measured: float
    """Tokens a second per user, as published."""
    table: str
    source: tuple[str, str]
    bfp8_mlp_layers: int = 0
    """Layers whose MLP is bfp8 in an otherwise bfp4-MLP model (Llama-3.1-8B's last)."""


def _perf_md() -> list[Row]:
    """models/tt_transformers/PERF.md: batch 1 at a 512-token prompt and 200 tokens
    generated (the demo's ci-token-matching case), except where a table says otherwise."""
    rows = []
    tables = {
        # "Performance": bfp4 MLP, bfp8 attention; Llama-3.1-8B's 32nd layer has a bfp8 MLP.
        ("Performance", "bfp4 MLP", 1, 712): {
            ("Llama-3.2-1B", "N150"): 87.8,
            ("Llama-3.2-1B", "N300"): 105.9,
            ("Llama-3.2-1B", "T3K"): 119.8,
            ("Llama-3.2-3B", "N150"): 54.0,
            ("Llama-3.2-3B", "N300"): 68.0,
            ("Llama-3.2-3B", "T3K"): 68.5,
            ("Llama-3.1-8B", "N150"): 28.3,
            ("Llama-3.1-8B", "N300"): 44.2,
            ("Llama-3.1-8B", "P150"): 33.6,
            ("Llama-3.1-8B", "T3K"): 64.3,
            ("Llama-3.1-70B", "T3K"): 16.6,
            ("Llama-3.3-70B", "T3K"): 16.6,
        },
        # "Accuracy": bfp8 MLP; Llama 3 uses bfp8 attention too (every product bfp8),
        # 70B+ bfp8 attention and bfp4 MLP.
        ("Accuracy", "bfp8", 1, 712): {
            ("Llama-3.2-1B", "N150"): 84.7,
            ("Llama-3.2-1B", "N300"): 102.8,
            ("Llama-3.2-1B", "T3K"): 120.5,
            ("Llama-3.2-3B", "N150"): 47.6,
            ("Llama-3.2-3B", "N300"): 63.5,
            ("Llama-3.2-3B", "T3K"): 67.9,
            ("Llama-3.1-8B", "N150"): 25.2,
            ("Llama-3.1-8B", "N300"): 38.8,
            ("Llama-3.1-8B", "T3K"): 60.8,
        },
        ("Accuracy", "bfp4 MLP", 1, 712): {("Llama-3.1-70B", "T3K"): 16.5},
        # "Long-context (64K Tokens)": bfp4 FF1+FF3, batch 1, a 64k-token prompt.
        ("Long-context 64K", "bfp4 FF1+FF3", 1, 65536 + 200): {
            ("Llama-3.2-1B", "N150"): 53.0,
            ("Llama-3.2-1B", "N300"): 65.2,
            ("Llama-3.2-1B", "T3K"): 73.7,
            ("Llama-3.2-3B", "N150"): 25.3,
            ("Llama-3.2-3B", "N300"): 34.8,
            ("Llama-3.2-3B", "T3K"): 41.0,
            ("Llama-3.1-8B", "N150"): 16.9,
            ("Llama-3.1-8B", "N300"): 26.1,
            ("Llama-3.1-8B", "T3K"): 38.1,
            ("Llama-3.1-70B", "T3K"): 11.9,
        },
        # "Short-Context, Batch-32": bfp4 FF1+FF3, batch 32, a 128-token prompt.
        ("Batch-32", "bfp4 FF1+FF3", 32, 128 + 200): {
            ("Llama-3.2-1B", "N150"): 54.7,
            ("Llama-3.2-1B", "N300"): 64.2,
            ("Llama-3.2-1B", "T3K"): 69.9,
            ("Llama-3.2-3B", "N150"): 36.5,
            ("Llama-3.2-3B", "N300"): 45.8,
            ("Llama-3.2-3B", "T3K"): 47.8,
            ("Llama-3.1-8B", "N150"): 22.3,
            ("Llama-3.1-8B", "N300"): 33.5,
            ("Llama-3.1-8B", "T3K"): 45.6,
            ("Llama-3.1-70B", "T3K"): 14.8,
        },
    }
    for (table, precision, batch, context), figures in tables.items():
        for (model, system), measured in figures.items():
            last = 1 if table == "Performance" and model == "Llama-3.1-8B" else 0
            rows.append(
                Row(model, system, batch, context, precision, measured, table, PERF_MD, last)
            )
    return rows


def _targets() -> list[Row]:
    """models/model_targets.yaml: llama3.1-8b's batch-32 decode targets at seq_len 712
    (their precision is not stated there; the demo's default, bfp4 MLP, is assumed)."""
    return [
        Row("Llama-3.1-8B", system, 32, 712, "bfp4 MLP", rate, "CI target", TARGETS)
        for system, rate in (("N150", 8.8), ("P150", 20.3), ("T3K", 64.0))
    ]


ROWS = _perf_md() + _targets()

NOT_EXPRESSIBLE = [
    (
        "TG (Galaxy) rows of PERF.md",
        "a 2-D mesh of 32 Wormholes with 2-D weight sharding; the estimator splits over a 1-d line or ring of chips",
    ),
    (
        "Llama-3.1-8B on P100 (PERF.md)",
        "no preset for the P100 (fewer cores and DRAM channels than the P150)",
    ),
    (
        "T3K (DP=4, DP=8) and TG (DP=4) rows; llama3.1-8b on p300x2 (model_targets.yaml)",
        "data parallel replicas; the estimator runs one model",
    ),
    (
        "Llama-3.2-11B and Llama-3.2-90B rows",
        "vision models: their text decoders interleave cross-attention layers the llama graph has not",
    ),
    ("llama3.3-70b-galaxy (model_targets.yaml)", "a Galaxy"),
]


def scenario(row: Row) -> Scenario:
    """What the row's estimate runs: its system's preset and chips, its batch, context
    and FFN precision."""
    preset, chips = SYSTEMS[row.system]
    return Scenario(row.batch, row.context, chips, preset, FFN[row.precision])


def lowered(row: Row) -> str:
    """How the row's step is estimated: every op a program, or the products alone
    lowered and the ops between them estimated as programs."""
    return "every op" if scenario(row).whole_step else "products"


def estimated(row: Row) -> float:
    """The row's decode rate, tokens a second per user, as estimated."""
    config = hf_config(MODELS[row.model], row.model)
    run = scenario(row)
    e = estimate(config, run, prefill=False)
    seconds = e.decode.seconds
    if row.bfp8_mlp_layers:
        q8 = estimate(config, replace(run, ffn="q8_0"), prefill=False)
        seconds += row.bfp8_mlp_layers * (q8.decode.layer_seconds() - e.decode.layer_seconds())
    return 1.0 / seconds


def main() -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[1])
    p.add_argument("--quick", action="store_true", help="only the single-chip rows")
    p.add_argument("--markdown", action="store_true", help="print the docs' Markdown table")
    args = p.parse_args()
    rows = [r for r in ROWS if not args.quick or SYSTEMS[r.system][1] == 1]
    header = (
        "model",
        "system",
        "batch",
        "context",
        "precision",
        "table",
        "lowered",
        "measured t/s/u",
        "estimated",
        "ratio",
    )
    out = []
    for r in rows:
        est = estimated(r)
        out.append(
            (
                r.model,
                r.system,
                str(r.batch),
                str(r.context),
                r.precision,
                r.table,
                lowered(r),
                f"{r.measured:g}",
                f"{est:.1f}",
                f"{est / r.measured:.2f}",
            )
        )
        if not args.markdown:
            print("  ".join(out[-1]), flush=True)
    sources = {r.source for r in rows}
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "|".join("---" for _ in header) + "|")
        for row in out:
            print("| " + " | ".join(row) + " |")
    print()
    for path, commit in sorted(sources):
        print(f"source: {TT_METAL} {path} at {commit}")
    within = sum(
        1 for r, o in zip(rows, out) if SYSTEMS[r.system][1] == 1 and 0.75 <= float(o[-1]) <= 1.25
    )
    single = sum(1 for r in rows if SYSTEMS[r.system][1] == 1)
    print(f"single-chip rows within 25%: {within} of {single}")
    for what, why in NOT_EXPRESSIBLE:
        print(f"not expressible: {what}: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
