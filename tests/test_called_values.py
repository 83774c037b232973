"""Found by a review as a new user. Functions and callable objects that f calls: the
gradient with respect to a function is a located error, never a silent 0.0; a callable
object's is an object of its class where the derivative knows the class (specialised),
else a located error; a callable that no derivative can be specialised on (a
functools.partial) passed to code that calls it is a clear error, never a
RecursionError. Dicts: see the last test."""
import functools

import numpy as np
import pytest

import s2s_ad
from paths import fresh


class Scaled:
    def __init__(self, w):
        self.w = w

    def __call__(self, x):
        return x * self.w


def squared_output(p, x):
    return np.sum(p(x) ** 2)


def leaky(z, alpha=0.1):
    return np.where(z > 0, z, alpha * z)


def apply(act, x):
    return np.sum(act(x) ** 2)


X = np.array([1.0, -2.0])


def test_the_gradient_with_respect_to_a_called_object_follows_its_call(both_paths):
    """Specialised: p(x) is Scaled.__call__(p, x), so p's gradient is an object of its
    class; the general derivative does not know p's class: a located error."""
    p = Scaled(np.array([0.4, -0.6]))
    squared = fresh(squared_output)
    if both_paths == "specialised":
        g = s2s_ad.grad(squared)(p, X)
        assert type(g) is Scaled
        np.testing.assert_allclose(g.w, 2.0 * X * X * p.w)
        value, tangent = s2s_ad.jvp(squared)(p, X, Scaled(np.array([1.0, 0.0])))
        np.testing.assert_allclose(tangent, 2.0 * X[0] ** 2 * p.w[0])
        return
    with pytest.raises(s2s_ad.NonDifferentiableError, match="`p` is called here") as info:
        s2s_ad.grad(squared)(p, X)
    assert "return np.sum(p(x) ** 2)" in str(info.value)
    with pytest.raises(s2s_ad.NonDifferentiableError, match="`p` is called here"):
        s2s_ad.jvp(squared)(p, X, Scaled(np.array([1.0, 0.0])))


def test_a_function_argument_called_in_f_is_still_a_located_error():
    with pytest.raises(s2s_ad.NonDifferentiableError, match="`act` is called here"):
        s2s_ad.grad(apply)(np.tanh, X)


def test_a_callable_object_passed_in_is_called_through_its_class(both_paths):
    got = s2s_ad.grad(fresh(apply), wrt=1)(Scaled(np.array([0.4, -0.6])), X)
    np.testing.assert_allclose(got, 2.0 * X * np.array([0.4, -0.6]) ** 2)


def test_a_partial_passed_in_is_a_clear_error():
    with pytest.raises(s2s_ad.APIUsageError, match="cannot differentiate a call of"):
        s2s_ad.grad(apply, wrt=1)(functools.partial(leaky, alpha=0.3), X)


def test_a_plain_function_passed_in_still_differentiates():
    got = s2s_ad.grad(apply, wrt=1)(leaky, X)
    assert np.allclose(got, [2.0, 2 * 0.01 * -2.0])


def keys_written_in_a_loop(x):
    d = {}
    for k in ["a", "b"]:
        d[k] = x[0] * 2.0
    return d["a"] * d["b"]


def dict_read_for_nothing(x):
    d = {"a": 1.0}
    d.get("a", 0.0)
    return x[0] * d["a"]


@pytest.mark.parametrize("f, want", [(keys_written_in_a_loop, [4.0, 0.0]),
                                     (dict_read_for_nothing, [1.0, 0.0])])
def test_dict_entries_created_in_a_loop_and_reads_with_no_effect(f, want):
    """A write creating a dict key under a variable key is saved and undone as absent
    (KeyError in generated code); a lone `d.get(...)` is a read with no effect (an
    AssertionError in the grammar check)."""
    x = np.array([0.5, 1.0])
    assert np.allclose(s2s_ad.grad(f)(x), want)
    assert np.allclose(s2s_ad.api.general_derivative(s2s_ad.grad(f))(x), want)


def test_many_functions_through_the_run_time_fallback():
    """Each function chosen at run time gets a derivative dispatcher of its own: one shared
    by all of them fell back to the general derivative after eight, which came back to
    the fallback (a RecursionError, then a false 'cannot differentiate')."""
    general = s2s_ad.api.general_derivative(s2s_ad.grad(apply, wrt=1))
    for k in range(12):
        scale = 1.0 + k

        def act(z, scale=scale):
            return scale * z * z
        got = general(act, X)
        assert np.allclose(got, 2 * (scale * X * X) * 2 * scale * X)
