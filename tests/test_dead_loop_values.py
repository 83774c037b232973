"""Values a gradient does not need are not computed, also when they circle in a loop,
and the output check still catches a non-scalar output."""
import numpy as np
import pytest

import s2s_ad
from gradcheck import numeric_grad

RNG = np.random.default_rng(5)


def rnn_like(W, h0, xs):
    state, loss, steps = h0, 0.0, len(xs)
    for x in xs:
        state = 0.5 * state + np.tanh(x @ W)
        loss += np.mean(state ** 2) / steps
    return loss


def vector_accumulator(x):
    acc = 0.0
    for _ in range(3):
        acc = acc + np.sin(x)            # an array: not a scalar output
    return acc


def with_effects(x):
    total = 0.0
    for _ in range(2):
        total = total + np.sum(x ** 2)
        print("step")                    # kept: a call with effects
    return total


def args():
    return (RNG.standard_normal((3, 3)) * 0.5, RNG.standard_normal((2, 3)),
            RNG.standard_normal((4, 2, 3)))


def test_the_loss_accumulator_is_not_computed_for_the_gradient():
    source = s2s_ad.derivative_source(s2s_ad.grad(rnn_like))
    forward = source.split("\n\n")[0]
    assert "np.mean" not in forward and "loss" not in forward


@pytest.mark.parametrize("wrt", [0, (0, 1), (1,)])
def test_gradients_through_the_pruned_loop(wrt):
    a = args()
    grads = s2s_ad.grad(rnn_like, wrt=wrt)(*a)
    grads = grads if isinstance(grads, tuple) else (grads,)
    for k, g in zip(wrt if isinstance(wrt, tuple) else (wrt,), grads):
        np.testing.assert_allclose(g, numeric_grad(rnn_like, list(a), k), rtol=1e-5, atol=1e-8)


def test_value_and_grad_still_computes_the_loss():
    a = args()
    value, dW = s2s_ad.value_and_grad(rnn_like)(*a)
    assert value == pytest.approx(rnn_like(*a))
    np.testing.assert_allclose(dW, numeric_grad(rnn_like, list(a), 0), rtol=1e-5, atol=1e-8)


def test_an_array_accumulator_is_still_reported_as_a_non_scalar_output():
    with pytest.raises(s2s_ad.NonScalarOutputError):
        s2s_ad.grad(vector_accumulator)(np.ones(3))


def test_calls_with_effects_stay(capsys):
    g = s2s_ad.grad(with_effects)(np.array([1.0, 2.0]))
    np.testing.assert_allclose(g, [4.0, 8.0])
    assert capsys.readouterr().out.count("step") == 2


def scalar_loop(x, a):
    y = x
    for _ in range(4):
        y = a * y + np.sin(y)
    return y


@pytest.mark.parametrize("x, a", [(0.3, 0.8), (np.array([0.3, -1.2]), 0.8)])
def test_the_returned_value_is_not_a_restored_earlier_one(x, a):
    """The backward sweep restores a loop variable to its earlier values: the value
    returned beside the gradient must be the final one."""
    expected = scalar_loop(x, a)
    f = scalar_loop if np.ndim(x) == 0 else (lambda x, a: np.sum(scalar_loop(x, a)))
    if np.ndim(x) == 0:
        value, _ = s2s_ad.value_and_grad(f)(x, a)
        kept, _ = s2s_ad.grad(f, preserve_result=True)(x, a)
        assert value == pytest.approx(expected) and kept == pytest.approx(expected)
    else:
        value, _ = s2s_ad.value_and_grad(_summed)(x, a)
        assert value == pytest.approx(np.sum(expected))


def _summed(x, a):
    y = x
    for _ in range(4):
        y = a * y + np.sin(y)
    return np.sum(y)


def _mean_by_shape(x):
    return np.sum(x ** 2) / x.shape[0] + np.sum(x) / x.size


def _array_by_shape(x):
    return x / x.shape[0]


def test_sizes_and_shape_entries_are_known_scalars():
    source = s2s_ad.derivative_source(s2s_ad.grad(_mean_by_shape))
    assert "check_scalar_output" not in source
    x = np.array([0.5, -1.0, 2.0])
    np.testing.assert_allclose(s2s_ad.grad(_mean_by_shape)(x), 2 * x / 3 + 1 / 3)
    with pytest.raises(s2s_ad.NonScalarOutputError):
        s2s_ad.grad(_array_by_shape)(x)
