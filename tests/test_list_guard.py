"""The guard of a list of floats f does not differentiate: one pass of `sum` in C
(signature.sums_to_float) instead of a type test of each item. It lets ints and bools in
(their derivative is the same numbers, returned as floats) and nothing else: numpy
scalars, arrays, complex numbers, None get a specialisation of their own or their own
error, in any order of calls."""
import math

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on
from s2s_ad.derivative_registry import dispatcher_of
from s2s_ad.guard_checks import sums_to_float


def horner(x, a, coeffs):
    p = 0.0
    for c in coeffs:
        p = p * x + a * c
    return p


def first(x, cs):
    return x * cs[0]


def expected_horner(x, a, coeffs):
    coeffs = [float(c) for c in coeffs]
    p = dp = 0.0
    for c in coeffs:
        dp = dp * x + p
        p = p * x + c
    return a * dp, p


def test_the_check_admits_python_reals_only():
    check = sums_to_float
    assert check([0.5, 1.5]) and check([]) and check([1, True, 2.5])
    for items in ([np.float64(1.0)], [1.0, np.float32(2.0)], [np.ones(2)], [np.array(1.0)],
                  [1j], [None], ["a"], [10 ** 400], [1.0, np.int64(3)]):
        assert not check(items), items


def test_an_undifferentiated_list_is_guarded_by_one_sum():
    # (horner's derivative tests the sums its items reach, after its loop: its guard
    # tests the list's type alone, ad/record_tests.py; a loop testing each item would
    # cost more than the sum in C: Kepler's Newton steps read M in a nested loop)
    df = s2s_ad.grad(horner, (0, 1))
    df(0.5, 2.0, [1.0, 2.0])
    source = dispatcher_of(df).source()
    assert "type(coeffs) is list:" in source and "except s2s_ad_RecordsDiffer" in source
    assert "sums_to_float" not in source and "countOf" not in source
    df = s2s_ad.grad(kepler_like, 0)
    df(0.3, [0.5, 1.0])
    source = dispatcher_of(df).source()
    assert "sums_to_float(anomalies)" in source and "RecordsDiffer" not in source


def kepler_like(e, anomalies):
    total = 0.0
    for M in anomalies:
        E = M
        for _ in range(3):
            E = E - (E - e * math.sin(E) - M) / (1.0 - e * math.cos(E))
        total = total + math.cos(E)
    return total


def test_a_differentiated_list_keeps_the_item_type_test():
    df = s2s_ad.grad(horner, 2)
    df(0.5, 2.0, [1.0, 2.0])
    assert "sums_to_float" not in dispatcher_of(df).source()


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("reverse", [False, True])
def test_ints_and_bools_take_the_float_derivative_and_give_floats(path, reverse,
                                                                    monkeypatch):
    if reverse:
        monkeypatch.setenv("S2S_AD_REVERSE", "1")
    df = grad_on(path, horner, (0, 1))
    for coeffs in ([1.0, -2.0, 0.5], [1, -2, 3], [True, 2, 0.5]):
        got = df(0.5, 2.0, coeffs)
        assert got == pytest.approx(expected_horner(0.5, 2.0, coeffs), rel=1e-12)
        assert all(type(g) is float for g in got)
    one = grad_on(path, first, 0)
    for cs in ([1.5, 2.5], [3, 4], [True, 2]):
        assert one(2.0, cs) == float(cs[0]) and type(one(2.0, cs)) is float
    if path == "specialised":
        assert len(dispatcher_of(df).built) == 1


@pytest.mark.parametrize("order", [0, 1])
def test_other_items_get_their_own_derivative(order):
    df = s2s_ad.grad(horner, (0, 1))
    lists = [[1.0, -2.0, 0.5], [np.float64(1.0), np.float64(-2.0)],
             [np.float32(1.0), np.float32(-2.0)]]
    for coeffs in (lists if order == 0 else lists[::-1]):
        got = df(0.5, 2.0, coeffs)
        assert np.allclose(got, expected_horner(0.5, 2.0, coeffs), rtol=1e-6)
    assert len(dispatcher_of(df).built) == 3


def summed(x, cs):
    s = 0.0
    for c in cs:
        s = s + x * np.sum(c)
    return s


def test_an_array_in_the_list_is_not_taken_for_a_float():
    df = s2s_ad.grad(first, 0)
    assert df(2.0, [1.5, 2.5]) == 1.5
    with pytest.raises(s2s_ad.errors.NonScalarOutputError):
        df(2.0, [np.array([1.0, 2.0]), 2.5])         # f's output is an array: its error
    ds = s2s_ad.grad(summed, 0)
    assert ds(2.0, [1.5, 2.5]) == 4.0
    assert ds(2.0, [np.array([1.0, 2.0]), 2.5]) == pytest.approx(5.5)
    assert len(dispatcher_of(ds).built) == 2
