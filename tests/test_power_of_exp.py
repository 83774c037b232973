"""A power of an exponential, `mu = np.exp(eta)` then `mu ** c` (a Tweedie loss's
`mu ** (1.0 - p)`), reversed as one primitive (ad/composites.py, runtime.power_of_exp):
its adjoint takes one exp, c exp(c eta), where the pow's rule took a pow and exp's a
product. Checked against central differences on both derivative paths (a float exponent,
an array of exponents, the exponent differentiated, mu read elsewhere too, in a loop), and
by the generated text: no pow is left, and an integer power keeps its products."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grads_against_differences


def tweedie(eta, y, power):
    mu = np.exp(eta)
    return np.mean(-y * mu ** (1.0 - power) / (1.0 - power) + mu ** (2.0 - power) / (2.0 - power))


def read_elsewhere(x, c):
    """mu read by the power and by a product: both paths reach x"""
    mu = np.exp(x)
    return np.sum(mu ** c + mu * x)


def per_column_exponents(x, c):
    mu = np.exp(x)
    return np.sum(mu ** c)


def squared(x):
    """an integer power: its products, not an exp"""
    sigma = np.exp(x)
    return np.sum(sigma ** 2)


def in_a_loop(x, c):
    total = 0.0
    for _ in range(3):
        mu = np.exp(x)
        total = total + np.sum(mu ** c)
        x = 0.5 * x + 0.1
    return total


CASES = [
    (tweedie, lambda rng: [0.5 * rng.standard_normal((4, 5)), rng.random((4, 5)), 1.5], (0, 2)),
    (read_elsewhere, lambda rng: [0.5 * rng.standard_normal(6), 0.7], (0, 1)),
    (per_column_exponents, lambda rng: [0.5 * rng.standard_normal((3, 4)),
                                        rng.uniform(-1.0, 1.0, 4)], (0, 1)),
    (squared, lambda rng: [0.5 * rng.standard_normal(5)], (0,)),
    (in_a_loop, lambda rng: [0.5 * rng.standard_normal(5), 0.3], (0, 1)),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, make, wrt", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_against_central_differences(f, make, wrt, path):
    grads_against_differences(path, f, make(np.random.default_rng(21)), wrt, atol=1e-9)


def _backward(f, *args):
    """The code after the forward sweep, its provenance comments (quoting f) left out."""
    df = s2s_ad.grad(f)
    df(*args)
    lines = s2s_ad.derivative_source(df, *args).split("\n\n", 1)[1].splitlines()
    return "\n".join(line for line in lines if not line.strip().startswith("#"))


def test_no_pow_is_left():
    rng = np.random.default_rng(22)
    text = _backward(tweedie, 0.5 * rng.standard_normal(8), rng.random(8), 1.5)
    assert "**" not in text and text.count("np.exp(") == 2, text


def test_an_integer_power_keeps_its_products():
    text = _backward(squared, np.linspace(-1.0, 1.0, 6))
    assert "np.exp(" not in text and "sigma" in text, text


@pytest.mark.parametrize("path", PATHS)
def test_hessian_vector_product(path):
    from derivative_paths import hvp_on
    rng = np.random.default_rng(23)
    eta, y, v = 0.5 * rng.standard_normal(6), rng.random(6), rng.standard_normal(6)
    got = hvp_on(path, tweedie, (eta, y, 1.5), v)
    dg = s2s_ad.grad(tweedie)
    h = 1e-6
    want = (dg(eta + h * v, y, 1.5) - dg(eta - h * v, y, 1.5)) / (2 * h)
    assert np.allclose(got, want, rtol=1e-5, atol=1e-8)
