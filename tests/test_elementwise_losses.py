"""Elementwise losses as users write them: the gradient's arrays and passes against a
hand-written one (optimize/quotients.py, the closed forms' reads of forward values in
optimize/closed_form_render.py), on both derivative paths."""
import math
import tracemalloc

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on
from gradcheck import assert_grad_matches


def log_cosh(pred, target):
    return np.mean(np.log(np.cosh(pred - target)))


def log_cos(x):
    return np.sum(np.log(np.cos(x)))


def log_cosh_times(x):
    return np.sum(np.log(np.cosh(x)) * x)      # the cosh's log is still needed forward


def log_cosh_number(x):
    return math.log(math.cosh(x)) * 2.0


def gaussian_nll(mu, log_sigma, y):
    z = (y - mu) * np.exp(-log_sigma)
    return np.sum(0.5 * z * z + log_sigma)


def _peak(fn, *args):
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        fn(*args)
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("path", PATHS)
def test_log_cosh_gradient_is_tanh(path):
    rng = np.random.default_rng(0)
    pred, target = rng.standard_normal((3, 4, 5)), rng.standard_normal((3, 4, 5))
    got = grad_on(path, log_cosh)(pred, target)
    np.testing.assert_allclose(got, np.tanh(pred - target) / pred.size, rtol=1e-13)
    assert_grad_matches(log_cosh, (pred, target), 0, path=path)


def test_log_cosh_keeps_one_array_and_no_cosh():
    rng = np.random.default_rng(1)
    pred, target = rng.standard_normal(100_000), rng.standard_normal(100_000)
    df = s2s_ad.grad(log_cosh)
    source = s2s_ad.derivative_source(df, pred, target)
    assert "np.tanh(" in source and "cosh" not in source.split('"""')[-1].replace(
        "np.log(np.cosh(pred - target))", "")
    df(pred, target)
    assert _peak(df, pred, target) <= pred.nbytes + 10_000     # the hand-written one's


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, x", [(log_cos, np.linspace(-1.2, 1.3, 7)),
                                  (log_cosh_times, np.linspace(-2.0, 3.0, 6))],
                         ids=["log_cos", "log_cosh_times"])
def test_quotients_against_differences(path, f, x):
    assert_grad_matches(f, (x,), 0, path=path)


def test_log_cos_reads_tan():
    x = np.linspace(-1.0, 1.0, 5)
    df = s2s_ad.grad(log_cos)
    np.testing.assert_allclose(df(x), -np.tan(x), rtol=1e-13)
    assert "np.tan(x)" in s2s_ad.derivative_source(df, x)


def test_log_cosh_far_out_is_finite():
    """sinh(u) / cosh(u) is inf / inf = nan past |u| ~ 710; tanh(u) is +-1."""
    x = np.array([-800.0, 0.5, 800.0])
    with np.errstate(over="ignore"):
        g = s2s_ad.grad(log_cosh_times)(x)
    assert np.isfinite(g[1]) and g[1] == pytest.approx(
        np.tanh(0.5) * 0.5 + np.log(np.cosh(0.5)))
    assert not np.isnan(g[0]) and not np.isnan(g[2])


def test_number_code_and_second_order():
    assert s2s_ad.grad(log_cosh_number)(0.7) == pytest.approx(2.0 * math.tanh(0.7))
    x = np.linspace(-1.0, 1.0, 4)
    v = np.linspace(0.5, 1.5, 4)
    # d^2/dx^2 sum(log(cosh(x)) * x) = 2 tanh(x) + x (1 - tanh(x)^2), diagonal
    t = np.tanh(x)
    np.testing.assert_allclose(s2s_ad.hvp(log_cosh_times)(x, v),
                               (2 * t + x * (1 - t * t)) * v, rtol=1e-10)


@pytest.mark.parametrize("path", PATHS)
def test_gaussian_nll_closed_form(path):
    rng = np.random.default_rng(2)
    mu, s, y = rng.standard_normal((3, 6, 5))
    g_mu, g_s = grad_on(path, gaussian_nll, (0, 1))(mu, s, y)
    z = (y - mu) * np.exp(-s)
    np.testing.assert_allclose(g_mu, -z * np.exp(-s), rtol=1e-12)
    np.testing.assert_allclose(g_s, 1.0 - z * z, rtol=1e-12)
    assert_grad_matches(gaussian_nll, (mu, s, y), (0, 1), path=path)


def test_gaussian_nll_keeps_three_arrays():
    """The hand-written gradient keeps three arrays of the arguments' size alive; the
    closed form reads z (`1.0 - z * z`) instead of expanding (y - mu)**2 e**2, so the
    generated one does too (four before)."""
    rng = np.random.default_rng(3)
    mu, s, y = rng.standard_normal((3, 200, 500))
    df = s2s_ad.grad(gaussian_nll, (0, 1))
    source = s2s_ad.derivative_source(df, mu, s, y)
    assert "np.multiply(z, z" in source or "= z * z" in source
    assert "mu) ** 2" not in source
    df(mu, s, y)
    assert _peak(df, mu, s, y) <= 3 * mu.nbytes + 10_000


def huber(r, delta):
    a = np.abs(r)
    return np.mean(np.where(a <= delta, 0.5 * r ** 2, delta * (a - 0.5 * delta)))


def leaky(x):
    return np.sum(np.where(x > 0.0, x, 0.01 * x) * x)


def log_branch(x):
    # the branch not taken is inf or nan where x <= 0: its adjoint must not leak
    return np.sum(np.where(x > 0.0, np.log(x), x))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, args", [
    (huber, (np.linspace(-3.0, 3.0, 11) + 0.05, 1.0)),
    (leaky, (np.linspace(-2.0, 2.0, 9) + 0.1,)),
], ids=["huber", "leaky"])
def test_where_branches_against_differences(path, f, args):
    assert_grad_matches(f, args, 0, path=path)


def test_huber_adjoint_is_one_where():
    r = np.linspace(-3.0, 3.0, 7) + 0.1
    df = s2s_ad.grad(huber)
    source = s2s_ad.derivative_source(df, r, 1.0)
    code = [line for line in source.splitlines() if not line.strip().startswith("#")]
    # delta > 0, guarded (sign_facts.py): the where of the two branches is the clip itself
    assert sum(line.count("np.where(") for line in code) == 0
    assert "np.clip(r, -delta, delta" in source and not any("+=" in line for line in code)
    np.testing.assert_allclose(df(r, 1.0), np.clip(r, -1.0, 1.0) / r.size, rtol=1e-14)
    # a threshold not known positive: one where
    source = s2s_ad.derivative_source(df, r, -1.0)
    code = [line for line in source.splitlines() if not line.strip().startswith("#")]
    assert sum(line.count("np.where(") for line in code) == 1
    assert not any("+=" in line for line in code)
    np.testing.assert_allclose(df(r, -1.0), -np.sign(r) / r.size, rtol=1e-14)


def test_where_branch_not_taken_gives_no_nan():
    x = np.array([-1.0, 0.0, 2.0])
    with np.errstate(divide="ignore", invalid="ignore"):
        g = s2s_ad.grad(log_branch)(x)
    np.testing.assert_allclose(g, [1.0, 1.0, 0.5])


def test_where_merge_keeps_float32():
    r = np.linspace(-3.0, 3.0, 8).astype(np.float32)
    g = s2s_ad.grad(huber)(r, 1.0)
    assert g.dtype == np.float32
    np.testing.assert_allclose(g, np.clip(r, -1.0, 1.0) / r.size, rtol=1e-6)


def weighted_bce(x, y, a):
    p = 1.0 / (1.0 + np.exp(-x))
    return np.sum(a * y * np.log(p) + (1.0 - y) * np.log(1.0 - p))


@pytest.mark.parametrize("path", PATHS)
def test_closed_form_with_a_float_parameter(path):
    """A float parameter scales the arrays; the closed form still applies (it took `a` for
    an array of another shape before)."""
    x, y = np.linspace(-1.0, 1.0, 5), np.linspace(0.0, 1.0, 5)
    e = np.exp(-x)
    np.testing.assert_allclose(grad_on(path, weighted_bce)(x, y, 0.7),
                               (0.7 * e * y + y - 1.0) / (1.0 + e), rtol=1e-12)
    assert_grad_matches(weighted_bce, (x, y, 0.7), 0, path=path)
    if path == "specialised":
        assert "closed form" in s2s_ad.derivative_source(s2s_ad.grad(weighted_bce), x, y, 0.7)


def pinball(r, q):
    return np.mean(np.maximum(q * r, (q - 1.0) * r))


def clipped(x):
    return np.sum(np.minimum(x, 1.0))


@pytest.mark.parametrize("path", PATHS)
def test_maximum_under_a_mean_against_differences(path):
    r = np.linspace(-2.0, 2.0, 8) + 0.05
    assert_grad_matches(pinball, (r, 0.8), 0, path=path)


def test_maximum_keeps_the_mean_a_number():
    """np.maximum's adjoint takes the mean's 1 / n as the number it is: no array of it."""
    r = np.linspace(-2.0, 2.0, 8) + 0.05
    df = s2s_ad.grad(pinball)
    assert "unreduce" not in s2s_ad.derivative_source(df, r, 0.8)
    np.testing.assert_allclose(df(r, 0.8), np.where(r > 0, 0.8, -0.2) / r.size, rtol=1e-14)


def test_minimum_ties_and_float32():
    x = np.array([0.5, 1.0, 2.0])                 # a tie at 1.0 takes half
    np.testing.assert_array_equal(s2s_ad.grad(clipped)(x), [1.0, 0.5, 0.0])
    g = s2s_ad.grad(clipped)(x.astype(np.float32))
    assert g.dtype == np.float32
    np.testing.assert_array_equal(g, [1.0, 0.5, 0.0])
    r = np.array([-1.0, 0.0, 1.0], dtype=np.float32)
    g = s2s_ad.grad(pinball)(r, 0.8)
    assert g.dtype == np.float32
    np.testing.assert_allclose(g, np.array([-0.2, 0.3, 0.8]) / 3, rtol=1e-6)


def _merged(source):
    import gast
    from s2s_ad.ir import build
    from s2s_ad.optimize.where_sums import merge_where_sums
    statements = gast.parse(source).body
    body = statements[:1] + [build.blank_line()] + statements[1:]
    return merge_where_sums(body, {"np": np}.get)[1]


def test_where_sums_never_move_a_tape_pop():
    """The second contribution is evaluated where the first one was: only when that
    changes nothing (no pop moved past another)."""
    assert _merged("c = a > 0.0\nv = np.where(c, s, 0.0) * a\nv += np.where(c, 0.0, s) * b\n"
                   "return v")
    assert not _merged("c = a > 0.0\nv = np.where(c, s, 0.0) * a\nq = _tape.pop()\n"
                       "v += np.where(c, 0.0, s) * _tape.pop()\nreturn v")
    assert not _merged("c = a > 0.0\nv = np.where(c, s, 0.0) * a\nb = q * 2.0\n"
                       "v += np.where(c, 0.0, s) * b\nreturn v")      # b rebound between
