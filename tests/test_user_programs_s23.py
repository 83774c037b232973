"""Programs as users of JAX / autograd write them, which session 22 left as false
rejections (repros in /work/s22u-left): scipy.linalg's cho_factor / cho_solve and expm in
a loss, on both derivative paths (specialised and general) against central differences,
to second order (hvp against differences of the gradient)."""
import numpy as np
import pytest

linalg = pytest.importorskip("scipy.linalg")

from derivative_paths import PATHS, check_against_differences  # noqa: E402

RNG = np.random.default_rng(23)
RHS = RNG.standard_normal(3)
COLUMNS = RNG.standard_normal((3, 2))


def gp_solve(x):
    """a Gaussian-process style solve: K = A A^T + 3 I factored once, solved twice"""
    a = np.reshape(x, (3, 3))
    factor = linalg.cho_factor(a @ a.T + 3.0 * np.eye(3))
    alpha = linalg.cho_solve(factor, RHS)
    return np.sum(alpha * RHS) + np.sum(np.tanh(linalg.cho_solve(factor, COLUMNS)))


def gp_solve_lower(x):
    """lower=True, the log-determinant from the factor's diagonal"""
    a = np.reshape(x, (3, 3))
    c, lower = linalg.cho_factor(a @ a.T + 2.0 * np.eye(3), lower=True)
    return np.sum(linalg.cho_solve((c, lower), RHS) ** 2) + 2.0 * np.sum(np.log(np.diag(c)))


def propagator(x):
    """a linear ODE's state after time 0.3: expm(0.3 A) y0"""
    a = np.reshape(x, (3, 3))
    return np.sum(np.sin(linalg.expm(0.3 * a) @ RHS))


X9 = RNG.standard_normal(9) * 0.5


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [gp_solve, gp_solve_lower, propagator],
                         ids=lambda f: f.__name__)
def test_scipy_cholesky_and_expm_in_a_loss(f, path):
    check_against_differences(path, f, X9)
