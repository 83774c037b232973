"""Issue 14: a helper's adjoint belongs to its call site; list, tuple and dict gradients
keep their argument's structure and add item by item.

Each function is differentiated by grad, vjp, jvp and hvp, specialised and general
(the `both_paths` fixture), against central differences or values worked out by hand."""
import numpy as np
import pytest

import s2s_ad
from gradcheck import assert_grad_matches, forward_check, inner_product_check, numeric_grad
from paths import fresh


def _hvp_matches(f, args, k, v, eps=1e-5):
    """hvp(f, wrt=k) along v against central differences of the gradient along v."""
    got = s2s_ad.hvp(fresh(f), wrt=k)(*args, v)
    g = s2s_ad.grad(fresh(f), wrt=k)

    def bumped(scale):
        a = list(args)
        a[k] = args[k] + scale * v
        return np.asarray(g(*a), dtype=float)
    np.testing.assert_allclose(got, (bumped(eps) - bumped(-eps)) / (2 * eps), rtol=1e-5,
                               atol=1e-6)
    assert np.shape(got) == np.shape(args[k])


def _every_mode(f, args, wrt=(0,)):
    for k in wrt:
        assert_grad_matches(fresh(f), args, k)
        inner_product_check(fresh(f), args, (k,))
        forward_check(fresh(f), args, (k,))
        _hvp_matches(f, args, k, np.ones_like(args[k]) if isinstance(args[k], np.ndarray)
                     else 1.0)
    inner_product_check(fresh(f), args, wrt)


# ---- one helper, called with its arguments in other positions ---------------------------
def mul(a, b):
    return a * b


def swapped_calls(a, b):
    if np.sum(a) > 0:
        return mul(a, b)
    else:
        return mul(b, a)


def swapped_calls_then_sum(a, b):
    if np.sum(a) > 0:
        r = mul(a, b)
    else:
        r = mul(b, a * a)
    return np.sum(r * b)


def test_the_issues_swapped_helper_call(both_paths):
    # the call site on the taken branch decides: d(a * b)/da = b = 1, not a = 2
    assert s2s_ad.grad(fresh(swapped_calls))(2.0, 1.0) == 1.0
    assert s2s_ad.grad(fresh(swapped_calls))(-2.0, 1.0) == 1.0
    assert s2s_ad.grad(fresh(swapped_calls), wrt=1)(2.0, 3.0) == 2.0
    assert s2s_ad.vjp(fresh(swapped_calls))(2.0, 1.0, 1.0) == 1.0
    assert s2s_ad.jvp(fresh(swapped_calls))(2.0, 1.0, 1.0) == (2.0, 1.0)
    assert s2s_ad.grad(s2s_ad.grad(fresh(swapped_calls)), wrt=1)(2.0, 1.0) == 1.0


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_swapped_helper_calls_in_every_mode(both_paths, sign):
    _every_mode(swapped_calls, (sign * 2.0, 0.5), wrt=(0, 1))
    rng = np.random.default_rng(3)
    a, b = sign * (1.0 + rng.random(3)), rng.standard_normal(3)
    _every_mode(swapped_calls_then_sum, (a, b), wrt=(0, 1))


# ---- list gradients add item by item -------------------------------------------------------
def first(ws):
    return ws[0]


def second(ws):
    return ws[1]


def two_helpers(ws):
    return np.sum(first(ws)) + np.sum(second(ws) ** 2)


def helper_and_index(ws):
    return np.sum(first(ws) * ws[1][0]) + np.sum(ws[0] ** 2)


def predict(params, x):
    for W in params:
        x = np.tanh(x @ W)
    return x


def regulariser(params):
    total = 0.0
    for W in params:
        total = total + np.sum(W * W)
    return total


def net_loss(params, x):
    return np.sum(predict(params, x) ** 2) + 0.1 * regulariser(params)


def only_a_list(x):
    assert isinstance(x, list)
    return x[0]


def only_a_dict(x):
    assert isinstance(x, dict)
    return x["a"] * x["b"] + np.sum(x["c"])


def _numeric_items(f, items, k):
    """Central differences w.r.t. item k of the list argument."""
    def with_item(value):
        return f([value if j == k else item for j, item in enumerate(items)])
    return numeric_grad(with_item, [items[k]], 0)


def test_list_gradients_are_added_not_concatenated(both_paths):
    ws = [np.array([1.0, 2.0]), np.array([3.0])]
    for mode in ("grad", "vjp"):
        d = getattr(s2s_ad, mode)(fresh(two_helpers))
        g = d(ws) if mode == "grad" else d(ws, 1.0)
        assert isinstance(g, list) and len(g) == 2
        np.testing.assert_allclose(g[0], [1.0, 1.0])
        np.testing.assert_allclose(g[1], [6.0])
    value, tangent = s2s_ad.jvp(fresh(two_helpers))(ws, [np.ones(2), np.ones(1)])
    assert value == pytest.approx(12.0) and tangent == pytest.approx(8.0)
    hv = s2s_ad.hvp(fresh(two_helpers))(ws, [np.ones(2), np.ones(1)])
    assert isinstance(hv, list)
    np.testing.assert_allclose(hv[0], [0.0, 0.0])
    np.testing.assert_allclose(hv[1], [2.0])
    g = s2s_ad.grad(fresh(helper_and_index))(ws)
    assert isinstance(g, list) and len(g) == 2
    for k in range(2):
        np.testing.assert_allclose(g[k], _numeric_items(helper_and_index, ws, k), rtol=1e-6)


def test_a_net_whose_prediction_and_regulariser_read_the_parameters(both_paths):
    rng = np.random.default_rng(0)
    params = [rng.standard_normal((3, 4)) * 0.5, rng.standard_normal((4, 4)) * 0.5,
              rng.standard_normal((4, 2)) * 0.5]
    x = rng.standard_normal((5, 3))
    g = s2s_ad.grad(fresh(net_loss))(params, x)
    assert isinstance(g, list) and [w.shape for w in g] == [w.shape for w in params]
    for k in range(3):
        expected = _numeric_items(lambda p: net_loss(p, x), params, k)
        np.testing.assert_allclose(g[k], expected, rtol=1e-5, atol=1e-7)
    v = [np.ones_like(w) for w in params]
    hv = s2s_ad.hvp(fresh(net_loss))(params, x, v)
    assert isinstance(hv, list) and [w.shape for w in hv] == [w.shape for w in params]


def test_a_list_argument_tested_by_isinstance_keeps_its_structure(both_paths):
    for items, modes in (([1.0, 2.0], ("grad", "vjp")), ([np.ones(2), np.zeros(3)], ("vjp",))):
        for mode in modes:
            d = getattr(s2s_ad, mode)(fresh(only_a_list))
            g = d(items) if mode == "grad" else d(items, np.ones_like(items[0]))
            assert type(g) is list and len(g) == 2
            np.testing.assert_allclose(g[0], np.ones_like(items[0]))
            np.testing.assert_allclose(g[1], np.zeros_like(items[1]))
    value, tangent = s2s_ad.jvp(fresh(only_a_list))([1.0, 2.0], [0.5, 4.0])
    assert (value, tangent) == (1.0, 0.5)


def test_a_dict_argument_tested_by_isinstance(both_paths):
    x = {"a": 2.0, "b": 3.0, "c": np.arange(3.0)}
    for mode in ("grad", "vjp"):
        d = getattr(s2s_ad, mode)(fresh(only_a_dict))
        g = d(x) if mode == "grad" else d(x, 1.0)
        assert set(g) == {"a", "b", "c"}
        assert (g["a"], g["b"]) == (3.0, 2.0)
        np.testing.assert_allclose(g["c"], np.ones(3))
    value, tangent = s2s_ad.jvp(fresh(only_a_dict))(x, {"a": 1.0, "b": 0.0, "c": np.ones(3)})
    assert (value, tangent) == (9.0, 6.0)
    hv = s2s_ad.hvp(fresh(only_a_dict))(x, {"a": 1.0, "b": 0.0, "c": np.zeros(3)})
    assert (hv["a"], hv["b"]) == (0.0, 1.0)


# ---- sequences of differently shaped arrays ------------------------------------------------
def concatenated_tuples(x, y):
    t = (x,) + (y,)
    return np.sum(t[0]) + np.sum(t[1] ** 2)


def repeated_tuple(x, y):
    t = (x, y) * 2
    return np.sum(t[0] * 3.0) + np.sum(t[3] ** 2) + np.sum(t[1])


def norm_of_a_list(x):
    return np.linalg.norm([x, x + 2])


def test_a_tuple_of_differently_shaped_arrays(both_paths):
    x, y = np.array([0.5, -1.0]), np.array([1.0, 2.0, -0.5])
    _every_mode(concatenated_tuples, (x, y), wrt=(0, 1))
    _every_mode(repeated_tuple, (x, y), wrt=(0, 1))


def test_the_norm_of_a_list(both_paths):
    _every_mode(norm_of_a_list, (np.array([0.5, -1.0]),))
    _every_mode(norm_of_a_list, (1.5,))
    assert s2s_ad.grad(s2s_ad.grad(fresh(norm_of_a_list)))(1.5) == pytest.approx(
        (2 * np.sqrt(14.5) - 5 * 5 / np.sqrt(14.5)) / 14.5)
