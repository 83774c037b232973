"""A helper's effects run once per derivative call, as in the function itself: a print or
a warning in a helper (a module-level def, a model's method), and a state update of an
object reached through another (`self.bn.forward(h)`). A helper whose forward sweep is
cheap keeps a whole vjp, which runs the helper again in the backward sweep; one with an
effect is split instead (transforms/split_calls.worth_splitting), so only the forward
sweep runs it. Gradients are checked against central differences."""
import copy
import warnings

import numpy as np
import pytest

import s2s_ad
from s2s_ad.errors import UnsupportedSyntaxError
from derivative_paths import grad_on
from gradcheck import numeric_grad

X = np.random.default_rng(23).standard_normal((4, 3))


def shout(x):
    print("shout")
    return np.tanh(x) * 2.0


def warn_once(x):
    warnings.warn("warn_once ran")
    return np.sin(x)


class Printing:
    def forward(self, x):
        print("Printing.forward")
        return np.tanh(x * 2.0)


class RunningMean:
    def __init__(self):
        self.mean = np.zeros(3)
        self.calls = 0

    def forward(self, x):
        self.mean = 0.9 * self.mean + 0.1 * x.mean(axis=0)
        self.calls += 1
        return x - x.mean(axis=0)


class Net:
    """Calls the methods of the objects it holds by name (not through `__call__`)."""

    def __init__(self):
        self.norm = RunningMean()
        self.out = Printing()
        self.W = np.linspace(-1.0, 1.0, 9).reshape(3, 3)

    def forward(self, x):
        h = np.tanh(x @ self.W)
        return self.out.forward(self.norm.forward(h))


def printed_twice_in_f(x):
    return np.sum(shout(x) ** 2) + np.sum(shout(2.0 * x))


def warned(x):
    return np.sum(warn_once(x) ** 2)


def method_printing(x, m):
    y = m.forward(x)
    return np.sum(m.forward(y) ** 2)


def net_loss(x, net):
    return np.sum(net.forward(x) ** 2)


@pytest.mark.parametrize("path", ["specialised", "general"])
def test_a_print_in_a_helper_runs_as_often_as_in_f(path, capsys):
    df = grad_on(path, printed_twice_in_f)
    df(X)
    capsys.readouterr()
    got = df(X)
    assert capsys.readouterr().out.count("shout") == 2
    np.testing.assert_allclose(got, numeric_grad(printed_twice_in_f, (X,), 0),
                               rtol=1e-6, atol=1e-8)

def test_a_print_in_a_method_runs_as_often_as_in_f(capsys):
    """(The general derivative, which does not know m's class, calls m.forward as a
    function chosen when the code runs, whose vjp runs it again: printed twice there.)"""
    df = grad_on("specialised", method_printing)
    df(X, Printing())
    capsys.readouterr()
    df(X, Printing())
    assert capsys.readouterr().out.count("Printing.forward") == 2


@pytest.mark.parametrize("path", ["specialised", "general"])
def test_a_warning_in_a_helper_is_given_once(path):
    df = grad_on(path, warned)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = df(X)
    assert [str(w.message) for w in caught] == ["warn_once ran"]
    np.testing.assert_allclose(got, numeric_grad(warned, (X,), 0), rtol=1e-6, atol=1e-8)


def test_state_updated_through_a_held_objects_method(capsys):
    net = Net()
    got = copy.deepcopy(net)
    g = grad_on("specialised", net_loss)(X.copy(), got)
    assert capsys.readouterr().out.count("Printing.forward") == 1
    want = numeric_grad(lambda x: net_loss(x, copy.deepcopy(net)), (X.copy(),), 0)
    np.testing.assert_allclose(g, want, rtol=1e-6, atol=1e-8)
    python = copy.deepcopy(net)
    net_loss(X.copy(), python)
    assert got.norm.calls == python.norm.calls == 1
    np.testing.assert_allclose(got.norm.mean, python.norm.mean, rtol=1e-12)


def test_the_general_derivative_refuses_to_run_the_update_twice():
    """It calls net.forward as a function chosen when the code runs, then that function's
    vjp, which would run the update a second time: the located error at the update,
    found through `self.norm.forward(h)`."""
    with pytest.raises(UnsupportedSyntaxError) as info:
        grad_on("general", net_loss)(X.copy(), Net())
    assert "twice" in str(info.value)
    assert "self.mean = 0.9 * self.mean" in str(info.value)


def test_a_held_objects_method_is_called_by_its_class():
    """The specialised derivative knows `self.norm` is a RunningMean: its forward is
    differentiated through the object's attributes, not called as a function chosen when
    the code runs."""
    df = s2s_ad.grad(net_loss)
    net = Net()
    df(X.copy(), net)
    source = s2s_ad.derivative_source(df, X.copy(), net)
    assert "call_function" not in source and "function_vjp" not in source, source
