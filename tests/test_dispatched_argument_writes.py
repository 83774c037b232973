"""A def that writes into the array it is given (`x *= 2.0` in a layer's forward), called
where it is differentiated as a derivative of its own: an object's `__call__` going through
`self.forward(*args)`, a function taken from a list, an object built in f, a method of an
object argument. These were silent wrong gradients (3 cos x for 4 cos x): the caller's
derivative never learnt that its array changed. Now the write is followed (the method is
inlined, the object known as its class inside) or the call is a located error pointing at
the write; never a wrong value."""
import numpy as np
import pytest

import s2s_ad
from s2s_ad.analyses.argument_writes import parameter_writes, parameters_written
from s2s_ad.errors import UnsupportedSyntaxError
from derivative_paths import PATHS, check_against_differences, grad_on, hvp_on, jvp_on
from gradcheck import numeric_grad
from test_module_classes import Module, Sequential   # (PyTorch-style: __call__ runs forward)

X = np.array([0.3, -0.7, 1.2])


class Doubling(Module):
    def forward(self, x):
        x *= 2.0                                       # the write the errors point at
        return x


class Sine(Module):
    def forward(self, x):
        return np.sin(x)


class Tanh(Module):
    def forward(self, x):
        return np.tanh(x)


class Scaling(Module):
    def __init__(self):
        self.s = np.array([1.5, 0.5, 2.0])

    def forward(self, x):
        x *= self.s
        return x


class Net:
    def __init__(self, layers):
        self.layers = layers

    def forward(self, x):
        outs = []
        for layer in self.layers:
            x = layer(x)
            outs.append(x)
        return np.sum(outs[0]) + np.sum(outs[1])


def doubled(x):
    x *= 2.0
    return x


def layers_made_in_f(x):
    outs = []
    for layer in [Sine(), Doubling()]:
        x = layer(x)
        outs.append(x)
    return np.sum(outs[0]) + np.sum(outs[1])           # Python: 4 sum(sin x)


def function_from_list(x):
    fns = [doubled]
    a = np.sin(x)
    b = fns[0](a)
    return np.sum(a) + np.sum(b)


def object_made_in_f(x):
    a = np.sin(x)
    b = Doubling()(a)
    return np.sum(a) + np.sum(b)


def model_forward(x, net):
    return net.forward(x)


def layer_argument(x, layer):
    a = np.sin(x)
    b = layer(a)
    return np.sum(a) + np.sum(b)


def written_after_tanh(x, layer):
    h = np.tanh(x)
    return np.sum(layer(h))                            # h is not read again: followed


SINE = Sine()
DOUBLING = Doubling()


def module_level_object(x):
    return np.sum(SINE(x) * x)


def module_level_writer(x):
    a = np.sin(x)
    b = DOUBLING(a)
    return np.sum(a) + np.sum(b)


# specialised, the layer is inlined and the alias check names the caller's variable; the
# general derivative (no classes known) calls the layer when the code runs and refuses it
REFUSED = "holds the same numpy array as `{}`|writes here into the array its caller passes in"


def _refused(derivative, *args):
    with pytest.raises(UnsupportedSyntaxError) as info:
        derivative(*args)
    return str(info.value)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [layers_made_in_f, function_from_list, object_made_in_f],
                         ids=lambda f: f.__name__)
def test_a_function_chosen_at_run_time_that_writes_is_refused_at_its_write(f, path):
    # each is a wrong gradient if the write is missed: Python's value counts the write
    message = _refused(grad_on(path, f), X.copy())
    assert "writes here into the array its caller passes in" in message
    assert "x *= 2.0" in message and "test_dispatched_argument_writes.py" in message
    _refused(lambda x: jvp_on(path, f, (x,), np.ones(3)), X.copy())
    _refused(lambda x: hvp_on(path, f, (x,), np.ones(3)), X.copy())


def test_the_error_names_the_method_that_writes_and_the_one_called():
    message = _refused(s2s_ad.grad(layers_made_in_f), X.copy())
    assert "`Doubling.forward`" in message and "through `Module.__call__`" in message


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("make", [lambda: Net([Sine(), Doubling()]), lambda: Net([Doubling(), Doubling()]),
                                  lambda: Net([Sine(), Scaling()])], ids=["mixed", "same", "scale"])
def test_a_model_whose_layer_writes_into_what_the_model_keeps_is_refused(make, path):
    # the layer is inlined into the model's derivative, whose alias check sees `outs` hold
    # the array the next layer writes into
    with pytest.raises(UnsupportedSyntaxError, match=REFUSED.format("outs")):
        grad_on(path, model_forward)(X.copy(), make())


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("make", [Doubling, Scaling], ids=["doubling", "scaling"])
def test_an_object_argument_whose_method_writes_into_a_value_read_later_is_refused(make, path):
    with pytest.raises(UnsupportedSyntaxError, match=REFUSED.format("a")):
        grad_on(path, layer_argument)(X.copy(), make())


@pytest.mark.parametrize("make", [Doubling, Scaling], ids=["doubling", "scaling"])
def test_a_write_nothing_reads_after_is_followed(make):
    # inlined with the object's class known, so self.forward(*args) is the layer's forward
    # (the general derivative knows no class: it refuses, test above)
    f, path = written_after_tanh, "specialised"
    g = grad_on(path, f)(X.copy(), make())
    np.testing.assert_allclose(g, numeric_grad(lambda x: f(x.copy(), make()), (X.copy(),), 0),
                               rtol=1e-6, atol=1e-8)
    _, tangent = jvp_on(path, f, (X.copy(), make()), np.ones(3))
    np.testing.assert_allclose(tangent, g.sum(), rtol=1e-6)


def test_a_module_level_callable_object_is_called_through_its_class():
    check_against_differences("specialised", module_level_object, X.copy())
    with pytest.raises(UnsupportedSyntaxError, match="holds the same numpy array as `a`"):
        s2s_ad.grad(module_level_writer)(X.copy())


@pytest.mark.parametrize("path", PATHS)
def test_layers_that_do_not_write_still_differentiate_through_run_time_calls(path):
    g = grad_on(path, _two_sine_layers)(X.copy())
    np.testing.assert_allclose(g, numeric_grad(_two_sine_layers, (X.copy(),), 0), rtol=1e-6,
                               atol=1e-8)


def _two_sine_layers(x):
    for layer in [Sine(), Tanh()]:
        x = layer(x)
    return np.sum(x * x)


def test_parameter_writes_follows_methods_called_on_self_of_a_known_class():
    assert parameters_written(Module.__call__) == frozenset()      # self's class unknown
    writes = parameter_writes(Module.__call__, Doubling)
    assert set(writes) == {"args"}
    assert writes["args"].source_line.strip().startswith("x *= 2.0")
    assert writes["args"].function == "Doubling.forward"
    assert parameter_writes(Module.__call__, Sine) == {}


class CountedNet:
    def __init__(self, layers):
        self.layers = layers

    def forward(self, x):
        n = len(self.layers)                           # (so the loop is not unrolled)
        for layer in self.layers:
            x = layer(x)
        return np.sum(x * x) * n


def counted_net(x, net):
    return net.forward(x)


def test_a_loop_over_layers_of_several_classes_one_writing_is_refused_at_the_write():
    message = _refused(s2s_ad.grad(counted_net), X.copy(), CountedNet([Tanh(), Doubling()]))
    assert "`Doubling.forward`" in message and "x *= 2.0" in message
    assert "(`x = layer(x)`)" in message                # the call it is differentiated at
    g = s2s_ad.grad(counted_net)(X.copy(), CountedNet([Sine(), Tanh()]))
    np.testing.assert_allclose(
        g, numeric_grad(lambda x: counted_net(x, CountedNet([Sine(), Tanh()])), (X.copy(),), 0),
        rtol=1e-6, atol=1e-8)


class Linear(Module):
    def __init__(self, n, m, seed):
        self.W = np.random.default_rng(seed).normal(size=(n, m)) * 0.5
        self.b = np.linspace(-0.2, 0.3, m)

    def forward(self, x):
        return x @ self.W + self.b


class ReLUOut(Module):
    def forward(self, x):
        np.maximum(x, 0.0, out=x)                      # in place, as nn.ReLU(inplace=True)
        return x


class ReLUMasked(Module):
    def forward(self, x):
        x[x < 0] = 0.0
        return x


def regression_loss(model, X, y):
    return np.mean((model(X)[:, 0] - y) ** 2)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("relu", [ReLUOut, ReLUMasked], ids=["out", "mask"])
def test_an_in_place_relu_after_a_linear_layer_is_followed(relu, path):
    # the write is into the linear layer's fresh output, which nothing reads again: the
    # model's derivative follows it (Module.__call__ returns what forward returns, never
    # the layer object itself, so the output is no view of the list of layers)
    rng = np.random.default_rng(3)
    X, y = rng.normal(size=(8, 3)), rng.normal(size=8)
    model = Sequential(Linear(3, 5, 1), relu(), Linear(5, 1, 2))
    g = grad_on(path, regression_loss, wrt=1)(model, X.copy(), y)
    np.testing.assert_allclose(g, numeric_grad(regression_loss, (model, X.copy(), y), 1),
                               rtol=1e-6, atol=1e-8)
    s2s_ad.check_grads(regression_loss, model, X.copy(), y)


class ScaledSine(Module):
    def __init__(self, act):
        self.act = act                                 # an object the block holds

    def forward(self, x):
        return np.sin(self.act(x))


def block_then_read(x, blk):
    y = x * 1.0
    z = blk(y)
    return np.sum(z * y) + np.sum(y ** 3)              # y read after the block's call


@pytest.mark.parametrize("path", PATHS)
def test_a_block_whose_held_layer_writes_into_its_input_is_refused(path):
    # ScaledSine.forward calls self.act(x), act a Scaling that does `x *= self.s`: the
    # write reaches f's y, which f reads afterwards (was a silent wrong gradient on both
    # paths: the held object's call was read as writing nothing)
    message = _refused(grad_on(path, block_then_read), X.copy(), ScaledSine(Scaling()))
    assert "x *= self.s" in message
    g = grad_on(path, block_then_read)(X.copy(), ScaledSine(Tanh()))
    np.testing.assert_allclose(
        g, numeric_grad(lambda x: block_then_read(x, ScaledSine(Tanh())), (X.copy(),), 0),
        rtol=1e-6, atol=1e-8)


def test_parameter_writes_follows_an_object_self_holds():
    blk = ScaledSine(Scaling())
    writes = parameter_writes(Module.__call__, ScaledSine, vars(blk))
    assert set(writes) == {"args"} and writes["args"].function == "Scaling.forward"
    assert parameter_writes(Module.__call__, ScaledSine, vars(ScaledSine(Tanh()))) == {}
    assert parameter_writes(Module.__call__, ScaledSine) == {}     # nothing known it holds
