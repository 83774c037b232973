"""Adjoint zeros where the facts know the shape: a specialisation never needs to discover
it at run time. A float array bound once starts its adjoint as np.zeros_like, so the
gradient it passes on is already an array of the argument's shape (no
`match_adjoint(y_bar, x)` at the end), and each path gives the same gradient."""
import numpy as np
import pytest

import s2s_ad
from gradcheck import numeric_grad
from tests.derivative_paths import PATHS, grad_on


def scale_entries(x):
    y = x.copy()
    for i in range(len(y)):
        y[i] *= 2.0 + i
    return np.sum(y ** 3)


def damped_updates(x):
    y = x.copy()
    for _ in range(3):
        y += 0.1 * np.sin(y)
        y *= 0.95
    return np.sum(y ** 2)


def read_on_one_branch(x, flag):
    y = x * 2.0
    z = x + 0.0
    if flag:
        z = z * y
    return np.sum(z)


PROGRAMS = [scale_entries, damped_updates]
BOUND_ONCE = [scale_entries]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", PROGRAMS, ids=[f.__name__ for f in PROGRAMS])
def test_gradient_is_right_on_both_paths(f, path):
    x = np.array([0.3, -0.7, 1.1])
    g = grad_on(path, f)(x)
    np.testing.assert_allclose(g, numeric_grad(f, [x], 0), rtol=1e-6, atol=1e-9)
    assert type(g) is np.ndarray and g.shape == x.shape and not np.shares_memory(g, x)


@pytest.mark.parametrize("f", BOUND_ONCE, ids=[f.__name__ for f in BOUND_ONCE])
def test_specialisation_passes_on_an_array_of_the_arguments_shape(f):
    x = np.array([0.3, -0.7, 1.1])
    df = s2s_ad.grad(f)
    df(x)
    assert "match_adjoint" not in s2s_ad.derivative_source(df, x)


@pytest.mark.parametrize("flag", [True, False])
@pytest.mark.parametrize("path", PATHS)
def test_a_branch_not_taken_still_gives_an_array(path, flag):
    x = np.array([0.3, -0.7, 1.1])
    g = grad_on(path, read_on_one_branch)(x, flag)
    np.testing.assert_allclose(g, numeric_grad(lambda v: read_on_one_branch(v, flag), [x], 0),
                               rtol=1e-6, atol=1e-9)
    assert g.shape == x.shape



def test_a_number_written_into_one_element_needs_no_shape():
    """`y[i] *= c` with y a float vector and i an integer (facts): the number's adjoint
    is the element's, with no unbroadcast to its shape and no shape on the tape."""
    x = np.array([0.3, -0.7, 1.1])
    df = s2s_ad.grad(scale_entries)
    df(x)
    source = s2s_ad.derivative_source(df, x)
    for bookkeeping in ("unbroadcast", "shape_of", "placeholder"):
        assert bookkeeping not in source


@pytest.mark.parametrize("path", PATHS)
def test_element_writes_differentiate_again(path):
    from tests.derivative_paths import hvp_on
    x, v = np.array([0.3, -0.7, 1.1]), np.array([1.0, 0.5, -2.0])
    # scale_entries is sum(((2 + i) x_i)^3): its Hessian is diagonal
    expected = 6.0 * (2.0 + np.arange(3)) ** 3 * x * v
    np.testing.assert_allclose(hvp_on(path, scale_entries, (x,), v), expected, rtol=1e-10)
