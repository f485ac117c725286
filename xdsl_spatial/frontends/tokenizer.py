"""
Text to tokens and back with a GGUF file's own vocabulary.

Decoding needs nothing but the file: a byte-level BPE vocabulary (`tokenizer.ggml.model
= gpt2`, SmolLM2's, llama 3's) spells each byte as one printable character (GPT-2's
table), which is mapped back to bytes here; control tokens (`<|im_start|>`) are
written as they are spelled.

Encoding builds a BPE tokenizer with the `tokenizers` library (an optional extra:
`pip install -e '.[tokenizer]'`) from the file's tokens and merges, with the
pre-tokenizer `tokenizer.ggml.pre` names: GPT-2's split for `gpt2`/`default`, digits
one by one before it for `smollm`, llama 3's split for `llama-bpe`. Control tokens in
the text are matched whole, as llama.cpp matches them.

A SentencePiece vocabulary (`tokenizer.ggml.model = llama`: Gemma's, llama 2's) is
encoded as llama.cpp's SPM tokenizer encodes it (`SentencePiece`, here, no package
needed): control, user-defined and unknown tokens matched whole first (llama-cli parses
special tokens), each stretch of text between them with its spaces written "▁" (after
one more space before it where `tokenizer.ggml.add_space_prefix` says, llama.cpp's
default), split into characters, adjacent symbols merged while their join is a token,
the join of the highest score first (the leftmost among equals), and a symbol that is
no token spelled by the merges that made it, down to its bytes' `<0xXX>` tokens.
Decoding writes "▁" as a space and a byte token as its byte.

A chat is rendered with the file's own `tokenizer.chat_template` by jinja2 (an optional
extra, `pip install -e '.[chat]'`) as Hugging Face renders it: a sandboxed environment
with `trim_blocks` and `lstrip_blocks`, `messages`, `add_generation_prompt`, and the
file's bos and eos tokens as `bos_token` and `eos_token`; in a child process within a
time and an output-size limit (`chat_template.py`: the template is code from the file).

```python
vocab = Vocabulary(open_gguf("model.gguf"))
ids = vocab.encode(vocab.chat([{"role": "user", "content": "Hi"}]))
```
"""

from __future__ import annotations

import heapq
import importlib.util
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

CONTROL = 3
"""`tokenizer.ggml.token_type` of a control token (llama.cpp's LLAMA_TOKEN_TYPE_CONTROL)."""
UNKNOWN, USER_DEFINED, BYTE = 2, 4, 6
"""The other token types a SentencePiece vocabulary reads apart (LLAMA_TOKEN_TYPE_...)."""
SPACE = "\u2581"
"""SentencePiece's space, "▁"."""

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


METADATA = (
    "tokenizer.ggml.model",
    "tokenizer.ggml.pre",
    "tokenizer.ggml.tokens",
    "tokenizer.ggml.token_type",
    "tokenizer.ggml.merges",
    "tokenizer.ggml.bos_token_id",
    "tokenizer.ggml.eos_token_id",
    "tokenizer.ggml.eot_token_id",
    "tokenizer.ggml.add_bos_token",
    "tokenizer.ggml.scores",
    "tokenizer.ggml.add_space_prefix",
    "tokenizer.chat_template",
)
"""The GGUF keys a vocabulary is made from."""


def read_metadata(reader: Any) -> dict[str, Any]:
    """The tokenizer's keys (`METADATA`) of the GGUF file `reader` reads, as plain values
    (the keys the file lacks left out): what `Vocabulary` needs, without the file."""
    out = {}
    for key in METADATA:
        f = reader.fields.get(key)
        if f is not None:
            v = f.contents()
            out[key] = list(v) if isinstance(v, list) else v
    return out


class Vocabulary:
    """The tokenizer a GGUF file describes (`Vocabulary(reader)`), or the metadata
    `read_metadata` read from it (`Vocabulary.from_metadata(meta)`)."""

    path: str
    model: Any
    pre: str
    tokens: list[str]
    control: set[int]
    merges: list[str]
    bos: int | None
    eos: int | None
    eot: int | None
    add_bos: bool
    chat_template: str | None

    def __init__(self, reader: Any, path: str = "<gguf>"):
        self._read(read_metadata(reader), path)

    @classmethod
    def from_metadata(cls, meta: dict[str, Any], path: str = "<gguf>") -> Vocabulary:
        self = cls.__new__(cls)
        self._read(meta, path)
        return self

    def _read(self, meta: dict[str, Any], path: str) -> None:
        self.path = path
        self.model = meta.get("tokenizer.ggml.model")
        self.pre = meta.get("tokenizer.ggml.pre") or "default"
        tokens = meta.get("tokenizer.ggml.tokens")
        if not tokens:
            raise TokenizerError(f"{path}: the file has no vocabulary (tokenizer.ggml.tokens)")
        self.tokens = list(tokens)
        types = meta.get("tokenizer.ggml.token_type") or []
        self.control = {i for i, t in enumerate(types) if t == CONTROL}
        self.types = list(types)
        self.scores = list(meta.get("tokenizer.ggml.scores") or [])
        self.add_space_prefix = bool(meta.get("tokenizer.ggml.add_space_prefix", True))
        self.merges = list(meta.get("tokenizer.ggml.merges") or [])
        self.bos = meta.get("tokenizer.ggml.bos_token_id")
        self.eos = meta.get("tokenizer.ggml.eos_token_id")
        self.eot = meta.get("tokenizer.ggml.eot_token_id")
        self.add_bos = bool(meta.get("tokenizer.ggml.add_bos_token"))
        self.chat_template = meta.get("tokenizer.chat_template")
        self._encoder: Any = None

    def stop_tokens(self) -> set[int]:
        """The ids that end a generation: end of text (eos) and end of turn (eot)."""
        return {int(t) for t in (self.eos, self.eot) if t is not None}

    def piece(self, i: int) -> bytes:
        """The bytes of token `i` (a control token's as it is spelled)."""
        piece = self.tokens[i]
        if self.model != "gpt2":
            if i < len(self.types) and self.types[i] == BYTE:
                return bytes([int(piece[3:5], 16)])
            return piece.replace(SPACE, " ").encode("utf-8")
        table = byte_table()
        if i in self.control or any(ch not in table for ch in piece):
            return piece.encode("utf-8")
        return bytes(table[ch] for ch in piece)

    def chat(self, messages: Sequence[dict[str, str]], add_generation_prompt: bool = True) -> str:
        """`messages` (each a `role` and its `content`) as the file's chat template
        renders them, the way Hugging Face renders a chat template."""
        if not self.chat_template:
            raise TokenizerError(
                f"{self.path}: the file has no chat template (tokenizer.chat_template)"
            )
        if importlib.util.find_spec("jinja2") is None:
            raise TokenizerError("--chat needs the jinja2 package: pip install -e '.[chat]'")
        from xdsl_spatial.frontends.chat_template import TemplateRenderError, render

        def spelled(i: int | None) -> str:
            return self.tokens[int(i)] if i is not None and 0 <= int(i) < len(self.tokens) else ""

        try:
            return render(
                self.chat_template,
                {
                    "messages": list(messages),
                    "add_generation_prompt": add_generation_prompt,
                    "bos_token": spelled(self.bos),
                    "eos_token": spelled(self.eos),
                },
                self.path,
            )
        except TemplateRenderError as e:
            raise TokenizerError(str(e)) from None

    def decode(self, ids: Sequence[int], special: bool = True) -> str:
        """The text of `ids` (bytes that are not UTF-8 become U+FFFD); without
        `special`, control tokens (`<|im_end|>`) are left out, as llama-cli prints a
        generation."""
        kept = ids if special else [i for i in ids if i not in self.control]
        return b"".join(self.piece(i) for i in kept).decode("utf-8", errors="replace")

    def encode(self, text: str) -> list[int]:
        """The ids of `text`, with the BOS token first when the file asks for it."""
        if self.model == "llama":
            if self._encoder is None:
                self._encoder = SentencePiece(self)
            ids = self._encoder.encode(text)
        else:
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
                "(byte-level BPE, 'gpt2', and SentencePiece, 'llama', can); give --tokens"
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
                "--prompt needs the tokenizers package: pip install -e '.[tokenizer]' "
                "(or give --tokens)"
            ) from None
        vocab = {t: i for i, t in enumerate(self.tokens)}
        merges = [(a, b) for a, _, b in (m.partition(" ") for m in self.merges)]
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


class SentencePiece:
    """llama.cpp's SPM tokenizer over a `Vocabulary` of `tokenizer.ggml.model = llama`
    (see the module's docstring)."""

    def __init__(self, vocab: Vocabulary):
        if len(vocab.scores) != len(vocab.tokens):
            raise TokenizerError(
                f"{vocab.path}: a SentencePiece vocabulary needs a score per token "
                f"(tokenizer.ggml.scores has {len(vocab.scores)} for {len(vocab.tokens)})"
            )
        self.vocab = vocab
        self.ids = {t: i for i, t in enumerate(vocab.tokens)}
        whole = [i for i, t in enumerate(vocab.types) if t in (CONTROL, USER_DEFINED, UNKNOWN)]
        spelled = sorted({vocab.tokens[i] for i in whole if vocab.tokens[i]}, key=len, reverse=True)
        self.special = re.compile("|".join(map(re.escape, spelled))) if spelled else None

    def encode(self, text: str) -> list[int]:
        """The ids of `text` (no BOS): its special tokens whole, the text between them
        tokenized piece by piece."""
        out: list[int] = []
        after_special = True
        at = 0
        for hit in self.special.finditer(text) if self.special else ():
            if hit.start() > at:
                self._text(text[at : hit.start()], after_special, out)
            out.append(self.ids[hit.group()])
            after_special, at = True, hit.end()
        if at < len(text):
            self._text(text[at:], after_special, out)
        return out

    def _text(self, text: str, after_special: bool, out: list[int]) -> None:
        if self.vocab.add_space_prefix and after_special:
            text = " " + text
        symbols = list(text.replace(" ", SPACE))
        n = len(symbols)
        after = [*range(1, n), -1]
        before = list(range(-1, n - 1))
        queue: list[tuple[float, int, int, str]] = []
        made: dict[str, tuple[str, str]] = {}

        def pair(left: int, right: int) -> None:
            if left < 0 or right < 0:
                return
            joined = symbols[left] + symbols[right]
            token = self.ids.get(joined)
            if token is None:
                return
            heapq.heappush(queue, (-self.vocab.scores[token], left, right, joined))
            made[joined] = (symbols[left], symbols[right])

        for i in range(1, n):
            pair(i - 1, i)
        while queue:
            _, left, right, joined = heapq.heappop(queue)
            a, b = symbols[left], symbols[right]
            if not a or not b or len(a) + len(b) != len(joined):
                continue  # one of them has changed since
            symbols[left], symbols[right] = joined, ""
            after[left] = after[right]
            if after[right] >= 0:
                before[after[right]] = left
            pair(before[left], left)
            pair(left, after[left])

        def spell(piece: str) -> None:
            token = self.ids.get(piece)
            if token is not None:
                out.append(token)
            elif piece in made:
                spell(made[piece][0])
                spell(made[piece][1])
            else:
                for byte in piece.encode("utf-8"):
                    token = self.ids.get(f"<0x{byte:02X}>")
                    if token is None:
                        raise TokenizerError(
                            f"{self.vocab.path}: {piece!r} is no token and the vocabulary "
                            f"has no byte token <0x{byte:02X}>"
                        )
                    out.append(token)

        i = 0 if n else -1
        while i >= 0:
            spell(symbols[i])
            i = after[i]
