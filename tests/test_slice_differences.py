"""Differences of slices (`u[1:] - u[:-1]`, stencils, total variation): the adjoint of the
subtracted slice is taken from the gradient in place (`u_bar[:-1] -= g`), with no array
made for `-g` first (optimize/temporaries.py). Checked on both derivative paths against
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
    got = s2s_ad.grad(f)(*(a.astype(np.float32) for a in args))
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, s2s_ad.grad(f)(*args), rtol=1e-4, atol=1e-4)
