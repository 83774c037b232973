"""A maximum of two multiples of one value, the pinball loss's
`np.maximum(q * r, (q - 1.0) * r)`, reversed as one primitive (ad/composites.py,
runtime.scaled_pair_maximum): the coefficients are ordered, so the kink is at r = 0 and
the shares are r > 0's; the two products are not computed. Checked against central
differences on both derivative paths (the coefficient a float, a literal, an array, the
operands swapped, the factors' order, q differentiated too), at exact zeros of r against
np.maximum's tie rule, and by the generated text; maxima whose coefficients are not
ordered keep np.maximum's adjoint and stay right."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, grads_against_differences, jvp_on
from gradcheck import numeric_grad


def pinball(w, X, y, q):
    r = y - X @ w
    return np.mean(np.maximum(q * r, (q - 1.0) * r))


def pinball_swapped(r, q):
    """the lower multiple first, r on the left of one product, q - 1 written q + -1"""
    return np.sum(np.maximum(r * (q + -1.0), q * r))


def literal_coefficients(r):
    return np.sum(np.maximum(0.9 * r, -0.1 * r) * r)


def per_column_quantiles(r, q):
    """q an array of quantiles, one per column (broadcast against r)"""
    return np.mean(np.maximum(q * r, (q - 1.0) * r))


def unordered(r, a, b):
    """two unrelated coefficients: np.maximum's own adjoint"""
    return np.sum(np.maximum(a * r, b * r))


def product_read_again(r, q):
    t = q * r
    return np.sum(np.maximum(t, (q - 1.0) * r) + t)


def _data(rng):
    X = rng.standard_normal((30, 3))
    return [rng.standard_normal(3), X, X @ rng.standard_normal(3) + rng.standard_normal(30), 0.3]


CASES = [
    (pinball, _data, (0, 3)),
    (pinball_swapped, lambda rng: [rng.standard_normal((4, 5)), 0.7], (0, 1)),
    (literal_coefficients, lambda rng: [rng.standard_normal(7)], (0,)),
    (per_column_quantiles, lambda rng: [rng.standard_normal((6, 4)), rng.uniform(0.1, 0.9, 4)],
     (0, 1)),
    (unordered, lambda rng: [rng.standard_normal(6), 0.4, 1.3], (0, 1, 2)),
    (product_read_again, lambda rng: [rng.standard_normal(6), 0.25], (0, 1)),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, make, wrt", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_against_central_differences(f, make, wrt, path):
    grads_against_differences(path, f, make(np.random.default_rng(11)), wrt, atol=1e-9)


@pytest.mark.parametrize("path", PATHS)
def test_jvp(path):
    rng = np.random.default_rng(12)
    r, v = rng.standard_normal((4, 5)), rng.standard_normal((4, 5))
    _, got = jvp_on(path, pinball_swapped, (r, 0.7), v)
    h = 1e-6
    want = (pinball_swapped(r + h * v, 0.7) - pinball_swapped(r - h * v, 0.7)) / (2 * h)
    assert np.isclose(got, want, rtol=1e-6)


def test_exact_zeros_share_as_np_maximum_does():
    """At r = 0 the products tie: each gets half, d/dr = (q + (q - 1)) / 2 there."""
    r = np.array([-1.0, 0.0, 2.0, 0.0])
    q = 0.3
    got = s2s_ad.grad(pinball_swapped)(r, q)
    assert np.allclose(got, [q - 1.0, q - 0.5, q, q - 0.5], rtol=0, atol=1e-15)


def test_the_products_are_not_computed():
    args = _data(np.random.default_rng(13))
    df = s2s_ad.grad(pinball)
    df(*args)
    text = s2s_ad.derivative_source(df, *args)
    assert "q * r" not in text.split('"""')[2].split("# grad of")[0], text   # forward sweep
    assert "kink_share(1.0 / y.size, r, 0.0, True" in text, text


def test_unordered_coefficients_keep_the_products():
    args = [np.linspace(-1, 1, 6), 0.4, 1.3]
    df = s2s_ad.grad(unordered)
    df(*args)
    assert "kink_share(1.0, r, 0.0" not in s2s_ad.derivative_source(df, *args)


def quantile_steps(r, q):
    """r rebound after each maximum: what the backward sweep reads of r is restored"""
    total = 0.0
    for _ in range(3):
        total = total + np.sum(np.maximum(q * r, (q - 1.0) * r))
        r = r * 0.5 - 0.1
    return total


@pytest.mark.parametrize("path", PATHS)
def test_in_a_loop(path):
    args = [np.random.default_rng(14).standard_normal(7), 0.35]
    for k in (0, 1):
        got = grad_on(path, quantile_steps, k)(*args)
        assert np.allclose(got, numeric_grad(quantile_steps, args, k), rtol=1e-6, atol=1e-9)
