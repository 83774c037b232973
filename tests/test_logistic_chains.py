"""The sigmoid written out, `1.0 / (1.0 + np.exp(-z))`, reversed as one primitive
(ad/composites.py, runtime.written_sigmoid): its adjoint reads p alone, p (1 - p),
so exp(-z) does not live to the backward sweep and the forward sweep builds p in exp's
array. Checked against central differences on both derivative paths (scalars, vectors,
matrices, broadcasting, float32, a loop, a helper, second order), and by the generated
text; chains whose temporaries something else reads, or of another shape, keep the
statement-by-statement adjoint and stay right."""
import warnings

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, hvp_on
from gradcheck import numeric_grad


def brier(z, y, w):
    p = 1.0 / (1.0 + np.exp(-z))
    return np.mean(w * (p - y) ** 2)


def scaled_logit(x, a):
    """z broadcast from two operands; `1 +` (an int) and exp(-z) + 1 on the right"""
    p = 1 / (np.exp(-(x * a)) + 1)
    return np.sum(p * p * x)


def _sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


def gated(h, W, xs):
    """a helper called in a loop (the chain inside the helper's derivative)"""
    for x in xs:
        h = _sigmoid(x @ W) * h + h
    return np.sum(h * h)


def exp_read_twice(z):
    """exp(-z) read again: no chain, the statement-by-statement adjoint"""
    e = np.exp(-z)
    p = 1.0 / (1.0 + e)
    return np.sum(p * e)


def other_numerator(z):
    return np.sum(2.0 / (1.0 + np.exp(-z)) * z)


def no_negation(z):
    return np.sum(1.0 / (1.0 + np.exp(z)) * z)


SHAPES = [(), (5,), (3, 4)]


def _args(f, shape, rng, dtype=np.float64):
    def arr(s, low=-2.0, high=2.0):
        v = rng.uniform(low, high, s)
        return float(v) if s == () else v.astype(dtype)
    if f is brier:
        return [arr(shape), arr(shape, 0.0, 1.0), arr(shape, 0.5, 2.0)]
    if f is scaled_logit:
        return [arr((3, 4) if shape else ()), arr((4,) if shape else ())]
    return [arr(shape)]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("f", [brier, scaled_logit, exp_read_twice, other_numerator,
                               no_negation])
def test_against_central_differences(f, shape, path):
    args = _args(f, shape, np.random.default_rng(7))
    got = grad_on(path, f, 0)(*args)
    assert np.allclose(got, numeric_grad(f, args, 0), rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("path", PATHS)
def test_loop_over_a_helper(path):
    rng = np.random.default_rng(3)
    args = [rng.standard_normal((2, 3)), 0.5 * rng.standard_normal((4, 3)),
            [rng.standard_normal((2, 4)) for _ in range(3)]]
    for k in (0, 1):
        got = grad_on(path, gated, k)(*args)
        assert np.allclose(got, numeric_grad(gated, args, k), rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("path", PATHS)
def test_second_order(path):
    rng = np.random.default_rng(5)
    z, y, w = (rng.uniform(-2, 2, 6), rng.uniform(0, 1, 6), rng.uniform(0.5, 2, 6))
    v = rng.standard_normal(6)
    dbrier = s2s_ad.grad(brier)
    got = hvp_on(path, brier, (z, y, w), v)
    h = 1e-6
    want = (dbrier(z + h * v, y, w) - dbrier(z - h * v, y, w)) / (2 * h)
    assert np.allclose(got, want, rtol=1e-5, atol=1e-8)


def test_float32_kept():
    rng = np.random.default_rng(1)
    args = [a.astype(np.float32) for a in (rng.uniform(-2, 2, (3, 4)), rng.uniform(0, 1, (3, 4)),
                                           rng.uniform(0.5, 2, (3, 4)))]
    got = s2s_ad.grad(brier)(*args)
    assert got.dtype == np.float32
    want = s2s_ad.grad(brier)(*[a.astype(np.float64) for a in args])
    assert np.allclose(got, want, rtol=1e-4, atol=1e-6)


def test_backward_reads_p_alone():
    """exp(-z) is read by nothing after the forward sweep; p is built in its array."""
    rng = np.random.default_rng(2)
    args = [rng.standard_normal((3, 4)) for _ in range(3)]
    df = s2s_ad.grad(brier)
    df(*args)
    text = s2s_ad.derivative_source(df, *args)
    forward, backward = text.split("# grad of:", 1)
    exp_name = forward.split("np.exp(", 1)[1].split(",", 1)[0].split(")", 1)[0]
    assert exp_name not in backward, text
    assert "p = np.divide(1.0, %s, out=%s)" % (exp_name, exp_name) in forward, text
    assert "np.subtract(1.0, p" in backward, text


def test_a_temporary_read_elsewhere_keeps_the_chain_rule():
    args = [np.linspace(-2.0, 2.0, 5)]
    df = s2s_ad.grad(exp_read_twice)
    df(*args)
    text = s2s_ad.derivative_source(df, *args)
    assert "1.0 - p" not in text and "np.subtract(1.0, p" not in text, text


def test_saturated_sigmoid():
    """exp(-z) overflowing to inf (z = -800): p is 0 and so is the derivative, where the
    chain read statement by statement gives 0 * inf = nan; at z = 40 the derivative is
    p (1 - p)'s, within an ulp of 1 of exp(-40)."""
    z = np.array([-800.0, -40.0, 0.0, 40.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = s2s_ad.grad(lambda z: np.sum(_sigmoid(z) * 3.0))(z)
        p = 1.0 / (1.0 + np.exp(-z))
    assert np.all(np.isfinite(got)), got
    assert np.allclose(got, 3.0 * p * (1.0 - p), rtol=0, atol=1e-15)
    assert got[0] == 0.0 and abs(got[3]) <= 3.0 * np.finfo(float).eps


def iterated(h, w):
    """the chain's operand rebound by its own result in a loop"""
    for _ in range(3):
        h = 1.0 / (1.0 + np.exp(-(h * w)))
    return np.sum(h * h)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("shape", [(), (4,)])
def test_rebound_in_a_loop(path, shape):
    rng = np.random.default_rng(9)
    args = [rng.uniform(-2, 2, shape) if shape else 0.7,
            rng.uniform(-2, 2, shape) if shape else 1.3]
    for k in (0, 1):
        got = grad_on(path, iterated, k)(*args)
        assert np.allclose(got, numeric_grad(iterated, args, k), rtol=1e-6, atol=1e-9)
