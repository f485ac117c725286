"""
`spatial-generate --prompts FILE`: the prompts of a file (one a line) generated
together, as llama.cpp's batched tools do (`xdsl_spatial.frontends.batched`): each
prompt read alone, then every decode step one call over all of them.

    spatial-generate model.gguf --prompts prompts.txt --steps 16 --requantize
    spatial-generate model.gguf --prompts prompts.txt --temperature 0.7 --seed 1 --output-dir out

Each sequence's text (its prompt, then what it generated) is printed whole on stdout
when it ends, labelled with its line number (`[line 3] ...`); with `--output-dir DIR`
each is also streamed to `DIR/line-3.txt` as it comes (written beside it under a
temporary name, renamed into place when every sequence has ended: a failed run leaves
the directory as it was). Sequence i samples with the seed `--seed + i`. The closing
`eval time` line counts the tokens of every sequence, and says how many a second each
user saw.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import io
import sys
import time
from pathlib import Path
from typing import Any

from xdsl_spatial.frontends.batched import BatchRun, generate_batch, reading_entries
from xdsl_spatial.frontends.generation import check_prompt, load_model
from xdsl_spatial.frontends.model.config import LlamaConfig, ModelError, check_sequences
from xdsl_spatial.frontends.tokenizer import Vocabulary
from xdsl_spatial.interpreters.options import RunOptions
from xdsl_spatial.interpreters.stats import decode_line, report
from xdsl_spatial.interpreters.traffic_io import TrafficRun, to_json
from xdsl_spatial.tools import cli


class Stream:
    """The generated tokens' text, written to `out` as each comes: bytes decoded
    incrementally, so that a character split over tokens comes out whole."""

    def __init__(self, vocab: Vocabulary, out: Any, stop: set[int], echo: str = ""):
        self.vocab, self.out, self.stop, self.echo = vocab, out, stop, echo
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.first: float | None = None

    def __call__(self, token: int) -> None:
        if self.first is None:
            self.first = time.perf_counter()
            self.out.write(self.echo)  # the prompt, as llama-cli echoes it
        if token in self.stop or token in self.vocab.control:
            return  # a special token is not text (llama-cli leaves it out too)
        text = self.decoder.decode(self.vocab.piece(token))
        if text:
            self.out.write(text)
            self.out.flush()

    def close(self) -> None:
        if self.first is None:
            self.out.write(self.echo)
        self.out.write(self.decoder.decode(b"", final=True) + "\n")
        self.out.flush()


def rate(ms: float, n: int, what: str) -> str:
    """llama.cpp's timing line: total, count, per token and per second."""
    per = ms / n if n else 0.0
    per_s = 1e3 * n / ms if ms > 0 else 0.0
    return (
        f"{ms:10.2f} ms / {n:5d} {what} ({per:8.2f} ms per token, {per_s:8.2f} tokens per second)"
    )


PROG = "spatial-generate"

NOT_WITH_PROMPTS = ("compare", "outputs", "module")
"""Options of one prompt's run that `--prompts` does not take."""


def check_options(args: argparse.Namespace, options: RunOptions) -> None:
    """`--prompts`' and `--output-dir`'s options: before any work."""
    if args.output_dir is not None and args.prompts is None:
        raise cli.UsageError("--output-dir writes a file a prompt of --prompts; give --prompts")
    if args.prompts is None:
        return
    for name in NOT_WITH_PROMPTS:
        if getattr(args, name):
            raise cli.UsageError(f"--{name} runs one prompt; drop it or --prompts")
    if options.chips > 1:
        raise cli.UsageError("--prompts decodes its sequences together on one chip; drop --chips")
    if args.output_dir is not None and not Path(args.output_dir).is_dir():
        raise cli.ToolError(f"--output-dir {args.output_dir}: no such directory")


def read_prompts(path: str) -> list[str]:
    """The lines of the file `path`, one prompt each (an error naming a blank line)."""
    lines = cli.read_text(path, "--prompts").splitlines()
    if not lines:
        raise cli.ToolError(f"--prompts {path}: the file has no prompt (one a line)")
    for k, line in enumerate(lines, 1):
        if not line.strip():
            raise cli.ToolError(f"--prompts {path}: line {k} is blank (one prompt a line)")
    return lines


def run_batch(
    args: argparse.Namespace, options: RunOptions, progress: cli.Status, start: float
) -> int:
    """Generate the prompts of `--prompts` together; the report on stdout, the times
    on stderr (as one prompt's run prints them)."""
    lines = read_prompts(args.prompts)
    try:
        check_sequences(len(lines))
    except ModelError as e:
        raise cli.ToolError(f"--prompts {args.prompts}: {e}") from None
    prompts: list[list[int]] = []
    vocab: Vocabulary | None = None
    sized: list[int] = []  # the cache's positions, once `check` has chosen them

    def check(config: LlamaConfig, tokenizer: dict[str, Any]) -> int:
        """The prompts' checks, before the seconds that building takes; the cache's
        positions (`--context`, else what the longest prompt and the steps need)."""
        nonlocal vocab
        vocab = Vocabulary.from_metadata(tokenizer, args.file)
        for line in lines:
            text = vocab.chat([{"role": "user", "content": line}]) if args.chat else line
            prompts.append(vocab.encode(text))
        longest = max(len(p) for p in prompts)
        positions = args.context or config.fitted_positions(longest + args.steps)
        for k, p in enumerate(prompts, 1):
            try:
                check_prompt(config, p, args.steps, positions)
            except ModelError as e:
                raise ModelError(f"--prompts line {k}: {e}") from None
        sized.append(positions)
        return positions

    def first() -> list[str]:
        """The functions reading the prompts calls, begun once each is lowered."""
        return reading_entries(args.batch, sized[-1], prompts)

    model = load_model(
        args.file,
        args.batch,
        args.context,
        lower=not args.no_lower,
        whole_step=not args.products_only,
        requantize=args.requantize,
        progress=progress,
        check=check,
        keep=False,
        options=options,
        first=first,
    )
    assert vocab is not None
    if model.requantized:
        worst = max(model.requantized, key=lambda r: r.max_rel_error)
        progress.done()
        print(
            f"{PROG}: re-quantised {len(model.requantized)} weights to Q8_0 with "
            f"GGML's rule; the largest error: {worst}",
            file=sys.stderr,
        )
    load_s = time.perf_counter() - start - model.seconds.get("compile", 0.0)  # (its own line)
    stop = vocab.stop_tokens()
    n = len(prompts)
    texts = [io.StringIO() for _ in range(n)]
    with contextlib.ExitStack() as files:
        outs: list[Any] = [None] * n
        if args.output_dir is not None:
            outs = [
                files.enter_context(
                    cli.atomic_write(
                        str(Path(args.output_dir) / f"line-{k + 1}.txt"), option="--output-dir"
                    )
                )
                for k in range(n)
            ]
        echo = ["" if args.chat else vocab.decode(p) for p in prompts]
        streams = [Stream(vocab, texts[i], stop, echo[i]) for i in range(n)]
        to_file = [Stream(vocab, o, stop, echo[i]) if o else None for i, o in enumerate(outs)]

        def on_token(i: int, token: int) -> None:
            streams[i](token)
            if (f := to_file[i]) is not None:
                f(token)

        def on_end(i: int) -> None:
            streams[i].close()
            if (f := to_file[i]) is not None:
                f.close()
            progress.done()
            sys.stdout.write(f"[line {i + 1}] {texts[i].getvalue()}")
            sys.stdout.flush()

        try:
            run = generate_batch(
                model,
                prompts,
                args.steps,
                temperature=args.temperature,
                top_k=args.top_k,
                top_p=args.top_p,
                seed=args.seed,
                stop=list(stop),
                on_token=on_token,
                on_end=on_end,
                progress=progress,
            )
            model.keep(progress)
        finally:
            model.close()
            progress.done()
    lines_out = _report(args, options, run)
    if options.stats_json is not None:
        with cli.atomic_write(options.stats_json, "w", option="--stats-json") as f:
            traffic = run.runs[0].traffic
            f.write(to_json([TrafficRun("decode_batch", traffic.programs)]) + "\n")
    sys.stdout.write("\n".join(lines_out) + "\n")
    sys.stdout.flush()
    print("\n".join(f"{PROG}: {t}" for t in _timings(model, run, load_s)), file=sys.stderr)
    return 0


def _report(args: argparse.Namespace, options: RunOptions, run: BatchRun) -> list[str]:
    b = run.model
    first = run.runs[0]
    lines = [f"sequences: {run.sequences}, decoded together ({b.batch} rows a step)"]
    if args.temperature:
        lines.append(
            f"sampling: temperature {args.temperature}, top-k {args.top_k}, top-p {args.top_p}, "
            f"seed {run.seed} + the sequence's index"
        )
    else:
        lines.append("sampling: greedy")
    for i, r in enumerate(run.runs):
        ids = ",".join(map(str, r.tokens))
        why = "stopped" if r.stopped else "its steps ran out"
        lines.append(f"line {i + 1}: {len(r.tokens)} tokens ({why}): {ids}")
    if b.lowered:
        lines.append(
            f"q8-lower: {b.lowered_count} of {b.lowered_count + len(b.declined)} products of "
            f"@decode_batch lowered in {b.lower_s:.2f} s"
            + (" (when the cached model was built)" if b.cached else "")
        )
    if b.whole_step:
        left = ", ".join(f"@{e} {k}" for e, k in b.host_ops.items())
        lines.append(
            f"spatial-lower-ops: {b.ops_lowered} of {b.ops_lowered + len(b.ops_declined)} other "
            f"ops lowered; host-side compute ops left: {left}"
        )
    if options.stats is not None and run.step_ms:
        lines.append("traffic of the first batched decode step:")
        lines.append(report(first.traffic, options.stats))
        host = b.host_ops.get("decode_batch") if b.whole_step else None
        lines.append(decode_line(first.traffic, host, run.sequences))
        if b.lowered:
            from xdsl_spatial.frontends.estimate import step_line  # (only here: IR)

            lines.append(
                step_line(
                    b.config,
                    b.positions,
                    products_only=not b.whole_step,
                    users=run.sequences,
                )
            )
        lines.append(
            f"measured: {run.tokens_per_second:.2f} tokens a second in total, "
            f"{run.per_user:.2f} per user ({run.sequences} sequences)"
        )
    return lines


def _timings(model: Any, run: BatchRun, load_s: float) -> list[str]:
    prompt_ms = sum(r.prompt_ms for r in run.runs)
    prompt_n = sum(len(r.prompt) for r in run.runs)
    made = run.model.seconds
    if run.model.cached:
        built, how = made.get("cache", 0.0), "read from the cache"
    else:
        built = sum(made.get(k, 0.0) for k in ("build", "lower", "lower_ops"))
        how = "built and lowered"
    lines = [
        f"load time        = {load_s * 1e3:10.2f} ms",
        f"batch build time = {built * 1e3:10.2f} ms (@decode_batch for {run.sequences} "
        f"sequences: {how})",
    ]
    if "compile" in model.seconds or "compile" in run.model.seconds:
        s = model.seconds.get("compile", 0.0) + run.model.seconds.get("compile", 0.0)
        lines.append(f"compile time     = {s * 1e3:10.2f} ms")
    lines += [
        f"prompt eval time = {rate(prompt_ms, prompt_n, 'tokens')}",
        f"eval time        = {rate(sum(run.step_ms), run.decoded, 'tokens')}; "
        f"{run.sequences} sequences in {len(run.step_ms)} steps, "
        f"{run.per_user:.2f} tokens per second per user",
    ]
    return lines
