"""Decorated functions are differentiated as they run; casts to integers carry no
derivative. (Both were silent wrong gradients before.)"""
import numpy as np
import pytest

import s2s_ad
from gradcheck import numeric_grad
from paths import fresh
from programs import wrapped


def test_python_wrapper_is_differentiated_not_skipped():
    assert s2s_ad.grad(wrapped.square_doubled)(3.0) == pytest.approx(12.0)
    want = 4.0 * 0.7 + np.cos(0.7)
    assert s2s_ad.grad(wrapped.calls_square_doubled)(0.7) == pytest.approx(want)


def test_a_wrapper_passing_star_args_through_differentiates_the_wrapped_function():
    # the usual functools.wraps decorator: its value is the wrapped function's
    assert s2s_ad.grad(wrapped.behind_star_args)(3.0) == pytest.approx(6.0)
    x = np.array([0.3, -1.2])
    np.testing.assert_allclose(s2s_ad.grad(wrapped.behind_timer)(x), 2.0 * np.cos(x))
    np.testing.assert_allclose(s2s_ad.grad(wrapped.calls_timed_helper)(x),
                               0.5 * np.cos(x) + 2.0 * x)


def test_a_star_args_wrapper_changing_the_value_is_located_in_the_decorator():
    with pytest.raises(s2s_ad.UnsupportedSyntaxError) as info:
        s2s_ad.grad(wrapped.scaled_behind_star_args)
    text = str(info.value)
    assert "def wrapper(*args, **kwargs)" in text and "decorator" in text
    assert info.value.filename == wrapped.__file__


def test_lru_cache_leads_to_the_cached_function():
    assert s2s_ad.grad(wrapped.cached_cube)(2.0) == pytest.approx(12.0)


@pytest.mark.parametrize("func", [wrapped.casts_to_int, wrapped.casts_with_asarray,
                                  wrapped.casts_to_bool])
def test_integer_casts_carry_no_derivative(func):
    x = np.array([0.5, -1.3, 2.7, 1.6])
    np.testing.assert_allclose(s2s_ad.grad(func)(x), numeric_grad(func, [x], 0), atol=1e-6)
    _, tangent = s2s_ad.jvp(func)(x, np.ones(4))
    assert tangent == pytest.approx(np.sum(numeric_grad(func, [x], 0)))


def test_output_only_through_an_integer_cast_is_an_error():
    with pytest.raises(s2s_ad.NonDifferentiableError):
        s2s_ad.grad(wrapped.only_through_int_cast)


@pytest.mark.parametrize("func,dtype", [
    (wrapped.casts_to_a_dtype_argument, int), (wrapped.casts_to_a_dtype_argument, float),
    (wrapped.fills_with_a_dtype_argument, int), (wrapped.fills_with_a_dtype_argument, float),
    (wrapped.casts_to_a_global_dtype, None), (wrapped.spaces_with_a_global_dtype, None)])
def test_a_dtype_held_in_a_variable_is_decided_when_the_derivative_runs(both_paths, func,
                                                                        dtype):
    # a dtype not written in the source (a parameter, a module constant): numpy rounds to
    # integers, so that path carries no derivative, and a float dtype keeps it
    x = np.array([2.5, 1.5, -0.7])
    args = (x,) if dtype is None else (x, dtype)
    want = numeric_grad(func, list(args), 0)
    np.testing.assert_allclose(s2s_ad.grad(fresh(func))(*args), want, atol=1e-5)
    _, tangent = s2s_ad.jvp(fresh(func))(*args, np.ones(3))
    assert tangent == pytest.approx(np.sum(want), abs=1e-5)
