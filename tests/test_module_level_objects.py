"""A model held at module level (`model = Sequential(...)`; `def loss(x): ... model(x)`)
whose layers write in place: what it holds (its layers' classes) is a fact of the
derivative, as for the same model passed as an argument (analyses/stand_ins.
global_value), and the dispatcher tests it at each call (freshness.object_bindings): a
layer rebound between calls gets a derivative built for it, never a stale one. Checked
against central differences (the general derivative keeps the located error)."""
import numpy as np
import pytest

import s2s_ad
from s2s_ad.errors import SharedMemoryWriteError
from derivative_paths import check_against_differences, grad_on
from gradcheck import numeric_grad
from paths import fresh
from test_module_classes import Linear, Module, Sequential


class SoftPlus_(Module):
    def forward(self, x):
        np.logaddexp(x, 0.0, out=x)           # in place
        return x


class Tanh_(Module):
    def forward(self, x):
        np.tanh(x, out=x)
        return x


model = Sequential(Linear(4, 4), SoftPlus_(), Linear(4, 4))


def loss(x):
    return np.sum(model(x) ** 2)


X = np.random.RandomState(1).randn(3, 4)


def test_a_module_level_model_writing_in_place():
    """(First order: its hvp differentiates the layers' generated vjp again, which does
    not know the model's kind: left, see the README's limitations.)"""
    check_against_differences("specialised", loss, X, second_order=False)


def test_the_general_derivative_still_refuses_it_located():
    """The general derivative differentiates Sequential.forward with no facts of its
    arguments (S2S_AD_GENERAL's meaning), so the layers are called through a variable
    there: the in-place layer is the located error, as before."""
    with pytest.raises(SharedMemoryWriteError) as info:
        grad_on("general", loss)(X.copy())
    assert "np.logaddexp(x, 0.0, out=x)" in str(info.value)
    assert "test_module_level_objects.py" in str(info.value)


def test_a_layer_rebound_between_calls_gets_its_own_derivative():
    df = s2s_ad.grad(loss)
    first = df(X.copy())
    np.testing.assert_allclose(first, numeric_grad(loss, (X.copy(),), 0), rtol=1e-6, atol=1e-8)
    kept = model.layers[1]
    try:
        model.layers[1] = Tanh_()
        second = df(X.copy())
        np.testing.assert_allclose(second, numeric_grad(loss, (X.copy(),), 0),
                                   rtol=1e-6, atol=1e-8)
        model.layers.append(Tanh_())                 # one layer more
        third = df(X.copy())
        np.testing.assert_allclose(third, numeric_grad(loss, (X.copy(),), 0),
                                   rtol=1e-6, atol=1e-8)
    finally:
        model.layers[1:] = [kept, model.layers[2]]
    np.testing.assert_allclose(df(X.copy()), first, rtol=1e-12)


class _LoggingModel:
    """A model of yours holding a logger (whose manager reaches every logger)."""

    def __init__(self):
        import logging
        self.W = np.linspace(-1.0, 1.0, 6).reshape(3, 2)
        self.log = logging.getLogger("s2s_ad.tests.logging_model")

    def __call__(self, x):
        return x @ self.W


LOGGING_MODEL = _LoggingModel()


def _logging_model_loss(x):
    return np.sum(LOGGING_MODEL(x) ** 2)


def test_a_module_level_model_holding_a_logger():
    # the logger's kind is its type only: reading what it holds recursed without end
    x = np.linspace(0.5, 2.0, 12).reshape(4, 3)
    want = 2 * (x @ LOGGING_MODEL.W) @ LOGGING_MODEL.W.T
    np.testing.assert_allclose(s2s_ad.grad(_logging_model_loss)(x), want, rtol=1e-12)


def _loss_of_a_model_argument(x, model):
    return np.sum(model(x) ** 2)


def test_a_model_argument_holding_a_logger(both_paths):
    # the argument check (complex numbers, masked arrays) looked into the logger and from
    # there into every logger's dict without end: a library's object is not looked into
    x = np.linspace(0.5, 2.0, 12).reshape(4, 3)
    model = _LoggingModel()
    want = 2 * (x @ model.W) @ model.W.T
    df = s2s_ad.grad(fresh(_loss_of_a_model_argument))
    np.testing.assert_allclose(df(x, model), want, rtol=1e-12)


class _Cyclic:
    """An object of yours that reaches itself through a dict it holds."""

    def __init__(self):
        self.scale = 3.0
        self.registry = {"me": self}


def _scaled_sine(x, o):
    return np.sum(np.sin(x) * o.scale)


def test_an_argument_reaching_itself_through_a_dict(both_paths):
    x = np.linspace(0.5, 2.0, 5)
    df = s2s_ad.grad(fresh(_scaled_sine))
    np.testing.assert_allclose(df(x, _Cyclic()), 3.0 * np.cos(x), rtol=1e-12)


def _copies_returned(a, x0, x1):
    w1 = x0.copy()
    t3 = 0.0
    w5 = w1.copy()
    t3 *= np.float32(0.5)
    return w5


def test_hvp_of_an_array_output_is_the_located_error_not_a_crash(both_paths, monkeypatch):
    # the gradient differentiated again calls np.float32(...): a library's class, no
    # object of the user's whose state could be made locals (it raised Unplanned on the
    # general path, which a user reaches when the specialisation falls back)
    monkeypatch.delenv("S2S_AD_STRICT_PASSES", raising=False)
    from s2s_ad.errors import NonScalarOutputError
    x0 = np.linspace(-1.0, 1.0, 24, dtype=np.float32).reshape(2, 3, 4)
    x1 = np.linspace(-0.5, 0.5, 4, dtype=np.float32)
    for a in (np.float32(-0.5), np.float32(0.5)):
        with pytest.raises(NonScalarOutputError):
            s2s_ad.hvp(fresh(_copies_returned), wrt=2)(a, x0, x1, np.linspace(1.0, 2.0, 4))
