"""Containers as inputs, nested functions, lambdas and recursion, against finite differences."""
import numpy as np
import pytest

import s2s_ad
from gradcheck import assert_grad_matches
from programs import containers as c
from programs import functions as fn

RNG = np.random.default_rng(7)


def _numeric(f, x, bump, eps=1e-6):
    return (f(bump(x, eps)) - f(bump(x, -eps))) / (2 * eps)


def test_dict_of_arrays_gradient_is_a_dict_with_the_same_keys():
    params = {"W1": RNG.standard_normal((3, 4)), "b1": RNG.standard_normal(4),
              "W2": RNG.standard_normal((4, 2)), "unused": np.ones(2)}
    x = RNG.standard_normal((5, 3))
    g = s2s_ad.grad(c.mlp)(params, x)
    assert set(g) == set(params)
    for key, value in params.items():
        assert g[key].shape == value.shape
        for idx in [(0,) * value.ndim, tuple(s - 1 for s in value.shape)]:
            def bump(p, eps, key=key, idx=idx):
                q = {k: v.copy() for k, v in p.items()}
                q[key][idx] += eps
                return q
            expected = _numeric(lambda p: c.mlp(p, x), params, bump)
            assert g[key][idx] == pytest.approx(expected, rel=1e-5, abs=1e-7)
    assert not g["unused"].any()


def test_nested_dicts():
    params = {"layer": {"W": RNG.standard_normal((3, 2)), "b": RNG.standard_normal(2)},
              "scale": 1.5}
    x = RNG.standard_normal((4, 3))
    g = s2s_ad.grad(c.nested_params)(params, x)
    assert set(g) == {"layer", "scale"} and set(g["layer"]) == {"W", "b"}
    h = np.tanh(x @ params["layer"]["W"] + params["layer"]["b"])
    assert g["scale"] == pytest.approx(np.sum(h))
    np.testing.assert_allclose(g["layer"]["b"], np.sum(1.5 * (1 - h * h), axis=0))


def test_tuple_and_list_inputs_keep_their_structure():
    pair = (np.ones(3), np.arange(3.0))
    g_pair, g_w = s2s_ad.grad(c.pair_loss, wrt=(0, 1))(pair, np.full(3, 2.0))
    assert isinstance(g_pair, tuple)
    np.testing.assert_allclose(g_pair[0], 2.0)
    np.testing.assert_allclose(g_pair[1], 2 * np.arange(3.0))
    np.testing.assert_allclose(g_w, 1.0)
    xs = [np.zeros(2), np.ones(3)]
    g = s2s_ad.grad(c.seq_loss)(xs)
    assert isinstance(g, list) and [a.shape for a in g] == [(2,), (3,)]
    np.testing.assert_allclose(g[1], np.cos(1.0))
    pairs = [(np.ones(2), np.full(2, 3.0)), (np.arange(2.0), np.ones(2))]
    g = s2s_ad.grad(c.list_of_pairs)(pairs)
    np.testing.assert_allclose(g[0][0], 3.0)
    np.testing.assert_allclose(g[1][1], np.arange(2.0))


def test_dict_items_loop_and_indexed_array():
    g = s2s_ad.grad(c.dict_loop)({"a": np.ones(2), "b": 3.0})
    np.testing.assert_allclose(g["a"], 2.0)
    assert g["b"] == pytest.approx(6.0)
    np.testing.assert_allclose(s2s_ad.grad(c.indexed_array)(np.array([1.0, 2.0, 3.0, 4.0])),
                               [2.0, 3.0, 2.0, 0.0])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_nested_functions_and_lambdas(seed):
    rng = np.random.default_rng(seed)
    assert_grad_matches(fn.with_nested, [rng.standard_normal((3, 4)), 0.7], wrt=(0, 1))
    assert_grad_matches(fn.nested_with_branch, [rng.uniform(0.1, 0.45)])
    assert_grad_matches(fn.nested_with_branch, [rng.uniform(0.55, 0.9)])


def test_recursive_helpers():
    for x in (0.3, 0.7, 1.1):
        assert_grad_matches(fn.uses_recursion, [x])


def test_inlined_nested_function_is_readable():
    text = s2s_ad.normalize(fn.nested_with_branch)
    assert "def clipped" not in text and "if " in text


def test_forward_mode_with_containers_nested_functions_and_recursion():
    from gradcheck import forward_check
    params = {"W1": RNG.standard_normal((3, 4)), "b1": RNG.standard_normal(4),
              "W2": RNG.standard_normal((4, 2))}
    x = RNG.standard_normal((5, 3))
    tangent = {k: RNG.standard_normal(v.shape) for k, v in params.items()}
    _, derivative = s2s_ad.jvp(c.mlp)(params, x, tangent)
    gradient = s2s_ad.grad(c.mlp)(params, x)
    assert derivative == pytest.approx(sum(np.sum(gradient[k] * tangent[k]) for k in params))
    _, d_pair = s2s_ad.jvp(c.pair_loss)((np.ones(3), np.arange(3.0)), np.full(3, 2.0),
                                         (np.ones(3), np.ones(3)))
    assert d_pair == pytest.approx(12.0)
    forward_check(fn.with_nested, [RNG.standard_normal((3, 4)), 0.7], (0, 1))
    for x0 in (0.3, 0.7):
        forward_check(fn.uses_recursion, [x0], (0,))


def test_iterating_a_dict_directly_walks_its_keys():
    rng = np.random.default_rng(4)
    params = {"a": rng.standard_normal(3), "b": rng.standard_normal(2)}
    x = rng.standard_normal(3)
    grads = s2s_ad.grad(c.dict_by_key)(params, x)
    assert set(grads) == {"a", "b"}
    eps = 1e-6
    for key in params:
        for k in range(params[key].size):
            up = {n: v.copy() for n, v in params.items()}
            down = {n: v.copy() for n, v in params.items()}
            up[key][k] += eps
            down[key][k] -= eps
            fd = (c.dict_by_key(up, x) - c.dict_by_key(down, x)) / (2 * eps)
            assert grads[key][k] == pytest.approx(fd, rel=1e-6, abs=1e-9)
    assert_grad_matches(c.dict_by_key, [params, x], wrt=1)


def test_iterating_indices_that_subscript_their_own_list():
    rng = np.random.default_rng(5)
    xs = rng.standard_normal((4, 3))
    assert_grad_matches(c.rows_by_index, [xs, [2, 0, 3]], wrt=0)


@pytest.mark.parametrize("func, shape", [(c.builtin_sum_of_vector, (3,)),
                                         (c.builtin_sum_of_rows, (3, 2))])
def test_builtin_sum_over_an_array_gives_an_array_gradient(func, shape):
    x = RNG.standard_normal(shape)
    g = s2s_ad.grad(func)(x)
    assert isinstance(g, np.ndarray) and g.shape == shape
    assert_grad_matches(func, [x], wrt=(0,))


def test_writes_into_dict_and_list_arguments():
    p = {"w": np.array([1.0, -2.0]), "b": 0.5}
    before = {"w": p["w"].copy(), "b": p["b"]}
    g = s2s_ad.grad(c.updates_dict_entry)(p)
    w2 = 2.0 * before["w"]
    np.testing.assert_allclose(g["w"], 2.0 * (2.0 * w2 + before["b"]))
    assert g["b"] == pytest.approx(np.sum(w2))
    np.testing.assert_array_equal(p["w"], before["w"])      # the caller's dict is untouched

    x = np.array([0.3, -0.4])
    p = {"w": np.array([0.2, 0.1]), "b": 1.3}
    g = s2s_ad.grad(c.steps_dict_in_loop)(p, x)
    for key, idx in (("w", 0), ("w", 1), ("b", None)):
        def bump(q, eps, key=key, idx=idx):
            r = {k: np.array(v, dtype=float) for k, v in q.items()}
            if idx is None:
                r[key] = float(r[key]) + eps
            else:
                r[key][idx] += eps
            return r
        expected = _numeric(lambda q: c.steps_dict_in_loop(q, x), p, bump)
        got = g[key] if idx is None else g[key][idx]
        assert got == pytest.approx(expected, rel=1e-5, abs=1e-7)

    xs = [np.array([1.0, 2.0]), np.array([0.5, -1.0])]
    g = s2s_ad.grad(c.updates_list_item)(xs)
    np.testing.assert_allclose(g[0], xs[1])
    np.testing.assert_allclose(g[1], xs[0] + 2.0 * xs[1])
    np.testing.assert_array_equal(xs[0], [1.0, 2.0])


def test_a_list_of_lists_argument_gets_a_list_of_lists():
    g = s2s_ad.grad(c.sum_of_squares_of_rows)([[1.0, 2.0], [3.0, 4.0]])
    assert isinstance(g, list) and all(isinstance(row, list) for row in g)
    assert g == [[2.0, 4.0], [6.0, 8.0]]
