"""Shapes the peers' own tests pass (autograd's and Tangent's test functions, run unchanged):
each case here came out wrong without an error, or crashed in generated code, before it was
fixed. Every check is against central differences, on both derivative paths."""
import numpy as np
import pytest

from derivative_paths import PATHS, check_against_differences, grad_on

MATRIX = np.array([[0.5, -1.0], [2.0, 0.25], [-0.75, 1.5]])
CUBE = np.linspace(-1.0, 1.0, 24).reshape(2, 3, 4)


def joined_rows(m):
    return np.sum(np.hstack(m) ** 2 * np.arange(1.0, m.size + 1).reshape(np.hstack(m).shape))


def stacked_rows(m):
    v = np.vstack(m)
    return np.sum(np.sin(v) * v)


def concatenated_rows(m):
    return np.sum(np.cos(np.concatenate(m)))


def stacked_again(m):
    return np.sum(np.stack(m, axis=-1) ** 3)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [joined_rows, stacked_rows, concatenated_rows, stacked_again])
@pytest.mark.parametrize("x", [MATRIX, CUBE, np.array([0.5, -2.0, 1.5])], ids=["2d", "3d", "1d"])
def test_joining_the_rows_of_one_array_gives_an_array_gradient(path, f, x):
    """np.hstack(m) / vstack / concatenate / stack of an array join its rows; the gradient
    of m is an array of m's shape (it was a list of rows)."""
    if f is concatenated_rows and x.ndim == 1:
        pytest.skip("np.concatenate of a vector's scalars raises in f itself")
    g = grad_on(path, f)(x)
    assert type(g) is np.ndarray and g.shape == x.shape
    check_against_differences(path, f, x)


KRON_FACTOR = np.array([[1.0, -2.0], [0.5, 3.0], [2.0, 0.0]])


def kron_vector_by_matrix(v):
    return np.sum(np.kron(v, KRON_FACTOR) ** 2)


def kron_matrix_by_column(m):
    return np.sum(np.sin(np.kron(KRON_FACTOR, m)))


def kron_scalar_by_matrix(c):
    return np.sum(np.kron(c[0] * c[1], KRON_FACTOR) * np.kron(c, c)[2])


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, x", [
    (kron_vector_by_matrix, np.array([0.5, -1.0, 2.0])),
    (kron_matrix_by_column, np.array([[0.3], [-1.2], [0.7], [2.0]])),
    (kron_scalar_by_matrix, np.array([0.5, -1.5])),
], ids=["vector-matrix", "matrix-column", "scalars"])
def test_kron_of_operands_of_different_ranks(path, f, x):
    """np.kron pads the lower-rank operand with leading 1s; its adjoint handled only two
    vectors or two matrices (an IndexError or a matmul error inside generated code)."""
    check_against_differences(path, f, x)


def sines_in_double(x):
    return np.sum(np.sin(x.astype("float64")))


def sines_as_array(x):
    return np.sum(np.sin(np.asarray(x, dtype=np.float64)) * 2.0)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, scale", [(sines_in_double, 1.0), (sines_as_array, 2.0)])
def test_a_float32_argument_cast_to_double_gets_a_float32_gradient(path, f, scale):
    """x.astype(np.float64) / np.asarray(x, dtype=np.float64) of a float32 x: the gradient
    has x's dtype (it was float64)."""
    x = np.array([0.0, 1.0, 2.5], dtype=np.float32)
    g = grad_on(path, f)(x)
    assert g.dtype == np.float32 and g.shape == x.shape
    np.testing.assert_allclose(g, scale * np.cos(x.astype(np.float64)), rtol=1e-6)
    check_against_differences(path, f, x.astype(np.float64))


is_a = isinstance


def first_of_a_list(x):
    assert is_a(x, list)
    return x[0] * x[1]


def first_of_a_tuple(x):
    assert is_a(x, tuple)
    return x[0] * x[1]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, x", [(first_of_a_list, [2.0, 3.0, 5.0]),
                                  (first_of_a_tuple, (2.0, 3.0, 5.0))], ids=["list", "tuple"])
def test_a_type_test_under_another_name_keeps_the_gradient_a_sequence(path, f, x):
    """`is_a = isinstance` then `assert is_a(x, list)`: x is still only indexed, so its
    gradient is a list (a tuple) like x; the general derivative made it an array."""
    g = grad_on(path, f)(x)
    assert type(g) is type(x)
    assert list(g) == [3.0, 2.0, 0.0]


def joined_pair(pair):
    return np.sum(np.concatenate(pair) ** 2) + np.sum(np.hstack(pair)) \
        + np.sum(np.vstack(pair) * 3.0) + np.sum(np.stack(pair, axis=1) ** 3)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("kind", [tuple, list])
def test_arrays_joined_from_a_tuple_get_a_tuple_gradient(path, kind):
    """The adjoints of np.concatenate / hstack / vstack / stack of a tuple are a tuple (the
    general derivative gave a list)."""
    a, b = np.array([0.5, -1.0]), np.array([2.0, 0.25])
    g = grad_on(path, joined_pair)(kind((a, b)))
    assert type(g) is kind and len(g) == 2
    for item, arr in zip(g, (a, b)):
        np.testing.assert_allclose(item, 2 * arr + 1.0 + 3.0 + 3 * arr ** 2)


def ignores_its_argument(ex, kind):
    assert isinstance(ex, kind)
    return 1.0


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("ex, zero", [
    ([], []), ((), ()), ([1.0, 2.0], [0.0, 0.0]), ({"a": 1.0, "b": 2.0}, {"a": 0.0, "b": 0.0}),
    ((1.0, np.ones(3)), (0.0, np.zeros(3))), ([np.ones(2), np.ones((2, 3))], None),
], ids=["empty-list", "empty-tuple", "list", "dict", "tuple-of-mixed", "ragged-list"])
def test_an_argument_the_output_ignores_gets_a_zero_of_its_structure(path, ex, zero):
    """The zero gradient of a list / tuple / dict is a list / tuple / dict of zeros (it was
    an array, `0.0` for a dict, and a crash for arrays of different shapes)."""
    g = grad_on(path, ignores_its_argument)(ex, type(ex))
    assert type(g) is type(ex)
    if zero is None:
        zero = [np.zeros(np.shape(item)) for item in ex]
    if isinstance(ex, dict):
        assert g == zero
    else:
        assert len(g) == len(zero)
        for item, expected in zip(g, zero):
            assert type(item) is type(expected)
            np.testing.assert_array_equal(item, expected)
