"""scipy's Sylvester and banded solvers, the Dirichlet log-density, the multivariate gamma
function and the sign of gamma inside user functions (an optional dependency: skipped
without scipy), on both derivative paths against central differences (grad, jvp, hvp);
scipy.integrate's solvers are a located error at the call. The templates are checked by
the spec rows (specs_scipy_linalg.py, specs_scipy_dirichlet.py)."""
import numpy as np
import pytest

linalg = pytest.importorskip("scipy.linalg")
special = pytest.importorskip("scipy.special")
stats = pytest.importorskip("scipy.stats")
integrate = pytest.importorskip("scipy.integrate")

import s2s_ad  # noqa: E402
from derivative_paths import PATHS, check_against_differences, grad_on  # noqa: E402

RNG = np.random.default_rng(5)
B = RNG.standard_normal((2, 2)) + 3.0 * np.eye(2)
Q = RNG.standard_normal((3, 2))
RHS = RNG.standard_normal((5, 2))
ALPHA = np.array([1.5, 2.0, 3.0])


def sylvester_loss(x):
    a = np.reshape(x, (3, 3)) + 4.0 * np.eye(3)
    return np.sum(np.tanh(linalg.solve_sylvester(a, B, Q)) * Q)


def banded_loss(x):
    ab = np.reshape(x, (3, 5)) + np.array([[0.0], [5.0], [0.0]])
    y = linalg.solve_banded((1, 1), ab, RHS)
    return np.sum(np.sin(y) * RHS)


def dirichlet_loss(z):
    """a mixture weight vector through a softmax, K - 1 components and all K"""
    e = np.exp(z)
    p = e / np.sum(e)
    return stats.dirichlet.logpdf(p[:-1], ALPHA) + 0.5 * stats.dirichlet.logpdf(p, ALPHA + z * z) \
        + stats.dirichlet.pdf(p, ALPHA + z)


def wishart_normaliser(x):
    return np.sum(special.multigammaln(2.0 + x * x, d=3)) + special.multigammaln(3.0 + x[0], 2)


def signed_gamma(x):
    """gammasgn is piecewise constant: the derivative is that of the rest"""
    return np.sum(special.gammasgn(x) * x * x)


X9 = RNG.standard_normal(9) * 0.5
X15 = RNG.standard_normal(15) * 0.5


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, x", [
    (sylvester_loss, X9), (banded_loss, X15), (dirichlet_loss, np.array([0.2, -0.4, 0.7])),
    (wishart_normaliser, np.array([0.3, -1.2, 0.8])),
], ids=lambda v: getattr(v, "__name__", "x"))
def test_gradients_through_scipy(f, x, path):
    check_against_differences(path, f, x)


@pytest.mark.parametrize("path", PATHS)
def test_gammasgn_has_no_derivative_of_its_own(path):
    x = np.array([-0.5, 1.5, -2.5, 3.0])
    np.testing.assert_allclose(grad_on(path, signed_gamma)(x), 2.0 * special.gammasgn(x) * x)


def decay(y, t, k):
    return -k * y


def integrated(k):
    return np.sum(integrate.odeint(decay, np.array([1.0, 2.0]), np.linspace(0.0, 1.0, 5),
                                   args=(k,)))


def test_odeint_is_a_located_error():
    with pytest.raises(s2s_ad.MissingDerivativeError) as info:
        s2s_ad.grad(integrated)(0.5)
    text = str(info.value)
    assert "scipy.integrate.odeint" in text and "test_scipy_solvers.py" in text \
        and "a loop of steps" in text and "^" in text
