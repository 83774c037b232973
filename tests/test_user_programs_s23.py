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


# ---- functions made in f given to s2s_ad's transforms (JAX's `jax.grad(lambda y: ...)`) --
import s2s_ad  # noqa: E402

W = np.arange(6.0).reshape(2, 3) / 5


def energy(y):
    return np.sum(np.sin(y) * y ** 2)


def lambda_written_there(x):
    """the lambda is the transform's argument, reading a global"""
    return np.sum(s2s_ad.grad(lambda y: np.sum(np.tanh(W @ y)))(x) ** 2)


def lambda_reading_f(x):
    """the lambda reads f's variable c: f's derivative flows through c too"""
    c = np.cos(x)
    return np.sum(s2s_ad.grad(lambda y: np.sum(np.tanh(W @ (y * c))))(x) ** 2)


def named_lambda(x):
    g = lambda y: np.sum(y ** 3 * x[0])          # noqa: E731 (as users write it)
    value, gradient = s2s_ad.value_and_grad(g)(x)
    return value + np.sum(gradient * x)


def jacobian_of_lambda(x):
    return np.sum(s2s_ad.jacobian(lambda y: np.tanh(W @ y))(x) ** 2)


def trace_of_hessian(x):
    return np.trace(s2s_ad.hessian(energy)(x)) + np.sum(x ** 2)


def hessian_of_nested_def(x):
    c = 0.5 + x[0] ** 2

    def inner(y):
        return np.sum(np.cos(y) * c)
    return np.sum(s2s_ad.hessian(inner)(x) ** 2)


X3 = np.array([0.3, -0.2, 0.5])


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [lambda_written_there, lambda_reading_f, named_lambda,
                               jacobian_of_lambda, trace_of_hessian, hessian_of_nested_def],
                         ids=lambda f: f.__name__)
def test_functions_made_in_f_given_to_transforms(f, path):
    check_against_differences(path, f, X3)


# ---- a nested def calling itself (a module-level one always could) -----------------------
def nested_recursion(x):
    def rec(y, n):
        if n == 0:
            return y
        return rec(np.sin(y), n - 1)
    return np.sum(rec(x, 3))


def nested_recursion_reading_f(x):
    """rec reads f's `scale`, computed from x: the derivative flows through it too"""
    scale = 0.5 + x[0] ** 2

    def rec(y, n):
        if n <= 0:
            return np.sum(y)
        return rec(np.tanh(y * scale), n - 1) + np.sum(y ** 2)
    return rec(x, n=2)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [nested_recursion, nested_recursion_reading_f],
                         ids=lambda f: f.__name__)
def test_nested_def_calling_itself(f, path):
    check_against_differences(path, f, X3)


def nested_recursion_with_default(x):
    def rec(y, n=3):
        if n == 0:
            return y
        return rec(np.sin(y), n - 1)
    return np.sum(rec(x))


def test_nested_recursion_with_a_default_is_a_located_error():
    with pytest.raises(s2s_ad.UnsupportedSyntaxError) as info:
        s2s_ad.grad(nested_recursion_with_default)(X3)
    text = str(info.value)
    assert "`rec` calls itself" in text and "plain parameters" in text \
        and "test_user_programs_s23.py" in text and "^" in text


# ---- third order through np.prod (hvp of a function calling grad of a product) ------------
def product(y):
    return np.prod(y)


def squared_gradient_of_product(x):
    return np.sum(s2s_ad.grad(product)(x) ** 2) + np.sum(np.prod(x.reshape(2, 2), axis=1))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("x", [np.array([0.3, -0.5, 0.8, 1.2]), np.array([0.3, 0.0, 0.8, 1.2])],
                         ids=["no_zero", "a_zero"])
def test_third_order_through_prod(x, path):
    check_against_differences(path, squared_gradient_of_product, x)


# ---- an object called as soon as it is made (`Poly(c)(t)`, as `p = Poly(c); p(t)`) -------
class Poly:
    def __init__(self, coeffs):
        self.coeffs = coeffs

    @property
    def degree(self):
        return len(self.coeffs) - 1

    def __call__(self, t):
        out = 0.0
        for k in range(self.degree + 1):
            out = out + self.coeffs[k] * t ** k
        return out


def call_of_constructed_object(x):
    return np.sum(Poly(x)(np.linspace(0.0, 1.0, 5)) ** 2)


@pytest.mark.parametrize("path", PATHS)
def test_object_called_as_soon_as_made(path):
    check_against_differences(path, call_of_constructed_object, X3)
