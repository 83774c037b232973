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
    assert "type(helpers.get('TEMPERATURE')) is not float" in inspect.getsource(df)


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


GAIN = 1.0


def gained(w):
    return np.sum(w ** 2) * GAIN


inner_gradient = s2s_ad.grad(gained)


def squared_gradient(w):
    return np.sum(inner_gradient(w) ** 2)


def test_grad_of_a_grad_whose_number_is_rebound():
    """The outer guard tests the names the inner dispatcher binds; rebuilding the inner
    derivative drops its name of the number, which raised KeyError in the outer guard."""
    global GAIN
    outer = s2s_ad.grad(squared_gradient)
    try:
        for step in range(4):
            GAIN = 0.9 ** (step + 1)
            np.testing.assert_allclose(inner_gradient(W), 2 * GAIN * W, rtol=1e-12)
            np.testing.assert_allclose(outer(W), 8 * GAIN ** 2 * W, rtol=1e-12)
    finally:
        GAIN = 1.0


def _doubled(z):
    return z * 2.0


def through_doubled(w):
    return np.sum(_doubled(w) * w)


def test_a_helper_deleted_since_is_a_located_error_not_a_key_error():
    df = s2s_ad.grad(through_doubled)
    np.testing.assert_allclose(df(W), 4 * W)
    kept = globals().pop("_doubled")         # `del _doubled` in a notebook
    try:
        with pytest.raises(s2s_ad.UnsupportedSyntaxError, match="`_doubled` is not defined"):
            df(W)
    finally:
        globals()["_doubled"] = kept


POWER = 3


def powered(w):
    return np.sum(np.abs(w) ** POWER) + POWER * np.sum(np.sin(w))


@pytest.mark.parametrize("path", PATHS)
def test_a_number_alternating_between_int_and_float_is_built_once_more(path):
    """`POWER = 2` and `POWER = 2.5` in turn: read as a float when the code runs after
    the first change of type (it was a fact of its value at each change of type, so
    every call built every derivative of f again); right for both types, first and
    second order."""
    global POWER
    df = s2s_ad.grad(powered)
    v = np.array([1.0, 0.5, -2.0])
    built = []
    try:
        for step, value in enumerate((3, 2.5, 2, 1.5, 4, 3.5)):
            POWER = value
            np.testing.assert_allclose(grad_on(path, powered)(W),
                                       numeric_grad(powered, (W,), 0), rtol=1e-6)
            np.testing.assert_allclose(df(W), numeric_grad(powered, (W,), 0), rtol=1e-6)
            hessian = np.array([numeric_grad(lambda y: df(y)[k], (W,), 0) for k in range(3)])
            np.testing.assert_allclose(hvp_on(path, powered, (W,), v), hessian @ v,
                                       rtol=1e-5)
            built.append(len(dispatcher_of(df).built))
    finally:
        POWER = 3
    assert built[2:] == built[2:3] * 4, built
    assert "type(helpers.get('POWER')) not in real_numbers" in inspect.getsource(df)
