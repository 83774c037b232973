"""numpy and scipy functions handed to s2s_ad directly (`s2s_ad.grad(np.median)`, as
autograd users write it): differentiated through their templates, or an error naming
the function (it used to point at a line of numpy's own source)."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, on_path
from gradcheck import numeric_grad

X = np.array([0.3, -1.2, 0.8, 2.0, 0.1])
A = np.array([[1.0, 2.0, 0.5], [3.0, 5.0, -1.0], [0.2, 0.4, 2.0]])


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, x", [(np.median, X), (np.sum, X), (np.prod, X),
                                  (np.tanh, 0.5), (np.linalg.det, A),
                                  (np.linalg.norm, A)],
                         ids=["median", "sum", "prod", "tanh", "det", "norm"])
def test_grad_of_a_numpy_function(f, x, path):
    np.testing.assert_allclose(grad_on(path, f)(x), numeric_grad(f, (x,), 0), rtol=1e-6,
                               atol=1e-9)


@pytest.mark.parametrize("path", PATHS)
def test_two_operand_ufunc_and_forward_mode(path):
    jf = on_path(s2s_ad.jvp(np.arctan2, wrt=(0, 1)), path)
    args = (0.5, 0.7, (1.0, -2.0)) if path == "specialised" else \
        dict(x1=0.5, x2=0.7, tangent=(1.0, -2.0))
    value, tangent = jf(*args) if path == "specialised" else jf(**args)
    assert value == np.arctan2(0.5, 0.7)
    np.testing.assert_allclose(tangent, (0.7 - 2.0 * -0.5) / (0.5 ** 2 + 0.7 ** 2))


def test_jacobian_and_hessian_of_a_ufunc():
    x = X[:3]
    np.testing.assert_allclose(s2s_ad.jacobian(np.tanh)(x), np.diag(1.0 - np.tanh(x) ** 2))
    t = np.tanh(0.5)
    np.testing.assert_allclose(s2s_ad.hessian(np.tanh)(0.5), -2.0 * t * (1.0 - t * t))


def test_scipy_special_function():
    special = pytest.importorskip("scipy.special")
    np.testing.assert_allclose(s2s_ad.grad(special.logsumexp)(X),
                               np.exp(X) / np.sum(np.exp(X)))


@pytest.mark.parametrize("f, words", [(np.argmax, "numpy.argmax has no derivative"),
                                      (np.floor, "numpy.floor has no derivative"),
                                      (np.busday_count, "no derivative of numpy.busday_count")])
def test_functions_without_a_derivative_are_named(f, words):
    with pytest.raises(s2s_ad.APIUsageError, match=words) as info:
        s2s_ad.grad(f)
    assert "site-packages" not in str(info.value)


def test_a_math_function_handed_to_grad():
    # grad(math.sin) as grad(np.sin) is (session 15; it was "differentiates Python
    # functions defined with def")
    import math
    assert s2s_ad.grad(math.sin)(0.3) == pytest.approx(math.cos(0.3))
    assert s2s_ad.grad(math.atan2, wrt=1)(0.3, 0.7) == pytest.approx(-0.3 / (0.3 ** 2 + 0.7 ** 2))
    value, slope = s2s_ad.jvp(math.exp)(0.5, 2.0)
    assert value == pytest.approx(math.exp(0.5)) and slope == pytest.approx(2 * math.exp(0.5))


# every keyword the derivative takes is given: the general derivative is called directly here
@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, keywords", [
    (np.sum, dict(axis=0, dtype=None, keepdims=False)),
    (np.mean, dict(axis=1, dtype=None, keepdims=True)),
    (np.std, dict(axis=0, dtype=None, ddof=1, keepdims=False)),
    (np.linalg.norm, dict(ord="fro", axis=None, keepdims=False)),
    (np.max, dict(axis=1, keepdims=False))], ids=["sum", "mean", "std", "norm", "max"])
def test_keywords_of_a_numpy_function_are_passed_on(f, keywords, path):
    """grad(np.sum)(a, axis=0) (the function's own keywords after its arguments) used to
    be a TypeError from the generated def, which took only the required arguments."""
    U = np.linspace(0.5, 1.5, np.size(f(A, **keywords))).reshape(np.shape(f(A, **keywords)))

    def contracted(a):
        return np.sum(U * f(a, **keywords))
    vjp = on_path(s2s_ad.vjp(f), path)
    got = vjp(A, U, **keywords) if path == "specialised" else \
        vjp(A, cotangent=U, **keywords)
    np.testing.assert_allclose(got, numeric_grad(contracted, (A,), 0), rtol=1e-6, atol=1e-9)


def test_keywords_of_a_scipy_function_are_passed_on(both_paths):
    special = pytest.importorskip("scipy.special")
    b = np.array([[1.0, 0.5, 2.0], [0.3, 1.0, 1.0], [2.0, 2.0, 0.1]])
    grad = s2s_ad.grad(special.logsumexp)
    np.testing.assert_allclose(grad(A, b=b), b * np.exp(A) / np.sum(b * np.exp(A)))
    value, tangent = s2s_ad.jvp(special.logsumexp)(A, np.ones_like(A), axis=0, keepdims=True)
    np.testing.assert_allclose(value, special.logsumexp(A, axis=0, keepdims=True))
    np.testing.assert_allclose(tangent, np.ones((1, 3)))
