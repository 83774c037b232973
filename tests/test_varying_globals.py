"""A module-level number rebound between calls (an annealed temperature, a weight set in
a sweep) is read when the code runs once it has been rebound: the derivative is built
again once, not at every call. It used to be a fact for good, so each new value rebuilt
every derivative of f (about 40 ms a call against 4 us for the derivative itself)."""
import inspect

import numpy as np
import pytest

import s2s_ad
from s2s_ad.derivative_registry import dispatcher_of
from derivative_paths import PATHS, grad_on, hvp_on
from gradcheck import numeric_grad

TEMPERATURE = 1.0
STEPS = 3
W = np.array([0.5, -1.0, 2.0])


def softplus_at_temperature(z):
    return np.log1p(np.exp(z / TEMPERATURE)) * TEMPERATURE


def annealed_loss(w):
    total = 0.0
    for k in range(STEPS):
        total = total + np.sum(softplus_at_temperature(w * (k + 1)) ** 2)
    return total


def scaled(w):
    return np.sum(np.tanh(w / TEMPERATURE) * w)


@pytest.fixture(autouse=True)
def _restore_globals():
    yield
    global TEMPERATURE, STEPS
    TEMPERATURE, STEPS = 1.0, 3


def test_a_rebound_number_is_read_at_run_time_after_one_rebuild():
    global TEMPERATURE
    df = s2s_ad.grad(annealed_loss)
    df(W)
    built = []
    for step in range(6):
        TEMPERATURE = 1.0 + 0.1 * step
        np.testing.assert_allclose(df(W), numeric_grad(annealed_loss, (W,), 0), rtol=1e-6)
        built.append(len(dispatcher_of(df).built))
    # built once more at the first new value, never again (it used to be 1 per value)
    assert built[1:] == built[1:2] * 5, built
    assert "type(helpers['TEMPERATURE']) is not float" in inspect.getsource(df)


def test_a_rebound_loop_count_and_temperature_together():
    global TEMPERATURE, STEPS
    df = s2s_ad.grad(annealed_loss)
    for step in range(5):
        TEMPERATURE, STEPS = 0.5 + 0.2 * step, 2 + step
        np.testing.assert_allclose(df(W), numeric_grad(annealed_loss, (W,), 0), rtol=1e-6)


@pytest.mark.parametrize("path", PATHS)
def test_first_and_second_order_follow_each_value(path):
    global TEMPERATURE
    v = np.array([1.0, 0.5, -2.0])
    for value in (1.0, 0.3, 2.5):
        TEMPERATURE = value
        np.testing.assert_allclose(grad_on(path, scaled)(W), numeric_grad(scaled, (W,), 0),
                                   rtol=1e-6)
        hessian = np.array([numeric_grad(lambda y: s2s_ad.grad(scaled)(y)[k], (W,), 0)
                            for k in range(3)])
        np.testing.assert_allclose(hvp_on(path, scaled, (W,), v), hessian @ v, rtol=1e-5)


def test_a_number_rebound_to_an_array_is_built_for_the_array():
    global TEMPERATURE
    df = s2s_ad.grad(scaled)
    df(W)
    TEMPERATURE = 2.0
    df(W)
    TEMPERATURE = np.array([1.0, 2.0, 4.0])       # no longer a float: built again for it
    np.testing.assert_allclose(df(W), numeric_grad(scaled, (W,), 0), rtol=1e-6)
    TEMPERATURE = 3.0
    np.testing.assert_allclose(df(W), numeric_grad(scaled, (W,), 0), rtol=1e-6)
