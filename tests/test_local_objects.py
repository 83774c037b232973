"""Objects made in f whose methods update their own state (an optimizer's momentum, Adam's
two moments, a step counter): their attributes are local values of f (transforms/
local_objects.py), differentiated on both derivative paths, to second order, against
central differences. An object whose state would leave f is the located error."""
import inspect

import numpy as np
import pytest

import s2s_ad
from s2s_ad.errors import UnsupportedSyntaxError
from derivative_paths import PATHS, check_against_differences
from gradcheck import numeric_grad
from local_object_classes import Nesterov


class Momentum:
    def __init__(self, lr):
        self.lr = lr
        self.m = 0.0

    def step(self, w, g):
        self.m = 0.9 * self.m + g
        return w - self.lr * self.m


def momentum_descent(x):
    opt = Momentum(0.1)
    w = np.zeros(3)
    for _ in range(3):
        w = opt.step(w, 2.0 * (w - x))
    return np.sum(w ** 2 * x)


class Adam:
    beta1 = 0.9

    def __init__(self, w0, lr=0.05):
        self.lr = lr
        self.m = np.zeros_like(w0)        # state made from an argument
        self.v = np.zeros_like(w0)
        self.t = 0

    def _moments(self, g):
        self.m = self.beta1 * self.m + (1 - self.beta1) * g
        self.v = 0.999 * self.v + 0.001 * g * g

    def step(self, w, g):
        self.t += 1
        self._moments(g)
        mhat = self.m / (1 - self.beta1 ** self.t)
        vhat = self.v / (1 - 0.999 ** self.t)
        return w - self.lr * mhat / (np.sqrt(vhat) + 1e-3)


def adam_descent(x):
    opt = Adam(x)
    w = np.ones(3)
    for _ in range(3):
        w = opt.step(w, np.sin(w * x) + w)
    return np.sum(np.tanh(w) * x) + opt.t


class Counter:
    def __init__(self):
        self.calls = 0
        self.total = 0.0

    def add(self, v):
        self.calls += 1
        self.total = self.total + np.sum(v ** 2)

    def mean(self):
        return self.total / self.calls


def counted_mean(x):
    c = Counter()
    c.add(x)
    c.add(np.sin(x))
    if c.calls > 1:
        c.add(x * c.mean())
    return c.mean() * c.calls


class Decay:
    rate = 0.5                            # a class attribute read through self

    def __init__(self, v):
        self.v = v

    def run(self, k):
        while self.v.sum() > 0.1 and k > 0:    # the state read in a while test
            self.v = self.v * self.rate
            k -= 1                             # a parameter bound anew, not written into
        return self.v


def decayed(x):
    d = Decay(x * x + 1.0)
    out = d.run(3)
    d.v = d.v + x                              # written in f
    return np.sum(out * d.v)


X3 = np.array([0.5, -1.0, 2.0])


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [momentum_descent, adam_descent, counted_mean, decayed],
                         ids=lambda f: f.__name__)
def test_object_made_in_f_updating_its_state(f, path):
    check_against_differences(path, f, X3)


@pytest.mark.parametrize("f, state", [(momentum_descent, "opt_m"), (adam_descent, "opt_t"),
                                      (counted_mean, "c_calls")], ids=lambda v: str(v)[:20])
def test_the_state_is_local_values_in_the_normalized_form(f, state):
    text = s2s_ad.normalize(f)
    assert "call_function" not in text and "set_attribute" not in text
    assert state in text


def escaping(x):
    opt = Momentum(0.1)
    w = opt.step(np.zeros(3), x)
    return keep(opt, w)


def keep(o, w):
    return np.sum(w * o.m)


def test_an_object_leaving_f_is_the_located_error():
    with pytest.raises(UnsupportedSyntaxError) as info:
        s2s_ad.grad(escaping)(X3)
    text = str(info.value)
    assert "`opt` is a Momentum made in f whose method `step` updates its attributes" in text
    assert "return keep(opt, w)" in text and "test_local_objects.py" in text


def nesterov_descent(x):
    """the class imported from another module; a method given a lambda of f's"""
    opt = Nesterov(x, mu=0.5)
    w = np.zeros(3)
    for _ in range(2):
        w = opt.step(w, lambda u: np.sin(u) - x)
    return np.sum(w * np.cos(x))


@pytest.mark.parametrize("path", PATHS)
def test_a_class_of_another_module(path):
    check_against_differences(path, nesterov_descent, X3)
    assert "opt_v" in s2s_ad.normalize(nesterov_descent)


# f as a module of its own: the class and the function above, f taking a signature
CLI_MODEL = "import numpy as np\n\n\n" + inspect.getsource(Momentum) + "\n\n" \
    + inspect.getsource(momentum_descent).replace("def momentum_descent(x):",
                                                  'def f(x: "float64[3]"):')


def test_the_cli_writes_it_standalone(tmp_path, monkeypatch):
    """s2s-ad on such an f: the module written holds the state as locals (no s2s_ad import),
    `--check` passes, and its gradient is f's."""
    import subprocess
    import sys
    (tmp_path / "opt_model.py").write_text(CLI_MODEL)
    run = [sys.executable, "-c", "import sys; from s2s_ad.cli import main; sys.exit(main())",
           "grad", "opt_model.py:f", "-o", "grad_opt_model.py"]
    out = subprocess.run(run, cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    checked = subprocess.run(run + ["--check"], cwd=tmp_path, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    text = (tmp_path / "grad_opt_model.py").read_text()
    assert "import s2s_ad" not in text and "from s2s_ad" not in text
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib
    model = importlib.import_module("opt_model")
    written = importlib.import_module("grad_opt_model")
    np.testing.assert_allclose(written.grad_f(X3), numeric_grad(model.f, (X3,), 0),
                               rtol=1e-6, atol=1e-8)
