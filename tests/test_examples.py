"""The acceptance examples: checked values, hand-written gradients, and the scripts run."""
import os
import subprocess
import sys

import numpy as np
import pytest

import s2s_ad

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")
sys.path.insert(0, EXAMPLES)

import logistic_regression  # noqa: E402
import mlp  # noqa: E402
import quadratic  # noqa: E402
import seed_example  # noqa: E402
import tutorial_xy  # noqa: E402


def test_seed_example():
    d1, d2 = s2s_ad.grad(seed_example.f, wrt=(0, 1))(1.0, 2.0)
    assert d1 == pytest.approx(2 * np.e ** 2 + 4, rel=1e-12)
    assert d2 == pytest.approx(4 - np.sin(2), rel=1e-12)


def test_tutorial_xy():
    assert s2s_ad.grad(tutorial_xy.z, wrt=(0, 1))(3.0, 10.0) == (16.0, 3.0)


def test_quadratic_levels_and_partials():
    text = s2s_ad.normalize(quadratic.quadratic)
    assert "t1_0 = x ** 2" in text and "t1_1 = b * x" in text and "t2_0 = a * t1_0" in text
    a, b, c, x = 1.5, -2.0, 0.5, 3.0
    grads = s2s_ad.grad(quadratic.quadratic, wrt=(0, 1, 2, 3))(a, b, c, x)
    assert grads == pytest.approx((x ** 2, x, 1.0, 2 * a * x + b))


def test_logistic_regression_matches_hand_written_gradient():
    X, y = logistic_regression.make_data(n=100, dim=10, seed=3)
    w = np.random.default_rng(1).standard_normal(10) * 0.3
    got = s2s_ad.grad(logistic_regression.negative_log_likelihood)(w, X, y)
    want = logistic_regression.hand_written_gradient(w, X, y)
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def test_logistic_regression_training_reduces_the_loss():
    _, losses = logistic_regression.train(steps=60, verbose=False)
    assert losses[-1] < 0.8 * losses[0]
    assert all(b <= a + 1e-12 for a, b in zip(losses, losses[1:]))


def test_mlp_gradient_matches_hand_written_for_all_four_parameters():
    params = mlp.make_problem(batch=16, features=6, hidden=8, classes=4, seed=2)
    got = s2s_ad.grad(mlp.mlp_loss, wrt=(0, 1, 2, 3))(*params)
    want = mlp.hand_written_gradient(*params)
    for g, h, p in zip(got, want, params):
        assert g.shape == p.shape
        np.testing.assert_allclose(g, h, rtol=1e-9, atol=1e-12)


NEEDS_SCIPY = {"gmm_logsumexp.py"}     # scipy is an optional extra (the test extra has it)


@pytest.mark.slow
@pytest.mark.parametrize("script", sorted(f for f in os.listdir(EXAMPLES) if f.endswith(".py")))
def test_example_script_runs(script):
    if script in NEEDS_SCIPY:
        pytest.importorskip("scipy")
    out = subprocess.run([sys.executable, os.path.join(EXAMPLES, script)], capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip()
