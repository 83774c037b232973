"""A kink share that is its whole g: g vanishes wherever np.maximum / np.minimum picks the
other operand, so the mask goes (optimize/kink_zeros.py whole_share, read by
optimize/closed_forms.py)."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import grad_on
from gradcheck import numeric_grad


def eps_insensitive_sq(pred, target):
    """A support-vector regression's squared epsilon-insensitive loss, a tube of 0.1."""
    e = np.maximum(np.abs(pred - target) - 0.1, 0.0)
    return np.mean(e * e)


def squared_relu_gap(x, y):
    """A one-sided penalty: only the excess of x over y + 1 counts, squared."""
    return np.sum(np.maximum(x - y - 1.0, 0.0) ** 2) / 2.0


def capped_gain(x):
    """np.minimum's mirror: the shortfall below -0.5 (min(x + 0.5, 0)), cubed."""
    return np.sum(np.minimum(0.0, x + 0.5) ** 3)


# g does not vanish where the extremum picks the other operand: the mask stays
def floored_square(x):
    return np.sum(np.maximum(x, 0.5) ** 2)


def weighted_relu(x, y):
    return np.sum(np.maximum(x, 0.0) * y)


def _args(n, shape):
    rng = np.random.default_rng(11)
    args = tuple(2.0 * rng.standard_normal(shape) for _ in range(n))
    args[0].flat[0] = 1.1 if n == 1 else args[1].flat[0] + 1.0   # at a kink (a tie)
    return args


def _source(f, args):
    df = s2s_ad.grad(f)
    df(*args)
    return s2s_ad.derivative_source(df, *args)


@pytest.mark.parametrize("shape", [(7,), (4, 5)])
@pytest.mark.parametrize("f, n", [(eps_insensitive_sq, 2), (squared_relu_gap, 2),
                                  (capped_gain, 1)])
def test_whole_share_drops_the_mask(f, n, shape):
    args = _args(n, shape)
    text = _source(f, args)
    assert "kink_share(" not in text and "closed form" in text, text
    got = s2s_ad.grad(f)(*args)
    np.testing.assert_allclose(got, numeric_grad(f, args, 0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got, grad_on("general", f)(*args), rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("f, n", [(floored_square, 1), (weighted_relu, 2)])
def test_share_kept_where_g_does_not_vanish(f, n):
    args = _args(n, (6,))
    args[0][1] = 0.5 if f is floored_square else 0.0     # a tie: half the share
    text = _source(f, args)
    assert "kink_share(" in text, text
    np.testing.assert_allclose(s2s_ad.grad(f)(*args), grad_on("general", f)(*args),
                               rtol=1e-13)


def test_nan_where_the_operand_is_nan():
    x = np.array([np.nan, 3.0, -1.0, 0.0])
    y = np.zeros(4)
    got = s2s_ad.grad(squared_relu_gap)(x, y)
    np.testing.assert_array_equal(got, [np.nan, 2.0, 0.0, 0.0])
