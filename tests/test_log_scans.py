"""np.logaddexp / np.logaddexp2 reduce and accumulate in user code (issue 15 point 3):
grad, jvp and hvp (second order through the templates' own derivatives) on both
derivative paths against differences; `initial=` / `where=` of a ufunc's reduce are
located errors saying what to write; the CLI writes a standalone gradient."""
import importlib.util

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, check_against_differences
from gradcheck import numeric_grad
from test_cli import run


def mixture_log_likelihood(x):
    # log sum_k exp(-(x - mu_k)^2 / 2) per sample, summed: a Gaussian mixture's
    logits = -0.5 * (x[:, None] - np.array([-1.0, 0.5, 2.0])) ** 2
    return np.sum(np.logaddexp.reduce(logits, axis=1))


def running_log_total(x):
    return np.sum(np.sin(np.logaddexp.accumulate(x, axis=-1)))


def base_two(x):
    return np.sum(np.logaddexp2.reduce(x, axis=0, keepdims=True) * x) \
        + np.sum(np.logaddexp2.accumulate(x) ** 2)


def all_axes(x):
    return np.logaddexp.reduce(x * x, axis=None)


X = np.array([[0.3, 1.2, -0.5, 2.0], [-1.1, 0.4, 0.9, -0.2], [1.5, -0.7, 0.1, 0.6]])


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, x", [(mixture_log_likelihood, X[0]), (running_log_total, X),
                                  (base_two, X), (all_axes, X)])
def test_reduce_and_accumulate(f, x, path):
    check_against_differences(path, f, x)


def test_scan_of_large_values_does_not_overflow():
    # exp(800) overflows; the weights exp(x - y) never do
    x = np.array([800.0, 799.0, 801.0, -5.0])
    g = s2s_ad.grad(running_log_total)(x)
    assert np.all(np.isfinite(g))
    np.testing.assert_allclose(g, numeric_grad(running_log_total, (x,), 0), rtol=1e-5)


def with_initial(x):
    return np.add.reduce(x, initial=1.0)


def with_where(x):
    return np.logaddexp.reduce(x, where=x > 0)


@pytest.mark.parametrize("f, words", [(with_initial, "np.add.reduce(..., initial=...)"),
                                      (with_where, "np.logaddexp.reduce(..., where=...)")])
def test_reduce_keywords_are_located(f, words):
    with pytest.raises(s2s_ad.UnsupportedSyntaxError) as info:
        s2s_ad.grad(f)(X[0])
    assert words in str(info.value) and "test_log_scans.py" in str(info.value)


SOURCE = '''
import numpy as np


def loss(x):
    return np.sum(np.logaddexp.reduce(x, axis=-1)) + np.sum(np.logaddexp.accumulate(x))
'''


@pytest.mark.slow
def test_cli_writes_a_standalone_gradient(tmp_path):
    (tmp_path / "scans_model.py").write_text(SOURCE)
    out = run(tmp_path, "grad", "scans_model.py:loss", "-o", "g.py")
    assert out.returncode == 0, out.stderr
    assert "s2s_ad" not in (tmp_path / "g.py").read_text().split("def ")[0].replace("s2s-ad", "")
    spec = importlib.util.spec_from_file_location("g_log_scans", tmp_path / "g.py")
    written = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(written)
    namespace = {}
    exec(compile(SOURCE, "scans_model", "exec"), namespace)
    np.testing.assert_allclose(written.grad_loss(X), numeric_grad(namespace["loss"], (X,), 0),
                               rtol=1e-6)
