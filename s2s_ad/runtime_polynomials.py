"""Runtime helpers for the derivatives of np.poly (coefficients from roots) and
np.polydiv (long division), coefficients highest power first as numpy has them.

    poly_derivative(r, 1)    J with dc = J dr for c = np.poly(r): column i is
                         -[0, np.poly(r without r_i)] (c = (x - r_i) * that product);
                         poly_derivative(r, k + 1) is the derivative of order k's
    banded(a, rows, cols)    M[i, j] = a[i - j]: the matrix of b -> a * b (a product of
                         polynomials, first `rows` coefficients); linear in a
    unbanded(g, size)    its adjoint in a (diagonal sums); banded is unbanded's
    division_sizes(u, v, y)    the lengths of u, v, q and r (piecewise constant)

np.polydiv: u = q * v + R with R the remainder at u's length (its first len(q) entries
zero; numpy returns its last len(r) entries). So du - q * dv = dq * v + dR: dq divides
w = du - q * dv by v (a triangular system, banded(v)), dR = w - dq * v. The templates
write these steps with banded matrices, np.linalg.solve and slicing: differentiable again.
"""
import itertools

import numpy as np

from .runtime import _float_dtype

try:  # inside the package the error is an s2s_ad.ADError; standalone it is a ValueError
    from .errors import MissingDerivativeError
except ImportError:  # pragma: no cover - only in standalone generated files
    class MissingDerivativeError(ValueError):
        pass


def _roots(r):
    if np.ndim(r) > 1:
        raise MissingDerivativeError(
            "s2s_ad differentiates np.poly of a sequence of roots, not of a matrix (its "
            "characteristic polynomial)", None,
            "pass the eigenvalues: np.poly(np.linalg.eigvalsh(a)) for a symmetric matrix")
    return np.ravel(np.asarray(r, dtype=_float_dtype(r)))


def poly_derivative(r, order=1):
    """The order-th derivative of np.poly(r) in r, of shape (len(r) + 1,) + (len(r),) *
    order: at (k, i1, ..., i_order) it is (-1) ** order times coefficient k - order of the
    product of the factors (x - r_j), j not among i1..i_order, when those are distinct
    (each factor is linear in its root), else 0."""
    r = _roots(r)
    n = len(r)
    out = np.zeros((n + 1,) + (n,) * order, dtype=r.dtype)
    for picked in itertools.permutations(range(n), order):
        out[(slice(order, None),) + picked] = (-1) ** order * np.poly(np.delete(r, picked))
    return out


def banded(a, rows, cols):
    """The (rows, cols) matrix M with M[i, j] = a[i - j] (0 for i - j outside a): M @ b
    is the first `rows` coefficients of np.convolve(a, b) for b of length cols. Linear in
    a (its adjoint is unbanded)."""
    a = np.ravel(a)
    out = np.zeros((rows, cols), dtype=_float_dtype(a))
    for j in range(cols):
        k = min(len(a), rows - j)
        if k > 0:
            out[j:j + k, j] = a[:k]
    return out


def unbanded(g, size):
    """The adjoint of banded in a: a_bar[k] sums g[i, j] over i - j = k (k < size)."""
    g = np.asarray(g)
    out = np.zeros(size, dtype=_float_dtype(g))
    for k in range(min(size, g.shape[0])):
        out[k] = np.trace(g, offset=-k)
    return out


def division_sizes(u, v, y):
    """(len(u), len(v), len(q), len(r), 1.0) for (q, r) = y = np.polydiv(u, v); the last
    is 0.0 when u is shorter than v (then q = [0.] whatever u and v are)."""
    m1, n1 = np.size(u), np.size(v)
    return m1, n1, np.size(y[0]), np.size(y[1]), 1.0 if m1 >= n1 else 0.0
