"""The public API as a user calls it: grad, value_and_grad, vjp, wrt, caching, decorators."""
import inspect
import traceback

import numpy as np
import pytest

import s2s_ad
from gradcheck import assert_grad_matches, inner_product_check
from paths import fresh
from programs.other_module import affine, softplus


def seed_example(x1, x2):
    y = np.exp(2 * x1) + x1 * x2 ** 2 + np.cos(x2)
    return y


def quadratic(a, b, c, x):
    y = a * x ** 2 + b * x + c
    return y


def scaled_sum(x, scale=2.0, *, shift=0.0):
    return np.sum(np.tanh(x) * scale) + shift


def test_seed_example_partials():
    dx1, dx2 = s2s_ad.grad(seed_example, wrt=(0, 1))(1.0, 2.0)
    assert dx1 == pytest.approx(2 * np.e ** 2 + 4)
    assert dx2 == pytest.approx(4 - np.sin(2))


def test_gradient_of_a_float_is_a_float():
    g = s2s_ad.grad(seed_example)(1.0, 2.0)
    assert isinstance(g, float)


def test_wrt_by_name_and_position_agree():
    by_pos = s2s_ad.grad(quadratic, wrt=(0, 1, 2, 3))(1.0, 2.0, 3.0, 4.0)
    by_name = s2s_ad.grad(quadratic, wrt=("a", "b", "c", "x"))(1.0, 2.0, 3.0, 4.0)
    assert by_pos == pytest.approx((16.0, 4.0, 1.0, 10.0))
    assert by_name == pytest.approx(by_pos)


def test_array_gradient_has_argument_shape_and_uses_defaults_and_keywords():
    x = np.linspace(-1, 1, 6).reshape(2, 3)
    g = s2s_ad.grad(scaled_sum)(x)
    assert g.shape == x.shape
    np.testing.assert_allclose(g, 2.0 * (1 - np.tanh(x) ** 2))
    g3 = s2s_ad.grad(scaled_sum)(x, scale=3.0, shift=1.0)
    np.testing.assert_allclose(g3, 3.0 * (1 - np.tanh(x) ** 2))


def test_preserve_result_and_value_and_grad():
    value, g = s2s_ad.grad(seed_example, preserve_result=True)(1.0, 2.0)
    assert value == pytest.approx(seed_example(1.0, 2.0))
    value2, g2 = s2s_ad.value_and_grad(seed_example, wrt=(0, 1))(1.0, 2.0)
    assert value2 == pytest.approx(value)
    assert g2[0] == pytest.approx(g)


def test_decorator_forms():
    @s2s_ad.grad
    def d_cube(x):
        return x ** 3

    @s2s_ad.grad(wrt=(0, 1))
    def d_product(x, y):
        return x * y

    assert d_cube(2.0) == pytest.approx(12.0)
    assert d_product(2.0, 5.0) == pytest.approx((5.0, 2.0))


def test_cached_function_is_reused():
    assert s2s_ad.grad(seed_example) is s2s_ad.grad(seed_example)
    assert s2s_ad.grad(seed_example, wrt=1) is not s2s_ad.grad(seed_example)


def test_vjp_of_array_valued_function():
    def f(x, w):
        return np.tanh(x * w) + x

    x = np.linspace(-1, 1, 5)
    w = np.linspace(0.5, 1.5, 5)
    inner_product_check(f, [x, w], (0, 1))
    ct = np.ones(5)
    gx = s2s_ad.vjp(f)(x, w, ct)
    np.testing.assert_allclose(gx, w * (1 - np.tanh(x * w) ** 2) + 1)


def doubled(x):
    return x * 2.0


def pair(x):
    return (x * 2.0, np.sin(x))


@pytest.mark.parametrize("func, x, cotangent, words", [
    (doubled, np.ones(2), np.ones(3), "shape (2,); got shape (3,)"),
    (doubled, np.ones(2), np.ones((2, 2)), "got shape (2, 2)"),
    (doubled, np.ones(2), None, "got None"),
    (doubled, 2.0, np.ones(3), "shape (); got shape (3,)"),
    (pair, np.ones(2), (np.ones(2),), "tuple of 2 items"),
    (pair, np.ones(2), (np.ones(2), np.ones(3)), "shape (2,); got shape (3,)"),
])
def test_vjp_checks_the_cotangent_against_the_output(func, x, cotangent, words):
    with pytest.raises(s2s_ad.APIUsageError) as info:
        s2s_ad.vjp(func)(x, cotangent)
    assert words in str(info.value) and func.__name__ in str(info.value)


def test_vjp_takes_a_list_cotangent_and_names_a_missing_one():
    np.testing.assert_allclose(s2s_ad.vjp(doubled)(np.ones(2), [1.0, 3.0]), [2.0, 6.0])
    gx = s2s_ad.vjp(pair)(np.ones(2), (np.ones(2), np.ones(2)))
    np.testing.assert_allclose(gx, 2.0 + np.cos(np.ones(2)))
    with pytest.raises(s2s_ad.APIUsageError, match="cotangent last"):
        s2s_ad.vjp(bilinear_in_two)(np.ones(2), np.ones(2))


def bilinear_in_two(x, y):
    return x * y


def test_derivative_source_matches_inspect_and_names_the_function():
    df = s2s_ad.grad(seed_example)
    text = s2s_ad.derivative_source(s2s_ad.api.general_derivative(df))
    assert inspect.getsource(s2s_ad.api.general_derivative(df)) == text
    assert "def grad_seed_example(x1, x2):" in inspect.getsource(df)   # the dispatcher
    assert "def grad_seed_example(x1, x2):" in text
    assert "# grad of: y = np.exp(2 * x1) + x1 * x2 ** 2 + np.cos(x2)" in text


def test_traceback_shows_generated_lines():
    def f(x):
        return np.sum(x @ x)

    df = s2s_ad.grad(f)
    with pytest.raises(ValueError) as info:
        df(np.ones((2, 3)))
    shown = "".join(traceback.format_exception(info.value))
    # the product's value is not needed (its lengths are x's: analyses/lengths.py), so
    # the generated line that raises is the check standing in for it
    assert "grad_f" in shown and "check_matmul(x, x)" in shown


def test_integer_inputs_are_differentiated_as_floats():
    g = s2s_ad.grad(seed_example, wrt=(0, 1))(1, 2)
    assert g[0] == pytest.approx(2 * np.e ** 2 + 4)
    gi = s2s_ad.grad(scaled_sum)(np.arange(4))
    assert gi.dtype.kind == "f"
    np.testing.assert_allclose(gi, 2.0 * (1 - np.tanh(np.arange(4)) ** 2))


def test_unused_argument_gets_a_true_zero():
    def f(x, y):
        return x * 2.0

    assert s2s_ad.grad(f, wrt=1)(1.0, 3.0) == 0.0
    z = s2s_ad.grad(f, wrt=1)(1.0, np.ones(3))
    assert z.shape == (3,) and not z.any()


def uses_other_module(x, w):
    return np.sum(softplus(affine(x, w)) * 2.0)


def test_helpers_from_another_module_are_differentiated():
    rng = np.random.default_rng(0)
    assert_grad_matches(uses_other_module, [rng.standard_normal(4), rng.standard_normal(4)],
                        wrt=(0, 1))


DATA = np.array([1.0, 2.0, 3.0])


def uses_global(w):
    return np.sum((DATA * w - 1.0) ** 2)


def test_globals_are_read_live():
    global DATA
    df = s2s_ad.grad(uses_global)
    first = df(0.5)
    old = DATA
    try:
        DATA = np.array([2.0, 2.0, 2.0])
        assert df(0.5) == pytest.approx(np.sum(2 * (DATA * 0.5 - 1.0) * DATA))
        assert df(0.5) != pytest.approx(first)
    finally:
        DATA = old


def scale(x):
    return 2.0 * x


def uses_a_global_function(x):
    return np.sum(scale(x) ** 2)


def test_the_first_call_reuses_the_checks_parse_unless_a_name_was_rebound(monkeypatch):
    """grad() parses and normalizes f for its checks; the first call builds the derivative
    from that levels form, not a second parse, unless a name f reads was rebound between
    them (then f is read again: the helper called is the new one)."""
    import s2s_ad.pipeline as pipeline
    global scale
    made = []
    original = pipeline.front

    def counted(func, functions=None):
        made.append(func.__name__)
        return original(func, functions)
    monkeypatch.setattr(pipeline, "front", counted)
    x = np.array([1.0, -2.0, 0.5])
    df = s2s_ad.grad(uses_a_global_function)
    np.testing.assert_allclose(df(x), 8.0 * x)
    assert made.count("uses_a_global_function") == 1
    old = scale
    try:
        df = s2s_ad.grad(fresh(uses_a_global_function))
        scale = lambda x: 3.0 * x      # noqa: E731
        np.testing.assert_allclose(df(x), 18.0 * x)
        assert made.count("uses_a_global_function") == 3
    finally:
        scale = old


def test_closure_values_are_read():
    factor = 3.0

    def f(x):
        return np.sin(x) * factor

    assert s2s_ad.grad(f)(0.0) == pytest.approx(3.0)


def test_lambda():
    assert s2s_ad.grad(lambda x: x * x * 3.0)(2.0) == pytest.approx(12.0)


def test_math_module_and_numpy_constants():
    import math

    def f(x):
        return math.sin(x) * np.pi + np.e * x

    assert s2s_ad.grad(f)(0.3) == pytest.approx(math.cos(0.3) * math.pi + math.e)


def test_the_gradient_is_the_generated_function_itself():
    # no wrapper between the user and the generated code: a call costs nothing extra
    df = s2s_ad.grad(seed_example)
    assert inspect.isfunction(df) and inspect.unwrap(df) is df
    df(1.0, 2.0)
    # what it runs: the guards of the dispatcher, then the derivative built for floats
    assert s2s_ad.derivative_source(df).startswith(inspect.getsource(df))
    assert "type(x1) is float and type(x2) is float" in inspect.getsource(df)
    assert df.__name__ == "grad_seed_example" and "Generated by s2s_ad" in df.__doc__


def test_pdb_steps_into_the_generated_lines():
    import pdb
    import io
    df = s2s_ad.grad(seed_example)
    commands = io.StringIO("step\nstep\nlist\ncontinue\n")
    out = io.StringIO()
    debugger = pdb.Pdb(stdin=commands, stdout=out)
    debugger.use_rawinput = False
    debugger.runcall(df, 1.0, 2.0)
    shown = out.getvalue()
    assert "grad_seed_example" in shown and "np.exp(2 * x1)" in shown


def test_print_with_f_strings_inside_the_function(capsys):
    from programs import printing
    w, x = np.array([0.3, -0.2]), np.array([1.0, 2.0])
    g = s2s_ad.grad(printing.loss)(w, x)
    assert "step 1: total=" in capsys.readouterr().out
    np.testing.assert_allclose(g, 2 * 2 * np.tanh(x * w) * (1 - np.tanh(x * w) ** 2) * x)


def test_positional_arguments_are_named_by_numpys_signature():
    # a template's parameters may differ from numpy's past the first few (no `out`):
    # positional arguments bind by numpy's names, so ddof is never taken for keepdims
    from programs.positional import (average_returning_weights,
                                     average_with_positional_weights,
                                     variance_with_positional_ddof)
    x = np.array([1.0, 2.0, 4.0])
    np.testing.assert_allclose(s2s_ad.grad(variance_with_positional_ddof)(x),
                               2.0 * (x - x.mean()) / 2.0)
    w = np.array([1.0, 2.0, 3.0])
    np.testing.assert_allclose(s2s_ad.grad(average_with_positional_weights)(x), w / w.sum())
    with pytest.raises(s2s_ad.MissingDerivativeError, match="`returned` is not supported"):
        s2s_ad.grad(average_returning_weights)(x)
