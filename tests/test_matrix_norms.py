"""np.linalg.norm's matrix 1, -1, inf, -inf norms and the vector count ord=0: gradient,
jvp and hvp against central differences on both derivative paths (the norm squared, so
the Hessian is not zero), and ties between column sums sharing the derivative equally."""
import numpy as np
import pytest

from derivative_paths import PATHS, check_against_differences, grad_on

X = np.array([[0.3, -1.2, 0.8, 2.1],
              [1.1, 0.4, -0.6, 0.9],
              [-0.9, 1.7, 0.2, -0.55]])


def column_norm_squared(x):
    return np.linalg.norm(x, 1) ** 2


def smallest_row_norm_squared(x):
    return np.linalg.norm(x, -np.inf) ** 2


def stacked_norms_squared(x):
    return np.sum(np.linalg.norm(np.reshape(x, (2, 2, 3)), -1, axis=(2, 1)) ** 2)


def count_times_norm(x):
    return np.linalg.norm(x[0], 0) * np.sum(x * x)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [column_norm_squared, smallest_row_norm_squared,
                               stacked_norms_squared, count_times_norm],
                         ids=lambda f: f.__name__)
def test_matrix_norms_against_differences(f, path):
    check_against_differences(path, f, X)


def column_norm(x):
    return np.linalg.norm(x, 1)


@pytest.mark.parametrize("path", PATHS)
def test_tied_columns_share_the_derivative(path):
    x = np.array([[1.0, -2.0, 0.5], [2.0, 1.0, 0.5]])       # columns 0 and 1 both sum to 3
    np.testing.assert_allclose(grad_on(path, column_norm)(x),
                               [[0.5, -0.5, 0.0], [0.5, 0.5, 0.0]])
