"""Issue 15, objects: bound methods, self.attr / obj.attr reads, class and static methods,
functools.partial, closures, dataclass / namedtuple / plain-object arguments whose
gradients keep their type, nested objects, and the specialisation on attribute kinds.

Every gradient is checked against central differences, on the specialised derivative and
on the general one (`general_derivative`, what S2S_AD_GENERAL=1 runs)."""
import collections
import dataclasses
import functools

import numpy as np
import pytest

import s2s_ad
from s2s_ad.api import general_derivative
from s2s_ad.errors import ADError, UnsupportedSyntaxError
from derivative_paths import PATHS, on_path
from gradcheck import numeric_grad

RNG = np.random.default_rng(7)
X = RNG.standard_normal((4, 3))
Y = RNG.standard_normal(4)


def on(path, derivative):
    return derivative if path == "specialised" else general_derivative(derivative)


def differences(f, x, eps=1e-6):
    """d f / d x by central differences (x a float or an array)."""
    return numeric_grad(f, (x,), 0, eps)


def replaced(obj, name, value):
    """A copy of obj with one attribute replaced (made as the gradients are: no __init__)."""
    if isinstance(obj, tuple):
        return obj._replace(**{name: value})
    other = object.__new__(type(obj))
    other.__dict__.update(vars(obj))
    object.__setattr__(other, name, value)
    return other


def check_object_gradient(gradient, loss, obj, names):
    """gradient.<name> against central differences of loss(obj with <name> moved)."""
    assert type(gradient) is type(obj)
    for name in names:
        expected = differences(lambda v: loss(replaced(obj, name, v)), getattr(obj, name))
        got = getattr(gradient, name)
        assert np.shape(got) == np.shape(getattr(obj, name))
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-8)


# ---- a model class ----------------------------------------------------------------------
class Model:
    def __init__(self):
        rng = np.random.default_rng(0)
        self.W = rng.standard_normal((3, 2)) * 0.5
        self.b = np.array([0.1, -0.2])
        self.scale = 1.5
        self.steps = 2                 # an int used as a count
        self.name = "model"            # a string: no derivative

    def predict(self, x):
        return np.tanh(x @ self.W + self.b)

    @staticmethod
    def squared(z):
        return z * z

    @classmethod
    def halved(cls, z):
        return 0.5 * z

    def loss(self, x, y):
        out = self.predict(x)
        for _ in range(self.steps):
            out = out * self.scale
        return np.sum(self.squared(out[:, 0] - y)) + self.halved(np.sum(self.W ** 2))

    @staticmethod
    def static_loss(x):
        return np.sum(np.sin(x) * x)

    @classmethod
    def class_loss(cls, x):
        return cls.halved(np.sum(x ** 3))


def model_loss(m, x=X, y=Y):
    return Model.loss(m, x, y)


@pytest.mark.parametrize("path", PATHS)
def test_bound_method_gradient_in_its_argument(path):
    m = Model()
    got = on(path, s2s_ad.grad(m.loss))(X, Y)
    np.testing.assert_allclose(got, differences(lambda x: m.loss(x, Y), X), rtol=1e-6,
                               atol=1e-8)


@pytest.mark.parametrize("path", PATHS)
def test_gradient_in_self_is_a_model(path):
    m = Model()
    for gradient in (on(path, s2s_ad.grad(m.loss, wrt="self"))(X, Y),
                     on(path, s2s_ad.grad(Model.loss))(m, X, Y)):
        check_object_gradient(gradient, model_loss, m, ("W", "b", "scale"))
        assert gradient.name is None                  # a string has no derivative
        assert gradient.steps == 0.0                  # a count: a zero gradient


@pytest.mark.parametrize("path", PATHS)
def test_gradient_in_self_and_an_argument(path):
    m = Model()
    g_self, g_x = on(path, s2s_ad.grad(m.loss, wrt=("self", 0)))(X, Y)
    check_object_gradient(g_self, model_loss, m, ("W",))
    np.testing.assert_allclose(g_x, differences(lambda x: m.loss(x, Y), X), rtol=1e-6,
                               atol=1e-8)


@pytest.mark.parametrize("path", PATHS)
def test_static_and_class_methods(path):
    x = np.linspace(0.1, 1.0, 4)
    m = Model()
    for f in (Model.static_loss, m.static_loss):
        np.testing.assert_allclose(on(path, s2s_ad.grad(f))(x),
                                   differences(Model.static_loss, x), rtol=1e-6)
    for f in (Model.class_loss, m.class_loss):
        np.testing.assert_allclose(on(path, s2s_ad.grad(f))(x), 1.5 * x ** 2, rtol=1e-12)


def test_value_and_grad_jvp_hvp_on_a_bound_method():
    m = Model()
    value, gradient = s2s_ad.value_and_grad(m.loss)(X, Y)
    assert value == pytest.approx(m.loss(X, Y))
    expected = differences(lambda x: m.loss(x, Y), X)
    np.testing.assert_allclose(gradient, expected, rtol=1e-6, atol=1e-8)
    v = np.linspace(-1.0, 1.0, X.size).reshape(X.shape)
    value, tangent = s2s_ad.jvp(m.loss)(X, Y, v)
    assert value == pytest.approx(m.loss(X, Y))
    assert tangent == pytest.approx(np.sum(expected * v), rel=1e-6)
    g = s2s_ad.grad(m.loss)
    eps = 1e-5
    np.testing.assert_allclose(s2s_ad.hvp(m.loss)(X, Y, v),
                               (g(X + eps * v, Y) - g(X - eps * v, Y)) / (2 * eps),
                               rtol=1e-5, atol=1e-7)


def test_hvp_and_jvp_with_respect_to_an_object():
    m = Model()
    direction = replaced(replaced(m, "W", np.ones((3, 2))), "b", np.ones(2))
    direction = replaced(direction, "scale", 0.0)
    value, tangent = s2s_ad.jvp(Model.loss)(m, X, Y, direction)
    gradient = s2s_ad.grad(Model.loss)(m, X, Y)
    assert tangent == pytest.approx(np.sum(gradient.W) + np.sum(gradient.b), rel=1e-9)
    eps = 1e-5
    hv = s2s_ad.hvp(Model.loss)(m, X, Y, direction)
    assert type(hv) is Model
    plus = s2s_ad.grad(Model.loss)(replaced(replaced(m, "W", m.W + eps), "b", m.b + eps), X, Y)
    minus = s2s_ad.grad(Model.loss)(replaced(replaced(m, "W", m.W - eps), "b", m.b - eps), X, Y)
    np.testing.assert_allclose(hv.W, (plus.W - minus.W) / (2 * eps), rtol=1e-5, atol=1e-7)


# ---- functools.partial and closures -----------------------------------------------------
def least_squares(w, A, y, reg=0.1):
    return np.sum((A @ w - y) ** 2) + reg * np.sum(w ** 2)


@pytest.mark.parametrize("path", PATHS)
def test_partial_with_keywords_and_positions(path):
    w = np.array([0.3, -0.2, 0.5])
    expected = differences(lambda v: least_squares(v, X, Y), w)
    by_keyword = functools.partial(least_squares, A=X, y=Y)
    np.testing.assert_allclose(on(path, s2s_ad.grad(by_keyword))(w), expected, rtol=1e-6)
    by_position = functools.partial(least_squares, w)
    # positions count the parameters left: 0 is A, 1 is y
    np.testing.assert_allclose(on(path, s2s_ad.grad(by_position, wrt=1))(X, Y),
                               differences(lambda y: least_squares(w, X, y), Y), rtol=1e-6)
    nested = functools.partial(functools.partial(least_squares, reg=0.5), w, X)
    np.testing.assert_allclose(on(path, s2s_ad.grad(nested, wrt="reg"))(Y),
                               np.sum(w ** 2), rtol=1e-12)


def test_partial_of_a_bound_method():
    m = Model()
    f = functools.partial(m.loss, y=Y)
    np.testing.assert_allclose(s2s_ad.grad(f)(X), s2s_ad.grad(m.loss)(X, Y), rtol=1e-12)


def _closure_over(W):
    scale = 2.0

    def f(x):
        return np.sum(np.tanh(x @ W) * scale)
    return f


@pytest.mark.parametrize("path", PATHS)
def test_closure_over_arrays(path):
    W = np.arange(6.0).reshape(3, 2) / 10
    f = _closure_over(W)
    np.testing.assert_allclose(on(path, s2s_ad.grad(f))(X), differences(f, X), rtol=1e-6,
                               atol=1e-8)


# ---- dataclass, namedtuple and nested objects as arguments ------------------------------
@dataclasses.dataclass
class Params:
    w: np.ndarray
    b: float
    label: str = "p"
    count: int = 3


@dataclasses.dataclass(frozen=True)
class Frozen:
    w: np.ndarray
    b: float


Pair = collections.namedtuple("Pair", "w b")


def linear(p, x):
    return np.sum(np.sin(x @ p.w) + p.b * p.b)


@pytest.mark.parametrize("path", PATHS)
def test_dataclass_namedtuple_and_frozen_arguments(path):
    w = np.array([0.4, -0.1, 0.3])
    for p in (Params(w, 0.7), Frozen(w, 0.7), Pair(w, 0.7)):
        gradient = on(path, s2s_ad.grad(linear))(p, X)
        check_object_gradient(gradient, lambda q: linear(q, X), p, ("w", "b"))
    gradient = on(path, s2s_ad.grad(linear))(Params(w, 0.7), X)
    assert gradient.label is None and gradient.count == 0.0


@pytest.mark.parametrize("path", PATHS)
def test_namedtuple_read_by_field_and_by_index(path):
    def mixed(p, x):
        return np.sum(p.w * x) * p[1] + p[0][0]
    p = Pair(np.array([1.0, 2.0, 3.0]), 2.0)
    x = np.array([0.5, -1.0, 2.0])
    gradient = on(path, s2s_ad.grad(mixed))(p, x)
    check_object_gradient(gradient, lambda q: mixed(q, x), p, ("w", "b"))


class Layer:
    def __init__(self, n, m, seed):
        self.W = np.random.default_rng(seed).standard_normal((n, m)) * 0.4
        self.b = np.zeros(m)


class Net:
    def __init__(self):
        self.hidden = Layer(3, 4, 1)
        self.out = Layer(4, 1, 2)

    def loss(self, x):
        h = np.tanh(x @ self.hidden.W + self.hidden.b)
        return np.sum((h @ self.out.W + self.out.b) ** 2)


def dense(layer, x):
    return np.tanh(x @ layer.W + layer.b)


def through_helper(layers, x):
    return np.sum(dense(layers[1], dense(layers[0], x)))


@pytest.mark.parametrize("path", PATHS)
def test_nested_objects(path):
    net = Net()
    gradient = on(path, s2s_ad.grad(net.loss, wrt="self"))(X)
    assert type(gradient.hidden) is Layer and type(gradient.out) is Layer
    for part in ("hidden", "out"):
        layer = getattr(net, part)
        check_object_gradient(getattr(gradient, part),
                              lambda q: replaced(net, part, q).loss(X), layer, ("W", "b"))


@pytest.mark.parametrize("path", PATHS)
def test_objects_passed_to_a_helper(path):
    layers = [Layer(3, 4, 3), Layer(4, 2, 4)]
    gradient = on(path, s2s_ad.grad(through_helper))(layers, X)
    assert isinstance(gradient, list) and all(type(g) is Layer for g in gradient)
    for k in range(2):
        check_object_gradient(
            gradient[k], lambda q: through_helper(layers[:k] + [q] + layers[k + 1:], X),
            layers[k], ("W", "b"))


# ---- the specialisation follows the attributes' kinds -----------------------------------
def test_specialised_on_attribute_kinds_and_rebuilt_when_they_change():
    m = Model()
    df = s2s_ad.grad(m.loss, wrt="self")
    check_object_gradient(df(X, Y), model_loss, m, ("W", "b", "scale"))
    source = s2s_ad.derivative_source(df, X, Y)
    assert "self: Model(W: float64[n,n], b: float64[n], scale: float, steps: int" in source
    m.W = m.W[:, :1].copy()        # an axis of length one now: broadcasting differs
    check_object_gradient(df(X, Y), model_loss, m, ("W", "b", "scale"))
    m.scale = np.float32(1.5)      # a numpy scalar now
    check_object_gradient(df(X, Y), model_loss, m, ("W", "b"))
    assert "_3(" in s2s_ad.derivative_source(df)      # three derivatives were built


def test_objects_written_through_are_not_changed():
    class Holder:
        def __init__(self):
            self.W = np.ones(3)

        def loss(self, x):
            W = self.W
            W[0] = 5.0
            return np.sum(W * x)
    h = Holder()
    x = np.array([1.0, 2.0, 3.0])
    np.testing.assert_allclose(s2s_ad.grad(h.loss, wrt="self")(x).W, [0.0, 2.0, 3.0])
    np.testing.assert_allclose(s2s_ad.grad(h.loss)(x), [5.0, 1.0, 1.0])
    np.testing.assert_allclose(h.W, np.ones(3))


# ---- what is refused, with a located error ----------------------------------------------
class Refused:
    def __init__(self):
        self.W = np.ones(3)

    def writes(self, x):
        self.cache = x * 2.0
        return np.sum(self.cache)

    @property
    def doubled(self):
        return self.W * 2.0

    def reads_a_property(self, x):
        return np.sum(self.doubled * x)

    def helper(self, x):
        return x

    def calls_overridden(self, x):
        return np.sum(self.helper(x) * self.W)


class Overriding(Refused):
    def helper(self, x):
        return 2.0 * x


def test_reading_back_a_written_attribute_is_a_located_error():
    """A write alone is a state update (tests/test_object_state_updates.py); read back
    into the output it would need a derivative s2s_ad does not follow."""
    with pytest.raises(UnsupportedSyntaxError) as info:
        s2s_ad.grad(Refused().writes)
    assert "`.cache`" in str(info.value) and "return np.sum(self.cache)" in str(info.value)


def test_a_property_is_differentiated_through_its_getter(both_paths):
    """Was an error (never a silent zero): self.doubled is Refused.doubled.fget(self)."""
    x = np.array([1.0, -2.0, 0.5])
    g = on_path(s2s_ad.grad(Refused.reads_a_property), both_paths)(Refused(), x)
    np.testing.assert_allclose(g.W, 2.0 * x)


def test_an_overridden_method_runs_the_objects_own(both_paths):
    """Was "resolved on Refused, but Overriding overrides `helper`" at grad time: the
    specialised derivative knows self's exact class; the general one calls the method as
    one chosen when the code runs (differentiating the object itself there is the located
    error of a method of an object that carries the derivative)."""
    x = np.array([1.0, -2.0, 0.5])
    f = on_path(s2s_ad.grad(Refused.calls_overridden, wrt=1), both_paths)
    np.testing.assert_allclose(f(Overriding(), x), 2.0 * np.ones(3))
    np.testing.assert_allclose(f(Refused(), x), np.ones(3))
    g = on_path(s2s_ad.grad(Refused.calls_overridden), both_paths)
    if both_paths == "specialised":
        np.testing.assert_allclose(g(Overriding(), x).W, 2.0 * x)
    else:
        with pytest.raises(UnsupportedSyntaxError, match="calls a method of `self`"):
            g(Overriding(), x)


def test_wrt_out_of_range_counts_the_parameters_left():
    with pytest.raises(ADError, match="1 positional argument"):
        s2s_ad.grad(functools.partial(least_squares, A=X, y=Y), wrt=1)


# ---- dataclasses and namedtuples made inside f ------------------------------------------
def made_inside(a, b):
    p = Frozen(a * 2.0, b=b)
    q = Pair(np.tanh(p.w), p.b * p.b)
    return np.sum(q.w * q.b) + q[1]


@pytest.mark.parametrize("path", PATHS)
def test_objects_made_inside_the_function(path):
    a, b = np.array([0.3, -0.4, 0.9]), 1.3
    g_a, g_b = on(path, s2s_ad.grad(made_inside, wrt=(0, 1)))(a, b)
    np.testing.assert_allclose(g_a, differences(lambda v: made_inside(v, b), a), rtol=1e-6)
    assert g_b == pytest.approx(differences(lambda v: made_inside(a, v), b), rel=1e-6)
    v = np.array([1.0, 0.5, -0.5])
    value, tangent = s2s_ad.jvp(made_inside)(a, b, v)
    assert tangent == pytest.approx(np.sum(g_a * v), rel=1e-9)


def test_a_dataclass_with_post_init_is_not_taken_apart():
    @dataclasses.dataclass
    class Scaled:
        w: np.ndarray

        def __post_init__(self):
            self.w = self.w * 2.0

    def f(a):
        return np.sum(Scaled(a).w)
    with pytest.raises(ADError):
        s2s_ad.grad(f)(np.ones(3))


# ---- the command line: a method as the target --------------------------------------------
@pytest.mark.slow
def test_cli_writes_the_gradient_of_a_method(tmp_path):
    import os
    import shutil
    import subprocess
    import sys
    examples = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                            "examples")
    shutil.copy(os.path.join(examples, "model_class.py"), tmp_path / "model_class.py")
    out = subprocess.run(
        [sys.executable, "-c", "import sys; from s2s_ad.cli import main; sys.exit(main())",
         "grad", "model_class.py:TwoLayerNet.loss", "-o", "grad_model.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    check = ("import numpy as np, grad_model, model_class as mc\n"
             "X, y = mc.make_data(); m = mc.TwoLayerNet(3, 8)\n"
             "g = grad_model.grad_loss(m, X, y)\n"
             "e = mc.central_differences(m, 'W1', X, y)\n"
             "assert type(g) is mc.TwoLayerNet and g.name is None\n"
             "assert np.allclose(g.W1, e, rtol=1e-5, atol=1e-8)\n"
             "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", check], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


# ---- attribute names arrays have too ----------------------------------------------------
@dataclasses.dataclass
class Gaussian:
    mean: np.ndarray
    std: float


class Tempered:
    eps = 1e-3                             # a constant of the class, shared

    def __init__(self):
        self.T = 2.0                       # a temperature, not a transpose
        self.mean = np.array([0.1, 0.2, 0.3])
        self.shape = np.array([1.0, 0.5, 2.0])

    def loss(self, x):
        return np.sum((x - self.mean) ** 2 / self.T * self.shape) + self.eps * np.sum(x)


def gaussian_nll(g, x):
    return np.sum(((x - g.mean) / g.std) ** 2)


@pytest.mark.parametrize("path", PATHS)
def test_attributes_named_like_array_attributes(path):
    x = np.array([0.5, -1.0, 2.0])
    g = Gaussian(np.array([0.1, 0.0, -0.2]), 1.5)
    gradient = on(path, s2s_ad.grad(gaussian_nll))(g, x)
    check_object_gradient(gradient, lambda q: gaussian_nll(q, x), g, ("mean", "std"))
    assert type(gradient.std) is float
    t = Tempered()
    gradient = on(path, s2s_ad.grad(t.loss, wrt="self"))(x)
    check_object_gradient(gradient, lambda q: q.loss(x), t, ("T", "mean", "shape"))
    assert "eps" not in vars(gradient)             # a class constant: not the object's
    np.testing.assert_allclose(on(path, s2s_ad.grad(t.loss))(x),
                               differences(t.loss, x), rtol=1e-6)


# ---- an instance called as a function (a class with `def __call__`) ---------------------
class CalledModel(Model):
    def __call__(self, x, y):
        return self.loss(x, y)


@pytest.mark.parametrize("path", PATHS)
def test_an_instance_with_a_call_method_is_differentiated_as_its_call(path):
    """grad(model) of a model called as model(x, y): the gradient in x, or in the model's
    attributes with wrt="self", as for the bound method model.__call__."""
    m = CalledModel()
    got = on(path, s2s_ad.grad(m))(X, Y)
    np.testing.assert_allclose(got, differences(lambda x: m(x, Y), X), rtol=1e-6, atol=1e-8)
    gradient = on(path, s2s_ad.grad(m, wrt="self"))(X, Y)
    check_object_gradient(gradient, lambda obj: CalledModel.__call__(obj, X, Y), m,
                          ("W", "b", "scale"))
    value, g = s2s_ad.value_and_grad(m)(X, Y)
    assert value == pytest.approx(m(X, Y))
    v = RNG.standard_normal(X.shape)
    hv = s2s_ad.hvp(m)(X, Y, v)
    eps = 1e-5
    expected = (s2s_ad.grad(m)(X + eps * v, Y) - s2s_ad.grad(m)(X - eps * v, Y)) / (2 * eps)
    np.testing.assert_allclose(hv, expected, rtol=1e-4, atol=1e-6)


def test_an_instance_without_a_call_method_is_still_an_error():
    with pytest.raises(s2s_ad.APIUsageError, match="expects a function, got Model"):
        s2s_ad.grad(Model())(X)
