"""A def of yours that writes into the array it is given, called directly and inlined into
f (transforms/helper_inline.py): when the write would change a value f reads later, the
located error names the helper's own parameter (`x`, not the inlined `x_1`), points at
the write in the helper (its file, line and caret) and says where f calls it. Which
programs are refused does not change."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on

X = np.array([0.3, -0.7, 1.2])


def double(x):
    x *= 2.0
    return x


def doubled_and_read(x):
    a = np.sin(x)
    b = double(a)
    return np.sum(a) + np.sum(b)


def scale_first_row(m):
    top = m[0]
    top *= 3.0
    return np.sum(m)


def row_scaled_and_read(x):
    m = np.outer(x, x)
    s = scale_first_row(m)
    return s + np.sum(m)


def halve(v):
    v *= 0.5
    return np.sum(v)


def row_read_after_halving(M):
    N = M * 1.0
    row = N[0]
    s = halve(N)
    return np.sum(row) + s


def _line_of(f, text):
    import inspect
    lines, first = inspect.getsourcelines(f)
    return first + next(k for k, line in enumerate(lines) if text in line)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, helper, write, name, call", [
    (doubled_and_read, double, "x *= 2.0", "x", "b = double(a)"),
    (row_scaled_and_read, scale_first_row, "top *= 3.0", "top", "s = scale_first_row(m)"),
], ids=["parameter", "view_of_a_parameter"])
def test_the_error_names_and_points_at_the_write_in_the_helper(f, helper, write, name, call,
                                                                path):
    with pytest.raises(s2s_ad.UnsupportedSyntaxError) as info:
        grad_on(path, f)(X.copy())
    text = str(info.value)
    assert text.startswith(f"`{name}` (a ")
    assert f"of `{helper.__name__}`, called from {f.__name__} at line "\
           f"{_line_of(f, call)})" in text
    assert "_1`" not in text                     # no inlined name, in the message or hint
    # (the general derivative checks when it runs: the same error, rendered)
    assert f'test_helper_write_errors.py", line {_line_of(helper, write)}, col 5, in ' \
           f'{helper.__name__}' in text
    assert f"    {write}\n    ^^^^" in text
    assert f"`{name} = {name}.copy()`" in text


@pytest.mark.parametrize("path", PATHS)
def test_the_check_when_it_runs_says_the_same(path):
    """Whether `row` views N is known from the facts (a matrix), else checked when the
    derivative runs: either way the message names `v` in `halve` and its line."""
    np.testing.assert_allclose(grad_on(path, row_read_after_halving)(X.copy()),
                               [1.5, 0.5, 0.5])
    with pytest.raises(s2s_ad.UnsupportedSyntaxError) as info:
        grad_on(path, row_read_after_halving)(np.ones((2, 3)))
    text = str(info.value)
    assert text.startswith("`v` (a parameter of `halve`, called from row_read_after_halving")
    assert f"line {_line_of(halve, 'v *= 0.5')}" in text and "v *= 0.5" in text
