"""Forward (tangent) templates of the runtime helpers (templates/runtime_helpers.py).

Forward-over-reverse differentiates generated gradient code, so every helper it calls
needs a tangent or a nondifferentiable declaration. Each tangent is checked with
`check_along` (tests/test_tangents_arrays.py) on realistic arguments: g shaped like the
primal result whose adjoint it is, x / a / b shaped like the operands, and values that
belong together (y = max(x) moves with x). Arguments that do not move get the engine's
symbolic ZERO. The in-place helpers are also checked not to mutate the tangent of their
first argument (it may be shared), and pop_adjoint to pop it (as the helper pops the list).
"""
import copy
import inspect
import re
import zlib

import numpy as np
import pytest

from s2s_ad import (runtime, runtime_arrays, runtime_banded, runtime_bessel, runtime_checks,
                    runtime_complex, runtime_keywords, runtime_products, runtime_simplex,
                    runtime_sinc,
                    runtime_creation, runtime_draws, runtime_flow, runtime_linalg,
                    runtime_polynomials, runtime_reductions, runtime_shape, runtime_spread,
                    runtime_triangular)
from s2s_ad.ad.registry import default_registry

from test_tangents_arrays import check_along, run_template

R, F, L, RR = runtime, runtime_flow, runtime_linalg, runtime_reductions


def _x(shape, key, low=None):
    rng = np.random.default_rng(zlib.crc32(repr((shape, key)).encode()))
    x = rng.uniform(low, low + 1.5, shape) if low is not None else rng.standard_normal(shape)
    return float(x) if shape == () else x


def _id(value):
    return re.sub(r"\s+", "", repr(value))


def _subsets(n):
    return [tuple(k for k in range(n) if mask >> k & 1) for mask in range(1, 2 ** n)]


def check_subsets(helper, build, thetas, kwargs=None, **tolerances):
    """check_along with every non-empty subset of the thetas moving (the rest frozen)."""
    for subset in _subsets(len(thetas)):
        def partial(*moved, subset=subset):
            values = [moved[subset.index(k)] if k in subset else thetas[k]
                      for k in range(len(thetas))]
            return build(*values)
        check_along(helper, partial, [thetas[k] for k in subset], kwargs, **tolerances)


# ---- broadcasting and reductions --------------------------------------------------------
@pytest.mark.parametrize("g, x", [((3, 4), (4,)), ((3, 4), (3, 1)), ((3, 4), ()),
                                  ((3, 4), (3, 4)), ((2, 3, 4), (3, 1)), ((), (3,))],
                         ids=_id)
def test_unbroadcast_tangent(g, x):
    xv = _x(x, "x")
    check_along(R.unbroadcast, lambda g: [g, xv], [_x(g, "g")])


UNREDUCE = [((3, 4), {}), ((3, 4), {"axis": 0}), ((3, 4), {"axis": -1, "keepdims": True}),
            ((2, 3, 4), {"axis": (0, 2)}), ((2, 3, 4), {"axis": (-1, 1), "keepdims": True}),
            ((3, 4), {"keepdims": True}), ((), {}), ((4,), {"axis": 0})]


def _reduced(x, kwargs):
    return np.sum(x, **kwargs)


@pytest.mark.parametrize("shape, kwargs", UNREDUCE, ids=_id)
def test_unreduce_tangent(shape, kwargs):
    x = _x(shape, "x")
    g = _x(np.shape(_reduced(x, kwargs)), "g")
    check_along(R.unreduce, lambda g: [g, x, kwargs.get("axis"), kwargs.get("keepdims", False)],
                [g])


def test_broadcast_tangent_tangent():
    y = _x((3, 4), "y")
    check_along(R.broadcast_tangent, lambda t: [t, y], [_x((4,), "t")])
    check_along(R.broadcast_tangent, lambda t: [t, y], [_x((3, 4), "t")])


@pytest.mark.parametrize("primitive", [np.max, np.min], ids=lambda p: p.__name__)
@pytest.mark.parametrize("shape, kwargs", UNREDUCE[:-2], ids=_id)
def test_unreduce_extremum_tangent(primitive, shape, kwargs):
    axis, keepdims = kwargs.get("axis"), kwargs.get("keepdims", False)
    x = _x(shape, "x")
    g = _x(np.shape(primitive(x, **kwargs)), "g")
    check_subsets(RR.unreduce_extremum,
                  lambda g, x: [g, x, primitive(x, axis=axis, keepdims=keepdims), axis,
                                keepdims], [g, x])


def test_unreduce_extremum_tangent_with_ties():
    x = np.array([[3.0, 1.0, 3.0], [2.0, 2.0, 2.0]])
    check_along(RR.unreduce_extremum, lambda g: [g, x, np.max(x, axis=1), 1, False],
                [_x((2,), "g")])


@pytest.mark.parametrize("shape, kwargs", UNREDUCE[:-2], ids=_id)
def test_unreduce_prod_tangent(shape, kwargs):
    axis, keepdims = kwargs.get("axis"), kwargs.get("keepdims", False)
    x = _x(shape, "x", low=0.5)
    g = _x(np.shape(np.prod(x, **kwargs)), "g")
    check_subsets(RR.unreduce_prod,
                  lambda g, x: [g, x, np.prod(x, axis=axis, keepdims=keepdims), axis, keepdims],
                  [g, x])


def test_unreduce_prod_tangent_in_g_with_zeros():
    x = np.array([[1.5, 0.0, -2.0], [0.0, 0.0, 1.0], [0.5, 2.0, 3.0]])
    check_along(RR.unreduce_prod, lambda g: [g, x, np.prod(x, axis=1), 1, False],
                [_x((3,), "g")])


def test_unreduce_prod_tangent_in_x_with_zeros():
    x = np.array([1.5, 0.0, -2.0, 0.7])
    check_along(RR.unreduce_prod, lambda g, x: [g, x, np.prod(x), None, False], [1.3, x])


@pytest.mark.parametrize("shape, axis", [((3, 4), None), ((3, 4), 0), ((3, 4), -1),
                                         ((2, 3, 4), 1), ((4,), None)], ids=_id)
def test_reverse_cumsum_tangent(shape, axis):
    x = _x(shape, "x")
    check_along(RR.reverse_cumsum, lambda g: [g, x, axis], [_x(np.shape(np.cumsum(x, axis)),
                                                               "g")])


@pytest.mark.parametrize("ddof", [0, 1])
@pytest.mark.parametrize("shape, kwargs", UNREDUCE[:-2], ids=_id)
def test_unreduce_var_tangent(shape, kwargs, ddof):
    axis, keepdims = kwargs.get("axis"), kwargs.get("keepdims", False)
    x = _x(shape, "x")
    g = _x(np.shape(np.var(x, **kwargs)), "g")
    check_subsets(RR.unreduce_var, lambda g, x: [g, x, axis, ddof, keepdims], [g, x])


NORMS = [((4,), {}), ((4,), {"ord": 2}), ((4,), {"ord": 3}), ((4,), {"ord": 1.5}),
         ((4,), {"ord": 1}), ((4,), {"ord": np.inf}), ((4,), {"ord": -np.inf}),
         ((3, 4), {}), ((3, 4), {"ord": "fro"}), ((3, 4), {"axis": 1}),
         ((3, 4), {"axis": 0, "keepdims": True}), ((3, 4), {"ord": 4, "axis": -1}),
         ((3, 4), {"ord": np.inf, "axis": 1, "keepdims": True}),
         ((2, 3, 4), {"axis": (0, 2)}), ((2, 3, 4), {"axis": (1, 2), "keepdims": True}),
         ((2, 3, 4), {"ord": "fro", "axis": (0, 1)})]


@pytest.mark.parametrize("shape, kwargs", NORMS, ids=_id)
def test_unreduce_norm_tangent(shape, kwargs):
    ord_, axis, keepdims = kwargs.get("ord"), kwargs.get("axis"), kwargs.get("keepdims", False)
    x = _x(shape, "x")
    g = _x(np.shape(np.linalg.norm(x, **kwargs)), "g")
    check_subsets(runtime_spread.unreduce_norm, lambda g, x: [
        g, x, np.linalg.norm(x, ord=ord_, axis=axis, keepdims=keepdims), ord_, axis, keepdims],
        [g, x])


@pytest.mark.parametrize("ord_", [None, 2, 3, 1.5])
def test_unreduce_norm_tangent_with_y_moving_on_its_own(ord_):
    """The formula is exact in y too, not only along y = norm(x)."""
    x = _x((3, 4), "x")
    y = np.linalg.norm(x, ord=ord_, axis=1) + 0.5
    check_subsets(runtime_spread.unreduce_norm, lambda g, x, y: [g, x, y, ord_, 1, False],
                  [_x((3,), "g"), x, y])


@pytest.mark.parametrize("ord_", [None, 1, 3, np.inf])
def test_unreduce_norm_tangent_is_finite_at_zeros(ord_):
    x = np.array([[1.5, 0.0, -2.0], [0.3, -0.2, 0.0]])
    y = np.linalg.norm(x, ord=ord_, axis=1)
    with np.errstate(all="raise"):
        tangent, _, _ = run_template(runtime_spread.unreduce_norm, [np.ones(2), x, y, ord_, 1, False], {},
                                     {"g": np.ones(2), "x": np.ones((2, 3)), "y": np.ones(2)})
    assert np.all(np.isfinite(tangent))


# ---- products ---------------------------------------------------------------------------
MATMUL = [((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 5)), ((3, 4), (4, 5)), ((2, 3, 4), (4, 5)),
          ((3, 4), (2, 4, 5)), ((2, 1, 3, 4), (5, 4, 2)), ((2, 3, 4), (4,)), ((4,), (2, 4, 5))]
DOT = [((), ()), ((), (3, 4)), ((3, 4), ()), ((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 5)),
       ((3, 4), (4, 5)), ((2, 3, 4), (4, 5)), ((3, 4), (2, 4, 5))]
INNER = [((), ()), ((), (3, 4)), ((4,), (4,)), ((3, 4), (4,)), ((2, 3, 4), (5, 4)),
         ((3, 4), (2, 5, 4))]
PAIRS = ([(L.matmul_adjoint_a, L.matmul_adjoint_b, np.matmul, s) for s in MATMUL]
         + [(L.dot_adjoint_a, L.dot_adjoint_b, np.dot, s) for s in DOT]
         + [(L.inner_adjoint_a, L.inner_adjoint_b, np.inner, s) for s in INNER])


@pytest.mark.parametrize("helper_a, helper_b, primitive, shapes", PAIRS,
                         ids=[f"{p.__name__}-{_id(s)}" for _, _, p, s in PAIRS])
def test_product_adjoint_tangents(helper_a, helper_b, primitive, shapes):
    a, b = _x(shapes[0], "a"), _x(shapes[1], "b")
    g = _x(np.shape(primitive(a, b)), "g")
    for helper in (helper_a, helper_b):
        check_subsets(helper, lambda g, a, b: [g, a, b], [g, a, b])


TENSORDOT = [((3, 4), (4, 5), 1), ((2, 3, 4), (3, 4, 5), 2), ((3, 4), (5, 6), 0),
             ((3, 4), (4, 3), ([1, 0], [0, 1])), ((2, 3, 4), (4, 2), ((2, 0), (0, 1))),
             ((3, 4), (4, 5), ([-1], [0])), ((4,), (4,), 1), ((3, 4), (3, 4), 2)]


@pytest.mark.parametrize("a, b, axes", TENSORDOT, ids=_id)
def test_tensordot_adjoint_tangents(a, b, axes):
    a, b = _x(a, "a"), _x(b, "b")
    g = _x(np.shape(np.tensordot(a, b, axes)), "g")
    for helper in (L.tensordot_adjoint_a, L.tensordot_adjoint_b):
        check_subsets(helper, lambda g, a, b: [g, a, b, axes], [g, a, b])


EINSUM = [("ij,jk->ik", [(3, 4), (4, 5)]), ("ij,jk", [(3, 4), (4, 5)]), ("i,i", [(4,), (4,)]),
          ("ii->", [(4, 4)]), ("ii->i", [(3, 3)]), ("ij->ji", [(3, 4)]),
          ("ij,j,k->ik", [(3, 4), (4,), (2,)]), ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
          ("ijk,k->i", [(2, 3, 4), (4,)]), ("ii,i->i", [(3, 3), (3,)]),
          ("ij,kl->", [(2, 3), (4, 2)])]


@pytest.mark.parametrize("subscripts, shapes", EINSUM, ids=[s for s, _ in EINSUM])
def test_einsum_operand_adjoint_tangent(subscripts, shapes):
    """operands arrive as the 3-tuple (a, b, c) the adjoint template passes, None-padded."""
    operands = [_x(s, (subscripts, k)) for k, s in enumerate(shapes)]
    g = _x(np.shape(np.einsum(subscripts, *operands)), "g")
    n = len(operands)
    for k in range(n):
        check_subsets(L.einsum_operand_adjoint, lambda g, *ops: [
            g, subscripts, tuple(ops) + (None,) * (3 - n), k], [g] + operands)


@pytest.mark.parametrize("helper, shape, rest", [
    (L.place_diagonal, (3, 4), [0, 0, 1]), (L.place_diagonal, (4, 3), [1, 0, 1]),
    (L.place_diagonal, (2, 3, 4), [-1, 2, 1]), (L.spread_trace, (4, 4), [0, 0, 1]),
    (L.spread_trace, (3, 4), [1, 0, 1]), (L.spread_trace, (2, 3, 4), [0, 1, 2]),
    (L.undiag, (4,), [1]), (L.undiag, (4, 4), [0]), (L.undiag, (3, 4), [-1]),
], ids=lambda v: getattr(v, "__name__", _id(v)))
def test_diagonal_adjoint_tangents(helper, shape, rest):
    x = _x(shape, "x")
    if helper is L.place_diagonal:
        g_shape = np.shape(np.diagonal(x, *rest))
    elif helper is L.spread_trace:
        g_shape = np.shape(np.trace(x, *rest))
    else:
        g_shape = np.shape(np.diag(x, *rest))
    check_along(helper, lambda g: [g, x] + rest, [_x(g_shape, "g")])


# ---- shape manipulation -----------------------------------------------------------------
def _pieces(shapes, key):
    return [_x(s, (key, k)) for k, s in enumerate(shapes)]


SHAPE_HELPERS = [
    (runtime_shape.reshape_like, (2, 6), lambda x: [np.zeros((3, 4))], {}),
    (runtime_shape.reshape_like, (12,), lambda x: [np.zeros((3, 4)), "F"], {}),
    (runtime_shape.reshape_like, (1,), lambda x: [1.0], {}),
    (runtime_shape.untranspose, (4, 3), lambda x: [], {}),
    (runtime_shape.untranspose, (2, 4, 3), lambda x: [(0, 2, 1)], {}),
    (runtime_shape.untranspose, (4, 2, 3), lambda x: [(-1, 0, 1)], {}),
    (runtime_shape.split_concatenated, (6, 4), lambda x: [_pieces([(3, 4), (2, 4), (1, 4)], "c")], {}),
    (runtime_shape.split_concatenated, (3, 5), lambda x: [_pieces([(3, 2), (3, 3)], "c"), 1], {}),
    (runtime_shape.split_concatenated, (7,), lambda x: [_pieces([(3,), (2, 2)], "c"), None], {}),
    (runtime_shape.split_hstacked, (5,), lambda x: [_pieces([(3,), (2,)], "h")], {}),
    (runtime_shape.split_hstacked, (2, 4), lambda x: [_pieces([(2, 3), (2, 1)], "h")], {}),
    (runtime_shape.split_hstacked, (2,), lambda x: [[1.0, 2.0]], {}),
    (runtime_shape.split_vstacked, (2, 3), lambda x: [_pieces([(3,), (3,)], "v")], {}),
    (runtime_shape.split_vstacked, (3, 3), lambda x: [_pieces([(2, 3), (1, 3)], "v")], {}),
    (runtime_shape.unstack, (2, 3, 4), lambda x: [_pieces([(3, 4), (3, 4)], "s")], {}),
    (runtime_shape.unstack, (3, 2), lambda x: [_pieces([(3,), (3,)], "s"), 1], {}),
    (runtime_shape.unstack, (3,), lambda x: [[1.0, 2.0, 3.0]], {}),
    (runtime_shape.split_array, (2, 3), lambda x: [_pieces([(3,), (3,)], "a")], {}),
    (runtime_shape.split_array, (3,), lambda x: [[1.0, 2.0, 3.0]], {}),
    (runtime_shape.split_array, (3, 4), lambda x: [np.zeros((3, 4))], {}),
    (runtime_shape.untile, (6,), lambda x: [np.zeros(3), 2], {}),
    (runtime_shape.untile, (2, 2, 6), lambda x: [np.zeros((2, 3)), (2, 1, 2)], {}),
    (runtime_shape.untile, (3,), lambda x: [1.0, 3], {}),
    (runtime_shape.unrepeat, (6,), lambda x: [np.zeros(3), 2], {}),
    (runtime_shape.unrepeat, (2, 6), lambda x: [np.zeros((2, 3)), 2, 1], {}),
    (runtime_shape.unrepeat, (2, 4), lambda x: [np.zeros((2, 3)), np.array([1, 0, 3]), -1], {}),
    (runtime_shape.unrepeat, (18,), lambda x: [np.zeros((2, 3)), 3], {}),
]


@pytest.mark.parametrize("helper, g_shape, rest, kwargs", SHAPE_HELPERS,
                         ids=[f"{h.__name__}-{_id(s)}" for h, s, _, _ in SHAPE_HELPERS])
def test_shape_helper_tangent(helper, g_shape, rest, kwargs):
    g = _x(g_shape, helper.__name__)
    fixed = rest(None)
    check_along(helper, lambda g: [g] + copy.deepcopy(fixed), [g], kwargs)


# ---- control flow, lists, in-place writes -----------------------------------------------
def test_add_adjoints_tangent():
    cases = [
        (lambda p, q: [p, q], [_x((3,), "p"), _x((3,), "q")]),
        (lambda p, q: [0.0, [p, q]], [_x((3,), "p"), _x((2,), "q")]),
        (lambda p, q: [[p, 1.0], [q, 2.0]], [_x((3,), "p"), _x((3,), "q")]),
        (lambda p, q: [{"w": p}, {"w": q, "b": 1.5}], [_x((3,), "p"), _x((3,), "q")]),
        (lambda p, q: [0.0, {"w": p, "b": q}], [_x((3,), "p"), 0.5]),
        (lambda p, q: [p, (q, q)], [_x((2, 3), "p"), _x((3,), "q")]),
    ]
    for build, thetas in cases:
        check_subsets(F.add_adjoints, build, thetas)


def test_add_lists_tangent():
    cases = [
        (lambda p, q, r: [[p, q], [r, r]], [_x((3,), "p"), 0.5, _x((3,), "r")]),
        (lambda p, q, r: [0.0, [p, q * r]], [_x((3,), "p"), 0.5, _x((3,), "r")]),
        (lambda p, q, r: [[p, q], 0.0], [_x((3,), "p"), 0.5, 1.0]),
    ]
    for build, thetas in cases:
        check_subsets(F.add_lists, build, thetas)


def _unchanged(before, after):
    if isinstance(before, dict):
        return set(before) == set(after) and all(_unchanged(before[k], after[k])
                                                  for k in before)
    if isinstance(before, (list, tuple)):
        return len(before) == len(after) and all(_unchanged(p, q)
                                                 for p, q in zip(before, after))
    return np.array_equal(before, after)


SCATTER = [
    # (a builder, x, index, g shape)
    (lambda a: a, np.zeros(5), np.array([0, 2, 0]), (3,)),
    (lambda a: a, np.zeros((3, 4)), (slice(None), 1), (3,)),
    (lambda a: a, np.zeros((3, 4)), 1, (4,)),
    (lambda a: 0.0, np.zeros((3, 4)), (np.array([0, 0]), np.array([1, 1])), (2,)),
    (lambda a: [a, 0.0], [np.zeros(3), 0.0], 1, ()),
    (lambda a: [a, 0.0], [np.zeros(3), 0.0], 0, (3,)),
    (lambda a: 0.0, [np.zeros(3), 0.0, 0.0], slice(0, 2), None),
    (lambda a: {"w": a}, {"w": np.zeros(3), "b": 0.0}, "b", ()),
    (lambda a: {"w": a}, {"w": np.zeros(3), "b": 0.0}, "w", (3,)),
]


@pytest.mark.parametrize("make_a, x, index, g_shape", SCATTER,
                         ids=[f"{type(x).__name__}-{_id(i)}" for _, x, i, _ in SCATTER])
def test_scatter_add_tangent(make_a, x, index, g_shape):
    a0 = _x(np.shape(x) if isinstance(x, np.ndarray) else (3,), "a")
    g0 = _x(g_shape if g_shape is not None else (3,), "g")

    def build(a, g):    # a slice of a list receives a list of items
        return [make_a(a), x, index, g if g_shape is not None else [g, 0.7]]
    check_subsets(F.scatter_add, build, [a0, g0])
    _, directions, _ = check_along(F.scatter_add, build, [a0, g0])
    saved = copy.deepcopy(directions)
    run_template(F.scatter_add, build(a0, g0), {}, directions)
    assert _unchanged(saved, directions), "scatter_add's tangent mutated d[a]"


@pytest.mark.parametrize("index", [np.array([0, 2, 0]), (slice(None), 1), 1], ids=_id)
def test_add_at_tangent(index):
    a = _x((4, 3), "a")
    g = _x(np.shape(a[index]) if not isinstance(index, np.ndarray) else (3, 3), "g")
    check_subsets(R.add_at, lambda a, g: [a, index, g], [a, g])
    directions = {"a": _x((4, 3), "da"), "g": _x(np.shape(g), "dg")}
    saved = copy.deepcopy(directions)
    run_template(R.add_at, [a.copy(), index, g], {}, directions)
    assert _unchanged(saved, directions), "add_at's tangent mutated d[a]"


@pytest.mark.parametrize("make_a, index", [
    (lambda a: a, 1), (lambda a: a, (slice(None), 0)), (lambda a: a, np.array([0, 2])),
    (lambda a: 0.0, 1), (lambda a: [a, a], 0)], ids=["row", "column", "rows", "zero", "list"])
def test_take_adjoint_tangent(make_a, index):
    check_along(F.take_adjoint, lambda a: [make_a(a), index], [_x((3, 4), "a")])


@pytest.mark.parametrize("make_a", [lambda a: a, lambda a: 0.0, lambda a: [a, 1.0],
                                    lambda a: {"w": a}], ids=["array", "zero", "list", "dict"])
def test_copy_adjoint_tangent(make_a):
    check_along(F.copy_adjoint, lambda a: [make_a(a)], [_x((3,), "a")])


@pytest.mark.parametrize("index", [1, (slice(None), 0), np.array([0, 2])], ids=_id)
def test_clear_adjoint_tangent(index):
    a = _x((3, 4), "a")
    check_along(F.clear_adjoint, lambda a: [a, index], [a])
    check_along(F.clear_adjoint, lambda a: [0.0, index], [a])
    directions = {"a": _x((3, 4), "da")}
    saved = copy.deepcopy(directions)
    tangent, _, _ = run_template(F.clear_adjoint, [a.copy(), index], {}, directions)
    assert _unchanged(saved, directions), "clear_adjoint's tangent mutated d[a]"
    assert np.all(tangent[index] == 0.0)


@pytest.mark.parametrize("x", [np.zeros((3, 4)), 0.0, [np.zeros(3), 0.0], (np.zeros(2), 0.0),
                               {"w": np.zeros(3), "b": 0.0}],
                         ids=["array", "scalar", "list", "tuple", "dict"])
def test_match_adjoint_tangent(x):
    def build(p, q):
        if isinstance(x, np.ndarray):
            return [p[0, 0] * 0.0 + q, x]         # a scalar adjoint broadcast to x
        if isinstance(x, float):
            return [q, x]
        if isinstance(x, dict):
            return [{"w": p[0, :3]}, x]            # the missing key becomes zeros
        return [[p[0, :np.size(x[0])], q], x]
    check_subsets(F.match_adjoint, build, [_x((3, 4), "p"), 0.4])
    check_along(F.match_adjoint, lambda p: [p, np.zeros((3, 4))], [_x((3, 4), "p")])


def test_spread_adjoint_tangent():
    items = [np.zeros((3, 4)), np.zeros(4), 0.0, np.zeros((3, 1))]
    check_along(F.spread_adjoint, lambda g: [g, items], [_x((3, 4), "g")])


def test_pop_adjoint_tangent_pops_the_tangent_list_too():
    def build(p, q):
        return [[p, q]]
    _, directions, args = check_along(F.pop_adjoint, build, [_x((3,), "p"), _x((2, 2), "q")])
    assert len(directions["a"]) == 1 and len(args[0]) == 1, \
        "the tangent list must lose its last item as the adjoint list does"
    check_along(F.pop_adjoint, lambda p: [0.0], [_x((3,), "p")])


def test_push_adjoint_tangent():
    items = [np.zeros(3), np.zeros(3)]
    check_subsets(F.push_adjoint, lambda p, g: [[p, p * 2.0], items, g],
                  [_x((3,), "p"), _x((3,), "g")])
    check_along(F.push_adjoint, lambda g: [0.0, items, g], [_x((3,), "g")])


# ---- completeness -----------------------------------------------------------------------
MODULES = (runtime, runtime_flow, runtime_linalg, runtime_arrays, runtime_checks,
           runtime_creation, runtime_spread, runtime_complex, runtime_shape, runtime_draws,
           runtime_bessel, runtime_polynomials, runtime_triangular, runtime_sinc,
           runtime_banded, runtime_simplex, runtime_reductions, runtime_keywords,
           runtime_products)


def _public_functions(module):
    return [obj for name, obj in vars(module).items()
            if not name.startswith("_") and inspect.isfunction(obj)
            and obj.__module__ == module.__name__]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_every_runtime_helper_has_a_tangent_or_is_nondifferentiable(module):
    """So forward-over-reverse never meets an unknown callee in generated gradient code."""
    registry = default_registry()
    missing = [f.__name__ for f in _public_functions(module)
               if registry.tangent(f) is None and not registry.is_nondifferentiable(f)]
    assert not missing, f"{module.__name__}: helpers without a tangent: {missing}"


@pytest.mark.parametrize("kind", ["tangent", "reverse"])
def test_runtime_helper_templates_mirror_the_helpers_signatures(kind):
    """Forward templates here, reverse ones in templates/runtime_adjoints*.py (grad of grad)."""
    registry = default_registry()
    for module in MODULES:
        for function in _public_functions(module):
            template = getattr(registry, kind)(function)
            if template is None:
                continue
            parameters = inspect.signature(function).parameters.values()
            assert template.params == tuple(p.name for p in parameters), function.__name__
            defaults = {p.name: p.default for p in parameters
                        if p.default is not inspect.Parameter.empty}
            assert template.defaults == defaults, function.__name__
            assert template.result not in template.params
