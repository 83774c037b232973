"""`y[i] = y`: an index write whose value is the array written into (fuzz seed 16124, `--wide`).
The adjoint of y at i goes to the value, which is y itself, so it must be taken before the
written elements' adjoint is cleared (it was cleared first: a zero gradient)."""
import numpy as np
import pytest

from derivative_paths import PATHS, check_against_differences


def row_written_with_itself(x):
    w = x.copy()
    w[[0]] = w
    return np.sum(np.sin(w) * w)


def slice_written_with_itself(x):
    w = x * 2.0
    w[:1] = w[:1]
    w[[1, 0]] = w[[0, 1]]
    return np.sum(w ** 3)


@pytest.mark.parametrize("path", PATHS)
def test_row_written_with_itself(path):
    check_against_differences(path, row_written_with_itself,
                              np.array([[0.5, -0.3, 0.2, 0.9]]))


@pytest.mark.parametrize("path", PATHS)
def test_elements_swapped_through_themselves(path):
    check_against_differences(path, slice_written_with_itself, np.array([0.5, -0.3, 0.2, 0.9]))
