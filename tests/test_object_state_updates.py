"""Attribute writes that update an object's state (a running mean, a call counter) inside
the differentiated code: run once per call of the derivative, in its forward sweep, as
Python runs them, and contributing nothing to the gradient (analyses/state_updates.py,
set_attribute in runtime_objects.py). Read back into the output, or run twice by a vjp
built on its own, they are located errors.

Each gradient is checked against central differences and each object's state after the
derivative's call against what calling f leaves."""
import copy
import importlib.util
import subprocess
import sys

import numpy as np
import pytest

import s2s_ad
from s2s_ad.errors import UnsupportedSyntaxError
from derivative_paths import grad_on, hvp_on, jvp_on, on_path
from gradcheck import numeric_grad

RNG = np.random.default_rng(22)
X = RNG.standard_normal((5, 3))
V = RNG.standard_normal((5, 3))


class BatchNorm:
    def __init__(self, d):
        self.gamma = np.linspace(0.5, 1.5, d)
        self.running_mean = np.zeros(d)
        self.running_var = np.ones(d)
        self.momentum = 0.1
        self.calls = 0

    def forward(self, x):
        mu = x.mean(axis=0)
        var = x.var(axis=0)
        self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * mu
        self.running_var = 0.9 * self.running_var + 0.1 * var
        self.calls += 1
        return self.gamma * (x - mu) / np.sqrt(var + 1e-5)

    def loss(self, x):
        return np.sum(np.tanh(self.forward(x)) ** 2)


class Module:
    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)


class Linear(Module):
    def __init__(self, n_in, n_out):
        self.W = np.linspace(-1.0, 1.0, n_in * n_out).reshape(n_in, n_out)

    def forward(self, x):
        return x @ self.W


class Counted(Module):
    def __init__(self):
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        return np.tanh(x)


class BatchNormModule(BatchNorm, Module):
    pass


class Net(Module):
    def __init__(self, d):
        self.fc = Linear(d, d)
        self.bn = BatchNormModule(d)
        self.act = Counted()

    def forward(self, x):
        return self.act(self.bn(self.fc(x)))


class Residual(Module):
    def __init__(self, d):
        self.fc = Linear(d, d)
        self.bn = BatchNormModule(d)

    def forward(self, x):
        h = x + self.fc(x)
        return self.bn(h)


class Sequential(Module):
    def __init__(self, d):
        self.layers = [Linear(d, d), BatchNormModule(d), Counted(), Linear(d, d),
                       BatchNormModule(d), Counted()]

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class Cached:
    def __init__(self):
        self.w = np.array([0.5, 1.0, 2.0])

    def forward(self, x):
        self.cache = np.tanh(x)
        return self.cache * self.w


def direct(x, m):
    """Writes on an object argument in f itself."""
    m.running_mean = 0.9 * m.running_mean + 0.1 * x.mean(axis=0)
    m.calls += 1
    return np.sum(np.sin(x) * m.gamma)


def via_method(x, m):
    return np.sum(np.sin(m.forward(x)) * np.array([1.0, 2.0, 3.0]))


def three_times(x, m):
    """Each call reads the state the previous one wrote, only to update it again."""
    h = x
    for _ in range(3):
        h = np.tanh(m.forward(h))
    return np.sum(h ** 2)


def net_loss(x, net):
    return np.mean(net(x) ** 2)


def reads_back(x, c):
    return np.sum(c.forward(x) ** 2)


def scaled(c, x):
    return np.sum(c.w * x)


def passes_back(x, c):
    """The object goes to a call after the write: scaled's derivative would not see it."""
    c.w = np.tanh(x[0])
    return scaled(c, x)


def state(obj):
    """The numbers and arrays an object (and the objects it holds) holds."""
    out = {}
    for name, value in vars(obj).items():
        held = {f"{name}[{k}]": item for k, item in enumerate(value)} \
            if isinstance(value, list) else {name: value}
        for key, item in held.items():
            if hasattr(item, "__dict__"):
                out.update({f"{key}.{k}": v for k, v in state(item).items()})
            else:
                out[key] = np.array(item, dtype=float)
    return out


def assert_same_state(got, f, x, obj):
    """`got` is what the derivative left; Python's is f run once on a copy of obj (which
    does change it: the check would pass without the update otherwise)."""
    expected = copy.deepcopy(obj)
    f(x.copy(), expected)
    want, have, before = state(expected), state(got), state(obj)
    assert sorted(have) == sorted(want)
    for name in want:
        np.testing.assert_allclose(have[name], want[name], rtol=1e-12, atol=0, err_msg=name)
    assert any(not np.array_equal(before[name], want[name]) for name in want)


def differences(f, obj):
    return numeric_grad(lambda x: f(x, copy.deepcopy(obj)), (X.copy(),), 0)


@pytest.mark.parametrize("f, path", [
    (direct, "specialised"), (direct, "general"), (three_times, "specialised"),
    (via_method, "specialised")], ids=lambda v: getattr(v, "__name__", v))
def test_gradient_and_state_of_a_state_update(f, path):
    """(a method called on an argument, on the general path: refused, below)"""
    obj = BatchNorm(3)
    got = copy.deepcopy(obj)
    g = grad_on(path, f)(X.copy(), got)
    np.testing.assert_allclose(g, differences(f, obj), rtol=1e-6, atol=1e-8)
    assert_same_state(got, f, X, obj)


@pytest.mark.parametrize("path", ["specialised", "general"])
def test_value_and_grad_of_a_bound_method_updating_self(path):
    obj = BatchNorm(3)
    got = copy.deepcopy(obj)
    value, g = on_path(s2s_ad.value_and_grad(got.loss), path)(X.copy())
    np.testing.assert_allclose(value, copy.deepcopy(obj).loss(X.copy()), rtol=1e-12)
    np.testing.assert_allclose(g, numeric_grad(lambda x: copy.deepcopy(obj).loss(x),
                                               (X.copy(),), 0), rtol=1e-6, atol=1e-8)
    assert_same_state(got, lambda x, m: m.loss(x), X, obj)


def test_pytorch_style_network_with_batchnorm_and_counter():
    net = Net(3)
    got = copy.deepcopy(net)
    g = s2s_ad.grad(net_loss)(X.copy(), got)
    np.testing.assert_allclose(g, differences(net_loss, net), rtol=1e-6, atol=1e-8)
    assert_same_state(got, net_loss, X, net)
    got = copy.deepcopy(net)
    value, g = s2s_ad.value_and_grad(net_loss)(X.copy(), got)
    np.testing.assert_allclose(value, net_loss(X.copy(), copy.deepcopy(net)), rtol=1e-12)
    assert_same_state(got, net_loss, X, net)


def derivative_differences(f, obj, x, v, eps=1e-5):
    """d/de of s2s_ad's gradient at x + e v (the gradient itself checked above)."""
    g = lambda y: s2s_ad.grad(f)(y, copy.deepcopy(obj))  # noqa: E731
    return (g(x + eps * v) - g(x - eps * v)) / (2 * eps)


def test_layers_in_a_list_each_update_their_own_state():
    """Each BatchNorm's read of `.running_mean` after the other's write only feeds its
    own update: allowed."""
    net = Sequential(3)
    got = copy.deepcopy(net)
    g = s2s_ad.grad(net_loss)(X.copy(), got)
    np.testing.assert_allclose(g, differences(net_loss, net), rtol=1e-6, atol=1e-8)
    assert_same_state(got, net_loss, X, net)
    assert [getattr(layer, "calls", None) for layer in got.layers] == [None, 1, 1, None, 1, 1]


@pytest.mark.parametrize("f", [via_method, three_times], ids=lambda f: f.__name__)
def test_jvp_and_hvp_run_the_update_once(f):
    obj = BatchNorm(3)
    got = copy.deepcopy(obj)
    _, tangent = jvp_on("specialised", f, (X.copy(), got), V)
    np.testing.assert_allclose(tangent, np.sum(differences(f, obj) * V), rtol=1e-6)
    assert_same_state(got, f, X, obj)
    got = copy.deepcopy(obj)
    hv = hvp_on("specialised", f, (X.copy(), got), V)
    np.testing.assert_allclose(hv, derivative_differences(f, obj, X, V), rtol=1e-5, atol=1e-8)
    assert_same_state(got, f, X, obj)


@pytest.mark.parametrize("make", [Net, Residual, Sequential], ids=lambda c: c.__name__)
def test_hvp_of_a_network_updating_state_runs_the_update_once(make):
    """Session 22 refused these (Net.forward had a vjp of its own, which hvp ran again):
    a method updating its object's state, there or in the layers it calls, is inlined
    into f, so the update is in f's forward sweep, which every derivative runs once."""
    net = make(3)
    got = copy.deepcopy(net)
    hv = s2s_ad.hvp(net_loss)(X.copy(), got, V)
    np.testing.assert_allclose(hv, derivative_differences(net_loss, net, X, V),
                               rtol=1e-5, atol=1e-8)
    assert_same_state(got, net_loss, X, net)
    got = copy.deepcopy(net)
    np.testing.assert_allclose(s2s_ad.grad(net_loss)(X.copy(), got),
                               differences(net_loss, net), rtol=1e-6, atol=1e-8)
    assert_same_state(got, net_loss, X, net)


def test_reading_the_written_attribute_back_is_a_located_error():
    with pytest.raises(UnsupportedSyntaxError) as info:
        s2s_ad.grad(reads_back)(X.copy(), Cached())
    text = str(info.value)
    assert "`.cache`" in text and "return np.sum(c.forward(x) ** 2)" in text
    assert __file__.replace(".pyc", ".py") in text


def test_passing_the_written_object_to_a_call_is_a_located_error():
    with pytest.raises(UnsupportedSyntaxError) as info:
        s2s_ad.grad(passes_back)(X.copy(), Cached())
    assert "`.w`" in str(info.value) and "return scaled(c, x)" in str(info.value)


def adds_in_place(x, m):
    held = m.running_mean
    m.running_mean += 1.0
    return np.sum(held * x)


def test_augmented_assignment_to_an_array_attribute_is_a_located_error():
    """Python adds into the array `held` also names: s2s_ad would miss that change."""
    for path in ("specialised", "general"):
        obj = BatchNorm(3)
        with pytest.raises(s2s_ad.errors.ADError) as info:
            grad_on(path, adds_in_place)(X[0].copy(), obj)
        assert "in place" in str(info.value)
        assert "m.running_mean += 1.0" in str(info.value)
        np.testing.assert_array_equal(obj.running_mean, np.zeros(3))


def test_vjp_runs_the_update_once():
    obj = BatchNorm(3)
    got = copy.deepcopy(obj)
    g = s2s_ad.vjp(via_method)(X.copy(), got, 2.0)
    np.testing.assert_allclose(g, 2.0 * differences(via_method, obj), rtol=1e-6, atol=1e-8)
    assert_same_state(got, via_method, X, obj)


def test_a_vjp_running_the_method_again_is_refused():
    """The general derivative calls m.forward, then its vjp, which runs it again: the
    counter would count two calls. A located error at the write instead."""
    obj = BatchNorm(3)
    with pytest.raises(UnsupportedSyntaxError) as info:
        on_path(s2s_ad.grad(via_method), "general")(X.copy(), obj)
    assert "twice" in str(info.value)
    assert "self.running_mean = (1 - self.momentum)" in str(info.value)



@pytest.mark.slow
def test_cli_written_gradient_updates_the_state(tmp_path):
    source = '''import numpy as np


def loss(x, m):
    m.running_mean = 0.9 * m.running_mean + 0.1 * x.mean(axis=0)
    m.calls += 1
    return np.sum(np.sin(x) * m.gamma)
'''
    (tmp_path / "state_model.py").write_text(source)
    out = subprocess.run(
        [sys.executable, "-c", "import sys; from s2s_ad.cli import main; sys.exit(main())",
         "grad", "state_model.py:loss", "-o", "g.py"], cwd=tmp_path, capture_output=True,
        text=True)
    assert out.returncode == 0, out.stderr
    written_text = (tmp_path / "g.py").read_text()
    assert "set_attribute(m, 'calls'" in written_text and "import s2s_ad" not in written_text
    sys.path.insert(0, str(tmp_path))
    try:
        spec = importlib.util.spec_from_file_location("g_state", tmp_path / "g.py")
        written = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(written)
        obj = BatchNorm(3)
        got = copy.deepcopy(obj)
        g = written.grad_loss(X.copy(), got)
    finally:
        sys.path.remove(str(tmp_path))
    np.testing.assert_allclose(g, differences(direct, obj), rtol=1e-6, atol=1e-8)
    assert_same_state(got, direct, X, obj)


class SwitchedNorm(Module):
    """PyTorch's BatchNorm: batch statistics (and their running means updated) while
    training, the running means read when not."""

    def __init__(self, d):
        self.running_mean = np.zeros(d)
        self.running_var = np.ones(d)
        self.training = True

    def forward(self, x):
        if self.training:
            mu = x.mean(axis=0)
            var = x.var(axis=0)
            self.running_mean = 0.9 * self.running_mean + 0.1 * mu
            self.running_var = 0.9 * self.running_var + 0.1 * var
        else:
            mu, var = self.running_mean, self.running_var
        return (x - mu) / np.sqrt(var + 1e-5)


class SwitchedNet(Module):
    def __init__(self, d):
        self.layers = [Linear(d, d), SwitchedNorm(d), Counted()]

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


@pytest.mark.parametrize("training", [True, False])
def test_reading_the_state_on_the_other_arm_of_a_branch(training):
    """The read of `.running_mean` is on the arm the write is not on: it never follows
    the write (a false rejection before), in training and in evaluation."""
    net = SwitchedNet(3)
    net.layers[1].training = training
    got = copy.deepcopy(net)
    g = s2s_ad.grad(net_loss)(X.copy(), got)
    np.testing.assert_allclose(g, differences(net_loss, net), rtol=1e-6, atol=1e-8)
    assert_same_state(got, net_loss, X, net)
    hv = s2s_ad.hvp(net_loss)(X.copy(), copy.deepcopy(net), V)
    np.testing.assert_allclose(hv, derivative_differences(net_loss, net, X, V),
                               rtol=1e-5, atol=1e-8)


class Tallied:
    def __init__(self):
        self.calls = 0
        self.W = np.linspace(0.5, 1.5, 3)
        self.acc = np.zeros(3)

    def forward(self, x):
        self.calls += 1
        return np.tanh(x * self.W)

    def accumulate(self, x):
        self.acc += x
        return np.tanh(x * self.W)


def counted_loss(x, m):
    return np.sum(m.forward(x) ** 2)


def accumulated_loss(x, m):
    return np.sum(m.accumulate(x) ** 2)


def test_a_counter_the_signature_says_is_an_int_has_no_array_check():
    """`self.calls += 1` adds in place only into an array; the facts say calls is an int,
    so the check (and its long message) is not in the derivative."""
    df = s2s_ad.grad(counted_loss)
    m, x = Tallied(), X[0].copy()
    g = df(x, m)
    assert m.calls == 1
    np.testing.assert_allclose(g, numeric_grad(lambda v: counted_loss(v, Tallied()), (x,), 0),
                               rtol=1e-6, atol=1e-8)
    assert "check_not_array" not in s2s_ad.derivative_source(df, x, m)


def test_an_attribute_holding_an_array_added_into_is_still_refused():
    with pytest.raises(Exception) as info:
        s2s_ad.grad(accumulated_loss)(X[0].copy(), Tallied())
    assert "augmented assignment to an attribute holding an array" in str(info.value)
