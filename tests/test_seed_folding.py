"""The adjoint of a full reduction is multiplied in as a number where that is exact (in a
specialisation: ad/uniform.py, for a loop's or branch's own value ad/block_seeds.py,
and for values of unknown shape); the general derivative keeps its seeds."""
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


def squares_of_a_slice_convolution(w, x):
    n = len(x) - len(w) + 1
    out = np.zeros(n)                    # a length the facts do not know
    for k in range(len(w)):
        out = out + w[k] * x[k:k + n]
    return np.mean(np.tanh(out) ** 2)


def loop_mean_loss(W, h0, xs):
    h = h0
    loss = 0.0
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ W + h)
        loss += np.mean((h - 0.5) ** 2)       # each iteration's own value, reduced
    return loss


def penalty_in_a_branch(x, big):
    y = np.tanh(x)
    if big:
        result = np.sum(y * y)               # a branch's own value, reduced
    else:
        result = np.sum(y ** 3)
    return result


def penalty_over_mixed_values(x):
    params = {"w": x, "b": 0.5 * x[0]}       # values of no one dtype or shape
    return sum(np.sum(v ** 2) for v in params.values())


@pytest.mark.parametrize("fn, make, wrt", [
    (penalty_in_a_branch, lambda: (RNG.standard_normal(4), True), (0,)),
    (penalty_in_a_branch, lambda: (RNG.standard_normal(4), False), (0,)),
    (penalty_over_mixed_values, lambda: (RNG.standard_normal(4),), (0,)),
    (squares_of_a_slice_convolution, lambda: (RNG.standard_normal(3), RNG.standard_normal(9)),
     (0, 1)),
    (loop_mean_loss, lambda: (RNG.standard_normal((3, 3)) * 0.5, RNG.standard_normal((2, 3)),
                              RNG.standard_normal((4, 2, 3))), (0, 1)),
    CASES[-1],
], ids=["branch", "other_branch", "mixed_values", "slice_convolution", "loop_mean", "loop_sum"])
def test_seeds_of_unknown_shapes_and_loop_values_are_numbers(fn, make, wrt):
    """`np.mean(t ** 2)` of a value of unknown length or dtype, of one iteration's value in
    a loop, or of a branch's: the specialisation multiplies t's adjoint by the mean's number, with no array
    of it built (`unreduce`), and the gradient stays right."""
    args = make()
    df = s2s_ad.grad(fn, wrt=wrt)
    grads = df(*args)
    for k, g in zip(wrt, grads):
        np.testing.assert_allclose(g, numeric_grad(fn, list(args), k), rtol=1e-5, atol=1e-7)
    source = s2s_ad.derivative_source(df, *args)
    assert "unreduce(" not in source, source


def test_the_general_derivative_keeps_its_seeds_and_tape_as_generated():
    """Seed folding and shape tapes serve a specialisation's values of unknown shape; the
    general derivative is the fallback for every shape and keeps its sweep as generated
    (arrays of the seed, values on the tape), right on both paths."""
    general = s2s_ad.api.general_derivative
    source = s2s_ad.derivative_source(general(s2s_ad.grad(squared_norm, wrt=(0, 1))))
    assert "unreduce(1.0" in source
    source = s2s_ad.derivative_source(general(s2s_ad.grad(loop_loss, wrt=(0, 1))))
    assert "shape_of" not in source and "placeholder" not in source
    assert source.count("_tape.append(") == source.count("_tape.pop()")
    for fn, make, wrt in CASES:
        args = make()
        grads = general(s2s_ad.grad(fn, wrt=wrt))(*args)
        for k, g in zip(wrt, grads):
            np.testing.assert_allclose(g, numeric_grad(fn, list(args), k), rtol=1e-5,
                                       atol=1e-7)
