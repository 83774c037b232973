"""End to end: matmul with a 1-D operand beside a batched (N-D) one, and batch broadcasting.

numpy promotes a 1-D left operand to a (1, k) row and a 1-D right operand to a (k, 1)
column, broadcasts the leading (batch) axes, and drops the added axis again. Each adjoint
has its operand's shape, summed over the batch axes it was broadcast along.
"""
import zlib

import numpy as np
import pytest

import s2s_ad

from gradcheck import assert_grad_matches, forward_check, numeric_grad


def readout(T, w):
    return np.sum(np.tanh(T @ w))


def readout_np(T, w):
    return np.sum(np.tanh(np.matmul(T, w)))


def left_vec(v, T):
    return np.sum(np.tanh(v @ T))


def left_vec_np(v, T):
    return np.sum(np.tanh(np.matmul(v, T)))


def batched(a, b):
    return np.sum(np.tanh(a @ b))


CASES = [(readout, ((2, 3, 4), (4,))), (readout_np, ((2, 3, 4), (4,))),
         (left_vec, ((3,), (2, 3, 4))), (left_vec_np, ((3,), (2, 3, 4))),
         (batched, ((4,), (4,))), (batched, ((3, 4), (4,))), (batched, ((4,), (4, 5))),
         (batched, ((2, 2, 3, 4), (4,))), (batched, ((4,), (2, 2, 4, 3))),
         (batched, ((2, 3, 4), (4, 5))), (batched, ((3, 4), (2, 4, 5))),
         (batched, ((2, 1, 3, 4), (5, 4, 2))), (batched, ((1, 3, 4), (2, 4, 5)))]


def _id(fn, shapes):
    return f"{fn.__name__}-{'@'.join('x'.join(map(str, s)) for s in shapes)}"


IDS = [_id(f, shapes) for f, shapes in CASES]


def _args(fn, shapes, salt):
    rng = np.random.default_rng(zlib.crc32((salt + _id(fn, shapes)).encode()))
    return [rng.standard_normal(s) for s in shapes]


@pytest.mark.parametrize("fn, shapes", CASES, ids=IDS)
def test_grad_matches_finite_differences(fn, shapes):
    args = _args(fn, shapes, "grad")
    for wrt in (0, 1, (0, 1)):
        assert_grad_matches(fn, args, wrt=wrt)


@pytest.mark.parametrize("fn, shapes", CASES, ids=IDS)
def test_jvp_matches_finite_differences(fn, shapes):
    args = _args(fn, shapes, "jvp")
    for wrt in ((0,), (1,), (0, 1)):
        forward_check(fn, args, wrt)


@pytest.mark.parametrize("fn, shapes", [CASES[0], CASES[2], CASES[-2]], ids=[IDS[0], IDS[2],
                                                                             IDS[-2]])
def test_hvp_matches_finite_differences_of_the_gradient(fn, shapes):
    """Forward over reverse runs the matmul adjoint helpers' own tangents."""
    rng = np.random.default_rng(7)
    args = [rng.standard_normal(s) for s in shapes]
    for k in (0, 1):
        v = rng.standard_normal(shapes[k])
        got = s2s_ad.hvp(fn, wrt=k)(*args, v)
        df = s2s_ad.grad(fn, wrt=k)
        eps = 1e-6
        plus, minus = list(args), list(args)
        plus[k], minus[k] = args[k] + eps * v, args[k] - eps * v
        expected = (df(*plus) - df(*minus)) / (2 * eps)
        assert np.shape(got) == shapes[k]
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_reported_shapes():
    rng = np.random.default_rng(0)
    T, w, v = rng.standard_normal((2, 3, 4)), rng.standard_normal(4), rng.standard_normal(3)
    assert np.shape(s2s_ad.grad(readout, wrt=1)(T, w)) == (4,)
    assert np.shape(s2s_ad.grad(readout_np, wrt=1)(T, w)) == (4,)
    g = s2s_ad.grad(left_vec, wrt=1)(v, T)
    assert np.shape(g) == (2, 3, 4)
    np.testing.assert_allclose(g, numeric_grad(left_vec, [v, T], 1), rtol=1e-5, atol=1e-6)
