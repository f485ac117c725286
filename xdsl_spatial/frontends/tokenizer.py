"""
Text to tokens and back with a GGUF file's own vocabulary.

Decoding needs nothing but the file: a byte-level BPE vocabulary (`tokenizer.ggml.model
= gpt2`, SmolLM2's, llama 3's) spells each byte as one printable character (GPT-2's
table), which is mapped back to bytes here; control tokens (`<|im_start|>`) are
written as they are spelled.

Encoding builds a BPE tokenizer with the `tokenizers` library (an optional extra:
`pip install 'xdsl-spatial[tokenizer]'`) from the file's tokens and merges, with the
pre-tokenizer `tokenizer.ggml.pre` names: GPT-2's split for `gpt2`/`default`, digits
one by one before it for `smollm`, llama 3's split for `llama-bpe`. Control tokens in
the text are matched whole, as llama.cpp matches them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

CONTROL = 3
"""`tokenizer.ggml.token_type` of a control token (llama.cpp's LLAMA_TOKEN_TYPE_CONTROL)."""

_LLAMA3_SPLIT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+"
)
PRE_TOKENIZERS = ("default", "gpt2", "smollm", "llama-bpe")


class TokenizerError(ValueError):
    """The file's vocabulary cannot encode or decode as asked; the message says why."""


@lru_cache(maxsize=1)
def byte_table() -> dict[str, int]:
    """GPT-2's printable character for each byte, inverted: character -> byte."""
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    chars = {b: b for b in keep}
    n = 0
    for b in range(256):
        if b not in chars:
            chars[b] = 256 + n
            n += 1
    return {chr(c): b for b, c in chars.items()}


def _field(reader: Any, key: str) -> Any:
    f = reader.fields.get(key)
    return None if f is None else f.contents()


class Vocabulary:
    """The tokenizer a GGUF file describes."""

    def __init__(self, reader: Any, path: str = "<gguf>"):
        self.path = path
        self.model = _field(reader, "tokenizer.ggml.model")
        self.pre = _field(reader, "tokenizer.ggml.pre") or "default"
        tokens = _field(reader, "tokenizer.ggml.tokens")
        if not tokens:
            raise TokenizerError(f"{path}: the file has no vocabulary (tokenizer.ggml.tokens)")
        self.tokens: list[str] = list(tokens)
        types = _field(reader, "tokenizer.ggml.token_type") or []
        self.control = {i for i, t in enumerate(types) if t == CONTROL}
        self.merges: list[str] = list(_field(reader, "tokenizer.ggml.merges") or [])
        self.bos = _field(reader, "tokenizer.ggml.bos_token_id")
        self.add_bos = bool(_field(reader, "tokenizer.ggml.add_bos_token"))
        self._encoder: Any = None

    def decode(self, ids: Sequence[int]) -> str:
        """The text of `ids` (bytes that are not UTF-8 become U+FFFD)."""
        if self.model != "gpt2":
            return "".join(self.tokens[i].replace("\u2581", " ") for i in ids)
        table = byte_table()
        out = bytearray()
        for i in ids:
            piece = self.tokens[i]
            if i in self.control or any(ch not in table for ch in piece):
                out += piece.encode("utf-8")
            else:
                out += bytes(table[ch] for ch in piece)
        return out.decode("utf-8", errors="replace")

    def encode(self, text: str) -> list[int]:
        """The ids of `text`, with the BOS token first when the file asks for it."""
        ids = self._tokenizer().encode(text, add_special_tokens=False).ids
        if self.add_bos and self.bos is not None:
            ids = [int(self.bos), *ids]
        return ids

    def _tokenizer(self) -> Any:
        if self._encoder is not None:
            return self._encoder
        if self.model != "gpt2":
            raise TokenizerError(
                f"{self.path}: tokenizer.ggml.model {self.model!r} cannot encode --prompt "
                "(byte-level BPE, 'gpt2', can); give --tokens"
            )
        if self.pre not in PRE_TOKENIZERS:
            raise TokenizerError(
                f"{self.path}: tokenizer.ggml.pre {self.pre!r} is not supported (supported: "
                f"{', '.join(PRE_TOKENIZERS)}); give --tokens"
            )
        try:
            from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, pre_tokenizers
        except ImportError:
            raise TokenizerError(
                "--prompt needs the tokenizers package: pip install 'xdsl-spatial[tokenizer]' "
                "(or give --tokens)"
            ) from None
        vocab = {t: i for i, t in enumerate(self.tokens)}
        merges = [tuple(m.split(" ", 1)) for m in self.merges]
        tok = Tokenizer(models.BPE(vocab=vocab, merges=merges, ignore_merges=False))
        byte_level = pre_tokenizers.ByteLevel(
            add_prefix_space=False, use_regex=self.pre != "llama-bpe"
        )
        if self.pre == "smollm":
            tok.pre_tokenizer = pre_tokenizers.Sequence(
                [pre_tokenizers.Digits(individual_digits=True), byte_level]
            )
        elif self.pre == "llama-bpe":
            split = pre_tokenizers.Split(Regex(_LLAMA3_SPLIT), behavior="isolated")
            tok.pre_tokenizer = pre_tokenizers.Sequence([split, byte_level])
        else:
            tok.pre_tokenizer = byte_level
        tok.decoder = decoders.ByteLevel()
        tok.add_special_tokens(
            [AddedToken(self.tokens[i], special=True) for i in sorted(self.control)]
        )
        self._encoder = tok
        return tok
