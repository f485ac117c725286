"""A whole step's estimate (docs/chip_time.md, `spatial-estimate`): the whole step
lowered (every op a program, nothing left on the host), the terms beyond the programs
derived by hand for small cases (an op left on the host by `products_only`, a KV cache
read once per user, the collectives between chips, the costs of a token outside the
chip), one layer counted for all equal to every layer built, block-float-4 weights, and
the tool."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from xdsl_spatial.analysis.step_time import (
    Exchange,
    exchange_time,
    tile_bytes,
    token_costs,
)
from xdsl_spatial.dialects.spatial import TARGET_PRESETS
from xdsl_spatial.frontends.estimate import Scenario, StepTime, Term, estimate
from xdsl_spatial.frontends.hf_config import hf_config
from xdsl_spatial.tools import spatial_estimate

N150 = TARGET_PRESETS["wormhole_n150"]
P150 = TARGET_PRESETS["blackhole_p150"]

TINY = {
    "model_type": "llama",
    "hidden_size": 256,
    "intermediate_size": 512,
    "num_hidden_layers": 3,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "rms_norm_eps": 1e-05,
    "max_position_embeddings": 256,
    "vocab_size": 320,
    "tie_word_embeddings": True,
}


@pytest.fixture(scope="module")
def tiny():
    return hf_config(TINY, "tiny")


def _op(step: StepTime, name: str):
    (op,) = [o for o in step.ops if o.name == name]
    return op


def test_the_whole_step_is_programs_and_nothing_is_left_on_the_host(tiny):
    """On one chip the step is lowered as spatial-generate lowers it: every op a
    program, the host-op term zero, each kind of op (norms, RoPE, attention, the cache's
    update, the embedding) among the programs; a layer's cache write counts for its
    layer. With `products_only` the ops between the products are on the host again."""
    e = estimate(tiny, Scenario(batch=1, context=64), prefill=False)
    d = e.decode
    assert d.term_seconds(Term.HOST_OPS) == 0.0
    assert all(o.term == Term.PROGRAMS for o in d.ops)
    kinds = {o.kind for o in d.ops}
    for kind in ("norm", "rope", "attention", "kv cache update", "embedding", "matmul"):
        assert kind in kinds
    writes = [o for o in d.ops if o.name in ("cache", "cache.1")]
    assert len(writes) == 2 and all(o.layer == 0 for o in writes)
    assert e.summary()["whole_step"] and "every op of the step" in e.notes[0]
    split = estimate(tiny, Scenario(batch=1, context=64, products_only=True), prefill=False)
    assert split.decode.term_seconds(Term.HOST_OPS) > 0
    assert not split.summary()["whole_step"]
    host = {o.kind for o in split.decode.ops if o.term == Term.HOST_OPS}
    assert {"norm", "rope", "attention", "kv cache update"} <= host


def test_a_norm_left_on_the_host_by_hand(tiny):
    """`blk.0.attn_in.ss` sums the squares of a 1 x 256 activation: it moves the
    activation's tile rows (32 x 256 bf16), its accumulator's tile in and its 1-element
    result's tile out over the 64 sites' links, two lane ops a point, after a launch;
    nothing of it is in DRAM."""
    e = estimate(tiny, Scenario(batch=1, context=64, products_only=True), prefill=False)
    op = _op(e.decode, "blk.0.attn_in.ss")
    assert op.term == Term.HOST_OPS and op.kind == "norm" and op.layer == 0
    moved = 32 * 256 * 2 + 2 * 32 * 32 * 2
    noc = moved / 64 / 64 / 1e9
    compute = 256 * 2 / 64 / 32 / 1e9
    assert op.seconds == pytest.approx(4.72e-6 + max(noc, compute))
    assert op.bound == "launch"


def test_attention_reads_every_users_cache_from_dram(tiny):
    """The scores read the keys: a user's cache, 2 KV heads x 64 x 256 positions as
    whole tiles of bf16 (64 KiB), from DRAM once for each of the batch's users. One
    user's is shorter than a launch; 32 users' bound the op."""
    keys = 2 * tile_bytes((64, 256), 2)
    assert keys == 65_536
    s1, s32 = Scenario(1, 256, products_only=True), Scenario(32, 256, products_only=True)
    one = _op(estimate(tiny, s1, prefill=False).decode, "blk.0.scores")
    many = _op(estimate(tiny, s32, prefill=False).decode, "blk.0.scores")
    assert one.kind == many.kind == "attention"
    assert one.bound == "launch" and many.bound == "dram"
    assert many.seconds == pytest.approx(4.72e-6 + 32 * keys / 250e9)


def test_the_costs_of_a_token_outside_the_chip_by_hand():
    """A 128256-word vocabulary: a tile of rows of bf16 logits over PCIe 4.0 x16, a
    nanosecond a logit to sample each user's, one untraced op to start the step."""
    t = token_costs(rows=1, vocab=128256, users=1, system=N150.system)
    assert t.logits == pytest.approx(32 * 128256 * 2 / 32e9)  # 257 us
    assert t.sampling == pytest.approx(128256e-9)
    assert t.dispatch == pytest.approx(49e-6)
    t8 = token_costs(rows=8, vocab=128256, users=8, system=N150.system)
    assert t8.logits == t.logits and t8.sampling == pytest.approx(8 * t.sampling)


def test_the_collectives_between_chips_by_hand():
    """Tenstorrent's fitted models: an all-reduce of 256 KiB over a ring of 8
    Wormholes, an all-gather over a line of 2; one chip exchanges nothing."""
    t = 262_144
    ring = (9.07 + 5.25 * 8 / 2) * 1e-6 + 2 * 7 / 8 * t / 18.4e9
    assert exchange_time(Exchange.ALL_REDUCE, t, 8, N150.system.links) == pytest.approx(ring)
    line = (4.47 + 1.91 * 1) * 1e-6 + t / 2 / 11.8e9
    assert exchange_time(Exchange.ALL_GATHER, t, 2, N150.system.links) == pytest.approx(line)
    assert exchange_time(Exchange.ALL_GATHER, t, 1, N150.system.links) == 0.0
    bh = (4.1 + 5.0 * 3) * 1e-6 + 2 * 3 / 4 * t / 42.4e9
    assert exchange_time(Exchange.ALL_REDUCE, t, 4, P150.system.links) == pytest.approx(bh)


def test_a_step_over_two_chips_gathers_five_results_and_sums_two_a_layer(tiny):
    """q, k, v, gate and up split on N (an all-gather each), attention's output and down
    on K (an all-reduce each), the LM head on N; each timed as its collective."""
    e = estimate(tiny, Scenario(batch=1, context=64, chips=2), prefill=False)
    layer0 = [o for o in e.decode.ops if o.term == Term.CHIPS and o.layer == 0]
    kinds = sorted(o.kind for o in layer0)
    assert kinds == ["all-gather"] * 5 + ["all-reduce"] * 2
    head = [o for o in e.decode.ops if o.term == Term.CHIPS and o.layer is None]
    assert [o.kind for o in head] == ["all-gather"]
    o = _op(e.decode, "blk.0.o")
    assert o.seconds == pytest.approx(
        exchange_time(Exchange.ALL_REDUCE, tile_bytes((1, 256), 2), 2, N150.system.links)
    )
    assert e.decode.term_seconds(Term.CHIPS) == pytest.approx(
        3 * sum(x.seconds for x in layer0) + head[0].seconds
    )


@pytest.mark.parametrize(("chips", "products_only"), [(1, False), (1, True), (2, False)])
def test_one_layer_counted_for_all_is_every_layer_built(tiny, chips, products_only):
    """The layers are alike: one built and counted three times gives what three built do,
    term by term and kind by kind, decode and prefill."""
    s = Scenario(batch=4, context=96, chips=chips, products_only=products_only)
    one, whole = estimate(tiny, s), estimate(tiny, s, whole=True)
    assert one.decode.layers_built == 1 and whole.decode.layers_built == 3
    for a, b in ((one.decode, whole.decode), (one.prefill, whole.prefill)):
        assert a is not None and b is not None
        assert a.seconds == pytest.approx(b.seconds, rel=1e-12)
        for t in Term:
            assert a.term_seconds(t) == pytest.approx(b.term_seconds(t), rel=1e-12)
        assert a.by_kind() == pytest.approx(b.by_kind(), rel=1e-12)
        assert a.bounds() == b.bounds()
        assert a.overlappable() == b.overlappable()


def test_prefill_reads_the_prompt_in_chunks_untraced(tiny):
    """96 positions: three chunks of 32, each op at least the host's dispatch; the
    token's costs once."""
    e = estimate(tiny, Scenario(batch=1, context=96))
    p = e.prefill
    assert p is not None and p.repeats == 3
    assert all(o.seconds >= 49e-6 for o in p.ops)
    assert p.seconds == pytest.approx(3 * (p.step_seconds - p.token.total) + p.token.total)
    assert e.summary()["prefill"]["tokens_per_s_per_user"] == pytest.approx(96 / p.seconds)


def test_block_float_4_halves_the_ffns_weight_values(tiny):
    """gate, up and down: their int8 values at 4 bits, their scales as they were; the
    products of attention unchanged."""
    s = Scenario(batch=1, context=64)
    q8, b4 = (
        estimate(tiny, s, prefill=False),
        estimate(tiny, Scenario(1, 64, ffn="bfp4"), prefill=False),
    )
    gate_q8, gate_b4 = _op(q8.decode, "blk.0.gate"), _op(b4.decode, "blk.0.gate")
    assert gate_b4.seconds < gate_q8.seconds
    for prog in ("blk.0.q", "blk.0.o", "logits"):
        assert _op(b4.decode, prog).seconds == _op(q8.decode, prog).seconds


def test_the_summary_has_what_the_json_promises(tiny):
    e = estimate(tiny, Scenario(batch=2, context=64))
    doc = e.summary()
    for part in ("decode", "prefill"):
        for key in ("ms_per_token", "tokens_per_s_per_user", "tokens_per_s_total"):
            assert doc[part][key] > 0
    d = doc["decode"]
    assert d["tokens_per_s_total"] == pytest.approx(2 * d["tokens_per_s_per_user"])
    assert d["ms_per_token"] == pytest.approx(1e3 / d["tokens_per_s_per_user"])
    assert set(d["terms_ms"]) == {str(t) for t in Term}
    assert math.isclose(sum(d["terms_ms"].values()), d["ms"])


# --------------------------------------------------------------------------------------
# The tool
# --------------------------------------------------------------------------------------


@pytest.fixture
def config_file(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(TINY))
    return path


def test_the_tool_prints_a_table_and_json(config_file, capsys):
    assert spatial_estimate.main([str(config_file), "--context", "64"]) == 0
    out = capsys.readouterr().out
    assert "tokens/s/user" in out and "ops left on the host" in out and "matmul" in out
    assert spatial_estimate.main([str(config_file.parent), "--context", "64", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["decode"]["tokens_per_s_per_user"] > 0 and doc["preset"] == "wormhole_n150"
    argv = [str(config_file), "--batch", "1", "4", "--context", "64", "--json"]
    assert spatial_estimate.main(argv) == 0
    docs = json.loads(capsys.readouterr().out)
    assert [d["batch"] for d in docs] == [1, 4]


def test_the_tool_reads_a_gguf_header(tmp_path, capsys):
    from tiny_llama import write_tiny_llama

    path = write_tiny_llama(tmp_path / "tiny.gguf", layers=2)
    assert spatial_estimate.main([str(path), "--context", "64", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["model"]["layers"] == 2


def test_the_tool_draws_the_rates(config_file, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "rates.svg"
    argv = [str(config_file), "--batch", "1", "2", "--context", "64", "128", "--plot", str(out)]
    assert spatial_estimate.main(argv) == 0
    svg = out.read_text()
    assert "tokens/s per user" in svg and "context 128" in svg


@pytest.mark.parametrize(
    ("argv", "code", "says"),
    [
        (["--batch", "33"], 1, "--batch: 1 to 32"),
        (["--context", "100000"], 1, "exceed the model's context length"),
        (["--chips", "64"], 1, "at most"),
        (["--plot", "rates.txt"], 2, ".png or .svg"),
    ],
)
def test_the_tool_refuses_with_one_diagnostic(config_file, capsys, argv, code, says):
    assert spatial_estimate.main([str(config_file), *argv]) == code
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1
    assert not Path("rates.txt").exists()


def test_the_tool_names_the_key_of_a_bad_config(tmp_path, capsys):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({**TINY, "num_local_experts": 8}))
    assert spatial_estimate.main([str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("spatial-estimate: error: ") and "'num_local_experts'" in err


def test_the_console_script_runs(config_file):
    run = subprocess.run(
        [sys.executable, "-m", "xdsl_spatial.tools.spatial_estimate", "--help"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0 and "--chips" in run.stdout
