"""Derivatives built for what the arguments are (signature.py, analyses/kinds.py, dispatch.py).

The same f called with floats, 1-D and 2-D arrays, a length-1 axis, float32 and tuples
gets the right gradient each time, in any order of calls, one derivative per distinct
signature; the specialised source carries no shape bookkeeping where the facts decide it.
"""
import itertools
import math

import numpy as np
import pytest

import s2s_ad
from s2s_ad.analyses.kinds import analyse_kinds
from s2s_ad.api import general_derivative
from s2s_ad.derivative_registry import dispatcher_of
from s2s_ad.pipeline import front
from s2s_ad.signature import Items, Mapping, Num, Opaque, SequenceOf, describe, kind_of
from gradcheck import numeric_grad


def scaled_shift(x, w, b):
    return np.sum(np.tanh(x * w + b) ** 2)


def horner(x, a, coeffs):
    p = 0.0
    for c in coeffs:
        p = p * x + a * c
    return p


def rnn(h, W, xs):
    for x in xs:
        h = np.tanh(W @ h + x)
    return np.sum(h * h)


CALLS = {
    "floats": (0.3, -1.2, 0.5),
    "vector": (np.linspace(-1, 1, 5), np.linspace(0.5, 1.5, 5), 0.25),
    "matrix_by_row": (np.arange(12.0).reshape(3, 4) / 10, np.linspace(0.1, 0.4, 4), 0.1),
    "length_one_axis": (np.arange(6.0).reshape(3, 2) / 10, np.ones((1, 2)) * 0.7,
                        np.full((3, 1), -0.2)),
    "float32": (np.linspace(-1, 1, 4, dtype=np.float32),
                np.float32(0.8), np.linspace(0, 1, 4, dtype=np.float32)),
    "numpy_scalar": (np.float64(0.4), 2.0, np.float64(-0.1)),
}


def _check(df, args, wrt):
    got = df(*args)
    for k, g in zip(wrt, got):
        expected = numeric_grad(scaled_shift, [np.asarray(a, dtype=float) if
                                               isinstance(a, np.ndarray) else float(a)
                                               for a in args], k)
        assert np.shape(g) == np.shape(args[k])
        tol = 2e-3 if getattr(args[k], "dtype", None) == np.float32 else 1e-6
        np.testing.assert_allclose(g, expected, rtol=tol, atol=tol)
        for a in args:
            assert not (isinstance(a, np.ndarray) and isinstance(g, np.ndarray)
                        and np.shares_memory(a, g))


@pytest.mark.parametrize("order", list(itertools.permutations(["floats", "vector",
                                                                "length_one_axis"]))
                         + [tuple(CALLS)])
def test_every_signature_gets_its_gradient_in_any_order(order):
    import types
    fn = types.FunctionType(scaled_shift.__code__, scaled_shift.__globals__, "scaled_shift")
    df = s2s_ad.grad(fn, wrt=(0, 1, 2))
    for name in order + order:                  # each twice: the second goes through a guard
        _check(df, CALLS[name], (0, 1, 2))
    assert len(dispatcher_of(df).built) == len(set(order))


def test_float32_in_float32_out():
    args = CALLS["float32"]
    grads = s2s_ad.grad(scaled_shift, wrt=(0, 1, 2))(*args)
    assert [type(g) for g in grads] == [np.ndarray, np.float32, np.ndarray]
    assert all(g.dtype == np.float32 for g in grads)


def test_loop_over_a_tuple_of_floats_is_plain_float_code():
    df = s2s_ad.grad(horner, wrt=(0, 1))
    coeffs = (1.0, -2.0, 0.5, 3.0)
    gx, ga = df(0.7, 1.3, coeffs)
    assert type(gx) is float and type(ga) is float
    assert gx == pytest.approx(numeric_grad(horner, [0.7, 1.3, coeffs], 0))
    source = s2s_ad.derivative_source(df, 0.7, 1.3, coeffs)
    for bookkeeping in ("unbroadcast", "shape_of", "placeholder", "match_adjoint",
                        "check_scalar_output", "Python numbers"):
        assert bookkeeping not in source
    # a list of floats and a tuple of another length: one more signature, not one per length
    df(0.7, 1.3, [1.0, 2.0])
    df(0.7, 1.3, (1.0, 2.0, 3.0, 4.0, 5.0, 6.0))
    assert len(dispatcher_of(df).built) == 2


def test_broadcast_contributions_are_explicit_sums_over_the_broadcast_axes():
    X, w, b = CALLS["length_one_axis"]
    source = s2s_ad.derivative_source(s2s_ad.grad(scaled_shift, wrt=(0, 1, 2)), X, w, b)
    assert "unbroadcast" not in source
    assert "np.sum(" in source and "axis=1, keepdims=True" in source
    # w's (1, n): the product's sum over axis 0, kept, in one pass (ad/contractions.py)
    assert "w_bar = np.expand_dims(np.einsum('ab,ab->b', t2_0_bar, x), 0)" in source
    assert "float_gradient" not in source


def test_a_loop_over_arrays_keeps_the_general_helper_only_where_facts_run_out():
    h, W = np.full(3, 0.1), np.eye(3) * 0.5
    xs = [np.ones(3) * k for k in (0.1, 0.2, 0.3)]
    df = s2s_ad.grad(rnn, wrt=(0, 1))
    gh, gW = df(h, W, xs)
    np.testing.assert_allclose(gh, numeric_grad(rnn, [h, W, xs], 0), rtol=1e-6)
    np.testing.assert_allclose(gW, numeric_grad(rnn, [h, W, xs], 1), rtol=1e-6)
    assert "shape_of" not in s2s_ad.derivative_source(df, h, W, xs)


def test_opaque_arguments_get_the_general_derivative():
    def f(x, label):
        return x * x if label == "square" else x

    df = s2s_ad.grad(f)
    assert df(3.0, "square") == pytest.approx(6.0)
    assert "type(label) is str" in s2s_ad.derivative_source(df)


def test_forcing_the_general_derivative(monkeypatch):
    monkeypatch.setenv("S2S_AD_GENERAL", "1")
    import types
    fn = types.FunctionType(horner.__code__, horner.__globals__, "horner")
    df = s2s_ad.grad(fn)
    assert df(0.5, 2.0, (1.0, 2.0)) == pytest.approx(2.0)
    assert not dispatcher_of(df).built
    assert s2s_ad.derivative_source(df, 0.5, 2.0, (1.0, 2.0)) == \
        s2s_ad.derivative_source(general_derivative(df))


def test_calling_through_the_guard_is_the_same_function_each_time():
    df = s2s_ad.grad(scaled_shift)
    first = df(0.1, 0.2, 0.3)
    code = df.__code__
    assert df(0.1, 0.2, 0.3) == first and df.__code__ is code    # no rebuild


# ---- signatures ----------------------------------------------------------------------

@pytest.mark.parametrize("value, text", [
    (1.5, "float"), (3, "int"), (True, "bool"), (np.float32(2), "float32"),
    (np.ones((4, 1, 3)), "float64[n,1,n]"), (np.ones(2, dtype=np.float32), "float32[n]"),
    ((1.0, 2.0, 3.0), "tuple[float, ...]"), ([np.ones(2), 1.0], "list[float64[n], float]"),
    ({"w": np.ones(3)}, "{'w': float64[n]}"), ("relu", "str"),
    (np.ones((0, 3)), "ndarray"), (np.array(["a"]), "ndarray"),
])
def test_kind_of_an_argument(value, text):
    assert describe(kind_of(value)) == text


def test_one_kind_serves_every_batch_size():
    assert kind_of(np.ones((64, 10))) == kind_of(np.ones((512, 10)))
    assert kind_of(np.ones((64, 10))) != kind_of(np.ones((1, 10)))
    assert kind_of((1.0,) * 100) == SequenceOf(tuple, Num(float, "float64", ()))
    assert isinstance(kind_of([np.ones(2)] * 40), Opaque)
    assert kind_of({"a": 1.0}) == Mapping((("a", Num(float, "float64", ())),))
    assert kind_of((np.ones(2), 1.0)) == Items(tuple, (kind_of(np.ones(2)), kind_of(1.0)))


# ---- facts over the levels form ------------------------------------------------------

def slicing(x, m, n):
    a = x[:2]
    b = x[1:]
    c = x[::2]
    d = x[x > 0]
    k = x.shape[0]
    e = np.zeros(k)
    f = np.zeros(k - 1)
    g = np.zeros(n)
    h = x[:, None] * x
    i = np.sum(h, axis=0, keepdims=True)
    return a, b, c, d, e, f, g, h, i, m


def _facts(fn, *args):
    levels, _ = front(fn)
    signature = dict(zip(levels.resolution.parameters, map(kind_of, args)))
    return {name: describe(kind) for name, kind in analyse_kinds(levels, signature).facts.items()}


def test_facts_are_known_only_where_every_length_agrees():
    facts = _facts(slicing, np.ones(4), 2.0, 3)
    assert facts["a"] == "float64[n]"        # x[:2]: 2 whenever len(x) >= 2
    # x[1:]: length 1 when len(x) == 2; strided: only the dtype is a fact (an array of
    # x's dtype, its axes unknown)
    assert facts["b"] == "float64[?]"
    assert facts["c"] == "float64[?]"
    assert facts["d"] == "any"               # a boolean mask: data-dependent
    assert facts["e"] == "float64[n]"        # a length read off a shape
    assert facts["f"] == "any"               # n - 1 may be 1
    assert facts["g"] == "any"               # an integer argument's value is not known
    assert facts["h"] == "float64[n,n]"
    assert facts["i"] == "float64[1,n]"
    assert facts["m"] == "float"


def branches(x, flag):
    if flag:
        y = x * 2.0
    else:
        y = np.sum(x)
    z = 0.0
    for _ in range(3):
        z = z + np.sum(x)
    return y, z


def test_branches_and_loops_join_their_kinds():
    facts = _facts(branches, np.ones(3), True)
    assert facts["y"] == "float64[?]"        # an array on one path, a number on the other
    assert facts["z"] == "number"            # a float, then np.float64: a number either way
    levels, _ = front(branches)
    kinds = analyse_kinds(levels, {"x": kind_of(np.ones(3)), "flag": kind_of(True)})
    assert kinds.axes("z") == ()             # a float, then np.float64: a number either way


def test_math_functions_in_float_code():
    def f(x, y):
        s = 0.0
        for k in range(3):
            s = s + math.exp(x * k) * y
        return s

    df = s2s_ad.grad(f, wrt=(0, 1))
    gx, gy = df(0.2, 1.5)
    assert gx == pytest.approx(numeric_grad(f, [0.2, 1.5], 0))
    assert gy == pytest.approx(numeric_grad(f, [0.2, 1.5], 1))


def _affine(x, w, b):
    return x * w + b


def _softplus(z):
    return np.log(1.0 + np.exp(z))


def with_helpers(X, w, b):
    total = 0.0
    for row in X:
        total = total + np.sum(_softplus(_affine(row, w, b)) * 2.0)
    return total


def test_helpers_are_specialised_on_their_call_sites_kinds():
    X, w = np.linspace(-1, 1, 12).reshape(3, 4), np.linspace(0.5, 1.0, 4)
    df = s2s_ad.grad(with_helpers, wrt=(1, 2))
    for b in (0.3, np.full(4, 0.3), np.full((1, 4), 0.3)):
        gw, gb = df(X, w, b)
        np.testing.assert_allclose(gw, numeric_grad(with_helpers, [X, w, b], 1), rtol=1e-6)
        np.testing.assert_allclose(gb, numeric_grad(with_helpers, [X, w, b], 2), rtol=1e-6)
        assert np.shape(gb) == np.shape(b)
    source = s2s_ad.derivative_source(df, X, w, 0.3)
    assert "vjp__affine_1(" in source or "vjp__affine_1_w_b(" in source
    # the helper's result kind is known in the caller: no unbroadcast after it
    assert "unbroadcast" not in source


def _row_loss(X, w):
    total = 0.0
    for row in X:
        total = total + np.sum(np.log(1.0 + np.exp(row * w)))
    return total


def test_a_list_of_floats_read_as_an_array_gets_one_gradient_per_item():
    X, w = np.linspace(-1, 1, 12).reshape(3, 4), [0.5, -0.2, 0.1, 0.3]
    df = s2s_ad.grad(_row_loss, wrt=1)
    for grad in (df, general_derivative(df)):
        g = grad(X, w)
        assert isinstance(g, list) and len(g) == 4
        np.testing.assert_allclose(g, numeric_grad(_row_loss, [X, np.array(w)], 1), rtol=1e-6)


def _nll(w, X, y):
    p = 1.0 / (1.0 + np.exp(-(X @ w)))
    return -np.mean(y * np.log(p) + (1.0 - y) * np.log(1.0 - p))


def test_closed_forms_only_where_facts_prove_one_shape():
    rng = np.random.default_rng(0)
    X, y, w = rng.standard_normal((20, 3)), (rng.random(20) > 0.5) * 1.0, rng.standard_normal(3)
    df = s2s_ad.grad(_nll)
    np.testing.assert_allclose(df(w, X, y), numeric_grad(_nll, [w, X, y], 0), rtol=1e-6)
    source = s2s_ad.derivative_source(df, w, X, y)
    assert "closed form" in source and "if " not in source
    # the general derivative and booleans (numpy's + on them is `or`) keep the sweep, with
    # no run-time test
    for other in (s2s_ad.derivative_source(general_derivative(df)),
                  s2s_ad.derivative_source(df, w, X, y > 0.5)):
        assert "closed form" not in other and "if " not in other
    np.testing.assert_allclose(general_derivative(df)(w, X, y), df(w, X, y), rtol=1e-12)


# ---- found by review: values of unknown integers, flags and globals decide nothing --------

def _center(X, axis):
    m = np.mean(X, axis=axis, keepdims=True)
    return np.sum(np.tanh(X - m) ** 2)


def _softmax_sum(X, axis=-1):
    e = np.exp(X - np.max(X, axis=axis, keepdims=True))
    return np.sum(e / np.sum(e, axis=axis, keepdims=True) * np.arange(12.0).reshape(3, 4))


def _loop_axes(X):
    s = 0.0
    for ax in (0, 1):
        s = s + np.sum(np.tanh(X - np.mean(X, axis=ax, keepdims=True)) ** 2)
    return s


def _branch_axis(X, c):
    ax = 0 if c > 0 else 1
    return np.sum(np.tanh(X - np.mean(X, axis=ax, keepdims=True)) ** 2)


def _flag_keepdims(X, flag):
    return np.sum(np.sin(np.sum(X, axis=0, keepdims=flag) * X[0]))


def _reversed_from(x, k):
    return np.sum(np.sin(x[k::-1] * x))


def _last_k(x, k):
    return np.sum(np.sin(x[-k:] * x))


def _expand(x, k):
    return np.sum(np.sin(np.expand_dims(x, k) * x[:, None]))


_X34 = np.linspace(-1.0, 1.0, 12).reshape(3, 4)
_X33 = np.linspace(-1.0, 1.0, 9).reshape(3, 3)


@pytest.mark.parametrize("fn, args", [
    (_center, (_X34, 1)), (_center, (_X34, 0)), (_softmax_sum, (_X34,)), (_loop_axes, (_X34,)),
    (_branch_axis, (_X34, -1.0)), (_branch_axis, (_X34, 1.0)), (_flag_keepdims, (_X33, False)),
    (_flag_keepdims, (_X33, True)), (_reversed_from, (np.array([1.0, 2.0, 3.0]), 2)),
    (_last_k, (np.array([0.1, 0.2, 0.3]), 1)), (_expand, (np.array([0.1, 0.2, 0.3]), 1)),
])
def test_integers_and_flags_of_unknown_value_decide_no_shape(fn, args):
    df = s2s_ad.grad(fn)
    np.testing.assert_allclose(df(*args), numeric_grad(fn, list(args), 0), rtol=1e-6,
                               atol=1e-8)


SCALE_BY = np.ones(1)


def _uses_global(w):
    return np.sum(np.sin(w * SCALE_BY))


def test_a_global_array_rebound_to_another_shape_is_seen(monkeypatch):
    df = s2s_ad.grad(_uses_global)
    w = np.array([0.3])
    df(w)
    monkeypatch.setattr(__import__(__name__), "SCALE_BY", np.array([1.0, 2.0, 3.0]))
    g = df(w)
    assert g.shape == (1,)
    np.testing.assert_allclose(g, numeric_grad(_uses_global, [w], 0), rtol=1e-6)


def _euler(theta, x0, dt):
    a, b = theta[0], theta[3]
    x = x0
    for _ in range(5):
        x = x + dt * (a * x - b * x * x)
    return x


def test_parameters_read_from_an_array_by_index_are_numbers():
    theta = np.array([1.0, 0.5, 0.2, 0.1])
    df = s2s_ad.grad(_euler)
    np.testing.assert_allclose(df(theta, 2.0, 0.1), numeric_grad(_euler, [theta, 2.0, 0.1], 0),
                               rtol=1e-6)
    source = s2s_ad.derivative_source(df, theta, 2.0, 0.1)
    assert "unbroadcast" not in source and "shape_of" not in source


def _softplus_loss(w, X, y):
    z = X @ w
    return np.mean(np.logaddexp(0.0, z) - y * z)


def _fill_then_weigh(x, w):
    y = np.zeros(len(x))
    for i in range(len(x)):
        y[i] = x[i] ** 2
    return np.sum(y * w)


def test_a_full_reduction_seed_stays_a_number_until_an_array_needs_it():
    rng = np.random.default_rng(0)
    w, X, y = rng.standard_normal(3), rng.standard_normal((8, 3)), (rng.random(8) > 0.5) * 1.0
    df = s2s_ad.grad(_softplus_loss)
    np.testing.assert_allclose(df(w, X, y), numeric_grad(_softplus_loss, [w, X, y], 0),
                               rtol=1e-6)
    assert "unreduce" not in s2s_ad.derivative_source(df, w, X, y)
    # an array written in place (y[i] = ...) and restored by the backward sweep is never
    # passed on by name: w's gradient is y's value, not the array the sweep restores
    x, v = rng.standard_normal(5), rng.standard_normal(5)
    gx, gv = s2s_ad.grad(_fill_then_weigh, wrt=(0, 1))(x, v)
    np.testing.assert_allclose(gv, x ** 2)
    np.testing.assert_allclose(gx, 2 * x * v)


def test_jvp_and_vjp_are_specialised_too():
    jf = s2s_ad.jvp(scaled_shift, wrt=(0, 1))
    vf = s2s_ad.vjp(_elementwise_tanh, wrt=0)
    for name in ("floats", "vector", "length_one_axis", "float32"):
        x, w, b = CALLS[name]
        tx, tw = np.ones_like(np.asarray(x)) * 0.3, np.ones_like(np.asarray(w)) * -0.2
        tx = float(tx) if np.ndim(x) == 0 else tx
        tw = float(tw) if np.ndim(w) == 0 else tw
        value, derivative = jf(x, w, b, (tx, tw))
        eps = 1e-6
        x64, w64 = np.asarray(x, dtype=float), np.asarray(w, dtype=float)
        expected = (scaled_shift(x64 + eps * tx, w64 + eps * tw, b)
                    - scaled_shift(x64 - eps * tx, w64 - eps * tw, b)) / (2 * eps)
        tol = 2e-3 if name == "float32" else 1e-6
        assert derivative == pytest.approx(expected, rel=tol, abs=tol)
        assert "For x: " in s2s_ad.derivative_source(jf, x, w, b, (tx, tw))
        cot = np.ones(np.shape(np.tanh(np.asarray(x) * w)))
        got = vf(np.asarray(x, dtype=float), np.asarray(w, dtype=float), cot)
        np.testing.assert_allclose(got, (1 - np.tanh(x64 * w64) ** 2) * w64 * cot
                                   if np.ndim(x) else np.sum((1 - np.tanh(x64 * w64) ** 2) * w64),
                                   rtol=1e-6)
    assert len(dispatcher_of(jf.__wrapped__).built) == 4


def _elementwise_tanh(x, w):
    return np.tanh(x * w)


def test_hvp_and_hessian_use_the_gradient_built_for_the_arguments():
    hv = s2s_ad.hvp(scaled_shift, wrt=0)
    gradient = s2s_ad.grad(scaled_shift, wrt=0)
    for name in ("vector", "length_one_axis"):
        x, w, b = CALLS[name]
        v = np.linspace(0.2, 0.9, np.size(x)).reshape(np.shape(x))
        eps = 1e-6
        expected = (gradient(x + eps * v, w, b) - gradient(x - eps * v, w, b)) / (2 * eps)
        np.testing.assert_allclose(hv(x, w, b, v), expected, rtol=1e-5, atol=1e-7)
        assert "jvp_grad_scaled_shift_" in s2s_ad.derivative_source(hv, x, w, b, v)
    assert s2s_ad.hessian(horner)(0.5, 2.0, (1.0, 2.0, 3.0)) == pytest.approx(4.0)


def _doubling(x):
    n = 0
    while x < 10.0:
        x = x * 2.0
        n = n + 1
    return x + n


def test_grad_of_grad_differentiates_the_gradient_built_for_the_arguments():
    gradient = s2s_ad.grad(horner)
    second = s2s_ad.grad(gradient)
    assert second(0.5, 2.0, (1.0, 2.0, 3.0)) == pytest.approx(4.0)
    assert "grad_grad_horner_1" in s2s_ad.derivative_source(second, 0.5, 2.0, (1.0, 2.0, 3.0))
    # the gradient 2 ** trips is piecewise constant in x: its derivative is zero
    assert s2s_ad.grad(s2s_ad.grad(_doubling))(1.5) == 0.0


def _weighted_walk(x, ws):
    total = 0.0
    for i in range(len(ws)):
        w = ws[i]
        total = total * x + w * np.sin(x * w)
    return total


def test_item_reads_in_a_loop_are_repeated_not_taped(reverse_mode):
    ws = np.linspace(0.5, 1.5, 6)
    df = s2s_ad.grad(_weighted_walk)
    assert df(0.3, ws) == pytest.approx(numeric_grad(_weighted_walk, [0.3, ws], 0))
    source = s2s_ad.derivative_source(df, 0.3, ws)
    # the item is read as a Python float (float64 scalar arithmetic costs 3-5x more), from
    # the array's items as a list (python_floats), in the forward loop and again in the
    # backward one (the list is bound once and only indexed: ad/recompute.py)
    assert source.count("w = ws_items[i]") == 2 and "float(ws" not in source
    assert "_tape.append(w)" not in source
    assert "w = None" not in source
    # the general derivative repeats the read too, and also tapes shapes
    general = s2s_ad.derivative_source(general_derivative(df))
    assert source.count("_tape.append(") < general.count("_tape.append(")


def _twice(x):
    t = np.sin(x)
    u = t + t
    return np.sum(u)


def _cancel(x):
    t = np.sin(x)
    u = t - t
    return np.sum(u) + np.sum(x)


def _square(a):
    return a * a


def _helper_then_sum(x):
    t = np.sin(x)
    h = _square(t)
    return np.sum(t) + np.sum(h)


def _mixed_dtypes(a, b, c):
    return np.sum(a) + np.mean(b * c)


@pytest.mark.parametrize("fn", [_twice, _cancel, _helper_then_sum])
def test_spread_numbers_meet_every_other_contribution(fn):
    x = np.array([0.3, 0.5, 0.9])
    df = s2s_ad.grad(fn)
    np.testing.assert_allclose(df(x), numeric_grad(fn, [x], 0), rtol=1e-6, atol=1e-9)
    hv = s2s_ad.hvp(fn)(x, np.array([1.0, 0.0, 0.0]))
    gradient = s2s_ad.grad(fn)
    e = np.array([1e-6, 0.0, 0.0])
    np.testing.assert_allclose(hv, (gradient(x + e) - gradient(x - e)) / 2e-6, atol=1e-6)


def test_a_spread_number_keeps_the_operands_dtype():
    a, b, c = np.ones(3), np.ones(4), np.full(4, 0.3, dtype=np.float32)
    ga, gb, gc = s2s_ad.grad(_mixed_dtypes, wrt=(0, 1, 2))(a, b, c)
    assert (ga.dtype, gb.dtype) == (np.float64, np.float64)
    np.testing.assert_allclose(gb, c / 4, rtol=1e-6)


def test_hvp_takes_its_vector_as_a_list():
    x = np.array([0.3, 0.5, 0.9])
    np.testing.assert_allclose(s2s_ad.hvp(_twice)(x, [1.0, 0.0, 0.0]),
                               s2s_ad.hvp(_twice)(x, np.array([1.0, 0.0, 0.0])))


def _named_like_builtins(x, type, general, len=2.0):
    return np.sum(x * len) if type == "a" else np.sum(x * x * general)


def test_parameters_named_like_the_guards_builtins():
    df = s2s_ad.grad(_named_like_builtins)
    x = np.ones(3)
    np.testing.assert_allclose(df(x, "a", 1.0), 2.0)
    np.testing.assert_allclose(df(x, "b", 2.0), 4.0 * x)
    np.testing.assert_allclose(df(x, "b", 2.0, 3.0), 4.0 * x)


def _row_sums_and_sines(x):
    a = np.sum(x, axis=-1)
    b = np.sin(x)
    return a + np.sum(b)


def test_a_reduction_over_an_axis_keeps_float32():
    x = np.linspace(0, 1, 3).astype(np.float32)
    df = s2s_ad.grad(_row_sums_and_sines)
    assert df(x).dtype == np.float32 and general_derivative(df)(x).dtype == np.float32
