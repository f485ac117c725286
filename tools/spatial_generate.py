"""
`spatial-generate`: a llama GGUF model generating on the simulated chip, as llama-cli
does: the text streamed as it comes, greedy or sampled, a chat through the file's own
template, and the times of loading, reading the prompt and generating.

    spatial-generate model.gguf --prompt "The capital of France is" --steps 16 --requantize
    spatial-generate model.gguf --chat --prompt "What is the capital of France?" \
        --temperature 0.7 --seed 1 --requantize
    spatial-generate model.gguf --tokens 504,3575,282 --steps 8 --compare --stats
    spatial-generate model.gguf --tokens 504 --steps 4 --no-lower --outputs run.npz

It builds the model (`spatial-gguf --emit-model`), lowers the whole step (unless
`--no-lower`): every product with `q8-lower`, every other op with `spatial-lower-ops`
(`--products-only`: the products alone), and binds the weights from the file, then
reads the prompt in chunks of `--batch` tokens and runs up to `--steps` decode steps,
streaming each token's text to stdout. The functions the prompt and the steps call are
lowered first, and each is compiled before its first call (the native engine begins
each as soon as it is lowered, in a process of its own); after the text the others are
lowered and compiled too, and all of it is kept in the disk cache (`--no-cache` not to).
The report after the text says what the folds moved.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from xdsl_spatial.core.disk_cache import HELP
from xdsl_spatial.core.memory import keep_freed_memory
from xdsl_spatial.frontends.generation import (
    Generation,
    Model,
    Sampler,
    check_prompt,
    generate,
    load_model,
    module_sizes,
    used_entries,
)
from xdsl_spatial.frontends.gguf_io import GGUFError, NotQ8Error
from xdsl_spatial.frontends.hf_window import load_window_model, window_of
from xdsl_spatial.frontends.model.config import MAX_PREFILL, MIN_POSITIONS, LlamaConfig, ModelError
from xdsl_spatial.frontends.tokenizer import TokenizerError, Vocabulary
from xdsl_spatial.interpreters.native import native_available
from xdsl_spatial.interpreters.options import (
    Distribution,
    Engine,
    RunOptions,
    add_run_options,
    from_args,
)
from xdsl_spatial.interpreters.stats import decode_line, report
from xdsl_spatial.interpreters.traffic_io import TrafficRun, to_json
from xdsl_spatial.tools import cli, launch
from xdsl_spatial.tools.batch_generate import Stream as _Stream
from xdsl_spatial.tools.batch_generate import check_options, run_batch
from xdsl_spatial.tools.batch_generate import rate as _rate

PROG = "spatial-generate"


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


def _number(ok: Callable[[float], bool], expected: str) -> Callable[[str], float]:
    """An argparse type: a float for which `ok` holds, else the `expected` words."""

    def parse(text: str) -> float:
        try:
            v = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if not ok(v):
            raise argparse.ArgumentTypeError(f"expected {expected}, got {v}")
        return v

    return parse


_fraction = _number(lambda v: 0 < v <= 1, "a number in (0, 1]")
_temperature = _number(lambda v: v >= 0 and math.isfinite(v), "a finite number >= 0")


def _parser() -> argparse.ArgumentParser:
    p = cli.ArgumentParser(
        prog=PROG,
        description="Generate with a GGUF model (llama, qwen2, gemma3) on the simulated spatial chip.",
        epilog="The built model is kept in the disk cache, keyed by the file's contents and "
        "the options that shape it: a second run starts in seconds (--no-cache not to). " + HELP,
    )
    p.add_argument("file", help="the GGUF checkpoint (general.architecture llama, qwen2 or gemma3)")
    prompt = p.add_mutually_exclusive_group(required=True)
    prompt.add_argument("--tokens", type=_tokens, help="the prompt as comma-separated token ids")
    prompt.add_argument(
        "--prompt",
        help="the prompt as text, tokenised with the file's vocabulary (needs the "
        "tokenizers package: pip install -e '.[tokenizer]')",
    )
    prompt.add_argument(
        "--prompts",
        metavar="FILE",
        help="prompts as text, one a line (no blank line), generated together: each read "
        "alone, then every decode step one call over all of them; each sequence's text "
        "printed whole, labelled with its line, when it ends; its seed --seed + its index",
    )
    p.add_argument(
        "--output-dir",
        metavar="DIR",
        help="with --prompts: stream each sequence's text to DIR/line-K.txt as well (K its "
        "line; put in place when every sequence has ended)",
    )
    p.add_argument(
        "--chat",
        action="store_true",
        help="with --prompt: the prompt is a user's message, rendered with the file's chat "
        "template (tokenizer.chat_template) and its generation prompt; needs jinja2 "
        "(pip install -e '.[chat]')",
    )
    p.add_argument(
        "--steps",
        type=cli.non_negative_int,
        default=16,
        help="decode steps after the prompt (default 16): at most N + 1 generated tokens; "
        "an end-of-text or end-of-turn token stops sooner",
    )
    p.add_argument(
        "--temperature",
        type=_temperature,
        default=0.0,
        help="sample with this temperature (default 0: greedy, the largest logit)",
    )
    p.add_argument(
        "--top-k",
        type=cli.non_negative_int,
        default=40,
        help="when sampling, from the K largest logits only (default 40; 0: all)",
    )
    p.add_argument(
        "--top-p",
        type=_fraction,
        default=0.95,
        help="when sampling, from the fewest tokens whose probabilities add up to P "
        "(default 0.95; 1: all)",
    )
    p.add_argument(
        "--seed",
        type=cli.non_negative_int,
        help="the sampler's seed (default: drawn, and printed): the same seed, the same tokens",
    )
    p.add_argument(
        "--batch",
        type=cli.positive_int,
        default=MAX_PREFILL,
        help=f"prompt tokens one prefill call reads (1-{MAX_PREFILL}, default "
        f"{MAX_PREFILL}); a longer prompt is read in chunks",
    )
    p.add_argument(
        "--context",
        type=cli.positive_int,
        help="positions of the KV cache, which prompt + steps must fit (default: the "
        f"fewest of {MIN_POSITIONS}, {2 * MIN_POSITIONS}, {4 * MIN_POSITIONS}, ... that "
        "do, at most the model's context length: a step attends over every position)",
    )
    p.add_argument(
        "--module",
        help="run this module instead of building the model: one with the built model's "
        "@prefill and @decode, arguments and results (e.g. the PyTorch model exported by "
        "torch-mlir: spatial-gguf --emit-model --frontend torch); its @prefill sets --batch "
        "and its caches --context. Or a Hugging Face model torch-mlir exported "
        "(xdsl_spatial.frontends.torch_export: @main(%%input_ids: 1 x L, weights...)), its "
        "window of L positions its cache, its weights from --module-weights",
    )
    p.add_argument(
        "--module-weights",
        help="with a Hugging Face --module: the .npz of its weights by argument name "
        "(default: the module's path with .npz for .mlir)",
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
        "--products-only",
        action="store_true",
        help="lower only the Q8_0 products (q8-lower); the rest of the step (norms, "
        "attention, RoPE, the cache writes, the embedding) runs on the host, as before "
        "spatial-lower-ops: the old split, for comparison",
    )
    add_run_options(p, model=True)
    p.add_argument(
        "--compare",
        action="store_true",
        help="run lowered and unlowered on the same tokens; print the largest logit "
        "difference and whether every token agrees",
    )
    p.add_argument(
        "--outputs", help="write tokens (generated ids) and logits (one row per token) to this .npz"
    )
    return p


def main(argv: Sequence[str] | None = None) -> int:
    return cli.run(_parser(), _main, argv)


def _check_options(args: argparse.Namespace) -> RunOptions:
    """The running options, checked; options that do not go together, and outputs
    that cannot be written: before any work."""
    options = from_args(args)
    if args.no_lower and args.compare:
        raise cli.UsageError("--compare runs both; drop --no-lower")
    if args.no_lower and args.products_only:
        raise cli.UsageError("--products-only lowers the products; drop --no-lower")
    if options.distributed is Distribution.RAY and (options.chips < 2 or args.no_lower):
        raise cli.UsageError(
            "--distributed ray runs the chips of a lowered model: give --chips 2 or more "
            "(and not --no-lower)"
        )
    if args.chat and args.prompt is None and args.prompts is None:
        raise cli.UsageError("--chat renders a --prompt with the chat template; give --prompt")
    check_options(args, options)
    if args.module_weights is not None and args.module is None:
        raise cli.UsageError("--module-weights goes with --module")
    if args.module is not None and options.chips > 1:
        raise cli.UsageError("--module runs on one chip; drop --chips")
    if args.batch > MAX_PREFILL:
        raise cli.UsageError(f"argument --batch: a prefill reads 1 to {MAX_PREFILL} tokens")
    cli.check_output_path(args.outputs, "--outputs")
    cli.check_output_path(options.stats_json, "--stats-json")
    return options


def _ids(ids: Sequence[int]) -> str:
    return ",".join(map(str, ids))


def _timings(
    model: Model,
    run: Generation,
    load_s: float,
    first_s: float | None,
    startup_s: float,
    loaded: dict[str, float],
    later: tuple[str, ...],
) -> list[str]:
    """llama.cpp's closing lines: loading (from the process's start: Python's and the
    imports' seconds first, then each step's, `loaded` the model's seconds then),
    compiling (each function before its first call, outside the runs' times), the
    prompt, the steps, lowering the functions `later` after the run, and writing the
    cache."""
    s = {"start": startup_s, **loaded}
    names = {
        "start": "start-up",
        "cache": "read from the cache",
        "read": "reading",
        "bind": "binding",
        "build": "building",
        "parse": "parsing the module",
        "lower": "q8-lower",
        "lower_ops": "spatial-lower-ops",
    }
    parts = [f"{names[k]} {s[k] * 1e3:.0f} ms" for k in names if k in s and s[k] > 0]
    if "cache" in s and not model.cached:
        parts = [p for p in parts if not p.startswith(names["cache"])]  # written: own line
    lines = [f"load time        = {load_s * 1e3:10.2f} ms ({', '.join(parts)})"]
    compile_s = model.seconds.get("compile")
    if compile_s is not None:
        done = ", ".join(f"@{e}" for e in model.executables)
        lines.append(f"compile time     = {compile_s * 1e3:10.2f} ms (compiling {done})")
    lines += [
        f"prompt eval time = {_rate(run.prompt_ms, len(run.prompt), 'tokens')}",
        f"eval time        = {_rate(sum(run.decode_ms), len(run.decode_ms), 'runs  ')}",
    ]
    if first_s is not None:
        lines.append(f"first token      = {first_s * 1e3:10.2f} ms after the start")
    after = sum(model.seconds.get(k, 0.0) - loaded.get(k, 0.0) for k in ("lower", "lower_ops"))
    if later and not model.unlowered:
        what = ", ".join(f"@{e}" for e in later)
        lines.append(f"lower time       = {after * 1e3:10.2f} ms (lowering {what} after the run)")
    if "cache" in model.seconds and not model.cached:
        cache_s = model.seconds["cache"]
        lines.append(f"cache            = {cache_s * 1e3:10.2f} ms (writing the cache)")
    return lines


def _main(args: argparse.Namespace) -> int:
    entered = time.perf_counter()
    start = launch.started() or entered  # the process's start, when it is ours
    options = _check_options(args)
    if options.engine is Engine.NATIVE:
        native_available()  # before the seconds that loading takes
    keep_freed_memory()  # each step's results are fresh arrays: no page faults for them
    progress = cli.Status(PROG)
    try:
        if args.prompts is not None:
            return run_batch(args, options, progress, start)
        return _generate(args, options, progress, start, entered - start)
    except NotQ8Error as e:
        raise cli.ToolError(e.with_hint(f"{PROG} --requantize")) from None
    except (GGUFError, ModelError, TokenizerError) as e:
        raise cli.ToolError(str(e)) from None
    finally:
        progress.done()


def _prompt_ids(args: argparse.Namespace, vocab: Vocabulary | None) -> list[int]:
    if args.prompt is None:
        return list(args.tokens)
    if vocab is None:
        raise TokenizerError(f"{args.file}: the file has no vocabulary to read --prompt with")
    text = args.prompt
    if args.chat:
        text = vocab.chat([{"role": "user", "content": text}])
    return vocab.encode(text)


def _module_text(args: argparse.Namespace) -> str | None:
    """--module's text; its `@prefill` sets `--batch` and its caches `--context` (a
    Hugging Face module's window sets both)."""
    if args.module is None:
        return None
    text = cli.read_text(args.module, "--module")
    window = window_of(text)
    if window is not None:
        if args.context is not None and args.context != window:
            raise ModelError(
                f"--context {args.context}: the module's window has {window} positions"
            )
        args.batch = args.context = window
        return text
    batch, positions = module_sizes(text)
    if args.context is not None and args.context != positions:
        raise ModelError(
            f"--context {args.context}: the module's caches have {positions} positions"
        )
    args.batch, args.context = batch, positions
    return text


def _generate(
    args: argparse.Namespace,
    options: RunOptions,
    progress: cli.Status,
    start: float,
    startup_s: float,
) -> int:
    out = sys.stdout
    vocab: Vocabulary | None = None
    prompt: list[int] = []
    sized: list[int] = []  # the cache's positions, once `check` has chosen them

    def check(config: LlamaConfig, tokenizer: dict[str, Any]) -> int:
        """The prompt's checks, before the seconds that building takes; the cache's
        positions (`--context`, else what the prompt and the steps need)."""
        nonlocal vocab, prompt
        try:
            vocab = Vocabulary.from_metadata(tokenizer, args.file)
        except TokenizerError:
            if args.prompt is not None:
                raise
        prompt = _prompt_ids(args, vocab)
        positions = args.context or config.fitted_positions(len(prompt) + args.steps)
        if positions > config.context_length:
            raise ModelError(
                f"--context {positions} exceeds the model's context length {config.context_length}"
            )
        check_prompt(config, prompt, args.steps, positions)
        sized.append(positions)
        return positions

    def first() -> list[str]:
        """The functions the prompt and the steps call: lowered first, each one's compile
        begun once it is; the others lowered after the run (`load_model`'s `first`)."""
        return used_entries(args.batch, sized[-1], len(prompt), args.steps)

    text = _module_text(args)
    lower = not args.no_lower
    window = text is not None and window_of(text) is not None
    if window:
        assert text is not None
        weights = args.module_weights or str(Path(args.module).with_suffix(".npz"))
        model = load_window_model(
            args.file, text, weights, lower=lower, progress=progress, options=options
        )
        check(model.config, model.tokenizer)
    else:
        model = load_model(
            args.file,
            args.batch,
            args.context,
            lower=lower,
            whole_step=not args.products_only,
            requantize=args.requantize,
            progress=progress,
            check=check,
            text=text,
            text_name=args.module or "<module>",
            keep=False,
            options=options,
            first=first,
        )
    if args.batch > model.positions:
        raise ModelError(
            f"--batch {args.batch} is more than the cache's {model.positions} positions"
        )

    def note(text: str) -> None:
        progress.done()
        print(f"{PROG}: {text}", file=sys.stderr)

    if model.requantized:
        worst = max(model.requantized, key=lambda r: r.max_rel_error)
        note(
            f"re-quantised {len(model.requantized)} weights to Q8_0 with GGML's rule; the "
            f"largest error: {worst}"
        )
    for line in (*model.declined, *model.ops_declined):
        note(line)
    noted = len(model.declined), len(model.ops_declined)
    loaded, later = dict(model.seconds), model.unlowered  # (`later`: lowered after the run)
    sampler = Sampler(args.temperature, args.top_k, args.top_p, args.seed)
    stop = vocab.stop_tokens() if vocab is not None else set()
    load_s = time.perf_counter() - start - model.seconds.get("compile", 0.0)  # (its own line)
    if options.compiles:
        # Each function compiled before its first call, outside the prompt's and the
        # steps' clocks; the native engine's in processes of their own, begun at load as
        # each was lowered (`first`), or here (a window model).
        model.start(model.used(len(prompt), args.steps), progress)
    stream = _Stream(vocab, out, stop, "" if args.chat else vocab.decode(prompt)) if vocab else None
    streaming = False

    def status(text: str) -> None:
        if not streaming:
            progress(text)

    def on_token(token: int) -> None:
        nonlocal streaming
        if stream is not None:
            if not streaming:
                progress.done()  # the status line gives way to the text
                streaming = True
            stream(token)

    try:
        run = generate(
            model,
            prompt,
            args.steps,
            sampler=sampler,
            stop=list(stop),
            on_token=on_token,
            progress=status,
        )
        if stream is not None:
            stream.close()
        streaming = False
        model.keep(progress)  # the functions the run did not call lowered and compiled first
        for line in (*model.declined[noted[0] :], *model.ops_declined[noted[1] :]):
            note(line)  # what lowering them declined
    finally:
        model.close()
    first_s = stream.first - start if stream is not None and stream.first is not None else None

    def again() -> Sampler:
        """A sampler drawing what `sampler` drew: the same seed."""
        return Sampler(args.temperature, args.top_k, args.top_p, sampler.seed)

    here = None
    if args.compare and options.distributed is Distribution.RAY:
        here_options = dataclasses.replace(options, distributed=Distribution.LOCAL, address=None)
        local = dataclasses.replace(model, options=here_options, executables={})
        here = generate(
            local, prompt, args.steps, sampler=again(), stop=list(stop), progress=progress
        )
    other = None
    if args.compare and run.tokens:  # (none when the first logits held NaN)
        unlowered = dataclasses.replace(
            options, chips=1, distributed=Distribution.LOCAL, address=None, cache=False
        )
        plain = (
            load_window_model(
                args.file,
                text,
                model.plain_weights(),
                lower=False,
                progress=progress,
                config=model.config,
                options=unlowered,
            )
            if window and text is not None
            else load_model(
                args.file,
                args.batch,
                model.positions,
                lower=False,
                progress=progress,
                config=model.config,
                weights=model.plain_weights(),
                text=text,
                text_name=args.module or "<module>",
                options=unlowered,
            )
        )
        other = generate(
            plain,
            prompt,
            len(run.tokens) - 1,
            sampler=again(),
            progress=progress,
            forced=run.tokens[:-1],
        )
    progress.done()
    lines = _report(args, model, run, vocab, prompt, sampler, here, other)
    timings = [
        f"{PROG}: {t}" for t in _timings(model, run, load_s, first_s, startup_s, loaded, later)
    ]
    if args.outputs is not None:
        with cli.atomic_write(args.outputs, "wb", option="--outputs") as f:
            np.savez(f, tokens=np.asarray(run.tokens, np.int64), logits=run.logits)
    if options.stats_json is not None:
        entry = "decode" if run.decode_ms else "prefill"
        with cli.atomic_write(options.stats_json, "w", option="--stats-json") as f:
            f.write(to_json([TrafficRun(entry, run.traffic.programs)]) + "\n")
    out.write("\n".join(lines) + "\n")
    out.flush()
    print("\n".join(timings), file=sys.stderr)  # llama-cli's closing lines, on stderr as its are
    return 0


def _report(
    args: argparse.Namespace,
    model: Model,
    run: Generation,
    vocab: Vocabulary | None,
    prompt: list[int],
    sampler: Sampler,
    here: Generation | None,
    other: Generation | None,
) -> list[str]:
    name = "lowered " if args.compare else "generated "
    lines = [f"prompt ids: {_ids(prompt)}"]
    if vocab is not None:
        lines.insert(0, f"prompt: {vocab.decode(prompt)!r}")
        lines.append(f"{name}text: {vocab.decode(run.tokens, special=False)!r}")
    lines.append(f"{name}ids: {_ids(run.tokens)}")
    lines.append(
        "sampling: greedy"
        if sampler.greedy
        else f"sampling: temperature {sampler.temperature}, top-k {sampler.top_k}, "
        f"top-p {sampler.top_p}, seed {sampler.seed}"
    )
    if model.lowered:
        lines.append(
            f"q8-lower: {model.lowered_count} of {model.lowered_count + len(model.declined)} "
            f"products lowered in {model.lower_s:.2f} s"
            + (" (when the cached model was built)" if model.cached else "")
        )
    if model.whole_step:
        left = ", ".join(f"@{e} {n}" for e, n in model.host_ops.items())
        lines.append(
            f"spatial-lower-ops: {model.ops_lowered} of "
            f"{model.ops_lowered + len(model.ops_declined)} other ops lowered"
            + (f" in {model.seconds['lower_ops']:.2f} s" if "lower_ops" in model.seconds else "")
            + f"; host-side compute ops left: {left}"
        )
    if run.step_bytes is not None:
        b = run.step_bytes
        lines.append(
            f"bytes per decode step: weights {b.weight} + view reads {b.view} = {b.total} B "
            f"over {b.weight_elems} weights ({b.per_weight:.4f} B/weight, {b.programs} folds)"
        )
    if model.chips > 1 and model.lowered:
        step = "decode step" if run.decode_ms else "prompt call"
        for ct in run.traffic.per_chip():
            bpw = ct.bytes_per_weight()
            lines.append(
                f"chip {ct.chip} per {step}: loads {ct.load_bytes} B, stores "
                f"{ct.store_bytes} B, {ct.programs} programs"
                + (f" (folds {bpw:.4f} B/weight over {ct.weight_elems} weights)" if bpw else "")
            )
    if here is not None:
        from xdsl_spatial.interpreters.distributed import compare_bits  # (only with Ray)

        first = next((i for i, (a, b) in enumerate(zip(run.tokens, here.tokens)) if a != b), None)
        tokens = "the same tokens" if first is None else f"tokens differ from token {first}"
        lines.append(
            f"on {model.chips} Ray actors vs on this host: {tokens}; logits: "
            + compare_bits([run.logits], [here.logits])
        )
    if other is not None:
        diff = float(np.abs(run.logits - other.logits).max())
        agree = other.tokens == run.tokens
        first = next((i for i, (a, b) in enumerate(zip(run.tokens, other.tokens)) if a != b), None)
        n = len(other.decode_ms)
        lines.append(
            f"unlowered time: prompt {other.prompt_ms:.1f} ms, "
            + (f"{sum(other.decode_ms) / n:.1f} ms per token" if n else "no decode step")
        )
        lines.append(
            f"compare: max |lowered - unlowered| logit = {diff:.3g}; tokens "
            + ("all agree" if agree else f"differ from token {first}")
        )
    if model.options.stats is not None:
        lines.append(f"traffic of {'the first decode step' if run.decode_ms else 'the prompt'}:")
        lines.append(report(run.traffic, model.options.stats))
        if run.decode_ms:
            host = model.host_ops.get("decode") if model.whole_step else None
            lines.append(decode_line(run.traffic, host))
            if model.lowered:
                from xdsl_spatial.frontends.estimate import step_line  # (only here: IR)

                lines.append(
                    step_line(
                        model.config,
                        model.positions,
                        model.chips,
                        products_only=not model.whole_step,
                    )
                )
    return lines


if __name__ == "__main__":
    sys.exit(main())
