"""Reverse over reverse: s2s_ad.grad of a generated gradient.

A generated gradient calls the runtime helpers (s2s_ad/runtime*.py); differentiating it
again in reverse mode expands each helper's reverse template (templates/runtime_adjoints*.py),
so every helper generated code may call needs one or is declared nondifferentiable. The
templates themselves are checked against central differences by the spec rows in
tests/specs_runtime.py (tests/test_primitives.py); here: completeness, and grad of grad
of small realistic programs against finite differences of the first gradient.
"""
import numpy as np
import pytest

import s2s_ad
from s2s_ad import runtime_flow
from s2s_ad.ad.registry import default_registry

import specs_runtime
import specs_runtime_linalg
from gradcheck import inner_product_check, numeric_grad
from programs.reassigned import copy_appended
from test_tangents_runtime import MODULES, _public_functions

# Helpers that cannot have a reverse template, and why.
NO_REVERSE_TEMPLATE = {
    # pops the list adjoint in place and returns the popped item: reverse mode follows
    # values, so the second backward sweep would see the list after every pop. The
    # pipeline raises a located NonDifferentiableError naming hvp / hessian instead
    # (test_grad_of_a_gradient_that_pops_a_list_adjoint_is_a_located_error).
    runtime_flow.pop_adjoint,
}


# ---- completeness -----------------------------------------------------------------------
@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_every_runtime_helper_has_a_reverse_template_or_is_nondifferentiable(module):
    """So grad of grad never differentiates a helper's own source (np.moveaxis, loops)."""
    registry = default_registry()
    missing = [f.__name__ for f in _public_functions(module)
               if registry.reverse(f) is None and not registry.is_nondifferentiable(f)
               and f not in NO_REVERSE_TEMPLATE]
    assert not missing, f"{module.__name__}: helpers without a reverse template: {missing}"


def test_the_allow_list_holds_only_helpers_without_a_template():
    registry = default_registry()
    for helper in NO_REVERSE_TEMPLATE:
        assert registry.reverse(helper) is None and not registry.is_nondifferentiable(helper)


# ---- the templates at points the spec table's random samples miss ------------------------
def test_unreduce_prod_adjoint_is_exact_where_factors_are_zero():
    """One zero in a row, two zeros in a row, none: the helper's zero-safe path."""
    x = np.array([[0.0, 1.5, -0.7, 2.0], [0.0, 0.8, 0.0, -1.2], [0.4, 1.1, -0.9, 0.6]])
    inner_product_check(specs_runtime.use_prod_axis1, [np.array([0.3, -1.1, 0.8]), x], (0, 1))
    inner_product_check(specs_runtime.use_prod_all, [0.7, x[:2]], (0, 1))


def test_linear_scan_adjoint_on_flattened_arrays():
    """axis=None scans c and b flattened (a matrix's result is a vector)."""
    rng = np.random.default_rng(3)
    c, b = rng.standard_normal((2, 3)), rng.standard_normal((2, 3))
    inner_product_check(specs_runtime_linalg.use_linear_scan_flat, [c, b], (0, 1))
    inner_product_check(specs_runtime_linalg.use_linear_scan_flat, [c[0], 0.4], (0, 1))


# ---- grad of grad of small programs against differences of the gradient --------------------
B = np.array([[0.3, -1.2, 0.7, 0.5], [1.1, 0.4, -0.5, 0.9], [-0.8, 0.6, 1.3, -0.2]])
BT = B.T.copy()
B_FLAT = B.ravel()
W = np.array([[0.5, -0.3, 1.2, 0.8], [0.1, 0.9, -0.7, 0.4], [1.5, -1.1, 0.2, 0.6]])
C3 = np.arange(24.0).reshape(2, 3, 4) / 10.0 - 1.1
D3 = np.sin(np.arange(24.0)).reshape(4, 2, 3)
Q = np.array([[2.0, 0.3, -0.4], [0.1, 1.5, 0.2], [-0.3, 0.6, 1.8]])
V = np.array([0.7, -1.3, 0.4])
V4 = np.array([0.3, -0.8, 1.1, 0.6])
T = np.cos(np.arange(8.0)).reshape(2, 4)
D322 = np.cos(np.arange(12.0)).reshape(2, 2, 3)
PAD_W = np.sin(np.arange(30.0)).reshape(6, 5)
PAD_W6 = np.sin(np.arange(36.0)).reshape(6, 6)


def stacked(x):
    rows = [np.sin(x * B[0]), x * B[1] ** 2, np.exp(0.3 * x) * B[2]]
    return np.sum(np.stack(rows, axis=1) ** 3) + np.sum(np.array(rows) ** 2 * W)


def joined(x):
    a = np.sin(x * B)
    b = np.cos(x) * B[:1]
    c = np.concatenate([a, b], axis=0)
    h = np.hstack([a, x * W])
    v = np.vstack([W[0] * x, a])
    return np.sum(c ** 2) + np.sum(np.tanh(h)) + np.sum(v ** 3) \
        + np.sum(np.concatenate([a, b], None) ** 2)


def extremes(x):
    M = np.sin(x * B) + W
    return np.sum(np.max(M, axis=1) ** 2) + np.min(M) * x \
        + np.sum(np.max(M * x, axis=0, keepdims=True) ** 3)


def product_through_zero(x):
    """At x = 0.5 a factor is exactly zero."""
    v = np.array([x - 0.5, x, x + 1.0, 2.0 - x])
    return np.prod(v) + np.sum(np.prod(np.reshape(v, (2, 2)), axis=1) ** 2) \
        + np.prod(v * v, keepdims=True)[0]


def spreads(x):
    M = np.sin(x * B) + W
    return np.var(M) * x + np.sum(np.std(M, axis=0, ddof=1)) \
        + np.sum(np.var(M, axis=1, keepdims=True) ** 2)


def norms(x):
    M = np.cos(x * B) + W
    v = np.sin(x * B_FLAT)
    return np.linalg.norm(M) + np.sum(np.linalg.norm(M, axis=1) ** 2) + np.linalg.norm(v, 3) \
        + np.sum(np.linalg.norm(M, 1.5, axis=0, keepdims=True)) + np.linalg.norm(v * x, np.inf)


def cumulative(x):
    M = np.sin(x * B)
    return np.sum(np.cumsum(M, axis=1) ** 2) + np.sum(np.cumsum(M * M) ** 2 * B_FLAT)


def copies(x):
    v = np.sin(x * B[0])
    M = np.cos(x * B)
    return np.sum(np.tile(v, (2, 1)) ** 2 * T) + np.sum(np.repeat(v, 2) ** 3) \
        + np.sum(np.repeat(M, 2, axis=1) ** 2) + np.sum(np.tile(M, 2) * np.tile(W, 2) * M[0, 0])


def rearranged(x):
    T3 = np.sin(x * C3)
    return np.sum(np.transpose(T3, (2, 0, 1)) ** 2 * D3) \
        + np.sum(np.reshape(T3, (6, 4)) @ BT) ** 2 + np.sum(np.transpose(T3) ** 3)


def products(x):
    a = np.sin(x * B)
    b = np.cos(x * BT)
    u = np.sin(x * V)
    return np.sum(np.dot(a, b) ** 2) + np.inner(u, u * u) * x + np.sum(np.inner(a, W)) ** 2 \
        + np.tensordot(a, np.tanh(x * W), axes=2) ** 2 + np.sum(np.tensordot(a, b, axes=1) ** 3) \
        + np.dot(u, b[0]) ** 2 + np.sum(np.dot(x * 2.0, a) ** 2)


def contractions(x):
    a = np.sin(x * B)
    b = np.cos(x * BT)
    return np.sum(np.einsum("ij,jk->ik", a, b) ** 2) + np.einsum("ij,jk,k->", a, b, x * V) ** 2 \
        + np.sum(np.einsum("ii->i", a @ b) ** 3) + np.sum(np.einsum("ij->j", a) ** 2)


def diagonals(x):
    S = np.sin(x * Q)
    return np.trace(S @ S) + np.sum(np.diag(np.diag(S)) @ S) + np.sum(np.diagonal(S, 1) ** 3) \
        + np.trace(S, 1) ** 2 + np.sum(np.diag(S[0] * x, 1) @ np.cos(x * np.ones((4, 4))))


def cumulative_product(x):
    """At x = 0.5 a factor is exactly zero."""
    v = np.array([x - 0.5, x + 1.0, 2.0 - x, x * x])
    return np.sum(np.cumprod(v) ** 2) + np.sum(np.cumprod(np.reshape(v, (2, 2)), axis=0) ** 3)


def padded(x):
    M = np.sin(x * B)
    P = np.pad(M, ((1, 2), (0, 1)), constant_values=x * x)
    return np.sum(P ** 2 * PAD_W) + np.sum(np.pad(M[0], 2) ** 3)


def solved(x):
    s = np.linalg.solve(Q + x * np.eye(3), np.sin(x * V))
    return np.sum(s ** 2) + np.sum(np.linalg.solve(Q * x, np.cos(x * Q)) ** 3)


def gathered(x):
    """Repeated integer indices: a gather accumulates, a write keeps the last value."""
    v = np.sin(x * V)
    y = v[np.array([0, 0, 2])]
    z = np.zeros(3)
    z[np.array([1, 1])] = v[:2] * x
    return np.sum(y ** 3) + np.sum(z ** 2)


def summed(x):
    items = [np.sin(x * B[0]), x * x * B[1], np.cos(x)]
    return np.sum(sum(items) ** 3)


def popped(x):
    items = [x * B[0], np.sin(x) * B[1], x * x * B[2]]
    last = items.pop()
    return np.sum(last ** 3) + np.sum(np.stack(items) ** 3)


def looped(x):
    s = np.zeros(4)
    v = x * B[0]
    for i in range(3):
        s = s + np.cumsum(np.sin(v * (i + 1)))
        v = np.tanh(v) * np.max(v)
    return np.sum(s ** 2)


def written_in_loop(x):
    z = np.ones(4)
    for i in range(1, 4):
        z[i] = np.sin(x * (i + 1.0)) * z[i - 1] + x
    return np.sum(z ** 2)


def batched(x):
    A = np.sin(x * C3)
    return np.sum((A @ BT) ** 2) + np.sum((np.cos(x * BT) @ A) ** 2) \
        + np.sum((A @ np.sin(x * A[0, 0] * B[0])) ** 2)


# (program, the runtime helpers its gradient calls whose reverse templates it exercises)
SCALAR_PROGRAMS = [
    (stacked, ["unstack", "split_array"]),
    (joined, ["split_concatenated", "split_hstacked", "split_vstacked"]),
    (extremes, ["unreduce_extremum"]),
    (product_through_zero, ["unreduce_prod", "split_array"]),
    (spreads, ["unreduce_var"]),
    (norms, ["unreduce_norm"]),
    (cumulative, ["reverse_cumsum"]),
    (copies, ["untile", "unrepeat"]),
    (rearranged, ["untranspose", "reshape_like"]),
    (products, ["dot_adjoint_a", "dot_adjoint_b", "inner_adjoint_a", "inner_adjoint_b",
                "tensordot_adjoint_a", "tensordot_adjoint_b"]),
    (contractions, ["einsum_operand_adjoint"]),
    (diagonals, ["spread_trace", "undiag", "place_diagonal"]),
    (cumulative_product, ["linear_scan", "shifted"]),
    (padded, ["unpad", "unpad_values"]),
    (solved, ["as_columns"]),
    (gathered, ["scatter_add", "take_adjoint"]),
    (summed, ["spread_adjoint"]),
    (popped, ["push_adjoint", "add_lists"]),
    (looped, ["reverse_cumsum", "unreduce_extremum"]),
    (written_in_loop, ["clear_adjoint", "match_adjoint", "scatter_add", "take_adjoint"]),
    (batched, ["matmul_adjoint_a", "matmul_adjoint_b"]),
]


def _gradient_calling(fn, helpers):
    """grad(fn), checked to call `helpers` (whose reverse templates the test is about)."""
    df = s2s_ad.grad(fn)
    source = s2s_ad.derivative_source(df)
    missing = [h for h in helpers if f"{h}(" not in source]
    assert not missing, f"the gradient no longer calls {missing}: the test misses their templates"
    return df


@pytest.mark.parametrize("fn, helpers", SCALAR_PROGRAMS,
                         ids=[fn.__name__ for fn, _ in SCALAR_PROGRAMS])
def test_grad_of_grad_of_scalar_programs(fn, helpers):
    df = _gradient_calling(fn, helpers)
    d2 = s2s_ad.grad(df)
    for x in (0.5, 0.9):
        assert d2(x) == pytest.approx(numeric_grad(df, [x], 0, eps=1e-5), rel=1e-5, abs=1e-6)


# ---- Hessian-vector products by reverse over reverse: vjp of the gradient -----------------
def vec_reductions(v):
    M = np.outer(v, v + 1.0)
    return np.sum(np.max(M, axis=0) ** 2 * V4) + np.prod(v) + np.var(v) * np.std(v) \
        + np.linalg.norm(v) ** 3 + np.sum(np.cumsum(v) ** 2 * V4) + np.linalg.norm(v, 1.5) \
        + np.sum(np.var(M, axis=1, ddof=1) ** 2) + np.sum(np.prod(M, axis=1) ** 2)


def vec_shapes(v):
    parts = [v, v * v, np.sin(v)]
    S = np.stack(parts)
    C = np.concatenate(parts)
    R = np.repeat(v, np.array([1, 2, 0, 1]))
    return np.sum(np.tile(v, 2) ** 3 * T.ravel()) + np.sum(R ** 2 * np.sum(v)) \
        + np.sum(np.transpose(np.reshape(C, (3, 2, 2)), (1, 2, 0)) ** 3 * D322) \
        + np.sum(S ** 2 * W[:, :4]) + np.sum(np.hstack([v, v ** 3]) ** 2) \
        + np.sum(np.vstack([v, S]) ** 3)


def vec_linalg(v):
    M = np.reshape(np.concatenate([v, v * v, np.sin(v)]), (3, 4))
    N = M @ M.T + np.eye(3) * 3.0
    return np.trace(N @ N) + np.sum(np.einsum("ij,kj->ik", M, M) ** 2) \
        + np.sum(np.linalg.solve(N, M) ** 2) + np.tensordot(M, M, axes=([0, 1], [0, 1])) ** 2 \
        + np.sum(np.inner(M, M) ** 3) + np.sum(np.diag(np.diag(N)) * N) + np.sum(np.dot(M, v) ** 2)


def vec_arrays(v):
    c = np.cumprod(v)
    P = np.pad(np.outer(v, v), 1, constant_values=v[0])
    return np.sum(c ** 2) + np.sum(P ** 2 * PAD_W6) \
        + np.sum(np.cumprod(np.outer(v, v), axis=1) ** 2)


def vec_indexing(v):
    y = v[np.array([0, 0, 3, 1])]
    z = np.zeros(4)
    z[np.array([2, 2])] = v[1:3] * v[0]
    return np.sum(y ** 3 * v[2]) + np.sum(z ** 2 * v)


def vec_loop(v):
    z = np.ones(4)
    for i in range(1, 4):
        z[i] = np.sin(v[i] * z[i - 1]) + v[0] * v[i]
    return np.sum(z ** 3) + np.sum(np.cumsum(v * z) ** 2)


VECTOR_PROGRAMS = [
    (vec_reductions, ["unreduce_extremum", "unreduce_prod", "unreduce_var", "unreduce_norm",
                      "reverse_cumsum"]),
    (vec_shapes, ["unstack", "split_concatenated", "split_hstacked", "split_vstacked", "untile",
                  "unrepeat", "untranspose"]),
    (vec_linalg, ["einsum_operand_adjoint", "as_columns", "tensordot_adjoint_a",
                  "inner_adjoint_a", "dot_adjoint_b", "spread_trace", "undiag",
                  "matmul_adjoint_a"]),
    (vec_arrays, ["linear_scan", "shifted", "unpad", "unpad_values"]),
    (vec_indexing, ["add_at", "take_adjoint"]),   # (scatter_add: vec_loop, specs_runtime)
    (vec_loop, ["clear_adjoint", "copy_adjoint", "scatter_add", "take_adjoint", "match_adjoint"]),
]


@pytest.mark.parametrize("fn, helpers", VECTOR_PROGRAMS,
                         ids=[fn.__name__ for fn, _ in VECTOR_PROGRAMS])
def test_vjp_of_the_gradient_is_the_hessian_times_a_vector(fn, helpers):
    df = _gradient_calling(fn, helpers)
    hvp = s2s_ad.vjp(df)
    rng = np.random.default_rng(7)
    for v in (np.array([0.7, -0.4, 1.3, 0.9]), np.array([0.5, 1.2, -0.3, 0.8])):
        w = rng.standard_normal(4)
        expected = (df(v + 1e-5 * w) - df(v - 1e-5 * w)) / 2e-5
        np.testing.assert_allclose(hvp(v, w), expected, rtol=1e-5, atol=1e-6)


# ---- gradients of loops that build lists ---------------------------------------------------
def powers_appended(x):
    out = []
    for k in range(3):
        out.append(x ** (k + 1))
    return np.sum(np.array(out))


def sines_in_a_comprehension(x):
    vals = [np.sin(x * k) for k in range(1, 4)]
    return sum(vals)


def rows_appended_read_back(x):
    rows = []
    for k in range(3):
        rows.append(np.tanh(x * np.arange(1.0, 3.0) * k))
    return np.sum(rows[1] * rows[2]) + np.sum(np.stack(rows) ** 2)


@pytest.mark.parametrize("fn", [copy_appended, powers_appended, sines_in_a_comprehension,
                                rows_appended_read_back], ids=lambda fn: fn.__name__)
def test_grad_of_a_gradient_that_pops_a_list_adjoint(both_paths, fn):
    """A loop that appends to a list: its gradient pops the list adjoint (pop_adjoint);
    reverse mode puts the popped adjoint back (when one was popped) and sends the
    popped item's adjoint to the list adjoint's."""
    gradient = s2s_ad.grad(fn)
    expected = (gradient(0.7 + 1e-5) - gradient(0.7 - 1e-5)) / 2e-5
    assert s2s_ad.grad(s2s_ad.grad(fn))(0.7) == pytest.approx(expected, rel=1e-6)
    assert s2s_ad.hessian(fn)(0.7) == pytest.approx(expected, rel=1e-6)


def last_item_dropped(x):
    items = [x, 2.0 * x, 3.0 * x]
    items.pop()
    return np.sum(np.array(items)) * x


def test_a_pop_whose_item_is_dropped(both_paths):
    """`items.pop()` alone: the backward sweep reads the list as it was before the pop
    (its adjoint read the third item, which the pop had removed: IndexError)."""
    assert s2s_ad.grad(last_item_dropped)(0.5) == pytest.approx(6.0 * 0.5)
    assert s2s_ad.grad(s2s_ad.grad(last_item_dropped))(0.5) == pytest.approx(6.0)
