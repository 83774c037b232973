"""What grad refuses, at the grad call or at the derivative's call, instead of a silent
wrong answer: code reading variables by name (eval, exec, locals, globals, vars, getattr
with a computed name), masked arrays and complex numbers, an argument used only as an
index. Each error names the argument or the line."""
import inspect

import numpy as np
import pytest

import s2s_ad
from paths import fresh


def uses_eval(x):
    return eval("x * x") + x


def uses_exec(x):
    exec("y = x * 2")
    return x * x


def uses_locals(x):
    y = x * x
    return locals()["y"] + x


def uses_globals(x):
    return globals()["np"].sin(x) + x


def uses_vars(x):
    y = x * x
    return vars()["y"] + x


def uses_getattr(x, name):
    return getattr(x, name)() + np.sum(x)


def _line_of(fn, text):
    lines, first = inspect.getsourcelines(fn)
    return first + next(k for k, line in enumerate(lines) if text in line and k)


@pytest.mark.parametrize("fn, marker", [
    (uses_eval, "eval("), (uses_exec, "exec("), (uses_locals, "locals()"),
    (uses_globals, "globals()"), (uses_vars, "vars()"), (uses_getattr, "getattr(")])
@pytest.mark.parametrize("mode", [s2s_ad.grad, s2s_ad.jvp, s2s_ad.hvp])
def test_reading_variables_by_name_is_a_located_error(fn, marker, mode):
    with pytest.raises(s2s_ad.UnsupportedSyntaxError) as info:
        mode(fresh(fn))
    assert info.value.lineno == _line_of(fn, marker)
    assert marker.rstrip("(") in str(info.value) and "^" in str(info.value)


def test_a_function_of_the_users_named_like_a_builtin_is_differentiated():
    def vars(a):               # noqa: A001 - shadows the builtin on purpose
        return a * 3.0

    def f(x):
        return vars(x) * x
    assert s2s_ad.grad(f)(2.0) == pytest.approx(12.0)


def test_getattr_with_a_literal_name_is_not_rejected_as_a_read_by_name():
    def f(x):
        return np.sum(x) * getattr(np, "pi")
    assert s2s_ad.grad(f)(np.ones(2)) == pytest.approx(np.full(2, np.pi))


def energy(z):
    return np.sum(np.abs(z) ** 2)


def masked_mean(x):
    return np.mean(x * x)


def weighted(x, w):
    return np.sum(x * w[0])


@pytest.mark.parametrize("fn, args, name, what", [
    (energy, (np.array([1 + 2j, 3j]),), "z", "complex"),
    (energy, (1 + 2j,), "z", "complex"),
    (energy, (np.complex128(1 + 1j),), "z", "complex"),
    (masked_mean, (np.ma.array([1.0, 2.0, 3.0], mask=[0, 1, 0]),), "x", "masked"),
    (weighted, (np.ones(2), [np.ones(2) * 1j]), "w", "complex"),
])
def test_masked_and_complex_arguments_are_rejected_at_the_call(both_paths, fn, args, name,
                                                               what):
    df = s2s_ad.grad(fresh(fn))
    real = tuple(np.ones(2) if isinstance(a, (np.ndarray, list)) else 1.0 for a in args)
    if fn is not weighted:
        df(*real)               # a real call first: its guard must not let the next through
    for _ in range(2):          # the second call goes through the guards written
        with pytest.raises(s2s_ad.APIUsageError) as info:
            df(*args)
        assert f"`{name}`" in str(info.value) and what in str(info.value)


def test_a_complex_tangent_is_rejected(both_paths):
    jf = s2s_ad.jvp(fresh(masked_mean))
    with pytest.raises(s2s_ad.APIUsageError, match="complex"):
        jf(np.ones(3), np.ones(3) * 1j)
    hv = s2s_ad.hvp(fresh(masked_mean))
    with pytest.raises(s2s_ad.APIUsageError, match="masked"):
        hv(np.ma.array([1.0, 2.0, 3.0], mask=[0, 1, 0]), np.ones(3))


def pick(x, i):
    return x[i] * 2.0


def window(x, i):
    return np.sum(x[i:i + 2] ** 2)


@pytest.mark.parametrize("fn", [pick, window])
def test_an_argument_used_only_as_an_index_has_no_gradient(both_paths, fn):
    # README: an output that depends on a differentiated argument only through
    # operations without a derivative is an error (an integer argument is differentiated
    # as a float, and x[i] is piecewise constant in i)
    with pytest.raises(s2s_ad.NonDifferentiableError, match="`i`") as info:
        s2s_ad.grad(fresh(fn), wrt=1)
    assert info.value.lineno == _line_of(fn, "x[i")
    g = s2s_ad.grad(fresh(fn), wrt=0)(np.arange(4.0), 1)     # x itself is fine
    assert np.sum(g) > 0



@pytest.mark.parametrize("fn", [pick, window])
def test_jvp_in_an_index_only_argument_is_an_error_too(both_paths, fn):
    # forward mode refuses the silent zero as reverse mode does
    with pytest.raises(s2s_ad.NonDifferentiableError, match="`i`"):
        s2s_ad.jvp(fresh(fn), wrt=1)
    x = np.arange(4.0)
    _, d = s2s_ad.jvp(fresh(fn), wrt=0)(x, 1, np.ones(4))
    assert d == pytest.approx(2.0 if fn is pick else 2.0 * (x[1] + x[2]))
