"""End to end: small programs using np.linalg.solve, slogdet, matrix_power and cholesky,
np.cumprod, np.diff, np.roll, np.sort, np.tril / np.triu and np.pad, each against
central differences in reverse (grad) and forward (jvp) mode, and through second
derivatives (hvp, forward-over-reverse) where it matters: cumprod at exact zeros. Also
the runtime helpers these templates call (tangents, a standalone file) and np.pad's
error for modes other than 'constant'.
"""
import textwrap

import numpy as np
import pytest

import s2s_ad
from s2s_ad import runtime_arrays as A
from s2s_ad import runtime_linalg as L
from s2s_ad.cli import main

from gradcheck import EPS, assert_grad_matches, forward_check, numeric_grad
from test_tangents_arrays import check_along

RNG = np.random.default_rng(2024)


def check_both_modes(fn, args, wrt=0):
    """grad against central differences, and jvp along a random direction too."""
    assert_grad_matches(fn, args, wrt)
    forward_check(fn, args, wrt if isinstance(wrt, tuple) else (wrt,))


def check_hvp(fn, x):
    """hvp (forward over reverse) against central differences of the gradient."""
    v = RNG.standard_normal(np.shape(x))
    df = s2s_ad.grad(fn)
    expected = (df(x + EPS * v) - df(x - EPS * v)) / (2 * EPS)
    np.testing.assert_allclose(s2s_ad.hvp(fn)(x, v), expected, rtol=1e-5, atol=1e-6)


# ---- linear algebra ---------------------------------------------------------------------
def ridge_loss(X, y, lam):
    """Least squares: fit w by the normal equations, score the residual."""
    w = np.linalg.solve(X.T @ X + lam * np.eye(X.shape[1]), X.T @ y)
    r = X @ w - y
    return np.sum(r * r) + lam * np.sum(w * w)


def gaussian_nll(F, log_noise, Y):
    """Negative log-likelihood of the columns of Y under N(0, F F^T + exp(log_noise) I)."""
    S = F @ F.T + np.exp(log_noise) * np.eye(F.shape[0])
    sign, logdet = np.linalg.slogdet(S)
    alpha = np.linalg.solve(S, Y)
    n, m = Y.shape
    return 0.5 * (m * logdet + np.sum(Y * alpha) + n * m * np.log(2.0 * np.pi))


def markov_cost(P, p0, cost):
    """Expected cost after 5 steps of a chain with (unnormalised) transition matrix P."""
    return p0 @ np.linalg.matrix_power(P, 5) @ cost


def logdet_by_cholesky(A):
    return 2.0 * np.sum(np.log(np.diagonal(np.linalg.cholesky(A @ A.T + np.eye(3)))))


def logdet_by_slogdet(A):
    return np.linalg.slogdet(A @ A.T + np.eye(3))[1]


def batched_solve(A, B):
    return np.sum(np.linalg.solve(A + 4.0 * np.eye(3), B) ** 2)


def test_ridge_regression_with_solve():
    X, y = RNG.standard_normal((8, 3)), RNG.standard_normal(8)
    check_both_modes(ridge_loss, [X, y, 0.7], wrt=(0, 1, 2))


def test_gaussian_log_likelihood_with_slogdet_and_solve():
    F, Y = RNG.standard_normal((4, 2)), RNG.standard_normal((4, 3))
    check_both_modes(gaussian_nll, [F, -0.3, Y], wrt=(0, 1, 2))
    check_hvp(lambda F: gaussian_nll(F, -0.3, Y), F)


def test_solve_with_a_batch_of_matrices_and_one_vector():
    A, b = RNG.standard_normal((2, 3, 3)), RNG.standard_normal(3)
    check_both_modes(batched_solve, [A, b], wrt=(0, 1))


def test_markov_chain_with_matrix_power():
    P = RNG.uniform(0.1, 0.5, (3, 3))
    check_both_modes(markov_cost, [P, np.array([0.5, 0.3, 0.2]), np.array([1.0, -2.0, 0.5])],
                     wrt=(0, 1, 2))


def test_cholesky_and_slogdet_give_one_log_determinant_and_one_gradient():
    A = RNG.standard_normal((3, 3))
    g = assert_grad_matches(logdet_by_cholesky, [A])[0]
    np.testing.assert_allclose(g, s2s_ad.grad(logdet_by_slogdet)(A), rtol=1e-10)
    forward_check(logdet_by_cholesky, [A], (0,))
    check_hvp(logdet_by_cholesky, A)


# ---- np.cumprod, zeros included ----------------------------------------------------------
def expected_survival(hazard, weights):
    """Survival curve from per-period hazards (a hazard of 1.0 kills: a zero factor)."""
    return np.sum(np.cumprod(1.0 - hazard) * weights)


def cumprod_rows(x):
    return np.sum(np.cumprod(x, axis=1) * np.arange(1.0, 6.0))


def cumprod_columns(x):
    return np.sum(np.cumprod(x, axis=-2) ** 2)


def cumprod_all(x):
    return np.sum(np.cumprod(x) * np.arange(1.0, 11.0))


WITH_ZEROS = [
    np.array([[1.5, 0.0, 2.0, -1.0, 0.7], [0.5, 0.7, 0.0, 0.0, 1.2]]),     # one zero, two
    np.array([[0.0, 1.3, 2.0, -1.0, 0.7], [0.5, 0.7, 1.1, 0.9, 0.0]]),     # first, last
    np.array([[0.0, 0.0, 0.0, 0.0, 0.0], [0.8, -1.2, 0.6, 1.4, 0.9]]),     # all, none
]


def test_survival_probabilities_with_a_certain_death():
    hazard = np.array([0.1, 0.3, 1.0, 0.2, 0.05, 0.4])
    weights = np.array([1.0, 2.0, -1.0, 0.5, 3.0, 1.5])
    check_both_modes(expected_survival, [hazard, weights], wrt=(0, 1))
    check_hvp(lambda h: expected_survival(h, weights), hazard)


@pytest.mark.parametrize("x", WITH_ZEROS, ids=["zeros", "ends", "all-or-none"])
@pytest.mark.parametrize("fn", [cumprod_rows, cumprod_columns, cumprod_all],
                         ids=lambda f: f.__name__)
def test_cumprod_is_exact_at_zeros(fn, x):
    check_both_modes(fn, [x])
    check_hvp(fn, x)


def test_cumprod_gradient_at_zeros_is_the_product_of_the_other_factors():
    x = np.array([2.0, 0.0, 3.0, 0.0, 5.0])
    g = s2s_ad.grad(lambda x: np.cumprod(x)[-1])(x)
    np.testing.assert_array_equal(g, [0.0, 0.0, 0.0, 0.0, 0.0])
    g = s2s_ad.grad(lambda x: np.cumprod(x)[2])(x)
    np.testing.assert_array_equal(g, [0.0, 6.0, 0.0, 0.0, 0.0])


# ---- diff, roll, sort, tril / triu, pad -------------------------------------------------
def smoothness_penalty(field, weight):
    """Squared first differences along rows and second differences down columns."""
    return weight * np.sum(np.diff(field) ** 2) + np.sum(np.diff(field, n=2, axis=0) ** 2)


def circular_roughness(x):
    return np.sum((x - np.roll(x, -1)) ** 2) + np.sum(x * np.roll(x, (2, -3), axis=(0, 1)))


def trimmed_mean_loss(x):
    """Mean of the middle values of each row (the two largest and the smallest dropped)."""
    return np.sum(np.mean(np.sort(x, axis=-1)[:, 1:-2], axis=1) ** 2)


def largest_three(x):
    return np.sum(np.sort(x, axis=None)[-3:] * np.array([1.0, 2.0, 3.0]))


def masked_factor_loss(W, A):
    """Fit A by L L^T with L the strictly-lower part of W plus a fixed diagonal, and keep
    W's upper part small."""
    L_ = np.tril(W, k=-1) + 2.0 * np.eye(W.shape[0])
    return np.sum((L_ @ L_.T - A) ** 2) + 0.1 * np.sum(np.triu(W, 1) ** 2)


def blurred_border(x, fill):
    """A 3-point moving sum of a zero-padded row, with a learnable value past the ends."""
    p = np.pad(x, ((0, 0), (1, 1)), constant_values=fill)
    return np.sum((p[:, :-2] + p[:, 1:-1] + p[:, 2:]) ** 2)


def padded_empty(x):
    return np.sum(np.pad(x, 1, mode="empty") ** 2)


def test_smoothness_penalty_with_diff():
    field = RNG.standard_normal((5, 6))
    check_both_modes(smoothness_penalty, [field, 0.5], wrt=(0, 1))
    check_hvp(lambda f: smoothness_penalty(f, 0.5), field)


def test_circular_roughness_with_negative_and_tuple_shifts():
    check_both_modes(circular_roughness, [RNG.standard_normal((4, 5))])


def test_trimmed_mean_with_sort():
    check_both_modes(trimmed_mean_loss, [RNG.standard_normal((3, 6))])
    check_both_modes(largest_three, [RNG.standard_normal((3, 4))])
    check_hvp(trimmed_mean_loss, RNG.standard_normal((3, 6)))


def test_sort_gradient_follows_each_value():
    x = np.array([3.0, -1.0, 2.0])
    g = s2s_ad.grad(lambda x: np.sum(np.sort(x) * np.array([1.0, 10.0, 100.0])))(x)
    np.testing.assert_array_equal(g, [100.0, 1.0, 10.0])


def test_triangle_masked_matrix_loss():
    W, A = RNG.standard_normal((4, 4)), RNG.standard_normal((4, 4))
    check_both_modes(masked_factor_loss, [W, A], wrt=(0, 1))
    check_hvp(lambda W: masked_factor_loss(W, A), W)


def test_constant_padding_with_a_learnable_fill():
    check_both_modes(blurred_border, [RNG.standard_normal((2, 5)), 0.3], wrt=(0, 1))


@pytest.mark.parametrize("make", [s2s_ad.grad, s2s_ad.jvp], ids=["grad", "jvp"])
def test_padding_with_undefined_values_is_a_clear_error(make):
    """'empty' leaves the padded values undefined (every other mode is differentiated:
    tests/specs_pad_modes.py, maximum / minimum / median through the entries they pick)"""
    x = RNG.standard_normal(4)
    args = (x,) if make is s2s_ad.grad else (x, np.ones(4))
    with pytest.raises(s2s_ad.MissingDerivativeError, match="not mode='empty'") as info:
        make(padded_empty)(*args)
    assert info.value.filename == __file__      # a literal: found when the code is built
    # a mode known only when the code runs: the same s2s_ad error, from the runtime helper
    args = (x, "empty") if make is s2s_ad.grad else (x, "empty", np.ones(4))
    with pytest.raises(s2s_ad.MissingDerivativeError, match="np.pad with mode=.*not "
                       "mode='empty'"):
        make(padded_by_mode)(*args)


def padded_by_mode(x, mode):
    return np.sum(np.pad(x, 1, mode=mode) ** 2)


# ---- the runtime helpers behind them ----------------------------------------------------
def _scan_reference(c, b, reverse):
    h, out = 0.0, []
    for ci, bi in (zip(c[::-1], b[::-1]) if reverse else zip(c, b)):
        h = ci * h + bi
        out.append(h)
    return np.array(out[::-1] if reverse else out)


@pytest.mark.parametrize("n", [1, 2, 5, 8, 13])
@pytest.mark.parametrize("reverse", [False, True])
def test_linear_scan_solves_the_recurrence(n, reverse):
    c, b = RNG.standard_normal((3, n)), RNG.standard_normal((3, n))
    c[:, ::3] = 0.0
    got = A.linear_scan(c, b, 1, reverse)
    for row in range(3):
        np.testing.assert_allclose(got[row], _scan_reference(c[row], b[row], reverse),
                                   rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(A.linear_scan(c.T, b.T, 0, reverse), got.T, rtol=1e-12)


@pytest.mark.parametrize("axis, reverse", [(None, False), (0, True), (-1, False), (1, True)])
def test_scan_and_shift_tangents(axis, reverse):
    c, b = RNG.standard_normal((3, 4)), RNG.standard_normal((3, 4))
    c[1, 2] = 0.0
    flat = (lambda v: np.ravel(v)) if axis is None else (lambda v: v)
    check_along(A.linear_scan, lambda c, b: [flat(c), flat(b), axis, reverse], [c, b])
    check_along(A.shifted, lambda v, f: [v, axis, f, reverse], [c, 0.7])


def test_solve_and_pad_helper_tangents():
    a = RNG.standard_normal((2, 3, 3))
    check_along(L.as_columns, lambda v: [v, a, v], [RNG.standard_normal((2, 3))])
    widths = A.pad_widths(np.zeros((2, 3)), ((1, 2), (0, 1)))
    g = RNG.standard_normal((5, 4))
    check_along(A.unpad, lambda g: [g, widths], [g])
    check_along(A.unpad_values, lambda g: [g, widths, np.zeros(2)], [g])


MODEL = '''
import numpy as np


def loss(x, hazard, A, b):
    survival = np.cumprod(1.0 - hazard)
    w = np.linalg.solve(A, b)
    smooth = np.sum(np.diff(np.pad(x, 1), n=2) ** 2)
    return np.sum(survival * np.sort(x)) + np.sum(w * x[:3]) + smooth
'''


def test_a_standalone_file_carries_the_new_helpers(tmp_path, monkeypatch, capsys):
    (tmp_path / "more_model.py").write_text(textwrap.dedent(MODEL))
    monkeypatch.chdir(tmp_path)
    assert main(["grad", "more_model.py:loss", "--wrt", "x,hazard,A,b", "--print"]) == 0
    text = capsys.readouterr().out
    assert "import s2s_ad" not in text and "from s2s_ad" not in text
    for helper in ("def linear_scan", "def shifted", "def pad_widths", "def unpad",
                   "def as_columns"):
        assert helper in text
    namespace = {}
    exec(compile(text, "grad_more_model.py", "exec"), namespace)
    import more_model
    args = [RNG.standard_normal(5), np.array([0.2, 1.0, 0.1, 0.3, 0.5]),
            RNG.standard_normal((3, 3)) + 3.0 * np.eye(3), RNG.standard_normal(3)]
    got = namespace["grad_loss"](*args)
    for k, g in enumerate(got):
        np.testing.assert_allclose(g, numeric_grad(more_model.loss, args, k), rtol=1e-5,
                                   atol=1e-6)
