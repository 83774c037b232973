"""A max kept with keepdims and read back by an integer index (`m[:, 0]`, the way a
log-sum-exp over rows is written beside `a - m`) is still a shift the output does not
see (analyses/shift_invariance.py): its adjoint is not computed. An integer index on an
axis the max varies along is not followed. Gradients against central differences on
both paths, ties in the max included."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, grads_against_differences
from gradcheck import numeric_grad


def row_lse_indexed(Z):
    m = np.max(Z, axis=1, keepdims=True)
    return np.sum(m[:, 0] + np.log(np.sum(np.exp(Z - m), axis=1)))


def row_lse_negative_index(Z, w):
    m = np.max(Z * w, axis=-1, keepdims=True)
    return np.sum(np.sin(m[:, -1] + np.log(np.sum(np.exp(Z * w - m), axis=-1))))


def mixed_rows(Z):
    """m[0, 0] and m[1, 0] are different shifts: the output depends on them."""
    m = np.max(Z, axis=1, keepdims=True)
    return m[0, 0] + np.log(np.sum(np.exp(Z[1] - m[1, 0])))


@pytest.mark.parametrize("path", PATHS)
def test_gradients(path):
    rng = np.random.default_rng(7)
    Z = rng.standard_normal((5, 4))
    grads_against_differences(path, row_lse_indexed, (Z,), (0,))
    grads_against_differences(path, row_lse_negative_index, (Z, rng.standard_normal(4)), (0, 1))
    grads_against_differences(path, row_lse_negative_index, (Z, rng.standard_normal((5, 1))), (0, 1))
    grads_against_differences(path, mixed_rows, (Z,), (0,))


@pytest.mark.parametrize("path", PATHS)
def test_ties_in_the_max(path):
    Z = np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0], [0.5, -1.0, 0.25]])
    got = grad_on(path, row_lse_indexed)(Z)
    e = np.exp(Z - Z.max(axis=1, keepdims=True))
    np.testing.assert_allclose(got, e / e.sum(axis=1, keepdims=True), rtol=1e-12)


def test_float32():
    Z = np.random.default_rng(8).standard_normal((6, 3)).astype(np.float32)
    g = s2s_ad.grad(row_lse_indexed)(Z)
    assert g.dtype == np.float32
    np.testing.assert_allclose(g, numeric_grad(row_lse_indexed, (Z.astype(float),), 0),
                               rtol=1e-4, atol=1e-5)


def test_the_max_is_cut():
    """No adjoint of the max (unreduce_extremum, a tie count) in the source; the mixed
    rows keep theirs."""
    Z = np.random.default_rng(9).standard_normal((5, 4))
    for f, cut in ((row_lse_indexed, True), (mixed_rows, False)):
        df = s2s_ad.grad(f)
        df(Z)
        source = s2s_ad.derivative_source(df, Z)
        assert ("m_bar" not in source) is cut, source
