"""Random draws in helpers of f (issue 15): the samples are constants of the derivative,
drawn once per call in the order f draws them, whichever way the derivative is taken
(grad, vjp, jvp, hvp, grad of grad), and every generator is left where one call of f
leaves it. Each derivative is checked against central differences of f with a generator
seeded afresh for every evaluation (so each evaluation draws the same samples)."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, hvp_on, jvp_on, on_path
from gradcheck import numeric_grad

MODULE_GENERATOR = np.random.default_rng(5)


def reparameterised(mu, logvar, rs):
    eps = rs.randn(*mu.shape)
    return mu + np.exp(0.5 * logvar) * eps


def reparameterised_generator(mu, logvar, rng):
    return mu + np.exp(0.5 * logvar) * rng.normal(size=mu.shape)


def reparameterised_global(mu, logvar):
    return mu + np.exp(0.5 * logvar) * np.random.randn(*mu.shape)


def reparameterised_module_generator(mu, logvar):
    return mu + np.exp(0.5 * logvar) * MODULE_GENERATOR.standard_normal(mu.shape)


def two_levels(mu, logvar, rs):
    """A helper that draws through another helper, and draws itself after it."""
    z = reparameterised(mu, logvar, rs)
    return z * (1.0 + 0.1 * rs.uniform(size=z.shape))


def vae_loss(x, rs):
    """f draws before and after its helper, and calls the helper in a loop."""
    noise = rs.randn(*x.shape)
    total = 0.0
    for k in range(3):
        z = reparameterised(x, 0.3 * x + 0.1 * k, rs)
        total = total + np.sum(np.tanh(z) ** 2)
    return total + np.sum(x * noise * rs.rand(*x.shape))


def vae_loss_generator(x, rng):
    z = reparameterised_generator(x, np.sin(x), rng)
    return np.sum(z ** 2 * np.cos(x)) + np.sum(x * rng.standard_normal(x.shape))


def vae_loss_two_levels(x, rs):
    return np.sum(np.sin(two_levels(x, -x, rs)) * x)


def vae_loss_global(x, rs):
    z = reparameterised_global(x, 0.5 * x)
    return np.sum(z * z * x)


def vae_loss_module_generator(x, rs):
    z = reparameterised_module_generator(x, 0.5 * x)
    return np.sum(np.exp(0.3 * z) * x)


def _fresh(loss):
    """A generator in its starting state for `loss` (and numpy's global and the module's
    generators reset to theirs)."""
    np.random.seed(11)
    MODULE_GENERATOR.bit_generator.state = np.random.default_rng(5).bit_generator.state
    CLOSURE_GENERATOR.seed(3)
    if loss is vae_loss_generator:
        return np.random.default_rng(7)
    return np.random.RandomState(7)


def _next_draws(rs):
    """What each generator draws next: equal exactly when their states are equal."""
    own = rs.random(3) if isinstance(rs, np.random.Generator) else rs.rand(3)
    return np.concatenate([own, np.random.rand(3), MODULE_GENERATOR.random(3),
                           CLOSURE_GENERATOR.rand(2)])


def _with_fresh_draws(loss):
    return lambda x: loss(x, _fresh(loss))


def make_elbo():
    """autograd's mixture-VI style: the generator lives in a closure, a nested function
    hands it to a drawing helper, and f calls the closure (its call site passes no
    generator)."""
    rs = np.random.RandomState(3)

    def elbo(x):
        def lower_bound(part):
            return np.sum(np.cos(reparameterised(part, 0.5 * part, rs)))
        return lower_bound(x) + lower_bound(x * x)
    return elbo, rs


CLOSURE_ELBO, CLOSURE_GENERATOR = make_elbo()


def vae_loss_closure_generator(x, rs):
    return -CLOSURE_ELBO(x) * 2.0


LOSSES = [vae_loss, vae_loss_generator, vae_loss_two_levels, vae_loss_global,
          vae_loss_module_generator, vae_loss_closure_generator]
X = np.array([0.3, -0.2, 0.5, 0.1])
V = np.array([0.7, -1.1, 0.4, 0.9])


def _after_one_call(loss):
    rs = _fresh(loss)
    loss(X, rs)
    return _next_draws(rs)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("loss", LOSSES, ids=lambda f: f.__name__)
def test_grad_of_a_loss_drawing_in_helpers_holds_the_samples_fixed(path, loss):
    expected = numeric_grad(_with_fresh_draws(loss), (X,), 0)
    rs = _fresh(loss)
    np.testing.assert_allclose(grad_on(path, loss)(X, rs), expected, rtol=1e-6, atol=1e-8)
    # the generators are where one call of f leaves them
    np.testing.assert_array_equal(_next_draws(rs), _after_one_call(loss))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("loss", LOSSES, ids=lambda f: f.__name__)
def test_jvp_and_hvp_of_a_loss_drawing_in_helpers(path, loss):
    fixed = _with_fresh_draws(loss)
    gradient = numeric_grad(fixed, (X,), 0)
    rs = _fresh(loss)
    value, tangent = jvp_on(path, loss, (X, rs), V)
    assert np.isclose(value, fixed(X))
    assert np.isclose(tangent, np.dot(gradient, V))
    rs = _fresh(loss)
    hv = hvp_on(path, loss, (X, rs), V)
    np.testing.assert_array_equal(_next_draws(rs), _after_one_call(loss))
    eps = 1e-5

    def gradient_at(x):
        return grad_on(path, loss)(x, _fresh(loss))
    expected = (gradient_at(X + eps * V) - gradient_at(X - eps * V)) / (2 * eps)
    np.testing.assert_allclose(hv, expected, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("path", PATHS)
def test_vjp_and_grad_of_grad_of_a_drawing_helper(path):
    def draws(x, rs):
        return reparameterised(x, 0.2 * x, rs) ** 2

    fixed = _with_fresh_draws(draws)
    u = np.array([1.0, 2.0, -1.0, 0.5])
    rs = _fresh(draws)
    pulled = on_path(s2s_ad.vjp(draws), path)(X, rs, u) if path == "specialised" \
        else on_path(s2s_ad.vjp(draws), path)(x=X, rs=rs, cotangent=u)
    expected = numeric_grad(lambda x: np.dot(fixed(x), u), (X,), 0)
    np.testing.assert_allclose(pulled, expected, rtol=1e-6, atol=1e-8)
    np.testing.assert_array_equal(_next_draws(rs), _after_one_call(draws))

    def scalar(x, rs):
        return np.sum(np.sin(reparameterised(x, 0.2 * x, rs)))

    def first(x):
        return np.sum(s2s_ad.grad(scalar)(x, _fresh(scalar)) ** 2)
    second = grad_on(path, lambda x, rs: np.sum(grad_on(path, scalar)(x, rs) ** 2))
    np.testing.assert_allclose(second(X, _fresh(scalar)), numeric_grad(first, (X,), 0),
                               rtol=1e-5, atol=1e-7)


class Sampler:
    def __init__(self):
        self.rng = np.random.default_rng(0)


def draws_from_an_attribute(x, sampler):
    return x * sampler.rng.normal(size=x.shape)


def loss_drawing_from_an_attribute(x, sampler):
    return np.sum(draws_from_an_attribute(x, sampler) ** 2)


def draws_from_an_unseeded_generator(x):
    return x * np.random.default_rng().normal(size=x.shape)


def loss_drawing_from_an_unseeded_generator(x):
    return np.sum(draws_from_an_unseeded_generator(x) ** 2)


@pytest.mark.parametrize("path", PATHS)
def test_draws_no_replay_could_make_are_drawn_once(path):
    """A generator read from an object's attribute, or made without a seed inside the
    helper: the helper's vjp is split (transforms/split_calls.py), its forward part runs
    once where f calls it and the backward part reads the samples it drew; nothing is
    drawn again. Differentiated again (grad of grad calls the vjp whole, which would draw
    other samples) it is still a located error."""
    sampler = Sampler()
    z = np.random.default_rng(0).normal(size=X.shape)
    np.testing.assert_allclose(grad_on(path, loss_drawing_from_an_attribute)(X, sampler),
                               2 * X * z * z, rtol=1e-12)
    grads = [grad_on(path, loss_drawing_from_an_unseeded_generator)(X) for _ in range(2)]
    assert all(np.all(np.sign(g) == np.sign(X)) for g in grads)   # 2 x z**2, z any
    with pytest.raises(s2s_ad.UnsupportedSyntaxError,
                       match="does not receive as an argument") as info:
        hvp_on(path, loss_drawing_from_an_attribute, (X, Sampler()), V)
    assert info.value.filename == __file__