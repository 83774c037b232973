"""np.r_ / np.c_ and np.einsum's sublist form and `...` (issue 14: np.r_[x, x] had a
zero gradient and a jvp that never returned, the sublist form gave zeros, `...` raised
NotImplementedError). The spec rows in tests/specs_array_syntax.py check them over
shapes; these check whole functions on both derivative paths, second order, and the
located errors for what is not rewritten."""
import inspect

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, check_against_differences
from programs import r_without_np, rejected_array_syntax as rejected

W = np.arange(12.0).reshape(6, 2) / 5.0


def r_twice(x):
    return np.sum(np.r_[x, x] * np.arange(6.0) * x[0])


def r_with_numbers_and_range(x):
    return np.sum(np.r_[x, 2.0 * np.sum(x), 0:2] ** 2)


def c_columns(x):
    return np.sum(np.c_[x, np.sin(x)] * W[:3])


def einsum_sublists(x):
    return np.sum(np.einsum(x, [0, 1], [1, 0]) * W[:3].T * x[0, 0])


def einsum_ellipsis(x):
    return np.sum(np.einsum("...ij,jk->...ik", x, np.ones((3, 2))) ** 2)


def einsum_sublist_ellipsis(x):
    return np.sum(np.einsum(x, [Ellipsis, 0], x.T, [0, Ellipsis]) ** 2)


VECTOR = np.array([0.3, -0.7, 1.1])
MATRIX = np.arange(6.0).reshape(2, 3) / 7.0 + 0.1
CASES = [(r_twice, VECTOR), (r_with_numbers_and_range, VECTOR), (c_columns, VECTOR),
         (einsum_sublists, MATRIX.T.copy()), (einsum_ellipsis, MATRIX),
         (einsum_sublist_ellipsis, MATRIX.T.copy())]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, x", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_reverse_forward_and_second_order_match_differences(f, x, path):
    check_against_differences(path, f, x)


def test_r_of_a_repeated_argument_is_not_zero():
    np.testing.assert_allclose(s2s_ad.grad(lambda_free_r)(VECTOR), 2.0 * np.ones(3))


def lambda_free_r(x):
    return np.sum(np.r_[x, x])


def _line_of(module, marker):
    lines = inspect.getsource(module).splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.rstrip().endswith(f"# LINE {marker}"))


@pytest.mark.parametrize("func, marker, words", [
    (rejected.directive_string, "directive", "directive string"),
    (rejected.sublists_in_variables, "sublist_variable", "literal lists"),
    (r_without_np.imported_r_, "imported", "imported as a module"),
])
def test_what_is_not_rewritten_is_a_located_error(func, marker, words):
    with pytest.raises(s2s_ad.UnsupportedSyntaxError) as info:
        s2s_ad.grad(func)(np.ones((2, 2)))
    module = inspect.getmodule(func)
    assert info.value.filename == module.__file__
    assert info.value.lineno == _line_of(module, marker)
    assert words in str(info.value) and "^" in str(info.value)


def sublist_held_in_a_variable(x):
    spec = [0, 1]
    return np.sum(np.einsum(x, spec) ** 2)


@pytest.mark.parametrize("mode", ["grad", "jvp"])
def test_sublists_the_normalizer_cannot_read_are_an_error_not_a_zero(mode):
    """np.einsum(x, spec): x sits where the subscripts go; its derivative is refused."""
    x = np.ones((2, 2))
    with pytest.raises(TypeError, match="sublists are written as literal lists"):
        if mode == "grad":
            s2s_ad.grad(sublist_held_in_a_variable)(x)
        else:
            s2s_ad.jvp(sublist_held_in_a_variable)(x, x)
