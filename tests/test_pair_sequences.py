"""A list (or tuple) of short tuples of numbers, the `pairs` of `for x, y in pairs`, is a
sequence of pairs (signature.SequenceOf with an Items item), whatever its length: the
facts know x and y are floats, so a gradient of number code over it is built in forward
mode (no tape of the items), and the guard tests each pair's type, length and items
(tests/test_record_guards.py: how)."""
import math

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on
from s2s_ad.derivative_registry import dispatcher_of
from s2s_ad.signature import Items, Num, SequenceOf, describe, kind_of

FLOAT = Num(float, "float64", ())


def poisson_nll(a, b, pairs):
    ll = 0.0
    for x, y in pairs:
        eta = a + b * x
        ll = ll + y * eta - math.exp(eta) - math.lgamma(y + 1.0)
    return -ll


def expected_poisson(a, b, pairs):
    ga = gb = 0.0
    for x, y in pairs:
        r = math.exp(a + b * x) - float(y)
        ga += r
        gb += r * x
    return ga, gb


def make_pairs(n=40):
    rng = np.random.default_rng(3)
    xs = rng.uniform(-1.0, 1.5, n)
    return [(float(x), float(c)) for x, c in zip(xs, rng.poisson(np.exp(0.2 + 0.7 * xs)))]


def test_a_list_of_float_pairs_is_a_sequence_of_pairs():
    kind = kind_of(make_pairs(40))
    assert kind == SequenceOf(list, Items(tuple, (FLOAT, FLOAT)))
    assert describe(kind) == "list[tuple[float, float], ...]"
    assert kind_of(((1.0, 2, 3.0),) * 20) == SequenceOf(
        tuple, Items(tuple, (FLOAT, Num(int, "int64", ()), FLOAT)))
    # not pairs of one kind, or not of numbers: as before
    assert kind_of([(1.0, 2.0)] * 20 + [(1.0, 2)]).type is list
    assert not isinstance(kind_of([(1.0, 2.0)] * 20 + [(1.0, 2)]), SequenceOf)
    assert not isinstance(kind_of([(np.ones(2), 1.0)] * 20), SequenceOf)
    assert kind_of([(1.0, 2.0)] * 3) == SequenceOf(list, Items(tuple, (FLOAT, FLOAT)))


def test_number_code_over_pairs_is_built_in_forward_mode():
    df = s2s_ad.grad(poisson_nll, (0, 1))
    pairs = make_pairs()
    np.testing.assert_allclose(df(0.3, 0.6, pairs), expected_poisson(0.3, 0.6, pairs),
                               rtol=1e-12)
    source = s2s_ad.derivative_source(df, 0.3, 0.6, pairs)
    assert "Forward mode" in source and "_tape" not in source


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("reverse", [False, True])
def test_pairs_give_the_gradient_on_both_paths(path, reverse, monkeypatch):
    if reverse:
        monkeypatch.setenv("S2S_AD_REVERSE", "1")
    df = grad_on(path, poisson_nll, (0, 1))
    pairs = make_pairs()
    np.testing.assert_allclose(df(0.3, 0.6, pairs), expected_poisson(0.3, 0.6, pairs),
                               rtol=1e-12)


def test_other_items_take_their_own_derivative_in_any_order():
    df = s2s_ad.grad(poisson_nll, (0, 1))
    pairs = make_pairs()
    as_ints = [(x, int(y)) for x, y in pairs]
    as_lists = [[x, y] for x, y in pairs]
    as_arrays = [(np.float64(x), np.float64(y)) for x, y in pairs]
    as_tuple = tuple(pairs)
    mixed = pairs[:-1] + [(pairs[-1][0], int(pairs[-1][1]))]
    expected = expected_poisson(0.3, 0.6, pairs)
    for items in (as_ints, pairs, as_lists, as_arrays, as_tuple, mixed, pairs):
        np.testing.assert_allclose(df(0.3, 0.6, items), expected, rtol=1e-12)
    source = dispatcher_of(df).source()
    assert "countOf(map(len, pairs), 2) == len(pairs)" in source      # each one's length


def test_pairs_through_a_weighted_sum_of_squares_second_order():
    def weighted(w, pairs):
        total = 0.0
        for x, y in pairs:
            r = w * x - y
            total = total + r * r * x
        return total

    pairs = make_pairs(10)
    g = s2s_ad.grad(weighted)(0.7, pairs)
    assert g == pytest.approx(sum(2.0 * (0.7 * x - y) * x * x for x, y in pairs), rel=1e-12)
    h = s2s_ad.grad(s2s_ad.grad(weighted))(0.7, pairs)
    assert h == pytest.approx(sum(2.0 * x ** 3 for x, _ in pairs), rel=1e-12)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("reverse", [False, True])
def test_an_unneeded_lgamma_stands_as_its_domain_test_and_raises_as_f_does(path, reverse,
                                                                           monkeypatch):
    if reverse:
        monkeypatch.setenv("S2S_AD_REVERSE", "1")
    df = grad_on(path, poisson_nll, (0, 1))
    pairs = make_pairs()
    np.testing.assert_allclose(df(0.3, 0.6, pairs), expected_poisson(0.3, 0.6, pairs),
                               rtol=1e-12)
    bad = pairs[:-1] + [(0.5, -1.0)]            # lgamma(0.0): a domain error in f
    with pytest.raises(ValueError):
        poisson_nll(0.3, 0.6, bad)
    with pytest.raises(ValueError):
        df(0.3, 0.6, bad)
    if path == "specialised":
        source = s2s_ad.derivative_source(df, 0.3, 0.6, pairs)
        assert "if not 0.0 < t3_1 < 1e+305:\n            math.lgamma(t3_1)" in source


def test_a_domain_test_for_each_math_function_raises_where_f_does():
    def f(a, u):
        t = math.log(u) + math.sqrt(u) + math.exp(u) + math.log1p(u) + math.gamma(u)
        return a * a + t            # t reaches the value, not the derivative in a
    df = s2s_ad.grad(f)
    assert df(1.5, 2.0) == 3.0
    source = s2s_ad.derivative_source(df, 1.5, 2.0)
    assert "math.log(u)" in source and "if not 0.0 < u:" in source
    assert "if not u < 709.0:" in source
    for u in (-1.0, 0.0, 800.0, 172.0, -2.0):
        with pytest.raises((ValueError, OverflowError)) as expected:
            f(1.5, u)
        with pytest.raises(expected.type):
            df(1.5, u)


def test_the_loop_unpacks_pairs_and_triples_as_f_does():
    def weighted_fit(w, triples):
        total = 0.0
        for x, y, v in triples:
            r = w * x - y
            total = total + v * r * r
        return total

    rng = np.random.default_rng(9)
    triples = [tuple(float(t) for t in row) for row in rng.uniform(0.5, 2.0, (30, 3))]
    df = s2s_ad.grad(weighted_fit)
    assert df(0.7, triples) == pytest.approx(
        sum(2.0 * v * (0.7 * x - y) * x for x, y, v in triples), rel=1e-12)
    assert "for x, y, v in triples:" in s2s_ad.derivative_source(df, 0.7, triples)
    pairs = make_pairs()
    df = s2s_ad.grad(poisson_nll, (0, 1))
    assert "for x, y in pairs:" in s2s_ad.derivative_source(df, 0.3, 0.6, pairs)


def test_a_pair_read_whole_is_not_unpacked():
    def f(w, pairs):
        total = 0.0
        for p in pairs:
            total = total + w * p[0] * len(p)
        return total

    pairs = make_pairs(10)
    df = s2s_ad.grad(f)
    assert df(0.5, pairs) == pytest.approx(sum(2.0 * x for x, _ in pairs), rel=1e-12)
