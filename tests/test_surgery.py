"""Derivative surgery: stop_gradient and insert_grad_of."""
import io
import os
import sys
from contextlib import redirect_stdout

import numpy as np
import pytest

import s2s_ad
from s2s_ad import stop_gradient

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "examples"))
import rnn  # noqa: E402
import rnn_clipping  # noqa: E402


def half_stopped(x):
    return np.sum(x * s2s_ad.stop_gradient(x)) + np.sum(stop_gradient(x) ** 2)


def scaled_in_backward(x):
    y = x * 3.0
    with s2s_ad.insert_grad_of(y) as dy:
        dy = dy * 0.5
    return np.sum(y)


def printed_in_backward(x):
    y = np.sin(x)
    with s2s_ad.insert_grad_of(y) as dy:
        print("dy =", dy)
    return np.sum(y * 2.0)


def test_stop_gradient_passes_the_value_and_blocks_the_gradient():
    x = np.arange(3.0)
    assert half_stopped(x) == pytest.approx(2 * np.sum(x * x))
    np.testing.assert_allclose(s2s_ad.grad(half_stopped)(x), x)


def test_insert_grad_of_replaces_the_adjoint():
    np.testing.assert_allclose(s2s_ad.grad(scaled_in_backward)(np.ones(2)), 1.5)
    assert scaled_in_backward(np.ones(2)) == 6.0        # plain calls still work


def test_insert_grad_of_block_runs_in_the_backward_sweep():
    df = s2s_ad.grad(printed_in_backward)
    buffer = io.StringIO()
    with redirect_stdout(buffer):
        g = df(np.zeros(2))
    assert "dy = [2. 2.]" in buffer.getvalue()
    np.testing.assert_allclose(g, 2.0)


def test_clipping_an_rnn_bounds_its_gradient_and_is_a_no_op_with_a_wide_clip():
    Wxh, Whh, bh, Why, by, h0, xs, ys = rnn.make_problem(hidden=6, steps=12, batch=4)
    args = (Wxh, Whh * 6.0, bh, Why, by, h0, xs, ys)
    plain = s2s_ad.grad(rnn.rnn_loss, wrt=1)(*args)
    clipped = s2s_ad.grad(rnn_clipping.clipped_rnn_loss, wrt=1)(*args)
    assert np.linalg.norm(clipped) < np.linalg.norm(plain)
    old = rnn_clipping.CLIP
    try:
        rnn_clipping.CLIP = 1e9                       # globals are read live
        wide = s2s_ad.grad(rnn_clipping.clipped_rnn_loss, wrt=1)(*args)
    finally:
        rnn_clipping.CLIP = old
    np.testing.assert_allclose(wide, plain, rtol=1e-10)
