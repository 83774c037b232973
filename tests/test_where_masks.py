"""An np.where branch f does not take at an element contributes nothing there, not
`0.0 * h`, which is nan where the branch's own derivative h is (np.sqrt or np.log of a
value outside their domain, a division by zero): optimize/where_sums.py moves the mask
outside the product. Specialised derivatives; the general one still multiplies (nan, as
JAX and autograd give), and agrees wherever the untaken branch is finite."""
import warnings

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on


def safe_sqrt(x):
    return np.sum(np.where(x > 0, np.sqrt(x), 0.0))


def safe_sqrt_reused(x):
    y = np.where(x > 0, np.sqrt(x), 0.0)
    return np.sum(y * y + y)


def three_pieces(x):
    e = np.where(x < 0.0, x ** 2, np.where(x < 1.0, x, 2.0 * np.sqrt(x) - 1.0))
    return np.sum(e)


def safe_log_ratio(x, y):
    return np.sum(np.where(x > 0, np.log(x) / y, -x))


X = np.array([-1.5, -0.3, 0.2, 0.7, 1.5, 3.0])


def expected(f, x):
    """Central differences on the side each element is on (no element is at a kink)."""
    eps = 1e-6
    out = np.zeros_like(x)
    for k in range(x.size):
        e = np.zeros_like(x)
        e[k] = eps
        out[k] = (f(x + e) - f(x - e)) / (2 * eps)
    return out


@pytest.mark.parametrize("f", [safe_sqrt, safe_sqrt_reused, three_pieces])
def test_no_nan_from_the_branch_not_taken(f):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)       # f's own sqrt of x < 0
        g = s2s_ad.grad(f)(X)
        want = expected(f, X)
    assert not np.any(np.isnan(g))
    np.testing.assert_allclose(g, want, rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [safe_sqrt, safe_sqrt_reused, three_pieces])
def test_both_paths_agree_where_every_branch_is_finite(path, f):
    x = np.abs(X) + 0.1
    np.testing.assert_allclose(grad_on(path, f)(x), expected(f, x), rtol=1e-6)


def test_second_operand_and_float32():
    x = np.array([-1.0, 0.5, 2.0])
    y = np.array([2.0, 3.0, 4.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        gy = s2s_ad.grad(safe_log_ratio, 1)(x, y)
        np.testing.assert_allclose(gy, [0.0, -np.log(0.5) / 9.0, -np.log(2.0) / 16.0],
                                   rtol=1e-12)
        g32 = s2s_ad.grad(safe_sqrt)(X.astype(np.float32))
    assert g32.dtype == np.float32 and not np.any(np.isnan(g32))


def test_mask_is_outside_the_product():
    source = s2s_ad.derivative_source(s2s_ad.grad(safe_sqrt), X)
    assert "x_bar = np.where(t1_0, 0.5 / t1_1, 0.0)" in source
