"""
The names `spatial-lower-ops` gives its programs and tensors, and the *op kinds* a
decode step's programs are grouped by (`OpKind`): a program's name starts with its
kind's prefix (`attn_contract_9x64x256`), so the traffic table and `--stats` can
group every program of a step, `q8-lower`'s included, without reading the IR.

The kind of a lowered op is read off the dataflow (`Lowering.classify`): a contraction
of two activations is attention, and so is every op that reads what attention made
(the softmax, the heads); a reduction that is not attention is a norm, and so is the
map that reads it (the scaling); a KV cache write and what computes its addresses are
the cache; a gather by token ids is the embedding; every other map is elementwise.
"""

from __future__ import annotations

from enum import auto

from xdsl.utils.str_enum import StrEnum


class OpKind(StrEnum):
    """What a program of a decode step does, for grouping its bytes and time."""

    PRODUCTS = auto()
    """`q8-lower`'s views and folds: the Q8_0 weight products."""
    ATTENTION = auto()
    NORMS = auto()
    ELEMENTWISE = auto()
    CACHE = auto()
    EMBEDDING = auto()


PREFIX: dict[OpKind, str] = {
    OpKind.PRODUCTS: "q8_",
    OpKind.ATTENTION: "attn_",
    OpKind.NORMS: "norm_",
    OpKind.ELEMENTWISE: "ew_",
    OpKind.CACHE: "cache_",
    OpKind.EMBEDDING: "embd_",
}


def op_kind(program_name: str) -> OpKind | None:
    """The kind of a program from its name (None: a program neither pass names)."""
    for kind, prefix in PREFIX.items():
        if program_name.startswith(prefix):
            return kind
    return None


INDEX = "index_"
"""What an index program's name says after its kind's prefix (`cache_index_at_1x1`):
a program that works out where a step's moves land (a cache write's tile and lane, a
token's tile), from the position or the token ids alone."""


def is_index_program(program_name: str) -> bool:
    """An index program of the cache or the embedding (see `INDEX`)."""
    return any(program_name.startswith(PREFIX[k] + INDEX) for k in (OpKind.CACHE, OpKind.EMBEDDING))


def program_name(kind: OpKind, what: str, shape: tuple[int, ...]) -> str:
    """`attn_contract_9x64x256`: the kind's prefix, what the program computes and the
    op's dims (not a symbol: every program of one shape has one name)."""
    return f"{PREFIX[kind]}{what}_{'x'.join(str(e) for e in shape)}"


def unique_names(names: list[str]) -> list[str]:
    """`names` with a repeated one numbered (`x`, `x.1`): a program's tensors have
    distinct names."""
    seen: dict[str, int] = {}
    out = []
    for n in names:
        k = seen.get(n, 0)
        seen[n] = k + 1
        out.append(n if k == 0 else f"{n}.{k}")
    return out
