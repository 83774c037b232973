"""Each derivative both ways it is built: specialised on the arguments' kinds (the function
grad / jvp hand out) and the general fallback (what S2S_AD_GENERAL=1 runs), and the one
place tests of the issue-14 rules call a jvp (its calling order: arguments, then tangent)."""
import inspect

import numpy as np

import s2s_ad
from s2s_ad.api import general_derivative

PATHS = ("specialised", "general")


def on_path(derivative, path):
    return derivative if path == "specialised" else general_derivative(derivative)


def grad_on(path, f, wrt=0):
    return on_path(s2s_ad.grad(f, wrt=wrt), path)


def jvp_on(path, f, args, tangent, wrt=0):
    """(value, tangent of the value) of f at args along `tangent`. The general derivative
    is the generated function itself: every argument goes by name, its tangent parameter
    being the one f does not have (whatever place it takes)."""
    return with_vector(path, s2s_ad.jvp(f, wrt=wrt), f, args, tangent)


def hvp_on(path, f, args, vector, wrt=0):
    """The Hessian of f at args times `vector`."""
    return with_vector(path, s2s_ad.hvp(f, wrt=wrt), f, args, vector)


def with_vector(path, derivative, f, args, vector):
    if path == "specialised":
        return derivative(*args, vector)
    names = list(inspect.signature(f).parameters)
    general = on_path(derivative, path)
    extra = [p for p in inspect.signature(general).parameters if p not in names]
    return general(**dict(zip(names, args)), **{extra[0]: vector})


def central_difference(f, x, v, eps=1e-6):
    """d/de f(x + e v) at e = 0 (x a float or an array; a 0-d array stays one, as f may
    index it)."""
    x = np.asarray(x, dtype=float) if np.ndim(x) or isinstance(x, np.ndarray) else float(x)
    return (np.asarray(f(x + eps * v)) - np.asarray(f(x - eps * v))) / (2 * eps)


def grads_against_differences(path, f, args, wrt, rtol=1e-6, atol=1e-8):
    """grad of f in each argument of `wrt` at args on `path` against central differences,
    of the argument's shape."""
    from gradcheck import numeric_grad
    for k in wrt:
        got = grad_on(path, f, k)(*args)
        assert np.shape(got) == np.shape(args[k])
        np.testing.assert_allclose(got, numeric_grad(f, args, k), rtol=rtol, atol=atol)


def check_against_differences(path, f, x, second_order=True):
    """grad, jvp (along a fixed direction) and hvp of f at the array x on `path` against
    central differences."""
    from gradcheck import numeric_grad
    expected = numeric_grad(f, (x,), 0)
    np.testing.assert_allclose(grad_on(path, f)(x), expected, rtol=1e-6, atol=1e-8)
    v = np.linspace(0.5, 1.5, x.size).reshape(x.shape)
    value, tangent = jvp_on(path, f, (x,), v)
    # (a literal x ** 3 is computed as x * x * x: 1 ulp per element from f's pow(), which a
    # sum cancelling to ~0 shows as a large relative difference; README, integer powers)
    np.testing.assert_allclose(value, f(x), rtol=1e-7, atol=1e-13)
    np.testing.assert_allclose(tangent, np.sum(expected * v), rtol=1e-6, atol=1e-8)
    if second_order:
        np.testing.assert_allclose(hvp_on(path, f, (x,), v),
                                   central_difference(s2s_ad.grad(f), x, v),
                                   rtol=1e-5, atol=1e-7)


def every_way(f, x, before=(), eps=1e-5, grad_of_grad=True):
    """f(*before, x) (a float in x) at x: grad, value_and_grad, jvp, vjp, hvp and grad of
    grad in x against central differences of f and of its gradient."""
    k = len(before)

    def diff(g):
        return (g(*before, x + eps) - g(*before, x - eps)) / (2 * eps)
    grad = s2s_ad.grad(f, wrt=k)
    first, second = diff(f), diff(grad)
    np.testing.assert_allclose(grad(*before, x), first, rtol=1e-6, atol=1e-9)
    value, gradient = s2s_ad.value_and_grad(f, wrt=k)(*before, x)
    np.testing.assert_allclose((value, gradient), (f(*before, x), first), rtol=1e-6, atol=1e-9)
    value, tangent = s2s_ad.jvp(f, wrt=k)(*before, x, 0.5)
    np.testing.assert_allclose((value, tangent), (f(*before, x), 0.5 * first), rtol=1e-6,
                               atol=1e-9)
    np.testing.assert_allclose(s2s_ad.vjp(f, wrt=k)(*before, x, 2.0), 2.0 * first, rtol=1e-6,
                               atol=1e-9)
    np.testing.assert_allclose(s2s_ad.hvp(f, wrt=k)(*before, x, 1.5), 1.5 * second,
                               rtol=1e-5, atol=1e-8)
    if grad_of_grad:
        np.testing.assert_allclose(s2s_ad.grad(grad, wrt=k)(*before, x), second, rtol=1e-5,
                                   atol=1e-8)
    # the reference itself is not flat: a zero derivative would pass no check above
    assert abs(first) > 1e-3 and abs(second) > 1e-3
