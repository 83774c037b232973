"""A Python float argument known > 0, a fact the dispatcher guards (s2s_ad/sign_facts.py),
read where a derivative's form depends on it (optimize/sign_products.py: a threshold of
np.minimum(|r|, beta), np.maximum(|r| - eps, 0) or np.where(|r| <= delta, ...) makes the
adjoint a clip). Every gradient is checked against central differences on both paths,
with signs changing between calls of one function object."""
import math

import numpy as np
import pytest

import s2s_ad
from gradcheck import numeric_grad
from paths import fresh
from s2s_ad.derivative_registry import dispatcher_of
from s2s_ad.sign_facts import PositiveNum, accepts, kept, settled
from s2s_ad.signature import Num


def smooth_l1_fit(w, X, y, beta):
    r = X @ w - y
    d = np.abs(r)
    m = np.minimum(d, beta)
    return np.mean(m * (d - 0.5 * m)) / beta


def huber_where(w, X, y, delta):
    r = X @ w - y
    a = np.abs(r)
    return np.mean(np.where(a <= delta, 0.5 * r ** 2, delta * (a - 0.5 * delta)))


def dead_zone(r, eps):
    return np.mean(np.maximum(np.abs(r) - eps, 0.0) ** 2)


def huber_minimum_first(w, X, y, delta):
    """The threshold first, the mask reversed: np.minimum(delta, |r|)."""
    a = np.abs(X @ w - y)
    q = np.minimum(delta, a)
    return np.mean(0.5 * q * q + delta * (a - q))


def pinball_maximum(w, X, y, tau):
    d = y - X @ w
    return np.mean(np.maximum(tau * d, (tau - 1.0) * d))


def pinball_where(w, X, y, tau):
    d = y - X @ w
    return np.mean(np.where(d >= 0.0, tau * d, (tau - 1.0) * d))


def torch_smooth_l1(w, X, y, beta):
    """PyTorch's definition: quadratic over beta inside, |r| - beta / 2 outside (no clip is
    the same numbers there: beta * (1 / (n beta)) need not round to 1 / n)."""
    d = np.abs(X @ w - y)
    return np.mean(np.where(d < beta, 0.5 * d ** 2 / beta, d - 0.5 * beta))


def huber_scalar_if(a, b, xs, ys, delta):
    """The kink written as a Python `if` on a float."""
    total = 0.0
    for x, y in zip(xs, ys):
        r = a * x + b - y
        if abs(r) <= delta:
            total += 0.5 * r * r
        else:
            total += delta * (abs(r) - 0.5 * delta)
    return total


def two_thresholds(r, s, lo, hi):
    """Dead zones of two half-widths (copysign needs each >= 0: zero where r, s are)."""
    return np.mean(np.maximum(np.abs(r) - lo, 0.0) ** 2) \
        + np.mean(np.maximum(np.abs(s) - hi, 0.0) ** 2)


def reassigned(r, beta):
    """beta rebound inside f: its sign at the call says nothing of the threshold's."""
    beta = beta - 1.0
    d = np.abs(r)
    m = np.minimum(d, beta)
    return np.mean(m * (d - 0.5 * m))


def scaled(x, lam):
    """lam's sign changes nothing in the derivative's form."""
    return lam * np.sum(x ** 2)


def _fit_data(n=9, d=3):
    rng = np.random.default_rng(3)
    X = rng.standard_normal((n, d))
    y = X @ rng.standard_normal(d) + 2.0 * rng.standard_normal(n)
    return 0.3 * rng.standard_normal(d), X, y


def _check(df, f, args):
    np.testing.assert_allclose(df(*args), numeric_grad(f, args, 0), rtol=1e-5, atol=1e-6)


THRESHOLDS = [0.7, -0.5, 1.3, 0.0, -2.0, 0.7, math.inf]


@pytest.mark.parametrize("f", [smooth_l1_fit, huber_where, huber_minimum_first])
def test_a_threshold_known_positive_makes_the_adjoint_a_clip(f, both_paths):
    w, X, y = _fit_data()
    df = s2s_ad.grad(fresh(f))
    for c in THRESHOLDS:
        if c == math.inf or (c == 0.0 and f is not huber_where):
            continue          # (inf: no finite differences; beta = 0 divides by zero)
        _check(df, f, (w, X, y, c))
    if both_paths == "specialised":
        name = list(__import__("inspect").signature(f).parameters)[3]
        text = s2s_ad.derivative_source(df, w, X, y, 0.7)
        assert f"np.clip(" in text and f"-{name}, {name}" in text, text
        assert "np.sign(" not in text and f"{name}: float > 0" in text, text
        # negative thresholds: the derivative without the fact, sign kept
        assert "np.clip(" not in s2s_ad.derivative_source(df, w, X, y, -0.5)


def test_a_sign_changing_between_calls_builds_at_most_once_more():
    """The positive threshold's specialisation first, then one without the fact for every
    other sign; calls alternating afterwards build nothing (sign_facts.settled)."""
    w, X, y = _fit_data()
    df = s2s_ad.grad(fresh(smooth_l1_fit))
    for beta in [0.7, -0.5, 1.3, -2.0, 0.4, -0.1, 2.5]:
        _check(df, smooth_l1_fit, (w, X, y, beta))
    dispatcher = dispatcher_of(df)
    assert len(dispatcher.built) == 2
    guards = s2s_ad.derivative_source(df).split("\ndef ")[0]
    assert guards.count("beta > 0.0") == 1, guards


def test_two_flapping_signs_build_three_derivatives_not_four():
    """Each sign pattern of two thresholds in turn: the second pattern makes hi's sign no
    fact, the third lo's, and the fourth takes the derivative without facts."""
    r, s = np.array([0.0, 0.05, -0.3, 1.2, -2.0, 0.5]), np.array([0.3, -0.01, 2.0, -1.1])
    df = s2s_ad.grad(fresh(two_thresholds), wrt=(0, 1))
    df(r, s, 0.4, 0.2)
    guards = s2s_ad.derivative_source(df).split("\ndef ")[0]
    assert "lo > 0.0" in guards and "hi > 0.0" in guards, guards
    for lo, hi in [(0.4, 0.2), (0.4, -0.2), (-0.4, 0.2), (-0.4, -0.2), (0.3, 0.1), (-0.1, 0.5)]:
        args = (r, s, lo, hi)
        got = df(*args)
        for k in (0, 1):
            np.testing.assert_allclose(got[k], numeric_grad(two_thresholds, args, k),
                                       rtol=1e-5, atol=1e-6)
    assert len(dispatcher_of(df).built) == 3


def test_the_first_call_negative_builds_one_derivative_for_every_sign():
    w, X, y = _fit_data()
    df = s2s_ad.grad(fresh(huber_where))
    for delta in [-1.0, 0.5, 2.0]:
        _check(df, huber_where, (w, X, y, delta))
    assert len(dispatcher_of(df).built) == 1


def test_a_sign_no_rule_reads_is_no_guard():
    x = np.linspace(-1.0, 1.0, 5)
    df = s2s_ad.grad(fresh(scaled))
    for lam in [0.5, -0.5, 0.0, 2.0]:
        _check(df, scaled, (x, lam))
    assert len(dispatcher_of(df).built) == 1
    assert "> 0.0" not in s2s_ad.derivative_source(df)


def test_dead_zone_with_a_parameter(both_paths):
    r = np.array([0.0, 0.05, -0.3, 1.2, -2.0, 0.5])
    df = s2s_ad.grad(fresh(dead_zone))
    for eps in [0.1, -0.2, 0.25, 0.0]:
        _check(df, dead_zone, (r, eps))
    if both_paths == "specialised":
        assert "np.clip(r, -eps, eps)" in s2s_ad.derivative_source(df, r, 0.1)


def test_a_parameter_f_rebinds_is_no_fact(both_paths):
    r = np.array([0.0, 0.05, -0.3, 1.2, -2.0, 0.5])
    df = s2s_ad.grad(fresh(reassigned))
    for beta in [0.5, 1.7, -0.5]:
        _check(df, reassigned, (r, beta))


def test_a_differentiated_threshold_is_no_fact(both_paths):
    w, X, y = _fit_data()
    df = s2s_ad.grad(fresh(smooth_l1_fit), wrt=(0, 3))
    for beta in [0.7, -0.5]:
        gw, gb = df(w, X, y, beta)
        np.testing.assert_allclose(gw, numeric_grad(smooth_l1_fit, (w, X, y, beta), 0),
                                   rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(gb, numeric_grad(smooth_l1_fit, (w, X, y, beta), 3),
                                   rtol=1e-5, atol=1e-6)
    assert "> 0.0" not in s2s_ad.derivative_source(df)


@pytest.mark.parametrize("f", [pinball_maximum, pinball_where, torch_smooth_l1])
def test_other_forms_for_every_sign(f, both_paths):
    w, X, y = _fit_data()
    df = s2s_ad.grad(fresh(f))
    for tau in [0.8, 0.1, -0.3, 1.5, 0.5]:
        _check(df, f, (w, X, y, tau))


def test_huber_written_with_a_python_if(both_paths):
    rng = np.random.default_rng(5)
    xs, ys = list(rng.standard_normal(12)), list(3.0 * rng.standard_normal(12))
    df = s2s_ad.grad(fresh(huber_scalar_if), wrt=(0, 1))
    for delta in [1.0, -0.5, 0.3]:
        args = (0.4, -0.2, xs, ys, delta)
        got = df(*args)
        for k in (0, 1):
            assert got[k] == pytest.approx(float(numeric_grad(huber_scalar_if, args, k)),
                                           rel=1e-5, abs=1e-6)


FLOAT = Num(float, "float64", ())
ARRAY = Num(np.ndarray, "float64", (None,))
PLUS = PositiveNum(float, "float64", ())


def test_the_signature_rules():
    positive = (("x", ARRAY), ("beta", PLUS))
    plain = (("x", ARRAY), ("beta", FLOAT))
    # a guard with the fact takes only calls with it; one without takes both
    assert accepts(positive, positive) and not accepts(positive, plain)
    assert accepts(plain, positive) and accepts(plain, plain)
    # facts the derivative did not read are dropped from its guard
    assert kept(positive, ()) == plain and kept(positive, ("beta",)) == positive
    # a sign that alone tells a call from a built signature varies: no fact from then on
    signless = set()
    assert settled(plain, [positive], signless) == plain and signless == {"beta"}
    assert settled(positive, [positive], signless) == plain
    fresh_set = set()
    assert settled(positive, [plain], fresh_set) == positive and not fresh_set
    assert "beta > 0.0" in __import__("s2s_ad.signature").signature.guard(
        PLUS, "beta", lambda obj: getattr(obj, "__name__", "t"))


def test_second_derivatives_through_a_guarded_sign(both_paths):
    """hvp differentiates the gradient again: the gradient's code differentiated is the one
    without the in-place schedule (no clip), right for every sign of beta."""
    from derivative_paths import hvp_on
    w, X, y = _fit_data()
    v = np.array([0.3, -1.0, 0.5])
    f = fresh(smooth_l1_fit)
    for beta in [0.7, -0.5, 1.9]:
        args = (w, X, y, beta)
        h = 1e-5
        plus = numeric_grad(smooth_l1_fit, (w + h * v, X, y, beta), 0)
        minus = numeric_grad(smooth_l1_fit, (w - h * v, X, y, beta), 0)
        np.testing.assert_allclose(hvp_on(both_paths, f, args, v), (plus - minus) / (2 * h),
                                   rtol=1e-3, atol=1e-4)


def test_float32_huber_where_keeps_its_where():
    """In float32 `delta / n` rounds once in double and again to float32, clip's bound
    once to float32 and then the quotient: not the same numbers, so the where stays."""
    w, X, y = (a.astype(np.float32) for a in _fit_data())
    df = s2s_ad.grad(fresh(huber_where))
    for delta in [0.7, -0.5]:
        g = df(w, X, y, delta)
        assert g.dtype == np.float32
        want = numeric_grad(huber_where, (w.astype(float), X.astype(float), y.astype(float),
                                          delta), 0)
        np.testing.assert_allclose(g, want, rtol=1e-3, atol=1e-4)
    assert "np.clip(" not in s2s_ad.derivative_source(df, w, X, y, 0.7)
