"""Forward (tangent) templates of the array families: numpy_reductions, numpy_shape and
numpy_linalg (numpy_signal's are checked in test_signal_and_weights.py, its completeness
here).

Most tangents are checked with tests/tangent_check.py (random directions for the operands
in `wrt`, zeros for the others, against central differences). Sequence arguments
(concatenate, stack, array of a list, ...) and arguments that depend on each other use
`check_along` below: it perturbs list / tuple / dict items, builds every argument from a
few parameters (so y = max(x) moves with x), and gives arguments that do not move the
symbolic ZERO, simplified as the forward engine does, so a dropped term that would leave a
wrongly shaped tangent fails. tests/test_tangents_runtime.py reuses it.
"""
import ast
import copy
import operator
import os
import re
import zlib

import gast
import numpy as np
import pytest

from s2s_ad.ad.registry import default_registry, derivative_target
from s2s_ad.ad.tangents import ZERO, simplify
from s2s_ad.runtime import zero_tangent
from s2s_ad.runtime_reductions import unreduce_extremum

from tangent_check import check_tangent

EPS = 1e-6


def _is_float_leaf(value):
    return isinstance(value, (float, np.floating)) and not isinstance(value, bool) or (
        isinstance(value, np.ndarray) and value.dtype.kind == "f")


def _has_float(value):
    if isinstance(value, dict):
        return any(_has_float(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_has_float(v) for v in value)
    return _is_float_leaf(value)


def difference(plus, minus, eps=EPS):
    """(plus - minus) / 2 eps, leaf by leaf, keeping the structure."""
    if isinstance(plus, dict):
        return {k: difference(plus[k], minus[k], eps) for k in plus}
    if isinstance(plus, (list, tuple)):
        items = [difference(p, m, eps) for p, m in zip(plus, minus)]
        return tuple(items) if isinstance(plus, tuple) else items
    if _is_float_leaf(plus) and np.all(np.isfinite(plus)):   # (ord=np.inf is no operand)
        delta = (np.asarray(plus, dtype=float) - np.asarray(minus, dtype=float)) / (2 * eps)
        return float(delta) if isinstance(plus, float) else delta
    return 0.0


def _moves(direction):
    if isinstance(direction, dict):
        return any(_moves(v) for v in direction.values())
    if isinstance(direction, (list, tuple)):
        return any(_moves(v) for v in direction)
    return bool(np.any(np.asarray(direction) != 0))


class _Tangents(gast.NodeTransformer):
    """d[p] -> __d_p for moving parameters, the symbolic ZERO(p) for the others."""

    def __init__(self, moving):
        self.moving = moving

    def visit_Subscript(self, node):
        target = derivative_target(node)
        if target is not None and target[1] is None:
            if target[0] in self.moving:
                return gast.Name(id=f"__d_{target[0]}", ctx=node.ctx, annotation=None,
                                 type_comment=None)
            return gast.Call(func=gast.Name(id=ZERO, ctx=gast.Load(), annotation=None,
                                            type_comment=None),
                             args=[gast.Name(id=target[0], ctx=gast.Load(), annotation=None,
                                             type_comment=None)], keywords=[])
        return self.generic_visit(node)


def run_template(primitive, args, kwargs, directions):
    """The template's (tangent, result, namespace): `directions` maps moving parameters to
    their tangents; every other d[p] is the symbolic zero, simplified as the engine does."""
    template = default_registry().tangent(primitive)
    assert template is not None, f"no tangent template for {primitive!r}"
    kwargs = kwargs or {}
    bound = dict(zip(template.params, args))
    bound.update(kwargs)
    for p in template.params:
        bound.setdefault(p, template.defaults.get(p))
    namespace = dict(template.namespace)
    namespace.update(bound)
    namespace[template.result] = primitive(*args, **kwargs)
    namespace[ZERO] = zero_tangent
    for p, direction in directions.items():
        namespace[f"__d_{p}"] = direction
    body = []
    for stmt in template.body:
        stmt = copy.deepcopy(stmt)
        stmt.targets = [_Tangents({template.result}).visit(t) for t in stmt.targets]
        stmt.value = simplify(_Tangents(set(directions)).visit(stmt.value))
        body.append(stmt)
    module = gast.gast_to_ast(gast.Module(body=body, type_ignores=[]))
    ast.fix_missing_locations(module)
    exec(compile(module, "<tangent template>", "exec"), namespace)
    return namespace[f"__d_{template.result}"], namespace[template.result], namespace


def assert_close(tangent, numeric, result, rtol=1e-5, atol=1e-7, where="tangent"):
    """Same structure as the primitive's result, same shapes, close values."""
    if isinstance(result, dict):
        assert isinstance(tangent, dict) and set(tangent) == set(result), where
        for k in result:
            assert_close(tangent[k], numeric[k], result[k], rtol, atol, f"{where}[{k!r}]")
        return
    if isinstance(result, (list, tuple)):
        assert isinstance(tangent, (list, tuple)) and len(tangent) == len(result), \
            f"{where}: {type(tangent).__name__} of {len(tangent)} for {len(result)} items"
        for k, (t, n, r) in enumerate(zip(tangent, numeric, result)):
            assert_close(t, n, r, rtol, atol, f"{where}[{k}]")
        return
    assert np.shape(tangent) == np.shape(result), \
        f"{where} has shape {np.shape(tangent)}, the result {np.shape(result)}"
    np.testing.assert_allclose(np.asarray(tangent, dtype=float), numeric, rtol=rtol,
                               atol=atol, err_msg=where)


def check_along(primitive, build, thetas, kwargs=None, seed=0, rtol=1e-5, atol=1e-7):
    """Assert the tangent of primitive(*build(*thetas)) along a random direction of the
    thetas; returns (tangent, directions, fresh arguments the template ran on)."""
    kwargs = kwargs or {}
    rng = np.random.default_rng(seed)
    thetas = [np.asarray(t, dtype=float) if np.ndim(t) else float(t) for t in thetas]
    vs = [rng.standard_normal(np.shape(t)) for t in thetas]

    def at(step):
        moved = [t + step * v for t, v in zip(thetas, vs)]
        # fresh objects every time: some helpers update their arguments in place
        return copy.deepcopy(build(*[float(m) if np.ndim(m) == 0 else m for m in moved]))

    template = default_registry().tangent(primitive)
    base, plus, minus = at(0.0), at(EPS), at(-EPS)
    directions = {}
    for name, b, p, m in zip(template.params, base, plus, minus):
        if _has_float(b):
            direction = difference(p, m)
            # the engine gives a literal list / tuple item-wise tangents (zeros for items
            # that do not move), never the symbolic ZERO
            if _moves(direction) or isinstance(b, (list, tuple, dict)):
                directions[name] = direction
    tangent, result, _ = run_template(primitive, base, kwargs, directions)
    numeric = difference(primitive(*plus, **kwargs), primitive(*minus, **kwargs))
    assert_close(tangent, numeric, result, rtol, atol)
    return tangent, directions, base


# =========================================================================================
# the tests
# =========================================================================================
def _rng(key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _x(shape, key, low=None):
    """Random input: a Python float for shape (), else an array (distinct values)."""
    rng = _rng((shape, key))
    x = rng.uniform(low, low + 1.5, shape) if low is not None else rng.standard_normal(shape)
    return float(x) if shape == () else x


def _id(value):
    return re.sub(r"\s+", "", repr(value))


# ---- reductions -------------------------------------------------------------------------
REDUCTION_OPTIONS = [
    ((), {}), ((4,), {}), ((3, 4), {}), ((3, 4), {"axis": 0}), ((3, 4), {"axis": -1}),
    ((3, 4), {"axis": 1, "keepdims": True}), ((3, 4), {"keepdims": True}),
    ((2, 3, 4), {}), ((2, 3, 4), {"axis": (0, 2)}), ((2, 3, 4), {"axis": (-1, 0)}),
    ((2, 3, 4), {"axis": (0, 2), "keepdims": True}), ((2, 3, 4), {"axis": -2}),
]
REDUCTIONS = [np.sum, np.mean, np.average, np.prod, np.max, np.amax, np.min, np.amin]


@pytest.mark.parametrize("primitive", REDUCTIONS, ids=lambda p: p.__name__)
@pytest.mark.parametrize("shape, kwargs", REDUCTION_OPTIONS,
                         ids=[f"{s}-{_id(k)}" for s, k in REDUCTION_OPTIONS])
def test_reduction_tangent(primitive, shape, kwargs):
    check_tangent(primitive, [_x(shape, "reduce")], kwargs, wrt=(0,))


@pytest.mark.parametrize("x, kwargs", [
    (np.array([1.5, 0.0, -2.0, 0.7]), {}),
    (np.array([[1.5, 0.0, -2.0], [0.3, 0.0, 0.0], [1.1, 2.0, -0.5]]), {"axis": 1}),
    (np.array([[1.5, 0.0, -2.0], [0.3, 0.0, 0.0], [1.1, 2.0, -0.5]]), {"axis": 0,
                                                                       "keepdims": True}),
    (np.array([[0.0, 0.0], [0.5, 2.0]]), {}),
], ids=["one-zero", "rows-with-zeros", "columns-keepdims", "two-zeros"])
def test_prod_tangent_with_zeros(x, kwargs):
    check_tangent(np.prod, [x], kwargs, wrt=(0,))


@pytest.mark.parametrize("primitive", [np.max, np.amax, np.min, np.amin],
                         ids=lambda p: p.__name__)
@pytest.mark.parametrize("kwargs", [{}, {"axis": 1}, {"axis": 0, "keepdims": True}],
                         ids=_id)
def test_extremum_tangent_shares_ties_like_its_adjoint(primitive, kwargs):
    """At ties there is no derivative; the tangent must be the transpose of the adjoint's
    equal sharing: <g, tangent(dx)> == <adjoint(g), dx>."""
    x = np.array([[3.0, 1.0, 3.0], [2.0, 2.0, 2.0], [-1.0, -1.0, 0.5]])
    x = x if primitive in (np.max, np.amax) else -x
    y = primitive(x, **kwargs)
    rng = _rng(("ties", kwargs))
    dx, g = rng.standard_normal(x.shape), rng.standard_normal(np.shape(y))
    tangent, _, _ = run_template(primitive, [x], kwargs, {"a": dx})
    adjoint = unreduce_extremum(g, x, y, kwargs.get("axis"), kwargs.get("keepdims", False))
    assert np.shape(tangent) == np.shape(y)
    np.testing.assert_allclose(np.sum(g * tangent), np.sum(adjoint * dx), rtol=1e-12)


@pytest.mark.parametrize("shape, kwargs", [
    ((4,), {}), ((3, 4), {}), ((3, 4), {"axis": 0}), ((3, 4), {"axis": -1}),
    ((2, 3, 4), {"axis": 1}), ((), {})], ids=lambda v: _id(v))
def test_cumsum_tangent(shape, kwargs):
    check_tangent(np.cumsum, [_x(shape, "cumsum")], kwargs, wrt=(0,))


VAR_OPTIONS = [
    ((4,), {}), ((4,), {"ddof": 1}), ((3, 4), {"axis": 0}), ((3, 4), {"axis": -1, "ddof": 1}),
    ((3, 4), {"axis": 1, "keepdims": True}), ((3, 4), {"keepdims": True, "ddof": 1}),
    ((2, 3, 4), {"axis": (0, 2)}), ((2, 3, 4), {"axis": (-1, 1), "ddof": 1,
                                                "keepdims": True}),
]


@pytest.mark.parametrize("primitive", [np.var, np.std], ids=lambda p: p.__name__)
@pytest.mark.parametrize("shape, kwargs", VAR_OPTIONS,
                         ids=[f"{s}-{_id(k)}" for s, k in VAR_OPTIONS])
def test_var_std_tangent(primitive, shape, kwargs):
    check_tangent(primitive, [_x(shape, "var")], kwargs, wrt=(0,))


NORM_OPTIONS = [
    ((4,), {}), ((4,), {"ord": 2}), ((4,), {"ord": 1}), ((4,), {"ord": 3}),
    ((4,), {"ord": 1.5}), ((4,), {"ord": np.inf}), ((4,), {"ord": -np.inf}),
    ((3, 4), {}), ((3, 4), {"ord": "fro"}), ((3, 4), {"axis": 1}),
    ((3, 4), {"axis": 0, "keepdims": True}), ((3, 4), {"ord": 3, "axis": -1}),
    ((3, 4), {"ord": np.inf, "axis": 1}), ((2, 3, 4), {"axis": (0, 2)}),
    ((2, 3, 4), {"axis": (1, 2), "keepdims": True}), ((2, 3, 4), {}),
]


@pytest.mark.parametrize("shape, kwargs", NORM_OPTIONS,
                         ids=[f"{s}-{_id(k)}" for s, k in NORM_OPTIONS])
def test_norm_tangent(shape, kwargs):
    check_tangent(np.linalg.norm, [_x(shape, "norm")], kwargs, wrt=(0,))


# ---- indexing and shape manipulation ----------------------------------------------------
GETITEM = [
    ((5,), 1), ((5,), -1), ((5,), slice(1, 4)), ((5,), slice(None, None, 2)),
    ((3, 4), (1, 2)), ((3, 4), (slice(None), 0)), ((3, 4), 2), ((2, 3, 4), (Ellipsis, 0)),
    ((5,), np.array([0, 2, 0, 3])), ((3, 4), (np.array([0, 2, 2]), np.array([1, 1, 3]))),
    ((3, 4), np.array([[True, False, True, False]] * 3)), ((3, 4), (None, 1)),
]


@pytest.mark.parametrize("shape, index", GETITEM, ids=[_id(i) for _, i in GETITEM])
def test_getitem_tangent(shape, index):
    check_tangent(operator.getitem, [_x(shape, "getitem"), index], wrt=(0,))


def test_getitem_tangent_of_a_list_item():
    """x a list of arrays: d[x] is the list of their tangents."""
    items = [_x((3,), "l0"), _x((2, 2), "l1")]
    check_along(operator.getitem, lambda p, q: [[p, q], 1], items)


SHAPE_CASES = [
    (np.transpose, (3, 4), [], {}), (np.transpose, (2, 3, 4), [(1, 0, 2)], {}),
    (np.transpose, (2, 3, 4), [(-1, 0, 1)], {}), (np.transpose, (), [], {}),
    (np.swapaxes, (2, 3, 4), [0, 2], {}), (np.swapaxes, (3, 4), [-1, 0], {}),
    (np.reshape, (3, 4), [(2, 6)], {}), (np.reshape, (3, 4), [(-1,)], {}),
    (np.reshape, (2, 3, 4), [(4, -1)], {"order": "F"}), (np.reshape, (1,), [()], {}),
    (np.ravel, (3, 4), [], {}), (np.ravel, (2, 3, 4), [], {"order": "F"}),
    (np.squeeze, (1, 3, 1), [], {}), (np.squeeze, (1, 3, 1), [2], {}),
    (np.squeeze, (3, 1, 4), [(1,)], {}),
    (np.expand_dims, (3, 4), [0], {}), (np.expand_dims, (3, 4), [-1], {}),
    (np.expand_dims, (3,), [(0, 2)], {}), (np.expand_dims, (), [0], {}),
    (np.atleast_1d, (), [], {}), (np.atleast_1d, (4,), [], {}), (np.atleast_2d, (), [], {}),
    (np.atleast_2d, (4,), [], {}), (np.atleast_2d, (3, 4), [], {}),
    (np.copy, (3, 4), [], {}), (np.copy, (), [], {}),
    (np.broadcast_to, (4,), [(3, 4)], {}), (np.broadcast_to, (3, 1), [(2, 3, 4)], {}),
    (np.broadcast_to, (), [(2, 3)], {}), (np.broadcast_to, (3, 4), [(3, 4)], {}),
    (np.tile, (3,), [2], {}), (np.tile, (2, 3), [(2, 1, 2)], {}), (np.tile, (), [3], {}),
    (np.repeat, (3,), [2], {}), (np.repeat, (2, 3), [2], {"axis": 1}),
    (np.repeat, (2, 3), [np.array([1, 0, 3])], {"axis": -1}), (np.repeat, (2, 3), [3], {}),
    (np.flip, (4,), [], {}), (np.flip, (2, 3, 4), [], {"axis": (0, 2)}),
    (np.flip, (3, 4), [-1], {}),
    (np.diagonal, (3, 4), [], {}), (np.diagonal, (4, 3), [1], {}),
    (np.diagonal, (3, 4), [-1], {}), (np.diagonal, (2, 3, 4), [0, 2, 1], {}),
    (np.diagonal, (2, 3, 4), [], {"offset": 1, "axis1": -1, "axis2": 0}),
    (np.array, (3, 4), [], {}), (np.array, (), [], {}), (np.array, (4,), [], {"ndmin": 2}),
    (np.asarray, (3, 4), [], {}), (np.asarray, (), [], {}),
]


@pytest.mark.parametrize("primitive, shape, rest, kwargs", SHAPE_CASES,
                         ids=[f"{p.__name__}-{s}-{_id(r)}-{_id(k)}"
                              for p, s, r, k in SHAPE_CASES])
def test_shape_tangent(primitive, shape, rest, kwargs):
    check_tangent(primitive, [_x(shape, primitive.__name__)] + rest, kwargs, wrt=(0,))


def test_copy_tangent_is_a_fresh_array():
    """The copy may be written in place later: its tangent must not share da."""
    x, dx = _x((3,), "c"), _x((3,), "dc")
    tangent, _, _ = run_template(np.copy, [x], {}, {"a": dx})
    assert not np.shares_memory(tangent, dx)


A34, B24, C14 = (3, 4), (2, 4), (1, 4)
SEQUENCES = [
    (np.concatenate, [A34, B24, C14], {}), (np.concatenate, [(3, 2), (3, 4)], {"axis": 1}),
    (np.concatenate, [(2, 3, 1), (2, 3, 2)], {"axis": -1}),
    (np.concatenate, [(3,), (2, 2)], {"axis": None}), (np.concatenate, [(3,), (4,)], {}),
    (np.stack, [(3, 4), (3, 4)], {}), (np.stack, [(3,), (3,), (3,)], {"axis": 1}),
    (np.stack, [(2, 3), (2, 3)], {"axis": -1}), (np.stack, [(), ()], {}),
    (np.hstack, [(3,), (2,)], {}), (np.hstack, [(2, 3), (2, 1)], {}), (np.hstack, [(), ()], {}),
    (np.vstack, [(3,), (3,)], {}), (np.vstack, [(2, 3), (1, 3)], {}), (np.vstack, [(), ()], {}),
    (np.array, [(3,), (3,)], {}), (np.array, [(), (), ()], {}),
    (np.array, [(2, 3), (2, 3)], {"ndmin": 4}), (np.asarray, [(3,), (3,)], {}),
    (np.asarray, [(), ()], {}),
]


@pytest.mark.parametrize("moving", ["all", "first", "last"])
@pytest.mark.parametrize("primitive, shapes, kwargs", SEQUENCES,
                         ids=[f"{p.__name__}-{_id(s)}-{_id(k)}" for p, s, k in SEQUENCES])
def test_sequence_tangent(primitive, shapes, kwargs, moving):
    """d[arrays] is the list of the items' tangents (zeros for items that do not move)."""
    items = [_x(s, (primitive.__name__, k)) for k, s in enumerate(shapes)]
    frozen = {"all": (), "first": range(1, len(items)), "last": range(len(items) - 1)}[moving]

    def build(*thetas):
        listed = [items[k] if k in frozen else t for k, t in enumerate(thetas)]
        return [listed]
    check_along(primitive, build, items, kwargs)


def test_sequence_tangent_of_a_tuple():
    items = (_x((2, 3), "t0"), _x((2, 3), "t1"))
    check_along(np.stack, lambda p, q: [(p, q)], list(items), {"axis": 1})


# ---- linear algebra ---------------------------------------------------------------------
PRODUCT_SHAPES = {
    np.dot: [((), ()), ((), (3, 4)), ((3, 4), ()), ((4,), (4,)), ((3, 4), (4,)),
             ((4,), (4, 5)), ((3, 4), (4, 5)), ((2, 3, 4), (4, 5)), ((3, 4), (2, 4, 5)),
             ((2, 3, 4), (2, 4, 5))],
    np.matmul: [((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 5)), ((3, 4), (4, 5)),
                ((2, 3, 4), (4, 5)), ((3, 4), (2, 4, 5)), ((2, 1, 3, 4), (5, 4, 2)),
                ((2, 3, 4), (4,)), ((4,), (2, 4, 5))],
    np.outer: [((3,), (4,)), ((2, 3), (4,)), ((), (3,)), ((3,), ())],
    np.inner: [((), ()), ((), (3, 4)), ((4,), (4,)), ((3, 4), (4,)), ((2, 3, 4), (5, 4)),
               ((3, 4), (2, 5, 4))],
}
PRODUCTS = [(p, s, w) for p, shapes in PRODUCT_SHAPES.items() for s in shapes
            for w in [(0,), (1,), (0, 1)]]


@pytest.mark.parametrize("primitive, shapes, wrt", PRODUCTS,
                         ids=[f"{p.__name__}-{_id(s)}-wrt{_id(w)}" for p, s, w in PRODUCTS])
def test_product_tangent(primitive, shapes, wrt):
    args = [_x(s, (primitive.__name__, k)) for k, s in enumerate(shapes)]
    check_tangent(primitive, args, wrt=wrt)


@pytest.mark.parametrize("primitive, shapes", [(p, s) for p, shapes in PRODUCT_SHAPES.items()
                                               for s in shapes],
                         ids=lambda v: getattr(v, "__name__", _id(v)))
def test_product_tangent_with_symbolic_zeros(primitive, shapes):
    """One operand constant: the engine drops its term; the other must keep y's shape."""
    args = [_x(s, (primitive.__name__, "z", k)) for k, s in enumerate(shapes)]
    for moving in range(2):
        check_along(primitive, lambda t, k=moving: [t if j == k else args[j] for j in range(2)],
                    [args[moving]])


TENSORDOT = [
    ((3, 4), (4, 5), 1), ((2, 3, 4), (3, 4, 5), 2), ((3, 4), (5, 6), 0),
    ((3, 4), (4, 3), ([1, 0], [0, 1])), ((2, 3, 4), (4, 2), ((2, 0), (0, 1))),
    ((3, 4), (4, 5), ([-1], [0])), ((4,), (4,), 1), ((3, 4), (3, 4), 2), ((4, 3), (4,), (0, 0)),
]


@pytest.mark.parametrize("wrt", [(0,), (1,), (0, 1)], ids=_id)
@pytest.mark.parametrize("a, b, axes", TENSORDOT, ids=[_id(c) for c in TENSORDOT])
def test_tensordot_tangent(a, b, axes, wrt):
    args = [_x(a, "td0"), _x(b, "td1"), axes]
    check_tangent(np.tensordot, args, wrt=wrt)


@pytest.mark.parametrize("shape, kwargs", [
    ((4, 4), {}), ((3, 4), {"offset": 1}), ((4, 3), {"offset": -1}),
    ((2, 3, 4), {"axis1": 1, "axis2": 2}), ((2, 3, 4), {"offset": 1, "axis1": -1, "axis2": 0}),
], ids=lambda v: _id(v))
def test_trace_tangent(shape, kwargs):
    check_tangent(np.trace, [_x(shape, "trace")], kwargs, wrt=(0,))


@pytest.mark.parametrize("shape, k", [((4,), 0), ((4,), 1), ((4,), -2), ((4, 4), 0),
                                      ((3, 4), 1), ((4, 3), -1)], ids=lambda v: _id(v))
def test_diag_tangent(shape, k):
    check_tangent(np.diag, [_x(shape, "diag"), k], wrt=(0,))


EINSUM = [
    ("ij,jk->ik", [(3, 4), (4, 5)]), ("ij,jk", [(3, 4), (4, 5)]), ("i,i", [(4,), (4,)]),
    ("i,j->ij", [(3,), (4,)]), ("ij,ij->i", [(3, 4), (3, 4)]), ("ii->", [(4, 4)]),
    ("ii", [(4, 4)]), ("ij->ji", [(3, 4)]), ("ijk->k", [(2, 3, 4)]), ("ii->i", [(3, 3)]),
    ("ij,j,k->ik", [(3, 4), (4,), (2,)]), ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]), ("ij, jk -> ik", [(2, 3), (3, 2)]),
]


@pytest.mark.parametrize("subscripts, shapes", EINSUM, ids=[s for s, _ in EINSUM])
def test_einsum_tangent(subscripts, shapes):
    operands = [_x(s, (subscripts, k)) for k, s in enumerate(shapes)]
    n = len(operands)
    for wrt in [tuple(range(1, n + 1))] + [(k,) for k in range(1, n + 1)]:
        check_tangent(np.einsum, [subscripts] + operands, wrt=wrt)
        check_along(np.einsum, lambda *t, w=wrt: [subscripts] + [
            t[k] if k + 1 in w else operands[k] for k in range(n)], operands)


def test_einsum_tangent_with_optimize():
    operands = [_x((3, 4), "o0"), _x((4, 5), "o1"), _x((5, 2), "o2")]
    check_tangent(np.einsum, ["ij,jk,kl->il"] + operands, {"optimize": True}, wrt=(1, 2, 3))


# ---- completeness -----------------------------------------------------------------------
FILES = ("numpy_reductions.py", "numpy_shape.py", "numpy_linalg.py", "numpy_signal.py")


def _template_dir():
    import s2s_ad.templates
    return os.path.dirname(s2s_ad.templates.__file__)


@pytest.mark.parametrize("filename", FILES)
def test_every_adjoint_has_a_tangent_in_the_same_file(filename):
    registry = default_registry()
    path = os.path.join(_template_dir(), filename)
    missing = []
    for primitive in registry.primitives("adjoint"):
        if os.path.samefile(registry.reverse(primitive).location.filename, path):
            template = registry.tangent(primitive)
            if template is None or not os.path.samefile(template.location.filename, path):
                missing.append(primitive)
    assert not missing, f"{filename}: adjoints without a tangent beside them: {missing}"


@pytest.mark.parametrize("filename", FILES)
def test_tangent_sits_right_after_its_adjoint(filename):
    """Reverse and forward templates of one primitive sit side by side."""
    registry = default_registry()
    path = os.path.join(_template_dir(), filename)
    source = open(path).read()
    for primitive in registry.primitives("adjoint"):
        adjoint = registry.reverse(primitive)
        if not os.path.samefile(adjoint.location.filename, path):
            continue
        tangent = registry.tangent(primitive)
        after = source.split(f"def {adjoint.name}(", 1)[1]
        following = re.search(r"^def (\w+)\(", after.split("\n", 1)[1], re.M)
        assert following and following.group(1) == tangent.name, \
            f"{tangent.name} should follow {adjoint.name} in {filename}"
