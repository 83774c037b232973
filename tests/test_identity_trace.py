"""A number times an identity matrix (`sn2 * np.eye(n)`, a kernel's noise) gets the trace
of the result's adjoint (ad/context.py _trace_of_identity), not the sum of an n x n
product: gradients against central differences on both paths, where it applies and where
it must not (a 1 x 1 identity broadcasting against a matrix, a batch of matrices, an
identity written into, a rectangular np.eye), and the specialised text."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, grads_against_differences
from gradcheck import numeric_grad


def gp_like(log_noise, A, y):
    K = A @ A.T + np.exp(log_noise) * np.eye(len(y))
    L = np.linalg.cholesky(K)
    alpha = np.linalg.solve(L.T, np.linalg.solve(L, y))
    return 0.5 * y @ alpha + np.sum(np.log(np.diag(L)))


def scaled_identity(s, B):
    E = np.identity(B.shape[0])
    return np.sum(np.sin(B * (s * E) + B))


def one_by_one(s, B):
    """np.eye(1) broadcasts against B: s's adjoint sums every element of g."""
    return np.sum(np.cos(B + s * np.eye(1)))


def batched(s, B):
    return np.sum(np.tanh(B + s * np.eye(B.shape[-1])) ** 2)


def written_into(s, B):
    E = np.eye(B.shape[0])
    E[0, 1] = 2.0
    return np.sum(np.tanh(B + s * E) ** 2)


def float32_eye(s, B):
    return np.sum(np.sin(B - s * np.eye(B.shape[0], dtype=np.float32)))


@pytest.mark.parametrize("path", PATHS)
def test_gradients(path):
    rng = np.random.default_rng(12)
    A, y = rng.standard_normal((6, 3)), rng.standard_normal(6)
    grads_against_differences(path, gp_like, (-0.5, A, y), (0, 1))
    grads_against_differences(path, scaled_identity, (0.7, rng.standard_normal((4, 4))), (0, 1))
    grads_against_differences(path, one_by_one, (0.7, rng.standard_normal((3, 4))), (0, 1))
    grads_against_differences(path, one_by_one, (0.7, rng.standard_normal((1, 1))), (0, 1))
    grads_against_differences(path, batched, (0.3, rng.standard_normal((2, 3, 3))), (0, 1))
    grads_against_differences(path, batched, (0.3, rng.standard_normal((3, 3))), (0, 1))
    grads_against_differences(path, written_into, (0.3, rng.standard_normal((3, 3))), (0, 1))


def test_float32_kept():
    rng = np.random.default_rng(13)
    B = rng.standard_normal((4, 4)).astype(np.float32)
    s = np.float32(0.4)
    for path in PATHS:
        g = grad_on(path, float32_eye, (0, 1))(s, B)
        assert g[1].dtype == np.float32
        want = -np.trace(np.cos(B - s * np.eye(4, dtype=np.float32)))    # d/ds, by hand
        np.testing.assert_allclose(g[0], want, rtol=1e-5)
        np.testing.assert_allclose(g[1], np.cos(B - s * np.eye(4)), rtol=1e-5)


def source_of(f, *args):
    df = s2s_ad.grad(f)
    df(*args)
    return s2s_ad.derivative_source(df, *args)


def test_the_trace_is_taken():
    """Also for a batch: `s * E` is E's shape, its adjoint summed over the batch first."""
    rng = np.random.default_rng(14)
    A, y = rng.standard_normal((6, 3)), rng.standard_normal(6)
    assert "np.trace(" in source_of(gp_like, -0.5, A, y)
    assert "np.trace(" in source_of(scaled_identity, 0.7, rng.standard_normal((4, 4)))
    assert "np.trace(" in source_of(batched, 0.3, rng.standard_normal((2, 3, 3)))
    for f, B in ((one_by_one, rng.standard_normal((3, 4))),
                 (written_into, rng.standard_normal((3, 3)))):
        assert "np.trace(" not in source_of(f, 0.3, B)


def test_second_order():
    """np.trace has its own templates: grad of the gradient agrees with differences."""
    rng = np.random.default_rng(15)
    A, y = rng.standard_normal((5, 2)), rng.standard_normal(5)
    first = s2s_ad.grad(gp_like)
    np.testing.assert_allclose(s2s_ad.hessian(gp_like)(-0.3, A, y),
                               numeric_grad(lambda s: first(s, A, y), (-0.3,), 0), rtol=1e-6)
    B = rng.standard_normal((3, 3))
    first = s2s_ad.grad(scaled_identity)
    np.testing.assert_allclose(s2s_ad.hvp(scaled_identity)(0.7, B, 1.0),
                               numeric_grad(lambda s: first(s, B), (0.7,), 0), rtol=1e-6)
