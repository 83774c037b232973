"""A broadcast contribution that is a product of float64 arrays, summed to its operand's
shape, is one np.einsum in the specialised derivative (ad/contractions.py): row sums of a
normalisation, a weight broadcast along rows, leading and middle axes, numbers and a sign
kept outside, a length-1 axis kept. Gradients against central differences on both paths;
float32 keeps np.sum (and float32); second derivatives through it."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, hvp_on
from gradcheck import numeric_grad


def normalised(x, t):
    r = np.exp(x)
    r = r / np.sum(r, axis=1, keepdims=True)           # rows: np.sum(r_bar * r, axis=1)
    return np.sum(r * t)


def weighted_rows(w, X):
    return np.sum(np.tanh(X * w))                       # w (D,): np.sum(g * X, axis=0)


def middle_axis(c, X):
    d = X * c                                           # c (N, 1, D) against X (N, K, D)
    return np.sum(np.sin(d) * 2.0)


def leading_axes(w, X):
    return -np.sum(np.cos(2.0 * w * X))                 # w (D,) against X (N, K, D)


def row_vector(b, X):
    return np.sum(np.log1p((X * b) ** 2))               # b (1, D): a length-1 axis kept


def _rng():
    return np.random.default_rng(26)


CASES = [
    (normalised, lambda r: (r.standard_normal((5, 4)), r.standard_normal((5, 4))),
     "np.einsum('ab,ab->a'"),
    (weighted_rows, lambda r: (r.standard_normal(4), r.standard_normal((6, 4))),
     "np.einsum('ab,ab->b'"),
    (middle_axis, lambda r: (r.standard_normal((5, 1, 3)), r.standard_normal((5, 4, 3))),
     "np.expand_dims(np.einsum('abc,abc->ac'"),
    (leading_axes, lambda r: (r.standard_normal(3), r.standard_normal((5, 4, 3))),
     "np.einsum('abc,abc->c'"),
    (row_vector, lambda r: (r.standard_normal((1, 4)), r.standard_normal((6, 4))),
     "np.expand_dims(np.einsum('ab,ab->b'"),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, make, text", CASES)
def test_contracted_adjoints_match_differences(path, f, make, text):
    args = make(_rng())
    g = grad_on(path, f, 0)(*args)
    assert g.shape == args[0].shape and g.dtype == np.float64
    assert np.allclose(g, numeric_grad(f, args, 0), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("f, make, text", CASES)
def test_the_sum_of_the_product_is_one_einsum(f, make, text):
    args = make(_rng())
    df = s2s_ad.grad(f, 0)
    df(*args)
    source = s2s_ad.derivative_source(df, *args)
    assert text in source, source


@pytest.mark.parametrize("f, make, text", CASES)
def test_float32_keeps_the_sum_and_its_dtype(f, make, text):
    args = tuple(a.astype(np.float32) for a in make(_rng()))
    df = s2s_ad.grad(f, 0)
    g = df(*args)
    assert g.dtype == np.float32
    assert np.allclose(g, numeric_grad(f, tuple(a.astype(np.float64) for a in args), 0),
                       rtol=1e-3, atol=1e-3)
    assert "einsum" not in s2s_ad.derivative_source(df, *args)


def test_a_length_one_row_broadcasts_as_before():
    """x of (5, 1): the row sums' operand has length 1 where r has 4; then a (1, 4) x."""
    rng = _rng()
    for shape in ((5, 1), (1, 4)):
        args = (rng.standard_normal(shape), rng.standard_normal((5, 4)))
        f = lambda x, t: normalised(x + np.zeros((5, 4)), t)        # noqa: E731
        assert np.allclose(s2s_ad.grad(f, 0)(*args), numeric_grad(f, args, 0),
                           rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("path", PATHS)
def test_second_derivatives_through_the_contraction(path):
    rng = _rng()
    x, t = rng.standard_normal((4, 3)), rng.standard_normal((4, 3))
    v = rng.standard_normal((4, 3))
    hv = hvp_on(path, normalised, (x, t), v, 0)
    eps = 1e-5
    g = s2s_ad.grad(normalised, 0)
    expected = (g(x + eps * v, t) - g(x - eps * v, t)) / (2 * eps)
    assert np.allclose(hv, expected, rtol=1e-5, atol=1e-7)


# ---- an adjoint held as a view (ad/view_adjoints.py), times an array, summed -----------
def view_scaled(lv, X, m):
    t = (X[:, None, :] - m) ** 2 / np.exp(lv)          # lv (K, D) against (N, K, D)
    s = np.sum(t + lv, axis=2)                          # s_bar's view: (N, K, 1)
    return np.sum(np.log(np.sum(np.exp(-0.5 * s), axis=1)))


def _view_args(dtype=np.float64):
    rng = _rng()
    return tuple(a.astype(dtype) for a in (0.1 * rng.standard_normal((3, 2)),
                                           rng.standard_normal((5, 2)),
                                           rng.standard_normal((3, 2))))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("wrt", [0, 2])
def test_a_view_times_an_array_summed_matches_differences(path, wrt):
    args = _view_args()
    g = grad_on(path, view_scaled, wrt)(*args)
    assert np.allclose(g, numeric_grad(view_scaled, args, wrt), rtol=1e-6, atol=1e-8)


def test_a_view_times_an_array_summed_is_one_einsum():
    args = _view_args()
    df = s2s_ad.grad(view_scaled, 0)
    df(*args)
    source = s2s_ad.derivative_source(df, *args)
    assert "np.einsum('ab,abc->bc', s_bar, " in source, source
    args32 = _view_args(np.float32)
    assert df(*args32).dtype == np.float32
    assert "einsum" not in s2s_ad.derivative_source(df, *args32)
