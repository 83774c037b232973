"""What users still hit on issue 15 (session 12): imports inside f, functions made in f
and given to s2s_ad.grad or kept in a dict, plain classes made in f, methods of object
arguments, np.maximum.accumulate. Each checked on both derivative paths (`both_paths`)
through grad, value_and_grad, jvp, vjp, hvp and grad of grad against central
differences (`every_way`)."""
import numpy as np
import pytest

import s2s_ad
from paths import fresh


def every_way(f, x, eps=1e-5):
    """f (a float -> a float) at x: grad, value_and_grad, jvp, vjp, hvp and grad of grad
    against central differences of f and of its gradient."""
    def diff(g):
        return (g(x + eps) - g(x - eps)) / (2 * eps)
    first, second = diff(f), diff(s2s_ad.grad(f))
    np.testing.assert_allclose(s2s_ad.grad(f)(x), first, rtol=1e-6, atol=1e-9)
    value, gradient = s2s_ad.value_and_grad(f)(x)
    np.testing.assert_allclose((value, gradient), (f(x), first), rtol=1e-6, atol=1e-9)
    value, tangent = s2s_ad.jvp(f)(x, 0.5)
    np.testing.assert_allclose((value, tangent), (f(x), 0.5 * first), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(s2s_ad.vjp(f)(x, 2.0), 2.0 * first, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(s2s_ad.hvp(f)(x, 1.5), 1.5 * second, rtol=1e-5, atol=1e-8)
    np.testing.assert_allclose(s2s_ad.grad(s2s_ad.grad(f))(x), second, rtol=1e-5, atol=1e-8)
    # the reference itself is not flat: a zero derivative would pass no check above
    assert abs(first) > 1e-3 and abs(second) > 1e-3


# ---- imports inside f: the names they bind are facts of the derivative -----------------

def imports_numpy(x):
    import numpy as np
    return np.sin(x) * x


def imports_from_math(x):
    from math import exp, sin as sine
    return exp(x) * sine(x)


def imports_a_submodule(x):
    import numpy.linalg
    import numpy as onp
    A = onp.array([[2.0, x], [x, 3.0]])
    return numpy.linalg.det(A) * onp.cos(x)


def imports_in_a_branch(x):
    if x > 0.0:
        from numpy import tanh
        return tanh(x) ** 2 + x
    return x * x


@pytest.mark.parametrize("f", [imports_numpy, imports_from_math, imports_a_submodule,
                               imports_in_a_branch])
def test_imports_inside_f(both_paths, f):
    """Were "imports inside a differentiated function are not supported"."""
    every_way(fresh(f), 0.7)


def imports_twice(x):
    import math as m
    m = x * 2.0
    return m


def imports_relative(x):
    from . import nothing  # noqa: F401
    return x


def imports_a_missing_module(x):
    import no_such_module_s2s  # noqa: F401
    return x


@pytest.mark.parametrize("f, message", [
    (imports_twice, "`m` is bound by this import and by another statement"),
    (imports_relative, "a relative import"),
    (imports_a_missing_module, "this import fails"),
])
def test_imports_that_bind_no_fact_are_located_errors(f, message):
    with pytest.raises(s2s_ad.UnsupportedSyntaxError, match=message) as info:
        s2s_ad.grad(fresh(f))(0.5)
    assert info.value.lineno == f.__code__.co_firstlineno + 1
