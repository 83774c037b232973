"""Models written the way PyTorch code is: a Module base class whose `__call__(self, *args)`
runs `self.forward(*args)`, layers of several classes held in a list (a Sequential), in a
tuple walked by position or with enumerate, in a dict called by key, a module holding
another (a residual block). grad in the model gives a model of the same
classes and nesting; hvp in the input goes through the same calls (session 15: each was
a located error, "a `*args` parameter is differentiated for a given number of items" or
"`self.forward` holds a function chosen when the code runs")."""
import numpy as np
import pytest

import s2s_ad
from paths import fresh

RS = np.random.RandomState(15)


class Module:
    def __call__(self, *args):
        return self.forward(*args)


class Linear(Module):
    def __init__(self, n_in, n_out):
        self.W = RS.randn(n_in, n_out) / np.sqrt(n_in)
        self.b = RS.randn(n_out) * 0.1

    def forward(self, x):
        return x @ self.W + self.b


class Tanh(Module):
    def forward(self, x):
        return np.tanh(x)


class Scale(Module):
    def __init__(self, s):
        self.s = s

    def forward(self, x):
        return self.s * x


class Sequential(Module):
    def __init__(self, *layers):
        self.layers = list(layers)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class Residual(Module):
    def __init__(self, inner):
        self.inner = inner

    def forward(self, x):
        return x + self.inner(x)


class TwoLayer(Module):
    def __init__(self):
        self.fc1 = Linear(3, 5)
        self.act = Tanh()
        self.fc2 = Linear(5, 2)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


class Blocks(Module):
    """Modules held in a dict, called by literal key."""

    def __init__(self):
        self.blocks = {"enc": Linear(3, 4), "act": Tanh(), "dec": Linear(4, 2)}

    def forward(self, x):
        return self.blocks["dec"](self.blocks["act"](self.blocks["enc"](x)))


class Chain(Module):
    """Layers in a tuple, walked by position or with enumerate (a running penalty)."""

    def __init__(self, how):
        self.layers = (Linear(3, 4), Tanh(), Linear(4, 2))
        self.how = how

    def forward(self, x):
        if self.how == "range":
            for k in range(len(self.layers)):
                x = self.layers[k](x)
            return x
        total = 0.0
        for k, layer in enumerate(self.layers):
            x = layer(x)
            total = total + (k + 1) * np.sum(x)
        return x + 0.01 * total


def loss(model, x, y):
    return np.mean((model(x) - y) ** 2)


X, Y = RS.randn(6, 3), RS.randn(6, 2)
MODELS = {
    "attributes": lambda: TwoLayer(),
    "sequential": lambda: Sequential(Linear(3, 4), Tanh(), Linear(4, 2), Scale(0.7)),
    "nested": lambda: Sequential(Linear(3, 3), Residual(Sequential(Linear(3, 3), Tanh())),
                                 Linear(3, 2)),
    "dict": lambda: Blocks(),
    "tuple by position": lambda: Chain("range"),
    "tuple enumerated": lambda: Chain("enumerate"),
}


def _leaves(obj, path=()):
    """(path, value) of every float array or number an object holds."""
    if isinstance(obj, (np.ndarray, float)):
        yield path, obj
    elif isinstance(obj, (list, tuple)):
        for k, item in enumerate(obj):
            yield from _leaves(item, path + (k,))
    elif isinstance(obj, dict):
        for k, item in obj.items():
            yield from _leaves(item, path + (k,))
    elif hasattr(obj, "__dict__"):
        for name, value in vars(obj).items():
            yield from _leaves(value, path + (name,))


def _get(obj, path):
    for step in path:
        obj = obj[step] if isinstance(obj, (list, tuple, dict)) else getattr(obj, step)
    return obj


def _set(obj, path, value):
    parent = _get(obj, path[:-1])
    if isinstance(parent, (list, dict)):
        parent[path[-1]] = value
    else:
        setattr(parent, path[-1], value)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_gradient_of_a_module_model(name):
    model = MODELS[name]()
    f = fresh(loss)
    g = s2s_ad.grad(f)(model, X, Y)
    assert type(g) is type(model)
    _assert_matches_differences(g, loss, model, atol=1e-8)


def _assert_matches_differences(g, function, model, atol):
    """g (a model-shaped gradient) against central differences of function(model, X, Y)
    in each of the model's leaves."""
    eps = 1e-6
    for path, value in _leaves(model):
        expected = np.zeros(np.shape(value))
        for i in range(expected.size):
            step = np.zeros(np.shape(value))
            step.flat[i] = eps
            _set(model, path, value + step)
            up = function(model, X, Y)
            _set(model, path, value - step)
            down = function(model, X, Y)
            _set(model, path, value)
            expected.flat[i] = (up - down) / (2 * eps)
        np.testing.assert_allclose(np.asarray(_get(g, path)), expected, rtol=1e-5,
                                   atol=atol, err_msg=str(path))


@pytest.mark.parametrize("name", sorted(MODELS))
def test_second_order_in_the_input_of_a_module_model(name):
    # a module nested in a list of modules of several classes included: the gradient's
    # backward sweep restores each item from its tape, and the facts about what it
    # restores keep the item's class (session 16: a located error)
    model = MODELS[name]()
    f = fresh(loss)
    v = RS.randn(*X.shape)
    g_x = s2s_ad.grad(f, wrt=1)
    expected = (g_x(model, X + 1e-6 * v, Y) - g_x(model, X - 1e-6 * v, Y)) / 2e-6
    np.testing.assert_allclose(s2s_ad.hvp(f, wrt=1)(model, X, Y, v), expected, rtol=1e-5,
                               atol=1e-8)


CALLS = 0


class Counting(Module):
    def __init__(self, W):
        self.W = W

    def __call__(self, x):
        global CALLS
        CALLS += 1
        return x @ self.W


def test_an_error_the_arguments_kinds_reach_is_the_one_raised():
    # the derivative built for the model's class stops at `global` in its __call__; the
    # general one, which knows no classes, stops earlier ("`model` is called here"): the
    # first names what to change (session 15: the second was raised)
    for _ in range(2):          # the first call builds, the second goes through the guard
        with pytest.raises(s2s_ad.UnsupportedSyntaxError, match="`global`") as info:
            s2s_ad.grad(fresh(loss))(Counting(RS.randn(3, 2)), X, Y)
        assert "global CALLS" in str(info.value)


class Doubled:
    def __init__(self, w):
        self.w = w

    @property
    def w2(self):
        return self.w * 2.0


def read_property(p, x):
    return np.sum(p.w2 * x)


def test_a_property_the_general_derivative_reads_is_located():
    # the specialised derivative calls the getter; the general one, knowing no class,
    # reads it as an attribute and says so naming f and its line (session 15: no place)
    from derivative_paths import on_path
    p, x = Doubled(RS.randn(3)), RS.randn(3)
    np.testing.assert_allclose(s2s_ad.grad(fresh(read_property))(p, x).w, 2.0 * x)
    with pytest.raises(s2s_ad.APIUsageError, match="`.w2` of a Doubled") as info:
        on_path(s2s_ad.grad(fresh(read_property)), "general")(p, x)
    assert "read in read_property (test_module_classes.py:" in str(info.value)


def _moved(model, direction, step):
    """A copy of `model` with every leaf moved by `step` times direction's leaf."""
    import copy
    out = copy.deepcopy(model)
    for path, value in _leaves(model):
        _set(out, path, value + step * np.asarray(_get(direction, path)))
    return out


@pytest.mark.parametrize("name", ["nested", "sequential"])
def test_second_order_in_the_parameters_of_a_nested_module_list(name):
    # hvp in the model itself, through a Residual holding a Sequential inside a list of
    # modules of several classes (session 16: a located error at the nested call)
    model, v = MODELS[name](), MODELS[name]()
    f = fresh(loss)
    got = s2s_ad.hvp(f)(model, X, Y, v)
    assert type(got) is type(model)
    up, down = (s2s_ad.grad(f)(_moved(model, v, s), X, Y) for s in (1e-6, -1e-6))
    for path, _ in _leaves(model):
        expected = (np.asarray(_get(up, path)) - np.asarray(_get(down, path))) / 2e-6
        np.testing.assert_allclose(np.asarray(_get(got, path)), expected, rtol=1e-5,
                                   atol=1e-8, err_msg=str(path))


def gradient_norm(x, model, y):
    g = s2s_ad.grad(loss, wrt=1)(model, x, y)
    return np.sum(g * g)


@pytest.mark.parametrize("name", ["nested", "sequential"])
def test_gradient_of_a_gradient_called_in_f_through_a_nested_module_list(name):
    # the gradient called in f is differentiated again when f's gradient runs: its jvp is
    # built for the arguments then held (their layers' classes), not as a general one
    # (session 16: "`self.forward` holds a function chosen when the code runs")
    from gradcheck import assert_grad_matches
    assert_grad_matches(fresh(gradient_norm), (X, MODELS[name](), Y), rtol=1e-5, atol=1e-7)


class Script(Module):
    """A module class as a script run by runpy defines it: its module is `<run_path>`."""

    def __init__(self, W):
        self.W = W

    def forward(self, x):
        return np.tanh(x @ self.W)


Script.__module__ = "<run_path>"


def test_a_class_from_a_module_with_no_identifier_name_is_guarded():
    # the dispatching guard names the class; `<run_path>_Script` was a SyntaxError
    model = Script(RS.randn(3, 2))
    g = s2s_ad.grad(fresh(loss))(model, X, Y)
    assert type(g) is Script and g.W.shape == (3, 2)


def first_layer_gradient_norm(model, x, y):
    g = s2s_ad.grad(loss)(model, x, y)
    first = g.layers[0]
    return np.sum(first.W ** 2) + np.sum(first.b ** 2)


@pytest.mark.parametrize("name", ["nested", "sequential"])
def test_gradient_of_a_gradient_in_the_model_called_in_f(name):
    # grad of grad in the model through a gradient called in f: the gradient called is
    # the one specialised on the call's argument kinds (the general one cannot call the
    # layers' methods: session 16, a located error)
    model = MODELS[name]()
    f = fresh(first_layer_gradient_norm)
    g = s2s_ad.grad(f)(model, X, Y)
    _assert_matches_differences(g, first_layer_gradient_norm, model, atol=1e-7)


def test_what_a_layer_returns_through_module_call_is_known():
    """`layer(x)` is Module.__call__(layer, x), whose `self.forward(*args)` is the layer's
    class's forward only once that class is known: the facts analyse the call as the
    derivation for those arguments normalizes it (session 18: the kind was unknown, so a
    Sequential's loop lost x's kind and each Linear's vjp was built for `x: any`, with
    the general runtime helpers)."""
    from s2s_ad import pipeline
    from s2s_ad.analyses.call_kinds import helper_results
    from s2s_ad.derivative_cache import DerivativeCache
    from s2s_ad.frontend.star_params import fixed_arity
    from s2s_ad.signature import Num, signature_of
    cache = DerivativeCache()
    results = helper_results(lambda f, functions=None: pipeline._front(cache, f, functions))
    layer, x = Linear(3, 4), RS.randn(5, 3)
    kinds = dict(zip(("self", "args_0"), signature_of([layer, x])))
    returned = results(fixed_arity(Module.__call__, 1), kinds)
    assert returned == Num(np.ndarray, "float64", (None, None))
    # and through a Sequential of several classes, to a gradient that is still right
    model = Sequential(Linear(3, 4), Tanh(), Linear(4, 2))
    g = s2s_ad.grad(fresh(loss))(model, X, Y)
    _assert_matches_differences(g, loss, model, 1e-6)
