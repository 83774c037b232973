"""An argument that reaches the output only through a parameter its template declares
undifferentiated (`d[v] += undifferentiated(v)`: scipy.special.iv's order, gammainc's a)
is a located error naming it, in reverse and forward mode, on both derivative paths; it
used to be a silent zero gradient. The other arguments still differentiate."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, jvp_on

special = pytest.importorskip("scipy.special")


def bessel_in_order(v, x):
    return np.sum(special.iv(v, x))


@pytest.mark.parametrize("path", PATHS)
def test_bessel_order_is_not_differentiated(path):
    """A missing derivative, not a NonDifferentiableError: iv has one in its order, which
    s2s_ad does not know (the message said the gradient would be zero everywhere)"""
    with pytest.raises(s2s_ad.MissingDerivativeError, match="`v` only through") as info:
        grad_on(path, bessel_in_order, wrt=0)(1.5, np.array([0.5, 2.0]))
    assert "special.iv(v, x)" in str(info.value) and "zero everywhere" not in str(info.value)
    with pytest.raises(s2s_ad.MissingDerivativeError, match="`v` only through"):
        jvp_on(path, bessel_in_order, (1.5, np.array([0.5, 2.0])), 1.0, wrt=0)
    x = np.array([0.5, 2.0])
    got = grad_on(path, bessel_in_order, wrt=1)(1.5, x)
    expected = 0.5 * (special.iv(0.5, x) + special.iv(2.5, x))
    np.testing.assert_allclose(got, expected, rtol=1e-12)


def bessel_scaled(v, x):
    return np.sum(special.jv(v * x[0], x) * v)


def incomplete_gamma(a, x):
    return np.sum(special.gammainc(a, x) + a * x)


@pytest.mark.parametrize("path", PATHS)
def test_undifferentiated_argument_next_to_differentiated_ones(path):
    """`v` also reaches the output through `* v` (so the gradient is not all zero), but the
    template declares jv's order undifferentiated: an error naming it, reverse and forward,
    where it used to give jv's part of the order derivative as 0"""
    x = np.array([0.5, 2.0])
    with pytest.raises(s2s_ad.MissingDerivativeError, match="no derivative in its argument `v`"):
        grad_on(path, bessel_scaled, wrt=0)(1.5, x)
    with pytest.raises(s2s_ad.MissingDerivativeError, match="no derivative in its argument `a`"):
        jvp_on(path, incomplete_gamma, (1.5, x), 1.0, wrt=0)
    with pytest.raises(s2s_ad.MissingDerivativeError, match="no derivative in its argument `a`"):
        grad_on(path, incomplete_gamma, wrt=(0, 1))(1.5, x)
    got = grad_on(path, incomplete_gamma, wrt=1)(1.5, x)
    expected = np.exp(0.5 * np.log(x) - x - special.gammaln(1.5)) + 1.5
    np.testing.assert_allclose(got, expected, rtol=1e-12)
