"""
`spatial-estimate`: how fast a llama-architecture model would prefill and decode on a
Tenstorrent chip (or several), from its Hugging Face `config.json` or its GGUF header
alone; no weight is read.

    spatial-estimate Llama-3.1-8B/config.json --preset blackhole_p150 --batch 1
    spatial-estimate Llama-3.1-70B/config.json --chips 8 --batch 1 8 32 --context 4096
    spatial-estimate model.gguf --json
    spatial-estimate config.json --batch 1 2 4 8 16 32 --context 512 4096 --plot rates.png

The model, what each number is and where the chip's figures come from:
docs/chip_time.md. The library it calls: `xdsl_spatial.frontends.estimate`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from itertools import product

from xdsl_spatial.dialects.spatial import DEFAULT_PRESET, TARGET_PRESETS
from xdsl_spatial.frontends.estimate import (
    FFN_FORMATS,
    TERM_LABELS,
    Estimate,
    Scenario,
    Term,
    estimate,
    model_config,
)
from xdsl_spatial.frontends.llama import ModelError
from xdsl_spatial.tools import cli

PROG = "spatial-estimate"

DEFAULT_CONTEXT = 512


def _parser() -> argparse.ArgumentParser:
    p = cli.ArgumentParser(
        prog=PROG,
        description="Estimate a llama-architecture model's prefill and decode on a chip "
        "from its shapes: the step is built with the model's real shapes, lowered as "
        "spatial-generate lowers it, and every op timed from the chip's measured figures.",
        epilog="MODEL is a Hugging Face config.json (or the folder holding it) or a GGUF "
        "file (its header only). Batch is users decoding together, each with its own KV "
        "cache of CONTEXT positions. See docs/chip_time.md for the model and its sources.",
    )
    p.add_argument("model", metavar="MODEL", help="config.json, its folder, or a .gguf file")
    p.add_argument(
        "--preset",
        default=DEFAULT_PRESET,
        choices=sorted(p for p in TARGET_PRESETS if p not in ("tensix", "reference")),
        help=f"the chip (default {DEFAULT_PRESET})",
    )
    p.add_argument(
        "--batch",
        type=cli.positive_int,
        nargs="+",
        default=[1],
        metavar="N",
        help="users decoding together, 1 to 32; several give a row each (default 1)",
    )
    p.add_argument(
        "--context",
        type=cli.positive_int,
        nargs="+",
        metavar="N",
        help="positions of each user's KV cache (the prompt a prefill reads); several "
        f"give a row each (default {DEFAULT_CONTEXT}, or the model's context if shorter)",
    )
    p.add_argument(
        "--chips",
        type=cli.positive_int,
        default=1,
        help="chips the model is split over, tensor parallel (default 1)",
    )
    p.add_argument(
        "--ffn",
        choices=list(FFN_FORMATS),
        default="q8_0",
        help="the FFN weights' format on the chip: q8_0 (block-float-8, as every other "
        "product), bfp4 (gate, up and down block-float-4: Tenstorrent's 'performance' "
        "precision) or bfp4-ff1-ff3 (gate and up block-float-4, down q8_0)",
    )
    p.add_argument(
        "--products-only",
        action="store_true",
        help="lower only the Q8_0 products, as spatial-generate --products-only does, "
        "and estimate the ops left on the host as programs (a step over several chips "
        "is lowered so anyway)",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of tables")
    p.add_argument(
        "--plot",
        metavar="FILE",
        help="draw tokens/s against batch, a line per context, to FILE (.png or .svg; "
        "matplotlib, the [viz] extra)",
    )
    p.add_argument(
        "--whole",
        action="store_true",
        help="build every layer instead of one counted for all (slower; the same numbers)",
    )
    return p


def main(argv: Sequence[str] | None = None) -> int:
    return cli.run(_parser(), _main, argv)


def _main(args: argparse.Namespace) -> int:
    if args.plot is not None:
        if not args.plot.endswith((".png", ".svg")):
            raise cli.UsageError(f"--plot: the picture is .png or .svg, got {args.plot!r}")
        cli.check_output_path(args.plot, "--plot")
    status = cli.Status(PROG)
    try:
        config = model_config(args.model)
        scenarios = [
            Scenario(b, c, args.chips, args.preset, args.ffn, args.products_only)
            for c, b in product(
                args.context or [min(DEFAULT_CONTEXT, config.context_length)], args.batch
            )
        ]
        for s in scenarios:
            s.check(config)
        estimates = [estimate(config, s, whole=args.whole, progress=status) for s in scenarios]
    except ModelError as e:
        raise cli.ToolError(str(e)) from None
    finally:
        status.done()
    if args.plot is not None:
        from xdsl_spatial.viz.pictures import VizError
        from xdsl_spatial.viz.rates import draw_rates

        try:
            data = draw_rates(estimates, args.plot.rsplit(".", 1)[1])
        except VizError as e:
            raise cli.ToolError(str(e)) from None
        cli.write_file(args.plot, data, "--plot")
    if args.json:
        docs = [e.summary() for e in estimates]
        print(json.dumps(docs[0] if len(docs) == 1 else docs, indent=1))
    else:
        _print_tables(estimates)
    return 0


def _print_tables(estimates: list[Estimate]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(file=sys.stdout, width=120)
    first = estimates[0]
    s = first.scenario
    c = first.config
    chips = f" x {s.chips} chips" if s.chips > 1 else ""
    console.print(
        f"{c.n_layer} layers, d_model {c.d_model}, {c.n_head} heads ({c.n_kv} KV), FFN "
        f"{c.d_ff}, vocabulary {c.vocab}; on {s.preset}{chips}, FFN weights {s.ffn}"
    )
    rates = Table(title="decode and prefill")
    for col in (
        "batch",
        "context",
        "decode ms/token",
        "tokens/s/user",
        "tokens/s total",
        "prefill ms",
        "prefill tokens/s",
    ):
        rates.add_column(col, justify="right")
    for e in estimates:
        rates.add_row(
            str(e.scenario.batch),
            str(e.scenario.context),
            f"{e.decode.seconds * 1e3:.2f}",
            f"{e.decode_tokens_per_s_per_user:.1f}",
            f"{e.decode_tokens_per_s_total:.1f}",
            f"{e.prefill.seconds * 1e3:.1f}" if e.prefill else "",
            f"{e.prefill_tokens_per_s:.0f}",
        )
    console.print(rates)
    if len(estimates) > 1:
        return
    step = first.decode
    terms = Table(
        title=f"a decode step: {step.seconds * 1e3:.2f} ms, "
        f"{step.layer_seconds() * 1e3:.3f} ms a layer"
    )
    terms.add_column("term")
    terms.add_column("ms", justify="right")
    for t in Term:
        terms.add_row(TERM_LABELS[t], f"{step.term_seconds(t) * 1e3:.3f}")
    console.print(terms)
    kinds = Table(title="a decode step by op kind (every layer)")
    kinds.add_column("op kind")
    kinds.add_column("ms", justify="right")
    kinds.add_column("share", justify="right")
    for k, v in step.by_kind().items():
        kinds.add_row(k, f"{v * 1e3:.3f}", f"{v / step.step_seconds:.0%}")
    console.print(kinds)
    bounds = ", ".join(f"{b} {n}" for b, n in step.bounds().items())
    console.print(f"what bounds the step's ops: {bounds}")
    console.print(
        "programs that could overlap the one before them (counted in sequence): "
        f"{step.overlappable()}"
    )
    for note in first.notes:
        console.print(f"- {note}")


if __name__ == "__main__":
    sys.exit(main())
