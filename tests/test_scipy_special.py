"""scipy.special and scipy.stats.norm end to end (an optional dependency: skipped without
scipy): a Gaussian mixture's log-likelihood with logsumexp, softmax cross-entropy with
log_softmax, on both derivative paths against central differences (grad, jvp, hvp); what
is refused, with a located error; and s2s_ad never importing scipy itself. The templates
are checked by the spec rows (specs_scipy_special.py)."""
import re
import subprocess
import sys

import numpy as np
import pytest

special = pytest.importorskip("scipy.special")
stats = pytest.importorskip("scipy.stats")

import s2s_ad  # noqa: E402
from s2s_ad import errors  # noqa: E402

from derivative_paths import PATHS, check_against_differences, grad_on, hvp_on  # noqa: E402
from gradcheck import numeric_grad  # noqa: E402

RNG = np.random.default_rng(11)
DATA = np.concatenate([RNG.normal(-1.0, 0.4, 12), RNG.normal(1.2, 0.8, 18)])
LABELS = RNG.integers(0, 4, 6)
FEATURES = RNG.standard_normal((6, 3))


def mixture_log_likelihood(params):
    """3 components: means, log standard deviations, logits in one vector"""
    means, log_sigmas, logits = params[:3], params[3:6], params[6:]
    z = (DATA[:, None] - means) / np.exp(log_sigmas)
    log_normal = -0.5 * z ** 2 - log_sigmas - 0.5 * np.log(2.0 * np.pi)
    return np.sum(special.logsumexp(log_normal + special.log_softmax(logits), axis=1))


def mixture_with_weights(params):
    means, log_sigmas, weights = params[:3], params[3:6], np.exp(params[6:])
    return np.sum(special.logsumexp(stats.norm.logpdf(DATA[:, None], means,
                                                      np.exp(log_sigmas)),
                                    axis=-1, b=weights / np.sum(weights), return_sign=False))


def softmax_cross_entropy(w):
    logits = FEATURES @ np.reshape(w, (3, 4))
    log_p = special.log_softmax(logits, axis=1)
    return -np.mean(log_p[np.arange(6), LABELS])


def special_functions(x):
    return np.sum(special.gammaln(x * x + 1.0) + special.digamma(x * x + 1.0)
                  + special.erf(x) * special.expit(x) + special.log_ndtr(x)
                  + special.xlogy(x * x, 2.0 + x) + special.i0e(x) + special.i1e(x))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, size", [(mixture_log_likelihood, 9), (mixture_with_weights, 9),
                                     (softmax_cross_entropy, 12), (special_functions, 5)],
                         ids=lambda v: getattr(v, "__name__", None))
def test_losses_through_scipy_special(f, size, path):
    x = np.random.default_rng(2).uniform(-0.8, 0.8, size)
    check_against_differences(path, f, x)


@pytest.mark.parametrize("path", PATHS)
def test_softmax_gradient_matches_the_closed_form(path):
    w = np.random.default_rng(3).standard_normal(12)
    probabilities = special.softmax(FEATURES @ np.reshape(w, (3, 4)), axis=1)
    probabilities[np.arange(6), LABELS] -= 1.0
    expected = np.ravel(FEATURES.T @ probabilities / 6.0)
    np.testing.assert_allclose(grad_on(path, softmax_cross_entropy)(w), expected, rtol=1e-10)


def polygamma_2(x):
    return np.sum(special.polygamma(2, x))


@pytest.mark.parametrize("path", PATHS)
def test_second_derivative_of_polygamma(path):
    """the gradient reads polygamma(3, x); its derivative polygamma(4, x)"""
    x = np.array([0.7, 1.3, 2.5])
    v = np.array([1.0, -0.5, 0.25])
    np.testing.assert_allclose(hvp_on(path, polygamma_2, (x,), v),
                               special.polygamma(4, x) * v, rtol=1e-10)


def xlogy_at_zero(x, y):
    return np.sum(special.xlogy(x, y))


def test_xlogy_at_x_zero_has_a_finite_gradient_in_y():
    gx, gy = s2s_ad.grad(xlogy_at_zero, wrt=(0, 1))(np.array([0.0, 1.5]), np.array([0.0, 2.0]))
    np.testing.assert_array_equal(gy, [0.0, 0.75])
    assert gx[1] == pytest.approx(np.log(2.0))


def with_sign(x):
    return special.logsumexp(x, return_sign=True)[0]


def frozen(x):
    return np.sum(stats.norm(0.0, 2.0).logpdf(x))


@pytest.mark.parametrize("f", [with_sign, frozen], ids=lambda f: f.__name__)
def test_unsupported_calls_are_located_errors(f):
    with pytest.raises(errors.ADError) as info:
        s2s_ad.grad(f)(np.ones(3))
    assert info.value.location is not None


def test_s2s_ad_never_imports_scipy_itself():
    script = ("import sys, numpy as np, s2s_ad\n"
              "from s2s_ad.ad.registry import default_registry\n"
              "default_registry().reverse(np.tanh)\n"
              "assert 'scipy' not in sys.modules, 'scipy imported'\n"
              "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_gmm_numeric_agreement_of_the_first_derivative():
    x = np.linspace(-0.5, 0.5, 9)
    np.testing.assert_allclose(s2s_ad.grad(mixture_log_likelihood)(x),
                               numeric_grad(mixture_log_likelihood, (x,), 0), rtol=1e-6)


def weighted_row_scores(x, w):
    return np.sum(special.logsumexp(x, axis=1) * w)


def test_specialised_code_knows_the_shape_of_logsumexp():
    """the facts evaluate logsumexp on stand-ins: its (n,) result times w (n,) needs no
    reduction back to w's shape"""
    x, w = np.random.default_rng(8).standard_normal((5, 4)), np.linspace(0.5, 1.5, 5)
    df = s2s_ad.grad(weighted_row_scores, wrt=(0, 1))
    got = df(x, w)
    source = s2s_ad.derivative_source(df, x, w)
    assert not re.search(r"unbroadcast\(.*, w\)", source), source
    for k, g in enumerate(got):
        np.testing.assert_allclose(g, numeric_grad(weighted_row_scores, (x, w), k), rtol=1e-6)


def norm_nll(mu, x, log_s):
    return -np.sum(stats.norm.logpdf(x, mu, np.exp(log_s)) * x)


def test_scipy_stats_results_are_facts():
    """stats.norm.logpdf's result is its arguments broadcast (analyses/evaluable.py): the
    specialised gradient keeps no shape bookkeeping after it."""
    mu, x = np.full(5, 0.1), np.linspace(0.0, 1.0, 5)
    df = s2s_ad.grad(norm_nll)
    np.testing.assert_allclose(df(mu, x, 0.2), numeric_grad(norm_nll, (mu, x, 0.2), 0),
                               rtol=1e-6, atol=1e-9)
    source = s2s_ad.derivative_source(df, mu, x, 0.2)
    assert "unbroadcast" not in source and "unreduce" not in source
