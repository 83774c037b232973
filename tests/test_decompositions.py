"""Decompositions on both derivative paths: end-to-end losses (PCA reconstruction error,
log-det through eigh, least squares through lstsq, a sign-invariant loss of singular
vectors) against central differences, second order (hvp against differences of the
gradient), and what happens at repeated values and for undefined derivatives."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, check_against_differences, grad_on, jvp_on

RNG = np.random.default_rng(11)
DATA = RNG.standard_normal((8, 4))
TARGET = RNG.standard_normal(6)


def pca_reconstruction(x):
    """squared error of the rank-2 reconstruction of the centred data"""
    a = x.reshape(8, 4)
    c = a - np.mean(a, axis=0)
    u, s, vh = np.linalg.svd(c, full_matrices=False)
    low = (u[:, :2] * s[:2]) @ vh[:2, :]
    return np.sum((c - low) ** 2)


def logdet_eigh(x):
    a = x.reshape(3, 3)
    w, v = np.linalg.eigh(a @ a.T + np.eye(3))
    return np.sum(np.log(w)) + np.sum(v[:, 0] ** 2 * w)


def least_squares(x):
    a = x.reshape(6, 2)
    sol, residuals, rank, s = np.linalg.lstsq(a, TARGET)
    return np.sum(sol ** 2) + residuals[0]


def sign_invariant(x):
    """u_1 v_1^T flips with neither sign: a loss of it has a gradient whatever LAPACK picks"""
    a = x.reshape(3, 4)
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    return np.sum(np.outer(u[:, 0], vh[0]) * a) + np.sum(u[:, 1] ** 4)


def qr_loss(x):
    q, r = np.linalg.qr(x.reshape(4, 3))
    return np.sum(q[0] * r[0]) + np.sum(np.log(np.abs(np.diag(r))))


def pinv_and_cond(x):
    a = x.reshape(3, 4)
    return np.sum(np.linalg.pinv(a) ** 2) + np.linalg.cond(a)


CASES = [(pca_reconstruction, DATA.ravel()), (logdet_eigh, RNG.standard_normal(9)),
         (least_squares, RNG.standard_normal(12)), (sign_invariant, RNG.standard_normal(12)),
         (qr_loss, RNG.standard_normal(12)), (pinv_and_cond, RNG.standard_normal(12))]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, x", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_gradient_tangent_and_hvp_match_differences(f, x, path):
    check_against_differences(path, f, x)


def test_sign_flips_leave_the_gradient_of_an_invariant_loss_alone():
    """The same loss with the decomposition's signs flipped by hand: one gradient."""
    def flipped(x):
        a = x.reshape(3, 4)
        u, s, vh = np.linalg.svd(a, full_matrices=False)
        return np.sum(np.outer(-u[:, 0], -vh[0]) * a) + np.sum((-u[:, 1]) ** 4)
    x = RNG.standard_normal(12)
    np.testing.assert_allclose(s2s_ad.grad(flipped)(x), s2s_ad.grad(sign_invariant)(x),
                               rtol=1e-12, atol=1e-12)


def values_of_identity(x):
    return np.sum(np.linalg.eigvalsh(np.eye(3) + 0.0 * x) * np.arange(1.0, 4.0) * x[0])


def eigh_values_only(x):
    w, v = np.linalg.eigh(np.diag(x[:3] * 0.0 + 1.0) * x[3])
    return np.sum(w ** 2)


def eigh_vectors_of_repeated(x):
    w, v = np.linalg.eigh(np.diag(x[:3] * 0.0 + 1.0) * x[3])
    return np.sum(v[:, 0] * np.arange(1.0, 4.0))


def svd_values_repeated(x):
    u, s, vh = np.linalg.svd(np.eye(3) * x[0], full_matrices=False)
    return np.sum(s ** 2)


def test_repeated_values_keep_exact_gradients_of_the_values():
    x = np.array([0.3, -0.2, 0.5, 2.0])
    np.testing.assert_allclose(s2s_ad.grad(eigh_values_only)(x), [0.0, 0.0, 0.0, 12.0])
    np.testing.assert_allclose(s2s_ad.grad(svd_values_repeated)(x), [6.0 * 0.3, 0, 0, 0])


def test_repeated_values_give_nan_where_the_loss_reads_their_vectors():
    grad = s2s_ad.grad(eigh_vectors_of_repeated)(np.array([0.3, -0.2, 0.5, 2.0]))
    assert np.isnan(grad).any()


def complete_columns(x):
    u, s, vh = np.linalg.svd(x.reshape(4, 2))
    return np.sum(u ** 3)


def thin_part_of_complete(x):
    u, s, vh = np.linalg.svd(x.reshape(4, 2))
    return np.sum(u[:, :2] ** 3) + np.sum(s)


def test_columns_beyond_the_thin_factor_are_an_error_unless_unused():
    x = RNG.standard_normal(8)
    with pytest.raises(ValueError, match="not defined for the columns"):
        s2s_ad.grad(complete_columns)(x)
    check_against_differences("specialised", thin_part_of_complete, x, second_order=False)


def complex_eigenvalues(x):
    w, v = np.linalg.eig(np.array([[0.0, 1.0], [-1.0, 0.0]]) * x[0] + np.eye(2) * x[1])
    return np.sum(np.abs(w))


@pytest.mark.parametrize("path", PATHS)
def test_eig_with_complex_eigenvalues_is_a_clear_error(path):
    """An s2s_ad error naming f, in grad and jvp on both paths (numpy's own ValueError from
    inside generated code was what users saw)."""
    x = np.array([1.0, 0.5])
    with pytest.raises(s2s_ad.NonDifferentiableError,
                       match=r"eig in complex_eigenvalues \(test_decompositions.py:\d+\) is "
                             r"supported for real eigenvalues only"):
        grad_on(path, complex_eigenvalues)(x)
    with pytest.raises(s2s_ad.NonDifferentiableError, match="real eigenvalues only"):
        jvp_on(path, complex_eigenvalues, (x,), np.ones(2))


def _frobenius_by_svd(A):
    return np.sum(np.linalg.svd(A, compute_uv=False) ** 2)


def _eigh_loss(A):
    w, V = np.linalg.eigh(A @ A.T + np.eye(3))
    return np.sum(np.log(w)) + np.sum(V[:, -1] ** 4)


@pytest.mark.parametrize("f", [_frobenius_by_svd, _eigh_loss])
def test_grad_of_grad_through_decompositions_is_finite(f):
    """The masked diagonal of the gaps (0 / 0, a constant 0) sends nothing back: grad of
    grad gave all nan where hvp was right."""
    A = np.array([[2.0, 0.3, 0.1], [0.2, 1.0, 0.4], [0.0, 0.5, 3.0]])
    g = s2s_ad.grad(f)

    def summed_gradient(A):
        return np.sum(g(A))
    got = s2s_ad.grad(summed_gradient)(A)
    assert np.allclose(got, s2s_ad.hvp(f)(A, np.ones((3, 3))), rtol=1e-6, atol=1e-8)


def split_pieces(x):
    a, b = np.split(x, [4])
    return np.sum(a ** 2 * b[0]) + np.sum(b ** 3)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, x", CASES + [(split_pieces, RNG.standard_normal(12))],
                         ids=lambda c: getattr(c, "__name__", ""))
def test_reverse_over_reverse_matches_differences_of_the_gradient(f, x, path):
    """vjp of the gradient (a derivative differentiated by reverse mode again): the
    decomposition's results are a tuple, whose items' adjoints are a list (np.zeros of
    its shape made an array of arrays of different shapes, or a float + list)."""
    from derivative_paths import central_difference, on_path
    v = np.linspace(0.5, 1.5, x.size)
    gradient = on_path(s2s_ad.grad(f), path)
    got = on_path(s2s_ad.vjp(gradient), path)(x, v)
    np.testing.assert_allclose(got, central_difference(s2s_ad.grad(f), x, v),
                               rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("f, call", [(sign_invariant, "np.linalg.svd("),
                                     (qr_loss, "np.linalg.qr(")])
def test_a_templates_choice_on_a_literal_argument_is_made(f, call):
    """svd's adjoint chooses on compute_uv, qr's on its mode: literal arguments, so the
    folder keeps the branch taken (`usv = t1_0`, not `t1_0 if True else
    np.linalg.svd(...)` computing nothing but its text)."""
    x = RNG.standard_normal(12)
    source = s2s_ad.derivative_source(s2s_ad.grad(f), x)
    assert " if True else " not in source and "== 'r'" not in source, source
    code = [line for line in source.splitlines() if not line.strip().startswith("#")]
    assert sum(line.count(call) for line in code) == 1, source      # the forward sweep's
