"""Mistakes met through a second derivative (hvp, grad of grad) are reported as in a first
derivative: naming the user's function and line, never a generated gradient's name or
file."""
import inspect

import numpy as np
import pytest

import s2s_ad
from programs import rejected


def _line_of(marker):
    lines = inspect.getsource(rejected).splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.rstrip().endswith(f"# LINE {marker}"))


def elementwise_sine(x):
    y = np.sin(x)
    return y  # LINE sine-return


def test_hvp_of_an_array_output_is_located_at_the_return(monkeypatch):
    """It named the internal `grad_elementwise_sine (grad_elementwise_sine_<hash>.py:2)`:
    the failure of the gradient specialised on the arguments was dropped and the general
    one's check raised when the code ran (as users run it: without the tests' strict
    passes, which raise the failure at once)."""
    monkeypatch.delenv("S2S_AD_STRICT_PASSES", raising=False)
    with pytest.raises(s2s_ad.NonScalarOutputError) as info:
        s2s_ad.hvp(elementwise_sine)(np.ones(3), np.ones(3))
    message = str(info.value)
    assert "but elementwise_sine (test_second_order_errors.py:" in message
    assert "grad_elementwise_sine" not in message
    assert info.value.lineno == elementwise_sine.__code__.co_firstlineno + 2
    assert "return y" in message and "^^^" in message
    with pytest.raises(s2s_ad.NonScalarOutputError) as info:    # as was already right
        s2s_ad.hvp(rejected.doubles)(np.ones(3), np.ones(3))
    assert info.value.lineno == _line_of("doubles-return")


def summed_squared(x):
    return np.sum(x) ** 2


def test_grad_of_a_gradient_of_an_array_names_the_users_function():
    with pytest.raises(s2s_ad.NonScalarOutputError) as info:
        s2s_ad.grad(s2s_ad.grad(summed_squared))(np.ones(3))
    message = str(info.value)
    assert "but the gradient of summed_squared (test_second_order_errors.py:" in message
    assert "grad_summed_squared" not in message and "s2s_ad.hvp(f)" in message
    # a float argument: the gradient is a float, its gradient the second derivative
    assert s2s_ad.grad(s2s_ad.grad(summed_squared))(1.5) == 2.0
