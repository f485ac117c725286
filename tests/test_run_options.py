"""The running options (`interpreters/options.py`): each bad value one diagnostic naming
the option, checked where the options are made; the tools declaring them once."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from xdsl_spatial.core.disk_cache import CACHE_ENV
from xdsl_spatial.core.files import EXIT_ERROR, EXIT_USAGE, ToolError, UsageError
from xdsl_spatial.interpreters.native.host import amx_available
from xdsl_spatial.interpreters.options import (
    DEFAULT,
    Distribution,
    Engine,
    HostError,
    OptionError,
    RunOptions,
    add_run_options,
    from_args,
)
from xdsl_spatial.interpreters.runner import RunError
from xdsl_spatial.interpreters.stats import Detail
from xdsl_spatial.tools import spatial_generate, spatial_run

REPO = Path(__file__).resolve().parents[1]
GEMV = str(REPO / "examples" / "gemv_q8.mlir")


@pytest.mark.parametrize(
    "options, message",
    [
        ({"engine": "fast"}, "unknown engine 'fast', expected one of compiled, reference, native"),
        ({"distributed": "mpi"}, "unknown distribution 'mpi', expected one of local, ray"),
        ({"threads": 0}, "--threads 0: give 1 or more"),
        ({"threads": -3, "engine": "native"}, "--threads -3: give 1 or more"),
        ({"threads": 2.5, "engine": "native"}, "--threads 2.5: give a whole number, 1 or more"),
        (
            {"threads": 2},
            "--threads runs the native engine's items on threads: add --engine native",
        ),
        (
            {"threads": 2, "engine": "reference"},
            "--threads runs the native engine's items on threads: add --engine native",
        ),
        ({"kernels": "loop"}, "--kernels chooses the native engine's kernels: add --engine native"),
        (
            {"engine": "native", "kernels": "fast"},
            "unknown kernels 'fast', expected one of auto, generic, loop, avx2, avx512, bf16, amx",
        ),
        (
            {"engine": "native", "distributed": "ray"},
            "--distributed ray runs the compiled engine; drop --engine native",
        ),
        (
            {"engine": "reference", "distributed": "ray"},
            "--distributed ray runs the compiled engine; drop --engine reference",
        ),
        ({"address": "auto"}, "--address joins a Ray cluster: it needs --distributed ray"),
        ({"chips": 0}, "--chips 0: give 1 or more"),
        ({"stats": "most"}, "unknown --stats detail 'most', expected one of summary, full"),
    ],
)
def test_each_bad_value_is_one_diagnostic(options, message):
    with pytest.raises(OptionError) as e:
        RunOptions(**options)
    assert str(e.value) == message
    # a usage error to a tool (exit code 2), a RunError to the engines' callers
    assert isinstance(e.value, UsageError) and isinstance(e.value, RunError)
    assert e.value.exit_code == EXIT_USAGE


def test_kernels_this_cpu_lacks_are_an_error_of_the_host():
    if amx_available():
        pytest.skip("this CPU has AMX: its kernels run here")
    with pytest.raises(HostError, match="kernels 'amx' need a CPU with AMX-BF16") as e:
        RunOptions(Engine.NATIVE, kernels="amx")
    assert isinstance(e.value, ToolError) and e.value.exit_code == EXIT_ERROR


def test_strings_become_the_enums_members():
    o = RunOptions("native", 2, "loop", distributed="local", stats="full")  # pyright: ignore[reportArgumentType]  (argparse's strings)
    assert o.engine is Engine.NATIVE and o.distributed is Distribution.LOCAL
    assert o.stats is Detail.FULL and o.threads == 2 and o.kernels == "loop"
    assert o == RunOptions(Engine.NATIVE, 2, "loop", stats=Detail.FULL)
    assert RunOptions() == DEFAULT and DEFAULT.engine is Engine.COMPILED and DEFAULT.threads == 1


def test_what_compiles_and_what_is_kept(tmp_path, monkeypatch):
    """A model is kept only where its functions are compiled on this host: not by the
    reference engine, nor for chips on Ray."""
    assert RunOptions().compiles and RunOptions(Engine.NATIVE).compiles
    assert not RunOptions(Engine.REFERENCE).compiles
    assert not RunOptions(distributed=Distribution.RAY).compiles
    assert RunOptions().cache_dir is None
    assert RunOptions(cache=tmp_path).cache_dir == tmp_path
    assert RunOptions(cache=str(tmp_path)).cache_dir == tmp_path
    assert RunOptions(Engine.REFERENCE, cache=tmp_path).cache_dir is None
    assert RunOptions(chips=2, distributed=Distribution.RAY, cache=tmp_path).cache_dir is None
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "c"))
    assert RunOptions(cache=True).cache_dir == tmp_path / "c"
    monkeypatch.setenv(CACHE_ENV, "off")
    assert RunOptions(cache=True).cache_dir is None


def _run_options(parser: argparse.ArgumentParser) -> dict[str, tuple[object, ...]]:
    """Each option `add_run_options` declares, as the parser holds it."""
    probe = argparse.ArgumentParser()
    add_run_options(probe, model=True)
    names = {s for a in probe._actions for s in a.option_strings} - {"-h", "--help"}
    return {
        s: (a.help, a.default, a.choices, a.metavar, a.nargs, a.const, a.type)
        for a in parser._actions
        for s in a.option_strings
        if s in names
    }


def test_both_tools_declare_the_same_options():
    run = _run_options(spatial_run._parser())
    generate = _run_options(spatial_generate._parser())
    assert {"--engine", "--threads", "--kernels", "--distributed", "--address"} <= run.keys()
    assert {"--stats", "--stats-json"} <= run.keys()
    assert generate.keys() - run.keys() == {"--chips", "--no-cache"}  # a built model's
    for option, declared in run.items():
        assert generate[option] == declared, option


def test_both_tools_show_the_same_options_in_their_help(capsys):
    def shown(main, prog: str) -> str:
        assert main(["--help"]) == 0
        text = capsys.readouterr().out
        start = text.index("  --engine")
        return text[start : text.index("  --stats-json")].replace(prog, "PROG")

    run = shown(spatial_run.main, "spatial-run")
    generate = shown(spatial_generate.main, "spatial-generate")
    for line in ("--engine {compiled,reference,native}", "--threads N", "--kernels", "--address"):
        assert line in run and line in generate
    # the same text, once a model's options (--chips, --no-cache) are left out
    blocks = [b for b in generate.split("\n  --") if not b.startswith(("chips", "no-cache"))]
    assert "\n  --".join(blocks) == run


def test_from_args_checks_what_was_parsed():
    p = argparse.ArgumentParser()
    add_run_options(p, model=True)
    args = p.parse_args(["--engine", "native", "--threads", "3", "--chips", "2", "--stats"])
    assert from_args(args) == RunOptions(
        Engine.NATIVE, 3, chips=2, cache=True, stats=Detail.SUMMARY
    )
    assert from_args(p.parse_args(["--no-cache"])) == RunOptions()
    with pytest.raises(OptionError, match="--threads runs the native engine's items"):
        from_args(p.parse_args(["--threads", "3"]))


@pytest.mark.parametrize(
    "args, message",
    [
        (["--engine", "reference", "--distributed", "ray"], "drop --engine reference"),
        (["--address", "auto"], "--address joins a Ray cluster: it needs --distributed ray"),
    ],
)
def test_the_tools_print_one_diagnostic(args, message, capsys):
    for main, prog, needs in (
        (spatial_run.main, "spatial-run", ["--seed", "0"]),
        (spatial_generate.main, "spatial-generate", ["--prompt", "hi"]),
    ):
        assert main([GEMV, *needs, *args]) == EXIT_USAGE
        err = capsys.readouterr().err
        assert err.startswith(f"{prog}: error: ") and message in err, err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
