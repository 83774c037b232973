"""A max shifted out and added back (log-sum-exp, softmax, log-softmax) is a constant for
differentiation when the output provably does not depend on it
(analyses/shift_invariance.py); and a row-wise reduction's adjoint reaches an elementwise
statement with its axes put back, not as a spread array (ad/uniform.py spread_view).
Each source check holds a small function's generated text; every case is also checked
against finite differences on both derivative paths, with ties in the max, float32 and
broadcasting shapes."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, hvp_on, jvp_on
from golden_files import assert_matches_golden
from gradcheck import assert_grad_matches, numeric_grad

RNG = np.random.default_rng(211)


def log_sum_exp(z):
    m = np.max(z)
    return m + np.log(np.sum(np.exp(z - m)))


def row_log_sum_exp(Z):
    m = Z.max(axis=1)
    return np.sum(m + np.log(np.sum(np.exp(Z - m[:, None]), axis=1)))


def log_softmax_loss(W, X):
    logits = X @ W
    logits = logits - logits.max(axis=-1, keepdims=True)
    log_probs = logits - np.log(np.exp(logits).sum(axis=-1, keepdims=True))
    return -np.mean(log_probs[:, 0])


def softmax_weighted(z, v):
    e = np.exp(z - np.max(z))
    return np.sum(v * e / np.sum(e))


def min_shifted(z):
    m = np.min(z, axis=0, keepdims=True)
    return np.sum(m - np.log(np.mean(np.exp(m - z), axis=0)))


# the shift reaches the output: its adjoint is kept
def shift_kept(z):
    m = np.max(z)
    return m + np.log(np.sum(np.exp(z - m))) + m


def shift_along_other_axis(Z):
    m = Z.max(axis=0)                       # a max per column, summed along rows: kept
    return np.sum(np.log(np.sum(np.exp(Z - m), axis=1)) + m[0])


def shift_in_a_square(z):
    m = np.max(z)
    return np.sum((z - m) ** 2)


def row_softmax_sum(Z, w):
    e = np.exp(Z)
    return np.sum(w * np.log(np.sum(e, axis=1)))


def _source(f, wrt, *args):
    df = s2s_ad.grad(f, wrt=wrt)
    df(*args)
    return s2s_ad.derivative_source(df, *args)


def test_log_sum_exp_is_one_exp_one_sum_one_division():
    source = _source(log_sum_exp, 0, RNG.normal(size=7))
    assert "unreduce_extremum" not in source and "m_bar" not in source
    assert_matches_golden("shift_log_sum_exp", source)


def test_softmax_cross_entropy_has_no_adjoint_through_the_max():
    source = _source(log_softmax_loss, 0, RNG.normal(size=(3, 4)), RNG.normal(size=(5, 3)))
    assert "unreduce_extremum" not in source
    source = _source(min_shifted, 0, RNG.normal(size=(4, 3)))
    assert "unreduce_extremum" not in source


@pytest.mark.parametrize("f", [shift_kept, shift_along_other_axis, shift_in_a_square])
def test_a_shift_the_output_sees_keeps_its_adjoint(f):
    source = _source(f, 0, RNG.normal(size=(4, 4)) if f is shift_along_other_axis
                     else RNG.normal(size=5))
    assert "unreduce_extremum" in source


def test_a_row_sum_adjoint_is_broadcast_not_spread():
    source = _source(row_softmax_sum, 0, RNG.normal(size=(4, 3)), RNG.normal(size=4))
    assert "unreduce" not in source and "np.expand_dims(" in source
    assert_matches_golden("row_sum_adjoint_broadcast", source)


TIED = np.array([[1.0, 3.0, 3.0, 0.5], [2.0, 2.0, 2.0, 2.0], [0.0, -1.0, 4.0, 4.0]])

CASES = [
    (log_sum_exp, 0, lambda: (RNG.normal(size=6),)),
    (log_sum_exp, 0, lambda: (np.array([1.0, 3.0, 3.0, -2.0]),)),            # a tie
    (log_sum_exp, 0, lambda: (RNG.normal(size=(3, 4)),)),
    (row_log_sum_exp, 0, lambda: (TIED.copy(),)),
    (row_log_sum_exp, 0, lambda: (RNG.normal(size=(5, 1)),)),                # length-1 axis
    (log_softmax_loss, 0, lambda: (RNG.normal(size=(3, 4)), RNG.normal(size=(6, 3)))),
    (log_softmax_loss, 0, lambda: (np.ones((3, 4)), RNG.normal(size=(6, 3)))),  # all tied
    (softmax_weighted, 0, lambda: (np.array([0.5, 2.0, 2.0]), RNG.normal(size=3))),
    (softmax_weighted, 0, lambda: (RNG.normal(size=(2, 3)), RNG.normal(size=(3,)))),
    (min_shifted, 0, lambda: (TIED.copy(),)),
    (shift_kept, 0, lambda: (RNG.normal(size=5),)),
    (shift_along_other_axis, 0, lambda: (RNG.normal(size=(4, 3)),)),
    (shift_in_a_square, 0, lambda: (RNG.normal(size=5),)),
    (row_softmax_sum, (0, 1), lambda: (RNG.normal(size=(4, 3)), RNG.normal(size=4))),
    (row_softmax_sum, (0, 1), lambda: (RNG.normal(size=(4, 3)), RNG.normal(size=(1, 1)))),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, wrt, make", CASES)
def test_gradients_stay_right(f, wrt, make, path):
    # at a tie of a shifted-out max f is still smooth (the shift cancels): central
    # differences hold there too
    assert_grad_matches(f, make(), wrt, rtol=1e-6, atol=1e-8, path=path)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, x", [(log_sum_exp, np.array([1.0, 3.0, 3.0, -2.0])),
                                  (row_log_sum_exp, TIED.copy())])
def test_forward_and_second_order_through_a_tie(f, x, path):
    v = np.linspace(0.5, 1.5, x.size).reshape(x.shape)
    expected = numeric_grad(f, (x,), 0)
    value, tangent = jvp_on(path, f, (x,), v)
    np.testing.assert_allclose(tangent, np.sum(expected * v), rtol=1e-6)
    eps = 1e-5
    g = s2s_ad.grad(f)
    hv = (g(x + eps * v) - g(x - eps * v)) / (2 * eps)
    np.testing.assert_allclose(hvp_on(path, f, (x,), v), hv, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("f, wrt, make", CASES)
def test_float32_stays_float32(f, wrt, make):
    args = tuple(a.astype(np.float32) for a in make())
    got = s2s_ad.grad(f, wrt)(*args)
    got = got if isinstance(wrt, tuple) else (got,)
    expected = s2s_ad.grad(f, wrt)(*(a.astype(np.float64) for a in args))
    expected = expected if isinstance(wrt, tuple) else (expected,)
    for g, e in zip(got, expected):
        assert g.dtype == np.float32
        np.testing.assert_allclose(g, e, rtol=1e-4, atol=1e-5)
