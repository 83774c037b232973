"""Order statistics beyond the spec rows: the second derivative mixing x and q (the
quantile weights move with q), nan entries in the argument itself (derivative 0 there,
never nan), ties (the stable sort's choice), on both derivative paths."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, hvp_on, jvp_on
from gradcheck import numeric_grad

X = np.array([[0.3, -1.2, 0.8, 2.1, -0.4],
              [1.1, 0.4, -0.6, 0.9, 1.6],
              [-0.9, 1.7, 0.2, 0.5, -2.2]])


def quantile_squared(x, q):
    return np.sum(np.quantile(x, q, axis=-1) ** 2)


def percentile_cubed(x, q):
    return np.sum(np.percentile(x, q, axis=0) ** 3)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, q", [(quantile_squared, np.array([0.3, 0.65])),
                                  (percentile_cubed, 42.0)], ids=["quantile", "percentile"])
def test_second_derivative_in_x_and_q_together(f, q, path):
    v = (np.linspace(-1.0, 1.0, X.size).reshape(X.shape), np.ones(np.shape(q)) * 0.7)
    if np.ndim(q) == 0:
        v = (v[0], 0.7)
    hv = hvp_on(path, f, (X, q), v, wrt=(0, 1))
    gradient = grad_on(path, f, wrt=(0, 1))
    eps = 1e-6
    plus = gradient(X + eps * v[0], q + eps * v[1])
    minus = gradient(X - eps * v[0], q - eps * v[1])
    for k in range(2):
        np.testing.assert_allclose(hv[k], (np.asarray(plus[k]) - minus[k]) / (2 * eps),
                                   rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gradient(X, q)[1], numeric_grad(f, (X, q), 1), rtol=1e-6)


# an all-nan row: its quantiles are nan, so the function uses them linearly (a nonlinear
# use multiplies the zero adjoint by nan, as any nan value would)
XN = np.array([[0.3, np.nan, 0.8, 2.1, -0.4],
               [np.nan, np.nan, np.nan, np.nan, np.nan],
               [-0.9, 1.7, np.nan, 0.5, -2.2]])


def nanmedian_rows(x):
    return np.nansum(np.nanmedian(x, axis=1) * np.array([1.5, 2.0, -0.5]))


def nanquantile_rows(x):
    return np.nansum(np.nanquantile(x, np.array([0.2, 0.9]), axis=1) * np.array([1.5, 2.0, -0.5]))


def nanpercentile_all(x):
    return np.nanpercentile(x, 35.0) ** 2


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [nanmedian_rows, nanquantile_rows, nanpercentile_all],
                         ids=lambda f: f.__name__)
def test_nan_entries_and_all_nan_slices_get_zero(f, path):
    with np.errstate(all="ignore"), pytest.warns(RuntimeWarning) if f is not nanpercentile_all \
            else np.errstate():
        g = grad_on(path, f)(XN)
        v = np.where(np.isnan(XN), 5.0, 1.0)
        _, tangent = jvp_on(path, f, (XN,), v)
    assert np.all(np.isfinite(g)) and np.all(g[np.isnan(XN)] == 0.0)
    expected = np.zeros_like(XN)
    for i in zip(*np.nonzero(~np.isnan(XN))):
        e = np.zeros_like(XN)
        e[i] = 1e-6
        with np.errstate(all="ignore"), pytest.warns(RuntimeWarning) \
                if f is not nanpercentile_all else np.errstate():
            expected[i] = (f(XN + e) - f(XN - e)) / 2e-6
    np.testing.assert_allclose(g, expected, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(tangent, np.sum(expected), rtol=1e-6)


def upper_quartile(x):
    return np.quantile(x, 0.75)


@pytest.mark.parametrize("path", PATHS)
def test_ties_go_to_the_entries_a_stable_sort_places_there(path):
    """sorted [1, 2, 3, 3]: place 2.25 is 0.75 x_(2) + 0.25 x_(3), the 3 first in x being
    x_(2)"""
    x = np.array([3.0, 1.0, 3.0, 2.0])
    np.testing.assert_allclose(grad_on(path, upper_quartile)(x), [0.75, 0.0, 0.25, 0.0])
    _, tangent = jvp_on(path, upper_quartile, (x,), np.array([1.0, 10.0, 100.0, 1000.0]))
    np.testing.assert_allclose(tangent, 25.75)


def quantile_weighted(x):
    return np.quantile(x, 0.5, method="inverted_cdf")


def quantile_by_method(x, method):
    return np.quantile(x, 0.5, method=method)


@pytest.mark.parametrize("path", PATHS)
def test_a_method_without_derivative_is_named(path):
    """a literal method: a located error when the derivative is built; one known only
    when the code runs: the same s2s_ad error then"""
    with pytest.raises(s2s_ad.MissingDerivativeError, match="inverted_cdf") as info:
        grad_on(path, quantile_weighted)(X[0])
    assert info.value.filename == __file__
    with pytest.raises(s2s_ad.MissingDerivativeError, match="np.quantile.*inverted_cdf"):
        grad_on(path, quantile_by_method)(X[0], "inverted_cdf")


def covariance_loss(x, y):
    return np.sum(np.cov(x, y, rowvar=False) ** 2 * np.arange(1.0, 10.0).reshape(3, 3))


def correlation_loss(x, y):
    return np.sum(np.corrcoef(x, y) ** 3)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, args", [
    (covariance_loss, (X.T[:, :2], X[2])), (correlation_loss, (X[:2], X[2]))],
    ids=["cov", "corrcoef"])
def test_covariance_second_derivative_in_both_operands(f, args, path):
    v = (np.linspace(-1.0, 1.0, args[0].size).reshape(args[0].shape), np.linspace(0.5, 1.0, 5))
    hv = hvp_on(path, f, args, v, wrt=(0, 1))
    gradient = grad_on(path, f, wrt=(0, 1))
    plus = gradient(args[0] + 1e-6 * v[0], args[1] + 1e-6 * v[1])
    minus = gradient(args[0] - 1e-6 * v[0], args[1] - 1e-6 * v[1])
    for k in range(2):
        np.testing.assert_allclose(gradient(*args)[k], numeric_grad(f, args, k), rtol=1e-6)
        np.testing.assert_allclose(hv[k], (plus[k] - minus[k]) / 2e-6, rtol=1e-5, atol=1e-6)


def test_an_unknown_zero_d_integer_array_has_stand_ins():
    """np.asarray of an integer of unknown value (runtime_statistics reads stat_length so)
    stands in as 0-d arrays; building them as np.ndarray(-1) raised in the facts analysis"""
    from s2s_ad.analyses.stand_ins import UnknownInt, unknown_int
    worlds = unknown_int(np.ndarray)
    assert isinstance(worlds, UnknownInt)
    assert [np.ndim(w) for w in worlds] == [0, 0, 0] and len(set(map(int, worlds))) == 3
