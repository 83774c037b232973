"""Programs a new user writes, each cut down from one left in session 25 (repros in
/work/s25-users-left), on both derivative paths: right gradients where s2s_ad can
differentiate them, a located s2s_ad error at the user's line where it cannot."""
import dataclasses
import inspect
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, check_against_differences
from gradcheck import numeric_grad
from s2s_ad.api import general_derivative
from s2s_ad.errors import MissingDerivativeError

X3 = np.array([0.5, -1.0, 2.0])

_SQUARE_ITEMS = np.vectorize(lambda v: v * v)


def vectorized_in_f(x):
    return np.sum(np.vectorize(np.sin)(x))


def frompyfunc_in_f(x):
    return np.sum(np.frompyfunc(np.sin, 1, 1)(x).astype(float))


def vectorized_by_name(x):
    g = np.vectorize(np.cos)
    return np.sum(g(x) * x)


def vectorized_at_module_level(x):
    return np.sum(_SQUARE_ITEMS(x))


def _line_of(f, text):
    lines, first = inspect.getsourcelines(f)
    return first + next(k for k, line in enumerate(lines) if text in line)


@pytest.mark.parametrize("f, text", [
    (vectorized_in_f, "np.vectorize"), (frompyfunc_in_f, "np.frompyfunc"),
    (vectorized_by_name, "np.vectorize"), (vectorized_at_module_level, "_SQUARE_ITEMS(x)")])
def test_an_item_by_item_function_is_refused_at_the_users_line(both_paths, f, text):
    """np.vectorize / np.frompyfunc of g: numpy calls g item by item, where no derivative
    reaches. The error was located in s2s_ad's runtime_functions.py (the call's vjp built
    when the derivative ran); now at the user's line, saying what to write instead."""
    with pytest.raises(MissingDerivativeError) as info:
        s2s_ad.grad(f)(X3)
    assert info.value.filename == __file__
    assert info.value.lineno == _line_of(f, text)
    assert "one item at a time" in str(info.value)


class Pair:
    """a value type of yours: its operators and methods return new Pairs"""

    def __init__(self, a, b):
        self.a, self.b = a, b

    def __sub__(self, other):
        return Pair(self.a - other.a, self.b * other.b)

    def __mul__(self, k):
        return Pair(self.a * k, self.b + k)

    def __rmul__(self, k):
        return type(self)(self.a * k, self.b * k)

    def __neg__(self):
        return self.__class__(-self.a, -self.b)

    def scaled(self, k):
        return Pair(self.a * k, self.b * k)

    def total(self):
        return self.a + self.b


@dataclass
class Vec:
    x: np.ndarray
    y: np.ndarray

    def __add__(self, other):
        return Vec(self.x + other.x, self.y + other.y)

    def __mul__(self, k):
        return Vec(self.x * k, self.y * k)

    def dot(self, other):
        return np.sum(self.x * other.x + self.y * other.y)


def result_of_an_operator(x):
    """(p - q)'s class was not known: `* 3.0` was numpy's product (TypeError inside the
    derivative: dict * float)"""
    p, q = Pair(x[0], x[1]), Pair(x[1], x[2])
    d = (p - q) * 3.0
    return d.a * d.b


def operators_by_name(x):
    """a reflected operator, a unary one, made by type(self)(...) / self.__class__(...)"""
    p, q = Pair(x[0], x[1]), Pair(x[1], x[2])
    d = p - q
    e = 2.0 * d
    g = -e
    return g.scaled(0.5).total() * e.a


def chained_methods(x):
    """a method returning a new object, called on its result (the object's state was made
    locals, losing the result's class: `.total()` read as an array method)"""
    p = Pair(x[0], x[1])
    return p.scaled(2.0).scaled(x[2]).total()


def arrays_in_pairs(x):
    p, q = Pair(x, x ** 2), Pair(np.sin(x), x)
    r = (p - q).scaled(1.5)
    return np.sum(r.a * r.b)


def accumulated_in_a_loop(x):
    """`acc = acc + v * k`: the name bound twice, each time to a Vec"""
    v = Vec(x, x ** 2)
    acc = Vec(np.zeros(3), np.zeros(3))
    for k in range(3):
        acc = acc + v * (0.5 * k)
    return acc.dot(v)


def _make_pair(x):
    return Pair(x[0], x[1])


def made_by_a_helper(x):
    """a def of yours returning a Pair: its result's `*` is Pair.__mul__"""
    d = _make_pair(x) * 2.0
    return d.a * d.b


@pytest.mark.parametrize("f", [result_of_an_operator, operators_by_name, chained_methods,
                               arrays_in_pairs, accumulated_in_a_loop, made_by_a_helper])
@pytest.mark.parametrize("path", PATHS)
def test_objects_made_by_operators_and_methods_of_your_class(f, path):
    check_against_differences(path, f, np.array([0.3, -0.7, 1.1]))


@dataclass(frozen=True)
class Params:
    w: np.ndarray
    s: float = 1.0


class State(NamedTuple):
    pos: np.ndarray
    vel: np.ndarray


def dataclass_replaced_in_f(x):
    p = Params(x, 0.5)
    q = dataclasses.replace(p, w=p.w * 3.0)
    return np.sum(q.w * x) * q.s


def namedtuple_stepped(x):
    """the state rebound by `_replace` in a loop (its class: State's, each time)"""
    s = State(x, np.zeros(3))
    for _ in range(3):
        s = s._replace(vel=s.vel + 0.1 * s.pos)
        s = s._replace(pos=s.pos + 0.1 * s.vel)
    return np.sum(s.pos ** 2)


@pytest.mark.parametrize("f", [dataclass_replaced_in_f, namedtuple_stepped])
@pytest.mark.parametrize("path", PATHS)
def test_replace_of_an_object_made_in_f(f, path):
    """`._replace(...)` was refused by grad(); dataclasses.replace failed inside
    dataclasses.py (getattr with a computed name)"""
    check_against_differences(path, f, np.array([0.3, -0.7, 1.1]))


def replaced_arguments(p, s, x):
    q = replace(p, s=p.s * 2)
    t = s._replace(vel=s.vel * x)
    return np.sum((q.w * x) ** 2) * q.s + np.sum(t.vel * t.pos)


def test_replace_of_an_argument_whose_class_the_signature_gives():
    x = np.array([0.3, -0.7, 1.1])
    p, s = Params(np.ones(3), 0.5), State(x, 2 * x)
    np.testing.assert_allclose(s2s_ad.grad(replaced_arguments, wrt=2)(p, s, x),
                               numeric_grad(replaced_arguments, (p, s, x), 2), rtol=1e-6)
    with pytest.raises(s2s_ad.UnsupportedSyntaxError, match="general derivative") as info:
        general_derivative(s2s_ad.grad(replaced_arguments, wrt=2))(p, s, x)
    assert info.value.lineno == _line_of(replaced_arguments, "s._replace")


def trace_of_an_outer_product(x):
    m = np.outer(x, x)
    return np.sum(np.triu(m, 1)) + np.trace(m)


@pytest.mark.parametrize("path", PATHS)
def test_float32_through_a_returned_trace(path):
    """np.trace(M) returned: its seed 1.0 spread on M's diagonal made a float64 array, so
    float32 in gave float64 out"""
    from derivative_paths import grad_on
    x = np.array([0.5, -1.0, 2.0], dtype=np.float32)
    got = grad_on(path, trace_of_an_outer_product)(x)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, numeric_grad(trace_of_an_outer_product,
                                                 (x.astype(float),), 0), rtol=1e-4)


class Interval:
    """unpacked by an __iter__ returning iter of a display of its attributes"""

    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi

    def __iter__(self):
        return iter((self.lo, self.hi))


class Doubled:
    """unpacked by a generator __iter__"""

    def __init__(self, a, b):
        self.a, self.b = a, b

    def __iter__(self):
        yield self.a
        yield self.b * 2.0


class Ordered:
    def __init__(self, a, b):
        self.a, self.b = a, b

    def __iter__(self):
        return iter(sorted([self.a, self.b]))


def unpacked_interval(x):
    """`a, b = obj` indexed the object (TypeError inside the derivative)"""
    lo, hi = Interval(x[0], x[1] * x[2])
    return lo * hi + np.sum(x ** 2)


def unpacked_generator(x):
    p = Doubled(x, x ** 2)
    a, b = p
    return np.sum(a * b)


def unpacked_sorted(x):
    a, b = Ordered(x[0], x[1])
    return a * b


@pytest.mark.parametrize("f", [unpacked_interval, unpacked_generator])
@pytest.mark.parametrize("path", PATHS)
def test_unpacking_an_object_by_its_iter(f, path):
    check_against_differences(path, f, np.array([0.3, -0.7, 1.1]))


def test_unpacking_by_an_iter_s2s_ad_cannot_follow_is_located(both_paths):
    with pytest.raises(s2s_ad.UnsupportedSyntaxError, match="runs its __iter__") as info:
        s2s_ad.grad(unpacked_sorted)(X3)
    assert info.value.lineno == _line_of(unpacked_sorted, "Ordered(x[0]")


def _softplus_of_yours(x):
    return np.log1p(np.exp(x))


@s2s_ad.adjoint(_softplus_of_yours)
def _softplus_of_yours_adjoint(y, x):
    """written with the package's name: s2s_ad.d, not an imported d"""
    s2s_ad.d[x] += s2s_ad.d[y] / (1.0 + np.exp(-x))


def calls_your_softplus(x):
    return np.sum(_softplus_of_yours(x) * x)


@pytest.mark.parametrize("path", PATHS)
def test_a_template_of_yours_writing_s2s_ad_d(path):
    """`s2s_ad.d[x] += ...` was 'unsupported statement': only the name d was read"""
    from derivative_paths import grad_on
    np.testing.assert_allclose(grad_on(path, calls_your_softplus)(X3),
                               numeric_grad(calls_your_softplus, (X3,), 0), rtol=1e-6)


def test_hvp_through_an_adjoint_of_yours_without_a_tangent_names_it():
    """The error was located in the generated gradient's file (t1_0 = ...(x))"""
    with pytest.raises(MissingDerivativeError, match="an @s2s_ad.adjoint of yours") as info:
        s2s_ad.hvp(calls_your_softplus)(X3, X3)
    assert info.value.filename == __file__
    assert info.value.lineno == inspect.getsourcelines(_softplus_of_yours_adjoint)[1] + 1


def _cube_of_yours(x):
    return x * x * x


@s2s_ad.adjoint(_cube_of_yours)
def _cube_of_yours_adjoint(y, x):
    s2s_ad.d[x] += 3.0 * x * x * s2s_ad.d[y]


@s2s_ad.tangent(_cube_of_yours)
def _cube_of_yours_tangent(y, x):
    s2s_ad.d[y] = 3.0 * x * x * s2s_ad.d[x]


def calls_your_cube(x):
    return np.sum(_cube_of_yours(x) * np.sin(x))


@pytest.mark.parametrize("path", PATHS)
def test_hvp_through_an_adjoint_and_a_tangent_of_yours(path):
    check_against_differences(path, calls_your_cube, np.array([0.3, -0.7, 1.1]))


class _Module:
    def __call__(self, *args):
        return self.forward(*args)


class _Linear(_Module):
    def __init__(self, W, b):
        self.W, self.b = W, b

    def forward(self, x):
        return x @ self.W + self.b


class _Tanh(_Module):
    def forward(self, x):
        return np.tanh(x)


class _Sequential(_Module):
    def __init__(self, *layers):
        self.layers = list(layers)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def _model_loss(x, model):
    return np.sum(model(x) ** 2)


def _model():
    rng = np.random.default_rng(5)
    return _Sequential(_Linear(rng.standard_normal((3, 4)), rng.standard_normal(4)), _Tanh(),
                       _Linear(rng.standard_normal((4, 2)), rng.standard_normal(2)))


def test_a_pass_through_call_builds_no_derivative_of_its_own():
    """`__call__` returning self.forward(*args): the derivative calls forward's own
    (a model of three layers built four derivatives of the pass-through: a quarter of its
    first call)"""
    x, model = np.array([[0.3, -0.7, 1.1], [0.2, 0.5, -0.4]]), _model()
    df = s2s_ad.grad(_model_loss)
    np.testing.assert_allclose(df(x, model), numeric_grad(_model_loss, (x, model), 0),
                               rtol=1e-6)
    source = s2s_ad.derivative_source(df, x, model)
    assert "_Sequential_forward" in source and "__call__" not in source


@pytest.mark.parametrize("path", PATHS)
def test_a_model_through_pass_through_calls(path):
    model = _model()
    check_against_differences(path, lambda x: _model_loss(x, model),
                              np.array([[0.3, -0.7, 1.1], [0.2, 0.5, -0.4]]))


class _Net(_Module):
    """sub-modules held in attributes, called as self.l1(x); a method passing on too"""

    def __init__(self, a, b):
        self.l1, self.l2 = a, b

    def forward(self, x):
        return self.l2(self.l1(x))

    def predict(self, x):
        return self.forward(x)


def _net_loss(x, net):
    return np.sum(net(x) ** 2) + np.sum(net.predict(x))


def test_pass_through_calls_of_held_modules():
    rng = np.random.default_rng(0)
    net = _Net(_Linear(rng.standard_normal((3, 4)), np.zeros(4)),
               _Linear(rng.standard_normal((4, 2)), np.zeros(2)))
    x = rng.standard_normal((2, 3))
    np.testing.assert_allclose(s2s_ad.grad(_net_loss)(x, net),
                               numeric_grad(_net_loss, (x, net), 0), rtol=1e-6)
    g = s2s_ad.grad(_net_loss, wrt=1)(x, net)
    eps, W = 1e-6, net.l1.W
    W[0, 1] += eps
    up = _net_loss(x, net)
    W[0, 1] -= 2 * eps
    down = _net_loss(x, net)
    W[0, 1] += eps
    assert g.l1.W[0, 1] == pytest.approx((up - down) / (2 * eps), rel=1e-6)
