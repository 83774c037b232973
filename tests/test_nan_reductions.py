"""The nan-ignoring reductions with nan entries in the argument itself: the derivative is
0 at a nan entry and finite everywhere else (the spec rows make their nans inside the
function, where np.where's own adjoint would hide a nan), in grad, jvp and hvp, on both
derivative paths; an all-nan slice has a zero gradient."""
import numpy as np
import pytest

from derivative_paths import PATHS, grad_on, hvp_on, jvp_on

X = np.array([[0.3, np.nan, -1.2, 0.8],
              [1.1, 0.4, np.nan, -0.6],
              [-0.9, 1.7, 0.2, 0.5]])
NAN = np.isnan(X)


def nansum_rows(x):
    return np.sum(np.nansum(x, axis=1) ** 2)


def nanmean_cols(x):
    return np.sum(np.nanmean(x, axis=0) ** 3)


def nanprod_all(x):
    return np.nanprod(x) ** 2


def nanmax_rows(x):
    return np.sum(np.nanmax(x, axis=1) * np.nanmin(x, axis=1))


def nanvar_cols(x):
    return np.sum(np.nanvar(x, axis=0, keepdims=True) * np.arange(1.0, 5.0))


def nanstd_rows(x):
    return np.sum(np.nanstd(x, axis=1, ddof=1))


def nancumsum_rows(x):
    return np.sum(np.nancumsum(x, axis=1) ** 2)


def nancumprod_flat(x):
    return np.sum(np.nancumprod(x) * np.linspace(0.1, 1.2, 12))


FUNCTIONS = [nansum_rows, nanmean_cols, nanprod_all, nanmax_rows, nanvar_cols, nanstd_rows,
             nancumsum_rows, nancumprod_flat]


def _expected_grad(f, x, eps=1e-6):
    """central differences over the entries that are not nan; 0 at the nan entries"""
    g = np.zeros_like(x)
    for i in zip(*np.nonzero(~np.isnan(x))):
        e = np.zeros_like(x)
        e[i] = eps
        g[i] = (f(x + e) - f(x - e)) / (2 * eps)
    return g


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", FUNCTIONS, ids=lambda f: f.__name__)
def test_gradient_is_zero_at_nan_entries_and_exact_elsewhere(f, path):
    expected = _expected_grad(f, X)
    g = grad_on(path, f)(X)
    assert np.all(np.isfinite(g)) and np.all(g[NAN] == 0.0)
    np.testing.assert_allclose(g, expected, rtol=1e-6, atol=1e-8)
    v = np.where(NAN, 1e3, np.linspace(-1.0, 1.0, X.size).reshape(X.shape))   # ignored at nan
    value, tangent = jvp_on(path, f, (X,), v)
    np.testing.assert_allclose(tangent, np.sum(expected * v * ~NAN), rtol=1e-6, atol=1e-8)
    hv = hvp_on(path, f, (X,), np.where(NAN, 0.0, v))
    assert np.all(np.isfinite(hv)) and np.all(hv[NAN] == 0.0)
    numeric = (grad_on(path, f)(X + 1e-6 * np.where(NAN, 0.0, v))
               - grad_on(path, f)(X - 1e-6 * np.where(NAN, 0.0, v))) / 2e-6
    np.testing.assert_allclose(hv, numeric, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("path", PATHS)
def test_all_nan_slice_has_zero_gradient(path):
    x = X.copy()
    x[:, 1] = np.nan
    with np.errstate(all="ignore"), pytest.warns(RuntimeWarning):
        g = grad_on(path, lambda a: np.sum(np.where(np.isnan(np.nanmean(a, axis=0)), 0.0,
                                                    np.nanmean(a, axis=0))))(x)
    assert np.all(np.isfinite(g)) and np.all(g[:, 1] == 0.0)
    np.testing.assert_allclose(g[:, 0], 1.0 / 3.0)
