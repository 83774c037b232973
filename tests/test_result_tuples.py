"""Results numpy returns as namedtuples (np.linalg.eigh, svd, qr, slogdet) read by field
and by position: gradients, gradients of gradients and Hessian-vector products on both
derivative paths. The adjoint of such a result is a list of per-field adjoints; the
adjoint of a field write into it (scatter_add) is read at the field's position."""
import numpy as np
import pytest

import s2s_ad
from tests.derivative_paths import PATHS, check_against_differences, grad_on
from tests.gradcheck import numeric_grad

C = np.array([[1.0, 0.2], [0.1, 2.0], [0.4, -0.3]])


def _symmetric(x):
    return np.outer(x, x) + np.diag(x * x + np.array([1.0, 3.0, 6.0]))


def eigh_by_field(x):
    r = np.linalg.eigh(_symmetric(x))
    return np.sum(r.eigenvalues ** 2) + np.sum(r.eigenvectors[:, 0] ** 2 * x)


def eigh_by_index(x):
    r = np.linalg.eigh(_symmetric(x))
    return np.sum(r[0] * x) + np.sum(r[1][:, 2] ** 2 * x)


def eigh_unpacked(x):
    w, v = np.linalg.eigh(_symmetric(x))
    return np.sum(np.sin(w)) + np.sum(v[:, 1] ** 2 * x)


def svd_by_field(x):
    r = np.linalg.svd(np.outer(x, np.array([1.0, 2.0])) + C, full_matrices=False)
    return np.sum(r.S ** 3) + np.sum(r.U[:, 0] ** 2 * x)


def svd_by_index(x):
    r = np.linalg.svd(np.outer(x, np.array([1.0, 2.0])) + C, full_matrices=False)
    return np.sum(r[1] * r[1]) + np.sum(r[0][:, 1] ** 2 * x)


def qr_by_field(x):
    r = np.linalg.qr(np.outer(x, np.array([1.0, 2.0])) + C)
    return np.sum(r.R ** 2) + np.sum(r.Q[:, 0] * x)


def qr_by_index(x):
    r = np.linalg.qr(np.outer(x, np.array([1.0, 2.0])) + C)
    return np.sum(r[1][0] * x[:2]) + np.sum(r[0] ** 3)


def slogdet_by_field(x):
    r = np.linalg.slogdet(_symmetric(x))
    return r.logabsdet * np.sum(x) + r.sign


def slogdet_by_index(x):
    r = np.linalg.slogdet(_symmetric(x))
    return r[1] ** 2 + r[0] * x[0]


PROGRAMS = [eigh_by_field, eigh_by_index, eigh_unpacked, svd_by_field, svd_by_index,
            qr_by_field, qr_by_index, slogdet_by_field, slogdet_by_index]
X = np.array([0.3, -0.5, 0.9])


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", PROGRAMS, ids=[f.__name__ for f in PROGRAMS])
def test_grad_jvp_and_hvp_match_differences(f, path):
    check_against_differences(path, f, X)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", PROGRAMS, ids=[f.__name__ for f in PROGRAMS])
def test_grad_of_grad(f, path):
    inner = grad_on(path, f)

    def squared_gradient(x):
        return np.sum(inner(x) ** 2)
    outer = grad_on(path, _squared_gradient_of(f))
    np.testing.assert_allclose(outer(X), numeric_grad(squared_gradient, (X,), 0),
                               rtol=1e-5, atol=1e-6)


def _squared_gradient_of(f):
    df = s2s_ad.grad(f)

    def squared_gradient(x):
        return np.sum(df(x) ** 2)
    return squared_gradient


def test_zeros_of_a_namedtuple_result_are_per_field():
    """Fields numpy could read as one array (slogdet's two numbers, a square qr's two
    matrices) still get zeros field by field, in the result's structure."""
    from s2s_ad.runtime import zero_tangent
    from s2s_ad.runtime_flow import float_zeros
    a = _symmetric(X)
    for result in (np.linalg.slogdet(a), np.linalg.qr(a), np.linalg.eigh(a)):
        for zeros in (zero_tangent(result), float_zeros(result)):
            assert isinstance(zeros, (tuple, list)) and len(zeros) == len(result)
            for zero, field in zip(zeros, result):
                assert np.shape(zero) == np.shape(field) and not np.any(zero)
