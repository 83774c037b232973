"""The control-flow examples (rnn, ode_fit, piecewise, simulation): s2s_ad gradients
against central differences at several random points, and the training loops make
progress. (test_examples.py runs every script in examples/ as a subprocess.)"""
import os
import sys

import numpy as np
import pytest

import s2s_ad
from gradcheck import assert_grad_matches, inner_product_check, numeric_grad

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")
sys.path.insert(0, EXAMPLES)

import ode_fit  # noqa: E402
import piecewise  # noqa: E402
import rnn  # noqa: E402
import simulation  # noqa: E402

SEEDS = (0, 1, 2)


# ---- rnn ----------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", SEEDS)
def test_rnn_gradient_matches_finite_differences_for_all_weights(seed):
    args = list(rnn.make_problem(hidden=5, steps=6, batch=3, seed=seed))
    rng = np.random.default_rng(100 + seed)
    for k in range(5):      # move the weights (and biases) away from their initial values
        args[k] = args[k] + 0.3 * rng.standard_normal(np.shape(args[k]))
    args[5] = 0.5 * rng.standard_normal(np.shape(args[5]))      # non-zero initial state
    assert_grad_matches(rnn.rnn_loss, args, wrt=(0, 1, 2, 3, 4), rtol=1e-5, atol=1e-7)


def rnn_loss_via_predict(Wxh, Whh, bh, Why, by, h0, xs, ys):
    """The same loss through rnn.predict: a helper with a loop, appends and np.stack."""
    return np.mean((rnn.predict(Wxh, Whh, bh, Why, by, h0, xs) - ys) ** 2)


def rnn_loss_zero_state(Wxh, Whh, bh, Why, by, xs, ys):
    """The initial state created inside the loss, as np.zeros of shapes read off arrays."""
    h = np.zeros((xs.shape[1], Whh.shape[0]))
    loss = 0.0
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ Wxh + h @ Whh + bh)
        loss = loss + np.mean((h @ Why + by - ys[t]) ** 2)
    return loss / xs.shape[0]


@pytest.mark.parametrize("seed", SEEDS)
def test_rnn_loss_through_predict_helper_matches(seed):
    args = list(rnn.make_problem(hidden=4, steps=5, batch=2, seed=seed))
    assert rnn_loss_via_predict(*args) == pytest.approx(rnn.rnn_loss(*args), rel=1e-12)
    assert_grad_matches(rnn_loss_via_predict, args, wrt=(0, 1, 2, 3, 4), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("seed", SEEDS)
def test_rnn_with_zero_initial_state_built_inside_the_loss(seed):
    args = list(rnn.make_problem(hidden=4, steps=5, batch=2, seed=seed))
    del args[5]
    assert_grad_matches(rnn_loss_zero_state, args, wrt=(0, 1, 2, 3, 4), rtol=1e-5, atol=1e-7)


def test_rnn_training_reduces_the_loss():
    _, losses = rnn.train(steps=40, verbose=False)
    assert losses[-1] < 0.3 * losses[0]
    assert losses[-1] < min(losses[:5])


# ---- ode_fit ------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", SEEDS)
def test_ode_fit_gradient_matches_finite_differences(seed):
    rng = np.random.default_rng(seed)
    _, x0, y0, dt, steps, prey, predators = ode_fit.make_problem(steps=40, seed=seed)
    params = ode_fit.TRUE_PARAMS * rng.uniform(0.7, 1.3, size=4)
    x0, y0 = x0 * rng.uniform(0.8, 1.2), y0 * rng.uniform(0.8, 1.2)
    args = [params, x0, y0, dt, steps, prey, predators]
    assert_grad_matches(ode_fit.fit_loss, args, wrt=(0, 1, 2), rtol=1e-5, atol=1e-7)


def prey_series(params, x0, y0):
    """The simulated prey population alone (an array-valued function for the vjp test)."""
    prey, _ = ode_fit.simulate(params, x0, y0, 0.1, 30)
    return prey


@pytest.mark.parametrize("seed", SEEDS)
def test_ode_simulate_vjp_inner_product(seed):
    rng = np.random.default_rng(seed)
    params = ode_fit.TRUE_PARAMS * rng.uniform(0.7, 1.3, size=4)
    inner_product_check(prey_series, [params, 2.0, 1.0], wrt=(0, 1, 2), seed=seed)


def test_ode_fit_reduces_the_loss_and_approaches_the_true_rates():
    initial = ode_fit.make_problem()[0]
    params, losses = ode_fit.fit(iterations=30, verbose=False)
    assert losses[-1] < 0.05 * losses[0]
    assert all(b <= a for a, b in zip(losses, losses[1:]))
    assert np.linalg.norm(params - ode_fit.TRUE_PARAMS) < \
        0.2 * np.linalg.norm(initial - ode_fit.TRUE_PARAMS)


def simulate_preallocated(params, x0, y0, dt, steps):
    """ode_fit.simulate with the series preallocated and filled in place."""
    prey = np.zeros(steps + 1)
    predators = np.zeros(steps + 1)
    prey[0] = x0
    predators[0] = y0
    x, y = x0, y0
    for i in range(steps):
        dx, dy = ode_fit.rates(x, y, params)
        x = x + dt * dx
        y = y + dt * dy
        prey[i + 1] = x
        predators[i + 1] = y
    return prey, predators


def fit_loss_preallocated(params, x0, y0, dt, steps, observed_prey, observed_predators):
    prey, predators = simulate_preallocated(params, x0, y0, dt, steps)
    return np.mean((prey - observed_prey) ** 2 + (predators - observed_predators) ** 2)


def test_ode_fit_with_preallocated_series_in_a_helper():
    _, x0, y0, dt, steps, prey, predators = ode_fit.make_problem(steps=20)
    args = [ode_fit.TRUE_PARAMS * 1.1, x0, y0, dt, steps, prey[:21], predators[:21]]
    assert_grad_matches(fit_loss_preallocated, args, wrt=(0, 1, 2), rtol=1e-5, atol=1e-7)


# ---- piecewise ----------------------------------------------------------------------------
BANDS = [(1000.0, 12000.0), (14000.0, 49000.0), (52000.0, 99000.0), (101000.0, 124000.0),
         (126000.0, 137000.0), (139000.0, 300000.0)]


@pytest.mark.parametrize("seed", SEEDS)
def test_income_tax_gradient_matches_finite_differences_in_every_band(seed):
    rng = np.random.default_rng(seed)
    for low, high in BANDS:
        args = [float(rng.uniform(low, high)), float(rng.uniform(12000.0, 13000.0))]
        got = s2s_ad.grad(piecewise.income_tax, wrt=(0, 1))(*args)
        for k in (0, 1):    # piecewise linear: a wide step is exact away from the kinks
            assert got[k] == pytest.approx(numeric_grad(piecewise.income_tax, args, k, eps=1.0),
                                           abs=1e-8)


def test_income_tax_marginal_rates():
    d_tax = s2s_ad.grad(piecewise.income_tax, wrt=(0, 1))
    expected = {8000.0: (0.0, 0.0), 30000.0: (0.2, -0.2), 60000.0: (0.4, -0.4),
                110000.0: (0.6, -0.4), 130000.0: (0.45, 0.0), 200000.0: (0.45, 0.0)}
    for income, rates in expected.items():
        assert d_tax(income, 12570.0) == pytest.approx(rates, abs=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_huber_loss_gradient_matches_finite_differences(seed):
    rng = np.random.default_rng(seed)
    residuals = rng.standard_normal(7) * 1.5
    delta = float(rng.uniform(0.5, 1.5))
    assert np.min(np.abs(np.abs(residuals) - delta)) > 1e-3      # away from the kinks
    assert_grad_matches(piecewise.huber_loss, [residuals, delta], wrt=(0, 1))


@pytest.mark.parametrize("seed", SEEDS)
def test_soft_clip_derivative_matches_finite_differences(seed):
    rng = np.random.default_rng(seed)
    for x in rng.uniform(-2.5, 2.5, size=6):
        assert_grad_matches(piecewise.soft_clip, [float(x)], wrt=0)


def test_piecewise_central_difference_helper():
    assert piecewise.central_difference(piecewise.soft_clip, [0.5], 0, 1e-6) == \
        pytest.approx(0.75, rel=1e-8)


# ---- simulation ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", SEEDS)
def test_landing_distance_gradient_matches_finite_differences(seed):
    rng = np.random.default_rng(seed)
    args = [float(rng.uniform(0.3, 1.1)), float(rng.uniform(15.0, 30.0)),
            float(rng.uniform(0.002, 0.02))]
    got = s2s_ad.grad(simulation.landing_distance, wrt=(0, 1, 2))(*args)
    for k, eps in zip(range(3), (1e-6, 1e-5, 1e-8)):
        assert got[k] == pytest.approx(
            numeric_grad(simulation.landing_distance, args, k, eps=eps), rel=1e-5, abs=1e-6)


def test_landing_distance_when_it_never_lands():
    """The loop finds no landing and falls through to the last position."""
    args = [0.8, 30.0, 0.01, 0.01, 100]
    assert simulation.trajectory(*args[:3], 0.01, 100)[-1, 1] > 0.0
    got = s2s_ad.grad(simulation.landing_distance, wrt=(0, 1, 2))(*args)
    for k, eps in zip(range(3), (1e-6, 1e-5, 1e-8)):
        assert got[k] == pytest.approx(
            numeric_grad(simulation.landing_distance, args, k, eps=eps), rel=1e-5, abs=1e-6)




def _trajectory_args(seed):
    rng = np.random.default_rng(seed)
    return [float(rng.uniform(0.3, 1.1)), float(rng.uniform(15.0, 30.0)),
            float(rng.uniform(0.002, 0.02)), 0.02, 50]


@pytest.mark.parametrize("seed", SEEDS)
def test_trajectory_vjp_matches_finite_differences(seed):
    """vjp of the array-valued trajectory, checked on a fresh cotangent per call."""
    args = _trajectory_args(seed)
    u = np.random.default_rng(seed).standard_normal((51, 2))
    got = s2s_ad.vjp(simulation.trajectory, wrt=(0, 1, 2))(*args, u.copy())

    def projected(angle, speed, drag):
        return float(np.sum(u * simulation.trajectory(angle, speed, drag, 0.02, 50)))
    for k, eps in zip(range(3), (1e-6, 1e-5, 1e-8)):
        assert got[k] == pytest.approx(numeric_grad(projected, args[:3], k, eps=eps),
                                       rel=1e-5, abs=1e-6)


@pytest.mark.parametrize("seed", SEEDS)
def test_trajectory_vjp_inner_product(seed):
    inner_product_check(simulation.trajectory, _trajectory_args(seed), wrt=(0, 1, 2),
                        seed=seed)


def two_throws(angle, speed, drag):
    """Summed heights of two throws, the second one twice as steep."""
    both = simulation.trajectory(angle, speed, drag, 0.02, 50) + \
        simulation.trajectory(2.0 * angle, speed, drag, 0.02, 50)
    return np.sum(both[:, 1])


def test_two_throws_gradient():
    assert_grad_matches(two_throws, [0.5, 20.0, 0.01], wrt=(0, 1, 2), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("seed", SEEDS)
def test_american_put_greeks_match_finite_differences(seed):
    rng = np.random.default_rng(seed)
    args = [float(rng.uniform(80.0, 120.0)), float(rng.uniform(0.1, 0.4)),
            float(rng.uniform(0.01, 0.08)), float(rng.uniform(0.5, 2.0))]
    got = assert_grad_matches(simulation.american_put, args, wrt=(0, 1, 2, 3),
                              rtol=1e-5, atol=1e-6)
    assert -1.0 <= got[0] <= 0.0 and got[1] > 0.0      # a put's delta and vega


def test_best_angle_increases_the_distance():
    speed, drag = 30.0, 0.01
    angle = simulation.best_angle(speed, drag, iterations=8, verbose=False)
    assert simulation.landing_distance(angle, speed, drag) > \
        simulation.landing_distance(np.pi / 4, speed, drag) + 0.1
    assert np.degrees(angle) < 45.0


def american_put_loops(spot, volatility, rate, maturity, strike=100.0, steps=21):
    """simulation.american_put with the backward induction written node by node."""
    dt = maturity / steps
    up = np.exp(volatility * np.sqrt(dt))
    down = 1.0 / up
    p = (np.exp(rate * dt) - down) / (up - down)
    discount = np.exp(-rate * dt)
    values = np.zeros(steps + 1)
    for j in range(steps + 1):
        values[j] = max(strike - spot * up ** j * down ** (steps - j), 0.0)
    for n in range(steps - 1, -1, -1):
        for j in range(n + 1):
            continuation = discount * (p * values[j + 1] + (1.0 - p) * values[j])
            exercise = strike - spot * up ** j * down ** (n - j)
            values[j] = max(continuation, exercise)
    return values[0]


def test_american_put_loops_agrees_with_the_vectorized_price():
    args = [97.3, 0.2, 0.05, 1.0]
    assert american_put_loops(*args) == pytest.approx(
        simulation.american_put(*args, steps=21), rel=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_american_put_with_nested_loops(seed):
    rng = np.random.default_rng(seed)
    args = [float(rng.uniform(80.0, 120.0)), float(rng.uniform(0.1, 0.4)),
            float(rng.uniform(0.01, 0.08)), float(rng.uniform(0.5, 2.0))]
    assert_grad_matches(american_put_loops, args, wrt=(0, 1, 2, 3), rtol=1e-5, atol=1e-6)
