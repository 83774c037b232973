"""The programs of tests/user_programs_s13.py, each run as its user runs it and checked
against central differences on both derivative paths (`both_paths`: module-level
functions are fresh copies, methods go through `on_path`, so neither path reuses the
other's derivatives). What the general derivative cannot know (the exact class of an
object it differentiates) stays a located error there, said in each test."""
import copy
import functools

import numpy as np
import pytest

import s2s_ad
from derivative_paths import on_path
from gradcheck import numeric_grad
from paths import fresh
import user_programs_s13 as up

RS = np.random.RandomState(1313)
X, Y = RS.randn(6, 3), RS.randn(6)


def _close(got, expected):
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-8)


def _in_attribute(f, obj, name):
    """Central differences of f(obj) in obj's array attribute `name`."""
    def with_value(value):
        other = copy.copy(obj)
        setattr(other, name, value)
        return f(other)
    return numeric_grad(with_value, (getattr(obj, name),), 0)


def test_1_model_class_with_forward_and_loss(both_paths):
    model = up.MLP(np.random.default_rng(0), 3, 4)
    g = on_path(s2s_ad.grad(up.MLP.loss), both_paths)(model, X, Y)
    assert type(g) is up.MLP
    for name in ("W1", "b1", "w2"):
        _close(getattr(g, name), _in_attribute(lambda m: m.loss(X, Y), model, name))
    _close(on_path(s2s_ad.grad(up.MLP.loss, wrt=1), both_paths)(model, X, Y),
           numeric_grad(lambda x: model.loss(x, Y), (X,), 0))


def test_2_model_holding_a_list_of_layers(both_paths):
    layers = [up.Dense(RS.randn(3, 4) * 0.5, RS.randn(4) * 0.1),
              up.Dense(RS.randn(4, 2) * 0.5, RS.randn(2) * 0.1)]
    model = up.Stack(layers)
    g = on_path(s2s_ad.grad(up.Stack.loss), both_paths)(model, X, Y)
    assert type(g.layers[0]) is up.Dense
    for k in range(2):
        for name in ("W", "b"):
            _close(getattr(g.layers[k], name), _in_attribute(
                lambda layer: up.Stack([layer if j == k else layers[j] for j in range(2)])
                .loss(X, Y), layers[k], name))


def test_3_dataclass_parameters_trained_by_sgd(both_paths):
    loss = fresh(up.linear_loss)
    p = up.Linear(RS.randn(3), 0.1)
    g = s2s_ad.grad(loss)(p, X, Y)
    assert type(g) is up.Linear
    _close(g.w, numeric_grad(lambda w: loss(up.Linear(w, 0.1), X, Y), (p.w,), 0))
    _close(g.b, numeric_grad(lambda b: loss(up.Linear(p.w, b), X, Y), (0.1,), 0))
    trained = up.sgd(loss, p, (X, Y))
    assert loss(trained, X, Y) < 0.5 * loss(p, X, Y)


def test_4_namedtuple_parameters(both_paths):
    nll = fresh(up.gaussian_nll)
    p = up.Gaussian(RS.randn(3), RS.randn(3) * 0.2)
    g = s2s_ad.grad(nll)(p, X)
    assert type(g) is up.Gaussian
    _close(g.mu, numeric_grad(lambda mu: nll(up.Gaussian(mu, p.log_sigma), X), (p.mu,), 0))
    _close(g.log_sigma, numeric_grad(lambda s: nll(up.Gaussian(p.mu, s), X),
                                     (p.log_sigma,), 0))
    H = s2s_ad.hessian(nll, wrt=0)(p, X)
    _close(H.mu.mu, np.array([numeric_grad(
        lambda mu: s2s_ad.grad(nll)(up.Gaussian(mu, p.log_sigma), X).mu[j], (p.mu,), 0)
        for j in range(3)]))


def test_5_grad_of_a_bound_method(both_paths):
    model = up.Ridge(RS.randn(3), 0.3)
    if both_paths == "specialised":
        g = s2s_ad.grad(model.loss, wrt="self")(X, Y)
        _close(s2s_ad.grad(model.loss)(X, Y), numeric_grad(lambda x: model.loss(x, Y),
                                                           (X,), 0))
    else:
        g = on_path(s2s_ad.grad(up.Ridge.loss), both_paths)(model, X, Y)
    _close(g.lam, np.dot(model.w, model.w))
    _close(g.w, _in_attribute(lambda m: m.loss(X, Y), model, "w"))


def test_6_static_and_class_method_helpers(both_paths):
    model = up.Softplus(RS.randn(3) * 0.5)
    g = on_path(s2s_ad.grad(up.Softplus.loss), both_paths)(model, X)
    _close(g.w, _in_attribute(lambda m: m.loss(X), model, "w"))


def test_7_closure_over_a_hyper_parameter(both_paths):
    huber = up.make_huber(0.5)
    r = RS.randn(7)
    _close(s2s_ad.grad(huber)(r), numeric_grad(huber, (r,), 0))
    v = RS.randn(7)
    _close(s2s_ad.jvp(huber)(r, v)[1], np.dot(numeric_grad(huber, (r,), 0), v))


def test_8_partial_fixing_the_data(both_paths):
    y = (RS.rand(6) > 0.5).astype(float)
    made = up.partial_loss(X, y)
    loss = functools.partial(fresh(made.func), *made.args, **made.keywords)
    w = RS.randn(3)
    _close(s2s_ad.grad(loss)(w), numeric_grad(loss, (w,), 0))
    H = s2s_ad.hessian(loss)(w)
    _close(H, np.array([numeric_grad(lambda v: s2s_ad.grad(loss)(v)[j], (w,), 0)
                        for j in range(3)]))


@pytest.mark.parametrize("name", ["tanh", "relu", "softplus"])
def test_9_activation_chosen_by_name(both_paths, name):
    net = fresh(up.net_with)
    W = RS.randn(3, 2)
    _close(s2s_ad.grad(net, wrt=1)(name, W, X), numeric_grad(lambda w: net(name, w, X),
                                                               (W,), 0))


def test_10_property_computed_from_a_parameter(both_paths):
    """`self.scale` of a `@property` was "computed (a property or a method), not stored":
    it is the getter called on self, differentiated through log_s."""
    model = up.LogScale(0.3, RS.randn(3))
    x = RS.randn(3)
    g = on_path(s2s_ad.grad(up.LogScale.loss), both_paths)(model, x)
    assert type(g) is up.LogScale
    _close(g.log_s, _in_attribute(lambda m: m.loss(x), model, "log_s"))
    _close(g.w, _in_attribute(lambda m: m.loss(x), model, "w"))
    _close(on_path(s2s_ad.grad(up.LogScale.loss, wrt=1), both_paths)(model, x),
           numeric_grad(lambda v: model.loss(v), (x,), 0))


def test_11_subclass_overriding_one_method(both_paths):
    """`self.activation(z)` in Base.loss on a Swish was "resolved on Base, but Swish
    overrides `activation`": the specialised derivative knows self is a Swish; the
    general one calls the method chosen when the code runs, so it differentiates in x,
    and with self differentiated it is a located error (Swish's part would be lost)."""
    model, x = up.Swish(RS.randn(3)), RS.randn(3)
    _close(on_path(s2s_ad.grad(up.Base.loss, wrt=1), both_paths)(model, x),
           numeric_grad(model.loss, (x,), 0))
    grad = on_path(s2s_ad.grad(up.Base.loss), both_paths)
    if both_paths == "specialised":
        g = grad(model, x)
        assert type(g) is up.Swish
        _close(g.w, _in_attribute(lambda m: m.loss(x), model, "w"))
        base = up.Base(model.w)
        _close(grad(base, x).w, _in_attribute(lambda m: m.loss(x), base, "w"))
        return
    with pytest.raises(s2s_ad.UnsupportedSyntaxError, match="`self.activation") as info:
        grad(model, x)
    assert "self.activation(self.w * x)" in str(info.value)


def test_12_callable_model_of_sub_models(both_paths):
    model = up.TwoLayer(up.Affine(RS.randn(3, 4), RS.randn(4) * 0.1),
                        up.Affine(RS.randn(4, 1), RS.randn(1) * 0.1))
    mse = fresh(up.mse)
    _close(s2s_ad.grad(mse, wrt=1)(model, X, Y),
           numeric_grad(lambda x: mse(model, x, Y), (X,), 0))
    if both_paths == "general":
        with pytest.raises(s2s_ad.NonDifferentiableError, match="`model` is called here"):
            s2s_ad.grad(mse)(model, X, Y)
        return
    g = s2s_ad.grad(mse)(model, X, Y)
    assert type(g) is up.TwoLayer and type(g.first) is up.Affine
    for part in ("first", "second"):
        for name in ("W", "b"):
            def loss_of(layer, part=part):
                other = copy.copy(model)
                setattr(other, part, layer)
                return mse(other, X, Y)
            _close(getattr(getattr(g, part), name),
                   _in_attribute(loss_of, getattr(model, part), name))
