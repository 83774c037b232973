"""Calls written the way people write them, rejected or wrong before (issue 15): a
method calling a function its object holds, a nested function called under another
name, starred calls into a helper taking *args, a list display times an array, a
constant tuple joined to a converted one. Each on both derivative paths."""
from functools import partial

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, jvp_on
from gradcheck import numeric_grad

X = np.linspace(0.2, 1.1, 3)


def softsign(z):
    return z / (1.0 + np.abs(z))


class Layer:
    def __init__(self, act):
        self.W = np.linspace(-0.8, 0.9, 6).reshape(3, 2)
        self.act = act

    def loss(self, x):
        return np.sum(self.act(x @ self.W) ** 2)


class FixedLayer:
    act = np.tanh             # a plain value of the class: Python binds no self to it

    def __init__(self):
        self.W = np.linspace(0.3, -0.4, 6).reshape(3, 2)

    def loss(self, x):
        return np.sum(self.act(x @ self.W))


ACTIVATIONS = [np.tanh, lambda z: z * np.sin(z), softsign]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("act", ACTIVATIONS, ids=["ufunc", "lambda", "def"])
def test_method_calls_a_function_its_object_holds(act, path):
    layer = Layer(act)
    np.testing.assert_allclose(grad_on(path, layer.loss)(X),
                               numeric_grad(layer.loss, (X,), 0), rtol=1e-6, atol=1e-9)

    def loss_in_w(W):
        layer.W = W
        return Layer.loss(layer, X)
    W = layer.W.copy()
    expected = numeric_grad(loss_in_w, (W,), 0)
    layer.W = W
    g = grad_on(path, layer.loss, wrt="self")(X)
    assert isinstance(g, Layer) and g.act is None
    np.testing.assert_allclose(g.W, expected, rtol=1e-6, atol=1e-9)
    v = np.array([0.5, -1.0, 2.0])
    _, tangent = jvp_on(path, Layer.loss, (layer, X), v, wrt=1)
    np.testing.assert_allclose(tangent, np.sum(numeric_grad(layer.loss, (X,), 0) * v),
                               rtol=1e-6)


@pytest.mark.parametrize("path", PATHS)
def test_method_calls_a_function_its_class_holds(path):
    layer = FixedLayer()
    np.testing.assert_allclose(grad_on(path, layer.loss)(X),
                               numeric_grad(layer.loss, (X,), 0), rtol=1e-6)


def nested_under_another_name(x):
    def weighted(z):
        return np.sum(z * np.sin(z))
    h = weighted
    square = lambda z: z * z          # noqa: E731
    k = square
    return h(x) + np.sum(k(x))


@pytest.mark.parametrize("path", PATHS)
def test_nested_function_called_under_another_name(path):
    expected = np.sin(X) + X * np.cos(X) + 2.0 * X
    np.testing.assert_allclose(grad_on(path, nested_under_another_name)(X), expected)
    _, tangent = jvp_on(path, nested_under_another_name, (X,), np.ones(3))
    np.testing.assert_allclose(tangent, np.sum(expected))


def alias_before_the_def(x):
    h = later                         # noqa: F821 (the def below binds it)
    def later(z):                     # noqa: E306
        return z * z
    return h(x)


def test_alias_before_the_def_stays_an_error():
    with pytest.raises(s2s_ad.UnsupportedSyntaxError, match="used before it is assigned"):
        s2s_ad.grad(alias_before_the_def)(1.0)


def sum_of_squares(*args):
    return sum(a * a for a in args)


def scaled_total(scale, *args):
    return scale * sum(args)


def spread_tuple(x, y):
    xs = (x, y)
    return sum_of_squares(*xs)


def spread_after_one(x, y, z):
    rest = [y, z]
    return sum_of_squares(x, *rest) + scaled_total(x, *[y, x * z])


def spread_rows(x):
    rows = list(x)
    return sum_of_squares(2.0, *rows)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, args", [(spread_tuple, (1.5, -2.0)),
                                     (spread_after_one, (1.5, -2.0, 0.5)),
                                     (spread_rows, (X,))],
                         ids=["tuple", "after_one", "rows_when_it_runs"])
def test_starred_call_into_a_star_args_helper(f, args, path):
    for k in range(len(args)):
        np.testing.assert_allclose(grad_on(path, f, wrt=k)(*args),
                                   numeric_grad(f, args, k), rtol=1e-6)
    v = np.ones_like(args[0])
    _, tangent = jvp_on(path, f, args, v)
    np.testing.assert_allclose(tangent, np.sum(numeric_grad(f, args, 0) * v), rtol=1e-6)


def list_times_array(x):
    return np.sum([1.0, 2.0, 3.0] * x ** 2)


def named_list_times_array(x):
    weights = [1.0, -2.0, 0.5]
    return np.sum(weights * x)


def constant_joined_to_rows(x):
    t = (2.0,) + tuple(x)
    return t[0] * t[1] + t[3] * t[2]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [list_times_array, named_list_times_array,
                               constant_joined_to_rows], ids=lambda f: f.__name__)
def test_lists_meeting_arrays(f, path):
    """`[1.0, 2.0, 3.0] * x` is numpy's elementwise product (its gradient was 0: read as
    a repetition of the list); `(2.0,) + tuple(x)` joins two tuples (a crash)."""
    expected = numeric_grad(f, (X,), 0)
    np.testing.assert_allclose(grad_on(path, f)(X), expected, rtol=1e-6, atol=1e-9)
    v = np.array([0.5, -1.0, 2.0])
    _, tangent = jvp_on(path, f, (X,), v)
    np.testing.assert_allclose(tangent, np.sum(expected * v), rtol=1e-6)


def repeated_pair(a, b):
    pair = [a, b * b]
    return sum(v * k for k, v in enumerate(3 * pair))


@pytest.mark.parametrize("path", PATHS)
def test_list_repetition_is_still_a_repetition(path):
    np.testing.assert_allclose(grad_on(path, repeated_pair, wrt=(0, 1))(1.5, 2.0),
                               (0 + 2 + 4, 2 * 2.0 * (1 + 3 + 5)))


def layer_loss(layer, x):
    return np.sum(layer.act(x @ layer.W))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("act", ACTIVATIONS, ids=["ufunc", "lambda", "def"])
def test_function_held_by_an_object_argument(act, path):
    layer = Layer(act)
    np.testing.assert_allclose(grad_on(path, layer_loss, wrt=1)(layer, X),
                               numeric_grad(lambda v: layer_loss(layer, v), (X,), 0),
                               rtol=1e-6, atol=1e-9)


def grown_outputs(w, inputs):
    out = [w * 1.0]
    for inp in inputs:
        out.append(w * inp)
    return out


def pair_of_outputs(w, inputs):
    return [w * 1.0, w * inputs[0]]


def read_by_index(w, inputs):
    outputs = grown_outputs(w, inputs)
    total = 0.0
    for t in range(3):
        total += np.sum(outputs[t] * outputs[t + 1])
    return total


def pair_read_in_a_loop(w, inputs):
    pair = pair_of_outputs(w, inputs)
    first, _ = pair_of_outputs(w, inputs)
    total = np.sum(first)
    for t in range(2):
        total = total + np.sum(pair[t] ** 2)
    return total


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [read_by_index, pair_read_in_a_loop], ids=lambda f: f.__name__)
def test_list_a_helper_returns_read_by_index(f, path):
    """The adjoint of a helper's list read as `outputs[t]` reaches the helper (it was
    dropped: a zero gradient), and every item of a list the helper grows with append does
    (only the first one's did)."""
    w, inputs = np.array([0.5, -1.5]), np.array([1.0, 2.0, 3.0])
    np.testing.assert_allclose(grad_on(path, f)(w, inputs), numeric_grad(f, (w, inputs), 0),
                               rtol=1e-6)
    v = np.array([1.0, 0.5])
    _, tangent = jvp_on(path, f, (w, inputs), v)
    np.testing.assert_allclose(tangent, np.sum(numeric_grad(f, (w, inputs), 0) * v), rtol=1e-6)


def log_terms(params, d):
    a, b = params
    return np.sum(a * d) + np.sum(b * b * d)


def mapped_partial(params, data):
    return sum(map(partial(log_terms, params), data))


def named_partial(params, data):
    term = partial(log_terms, params)
    return term(data[0]) * 0.5 + sum(map(term, data))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [mapped_partial, named_partial], ids=lambda f: f.__name__)
def test_partial_of_a_differentiated_value(f, path):
    """map(partial(g, params), data) (autograd's hmm_em example): the values a partial
    made in f holds are f's own (their gradient was silently 0)."""
    params = [np.array([0.5, 1.0]), np.array([2.0, -1.0])]
    data = [np.array([1.0, 2.0]), np.array([3.0, 1.0])]
    g = grad_on(path, f)(params, data)
    for k in range(2):
        def along(v, k=k):
            moved = list(params)
            moved[k] = v
            return f(moved, data)
        np.testing.assert_allclose(g[k], numeric_grad(along, (params[k],), 0), rtol=1e-6)


def noisy(p, rs):
    return rs.randn(3) * p


def loss_of_a_drawing_helper(p, rs):
    return np.sum(noisy(p, rs) ** 2)


def loss_of_a_drawing_nested_function(p, rs):
    def noisy_here(q):
        return rs.randn(3) * q
    return np.sum(noisy_here(p) ** 2)


@pytest.mark.parametrize("path", PATHS)
def test_helper_drawing_samples_draws_them_once_in_reverse_mode(path):
    """Its vjp runs it again: the generator is rewound so it draws the same samples
    (autograd's variational examples), as a nested function and jvp do; the generator is
    left where one call of f leaves it (tests/test_random_draws.py checks more)."""
    expected = 2.0 * 1.5 * np.sum(np.random.RandomState(0).randn(3) ** 2)
    rs = np.random.RandomState(0)
    assert np.isclose(grad_on(path, loss_of_a_drawing_helper)(1.5, rs), expected)
    once = np.random.RandomState(0)
    loss_of_a_drawing_helper(1.5, once)
    assert rs.rand() == once.rand()
    assert np.isclose(grad_on(path, loss_of_a_drawing_nested_function)(
        1.5, np.random.RandomState(0)), expected)
    _, tangent = jvp_on(path, loss_of_a_drawing_helper, (1.5, np.random.RandomState(0)), 1.0)
    assert np.isclose(tangent, expected)


def grad_maker(function):
    return s2s_ad.grad(function)


def sin_cos_terms(parts):
    return np.sum(np.sin(parts[0])) + np.sum(np.cos(parts[1]))


def through_a_gradient_made_when_it_runs(parts):
    g = grad_maker(sin_cos_terms)(parts)
    return np.sum(g[0]) + np.sum(np.sin(g[1]))


@pytest.mark.parametrize("path", PATHS)
def test_list_argument_of_a_function_chosen_when_it_runs(path):
    """A gradient made by a helper of yours is called when the code runs; its list
    argument's derivative was left out (0), and the gradient's unused third item made
    the vjp refuse its cotangent."""
    parts = [np.array([[0.3, -1.2], [0.5, 2.0]]), np.array([0.7, -0.4]), np.array([1.0])]
    g = grad_on(path, through_a_gradient_made_when_it_runs)(parts)
    for k in range(2):
        def along(v, k=k):
            moved = list(parts)
            moved[k] = v
            return through_a_gradient_made_when_it_runs(moved)
        np.testing.assert_allclose(g[k], numeric_grad(along, (parts[k],), 0), rtol=1e-6)


def layers_between(params, x):
    """autograd's GAN example: the hidden layers are params[1:-1], empty for two layers"""
    w, b = params[0]
    h = np.tanh(x @ w + b)
    for w, b in params[1:-1]:
        h = np.tanh(h @ w + b)
    w, b = params[-1]
    return np.sum((h @ w + b) ** 2)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("layers", [2, 3])
def test_loop_over_a_slice_of_the_parameter_list_that_may_be_empty(path, layers):
    rng = np.random.default_rng(4)
    sizes = [3, 4, 4, 2][:layers] + [2]
    params = [(rng.standard_normal((m, n)), rng.standard_normal(n))
              for m, n in zip(sizes[:-1], sizes[1:])]
    x = rng.standard_normal((5, 3))
    g = grad_on(path, layers_between)(params, x)
    for k, (w, b) in enumerate(params):
        def along_w(v, k=k):
            moved = list(params)
            moved[k] = (v, params[k][1])
            return layers_between(moved, x)
        np.testing.assert_allclose(g[k][0], numeric_grad(along_w, (w,), 0), rtol=1e-6,
                                   atol=1e-8)


# ---- unzipping: `xs, ys = zip(*pairs)` (was a RecursionError while normalizing) ---------
def unzip_pairs(a, b):
    pairs = list(zip(a, b))
    xs, ys = zip(*pairs)
    return sum(xi * yi for xi, yi in zip(xs, ys)) + np.sum(np.array(xs) ** 2)


def unzip_built_records(t):
    xs, ys, zs = zip(*[(t * i, t ** 2, np.sin(t + i)) for i in range(4)])
    return sum(xs) * sum(ys) + sum(zs)


def unzip_matrix_rows(M):
    a, b = zip(*M)
    return np.sum(np.array(a) * np.array(b) + np.array(a) ** 3)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, args", [(unzip_pairs, (X, X[::-1] * 2.0)),
                                     (unzip_built_records, (0.7,)),
                                     (unzip_matrix_rows, (np.linspace(-1, 1, 6).reshape(3, 2),))],
                         ids=["pairs", "records", "matrix_rows"])
def test_unzipping_by_a_starred_zip(f, args, path):
    np.testing.assert_allclose(grad_on(path, f)(*args), numeric_grad(f, args, 0), rtol=1e-6)
    v = np.ones_like(args[0])
    _, tangent = jvp_on(path, f, args, v)
    np.testing.assert_allclose(tangent, np.sum(numeric_grad(f, args, 0) * v), rtol=1e-6)
