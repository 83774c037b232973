"""A user primitive with a user-registered template (as a user would write it)."""
import numpy as np

from s2s_ad import adjoint, d, tangent


def opaque_softplus(x):
    """Pretend this is a compiled function: s2s_ad must use the template below."""
    return np.logaddexp(0.0, x)


@adjoint(opaque_softplus)
def opaque_softplus_adjoint(y, x):
    """d softplus(x) = sigmoid(x) dx"""
    d[x] += d[y] / (1.0 + np.exp(-x))


def uses_softplus(x):
    return np.sum(opaque_softplus(x) * 2.0)


def solve_flat(M, b):
    """A user primitive whose tangent template flattens d[b] before a non-linear use."""
    return np.linalg.solve(M, np.ravel(b))


@adjoint(solve_flat)
def solve_flat_adjoint(y, M, b):
    """x = inv(M) vec(b): b_bar = inv(M)^T x_bar, M_bar = -b_bar x^T"""
    _b_bar = np.linalg.solve(M.T, d[y])
    d[M] += -np.outer(_b_bar, y)
    d[b] += np.reshape(_b_bar, np.shape(b))


@tangent(solve_flat)
def solve_flat_tangent(y, M, b):
    """dx = inv(M) vec(db) - inv(M) dM x"""
    _flat = np.ravel(d[b])
    d[y] = np.linalg.solve(M, _flat) - np.linalg.solve(M, d[M] @ y)


def uses_solve_flat(M, b):
    return np.sum(solve_flat(M, b) ** 2)
