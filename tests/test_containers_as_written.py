"""Containers the way user code walks them (issue 15, point 4): `sorted(d)` of a dict
argument is its sorted keys (it read the dict as a list before: a KeyError inside the
derivative), and a list argument copied in a branch (`ys = xs`) whose items are read gets
its gradient item by item on the general path too (it added a list to 0.0)."""
import operator

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on


def weighted_by_key_order(params):
    total = 0.0
    for i, key in enumerate(sorted(params)):
        total = total + np.sum(np.sin(params[key])) * (i + 1.0)
    return total


def sorted_keys_reversed(params):
    keys = sorted(params, reverse=True)
    return np.sum(params[keys[0]] ** 2) + 3.0 * np.sum(params[keys[1]])


def sorted_list(xs):
    ys = sorted(xs)
    return ys[0] * 2.0 + ys[-1] ** 2


def list_chosen_in_a_branch(xs, c):
    if c > 0:
        ys = xs
    else:
        ys = [xs[1], xs[0]]
    return ys[0] * 2.0 + ys[1] ** 3


PARAMS = {"w": np.array([0.3, -0.2]), "b": np.array([1.0, 2.0, 0.5])}


@pytest.mark.parametrize("path", PATHS)
def test_sorted_of_a_dict_is_its_keys(path):
    got = grad_on(path, weighted_by_key_order)(PARAMS)
    # "b" sorts first (weight 1), "w" second (weight 2)
    np.testing.assert_allclose(got["b"], np.cos(PARAMS["b"]))
    np.testing.assert_allclose(got["w"], 2.0 * np.cos(PARAMS["w"]))
    got = grad_on(path, sorted_keys_reversed)(PARAMS)
    np.testing.assert_allclose(got["w"], 2.0 * PARAMS["w"])
    np.testing.assert_allclose(got["b"], 3.0 * np.ones(3))


def test_sorted_of_a_dict_against_differences():
    s2s_ad.check_grads(weighted_by_key_order, PARAMS, order=2)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("xs", [[3.0, 1.0, 2.0], np.array([3.0, 1.0, 2.0])], ids=["list", "array"])
def test_sorted_of_a_sequence_still_differentiates_its_items(path, xs):
    got = grad_on(path, sorted_list)(xs)
    np.testing.assert_allclose(np.asarray(got, dtype=float), [6.0, 2.0, 0.0])
    assert isinstance(got, type(xs))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("c, expected", [(1.0, [2.0, 12.0]), (-1.0, [3.0, 2.0])])
def test_a_list_copied_in_a_branch(path, c, expected):
    got = grad_on(path, list_chosen_in_a_branch)([1.0, 2.0], c)
    assert isinstance(got, list)
    np.testing.assert_allclose(got, expected)


def from_pairs(x):
    d = dict([("a", x)], b=2.0 * x)
    return d["a"] * d["b"]


def from_a_display(x):
    d = dict({"a": x}, c=3.0)
    return d["a"] ** 2 * d["c"]


def copied_then_changed(p):
    q = dict(p)
    q["w"] = q["w"] * 2.0
    return np.sum(q["w"] * p["w"]) + np.sum(q["b"])


@pytest.mark.parametrize("path", PATHS)
def test_dict_made_from_pairs_a_display_or_a_copy(path):
    assert grad_on(path, from_pairs)(1.5) == pytest.approx(4.0 * 1.5)
    assert grad_on(path, from_a_display)(1.5) == pytest.approx(6.0 * 1.5)
    got = grad_on(path, copied_then_changed)(PARAMS)
    np.testing.assert_allclose(got["w"], 4.0 * PARAMS["w"])
    np.testing.assert_allclose(got["b"], np.ones(3))
    s2s_ad.check_grads(copied_then_changed, PARAMS)


def by_sorted_items(params):
    total = 0.0
    for i, (key, value) in enumerate(sorted(params.items(), key=operator.itemgetter(0))):
        total = total + np.sum(np.sin(value)) * (i + 1.0)
    return total


def best_pair(pairs):
    top = max(pairs, key=operator.itemgetter(1))
    return top[0] * top[1]


@pytest.mark.parametrize("path", PATHS)
def test_itemgetter_as_a_key(path):
    got = grad_on(path, by_sorted_items)(PARAMS)
    np.testing.assert_allclose(got["b"], np.cos(PARAMS["b"]))
    np.testing.assert_allclose(got["w"], 2.0 * np.cos(PARAMS["w"]))
    got = grad_on(path, best_pair)([(1.0, 2.0), (3.0, 5.0), (4.0, 1.0)])
    np.testing.assert_allclose(got, [(0.0, 0.0), (5.0, 3.0), (0.0, 0.0)])


def sines_of_items(xs):
    return np.sum(np.sin(xs[0])) + np.sum(np.cos(xs[1]))


def sum_of_its_gradient(xs):
    g = s2s_ad.grad(sines_of_items)(xs)
    return np.sum(g[0]) + np.sum(np.sin(g[1]))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("kind", [list, tuple])
def test_a_gradient_of_a_list_differentiated_again(path, kind):
    """The derivative of grad(f) for a list: its general derivative read the list as an
    array (float_zeros of a list of arrays of different shapes)."""
    xs = kind([np.array([0.1, 0.2]), np.array([0.3]), np.array([1.0, 2.0])])
    got = grad_on(path, sum_of_its_gradient)(xs)
    np.testing.assert_allclose(got[0], -np.sin(xs[0]))
    np.testing.assert_allclose(got[1], -np.cos(xs[1]) * np.cos(-np.sin(xs[1])))
    np.testing.assert_allclose(got[2], np.zeros(2))
    s2s_ad.check_grads(sum_of_its_gradient, xs)


def transformed_entries(p):
    return {"a": np.sin(p["a"]), "b": np.cos(p["b"]), "c": p["c"] * 2.0}


CHOICES = {"entries": transformed_entries}


def reads_some_entries(p, name):
    # the function is chosen when the code runs; its result's "c" is never read
    g = CHOICES[name](p)
    return np.sum(g["a"]) + np.sum(np.sin(g["b"]))


@pytest.mark.parametrize("path", PATHS)
def test_a_dict_result_of_a_function_chosen_when_the_code_runs(path):
    p = {"a": np.array([0.1, 0.2]), "b": np.array([0.3]), "c": np.array([1.0, 2.0])}
    got = grad_on(path, reads_some_entries)(p, "entries")
    np.testing.assert_allclose(got["a"], np.cos(p["a"]))
    np.testing.assert_allclose(got["b"], -np.cos(np.cos(p["b"])) * np.sin(p["b"]))
    np.testing.assert_allclose(got["c"], np.zeros(2))
