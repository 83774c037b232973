"""What users still hit on issue 15 (session 12): imports inside f, methods and held
functions of object arguments, np.maximum.accumulate, plain classes made in f, grad of
grad through an object made in f (functions as values: test_function_values_s12.py). Each checked on both derivative paths (`both_paths`)
through grad, value_and_grad, jvp, vjp, hvp and grad of grad against central
differences (`every_way`)."""
import dataclasses

import numpy as np
import pytest

import s2s_ad
from derivative_paths import every_way
from paths import fresh


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
    m = x * 2.0  # noqa: F811
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


# ---- methods and held functions of object arguments --------------------------------------

class Scaled:
    """A plain class: a number, a function it holds, a method reading both."""

    def __init__(self, w, act):
        self.w = w
        self.act = act
        self.label = "scaled"

    def loss(self, x):
        return self.act(self.w * x) * x


def loss_of_an_object(m, x):
    return m.loss(x) + m.w * x


def act_of_an_object(m, x):
    return m.act(x * m.w) * m.w


def test_method_of_an_object_argument_in_x(both_paths):
    """`m.loss(x)` with only x differentiated was an APIUsageError without a location
    (the bound method, a new object at every read, had no derivative of its own): the
    specialised derivative calls Scaled.loss(m, x) by name (the signature gives m's
    class), the general one differentiates the method's function with m first."""
    m = Scaled(1.3, np.tanh)
    f = fresh(loss_of_an_object)
    # grad of grad differentiates the general derivative of the inner gradient, which
    # calls the method as a function chosen when the code runs: through function_vjp's
    # reverse template (issue 15 point 2, session 13)
    every_way(f, 0.4, (m,))
    x, eps = 0.4, 1e-6
    expected = (f(m, x + eps) - f(m, x - eps)) / (2 * eps)
    np.testing.assert_allclose(s2s_ad.grad(f, wrt=1)(m, x), expected, rtol=1e-6)
    np.testing.assert_allclose(s2s_ad.jvp(f, wrt=1)(m, x, 2.0)[1], 2.0 * expected, rtol=1e-6)
    np.testing.assert_allclose(s2s_ad.vjp(f, wrt=1)(m, x, 2.0), 2.0 * expected, rtol=1e-6)
    second = (s2s_ad.grad(f, wrt=1)(m, x + eps) - s2s_ad.grad(f, wrt=1)(m, x - eps)) / (2 * eps)
    np.testing.assert_allclose(s2s_ad.hvp(f, wrt=1)(m, x, 1.0), second, rtol=1e-5)


def test_method_of_a_differentiated_object_argument():
    """The specialised derivative knows m's class: m.loss(x) with m differentiated is
    Scaled.loss(m, x), the gradient a Scaled with every attribute's part."""
    m, x, eps = Scaled(1.3, np.sin), 0.4, 1e-6
    f = fresh(loss_of_an_object)
    g = s2s_ad.grad(f)(m, x)
    assert type(g) is Scaled and g.act is None and g.label is None
    expected = (f(Scaled(m.w + eps, np.sin), x) - f(Scaled(m.w - eps, np.sin), x)) / (2 * eps)
    np.testing.assert_allclose(g.w, expected, rtol=1e-6)
    value, tangent = s2s_ad.jvp(f)(m, x, Scaled(1.0, None))
    np.testing.assert_allclose((value, tangent), (f(m, x), expected), rtol=1e-6)


def test_function_an_object_argument_holds(both_paths):
    """`m.act(x)` of a differentiated object holding a function was refused on the
    general path as a method call (the specialised one calls np.tanh by name)."""
    m, x, eps = Scaled(0.8, np.tanh), 0.3, 1e-6
    f = fresh(act_of_an_object)
    g = s2s_ad.grad(f)(m, x)
    expected = (f(Scaled(m.w + eps, np.tanh), x) - f(Scaled(m.w - eps, np.tanh), x)) / (2 * eps)
    assert type(g) is Scaled and g.act is None
    np.testing.assert_allclose(g.w, expected, rtol=1e-6)
    every_way(f, 0.3, (m,))


# ---- np.maximum.accumulate / np.minimum.accumulate ----------------------------------------

def running_peak_loss(x):
    peak = np.maximum.accumulate(x * x)
    trough = np.minimum.accumulate(np.sin(x), axis=0)
    return np.sum(peak * trough) + np.sum(np.maximum.accumulate(x[::-1]) ** 3)


def test_running_extrema_to_second_order(both_paths):
    """Were "no derivative is known for `np.maximum.accumulate(...)`"."""
    from derivative_paths import check_against_differences
    x = np.array([0.3, -1.2, 0.9, 0.5, 1.4, -0.7])
    check_against_differences(both_paths, fresh(running_peak_loss), x)
    f = fresh(running_peak_loss)
    v = np.linspace(-1.0, 1.0, x.size)
    # grad of grad: the gradient of <grad f, v> is the Hessian times v
    def along(x):
        return np.sum(s2s_ad.grad(f)(x) * v)
    np.testing.assert_allclose(s2s_ad.grad(along)(x), s2s_ad.hvp(f)(x, v), rtol=1e-8)


def running_max_sum(x):
    return np.sum(np.maximum.accumulate(x, axis=-1))


def test_running_maximum_tie_rule():
    """At a tie the derivative stays with the first entry reaching the running maximum
    (as builtin max's goes to the first): [1, 3, 3, 2] is [x0, x1, x1, x1]."""
    x = np.array([[1.0, 3.0, 3.0, 2.0], [5.0, 1.0, 5.0, 6.0]])
    np.testing.assert_array_equal(s2s_ad.grad(fresh(running_max_sum))(x),
                                  [[1.0, 3.0, 0.0, 0.0], [3.0, 0.0, 0.0, 1.0]])
    _, tangent = s2s_ad.jvp(fresh(running_max_sum))(x, np.ones_like(x) * [[1, 10, 100, 0]])
    np.testing.assert_allclose(tangent, (1 + 10 + 10 + 10) + (1 + 1 + 1 + 0))


# ---- plain classes made in f ---------------------------------------------------------

class Point:
    def __init__(self, x, y):
        """A plain class: __init__ only stores its parameters."""
        self.x = x
        self.y = y

    def norm2(self):
        return self.x ** 2 + self.y ** 2


class Pair:
    def __init__(self, first, second):
        self.a, self.b = second, first        # stored under other names, swapped


class Normalised:
    def __init__(self, x):
        self.x = x / np.sqrt(np.sum(x * x))   # computes: not a plain store


def point_made_in_f(x):
    p = Point(np.sin(x), x * 2.0)
    q = Pair(x, 3.0)
    return p.x * p.y + p.norm2() * q.b + q.a


def test_plain_class_made_in_f(both_paths):
    """`p = Point(x, y)` was "no derivative is known for `Point(...)`": a class whose
    __init__ only stores its parameters is differentiated through its attributes, as a
    dataclass made in f is, and its methods called on it too."""
    every_way(fresh(point_made_in_f), 0.6)


def normalised_in_f(x):
    return np.sum(Normalised(x).x)


def test_plain_class_computing_in_init_is_a_located_error():
    with pytest.raises(s2s_ad.MissingDerivativeError, match=r"`Normalised\(...\)`") as info:
        s2s_ad.grad(fresh(normalised_in_f))(np.ones(3))
    assert info.value.lineno == normalised_in_f.__code__.co_firstlineno + 1


def plain_object_argument(p, w):
    return np.sum(np.tanh(p.x * w) * p.y)


def test_plain_object_argument_gradient_is_an_object(both_paths):
    """The gradient for a plain object is an instance of its class (made without calling
    __init__), an attribute for each the object has."""
    from gradcheck import numeric_grad
    p, w = Point(np.array([0.5, -1.0]), np.array([2.0, 0.3])), 0.7
    g = s2s_ad.grad(fresh(plain_object_argument))(p, w)
    assert type(g) is Point
    for name in ("x", "y"):
        def along(v, name=name):
            q = Point(p.x, p.y)
            setattr(q, name, v)
            return plain_object_argument(q, w)
        np.testing.assert_allclose(getattr(g, name), numeric_grad(along, (getattr(p, name),), 0),
                                   rtol=1e-6)


@dataclasses.dataclass
class Polar:
    r: float
    t: float

    def area(self):
        return 0.5 * self.r ** 2 * self.t


def dataclass_made_in_f(x):
    p = Polar(np.sin(x), x * 2.0)
    return p.r * p.t + p.area()


def test_grad_of_grad_through_a_dataclass_made_in_f(both_paths):
    """grad of grad was wrong (hvp right): the adjoint of field_adjoints was an object
    where the backward sweep reads the object's adjoint as a dict, which read it as
    zero, dropping the part through the attributes (fields_adjoint)."""
    every_way(fresh(dataclass_made_in_f), 0.6)
