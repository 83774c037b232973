"""Array gradients without passes a hand-written one does not make (issue 13, speed): a
shared scale such as a mean's 1 / N is one factor of the one array expression (optimize/
fold.py), `1.0 / t * x` is `x / t`, `a + -b` is `a - b`, an array a reduction reads may take
a later result in place (optimize/buffers.py), a whole-array max's adjoint is g at one place
of zeros (runtime_reductions.unreduce_extremum); on both derivative paths, in float32 too."""

import numpy as np
import pytest

import s2s_ad
from golden_files import assert_matches_golden
from derivative_paths import PATHS, grad_on
from gradcheck import numeric_grad
from s2s_ad.runtime import _FEW, logistic
from s2s_ad.runtime_reductions import unreduce_extremum

RNG = np.random.default_rng(13)


def softplus_logistic(w, X, y):
    z = X @ w
    return np.mean(np.logaddexp(0.0, z) - y * z)


def log_sum_exp(z):
    m = np.max(z)
    return m + np.log(np.sum(np.exp(z - m)))


def scaled_difference(a, b):
    """Both terms scaled by the same mean: (a - b) broadcast over b's rows."""
    return np.mean(np.tanh(a) - a * b)


def _source(f, wrt, *args):
    df = s2s_ad.grad(f, wrt=wrt)
    df(*args)
    return s2s_ad.derivative_source(df, *args)


def _problem(dtype=np.float64):
    X = RNG.normal(size=(7, 3)).astype(dtype)
    return RNG.normal(size=3).astype(dtype), X, (RNG.random(7) < 0.5).astype(dtype)


GOLDEN = {
    # before: t2_0 = np.logaddexp(0.0, z), z_bar = np.exp(z - t2_0), z_bar *= 1.0 / y.size,
    # z_bar_part = 1.0 / y.size * y, z_bar -= z_bar_part
    "shared_scale_softplus_logistic": lambda: _source(softplus_logistic, 0, *_problem()),
    # before: t2_0_bar = 1.0 / t4_0 * t3_0 (a new array) and m_bar = 1.0 + -np.sum(...)
    "shared_scale_log_sum_exp": lambda: _source(log_sum_exp, 0, np.arange(5.0)),
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_generated_source_matches_golden(name):
    """Held byte for byte in tests/golden/ (golden_files.py)."""
    assert_matches_golden(name, GOLDEN[name]())


def test_the_mean_scales_the_difference_once():
    source = _source(softplus_logistic, 0, *_problem())
    # (in the array logistic() returned: optimize/buffers.py)
    assert "z_bar -= y\n    z_bar /= y.size" in source
    assert "_part" not in source and "1.0 /" not in source


def test_a_gradient_does_not_compute_logaddexp():
    """Its derivative is the logistic function of the difference: the gradient needs
    neither np.logaddexp's value nor its cost."""
    source = _source(softplus_logistic, 0, *_problem())
    code = [line for line in source.split('"""')[2].splitlines()
            if not line.strip().startswith("#")]
    assert not any("logaddexp" in line for line in code) and "logistic(z, 0.0)" in source


def test_the_normalised_exponentials_are_divided_in_place():
    source = _source(log_sum_exp, 0, RNG.normal(size=6))
    assert "np.divide(t3_0, t4_0, out=t3_0)" in source
    assert "+ -" not in source


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_softplus_logistic_gradient(path, dtype):
    args = _problem(dtype)
    got = grad_on(path, softplus_logistic)(*args)
    assert got.dtype == dtype
    expected = numeric_grad(softplus_logistic, tuple(a.astype(float) for a in args), 0)
    tolerance = 1e-6 if dtype == np.float64 else 1e-4
    np.testing.assert_allclose(got, expected, rtol=tolerance, atol=tolerance)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("z", [np.array([0.3, -1.2, 2.5, 2.5, 0.0]),    # a tied max
                               np.array([0.3, -1.2, 2.5, 1.0]),
                               np.array([[0.3, 4.0], [-1.0, 2.0]])])
def test_log_sum_exp_gradient(path, z):
    got = grad_on(path, log_sum_exp)(z)
    np.testing.assert_allclose(got, numeric_grad(log_sum_exp, (z,), 0), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(np.sum(got), 1.0)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("shapes", [((3,), (4, 3)), ((4, 1), (4, 3)), ((2, 3), (2, 3))])
def test_a_shared_scale_over_broadcasting_shapes(path, shapes):
    a, b = (RNG.normal(size=s) for s in shapes)
    got = grad_on(path, scaled_difference, (0, 1))(a, b)
    for k in (0, 1):
        assert got[k].shape == (a, b)[k].shape
        np.testing.assert_allclose(got[k], numeric_grad(scaled_difference, (a, b), k),
                                   rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("x", [np.array([1.0, 3.0, 2.0]), np.array([[1.0, 5.0, 2.0]]),
                               np.array(4.0)])
def test_a_single_maximum_takes_the_whole_adjoint(x, dtype):
    x = x.astype(dtype)
    got = unreduce_extremum(dtype(0.5), x, np.max(x))
    expected = np.where(x == np.max(x), dtype(0.5), dtype(0.0))
    assert got.dtype == dtype and np.shape(got) == np.shape(x)
    np.testing.assert_array_equal(got, expected)


def accumulated_difference(W, xs):
    s = 0.0
    for x in xs:
        s = s - np.sum(np.tanh(W @ x))
    return s


@pytest.mark.parametrize("path", PATHS)
def test_a_difference_accumulated_in_a_loop(path):
    W = RNG.normal(size=(3, 2))
    xs = [RNG.normal(size=2) for _ in range(4)]
    got = grad_on(path, accumulated_difference)(W, xs)
    np.testing.assert_allclose(got, numeric_grad(accumulated_difference, (W, xs), 0),
                               rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("size", [7, _FEW + 3])           # both of logistic's paths
def test_logistic_is_exact_at_both_ends_and_keeps_float32(dtype, size):
    x = np.linspace(-120.0, 120.0, size).astype(dtype)
    with np.errstate(over="raise", divide="raise", invalid="raise"):    # no overflow
        got = logistic(x)
    expected = 1.0 / (1.0 + np.exp(-x.astype(np.longdouble)))
    assert got.dtype == dtype and got.shape == x.shape
    tiny = np.finfo(dtype).tiny
    np.testing.assert_allclose(got[expected > tiny], expected[expected > tiny].astype(dtype),
                               rtol=4 * np.finfo(dtype).eps)
    assert type(logistic(dtype(-3.0))) is dtype and logistic(0.0) == 0.5
