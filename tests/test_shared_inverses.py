"""Linear algebra gradients share one inverse (optimize/shared_inverses.py) and invert a
cholesky factor as a triangular matrix (runtime_triangular.lower_inverse): gradients against
central differences on both derivative paths, second order through the templates, what
the specialised source holds (no solve left where an inverse is computed anyway), and the
programs where nothing may be shared."""
import numpy as np
import pytest

import s2s_ad
from s2s_ad.runtime_linalg import inverse_and_solve
from s2s_ad.runtime_triangular import lower_inverse

from derivative_paths import PATHS, hvp_on
from gradcheck import assert_grad_matches, numeric_grad

RNG = np.random.default_rng(1313)
N = 5


def spd(x):
    return x @ x.T + N * np.eye(N)


# the programs build their matrices inline: facts do not yet flow through a call of spd
def gaussian_nll(x, y):
    S = x @ x.T + 5.0 * np.eye(len(x))
    sign, logdet = np.linalg.slogdet(S)
    return 0.5 * logdet + 0.5 * y @ np.linalg.solve(S, y)


def cholesky_nll(x, y):
    L = np.linalg.cholesky(x @ x.T + 5.0 * np.eye(len(x)))
    alpha = np.linalg.solve(L.T, np.linalg.solve(L, y))
    return 0.5 * y @ alpha + np.sum(np.log(np.diag(L)))


def mahalanobis(x, Y):
    L = np.linalg.cholesky(x @ x.T + 5.0 * np.eye(len(x)))
    Z = np.linalg.solve(L, Y)                  # a matrix of right-hand sides
    return np.sum(Z * Z) + 2.0 * np.sum(np.log(np.diag(L)))


def density_with_inverse(x, y):
    S = x @ x.T + 5.0 * np.eye(len(x))
    P = np.linalg.inv(S)                       # the user's own inverse: the adjoint reads it
    return 0.5 * np.linalg.slogdet(S)[1] + 0.5 * y @ P @ y + np.sum(np.linalg.solve(S.T, y))


def det_and_transposed_solve(A, b):
    M = A + N * np.eye(N)
    return np.linalg.det(M) * np.sum(np.linalg.solve(M.T, b) ** 2)


def solves_only(A, b):
    M = A + N * np.eye(N)                      # no inverse anywhere: the solves stay
    return np.sum(np.linalg.solve(M, b) ** 2)


def rebound(A, b):
    M = A + N * np.eye(N)
    x = np.linalg.solve(M, b)
    M = M * 2.0                                # M is two values: nothing shared
    return np.linalg.slogdet(M)[1] + np.sum(x * x)


def two_matrices(x, y):
    """Two groups: rewriting L's moves statements, S's sites are found again after it."""
    S = x @ x.T + 5.0 * np.eye(len(y))
    L = np.linalg.cholesky(S)
    alpha = np.linalg.solve(L.T, np.linalg.solve(L, y))
    sign, logdet = np.linalg.slogdet(S)
    return 0.5 * y @ alpha + np.sum(np.log(np.diag(L))) + logdet \
        + np.sum(np.linalg.solve(S, y))


PROGRAMS = [(two_matrices, [(N, N), (N,)]), (gaussian_nll, [(N, N), (N,)]), (cholesky_nll, [(N, N), (N,)]),
            (mahalanobis, [(N, N), (N, 3)]), (density_with_inverse, [(N, N), (N,)]),
            (det_and_transposed_solve, [(N, N), (N,)]), (solves_only, [(N, N), (N,)]),
            (rebound, [(N, N), (N,)])]


def _args(shapes):
    return [0.3 * RNG.standard_normal(s) for s in shapes]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, shapes", PROGRAMS, ids=[p[0].__name__ for p in PROGRAMS])
def test_gradient_against_differences(f, shapes, path):
    assert_grad_matches(f, _args(shapes), wrt=(0, 1), path=path)


@pytest.mark.parametrize("f", [gaussian_nll, cholesky_nll], ids=lambda f: f.__name__)
def test_second_order_through_the_templates(f):
    x, y = _args([(N, N), (N,)])
    v = RNG.standard_normal((N, N))
    got = hvp_on("specialised", lambda x: f(x, y), (x,), v)
    df = s2s_ad.grad(f)
    expected = (df(x + 1e-6 * v, y) - df(x - 1e-6 * v, y)) / 2e-6
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-7)


def _source(f, shapes):
    df = s2s_ad.grad(f, wrt=(0, 1))
    args = _args(shapes)
    df(*args)
    return "\n".join(line for line in s2s_ad.derivative_source(df, *args).splitlines()
                     if not line.strip().startswith("#"))      # not the provenance comments


def test_a_solve_beside_slogdet_computes_the_inverse_once():
    src = _source(gaussian_nll, [(N, N), (N,)])
    assert "np.linalg.solve" not in src and "np.linalg.inv" not in src
    assert src.count("inverse_and_solve(") == 1


def test_solves_against_a_cholesky_factor_read_its_triangular_inverse():
    for f, shapes in [(cholesky_nll, [(N, N), (N,)]), (mahalanobis, [(N, N), (N, 3)])]:
        src = _source(f, shapes)
        assert "np.linalg.solve" not in src and "np.linalg.inv" not in src
        assert src.count("lower_inverse(") == 1


def test_each_of_two_matrices_shares_its_inverse():
    src = _source(two_matrices, [(N, N), (N,)])
    assert "np.linalg.solve(" not in src and "np.linalg.inv(" not in src
    assert src.count("lower_inverse(") == 1 and src.count("inverse_and_solve(") == 1


def test_the_users_inverse_serves_the_adjoint_and_the_backward_solves():
    src = _source(density_with_inverse, [(N, N), (N,)])
    assert src.count("np.linalg.inv(") == 1
    assert src.count("np.linalg.solve(") == 1      # the user's own, in the forward sweep


def two_solves(A, b):
    M = A @ A.T + 5.0 * np.eye(len(b))
    sign, logdet = np.linalg.slogdet(M)
    return logdet + np.sum(np.linalg.solve(M, np.linalg.solve(M, b)) ** 2)


def test_a_second_forward_solve_against_a_general_matrix_stays_a_solve():
    """The first computes the inverse with it; the second's value is the user's, and a
    product with an explicit inverse is not a solve's answer."""
    src = _source(two_solves, [(N, N), (N,)])
    forward = src.split("\n\n")[0]
    assert forward.count("inverse_and_solve(") == 1 and forward.count("np.linalg.solve(") == 1
    assert src.count("np.linalg.solve(") == 1
    for path in PATHS:
        assert_grad_matches(two_solves, _args([(N, N), (N,)]), wrt=(0, 1), path=path)


@pytest.mark.parametrize("f", [solves_only, rebound], ids=lambda f: f.__name__)
def test_nothing_is_shared_without_an_inverse_or_with_two_values(f):
    src = _source(f, [(N, N), (N,)])
    assert "np.linalg.solve(" in src and "inverse_and_solve" not in src


def gaussian_nll32(x, y):
    S = x @ x.T + np.eye(len(x), dtype=np.float32)
    sign, logdet = np.linalg.slogdet(S)
    return 0.5 * logdet + 0.5 * y @ np.linalg.solve(S, y)


def cholesky_nll32(x, y):
    L = np.linalg.cholesky(x @ x.T + np.eye(len(x), dtype=np.float32))
    alpha = np.linalg.solve(L.T, np.linalg.solve(L, y))
    return 0.5 * y @ alpha + np.sum(np.log(np.diag(L)))


def test_float32_stays_float32():
    x, y = (a.astype(np.float32) for a in _args([(N, N), (N,)]))
    for f in (gaussian_nll32, cholesky_nll32):
        gx, gy = s2s_ad.grad(f, wrt=(0, 1))(x, y)
        assert gx.dtype == np.float32 and gy.dtype == np.float32
        np.testing.assert_allclose(gx, numeric_grad(f, (x.astype(float), y.astype(float)), 0),
                                   rtol=2e-2, atol=2e-3)


def test_value_and_grad_keeps_the_users_value():
    x, y = _args([(N, N), (N,)])
    value, _ = s2s_ad.value_and_grad(gaussian_nll)(x, y)
    np.testing.assert_allclose(value, gaussian_nll(x, y), rtol=1e-14)


def test_inverse_and_solve_is_one_factorisation_of_both():
    a = spd(RNG.standard_normal((N, N)))
    for b in (RNG.standard_normal(N), RNG.standard_normal((N, 2))):
        inverse, x = inverse_and_solve(a, b)
        np.testing.assert_allclose(inverse, np.linalg.inv(a), rtol=1e-12)
        np.testing.assert_allclose(x, np.linalg.solve(a, b), rtol=1e-12)
        assert x.shape == b.shape
    with pytest.raises(ValueError):
        inverse_and_solve(a, np.ones((2, N)))     # b's rows do not match: numpy's error
    stacked = np.stack([a, 2.0 * a])          # batched: numpy's own calls
    inverse, x = inverse_and_solve(stacked, np.ones((2, N, 1)))
    np.testing.assert_allclose(inverse, np.linalg.inv(stacked))


def test_inverse_and_solve_hands_lapack_fortran_columns(monkeypatch):
    """The right-hand sides reach np.linalg.solve in Fortran order (a C-ordered one is
    copied column by column, strided: 1.3x np.linalg.inv at n = 200), and the answers are
    those of solving for b alone and for the identity alone."""
    a = spd(RNG.standard_normal((N, N)))
    seen, solve = [], np.linalg.solve

    def recording(m, rhs):
        seen.append(rhs.flags["F_CONTIGUOUS"])
        return solve(m, rhs)

    monkeypatch.setattr(np.linalg, "solve", recording)
    for b in (RNG.standard_normal(N), RNG.standard_normal((N, 3)), np.arange(N)):
        inverse, x = inverse_and_solve(a, b)
        np.testing.assert_allclose(x, solve(a, b.astype(float)), rtol=1e-13)
        np.testing.assert_allclose(inverse, solve(a, np.eye(N)), rtol=1e-13, atol=1e-16)
        assert x.shape == b.shape and inverse.shape == a.shape
    assert seen == [True, True, True]


@pytest.mark.parametrize("n", [1, 7, 64, 65, 130, 200])
def test_lower_inverse_is_the_inverse_of_the_lower_triangle(n):
    a = RNG.standard_normal((n, n))
    l = np.linalg.cholesky(a @ a.T + n * np.eye(n))
    noisy = l + np.triu(RNG.standard_normal((n, n)), 1)     # the upper part is not read
    w = lower_inverse(noisy)
    assert np.array_equal(w, np.tril(w))
    np.testing.assert_allclose(w @ l, np.eye(n), atol=1e-12)


def logdet32(x):
    sign, logdet = np.linalg.slogdet(x @ x.T + np.eye(len(x), dtype=np.float32))
    return 0.5 * logdet


@pytest.mark.parametrize("path", PATHS)
def test_slogdet_alone_keeps_float32(path):
    """slogdet's adjoint of a number (0.5 here) scales inv(A)^T without widening it."""
    from derivative_paths import grad_on
    x = _args([(N, N)])[0].astype(np.float32)
    g = grad_on(path, logdet32)(x)
    assert g.dtype == np.float32
    np.testing.assert_allclose(g, numeric_grad(logdet32, (x.astype(float),), 0),
                               rtol=2e-2, atol=2e-3)
