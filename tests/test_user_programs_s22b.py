"""Programs written the way users write them, tried on session 22's changes (forwarding
modules, nested in-place layers, SharedMemoryWriteError, .tolist(), dict copies), each a
regression test of what the review found, on both derivative paths against central
differences."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, jvp_on
from gradcheck import numeric_grad
from test_forwarded_keywords import Module, Sequential as Layers   # (forwarding __call__)


class ScaledTanh(Module):
    """A forward with a parameter that has a default (`def forward(self, x, mask=None)`
    in PyTorch code): `self.forward(*args, **kwargs)` was refused on every path ("a
    starred argument is differentiated when f takes a fixed number of positional
    parameters (no defaults)")."""
    def forward(self, x, scale=1.5, shift=0.0):
        return np.tanh(scale * x + shift)


ACT = ScaledTanh()
X = np.random.RandomState(22).randn(3, 4)


def act_default(x):
    return np.sum(ACT(x) ** 2)


def act_positional(x):
    return np.sum(ACT(x, 0.7) ** 2)


def act_keyword(x):
    return np.sum(ACT(x, shift=0.3) ** 2)


def act_both(x):
    return np.sum(ACT(x, 0.7, shift=-0.2) ** 2)


def act_of_argument(x, act):
    return np.sum(act(x) ** 2)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [act_default, act_positional, act_keyword, act_both])
def test_forwarded_call_of_a_forward_with_defaults(f, path):
    np.testing.assert_allclose(grad_on(path, f)(X), numeric_grad(f, (X,), 0),
                               rtol=1e-6, atol=1e-8)
    v = np.linspace(0.5, 1.5, X.size).reshape(X.shape)
    value, tangent = jvp_on(path, f, (X,), v)
    np.testing.assert_allclose(value, f(X))
    np.testing.assert_allclose(tangent, np.sum(numeric_grad(f, (X,), 0) * v), rtol=1e-6)


@pytest.mark.parametrize("path", PATHS)
def test_forwarded_call_of_an_argument_with_defaults(path):
    act = ScaledTanh()
    np.testing.assert_allclose(grad_on(path, act_of_argument)(X, act),
                               numeric_grad(act_of_argument, (X, act), 0),
                               rtol=1e-6, atol=1e-8)


class Heat:
    def __init__(self, k):
        self.k = k

    def step(self, u, dt):
        u[1:-1] += dt * self.k * (u[2:] - 2 * u[1:-1] + u[:-2])


def heat_steps(u0, k):
    sim = Heat(k)
    u = u0.copy()
    for _ in range(4):
        sim.step(u, 0.1)
    return np.sum(u ** 2)


def heat_twice(u0, k):
    sim = Heat(k)
    u = u0.copy()
    sim.step(u, 0.1)
    sim.step(u, 0.2)
    return np.sum(u ** 2)


U0 = np.random.RandomState(5).randn(7)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [heat_steps, heat_twice])
def test_object_made_in_f_whose_method_writes_an_argument_more_than_once(f, path):
    """An object made in f (`sim = Heat(k)`) whose method, writing into f's array, is
    inlined twice or in a loop: the parts of its adjoint (dicts of its fields') added with
    `+` on the general path, a TypeError in generated code ('dict' + 'dict'); the
    constructed object's adjoint is structured now."""
    expected = (f(U0, 0.5 + 1e-6) - f(U0, 0.5 - 1e-6)) / 2e-6
    np.testing.assert_allclose(grad_on(path, f, wrt=1)(U0, 0.5), expected, rtol=1e-6)
    np.testing.assert_allclose(grad_on(path, f)(U0, 0.5), numeric_grad(f, (U0, 0.5), 0),
                               rtol=1e-6, atol=1e-8)


PARAMS = {"enc": {"W": np.random.RandomState(7).randn(3, 3)},
          "out": np.random.RandomState(8).randn(3)}
XS = np.random.RandomState(9).randn(4, 3)


def nested_copies(p, x):
    q = p.copy()
    q["enc"] = q["enc"].copy()
    q["enc"]["W"] = q["enc"]["W"] * 0.5
    return np.sum(np.tanh(x @ q["enc"]["W"]) @ p["out"])


def test_copy_of_an_item_of_a_copied_dict():
    """`q = p.copy(); q["enc"] = q["enc"].copy()` (an optimizer's update of nested
    params): the item's copy is known a dict only once the first copy is one; it was
    refused on the specialised path (`.copy()` ... read as an array's copy)."""
    got = s2s_ad.grad(nested_copies)(PARAMS, XS)

    def of_w(w):
        return nested_copies({"enc": {"W": w}, "out": PARAMS["out"]}, XS)

    def of_out(o):
        return nested_copies({"enc": {"W": PARAMS["enc"]["W"]}, "out": o}, XS)
    np.testing.assert_allclose(got["enc"]["W"], numeric_grad(of_w, (PARAMS["enc"]["W"],), 0),
                               rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(got["out"], numeric_grad(of_out, (PARAMS["out"],), 0),
                               rtol=1e-6, atol=1e-8)
    v = {"enc": {"W": np.linspace(0.5, 1.5, 9).reshape(3, 3)}, "out": np.ones(3)}
    value, tangent = s2s_ad.jvp(nested_copies)(PARAMS, XS, v)
    np.testing.assert_allclose(value, nested_copies(PARAMS, XS))
    np.testing.assert_allclose(tangent, np.sum(got["enc"]["W"] * v["enc"]["W"])
                               + np.sum(got["out"]), rtol=1e-6)


class Clip(Module):
    def forward(self, x):
        x[x < 0] = 0.0
        return x


class Half(Module):
    def __init__(self):
        self.W = np.eye(4) * 0.5 + 0.1

    def forward(self, x):
        return x @ self.W


def model_then_input(x, m):
    y = m(x)
    return np.sum(y ** 2) + np.sum(x)


X4 = np.array([[-1.0, 2.0, -0.5, 0.3], [0.7, -0.2, 1.1, -1.3]])


@pytest.mark.parametrize("path", PATHS)
def test_a_list_of_layers_writing_into_the_callers_array_is_refused(path):
    """`for layer in self.layers: x = layer(x)` whose first layer clips in place writes
    into f's x, which f reads again: numpy's f sees the clipped x. The loop's calls were
    not followed by the argument-write analysis, so the model got a derivative of its own:
    a WRONG gradient on both paths (and the general one clipped the caller's x). Now the
    write is found (each item's class, in the list's order) and refused. (It is refused
    when the backward sweep reaches the layer's vjp, after the forward sweep clipped x:
    /work/s22r-left/refused_after_forward_ran.py.)"""
    from s2s_ad.errors import SharedMemoryWriteError
    with pytest.raises(SharedMemoryWriteError):
        grad_on(path, model_then_input)(X4.copy(), Layers(Clip(), Half()))


@pytest.mark.parametrize("path", PATHS)
def test_a_list_of_layers_clipping_a_fresh_array_is_differentiated(path):
    """The same layers the other way round: the clip writes into Half's result, a fresh
    array, so f's x is unchanged and the gradient is computed (not refused)."""
    m = Layers(Half(), Clip(), Half())
    x = X4.copy()
    got = grad_on(path, model_then_input)(x, m)
    np.testing.assert_array_equal(x, X4)
    np.testing.assert_allclose(got, numeric_grad(lambda z: model_then_input(z.copy(), m),
                                                 (X4,), 0), rtol=1e-6, atol=1e-8)
