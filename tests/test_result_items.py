"""A numpy call's named-tuple result read item by item (ad/result_items.py): the items'
adjoints are a tuple at generation time, so a call whose value only its adjoint read is no
longer computed (np.linalg.slogdet, whose adjoint needs inv(A), not log|det(A)|).
Gradients against central differences on both derivative paths, second order, float32
and stacked matrices; what the specialised source holds."""
import re

import numpy as np
import pytest

import s2s_ad
from tests.derivative_paths import PATHS, check_against_differences, grad_on
from tests.gradcheck import assert_grad_matches

RNG = np.random.default_rng(2020)


def _spd(x):
    return x @ x.T + 4.0 * np.eye(len(x))


def logdet_unpacked(x):
    sign, logdet = np.linalg.slogdet(_spd_inline(x))
    return 2.0 * logdet


def _spd_inline(x):
    return x @ x.T + 4.0 * np.eye(3)


def logdet_indexed(S):
    return np.linalg.slogdet(S)[1] * 3.0


def evidence(log_params, X, y):
    """Bayesian linear regression's negative log evidence: C = s2 I + a X X^T."""
    a = np.exp(log_params[0])
    s2 = np.exp(log_params[1])
    C = s2 * np.eye(len(y)) + a * (X @ X.T)
    sign, logdet = np.linalg.slogdet(C)
    return 0.5 * logdet + 0.5 * y @ np.linalg.solve(C, y)


def logdet_and_sign(S, w):
    s, ld = np.linalg.slogdet(S)
    return ld * np.sum(w * w) + s * np.sum(w)


def gaussian_loglik(A, X):
    S = A @ A.T + np.eye(A.shape[0])
    sign, logdet = np.linalg.slogdet(S)
    P = np.linalg.inv(S)
    return 0.5 * X.shape[0] * logdet + 0.5 * np.sum((X @ P) * X)


def _code(source):
    """The generated statements without the provenance comments (they quote f's lines)."""
    return "\n".join(line.split("#")[0] for line in source.splitlines()[2:])


@pytest.mark.parametrize("path", PATHS)
def test_logdet_gradients_match_differences(path):
    S = _spd(RNG.standard_normal((4, 4)))
    assert_grad_matches(logdet_indexed, (S,), path=path)
    assert_grad_matches(logdet_and_sign, (S, RNG.standard_normal(3)), wrt=(0, 1), path=path)
    X, y = RNG.standard_normal((6, 2)), RNG.standard_normal(6)
    assert_grad_matches(evidence, (np.array([0.3, -0.4]), X, y), path=path)


@pytest.mark.parametrize("path", PATHS)
def test_logdet_second_order(path):
    check_against_differences(path, logdet_unpacked, RNG.standard_normal((3, 2)))


def test_no_determinant_computed_when_only_its_adjoint_read_it():
    X, y = RNG.standard_normal((6, 2)), RNG.standard_normal(6)
    args = (np.array([0.3, -0.4]), X, y)
    df = s2s_ad.grad(evidence)
    df(*args)
    code = _code(s2s_ad.derivative_source(df, *args))
    assert "slogdet(" not in code and "scatter_add" not in code and "match_adjoint" not in code
    assert "inverse_and_solve(C, y)" in code          # the one factorisation left
    S = _spd(RNG.standard_normal((4, 4)))
    code = _code(s2s_ad.derivative_source(s2s_ad.grad(logdet_indexed), S))
    assert "slogdet(" not in code and re.search(r"np\.linalg\.inv\(S\)", code)
    # the items' tuple is no scalar zero: what the adjoint reaches keeps its shape's facts
    # (S_bar @ A as by hand, no matmul_adjoint_a testing shapes at run time)
    A, X = RNG.standard_normal((3, 3)), RNG.standard_normal((5, 3))
    assert_grad_matches(gaussian_loglik, (A, X))
    code = _code(s2s_ad.derivative_source(s2s_ad.grad(gaussian_loglik), A, X))
    assert "slogdet(" not in code and "matmul_adjoint" not in code and "S_bar @" in code


def test_the_sign_read_keeps_the_call():
    """An item the result is still read for (the sign, a term of f) keeps the call."""
    S = _spd(RNG.standard_normal((3, 3)))
    df = s2s_ad.grad(logdet_and_sign, wrt=(0, 1))
    code = _code(s2s_ad.derivative_source(df, S, np.ones(3)))
    assert "np.linalg.slogdet(S)" in code and "scatter_add" not in code


@pytest.mark.parametrize("path", PATHS)
def test_float32_and_stacked_matrices(path):
    S = _spd(RNG.standard_normal((3, 3)))
    g = grad_on(path, logdet_indexed)(S.astype(np.float32))
    assert g.dtype == np.float32
    np.testing.assert_allclose(g, 3.0 * np.linalg.inv(S).T, rtol=1e-5)
    stacked = np.stack([S, 2.0 * S + np.eye(3)])

    def total(Ss):
        return np.sum(np.linalg.slogdet(Ss)[1] * np.array([1.0, 2.0]))
    g = grad_on(path, total)(stacked)
    want = np.linalg.inv(stacked).swapaxes(-1, -2) * np.array([1.0, 2.0])[:, None, None]
    np.testing.assert_allclose(g, want, rtol=1e-10)
