"""A model's shapes without its weights: Hugging Face config.json files of each flavour
the builder takes (Llama 3.1, Llama 3.2 tied, SmolLM2, a Llama 2 without grouped
queries), each malformed or unsupported config one diagnostic naming its key, Llama
3.1's RoPE scaling, and a GGUF file's header read on its own."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from tiny_llama import HEAD_DIM, llama3_rope_factors, write_tiny_llama

from xdsl_spatial.frontends.gguf_io import GGUFError, open_gguf, read_header
from xdsl_spatial.frontends.hf_config import hf_config, read_hf_config
from xdsl_spatial.frontends.llama import ModelError, read_config
from xdsl_spatial.frontends.rope import Llama3Scaling, rope_frequencies

LLAMA_31_8B = {
    "architectures": ["LlamaForCausalLM"],
    "attention_bias": False,
    "hidden_act": "silu",
    "hidden_size": 4096,
    "intermediate_size": 14336,
    "max_position_embeddings": 131072,
    "mlp_bias": False,
    "model_type": "llama",
    "num_attention_heads": 32,
    "num_hidden_layers": 32,
    "num_key_value_heads": 8,
    "rms_norm_eps": 1e-05,
    "rope_scaling": {
        "factor": 8.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8192,
        "rope_type": "llama3",
    },
    "rope_theta": 500000.0,
    "tie_word_embeddings": False,
    "vocab_size": 128256,
}
LLAMA_32_1B = {
    **LLAMA_31_8B,
    "hidden_size": 2048,
    "intermediate_size": 8192,
    "num_hidden_layers": 16,
    "head_dim": 64,
    "tie_word_embeddings": True,
    "rope_scaling": {**LLAMA_31_8B["rope_scaling"], "factor": 32.0},
}
SMOLLM2_135M = {
    "architectures": ["LlamaForCausalLM"],
    "hidden_act": "silu",
    "hidden_size": 576,
    "intermediate_size": 1536,
    "max_position_embeddings": 8192,
    "model_type": "llama",
    "num_attention_heads": 9,
    "num_hidden_layers": 30,
    "num_key_value_heads": 3,
    "rms_norm_eps": 1e-05,
    "rope_scaling": None,
    "rope_theta": 100000,
    "tie_word_embeddings": True,
    "vocab_size": 49152,
}
LLAMA_2_7B = {
    "model_type": "llama",
    "hidden_size": 4096,
    "intermediate_size": 11008,
    "max_position_embeddings": 4096,
    "num_attention_heads": 32,
    "num_hidden_layers": 32,
    "rms_norm_eps": 1e-05,
    "vocab_size": 32000,
}


def test_llama_3_1_reads_with_its_rope_scaling_and_untied_head(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(LLAMA_31_8B))
    c = read_hf_config(path)
    assert (c.n_layer, c.d_model, c.n_head, c.n_kv, c.head_dim, c.d_ff, c.vocab) == (
        32,
        4096,
        32,
        8,
        128,
        14336,
        128256,
    )
    assert c.group == 4 and c.lm_head == "output.weight"
    assert c.rope_base == 500000.0 and c.context_length == 131072
    assert c.rope_factors == Llama3Scaling(8.0, 1.0, 4.0, 8192).factors(128, 500000.0)


def test_llama_3_2_has_its_head_dim_and_a_tied_head():
    c = hf_config(LLAMA_32_1B)
    assert (c.d_model, c.head_dim, c.q_dim, c.kv_dim) == (2048, 64, 2048, 512)
    assert c.lm_head == "token_embd.weight"
    assert c.rope_factors == Llama3Scaling(32.0, 1.0, 4.0, 8192).factors(64, 500000.0)


def test_smollm2_has_no_rope_scaling_and_nine_heads_of_64():
    c = hf_config(SMOLLM2_135M)
    assert (c.n_head, c.n_kv, c.head_dim, c.rope_base) == (9, 3, 64, 100000.0)
    assert c.rope_factors == () and c.lm_head == "token_embd.weight"


def test_a_config_without_kv_heads_has_one_per_query_head_and_an_untied_head():
    c = hf_config(LLAMA_2_7B)
    assert c.n_kv == c.n_head == 32 and c.lm_head == "output.weight"
    assert c.rope_base == 10000.0 and c.rope_factors == ()


@pytest.mark.parametrize(
    ("change", "key"),
    [
        ({"num_local_experts": 8}, "'num_local_experts'"),
        ({"model_type": "mixtral"}, "'model_type'"),
        ({"model_type": None}, "'model_type'"),
        ({"rope_scaling": {"rope_type": "yarn", "factor": 4.0}}, "'rope_scaling.rope_type'"),
        (
            {"rope_scaling": {"rope_type": "llama3", "factor": 8.0}},
            "'rope_scaling.low_freq_factor'",
        ),
        ({"vocab_size": None}, "'vocab_size'"),
        ({"hidden_size": "4096"}, "'hidden_size'"),
        ({"num_key_value_heads": 5}, "'num_key_value_heads'"),
        ({"intermediate_size": 1000}, "'intermediate_size'"),
        ({"attention_bias": True}, "'attention_bias'"),
        ({"hidden_act": "gelu"}, "'hidden_act'"),
        ({"tie_word_embeddings": "yes"}, "'tie_word_embeddings'"),
    ],
)
def test_a_malformed_or_unsupported_config_is_one_diagnostic_naming_the_key(change, key):
    raw = {k: v for k, v in {**LLAMA_31_8B, **change}.items() if v is not None}
    with pytest.raises(ModelError, match=key) as e:
        hf_config(raw, "m/config.json")
    assert str(e.value).startswith("m/config.json: key ")
    assert "\n" not in str(e.value)


def test_a_file_that_is_not_a_json_object_is_a_diagnostic(tmp_path):
    bad = tmp_path / "config.json"
    bad.write_text("{not json")
    with pytest.raises(ModelError, match="not a JSON file"):
        read_hf_config(bad)
    bad.write_text("[1, 2]")
    with pytest.raises(ModelError, match="a JSON object, got list"):
        read_hf_config(bad)
    with pytest.raises(ModelError, match="cannot read"):
        read_hf_config(tmp_path / "missing.json")


def test_llama3_scaling_by_hand():
    """Llama 3.1's rule at base 500000, 128 dims, factor 8 over 8192 positions: a pair
    whose wavelength is under 8192/4 = 2048 positions keeps its frequency, one over
    8192/1 is divided by 8, and one between is blended linearly in 8192 / wavelength."""
    scaling = Llama3Scaling(8.0, 1.0, 4.0, 8192)
    base = rope_frequencies(128, 128, 500000.0)
    scaled = rope_frequencies(128, 128, 500000.0, scaling)
    wavelength = 2 * math.pi / base
    fast, slow = wavelength < 2048, wavelength > 8192
    assert fast.any() and slow.any() and (~fast & ~slow).any()
    np.testing.assert_array_equal(scaled[fast], base[fast])
    np.testing.assert_allclose(scaled[slow], base[slow] / 8, rtol=1e-15)
    i = int(np.flatnonzero(~fast & ~slow)[0])
    smooth = (8192 / wavelength[i] - 1.0) / (4.0 - 1.0)
    assert scaled[i] == pytest.approx((1 - smooth) * base[i] / 8 + smooth * base[i], rel=1e-15)
    assert base[i] / 8 < scaled[i] < base[i]


def test_the_builder_turns_by_the_scaled_frequencies():
    """The config holds the rule as a GGUF file does (a divisor a pair): dividing by it
    gives the scaled frequencies within fp64's rounding of one division."""
    c = hf_config(LLAMA_31_8B)
    want = rope_frequencies(128, 128, 500000.0, Llama3Scaling(8.0, 1.0, 4.0, 8192))
    np.testing.assert_allclose(c.inv_freq(), want, rtol=4e-16)
    assert not np.allclose(c.inv_freq(), rope_frequencies(128, 128, 500000.0), rtol=1e-3)


def test_a_gguf_header_reads_as_the_reader_does_and_without_the_data(tmp_path):
    path = write_tiny_llama(tmp_path / "tiny.gguf", layers=2, untied=True)
    header = read_header(path)
    reader = open_gguf(path)
    assert [t.name for t in header.tensors] == [t.name for t in reader.tensors]
    assert [t.shape for t in header.tensors] == [
        tuple(int(d) for d in t.shape) for t in reader.tensors
    ]
    assert read_config(header, str(path)) == read_config(reader, str(path))
    # The header alone: the file cut where the tensors' data begins still reads.
    cut = tmp_path / "header.gguf"
    cut.write_bytes(path.read_bytes()[: reader.data_offset])
    assert read_config(read_header(cut), str(cut)) == read_config(reader, str(path))
    with pytest.raises(GGUFError, match="cannot be opened|corrupt|GGUF"):
        open_gguf(cut)


def test_a_llama3_gguf_estimates_from_its_header_read_and_a_cut_one_says_why_not(tmp_path):
    """Llama 3's RoPE factors are a tensor's data: a whole file's header read maps it
    (the same config as the full read), a file cut after its header names the tensor."""
    factors = llama3_rope_factors(HEAD_DIM, 10000.0)
    path = write_tiny_llama(tmp_path / "l3.gguf", rope_factors=factors)
    reader = open_gguf(path)
    config = read_config(read_header(path), str(path))
    assert config == read_config(reader, str(path))
    assert config.rope_factors == pytest.approx(np.asarray(factors, np.float32))
    cut = tmp_path / "l3_header.gguf"
    cut.write_bytes(path.read_bytes()[: reader.data_offset])
    with pytest.raises(ModelError, match="rope_freqs.weight: the file ends before its data"):
        read_config(read_header(cut), str(cut))


def test_a_cut_or_foreign_header_is_a_diagnostic(tmp_path):
    path = write_tiny_llama(tmp_path / "tiny.gguf", layers=1)
    short = tmp_path / "short.gguf"
    short.write_bytes(path.read_bytes()[:200])
    with pytest.raises(GGUFError, match="short.gguf: the file ends inside"):
        read_header(short)
    other = tmp_path / "other.gguf"
    other.write_bytes(b"not a gguf file")
    with pytest.raises(GGUFError, match="bad magic number"):
        read_header(other)
