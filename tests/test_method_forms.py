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


# x.item(): the element as an index read (it was "the array method .item() is not
# supported"); item() of more than one element raises in the derivative as in f
def item_of_a_sum(x):
    total = np.sum(x ** 2)
    return total.item() * x[1] + np.sum(x[:1]).item()


def item_by_position(x):
    m = np.reshape(x, (2, 3))
    return x.item(4) * m.item(0, 2) + np.exp(m).item(5)


def item_as_a_count(x):
    n = np.array([3]).item()
    s = 0.0
    for k in range(n):
        s = s + x[k] ** 2
    return s


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [item_of_a_sum, item_by_position, item_as_a_count])
def test_item(f, path):
    check_against_differences(path, f, X)


def item_of_many(x):
    return (x * 2.0).item()


@pytest.mark.parametrize("path", PATHS)
def test_item_of_many_elements_raises_as_f_does(path):
    from derivative_paths import grad_on
    with pytest.raises(ValueError):
        item_of_many(X)
    with pytest.raises(ValueError):
        grad_on(path, item_of_many)(X)
