"""grad() checks f's source at once but builds the general derivative only when something
needs it (dispatch.py): the first call with classifiable arguments builds only the
specialisation for them."""
import numpy as np
import pytest

import s2s_ad
from s2s_ad.derivative_registry import dispatcher_of


def softplus_sum(x, w):
    return np.sum(np.logaddexp(0.0, x * w))


def test_first_call_builds_only_the_specialisation():
    df = s2s_ad.grad(softplus_sum)
    dispatcher = dispatcher_of(df)
    assert dispatcher._general is None
    x, w = np.linspace(-1.0, 1.0, 5), np.full(5, 0.5)
    got = df(x, w)
    assert dispatcher._general is None and len(dispatcher.built) == 1
    np.testing.assert_allclose(got, w / (1.0 + np.exp(-x * w)), rtol=1e-12)
    assert "def grad_softplus_sum_1(" in s2s_ad.derivative_source(df, x, w)
    assert dispatcher._general is None


def test_general_derivative_built_when_asked_for():
    df = s2s_ad.grad(softplus_sum, wrt=1)
    source = s2s_ad.derivative_source(df)
    assert "def grad_softplus_sum(" in source
    general = s2s_ad.api.general_derivative(df)
    x, w = np.linspace(-1.0, 1.0, 5), np.full(5, 0.5)
    np.testing.assert_allclose(general(x, w), df(x, w), rtol=1e-12)


def test_arguments_no_guard_classifies_take_the_general_derivative(monkeypatch):
    monkeypatch.setenv("S2S_AD_GENERAL", "1")
    df = s2s_ad.value_and_grad(softplus_sum)
    x, w = np.linspace(-1.0, 1.0, 4), np.full(4, 2.0)
    value, g = df(x, w)
    assert value == pytest.approx(softplus_sum(x, w))
    np.testing.assert_allclose(g, w / (1.0 + np.exp(-x * w)), rtol=1e-12)
    assert dispatcher_of(df)._general is not None


def test_errors_in_the_source_still_point_at_the_grad_call():
    def returns_nothing(x):
        y = x * 2.0  # noqa: F841

    with pytest.raises(s2s_ad.ADError):
        s2s_ad.grad(returns_nothing)


def test_code_calling_the_gradient_is_differentiated_through_the_general_one():
    df = s2s_ad.grad(softplus_sum)

    def uses_gradient(x, w):
        return np.sum(df(x, w) * x)

    x, w = np.linspace(-1.0, 1.0, 5), np.full(5, 0.5)
    got = s2s_ad.grad(uses_gradient)(x, w)
    eps = 1e-6
    want = [(uses_gradient(x + eps * e, w) - uses_gradient(x - eps * e, w)) / (2 * eps)
            for e in np.eye(5)]
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)
