"""Values a gradient does not need are not computed, also when they circle in a loop,
and the output check still catches a non-scalar output."""
import numpy as np
import pytest

import s2s_ad
from gradcheck import numeric_grad

RNG = np.random.default_rng(5)


def rnn_like(W, h0, xs):
    h = h0
    loss = 0.0
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ W + h)
        loss = loss + np.sum((h - 0.5) ** 2)
    return loss / xs.shape[0]


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
    source = s2s_ad.derivative_source(s2s_ad.grad(rnn_like, wrt=(0, 1)))
    forward = source.split("\n\n")[0]
    assert "np.sum" not in forward and "loss" not in forward
    a = args()
    dW, dh0 = s2s_ad.grad(rnn_like, wrt=(0, 1))(*a)
    np.testing.assert_allclose(dW, numeric_grad(rnn_like, list(a), 0), rtol=1e-5, atol=1e-8)


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
