"""The guard of a list or tuple of tuples of numbers (`for x, y, w in points`), as
signature._records_guard writes it: passes over the items in C (their types, their
lengths, each position through an itemgetter) instead of a generator testing each item
in Python; a tuple of them that passed is remembered (RecordCheck). The check stays exact:
a list changed in place since it last passed, an item of another type or length, a numpy
scalar or an array in any position, each goes to the derivative built for its own
signature, and each gradient is checked against central differences."""
from collections import namedtuple

import numpy as np
import pytest

import s2s_ad
from s2s_ad.derivative_registry import dispatcher_of
from s2s_ad.guard_checks import RecordCheck
from s2s_ad.signature import Items, Num, SequenceOf, guard
from test_guard_decisions import routed

FLOAT = Num(float, "float64", ())
Point = namedtuple("Point", "x y w")


def weighted_fit(a, b, points):
    """Weighted squared error of a line through (x, y, w) triples, read by index (a loop
    that unpacks them, `for x, y, w in points`, tests the records itself and its guard
    tests only the list: tests/test_unpacked_records.py)."""
    total = 0.0
    for p in points:
        x, y, w = p[0], p[1], p[2]
        r = a * x + b - y
        total = total + w * r * r
    return total


def fit_by_hand(a, b, points):
    ga = gb = 0.0
    for x, y, w in points:
        r = a * x + b - y
        ga += 2.0 * w * r * x
        gb += 2.0 * w * r
    return ga, gb


def central(a, b, points, h=1e-6):
    return ((weighted_fit(a + h, b, points) - weighted_fit(a - h, b, points)) / (2 * h),
            (weighted_fit(a, b + h, points) - weighted_fit(a, b - h, points)) / (2 * h))


def make_points(n=40):
    rng = np.random.default_rng(11)
    xs, ws = rng.uniform(-1.0, 2.0, n), rng.uniform(0.5, 1.5, n)
    return [(float(x), float(1.5 * x - 0.2 + 0.1 * e), float(w))
            for x, e, w in zip(xs, rng.standard_normal(n), ws)]


def test_a_list_of_triples_is_guarded_in_c_passes_not_a_generator():
    df = s2s_ad.grad(weighted_fit, (0, 1))
    points = make_points()
    np.testing.assert_allclose(df(0.8, 0.1, points), central(0.8, 0.1, points), rtol=1e-6)
    source = dispatcher_of(df).source()
    assert "for _v in" not in source
    assert "countOf(map(type, points), tuple) == len(points)" in source
    assert "countOf(map(len, points), 3) == len(points)" in source
    # positions f does not differentiate: floats, ints and bools summed in C
    assert all(f"sums_to_float(map(item_{j}, points))" in source for j in range(3))


def test_a_tuple_of_triples_is_remembered_once_it_passed():
    df = s2s_ad.grad(weighted_fit, (0, 1))
    points = tuple(make_points())
    expected = fit_by_hand(0.8, 0.1, points)
    assert df(0.8, 0.1, points) == pytest.approx(expected, rel=1e-12)
    source = dispatcher_of(df).source()
    assert "points is float_float_float_records.last or float_float_float_records(points)" \
        in source
    check = dispatcher_of(df)._namespace["float_float_float_records"]
    assert df(0.8, 0.1, points) == pytest.approx(expected, rel=1e-12)   # through the guard
    assert check.last is points


def test_the_tuple_check_is_exact():
    check = RecordCheck((float, int))
    assert check(((1.0, 2), (3.0, 4))) and check.last == ((1.0, 2), (3.0, 4))
    for items in (((1.0, 2.0),), ((1.0, True),), ((1.0, 2, 3),), ((1.0,),), ([1.0, 2],),
                  ((np.float64(1.0), 2),), ((1.0, np.int64(2)),), ((np.ones(2), 2),)):
        assert not check(items), items
    assert check.last == ((1.0, 2), (3.0, 4))


def test_a_differentiated_list_keeps_exact_item_types():
    def spread(pairs):
        return sum(x * y for x, y in pairs)

    df = s2s_ad.grad(spread)
    pairs = [(1.0, 2.0), (3.0, -1.0)]
    assert np.allclose(np.array(df(pairs), dtype=float), [[2.0, 1.0], [-1.0, 3.0]])
    source = dispatcher_of(df).source()
    assert "sums_to_float" not in source
    assert "countOf(map(type, map(item_0, pairs)), float) == len(pairs)" in source


@pytest.mark.parametrize("order", [0, 1])
def test_a_list_changed_in_place_goes_to_its_own_derivative(order):
    df = s2s_ad.grad(weighted_fit, (0, 1))
    points = make_points(30)
    changes = [
        lambda p: p.__setitem__(5, (np.float64(p[5][0]),) + p[5][1:]),   # numpy scalar
        lambda p: p.__setitem__(7, list(p[7])),                          # a list item
        lambda p: p.__setitem__(3, p[3] + (1.0,)),                       # four positions
        lambda p: p.__setitem__(9, Point(*p[9])),                        # a tuple subclass
        lambda p: p.__setitem__(2, (np.array(p[2][0]),) + p[2][1:]),     # a 0-d array
        lambda p: p.__setitem__(2, (np.array([p[2][0], 1.0]),) + p[2][1:]),   # an array
    ]
    for change in (changes if order == 0 else changes[::-1]):
        fresh = list(points)
        ran, first = routed(df, 0.8, 0.1, fresh)
        change(fresh)
        if np.ndim(fresh[2][0]) == 1:            # f's output is an array: its own error
            with pytest.raises(s2s_ad.errors.NonScalarOutputError):
                df(0.8, 0.1, fresh)
            continue
        ran_after, got = routed(df, 0.8, 0.1, fresh)
        assert ran_after != ran
        try:
            want = central(0.8, 0.1, fresh)
        except ValueError:                       # four positions: f's own error
            continue
        np.testing.assert_allclose(np.asarray(got, dtype=float).ravel(),
                                   np.asarray(want, dtype=float).ravel(), rtol=1e-6)


def test_ints_in_float_positions_take_the_float_derivative_and_give_floats():
    df = s2s_ad.grad(weighted_fit, (0, 1))
    points = make_points(20)
    df(0.8, 0.1, points)
    ran, _ = routed(df, 0.8, 0.1, points)
    as_ints = [(round(x), y, 1) for x, y, _ in points] + [(True, 1.0, 2)]
    ran_ints, got = routed(df, 0.8, 0.1, as_ints)
    assert ran_ints == ran
    assert got == pytest.approx(fit_by_hand(0.8, 0.1, as_ints), rel=1e-12)
    assert all(type(g) is float for g in got)


def test_without_a_checker_the_generic_test_stands():
    """A CLI file binds no checker: the test is the generator it always was."""
    kind = SequenceOf(list, Items(tuple, (FLOAT, FLOAT)))

    def bind(obj):
        return None if isinstance(obj, tuple) else obj.__name__
    text = guard(kind, "pairs", bind, differentiated=False)
    assert "for _v in pairs" in text and "len(_v) == 2" in text
