"""Differences of slices (`u[1:] - u[:-1]`, stencils, total variation): the adjoint of the
subtracted slice is taken from the gradient in place (`u_bar[:-1] -= g`), with no array
made for `-g` first (optimize/temporaries.py), and slices provably of one length need no
unbroadcast (analyses/slice_shapes.py). Checked on both derivative paths against
finite differences, in float64 and float32, on vectors, matrices and a length-1 axis."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on
from golden_files import assert_matches_golden
from gradcheck import numeric_grad

RNG = np.random.default_rng(17)


def smoothness(u, f):
    d = u[1:] - u[:-1]
    return np.sum(d * d) + 0.5 * np.sum((u - f) ** 2)


def total_variation(u):
    dx = u[1:, :] - u[:-1, :]
    dy = u[:, 1:] - u[:, :-1]
    return np.sum(np.sqrt(dx[:, :-1] ** 2 + dy[:-1, :] ** 2 + 1e-8))


def second_differences(z, y, lam):
    d2 = z[2:] - 2.0 * z[1:-1] + z[:-2]
    return np.sum((y - z) ** 2) + lam * np.sum(d2 ** 2)


def first_times_rest(u):
    return np.sum(u[:1] * u[1:])        # (1,) against (n-1,): a broadcast, not one shape


def corner_products(u):
    return np.sum(u[1:, :-1] * u[:-1, 1:] + u[1:][:, 1:])


def _source(f, *args):
    df = s2s_ad.grad(f)
    df(*args)
    return s2s_ad.derivative_source(df, *args)


def test_slices_of_one_length_need_no_unbroadcast():
    source = _source(second_differences, RNG.normal(size=9), RNG.normal(size=9), 3.0)
    assert "unbroadcast" not in source
    assert_matches_golden("slice_second_differences", source)
    assert "unbroadcast" not in _source(total_variation, RNG.normal(size=(5, 4)))
    assert "unbroadcast" not in _source(corner_products, RNG.normal(size=(5, 4)))


def test_slices_that_broadcast_keep_unbroadcast():
    assert "unbroadcast" in _source(first_times_rest, RNG.normal(size=5))


def test_the_subtracted_slice_is_taken_off_in_place():
    df = s2s_ad.grad(smoothness)
    args = (RNG.normal(size=6), RNG.normal(size=6))
    df(*args)
    source = s2s_ad.derivative_source(df, *args)
    assert "u_bar[:-1] -= " in source and "= -" not in source
    assert_matches_golden("slice_difference", source)


CASES = [
    (smoothness, lambda: (RNG.normal(size=7), RNG.normal(size=7))),
    (smoothness, lambda: (RNG.normal(size=(5, 3)), RNG.normal(size=(5, 3)))),
    (smoothness, lambda: (RNG.normal(size=(4, 1)), RNG.normal(size=(1,)))),   # broadcast f
    (total_variation, lambda: (RNG.normal(size=(5, 4)),)),
    (total_variation, lambda: (RNG.normal(size=(2, 3)),)),
    (second_differences, lambda: (RNG.normal(size=8), RNG.normal(size=8), 2.0)),
    (second_differences, lambda: (RNG.normal(size=2), RNG.normal(size=2), 2.0)),  # empty d2
    (first_times_rest, lambda: (RNG.normal(size=5),)),
    (first_times_rest, lambda: (RNG.normal(size=2),)),
    (corner_products, lambda: (RNG.normal(size=(4, 3)),)),
    (corner_products, lambda: (RNG.normal(size=(1, 3)),)),                      # empty
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, make", CASES)
def test_gradients_stay_right(f, make, path):
    args = make()
    got = grad_on(path, f)(*args)
    assert got.shape == args[0].shape
    np.testing.assert_allclose(got, numeric_grad(f, args, 0), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("f, make", CASES)
def test_float32_stays_float32(f, make):
    args = make()
    got = s2s_ad.grad(f)(*(a.astype(np.float32) if isinstance(a, np.ndarray) else a
                           for a in args))
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, s2s_ad.grad(f)(*args), rtol=1e-4, atol=1e-4)
