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


@pytest.mark.parametrize("mode", ["grad", "jvp"])
def test_errors_in_the_source_still_point_at_the_grad_call(mode):
    def returns_nothing(x):
        y = x * 2.0  # noqa: F841

    def writes_a_global(x):
        global LAST
        LAST = x
        return x * 2.0

    for f in (returns_nothing, writes_a_global):
        with pytest.raises(s2s_ad.ADError):
            getattr(s2s_ad, mode)(f)


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


def _keyword_scaled(x, w, *, scale=2.0):
    return scale * np.sum(np.logaddexp(0.0, x * w) ** 2)


@pytest.mark.parametrize("mode", ["vjp", "hvp", "jvp"])
def test_vjp_and_hvp_build_the_general_derivative_only_when_needed(mode):
    # (session 16: vjp(f) built the general vjp at once, hvp(f) the general jvp of the
    # general gradient, 0.35 s for a small MLP, though calls use the specialisations;
    # session 18: jvp(f) the general jvp)
    derivative = getattr(s2s_ad, mode)(_keyword_scaled)
    dispatcher = dispatcher_of(derivative)
    assert dispatcher is not None and dispatcher._general is None
    x, w = np.linspace(-1.0, 1.0, 5), np.full(5, 0.5)
    last = 1.0 if mode == "vjp" else np.ones(5)
    got = derivative(x, w, last, scale=3.0)
    assert dispatcher._general is None and len(dispatcher.built) == 1
    g = s2s_ad.grad(_keyword_scaled)
    if mode == "jvp":
        assert got[0] == pytest.approx(_keyword_scaled(x, w, scale=3.0))
        assert got[1] == pytest.approx(np.sum(g(x, w, scale=3.0) * last), rel=1e-12)
        general = s2s_ad.api.general_derivative(derivative)
        np.testing.assert_allclose(general(x, w, last, scale=3.0), got, rtol=1e-12)
        assert dispatcher._general is not None
        return
    if mode == "vjp":
        np.testing.assert_allclose(got, g(x, w, scale=3.0), rtol=1e-12)
    else:
        expected = (g(x + 1e-6, w, scale=3.0) - g(x - 1e-6, w, scale=3.0)) / 2e-6
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-7)
    # the general one, asked for (code differentiating a call of it), agrees
    general = s2s_ad.api.general_derivative(derivative)
    np.testing.assert_allclose(general(x, w, last, scale=3.0), got, rtol=1e-12)
    assert dispatcher._general is not None


def uses_the_vjp(x, w):
    return np.sum(VJP(x, w, 1.0, scale=2.0) * x)


VJP = s2s_ad.vjp(_keyword_scaled)


def test_code_calling_a_vjp_is_differentiated_through_the_general_one_built_then():
    from gradcheck import assert_grad_matches
    assert_grad_matches(uses_the_vjp, (np.linspace(-1.0, 1.0, 4), np.full(4, 0.7)))


def _relu_layer(w, x):
    return np.sum(np.maximum(0.0, x @ w - 0.1) ** 2)


def test_runtime_helpers_are_analysed_once_per_process(monkeypatch):
    """An hvp differentiates a gradient, which calls s2s_ad's runtime helpers: what they
    return is worked out from their source once, not again for every later derivative
    (it was two thirds of a second hvp's build)."""
    from paths import fresh
    from s2s_ad import pipeline
    w, x = np.full((3, 2), 0.3), np.linspace(-1.0, 1.0, 12).reshape(4, 3)
    first = s2s_ad.hvp(fresh(_relu_layer))(w, x, np.ones((3, 2)))
    fronts = []
    original = pipeline.front

    def counted(func, functions=None):
        fronts.append(func)
        return original(func, functions)
    monkeypatch.setattr(pipeline, "front", counted)
    again = s2s_ad.hvp(fresh(_relu_layer))(w, x, np.ones((3, 2)))
    np.testing.assert_allclose(again, first, rtol=1e-12)
    assert fronts and not [f for f in fronts
                           if (f.__module__ or "").startswith("s2s_ad.runtime")]
