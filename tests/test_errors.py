"""Every rejection is a located s2s_ad error: file, line, caret, what to write instead."""
import inspect

import numpy as np
import pytest

import s2s_ad
from programs import rejected


def _line_of(marker):
    lines = inspect.getsource(rejected).splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.rstrip().endswith(f"# LINE {marker}"))


@pytest.mark.parametrize("func, marker, error, words", [
    (rejected.uses_try, "try", s2s_ad.UnsupportedSyntaxError, "try"),
    (rejected.uses_with, "with", s2s_ad.UnsupportedSyntaxError, "with"),
    (rejected.suppresses_errors, "suppress", s2s_ad.UnsupportedSyntaxError,
     "contextlib.suppress"),
    (rejected.falls_back_in_finally, "finally", s2s_ad.UnsupportedSyntaxError,
     "`return` in a `finally` block discards the exception"),
    (rejected.rebinds_after_reading, "walrus", s2s_ad.UnsupportedSyntaxError,
     "`n` is read before the `:=`"),
    (rejected.reduces_from_initial, "initial", s2s_ad.UnsupportedSyntaxError,
     "np.multiply.reduce(..., initial=...)"),
    (rejected.spreads_unknown_keys, "spread", s2s_ad.UnsupportedSyntaxError,
     "spreads a dict whose keys"),
    (rejected.uses_global, "global", s2s_ad.UnsupportedSyntaxError, "global"),
    (rejected.uses_nonlocal, "nonlocal", s2s_ad.UnsupportedSyntaxError, "nonlocal"),
    (rejected.defines_class, "class", s2s_ad.UnsupportedSyntaxError, "class"),
    (rejected.uses_yield, "yield", s2s_ad.UnsupportedSyntaxError, "yield"),
    (rejected.attribute_write, "attribute", s2s_ad.UnsupportedSyntaxError, "attribute"),
    (rejected.undefined_helper, "undefined", s2s_ad.UnsupportedSyntaxError,
     "not_defined_anywhere"),
    (rejected.bad_keyword, "keyword", s2s_ad.MissingDerivativeError, "out="),
    (rejected.counts_positives, "nondiff", s2s_ad.NonDifferentiableError, "no derivative"),
    # writing into an array through a call would be a silent zero
    (rejected.copies_into, "copyto", s2s_ad.UnsupportedSyntaxError, "result is not used"),
    (rejected.multiplies_at, "multiply_at", s2s_ad.UnsupportedSyntaxError, "result is not used"),
    (rejected.writes_out, "out", s2s_ad.UnsupportedSyntaxError, "`out=`"),
    # the output depends on x only through control flow: a silent zero (or a crash) before
    (rejected.counts_halvings, "while_test", s2s_ad.NonDifferentiableError, "no derivative"),
    (rejected.picks_by_sign, "if_test", s2s_ad.NonDifferentiableError, "no derivative"),
    # a write through a second name for one array (numpy shares it; values would not)
    (rejected.writes_through_alias, "alias_write", s2s_ad.UnsupportedSyntaxError,
     "same numpy array as `x`"),
    (rejected.scales_through_alias, "alias_in_place", s2s_ad.UnsupportedSyntaxError,
     "`b` holds the same numpy array as `a`"),
    (rejected.updates_argument_read_through_alias, "argument_in_place",
     s2s_ad.UnsupportedSyntaxError, "`x` holds the same numpy array as `y`"),
    (rejected.writes_into_appended_row, "appended_write", s2s_ad.UnsupportedSyntaxError,
     "`row` holds the same numpy array as `rows`"),
    (rejected.writes_into_item_of_list_literal, "list_item_write",
     s2s_ad.UnsupportedSyntaxError, "`r` holds the same numpy array as `z`"),
    (rejected.writes_through_row_view, "view_write", s2s_ad.UnsupportedSyntaxError,
     "same numpy array as `X`"),
    (rejected.writes_source_of_reshaped, "reshape_write", s2s_ad.UnsupportedSyntaxError,
     "same numpy array as `m`"),
    (rejected.sorts_in_place, "sort", s2s_ad.UnsupportedSyntaxError, "`.sort()`"),
    (rejected.complex_loss, "complex", s2s_ad.UnsupportedSyntaxError, "complex numbers"),
    # (the derivative built for the call knows force is np.sin: it names the keyword)
    (rejected.steps_with_given_force, "function_argument", s2s_ad.MissingDerivativeError,
     "the keyword argument `out=` is not supported"),
])
def test_rejections_are_located(func, marker, error, words):
    with pytest.raises(error) as info:
        s2s_ad.grad(func)(np.ones(3))
    exc = info.value
    assert isinstance(exc, s2s_ad.ADError)
    assert exc.filename == rejected.__file__
    assert exc.lineno == _line_of(marker)
    text = str(exc)
    assert words in text
    assert "^" in text and f'line {exc.lineno}' in text
    assert "Write instead:" in text


def test_callee_without_template_or_source_names_it():
    # grad() checks f's source; a derivative missing for a call is found when the
    # derivative is built, at the first call (as JAX does), located all the same
    df = s2s_ad.grad(rejected.unknown_callee)
    with pytest.raises(s2s_ad.MissingDerivativeError) as info:
        df(np.ones(3))
    assert "np.nextafter" in str(info.value)
    assert info.value.lineno == _line_of("callee")


def test_async_function_is_rejected():
    with pytest.raises(s2s_ad.UnsupportedSyntaxError, match="coroutine") as info:
        s2s_ad.grad(rejected.is_async)
    assert info.value.lineno == _line_of("async")
    assert "Write instead:" in str(info.value)


def test_non_scalar_output_points_to_vjp():
    df = s2s_ad.grad(lambda x: x * 2.0)
    with pytest.raises(s2s_ad.NonScalarOutputError, match="vjp"):
        df(np.ones(3))


@pytest.mark.parametrize("wrt", [2, -3, "z", (0, 0), ()])
def test_bad_wrt_is_a_clear_error(wrt):
    def f(x, y):
        return x * y

    with pytest.raises(s2s_ad.APIUsageError):
        s2s_ad.grad(f, wrt=wrt)


def test_builtin_function_is_rejected_clearly():
    """(numpy's and scipy's functions are differentiated through their templates:
    test_library_functions.py)"""
    with pytest.raises(s2s_ad.APIUsageError, match="def"):
        s2s_ad.grad(abs)


def _def_line(func):
    return inspect.getsourcelines(func)[1]


def test_api_errors_name_the_function_file_and_line():
    with pytest.raises(s2s_ad.APIUsageError) as info:
        s2s_ad.grad(rejected.uses_try, wrt=3)
    assert info.value.filename == rejected.__file__
    assert info.value.lineno == _def_line(rejected.uses_try)
    assert "def uses_try" in str(info.value)


def test_non_scalar_output_names_the_function_file_and_line():
    df = s2s_ad.grad(rejected.doubles)
    with pytest.raises(s2s_ad.NonScalarOutputError) as info:
        df(np.ones(3))
    assert f"doubles (rejected.py:{_def_line(rejected.doubles)})" in str(info.value)


def test_an_output_the_signature_proves_an_array_is_refused_at_its_return():
    # the commonest slip (grad of an elementwise function): a caret under the return
    # statement when the derivative is built, not only the def's line when it runs
    with pytest.raises(s2s_ad.NonScalarOutputError) as info:
        s2s_ad.grad(rejected.doubles)(np.ones((2, 3)))
    assert info.value.lineno == _line_of("doubles-return")
    assert "return x * 2.0" in str(info.value) and "^^^" in str(info.value)
    assert "array of 2 dimensions" in str(info.value) and "vjp" in str(info.value)
    # a float argument gives a float output: no error, the derivative is 2
    assert s2s_ad.grad(rejected.doubles)(1.5) == 2.0


@pytest.mark.parametrize("func, words", [
    (rejected.loss_and_aux, "returns a tuple; return the scalar alone"),
])
def test_outputs_that_are_not_real_scalars_are_named(func, words):
    # (loss, aux) crashed inside numpy
    with pytest.raises(s2s_ad.NonScalarOutputError) as info:
        s2s_ad.grad(func)(np.ones(3))
    assert words in str(info.value)
    assert f"{func.__name__} (rejected.py:{_def_line(func)})" in str(info.value)


def test_complex_arguments_are_named_at_the_call():
    with pytest.raises(s2s_ad.APIUsageError, match="argument `x` of doubles holds complex"):
        s2s_ad.grad(rejected.doubles)(1.0 + 2.0j)


def test_a_string_output_is_an_error_not_a_zero_gradient():
    with pytest.raises(s2s_ad.APIUsageError, match="returns the constant 'loss', not a number"):
        s2s_ad.grad(rejected.names_its_result)


def test_gradient_check_error_names_the_function():
    from programs.user_template import uses_softplus
    with pytest.raises(s2s_ad.GradientCheckError) as info:
        s2s_ad.check_grads(rejected.wrongly_registered, np.array([0.5, -1.0]))
    assert info.value.filename == rejected.__file__
    assert info.value.lineno == _def_line(rejected.wrongly_registered)
    assert uses_softplus is not None


def returns_nothing(x):
    y = x * 2.0  # noqa: F841


def star_args(*xs):
    return sum(xs)


def pair_out(x):
    return x * 2.0, x * 3.0


def test_functions_without_a_scalar_output_or_with_star_args_are_clear_errors():
    with pytest.raises(s2s_ad.APIUsageError, match="returns None") as info:
        s2s_ad.grad(returns_nothing)
    assert info.value.lineno == _def_line(returns_nothing)
    assert s2s_ad.grad(star_args)(1.0, 2.0) == 1.0     # one derivative per item count
    with pytest.raises(s2s_ad.NonScalarOutputError, match="returns a tuple"):
        s2s_ad.grad(pair_out)(1.0)


def test_jvp_with_a_wrongly_shaped_tangent_is_a_clear_error():
    def f(x, w):
        return np.sum(x * w)

    with pytest.raises(s2s_ad.APIUsageError, match="shape"):
        s2s_ad.jvp(f)(np.ones(3), np.ones(3), np.ones(4))
    with pytest.raises(s2s_ad.APIUsageError, match="tuple of 2"):
        s2s_ad.jvp(f, wrt=(0, 1))(np.ones(3), np.ones(3), np.ones(3))


def starred_loop_target(x):
    s = 0.0
    for a, *rest in [(x[0], x[1], x[2]), (x[2], x[0], x[1])]:
        s = s + a * rest[0] * rest[1]
    return s


def starred_in_the_body(x):
    s = 0.0
    for record in [(x[0], x[1], x[2]), (x[2], x[0], x[1])]:
        a, *rest = record
        s = s + a * rest[0] * rest[1]
    return s


def test_a_starred_loop_target_is_named_with_the_rewrite_that_works():
    """Its hint was a display's (`concatenate instead: list(a) + [x]`)."""
    with pytest.raises(s2s_ad.UnsupportedSyntaxError) as info:
        s2s_ad.grad(starred_loop_target)(np.ones(3))
    message = str(info.value)
    assert "a starred name in a loop's target" in message and "*rest" in message
    assert info.value.lineno == starred_loop_target.__code__.co_firstlineno + 2
    assert "`a, *rest = record`" in message and "list(a) + [x]" not in message
    x = np.array([0.5, -1.5, 2.0])            # the rewrite the hint gives is differentiated
    np.testing.assert_allclose(s2s_ad.grad(starred_in_the_body)(x),
                               2 * np.array([x[1] * x[2], x[0] * x[2], x[0] * x[1]]))
