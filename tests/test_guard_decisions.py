"""Which derivative the dispatcher's guards send a call to (dispatch.py, signature.guard).

A derivative built for a list or tuple of floats is plain float code: a list holding an
ndarray or a numpy scalar must never reach it, also when the list is the same object that
passed before and was changed in place since. Each call below is checked twice: the
derivative that ran is the one built for the call's own signature, and its gradient is
right. (A list f does not differentiate that holds ints or bools among floats goes to the
float list's derivative, which is right for them too: signature.sums_to_float.)
"""
import sys

import numpy as np
import pytest

import s2s_ad
from s2s_ad.derivative_registry import dispatcher_of
from gradcheck import numeric_grad


def horner(x, a, coeffs):
    p = 0.0
    for c in coeffs:
        p = p * x + a * c
    return p


def horner_grad(x, a, coeffs):
    """d/dx and d/da of horner, by hand."""
    p, dp_dx, dp_da = 0.0, 0.0, 0.0
    for c in coeffs:
        p, dp_dx, dp_da = p * x + a * c, dp_dx * x + p, dp_da * x + c
    return dp_dx, dp_da


def routed(df, *args, last=False):
    """(the name of the derivative the guards called for `args`, the result); `last`: the
    last one called (one that met a record of another kind, ad/unpacked_records.py, ran
    first and gave the call on)."""
    called = []

    def profile(frame, event, arg):
        if event == "call":
            called.append(frame.f_code.co_name)
    sys.setprofile(profile)
    try:
        result = df(*args)
    finally:
        sys.setprofile(None)
    names = {function.__name__ for function in _built(df)}   # one built by this call too
    return next((name for name in (called[::-1] if last else called) if name in names),
                None), result


def _built(df):
    return [derived.function for derived in dispatcher_of(df).built]


def expected(df, *args):
    """The name of the derivative built for the signature of `args` (None: the general
    one)."""
    dispatcher = dispatcher_of(df)
    signature = dispatcher.signature_for(args, {})
    for known, function in dispatcher.entries:
        if known == signature:
            return None if function is None else function.__name__
    raise AssertionError(f"no derivative was built for {signature}")


def check(df, x, a, coeffs):
    # last: the float list's derivative tests the items its sums carry after its loop
    # (ad/record_tests.py) and gives a list holding another kind on to the next guard
    name, (gx, ga) = routed(df, x, a, coeffs, last=True)
    assert name == expected(df, x, a, coeffs)
    hx, ha = horner_grad(x, a, coeffs)
    assert np.allclose(gx, hx) and np.allclose(ga, ha)
    return name


@pytest.fixture
def df():
    # a fresh function each test: its own dispatcher, no derivative built yet
    import types
    fn = types.FunctionType(horner.__code__, horner.__globals__, "horner")
    return s2s_ad.grad(fn, wrt=(0, 1))


FLOATS = [1.0, -2.0, 0.5]


def check_floats_taken(df, floats, x, a, coeffs):
    """The call went to the float list's derivative `floats`, with the right gradient,
    of floats."""
    name, (gx, ga) = routed(df, x, a, coeffs, last=True)
    assert name == floats
    assert np.allclose((gx, ga), horner_grad(x, a, coeffs))
    assert type(gx) is float and type(ga) is float


@pytest.mark.parametrize("odd_one", [3, True], ids=["int", "bool"])
def test_ints_and_bools_in_an_undifferentiated_list_take_the_float_derivative(df, odd_one):
    floats = check(df, 0.7, 1.3, list(FLOATS))
    check_floats_taken(df, floats, 0.7, 1.3, list(FLOATS) + [odd_one])
    check_floats_taken(df, floats, 0.7, 1.3, [odd_one, 2, 3])
    assert len(dispatcher_of(df).built) == 1


@pytest.mark.parametrize("odd_one", [np.float32(0.25), np.float64(0.25)],
                         ids=["float32", "float64"])
def test_a_list_with_a_non_float_item_never_reaches_the_float_list_derivative(df, odd_one):
    floats = check(df, 0.7, 1.3, list(FLOATS))
    mixed = list(FLOATS) + [odd_one]
    other = check(df, 0.7, 1.3, mixed)
    assert other != floats
    # and the float list still goes to its own, the mixed one to the other
    assert check(df, 0.7, 1.3, list(FLOATS)) == floats
    assert check(df, 0.7, 1.3, mixed) == other


def test_a_list_holding_an_array_never_reaches_the_float_list_derivative(df):
    floats = check(df, 0.7, 1.3, list(FLOATS))

    def with_array(x, a, coeffs):
        return np.sum(horner(x, a, coeffs))
    dg = s2s_ad.grad(with_array, wrt=(0, 1))
    gx, ga = dg(0.7, 1.3, list(FLOATS))
    assert np.allclose((gx, ga), horner_grad(0.7, 1.3, FLOATS))
    coeffs = list(FLOATS) + [np.array([0.5, 2.0])]
    name, (gx, ga) = routed(dg, 0.7, 1.3, coeffs)
    assert name == expected(dg, 0.7, 1.3, coeffs) and name != floats
    assert np.allclose(gx, numeric_grad(lambda x: with_array(x, 1.3, coeffs), [0.7], 0))
    assert np.allclose(ga, numeric_grad(lambda a: with_array(0.7, a, coeffs), [1.3], 0))


def test_an_empty_list_gets_a_right_gradient_in_either_order(df):
    check(df, 0.7, 1.3, [])
    check(df, 0.7, 1.3, list(FLOATS))
    check(df, 0.7, 1.3, [])


def test_a_list_changed_in_place_between_calls_is_checked_again(df):
    coeffs = list(FLOATS)
    floats = check(df, 0.7, 1.3, coeffs)
    coeffs[1] = 2                       # same list object, an int in it now: right for it
    check_floats_taken(df, floats, 0.7, 1.3, coeffs)
    coeffs[1] = np.float64(2.0)
    assert check(df, 0.7, 1.3, coeffs) != floats
    coeffs[1] = np.float32(2.0)
    assert check(df, 0.7, 1.3, coeffs) != floats
    coeffs[1] = 2.0                     # floats again: back to the float derivative
    assert check(df, 0.7, 1.3, coeffs) == floats
    coeffs.append(4.0)                  # another length: still a list of floats
    assert check(df, 0.7, 1.3, coeffs) == floats


def test_a_tuple_of_floats_passed_again_is_not_taken_for_another(df):
    coeffs = tuple(FLOATS)
    floats = check(df, 0.7, 1.3, coeffs)
    assert check(df, 0.7, 1.3, coeffs) == floats        # the remembered tuple
    assert check(df, 0.7, 1.3, tuple(FLOATS) + (1,)) != floats
    assert check(df, 0.7, 1.3, coeffs) == floats
    assert check(df, 0.7, 1.3, list(FLOATS)) != floats  # a list is not a tuple


def test_numbers_of_another_type_never_reach_the_float_derivative(df):
    floats = check(df, 0.7, 1.3, list(FLOATS))
    for x in (np.float64(0.7), np.float32(0.7), 1, True):
        assert check(df, x, 1.3, list(FLOATS)) != floats
    assert check(df, 0.7, 1.3, list(FLOATS)) == floats


def scaled(x, w):
    return np.sum(np.tanh(x * w) ** 2)


@pytest.mark.parametrize("shapes", [
    [(3,), (1,), (), (3,)],
    [(), (1,), (4,), (1,)],
    [(2, 3), (1, 3), (2, 1), (1, 1), (3,), (2, 3)],
])
def test_arrays_of_each_rank_and_length_one_axes_reach_their_own_derivative(shapes):
    import types
    fn = types.FunctionType(scaled.__code__, scaled.__globals__, "scaled")
    df = s2s_ad.grad(fn, wrt=1)
    rng = np.random.default_rng(0)
    for shape in shapes:
        x, w = rng.standard_normal(shape), rng.standard_normal(shape)
        name, g = routed(df, x, w)
        assert name == expected(df, x, w)
        assert np.shape(g) == shape
        np.testing.assert_allclose(g, 2 * np.tanh(x * w) / np.cosh(x * w) ** 2 * x,
                                   rtol=1e-10, atol=1e-12)
    # an empty vector (its kind says nothing: the general derivative, or the vector one,
    # whose code holds for any length but 1) gets an empty gradient
    empty = np.ones(0)
    assert np.shape(df(empty, empty)) == (0,)
    # a float32 vector is not a float64 one
    x32 = np.ones(3, dtype=np.float32)
    name, g = routed(df, x32, x32)
    assert name == expected(df, x32, x32) and g.dtype == np.float32
