"""The address check of programs that read through tables (`analysis/tables.py`), which
the native engine makes before it compiles: the same verdicts, in the same words, as
the compiled numpy engine's run-time checks, on the tables `q8-lower` writes (a view's
sections and lanes at m > 1) and on those tables broken; and the same reach bounding
which rows of a page the native code must fill."""

from __future__ import annotations

from typing import cast

import numpy as np
import pytest
from spatial_programs import copy_through_table, own_permuted_tiles
from test_interpreter import first, lowered
from xdsl.dialects.builtin import (
    IntegerType,
    TensorType,
)

from xdsl_spatial.analysis.tables import table_reads
from xdsl_spatial.dialects.spatial import (
    LoadOp,
    ProgramOp,
    StageOp,
    TensorOp,
)
from xdsl_spatial.interpreters.program import ProgramCompiler
from xdsl_spatial.interpreters.values import SpatialRuntimeError
from xdsl_spatial.passes.convert_spatial_to_linalg.pages import tensor_plan


def compiled_verdict(program: ProgramOp) -> str | None:
    """What the compiled engine says of `program` when it compiles it."""
    try:
        ProgramCompiler(program).compile()
    except SpatialRuntimeError as e:
        return str(e)
    return None


def set_values(t: TensorOp, values: np.ndarray) -> None:
    vals = t.values
    assert vals is not None
    t.properties["values"] = type(vals).from_list(
        cast(TensorType[IntegerType], vals.type), values.tolist()
    )


def programs_with_tables(mod) -> list[ProgramOp]:
    return [
        p
        for p in mod.walk()
        if isinstance(p, ProgramOp)
        and any(
            isinstance(s, StageOp) and any(v >= 0 for v in s.indirect_of) for s in p.body.walk()
        )
    ]


@pytest.mark.parametrize(("m", "k", "n"), [(4, 1024, 256), (8, 512, 128), (3, 256, 64)])
def test_the_tables_q8_lower_writes_pass(m, k, n):
    mod = lowered(m=m, k=k, n=n)
    found = programs_with_tables(mod)
    assert found, "q8-lower writes a view reading through a table at m > 1"
    for p in mod.walk():
        if isinstance(p, ProgramOp):
            assert table_reads(p) is None
            assert compiled_verdict(p) is None


@pytest.mark.parametrize("seed", range(6))
def test_a_broken_table_is_refused_as_the_compiled_engine_refuses_it(seed):
    """Each element of the lanes table set past, before or inside its page: the
    analysis refuses exactly what the compiled engine refuses, in its words."""
    rng = np.random.default_rng(seed)
    mod = lowered(m=4, k=1024, n=256)
    lanes = first(mod, TensorOp, lambda t: "__lanes" in t.tensor_name.data)
    assert lanes.values is not None
    good = np.asarray(lanes.values.get_values()).copy()
    bad = good.copy()
    at = rng.integers(0, bad.size)
    bad[at] = int(rng.choice([2**15 - 1, -(2**10), int(good.max()), 33 * 1024]))
    set_values(lanes, bad)
    mod.verify()  # the verifier leaves a stage's reads through a table to the run
    (program,) = programs_with_tables(mod)
    want = compiled_verdict(program)
    assert table_reads(program) == want
    set_values(lanes, good)
    assert table_reads(program) is None


def test_the_words_name_the_program_the_stage_and_the_reach():
    mod = lowered(m=4, k=1024, n=256)
    lanes = first(mod, TensorOp, lambda t: "__lanes" in t.tensor_name.data)
    assert lanes.values is not None
    bad = np.asarray(lanes.values.get_values()).copy()
    bad[3] = 2**15 - 1  # past the 32-tile page of x
    set_values(lanes, bad)
    (program,) = programs_with_tables(mod)
    why = table_reads(program)
    assert why is not None
    assert why.startswith(f'spatial.view "{program.program_name.data}": spatial.stage: ')
    assert "stage 'lift_rows' input #0 reaches elements 0..33759 of a 32-tile page" in why


def test_a_store_through_a_constant_table_passes():
    """A move through a table declared with values is bounded by the verifier; the
    analysis, as the compiled engine, finds nothing more to refuse."""
    module, prog = copy_through_table()
    own_permuted_tiles(prog)
    module.verify()
    assert table_reads(prog) is None
    assert compiled_verdict(prog) is None


@pytest.mark.parametrize(("m", "k", "n"), [(4, 1024, 256), (8, 512, 128), (3, 256, 64)])
def test_a_view_reads_through_its_lanes_only_its_activations_rows(m, k, n):
    """The same reach bounds what a load's page must hold (`pages.reads_live_rows`):
    a view reads its m-row activation through its lanes only in the page's first m
    rows, so the native code copies those rows and fills none past them; a lane set to
    reach row m (inside the page: the address check passes) makes it fill them."""
    mod = lowered(m=m, k=k, n=n)
    (program,) = programs_with_tables(mod)
    tile = program.target.tile
    x = first(program, TensorOp, lambda t: t.handle.dims[0] == m and t.values is None)
    plan = tensor_plan(x, tile)
    assert plan.live_reads and not plan.padding_read
    (load,) = plan.last_loads
    assert isinstance(load, LoadOp)
    page_row = load.block_shape[0] * load.block_shape[1] * tile[1]
    lanes = first(program, TensorOp, lambda t: "__lanes" in t.tensor_name.data)
    assert lanes.values is not None
    good = np.asarray(lanes.values.get_values()).copy()
    bad = good.copy()
    bad[0] = m * page_row  # the first element of row m, the first past the live rows
    set_values(lanes, bad)
    assert table_reads(program) is None
    assert tensor_plan(x, tile).padding_read
    bad[0] = good.max()  # another lane's offset: still inside the live rows
    set_values(lanes, bad)
    assert not tensor_plan(x, tile).padding_read
