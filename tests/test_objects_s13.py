"""Issue 15 leftovers (session 13): a callable model called inside f (`model(x)`, and
sub-models `self.l1(x)`), grad of grad through a method of an object argument, and grad
of grad through a helper returning a list (of tuples) of arrays. Each on both derivative
paths (`both_paths`) against central differences; what the general derivative cannot do
(it does not know an object's class) is a located error, never a silent zero."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import every_way
from gradcheck import numeric_grad
from paths import fresh

RS = np.random.RandomState(13)
A, B, X0 = RS.randn(3, 3) * 0.7, RS.randn(3, 3) * 0.7, RS.randn(3)


class Affine:
    def __init__(self, W):
        self.W = W

    def __call__(self, x):
        return np.tanh(self.W @ x)


class Stacked:
    """A model holding sub-models it calls (`self.l1(x)`)."""

    def __init__(self, l1, l2):
        self.l1 = l1
        self.l2 = l2

    def __call__(self, x):
        return self.l2(self.l1(x)) * 2.0

    def loss(self, x):
        return np.sum(self.l2(self.l1(x)) ** 2)


class Layered:
    """A model holding a list of callable layers."""

    def __init__(self, layers):
        self.layers = layers

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def loss(model, x):
    return np.sum(model(x) ** 2)


def loss_along(model, s):
    return np.sum(model(s * X0) ** 2)


@pytest.mark.parametrize("model", [Affine(A), Stacked(Affine(A), Affine(B)),
                                   Layered([Affine(A), Affine(B)])],
                         ids=["affine", "stacked", "layered"])
def test_a_callable_model_called_in_f_in_its_input(both_paths, model):
    """`model(x)` was "s2s_ad cannot differentiate a call of <object>" (no location): the
    specialised derivative calls Model.__call__(model, x) by name, the general one
    derives Model.__call__'s vjp / jvp with the object first when the call runs."""
    every_way(fresh(loss_along), 0.6, (model,))
    f = fresh(loss)
    np.testing.assert_allclose(s2s_ad.grad(f, wrt=1)(model, X0),
                               numeric_grad(lambda x: f(model, x), (X0,), 0), rtol=1e-6,
                               atol=1e-9)


def _gradient_in(make, W, x):
    return numeric_grad(lambda V: loss(make(V), x), (W,), 0)


def test_a_callable_model_called_in_f_in_its_parameters():
    """The specialised derivative knows the model's class: its gradient is a model of the
    same nesting (Stacked of Affines)."""
    f = fresh(loss)
    g = s2s_ad.grad(f)(Affine(A), X0)
    assert type(g) is Affine
    np.testing.assert_allclose(g.W, _gradient_in(Affine, A, X0), rtol=1e-6, atol=1e-9)
    g = s2s_ad.grad(f)(Stacked(Affine(A), Affine(B)), X0)
    assert type(g) is Stacked and type(g.l1) is Affine
    np.testing.assert_allclose(g.l1.W, _gradient_in(lambda V: Stacked(Affine(V), Affine(B)),
                                                    A, X0), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(g.l2.W, _gradient_in(lambda V: Stacked(Affine(A), Affine(V)),
                                                    B, X0), rtol=1e-6, atol=1e-9)
    value, g = s2s_ad.value_and_grad(Stacked(Affine(A), Affine(B)).loss, wrt="self")(X0)
    np.testing.assert_allclose(g.l2.W, _gradient_in(
        lambda V: Stacked(Affine(A), Affine(V)), B, X0) / 4.0, rtol=1e-6, atol=1e-9)
    tangent = s2s_ad.jvp(f)(Affine(A), X0, Affine(np.eye(3)))[1]
    np.testing.assert_allclose(tangent, np.trace(_gradient_in(Affine, A, X0)), rtol=1e-6)


def test_the_general_derivative_in_a_callable_models_parameters_is_a_located_error(
        both_paths):
    """The general derivative does not know the model's class (nor whether a layer it
    holds is a function or a model): a located error at the call, never the gradient
    without the part through the model's attributes."""
    model = Stacked(Affine(A), Affine(B))
    if both_paths == "general":
        with pytest.raises(s2s_ad.NonDifferentiableError, match="`model` is called here") \
                as info:
            s2s_ad.grad(fresh(loss))(model, X0)
        assert "return np.sum(model(x) ** 2)" in str(info.value)
        with pytest.raises(s2s_ad.UnsupportedSyntaxError, match="`self.l1") as info:
            s2s_ad.grad(Stacked.loss)(model, X0)
        assert "self.l2(self.l1(x))" in str(info.value)
        return
    # a layer read off a list of layers of one class: the signature says which class
    # (session 14; it was "`layer(...)` calls a value that carries the derivative")
    model = Layered([Affine(A), Affine(B)])
    g = s2s_ad.grad(fresh(loss))(model, X0)
    assert type(g) is Layered and [type(layer) for layer in g.layers] == [Affine, Affine]
    for k in range(2):
        np.testing.assert_allclose(g.layers[k].W, _layer_gradient(model, k), rtol=1e-6,
                                   atol=1e-9)


def _layer_gradient(model, k, f=None):
    """Central differences of f(model, X0) (default `loss`) in model.layers[k].W."""
    f = f or loss
    W = model.layers[k].W
    out = np.zeros_like(W)
    for i in range(W.size):
        W.flat[i] += 1e-6
        up = f(model, X0)
        W.flat[i] -= 2e-6
        down = f(model, X0)
        W.flat[i] += 1e-6
        out.flat[i] = (up - down) / 2e-6
    return out


class Indexed:
    """A model calling the layers of its list by position."""

    def __init__(self, layers):
        self.layers = layers

    def loss(self, x):
        return np.sum(self.layers[1](self.layers[0](x)) ** 2)


def test_layers_of_a_list_called_by_position_and_in_a_loop():
    model = Indexed([Affine(A), Affine(B)])
    g = s2s_ad.grad(Indexed.loss)(model, X0)
    for k in range(2):
        np.testing.assert_allclose(g.layers[k].W, _layer_gradient(model, k, Indexed.loss),
                                   rtol=1e-6, atol=1e-9)
    # second order in x: the layers' zero tangents are arrays of their attributes'
    # shapes, which `W @ d[x] + d[W] @ x` takes (the number 0.0 was a crash there)
    layered = Layered([Affine(A), Affine(B)])
    f = fresh(loss)
    v = np.array([0.3, -0.2, 0.5])
    g_x = s2s_ad.grad(f, wrt=1)
    np.testing.assert_allclose(s2s_ad.hvp(f, wrt=1)(layered, X0, v),
                               (g_x(layered, X0 + 1e-6 * v) - g_x(layered, X0 - 1e-6 * v)) / 2e-6,
                               rtol=1e-5, atol=1e-8)
    # second order in the layers' own parameters through `model(x)`, whose __call__
    # loops over them: the helper's forward derivative is built for the signature naming
    # the layers' class (session 15; it was "`layer(...)` calls a value that carries ...")
    V = Layered([Affine(RS.randn(3, 3)), Affine(RS.randn(3, 3))])
    product = s2s_ad.hvp(f)(layered, X0, V)
    assert type(product) is Layered
    g_m = s2s_ad.grad(f)
    for k in range(2):
        up, down = (Layered([Affine(layer.W + e * step.W) for layer, step
                             in zip(layered.layers, V.layers)]) for e in (1e-6, -1e-6))
        expected = (g_m(up, X0).layers[k].W - g_m(down, X0).layers[k].W) / 2e-6
        np.testing.assert_allclose(product.layers[k].W, expected, rtol=1e-5, atol=1e-8)


class Quadratic:
    def __init__(self, W):
        self.W = W

    def loss(self, x):
        return np.sum(np.tanh(self.W @ x) ** 2)


def method_times_sum(m, x):
    return m.loss(x) * np.sum(x)


def test_grad_of_grad_through_a_method_of_an_object_argument(both_paths):
    """grad(grad(f, 1)) and hessian where f calls m.loss(x) was "no derivative is known
    for function_vjp(...)": the general gradient calls the method through its vjp, whose
    reverse template is the jvp of that vjp (templates/runtime_functions.py)."""
    m = Quadratic(A)
    f = fresh(method_times_sum)
    inner = s2s_ad.grad(f, wrt=1)

    def outer(x):
        return np.sum(np.sin(inner(m, x)))
    np.testing.assert_allclose(s2s_ad.grad(outer)(X0), numeric_grad(outer, (X0,), 0),
                               rtol=1e-5, atol=1e-8)
    expected = np.array([numeric_grad(lambda x: inner(m, x)[j], (X0,), 0) for j in range(3)])
    np.testing.assert_allclose(s2s_ad.hessian(f, wrt=1)(m, X0), expected, rtol=1e-5,
                               atol=1e-8)
    v = np.array([0.5, -1.0, 2.0])
    np.testing.assert_allclose(s2s_ad.hvp(f, wrt=1)(m, X0, v), expected @ v, rtol=1e-5,
                               atol=1e-8)


def act_twice(act, x):
    return np.sum(act(x * x) ** 2)


def test_grad_of_grad_through_a_function_chosen_when_the_code_runs(both_paths):
    """The same template for a function argument the general gradient calls."""
    inner = s2s_ad.grad(fresh(act_twice), wrt=1)

    def outer(x):
        return np.sum(np.cos(inner(np.tanh, x)))
    np.testing.assert_allclose(s2s_ad.grad(outer)(X0), numeric_grad(outer, (X0,), 0),
                               rtol=1e-5, atol=1e-8)


# ---- grad of grad through helpers returning lists -----------------------------------------

def layers(x):
    return [(x * 2.0, x + 1.0), (np.sin(x), x)]


def sum_over_layers(x):
    s = 0.0
    for a, b in layers(x):
        s = s + np.sum(a * b)
    return s


def scaled_copies(w):
    out = []
    for i in range(2):
        out.append(w * (i + 1.0))
    return out


def read_copies(s):
    ws = scaled_copies(np.linspace(0.1, 1.0, 3) * s)
    return np.sum(np.sin(ws[0])) + np.sum(np.sin(ws[1]))


SHAPES = [(3, 2), (2, 1)]


def unpack(weights):
    out = []
    for m, n in SHAPES:
        out.append((weights[:m * n].reshape((m, n)), weights[m * n:m * n + n]))
        weights = weights[(m + 1) * n:]
    return out


def network(s):
    weights = np.linspace(-1.0, 1.0, 11) * s
    x = np.array([0.5, -0.2, 0.9])
    for W, b in unpack(weights):
        x = np.tanh(x @ W + b)
    return np.sum(x ** 2)


def test_grad_of_grad_through_a_helper_returning_a_list_of_tuples(both_paths):
    """Crashed inside the generated code: add_adjoints(list, 0.0) (the zero scatter_add
    leaves for an item no contribution reached) and np.shape of the list of tuples the
    tape kept for its shape."""
    f = fresh(sum_over_layers)

    def outer(x):
        return np.sum(s2s_ad.grad(f)(x) ** 2)
    np.testing.assert_allclose(s2s_ad.grad(outer)(X0), numeric_grad(outer, (X0,), 0),
                               rtol=1e-5, atol=1e-8)
    np.testing.assert_allclose(s2s_ad.hessian(f)(X0), np.diag(
        numeric_grad(lambda x: np.sum(s2s_ad.grad(f)(x)), (X0,), 0)), rtol=1e-5, atol=1e-8)


@pytest.mark.parametrize("f", [read_copies, network])
def test_grad_of_grad_through_a_helper_that_appends(both_paths, f):
    """A second derivative off by a few units: the helper's vjp popped its cotangent list
    (its caller's) in place to undo the appends, and the gradient differentiated again
    passed the emptied list to the vjp's own vjp. The list adjoint now starts as a copy."""
    every_way(fresh(f), 0.8)


class Shift:
    """A layer of another class, with a number attribute."""

    def __init__(self, c):
        self.c = c

    def __call__(self, x):
        return x + self.c


class Squash:
    """A layer without attributes."""

    def __call__(self, x):
        return np.sin(x)


class Picked:
    """A model calling its layers of mixed classes by position."""

    def __init__(self, layers):
        self.layers = layers

    def loss(self, x):
        return np.sum(self.layers[2](self.layers[1](self.layers[0](x))) ** 2)


def _mixed():
    return [Affine(A), Shift(0.3), Squash(), Affine(B), Shift(-0.2)]


def _shift_gradient(model, k, f):
    layer = model.layers[k]
    layer.c += 1e-6
    up = f(model, X0)
    layer.c -= 2e-6
    down = f(model, X0)
    layer.c += 1e-6
    return (up - down) / 2e-6


def test_layers_of_a_list_mixing_classes():
    # (session 15; it was "`layer(...)` calls a value that carries the derivative")
    model = Layered(_mixed())
    f = fresh(loss)
    g = s2s_ad.grad(f)(model, X0)
    assert [type(layer) for layer in g.layers] == [Affine, Shift, Squash, Affine, Shift]
    for k in (0, 3):
        np.testing.assert_allclose(g.layers[k].W, _layer_gradient(model, k), rtol=1e-6,
                                   atol=1e-9)
    for k in (1, 4):
        np.testing.assert_allclose(g.layers[k].c, _shift_gradient(model, k, loss), rtol=1e-6)
    # the input's gradient and second order through the same loop
    g_x = s2s_ad.grad(f, wrt=1)
    np.testing.assert_allclose(g_x(model, X0), numeric_grad(loss, (model, X0), 1),
                               rtol=1e-6, atol=1e-9)
    v = np.array([0.3, -0.2, 0.5])
    np.testing.assert_allclose(s2s_ad.hvp(f, wrt=1)(model, X0, v),
                               (g_x(model, X0 + 1e-6 * v) - g_x(model, X0 - 1e-6 * v)) / 2e-6,
                               rtol=1e-5, atol=1e-8)
    # by position, and another order of the classes is another specialisation
    picked = Picked([Shift(0.1), Affine(A), Squash()])
    g = s2s_ad.grad(Picked.loss)(picked, X0)
    np.testing.assert_allclose(g.layers[0].c, _shift_gradient(picked, 0, Picked.loss),
                               rtol=1e-6)
    np.testing.assert_allclose(g.layers[1].W, _layer_gradient(picked, 1, Picked.loss),
                               rtol=1e-6, atol=1e-9)



class Forwarding:
    """A model calling a named method of each layer (`layer.forward(x)`), PyTorch style."""

    def __init__(self, layers):
        self.layers = layers

    def loss(self, x):
        for layer in self.layers:
            x = layer.forward(x)
        return np.sum(x ** 2)


class DenseForward(Affine):
    def forward(self, x):
        return np.tanh(self.W @ x)


class ShiftForward(Shift):
    def forward(self, x):
        return x + self.c


@pytest.mark.parametrize("layers", [
    lambda: [DenseForward(A), DenseForward(B)],
    lambda: [DenseForward(A), ShiftForward(0.4), DenseForward(B)],
], ids=["one class", "mixed classes"])
def test_a_named_method_of_each_layer_in_a_list(layers):
    # (session 15; it was "`layer.forward(...)` calls a method of `layer`, which carries
    # the derivative")
    model = Forwarding(layers())
    g = s2s_ad.grad(Forwarding.loss)(model, X0)
    assert [type(layer) for layer in g.layers] == [type(layer) for layer in model.layers]
    for k, layer in enumerate(model.layers):
        if isinstance(layer, Affine):
            np.testing.assert_allclose(g.layers[k].W,
                                       _layer_gradient(model, k, Forwarding.loss),
                                       rtol=1e-6, atol=1e-9)
        else:
            np.testing.assert_allclose(g.layers[k].c,
                                       _shift_gradient(model, k, Forwarding.loss), rtol=1e-6)
