"""Found by a review as a new user. Functions and callable objects that f calls: the
gradient with respect to one is a located error, never a silent 0.0; a callable that no
derivative can be specialised on (a functools.partial, a callable object) passed to
code that calls it is a clear error, never a RecursionError. Dicts: see the last test."""
import functools

import numpy as np
import pytest

import s2s_ad


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


def test_the_gradient_with_respect_to_a_called_object_is_a_located_error():
    with pytest.raises(s2s_ad.NonDifferentiableError, match="`p` is called here") as info:
        s2s_ad.grad(squared_output)(Scaled(np.array([0.4, -0.6])), X)
    assert info.value.lineno is not None
    with pytest.raises(s2s_ad.NonDifferentiableError, match="`p` is called here"):
        s2s_ad.jvp(squared_output)(Scaled(np.array([0.4, -0.6])), X, 1.0)


@pytest.mark.parametrize("callable_value", [Scaled(np.array([0.4, -0.6])),
                                            functools.partial(leaky, alpha=0.3)])
def test_a_callable_with_no_specialisation_is_a_clear_error(callable_value):
    with pytest.raises(s2s_ad.APIUsageError, match="cannot differentiate a call of"):
        s2s_ad.grad(apply, wrt=1)(callable_value, X)


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
