"""core/geometry.py on its own: every array it computes against a plain enumeration,
item by item and tile by tile, and every check's refusal with its message."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineExpr, AffineMap
from xdsl.utils.exceptions import VerifyException

from xdsl_spatial.core.geometry import (
    K_INDEX,
    LinearForm,
    PageGeometry,
    TileMove,
    check_all_written,
    check_block_inside,
    check_disjoint,
    check_grid,
    check_owned_inside,
    check_page_reach,
    check_table_reach,
    check_writes_owned,
    in_stacked_page,
    item_coords,
    linear_form,
    loop_values,
    owned_rectangles,
    owned_tiles,
    single_linear,
    tile_grid,
)

dim, sym = AffineExpr.dimension, AffineExpr.symbol

# --------------------------------------------------------------------------------------
# Linear forms
# --------------------------------------------------------------------------------------


def test_linear_form_collects_coefficients():
    e = dim(2) * 8192 + 256 * dim(0) + dim(1) + sym(0) * 3 + 7 + dim(0)
    assert linear_form(e, 3, 1) == LinearForm(7, (257, 1, 8192), (3,))
    assert linear_form(AffineExpr.constant(5), 0, 0) == LinearForm(5, (), ())


@pytest.mark.parametrize(
    "e",
    [
        dim(0) % 2,
        dim(0) // 2,
        dim(0).ceil_div(2),
        AffineBinaryOpExpr(AffineBinaryOpKind.Mul, dim(0), dim(1)),
    ],
)
def test_linear_form_refuses_what_is_not_linear(e):
    assert linear_form(e, 2, 0) is None
    with pytest.raises(VerifyException, match="load origin must be linear"):
        single_linear(AffineMap(2, 0, (e,)), "load origin")


def test_single_linear_wants_one_result():
    with pytest.raises(VerifyException, match="load origin must have one result, got 2"):
        single_linear(AffineMap(1, 0, (dim(0), dim(0))), "load origin")


@given(
    st.integers(-50, 50),
    st.lists(st.integers(-9, 9), min_size=1, max_size=3),
    st.data(),
)
def test_a_form_over_axes_and_its_bounds_are_those_of_every_point(const, coefs, data):
    extents = data.draw(st.lists(st.integers(1, 5), min_size=len(coefs), max_size=len(coefs)))
    form = LinearForm(const, tuple(coefs), ())
    values = np.broadcast_to(form.over_axes(extents), extents)
    plain = [
        const + sum(c * i for c, i in zip(coefs, point))
        for point in itertools.product(*(range(e) for e in extents))
    ]
    assert values.reshape(-1).tolist() == plain
    assert form.bounds(extents) == (min(plain), max(plain))
    for d, (c, e) in enumerate(zip(coefs, extents)):
        assert form.over_axes(extents).shape[d] == (e if c else 1)


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 200),
    st.lists(st.sampled_from([0, 1, 2, 3, 8, 16, 32, 33, 64, 96]), min_size=1, max_size=3),
    st.sampled_from([8, 32, 64]),
    st.integers(1, 4),
    st.data(),
)
def test_a_map_read_in_a_stacked_page_is_each_points_row_and_column(
    const, coefs, row_len, parts, data
):
    """`in_stacked_page`: a page of rows `row_len` long, read as part 0 of `parts`
    such pages side by side, puts every point's element (row r, column c) at
    `r * parts * row_len + c`; it declines exactly when some point's column would
    leave its row under the split of the form into whole-row and other terms."""
    extents = data.draw(st.lists(st.integers(1, 5), min_size=len(coefs), max_size=len(coefs)))
    form = LinearForm(const, tuple(coefs), ())
    got = in_stacked_page(form, extents, row_len, parts)
    col = LinearForm(const % row_len, tuple(0 if c % row_len == 0 else c for c in coefs), ())
    lo, hi = col.bounds(extents)
    assert (got is None) == (lo < 0 or hi >= row_len)
    if got is None:
        return
    old = np.broadcast_to(form.over_axes(extents), extents)
    new = np.broadcast_to(got.over_axes(extents), extents)
    r, c = np.divmod(old, row_len)
    np.testing.assert_array_equal(new, r * parts * row_len + c)
    assert in_stacked_page(LinearForm(const, tuple(coefs), (1,)), extents, row_len, parts) is None


# --------------------------------------------------------------------------------------
# Moves
# --------------------------------------------------------------------------------------


def test_item_coords_are_row_major_and_the_grid_is_checked():
    assert item_coords((2, 3)).tolist() == [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2]]
    with pytest.raises(
        VerifyException, match=r"item grid must have positive extents, got \[2, 0\]"
    ):
        item_coords((2, 0))
    with pytest.raises(VerifyException, match=r"got \[\]"):
        check_grid(())


def test_tile_grid_pads_the_last_tiles():
    assert tile_grid((1, 4096), (32, 32)) == (1, 128)
    assert tile_grid((33, 64), (32, 32)) == (2, 2)


@st.composite
def moves(draw):
    """A program's grid, a K loop's trips, and a move over its loop variables, with an
    optional table term."""
    grid = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=2)))
    trips = draw(st.integers(1, 3))
    variables = tuple(
        draw(st.lists(st.sampled_from([K_INDEX, *range(len(grid))]), min_size=0, max_size=3))
    )
    n = len(variables)
    origin = LinearForm(
        draw(st.integers(0, 40)), (), tuple(draw(st.integers(-3, 9)) for _ in range(n))
    )
    table_at = None
    table = None
    if draw(st.booleans()):
        size = draw(st.integers(1, 12))
        table = np.asarray(draw(st.lists(st.integers(0, 30), min_size=size, max_size=size)))
        table_at = LinearForm(0, (), tuple(draw(st.integers(0, 2)) for _ in range(n)))
    block = (draw(st.integers(1, 3)), draw(st.integers(1, 4)))
    stride = draw(st.integers(0, 12))
    return grid, trips, variables, TileMove(origin, block, stride, table_at), table


@settings(max_examples=200, deadline=None)
@given(moves())
def test_a_moves_tiles_are_those_of_a_plain_per_item_enumeration(case):
    """`first_tiles`, `tiles`, `cells` and `row_origins` give, for every item and K
    trip, exactly what one item's loop over its block's rows and columns gives."""
    grid, trips, variables, move, table = case
    coords = item_coords(grid)
    items = len(coords)
    values = loop_values(coords, trips, variables)
    table_at = move.table_at
    if table_at is not None:
        assert table is not None
        at = table_at.at(values, (items, trips))
        if at.max() >= table.size:
            with pytest.raises(VerifyException, match="reads its table at element"):
                move.first_tiles(values, (items, trips), table, "load")
            return
    t0 = move.first_tiles(values, (items, trips), table, "load")
    tiles = move.tiles(t0)
    tpr, tile = 7, (4, 3)
    rows, cols = move.cells(t0, tpr)
    origins = move.row_origins(t0, tile, tpr)
    page = PageGeometry(tile, move.block, tpr * tile[1])
    elements = page.elements(origins)
    for i, c in enumerate(coords):
        for k in range(trips):
            var = [k if v == K_INDEX else int(c[v]) for v in variables]
            first = move.origin.const + sum(a * b for a, b in zip(move.origin.syms, var))
            if table_at is not None and table is not None:
                first += int(table[sum(a * b for a, b in zip(table_at.syms, var))])
            assert t0[i, k] == first
            for a in range(move.block[0]):
                start = first + a * move.stride
                for b in range(move.block[1]):
                    assert tiles[i, k, a, b] == start + b
                    assert (rows[i, k, a, b], cols[i, k, a, b]) == (start // tpr, start % tpr + b)
                    # Block tile (a, b) is page tile a * w + b: its element (r, x) is
                    # page element r * page_width + (a * w + b) * tile cols + x.
                    pt = a * move.block[1] + b
                    for r, x in itertools.product(range(tile[0]), range(tile[1])):
                        e = r * page.page_width + pt * tile[1] + x
                        trow, tcol = start // tpr, start % tpr + b
                        want = (trow * tile[0] + r) * (tpr * tile[1]) + tcol * tile[1] + x
                        assert elements[i, k, e] == want


def test_a_table_read_outside_is_clipped_when_asked():
    move = TileMove(LinearForm(0, (), (1,)), (1, 1), 1, LinearForm(5, (), (1,)))
    values = [np.array([0, 1])]
    table = np.array([10, 20, 30])
    with pytest.raises(VerifyException, match="load reads its table at element 5, outside its 3"):
        move.first_tiles(values, (2,), table, "load")
    assert move.first_tiles(values, (2,), table, clip=True).tolist() == [30, 31]


# --------------------------------------------------------------------------------------
# What items own
# --------------------------------------------------------------------------------------


@given(
    st.lists(st.integers(1, 3), min_size=1, max_size=2),
    st.integers(-2, 5),
    st.integers(0, 4),
    st.integers(1, 3),
    st.integers(1, 3),
)
def test_owned_tiles_are_those_of_each_items_rectangle(grid, r_step, c_step, h, w):
    coords = item_coords(grid)
    forms = [
        LinearForm(4, (r_step,) + (0,) * (len(grid) - 1), ()),
        LinearForm(1, (0,) * (len(grid) - 1) + (c_step,), ()),
    ]
    rects = owned_rectangles(forms, (h, w), coords)
    items, tiles = owned_tiles(rects, 50)
    plain = []
    for i, c in enumerate(coords):
        r0 = 4 + r_step * int(c[0])
        c0 = 1 + c_step * int(c[-1])
        assert rects[i].tolist() == [r0, c0, h, w]
        plain += [(i, (r0 + a) * 50 + c0 + b) for a in range(h) for b in range(w)]
    assert list(zip(items.tolist(), tiles.tolist())) == plain


# --------------------------------------------------------------------------------------
# Checks: what each refuses, in its words
# --------------------------------------------------------------------------------------


def test_a_block_outside_its_tensor_is_named_with_its_item_and_trip():
    t0 = np.array([[0, 4], [8, 9]])  # (items, trips)
    check_block_inside(t0[:, :1], (2, 4), 16, (2, 16), "load", "W")
    with pytest.raises(
        VerifyException,
        match=r"load block 2x8 at tile 9 \(row 0 starts at tile 9\) runs outside tensor 'W' "
        r"\(2x16 tiles\) for item 1 at K block 1",
    ):
        check_block_inside(t0, (2, 8), 16, (2, 16), "load", "W", range(2))
    with pytest.raises(VerifyException, match=r"row 1 starts at tile 16\).*for item 0$"):
        check_block_inside(np.array([[0]]), (2, 1), 16, (1, 16), "store", "y")


def test_two_items_on_one_tile_are_named():
    check_disjoint(np.array([0, 1]), np.array([3, 4]), "write", "y", (1, 8))
    with pytest.raises(VerifyException, match=r"items 0 and 2 both own tile \(0, 4\) of 'y'"):
        check_disjoint(np.array([0, 1, 2]), np.array([4, 5, 4]), "own", "y", (1, 8))


def test_an_unwritten_tile_is_named_with_the_count():
    check_all_written(np.array([1, 0, 2, 3]), (2, 2), "y")
    with pytest.raises(
        VerifyException,
        match=r"tile \(1, 0\) of output 'y' is written by no item \(2 of 4 tiles unwritten\)",
    ):
        check_all_written(np.array([0, 1]), (2, 2), "y")


def test_writes_match_what_items_own():
    owned = (np.array([0, 1]), np.array([0, 1]))
    check_writes_owned((np.array([1, 0]), np.array([1, 0])), owned, (1, 2), "y")
    with pytest.raises(VerifyException, match=r"item 0 writes tile \(0, 1\) of 'y' outside what"):
        check_writes_owned((np.array([0, 0]), np.array([0, 1])), owned, (1, 2), "y")
    with pytest.raises(VerifyException, match=r"item 1 owns but never writes tile \(0, 1\)"):
        check_writes_owned((np.array([0]), np.array([0])), owned, (1, 2), "y")


def test_an_owned_rectangle_outside_is_named():
    rects = np.array([[0, 0, 1, 2], [0, 2, 1, 2]])
    check_owned_inside(rects, (1, 4), "y")
    with pytest.raises(
        VerifyException, match=r"item 1 owns tiles \(0, 2\) size 1x2, outside 'y' \(1x3 tiles\)"
    ):
        check_owned_inside(rects, (1, 3), "y")


def test_table_and_page_reach():
    check_table_reach(np.array([0, 2]), 3, "load")
    with pytest.raises(VerifyException, match="store reads its table at element -1, outside its 3"):
        check_table_reach(np.array([0, -1]), 3, "store")
    check_page_reach(0, 1023, 1, 1024, "s", 0)
    with pytest.raises(
        VerifyException, match=r"stage 's' output reaches elements 0\.\.1024 of a 1-tile page"
    ):
        check_page_reach(0, 1024, 1, 1024, "s", None)
