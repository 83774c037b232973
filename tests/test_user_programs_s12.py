"""The programs of tests/user_programs_s12.py, each run as its user runs it (training
loops calling grad, an optimizer of one's own) and its gradient checked against central
differences on both derivative paths (`both_paths`)."""
import copy
import functools

import numpy as np

import s2s_ad
from gradcheck import numeric_grad
from paths import fresh
import user_programs_s12 as up

RS = np.random.RandomState(12)


def _close(got, f, args, k, rtol=1e-5, atol=1e-7):
    np.testing.assert_allclose(got, numeric_grad(f, args, k), rtol=rtol, atol=atol)


def _numeric_of_attributes(f, obj, names, eps=1e-6):
    """Central differences of f(obj) in each array attribute of obj, entry by entry."""
    out = {}
    for name in names:
        base = getattr(obj, name)
        g = np.zeros_like(base)
        for idx in np.ndindex(base.shape):
            for sign in (1, -1):
                other = copy.copy(obj)
                value = base.copy()
                value[idx] += sign * eps
                setattr(other, name, value)
                g[idx] += sign * f(other) / (2 * eps)
        out[name] = g
    return out


def test_model_class_trained_on_its_parameters(both_paths):
    X, y = RS.randn(8, 3), RS.randn(8)
    model = up.TwoLayer(np.random.RandomState(0), 3, 4)
    g = s2s_ad.grad(model.loss, wrt="self")(X, y)
    assert type(g) is up.TwoLayer and g.act is None
    expected = _numeric_of_attributes(lambda m: m.loss(X, y), model, ("W1", "b1", "w2"))
    for name, value in expected.items():
        np.testing.assert_allclose(getattr(g, name), value, rtol=1e-5, atol=1e-8)
    before = model.loss(X, y)
    assert up.train_two_layer(model, X, y) < before


def test_closure_loss_with_momentum(both_paths):
    X, y = RS.randn(10, 3), RS.randn(10)
    loss = up.make_ridge_loss(X, y, 0.1)
    w = RS.randn(3)
    _close(s2s_ad.grad(loss)(w), loss, (w,), 0)
    assert loss(up.momentum(loss, w)) < loss(w)


def test_dict_parameters_with_a_hand_written_adam(both_paths):
    X, y = RS.randn(7, 3), np.abs(RS.randn(7))
    params = {"w": RS.randn(3) * 0.3, "b": 0.1}
    f = fresh(up.softplus_regression)
    g = s2s_ad.grad(f)(params, X, y)
    assert set(g) == {"w", "b"} and isinstance(g["b"], float)
    _close(g["w"], lambda w: f({"w": w, "b": 0.1}, X, y), (params["w"],), 0)
    _close(g["b"], lambda b: f({"w": params["w"], "b": b}, X, y), (0.1,), 0)
    fitted = up.adam(f, dict(params), (X, y))
    assert f(fitted, X, y) < f(params, X, y)


def test_partial_nll_and_a_newton_step(both_paths):
    X = RS.randn(12, 3)
    y = (RS.rand(12) < 0.5).astype(float)
    w = RS.randn(3) * 0.1
    nll = functools.partial(fresh(up.logistic_nll), X=X, y=y)
    _close(s2s_ad.grad(nll)(w), nll, (w,), 0)
    H = s2s_ad.hessian(nll)(w)
    expected = np.array([numeric_grad(lambda v: s2s_ad.grad(nll)(v)[j], (w,), 0)
                         for j in range(3)])
    np.testing.assert_allclose(H, expected, rtol=1e-5, atol=1e-7)
    assert nll(up.newton_step(w, X, y)) < nll(w)


def test_potential_chosen_by_the_caller(both_paths):
    pos = np.array([0.0, 1.1, 2.3, 3.2])
    for potential in (up.harmonic, up.lennard_jones):
        f = fresh(up.chain_energy)
        got = s2s_ad.grad(f)(pos, potential)
        _close(got, lambda p: f(p, potential), (pos,), 0)
        v = np.linspace(-1.0, 1.0, 4)
        hv = s2s_ad.hvp(f)(pos, potential, v)
        expected = (s2s_ad.grad(f)(pos + 1e-6 * v, potential)
                    - s2s_ad.grad(f)(pos - 1e-6 * v, potential)) / 2e-6
        np.testing.assert_allclose(hv, expected, rtol=1e-5, atol=1e-6)


def test_mixture_log_likelihood_as_a_class(both_paths):
    mix = up.Mixture(np.array([-1.0, 0.5, 2.0]), np.array([0.1, -0.3, 0.2]),
                     np.array([0.2, 0.0, -0.5]))
    x = RS.randn(9)
    g = s2s_ad.grad(up.Mixture.log_likelihood)(mix, x)
    assert type(g) is up.Mixture
    expected = _numeric_of_attributes(lambda m: m.log_likelihood(x), mix,
                                      ("means", "log_sds", "logits"))
    for name, value in expected.items():
        np.testing.assert_allclose(getattr(g, name), value, rtol=1e-5, atol=1e-8)
    _close(s2s_ad.grad(mix.log_likelihood)(x), mix.log_likelihood, (x,), 0)


def test_rnn_over_a_list_of_parameters(both_paths):
    layers = [RS.randn(3, 2) * 0.5, RS.randn(3, 3) * 0.5, RS.randn(3) * 0.5]
    xs, targets = [RS.randn(2) for _ in range(4)], RS.randn(4)
    f = fresh(up.rnn_loss)
    g = s2s_ad.grad(f)(layers, xs, targets)
    assert isinstance(g, list) and len(g) == 3
    for k in range(3):
        def of_k(v, k=k):
            return f([v if j == k else layers[j] for j in range(3)], xs, targets)
        _close(g[k], of_k, (layers[k],), 0)


def test_attention_block(both_paths):
    params = {name: RS.randn(4, 3) * 0.5 for name in ("Wq", "Wk", "Wv")}
    X = RS.randn(5, 4)
    f = fresh(up.attention)
    g = s2s_ad.grad(f)(params, X)
    for name in params:
        def of_name(v, name=name):
            return f(dict(params, **{name: v}), X)
        _close(g[name], of_name, (params[name],), 0)


def test_plain_class_made_in_the_loss(both_paths):
    W, b, X = RS.randn(3, 2), RS.randn(2), RS.randn(4, 3)
    f = fresh(up.affine_loss)
    gW, gb = s2s_ad.grad(f, wrt=(0, 1))(W, b, X)
    _close(gW, f, (W, b, X), 0)
    _close(gb, f, (W, b, X), 1)
    v = RS.randn(2)
    np.testing.assert_allclose(
        s2s_ad.hvp(f, wrt=1)(W, b, X, v),
        (s2s_ad.grad(f, wrt=1)(W, b + 1e-6 * v, X) - s2s_ad.grad(f, wrt=1)(W, b - 1e-6 * v, X))
        / 2e-6, rtol=1e-5, atol=1e-6)


def test_drawdown_penalty(both_paths):
    returns = RS.randn(30, 3) * 0.05
    weights = np.array([0.2, -0.1, 0.3])
    f = fresh(up.drawdown_penalty)
    _close(s2s_ad.grad(f)(weights, returns), f, (weights, returns), 0)
    _, tangent = s2s_ad.jvp(f)(weights, returns, np.ones(3))
    np.testing.assert_allclose(tangent, np.sum(numeric_grad(f, (weights, returns), 0)),
                               rtol=1e-5, atol=1e-8)


def test_namedtuple_parameters_in_a_value_and_grad_loop(both_paths):
    x = np.linspace(0.0, 3.0, 8)
    y = 1.5 * np.sin(x) + 0.3
    p = up.Params(0.5, 0.0)
    vg = s2s_ad.value_and_grad(fresh(up.namedtuple_fit))
    value, g = vg(p, x, y)
    assert type(g) is up.Params
    _close(g.scale, lambda s: up.namedtuple_fit(up.Params(s, 0.0), x, y), (0.5,), 0)
    _close(g.shift, lambda s: up.namedtuple_fit(up.Params(0.5, s), x, y), (0.0,), 0)
    for _ in range(20):
        value_next, g = vg(p, x, y)
        p = up.Params(p.scale - 0.02 * g.scale, p.shift - 0.02 * g.shift)
    assert value_next < value


def test_gaussian_process_and_student_t_likelihoods(both_paths):
    """scipy.stats.multivariate_normal.logpdf and scipy.stats.t.logpdf were "no derivative
    is known" (autograd's Gaussian process, GPLVM, deep GP and ICA examples)."""
    import pytest
    pytest.importorskip("scipy")
    X = np.linspace(-1.0, 1.0, 6)
    y = np.sin(3.0 * X)
    p = np.array([0.1, -0.5, -1.0])
    f = fresh(up.gp_negative_log_likelihood)
    _close(s2s_ad.grad(f)(p, X, y), f, (p, X, y), 0)
    v = np.array([1.0, -0.5, 0.3])
    np.testing.assert_allclose(
        s2s_ad.hvp(f)(p, X, y, v),
        (s2s_ad.grad(f)(p + 1e-6 * v, X, y) - s2s_ad.grad(f)(p - 1e-6 * v, X, y)) / 2e-6,
        rtol=1e-5, atol=1e-6)
    A, w = RS.randn(8, 2), RS.randn(2)
    t = A @ w + RS.standard_t(3.0, 8)
    g = fresh(up.student_t_regression)
    _close(s2s_ad.grad(g)(w, A, t, 3.0), g, (w, A, t, 3.0), 0)
    _close(s2s_ad.grad(g, wrt=3)(w, A, t, 3.0), g, (w, A, t, 3.0), 3)
