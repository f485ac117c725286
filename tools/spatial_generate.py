"""
`spatial-generate`: a llama GGUF model generating on the simulated chip.

    spatial-generate model.gguf --prompt "The capital of France is" --steps 16 --requantize
    spatial-generate model.gguf --tokens 504,3575,282 --steps 8 --compare --stats
    spatial-generate model.gguf --tokens 504 --steps 4 --no-lower --outputs run.npz

It emits the model (`spatial-gguf --emit-model`), lowers every product with
`q8-lower` (unless `--no-lower`), binds the weights from the file, runs the prefill
and then `--steps` greedy decode steps, and prints the generated text and ids, the
time per token and the bytes the folds moved per decode step.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Sequence
from typing import Any

import numpy as np

PROG = "spatial-generate"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message}\n")


def _count(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {v}")
    return v


def _tokens(text: str) -> list[int]:
    try:
        ids = [int(t) for t in text.split(",") if t.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated token ids, got {text!r}"
        ) from None
    if not ids:
        raise argparse.ArgumentTypeError("--tokens names no token")
    return ids


def _parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog=PROG,
        description="Generate with a llama GGUF model on the simulated spatial chip.",
    )
    p.add_argument("file", help="the GGUF checkpoint (general.architecture = llama)")
    prompt = p.add_mutually_exclusive_group(required=True)
    prompt.add_argument("--tokens", type=_tokens, help="the prompt as comma-separated token ids")
    prompt.add_argument(
        "--prompt",
        help="the prompt as text, tokenised with the file's vocabulary (needs the "
        "tokenizers package: pip install 'xdsl-spatial[tokenizer]')",
    )
    p.add_argument(
        "--steps",
        type=_count,
        default=16,
        help="greedy decode steps after the prefill (default 16)",
    )
    p.add_argument(
        "--context",
        type=_count,
        help="positions of the KV cache (default 256, or the model's context length if "
        "smaller): prompt + steps must fit",
    )
    p.add_argument(
        "--requantize",
        action="store_true",
        help="re-quantise non-Q8_0 weights to Q8_0 with GGML's rule (prints the error it costs)",
    )
    p.add_argument(
        "--no-lower", action="store_true", help="run the products unlowered (no q8-lower)"
    )
    p.add_argument(
        "--engine",
        choices=("compiled", "native"),
        default="compiled",
        help="compiled (default: numpy) or native (machine code from upstream MLIR and LLVM, "
        "compiled once and kept in the compile cache; needs the [native] extra: "
        "pip install -e '.[native]'); the same tokens",
    )
    p.add_argument(
        "--chips",
        type=_count,
        default=1,
        help="split every product over this many chips of a tensor-parallel deployment "
        "(default 1): q, k, v, gate, up and the LM head on their columns, attn_output and "
        "down on their rows, as Megatron-style tensor parallelism does; prints the bytes "
        "each chip moves per decode step",
    )
    p.add_argument(
        "--distributed",
        choices=("local", "ray"),
        default="local",
        help="with --chips: local (default: every chip on this host) or ray (each chip's "
        "programs in a Ray actor holding only its weight shards; needs the [ray] extra); "
        "the same tokens and logits, bit for bit",
    )
    p.add_argument(
        "--address",
        help="with --distributed ray: the Ray cluster to join (default: a local Ray instance)",
    )
    p.add_argument(
        "--compare",
        action="store_true",
        help="run lowered and unlowered on the same tokens; print the largest logit "
        "difference and whether every token agrees",
    )
    p.add_argument(
        "--stats", action="store_true", help="print the traffic table of one decode step's programs"
    )
    p.add_argument(
        "--outputs", help="write tokens (generated ids) and logits (one row per token) to this .npz"
    )
    return p


class _Progress:
    """One status line on a terminal (stderr), nothing when stderr is not one."""

    def __init__(self, stream: Any):
        self.stream = stream
        self.live = bool(getattr(stream, "isatty", lambda: False)())
        self.width = 0

    def __call__(self, text: str) -> None:
        if not self.live:
            return
        line = f"{PROG}: {text}"
        self.stream.write("\r" + line.ljust(self.width))
        self.stream.flush()
        self.width = len(line)

    def done(self) -> None:
        if self.live and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0


def _write_npz(path: str, arrays: dict[str, np.ndarray]) -> None:
    """Write `arrays` to `path` whole or not at all."""
    where = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=where, suffix=".npz.tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            np.savez(f, **arrays)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _ids(ids: Sequence[int]) -> str:
    return ",".join(map(str, ids))


def _report(name: str, run: Any, vocab: Any) -> list[str]:
    lines = []
    if vocab is not None:
        lines.append(f"{name}text: {vocab.decode(run.tokens)!r}")
    lines.append(f"{name}ids: {_ids(run.tokens)}")
    n = len(run.decode_ms)
    per = (
        f"{sum(run.decode_ms) / n:.1f} ms per token over {n} decode steps"
        if n
        else "no decode step"
    )
    lines.append(f"{name}time: prefill {run.prefill_ms:.1f} ms ({len(run.prompt)} tokens), {per}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0)
    if args.no_lower and args.compare:
        print(f"{PROG}: error: --compare runs both; drop --no-lower", file=sys.stderr)
        return 2
    if args.chips < 1:
        print(
            f"{PROG}: error: argument --chips: expected at least 1, got {args.chips}",
            file=sys.stderr,
        )
        return 2
    if args.distributed == "ray" and (args.chips < 2 or args.no_lower):
        print(
            f"{PROG}: error: --distributed ray runs the chips of a lowered model: give "
            "--chips 2 or more (and not --no-lower)",
            file=sys.stderr,
        )
        return 2
    if args.address is not None and args.distributed != "ray":
        print(
            f"{PROG}: error: --address joins a Ray cluster: it needs --distributed ray",
            file=sys.stderr,
        )
        return 2
    if args.outputs is not None and not os.path.isdir(
        os.path.dirname(os.path.abspath(args.outputs))
    ):
        print(f"{PROG}: error: --outputs {args.outputs}: no such directory", file=sys.stderr)
        return 2
    try:
        from xdsl_spatial.frontends.gguf_io import GGUFError, open_gguf
    except ImportError as e:
        print(
            f"{PROG}: error: needs the gguf package ({e}); pip install 'xdsl-spatial[gguf]'",
            file=sys.stderr,
        )
        return 2
    from xdsl_spatial.frontends.generation import generate, load_model
    from xdsl_spatial.frontends.llama import MAX_PREFILL, ModelError, read_config
    from xdsl_spatial.frontends.tokenizer import TokenizerError, Vocabulary
    from xdsl_spatial.interpreters.runner import RunError, native_available

    progress = _Progress(sys.stderr)
    out = sys.stdout

    def note(text: str) -> None:
        progress.done()
        print(f"{PROG}: {text}", file=sys.stderr)

    try:
        if args.engine == "native":
            if args.distributed == "ray":
                print(f"{PROG}: error: --distributed ray runs the compiled engine", file=sys.stderr)
                return 2
            native_available()  # before the seconds that loading takes
        progress(f"reading {args.file}")
        reader = open_gguf(args.file)
        config = read_config(reader, args.file)
        vocab = None
        try:
            vocab = Vocabulary(reader, args.file)
        except TokenizerError:
            if args.prompt is not None:
                raise
        prompt = args.tokens if args.prompt is None else vocab.encode(args.prompt)  # type: ignore[union-attr]
        if args.context is None:
            args.context = config.default_positions()
        if args.context > config.context_length:
            raise ModelError(
                f"--context {args.context} exceeds the model's context length {config.context_length}"
            )
        # The prompt's checks come before the seconds that loading takes.
        if not 1 <= len(prompt) <= MAX_PREFILL:
            raise ModelError(
                f"the prompt has {len(prompt)} tokens; a prefill takes 1 to {MAX_PREFILL}"
            )
        if len(prompt) + args.steps > args.context:
            raise ModelError(
                f"{len(prompt)} prompt tokens and {args.steps} steps need "
                f"{len(prompt) + args.steps} positions; the cache has {args.context} (--context)"
            )
        bad = [t for t in prompt if not 0 <= t < config.vocab]
        if bad:
            raise ModelError(f"token {bad[0]} is outside the vocabulary (0..{config.vocab - 1})")
        lower = not args.no_lower
        costs: list[Any] = []
        model = load_model(
            args.file,
            len(prompt),
            args.context,
            lower=lower,
            requantize=args.requantize,
            on_requantize=costs.append,
            progress=progress,
            reader=reader,
            config=config,
            chips=args.chips,
        )
        del reader  # all its metadata: the weights are bound
        if costs:
            worst = max(costs, key=lambda r: r.max_rel_error)
            note(
                f"re-quantised {len(costs)} weights to Q8_0 with GGML's rule; the largest "
                f"error: {worst}"
            )
        if lower:
            declined = [d for d in model.decisions if not d.lowered]
            for d in declined:
                note(d.line())
        model.distributed, model.address = args.distributed, args.address
        model.engine = args.engine
        try:
            run = generate(model, prompt, args.steps, progress=progress)
        finally:
            model.close()
        here = None
        if args.compare and args.distributed == "ray":
            import dataclasses

            local = dataclasses.replace(model, distributed="local", executables={})
            here = generate(local, prompt, args.steps, progress=progress)
        other = None
        if args.compare:
            plain = load_model(
                args.file,
                len(prompt),
                args.context,
                lower=False,
                progress=progress,
                config=config,
                weights=model.weights,
            )
            plain.engine = args.engine
            other = generate(
                plain, prompt, args.steps, progress=progress, forced=run.tokens[: args.steps]
            )
        progress.done()
        lines = [f"prompt ids: {_ids(prompt)}"]
        if vocab is not None:
            lines.insert(0, f"prompt: {vocab.decode(prompt)!r}")
        lines += _report("generated " if not args.compare else "lowered ", run, vocab)
        if model.lowered:
            lowered = sum(1 for d in model.decisions if d.lowered)
            lines.append(
                f"q8-lower: {lowered} of {len(model.decisions)} products lowered in {model.lower_s:.2f} s"
            )
        if run.step_bytes is not None:
            b = run.step_bytes
            lines.append(
                f"bytes per decode step: weights {b.weight} + view reads {b.view} = {b.total} B "
                f"over {b.weight_elems} weights ({b.per_weight:.4f} B/weight, {b.programs} folds)"
            )
        if model.chips > 1 and model.lowered:
            step = "decode step" if args.steps else "prefill"
            for ct in run.traffic.per_chip():
                bpw = ct.bytes_per_weight()
                lines.append(
                    f"chip {ct.chip} per {step}: loads {ct.load_bytes} B, stores "
                    f"{ct.store_bytes} B, {ct.programs} programs"
                    + (f" (folds {bpw:.4f} B/weight over {ct.weight_elems} weights)" if bpw else "")
                )
        if here is not None:
            same = here.tokens == run.tokens and here.logits.tobytes() == run.logits.tobytes()
            lines.append(
                f"on {model.chips} Ray actors vs on this host: "
                + ("the same tokens and logits, bit for bit" if same else "DIFFERENT logits")
            )
        if other is not None:
            diff = float(np.abs(run.logits - other.logits).max())
            agree = other.tokens == run.tokens
            first = next(
                (i for i, (a, b) in enumerate(zip(run.tokens, other.tokens)) if a != b), None
            )
            n = len(other.decode_ms)
            lines.append(
                f"unlowered time: prefill {other.prefill_ms:.1f} ms, "
                + (f"{sum(other.decode_ms) / n:.1f} ms per token" if n else "no decode step")
            )
            lines.append(
                f"compare: max |lowered - unlowered| logit = {diff:.3g}; tokens "
                + ("all agree" if agree else f"differ from token {first}")
            )
        if args.stats:
            lines.append(f"traffic of {'the first decode step' if args.steps else 'the prefill'}:")
            lines.append(run.traffic.table())
        if args.outputs is not None:
            _write_npz(
                args.outputs, {"tokens": np.asarray(run.tokens, np.int64), "logits": run.logits}
            )
        out.write("\n".join(lines) + "\n")
    except (GGUFError, ModelError, TokenizerError, RunError) as e:
        progress.done()
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        progress.done()
        print(
            f"{PROG}: error: {getattr(e, 'filename', None) or args.file}: {e.strerror or e}",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
