"""Array methods and numpy calls in the forms users write them: `x.clip(lo)` with one
bound (np.clip needs both: the other is None), `x.clip(min=..., max=...)`, and
np.heaviside (piecewise constant: no derivative, like np.sign)."""
import numpy as np
import pytest

from derivative_paths import PATHS, check_against_differences


def clip_one_bound(x):
    return np.sum(x.clip(0.3) ** 2) + np.sum(x.clip(None, 0.5) * x)


def clip_keywords(x):
    return np.sum(x.clip(max=0.5) ** 2) + np.sum(x.clip(min=0.2, max=0.6) * x)


def step_weighted(x):
    return np.sum(x * np.heaviside(x - 0.4, 0.5) + np.sign(x) * x ** 2)


X = np.array([0.11, 0.27, 0.45, 0.58, 0.73, 0.91])


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [clip_one_bound, clip_keywords, step_weighted])
def test_method_forms(f, path):
    check_against_differences(path, f, X)
