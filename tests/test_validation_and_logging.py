"""Code that checks its inputs and reports as it goes, differentiated as written:
`raise` (kept in the forward sweep, where it stops the derivative as it stops f), and
log and warning calls (`logging`, a Logger's methods, `warnings.warn`) whose arguments
carry derivatives: they format their arguments and change none."""
import logging
import warnings

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, check_against_differences, grad_on, hvp_on, jvp_on
from gradcheck import numeric_grad

log = logging.getLogger("s2s_ad.tests.validation")


def penalty(x, kind="l2"):
    if kind == "l2":
        return np.sum(x ** 2)
    elif kind == "l1":
        return np.sum(np.abs(x))
    else:
        raise ValueError(f"unknown kind {kind!r}")


def smoothness(x):
    if x.shape[0] < 2:
        raise ValueError("need at least two points, got %d" % x.shape[0])
    d = np.diff(x)
    return np.sum(d * d)


def root_sum(x):
    total = 0.0
    for i in range(x.shape[0]):
        if x[i] < 0:
            raise ValueError("negative entry")
        total = total + np.sqrt(x[i])
    return total


def rbf(x, ell):
    """A helper that validates its own argument (inlined into its caller)."""
    if ell <= 0.0:
        raise ValueError("length scale must be positive")
    return np.exp(-0.5 * x * x / (ell * ell))


def uses_rbf(x, ell):
    return np.sum(rbf(x, ell) * x)


def logged(x):
    y = np.sum(np.tanh(x) ** 2)
    log.debug("loss %s", y)
    logging.info("loss %.3f", y)
    if y > 100.0:
        warnings.warn(f"large loss {y}", RuntimeWarning)
    return y


X = np.array([0.3, 0.5, 0.9, 1.4])


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [smoothness, root_sum, logged])
def test_checked_and_logged_functions_differentiate(f, path):
    check_against_differences(path, f, X)


@pytest.mark.parametrize("path", PATHS)
def test_raise_on_a_branch_not_taken(path):
    np.testing.assert_allclose(grad_on(path, penalty)(X), 2 * X)
    np.testing.assert_allclose(grad_on(path, penalty)(X, "l1"), np.sign(X))
    np.testing.assert_allclose(grad_on(path, uses_rbf)(X, 0.8),
                               numeric_grad(uses_rbf, (X, 0.8), 0), rtol=1e-6)
    np.testing.assert_allclose(grad_on(path, uses_rbf, wrt=1)(X, 0.8),
                               numeric_grad(uses_rbf, (X, 0.8), 1), rtol=1e-6)


@pytest.mark.parametrize("path", PATHS)
def test_the_derivative_raises_what_f_raises(path):
    with pytest.raises(ValueError, match="unknown kind 'huber'"):
        grad_on(path, penalty)(X, "huber")
    with pytest.raises(ValueError, match="got 1"):
        grad_on(path, smoothness)(X[:1])
    with pytest.raises(ValueError, match="negative entry"):
        grad_on(path, root_sum)(-X)
    with pytest.raises(ValueError, match="length scale"):
        grad_on(path, uses_rbf)(X, -1.0)
    with pytest.raises(ValueError, match="negative entry"):
        jvp_on(path, root_sum, (-X,), X)
    with pytest.raises(ValueError, match="negative entry"):
        hvp_on(path, root_sum, (-X,), X)


def test_every_entry_point_through_a_check():
    value, gradient = s2s_ad.value_and_grad(smoothness)(X)
    assert value == smoothness(X)
    np.testing.assert_allclose(gradient, numeric_grad(smoothness, (X,), 0), rtol=1e-6)
    hessian = s2s_ad.hessian(smoothness)(X)
    np.testing.assert_allclose(hessian @ X, s2s_ad.hvp(smoothness)(X, X), rtol=1e-9)
    second = s2s_ad.grad(lambda_free_scalar)(0.7)
    np.testing.assert_allclose(second, numeric_grad(lambda_free_scalar, (0.7,), 0),
                               rtol=1e-6)
    with pytest.raises(ValueError, match="must be below 2"):
        s2s_ad.grad(lambda_free_scalar)(2.5)


def lambda_free_scalar(a):
    if a >= 2.0:
        raise ValueError("a must be below 2")
    return s2s_ad.grad(inner_scalar)(a) * a


def inner_scalar(a):
    if a < -10.0:
        raise ValueError("too small")
    return a ** 3


def test_a_warning_in_f_is_warned_by_the_derivative():
    big = np.full(200, 3.0)
    with pytest.warns(RuntimeWarning, match="large loss"):
        s2s_ad.grad(logged)(big)


def bare_reraise(x):
    if x.shape[0] == 0:
        raise
    return np.sum(x)


def test_a_bare_raise_is_a_located_error():
    with pytest.raises(s2s_ad.UnsupportedSyntaxError, match="bare `raise`") as info:
        s2s_ad.grad(bare_reraise)(X)
    assert "test_validation_and_logging.py" in str(info.value) and "^" in str(info.value)
