"""optimize/reuse.py: backward arithmetic that the forward sweep already computed reads the
forward temporary (before/after sources of the pass, and what it must leave alone)."""
import textwrap

import gast
import numpy as np
import pytest

import s2s_ad
from s2s_ad.backend.emit import to_source
from s2s_ad.optimize.reuse import reuse_forward_values


def _run(source):
    body = gast.parse(textwrap.dedent(source)).body
    pure = lambda call: gast.dump(call.func).find("np") >= 0          # noqa: E731
    out, changed = reuse_forward_values(body, pure)
    text = to_source(gast.Module(body=out, type_ignores=[]))
    return text.replace("__s2s_blank__()\n", "\n"), changed


BEFORE = """
t4_0 = 0.5 * z
t5_0 = np.exp(t4_0)
__s2s_blank__()
z_bar = z * 0.5 + t4_0
w_bar = g * np.exp(t4_0)
return z_bar, w_bar
"""

AFTER = """t4_0 = 0.5 * z
t5_0 = np.exp(t4_0)

z_bar = t4_0 + t4_0
w_bar = g * t5_0
return z_bar, w_bar
"""


def test_forward_values_are_read_not_recomputed():
    assert _run(BEFORE) == (AFTER, True)


def test_a_users_mean_is_read_by_the_centring_of_a_variance_adjoint():
    before = """
mu = np.mean(x, axis=-1, keepdims=True)
xc = x - mu
__s2s_blank__()
x_bar = g * (x - np.mean(x, keepdims=True, axis=-1))
return x_bar
"""
    after = """mu = np.mean(x, axis=-1, keepdims=True)
xc = x - mu

x_bar = g * xc
return x_bar
"""
    assert _run(before) == (after, True)


@pytest.mark.parametrize("source", [
    # a whole assigned value: z_bar would be t4_0's array, written by `+=`
    "t4_0 = 0.5 * z\n__s2s_blank__()\nz_bar = z * 0.5\nz_bar += g\nreturn z_bar\n",
    # z rebound after t4_0 was computed: not the same value
    "t4_0 = 0.5 * z\nz = z + 1.0\n__s2s_blank__()\nz_bar = g + z * 0.5\nreturn z_bar\n",
    # the temporary is written into
    "t4_0 = 0.5 * z\nt4_0[0] = 1.0\n__s2s_blank__()\nz_bar = g + z * 0.5\nreturn z_bar\n",
    # subtraction does not commute
    "t4_0 = a - b\n__s2s_blank__()\nb_bar = g + (b - a)\nreturn b_bar\n",
    # inside a loop, the forward value changes every iteration
    "for i in r:\n    t4_0 = 0.5 * z\n__s2s_blank__()\nz_bar = g + z * 0.5\nreturn z_bar\n",
    # another keyword: not the same value
    "mu = np.mean(x, axis=-1, keepdims=True)\n__s2s_blank__()\n"
    "x_bar = g * (x - np.mean(x, axis=-1))\nreturn x_bar\n",
    # a keyword that is not a literal
    "mu = np.mean(x, axis=k)\n__s2s_blank__()\nx_bar = g * (x - np.mean(x, axis=k))\n"
    "return x_bar\n",
])
def test_left_alone(source):
    assert _run(source)[1] is False


def logistic_like(x):
    s = 2.0 * x
    return np.sum(s * x)                 # x's adjoint: g * s + g * 2.0 * x: 2.0 * x is s


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_gradient_is_unchanged_bit_for_bit(dtype):
    x = np.linspace(-1.0, 1.0, 7).astype(dtype)
    got = s2s_ad.grad(logistic_like)(x)
    assert got.dtype == dtype
    s = 2.0 * x
    np.testing.assert_array_equal(got, s + s)
