"""The adjoint of a full reduction is multiplied in as a number where that is exact, and
shape tape entries left without a reader are dropped in pairs."""
import numpy as np
import pytest

import s2s_ad
from gradcheck import numeric_grad

RNG = np.random.default_rng(3)


def squared_norm(x, gamma):
    return np.sum((gamma * x + 1.0) ** 2)


def pairwise(x, y):
    return np.mean((x[:, None] - y) ** 2)


def weighted(x, w):
    return np.sum(w * x ** 2)            # the seed has two uses: it stays an array


def exp_sum(x):
    return np.sum(np.exp(-x)) + np.sum(x)


def layer_norm(x, gamma):
    mu = np.mean(x, axis=-1, keepdims=True)
    var = np.mean((x - mu) ** 2, axis=-1, keepdims=True)
    return np.sum((gamma * (x - mu) / np.sqrt(var + 1e-5)) ** 2 * x)


def column_scale(x):
    s = np.sum(x, axis=0, keepdims=True)
    return np.sum(np.sin(s) * x)


def loop_loss(W, h0, xs):
    h = h0
    loss = 0.0
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ W + h)
        loss = loss + np.sum((h - 0.5) ** 2)
    return loss


CASES = [
    (squared_norm, lambda: (RNG.standard_normal((4, 3)), RNG.standard_normal(3)), (0, 1)),
    (pairwise, lambda: (RNG.standard_normal(4), RNG.standard_normal(3)), (0, 1)),
    (weighted, lambda: (RNG.standard_normal((2, 3)), RNG.standard_normal((1, 3))), (0, 1)),
    (exp_sum, lambda: (RNG.standard_normal((3, 2)),), (0,)),
    (layer_norm, lambda: (RNG.standard_normal((3, 5)), RNG.standard_normal(5)), (0, 1)),
    (column_scale, lambda: (RNG.standard_normal((4, 3)),), (0,)),
    (loop_loss, lambda: (RNG.standard_normal((3, 3)) * 0.5, RNG.standard_normal((2, 3)),
                         RNG.standard_normal((4, 2, 3))), (0, 1)),
]


@pytest.mark.parametrize("fn, make, wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_gradients_stay_right(fn, make, wrt):
    args = make()
    grads = s2s_ad.grad(fn, wrt=wrt)(*args)
    for k, g in zip(wrt, grads):
        assert np.shape(g) == np.shape(args[k])
        np.testing.assert_allclose(g, numeric_grad(fn, list(args), k), rtol=1e-5, atol=1e-7)


def test_a_sum_of_squares_needs_no_array_of_ones():
    source = s2s_ad.derivative_source(s2s_ad.grad(squared_norm, wrt=(0, 1)))
    assert "unreduce" not in source


def test_a_seed_used_twice_is_kept():
    source = s2s_ad.derivative_source(s2s_ad.grad(weighted, wrt=(0, 1)))
    assert "unreduce(1.0" in source


def test_a_loop_drops_the_shape_tape_of_the_folded_value():
    source = s2s_ad.derivative_source(s2s_ad.grad(loop_loss, wrt=(0, 1)))
    assert "unreduce" not in source
    pushes = source.count("_tape.append(shape_of(")
    restores = source.count("= placeholder(_tape.pop())")
    assert pushes == restores                 # balanced tape
    assert source.count("_tape.append(") == source.count("_tape.pop()")


def test_a_keepdims_adjoint_broadcasts_in_the_product():
    source = s2s_ad.derivative_source(
        s2s_ad.api.general_derivative(s2s_ad.grad(layer_norm, wrt=(0, 1))))
    # var's adjoint multiplies (x - mu) directly; mu's is added, so it is spread out
    assert source.count(", -1, True)") == 1
