"""Programs a new user writes, each cut down from one left in session 25 (repros in
/work/s25-users-left), on both derivative paths: right gradients where s2s_ad can
differentiate them, a located s2s_ad error at the user's line where it cannot."""
import inspect

import numpy as np
import pytest

import s2s_ad
from s2s_ad.errors import MissingDerivativeError

X3 = np.array([0.5, -1.0, 2.0])

_SQUARE_ITEMS = np.vectorize(lambda v: v * v)


def vectorized_in_f(x):
    return np.sum(np.vectorize(np.sin)(x))


def frompyfunc_in_f(x):
    return np.sum(np.frompyfunc(np.sin, 1, 1)(x).astype(float))


def vectorized_by_name(x):
    g = np.vectorize(np.cos)
    return np.sum(g(x) * x)


def vectorized_at_module_level(x):
    return np.sum(_SQUARE_ITEMS(x))


def _line_of(f, text):
    lines, first = inspect.getsourcelines(f)
    return first + next(k for k, line in enumerate(lines) if text in line)


@pytest.mark.parametrize("f, text", [
    (vectorized_in_f, "np.vectorize"), (frompyfunc_in_f, "np.frompyfunc"),
    (vectorized_by_name, "np.vectorize"), (vectorized_at_module_level, "_SQUARE_ITEMS(x)")])
def test_an_item_by_item_function_is_refused_at_the_users_line(both_paths, f, text):
    """np.vectorize / np.frompyfunc of g: numpy calls g item by item, where no derivative
    reaches. The error was located in s2s_ad's runtime_functions.py (the call's vjp built
    when the derivative ran); now at the user's line, saying what to write instead."""
    with pytest.raises(MissingDerivativeError) as info:
        s2s_ad.grad(f)(X3)
    assert info.value.filename == __file__
    assert info.value.lineno == _line_of(f, text)
    assert "one item at a time" in str(info.value)
