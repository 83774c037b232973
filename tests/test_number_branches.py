"""Number code with if/else on floats, in forward mode: `abs` of a number is a pure call
(optimize/pass_facts.py), so the branch test is computed once inside the `if`, and an
`abs(r)` the dropped loss needed goes with it; gradients on both paths."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on


def huber_fit(a, b, xs, ys, delta):
    loss = 0.0
    for k in range(len(xs)):
        r = a * xs[k] + b - ys[k]
        if abs(r) <= delta:
            loss = loss + 0.5 * r * r
        else:
            loss = loss + delta * (abs(r) - 0.5 * delta)
    return loss


def expected(a, b, xs, ys, delta):
    ga = gb = 0.0
    for x, y in zip(xs, ys):
        r = a * x + b - y
        psi = min(max(r, -delta), delta)
        ga += psi * x
        gb += psi
    return ga, gb


def data():
    rng = np.random.default_rng(5)
    xs = rng.uniform(-2.0, 2.0, 40)
    ys = 1.5 * xs - 0.5 + rng.standard_normal(40)
    return xs.tolist(), ys.tolist()


def test_the_branch_test_and_no_dead_abs_in_the_source():
    xs, ys = data()
    df = s2s_ad.grad(huber_fit, (0, 1))
    source = s2s_ad.derivative_source(df, 1.3, -0.2, xs, ys, 0.5)
    assert "Forward mode" in source
    code = [line for line in source.splitlines() if not line.strip().startswith("#")]
    assert sum("abs(" in line for line in code) == 1
    assert "if abs(r) <= delta:" in source


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("reverse", [False, True])
def test_huber_fit_gradient(path, reverse, monkeypatch):
    if reverse:
        monkeypatch.setenv("S2S_AD_REVERSE", "1")
    xs, ys = data()
    df = grad_on(path, huber_fit, (0, 1))
    np.testing.assert_allclose(df(1.3, -0.2, xs, ys, 0.5), expected(1.3, -0.2, xs, ys, 0.5),
                               rtol=1e-12)
