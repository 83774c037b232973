"""Records tested where the derivative's loop unpacks them (ad/unpacked_records.py): a
number loop `for x, y in pairs` over a list f does not differentiate is guarded by
`type(pairs) is list` alone, and the derivative tests each record's items as it unpacks
them, raising guard_checks.RecordsDiffer (the dispatcher then tries its next guard) on one
of another kind. Every gradient is checked against central differences, on the
specialised path and on the general one; lists changed in place, mixed, or holding
numpy scalars, arrays or records of another length get what f and the derivative built
for their own kinds give."""
import math

import numpy as np
import pytest

import s2s_ad
from s2s_ad.derivative_registry import dispatcher_of
from s2s_ad.derivation import Request
from s2s_ad.guard_checks import RecordsDiffer
from test_guard_decisions import routed as routed_first


def routed(df, *args):
    """The derivative that gave the result: the last one called."""
    return routed_first(df, *args, last=True)


def poisson(a, b, pairs):
    ll = 0.0
    for x, y in pairs:
        eta = a + b * x
        ll = ll + y * eta - math.exp(eta)
    return -ll


def poisson_by_hand(a, b, pairs):
    ga = gb = 0.0
    for x, y in pairs:
        r = math.exp(a + b * x) - y
        ga += r
        gb += r * x
    return ga, gb


def binned(w0, w1, bins):
    """A position of ints (the count) beside floats: its test is exact."""
    total = 0.0
    for u, n, s in bins:
        z = w0 + w1 * u
        total = total + n * math.log1p(math.exp(z)) - s * z
    return total


def central(f, args, k, h=1e-6):
    up, down = list(args), list(args)
    up[k] += h
    down[k] -= h
    return (f(*up) - f(*down)) / (2 * h)


def check(f, df, args, n=2):
    got = df(*args)
    want = [central(f, args, k) for k in range(n)]
    np.testing.assert_allclose(np.asarray(got, dtype=float), want, rtol=1e-6, atol=1e-8)
    return got


def make_pairs(n=40, seed=3):
    rng = np.random.default_rng(seed)
    xs = rng.uniform(-1.0, 1.5, n)
    return [(float(x), float(y)) for x, y in zip(xs, rng.poisson(np.exp(0.2 + 0.5 * xs)))]


@pytest.fixture(params=["specialised", "general"])
def path(request, monkeypatch):
    if request.param == "general":
        monkeypatch.setenv("S2S_AD_GENERAL", "1")
    return request.param


def test_the_guard_tests_the_list_and_the_loop_its_records(path):
    df = s2s_ad.grad(poisson, (0, 1))
    pairs = make_pairs()
    got = check(poisson, df, (0.3, 0.4, pairs))
    assert got == pytest.approx(poisson_by_hand(0.3, 0.4, pairs), rel=1e-12)
    if path == "general":
        return
    guard = dispatcher_of(df).source()
    assert "type(pairs) is list:" in guard and "countOf" not in guard
    assert "sums_to_float" not in guard and "except s2s_ad_RecordsDiffer:" in guard
    derivative = dispatcher_of(df).built[0]
    assert derivative.records_checked == ("pairs",)
    # x is tested through eta = a + b * x, where math.exp first reads it
    # (ad/record_tests.py), y through the sums it is added into, after the loop
    assert "eta = a + b * x\n" in derivative.source
    assert "if type(eta) is not float:\n            raise RecordsDiffer" in derivative.source
    assert "\n    if type(dll_da) is not float or type(dll_db) is not float:\n" \
        "        raise RecordsDiffer" in derivative.source


def test_an_int_position_is_tested_exactly():
    df = s2s_ad.grad(binned, (0, 1))
    bins = [(0.1 * k, k % 4, 0.5 * (k % 3)) for k in range(25)]
    check(binned, df, (0.2, -0.3, bins))
    source = dispatcher_of(df).built[0].source
    assert "if type(n) is not int:" in source and "type(n) is not float" not in source
    ran, _ = routed(df, 0.2, -0.3, bins)
    as_floats = [(u, float(n), s) for u, n, s in bins]       # the count a float: not this one
    ran_floats, got = routed(df, 0.2, -0.3, as_floats)
    assert ran_floats != ran
    np.testing.assert_allclose(got, [central(binned, (0.2, -0.3, as_floats), k)
                                     for k in range(2)], rtol=1e-6)


@pytest.mark.parametrize("where", [0, 17, 39])
@pytest.mark.parametrize("item", ["float64", "0-d array", "float32"])
def test_a_record_of_another_kind_anywhere_goes_to_its_own_derivative(where, item):
    df = s2s_ad.grad(poisson, (0, 1))
    pairs = make_pairs()
    ran, _ = routed(df, 0.3, 0.4, pairs)
    x, y = pairs[where]
    pairs[where] = ({"float64": np.float64, "float32": np.float32,
                     "0-d array": np.array}[item](x), y)        # the same list, changed
    ran_after, got = routed(df, 0.3, 0.4, pairs)
    assert ran_after != ran
    # (by hand: central differences of f in float32 arithmetic say little)
    want = poisson_by_hand(0.3, 0.4, pairs) if item == "float32" else \
        [central(poisson, (0.3, 0.4, pairs), k) for k in range(2)]
    np.testing.assert_allclose(np.asarray(got, dtype=float), want, rtol=1e-5)
    pairs[where] = (x, y)                                     # and back: the first one
    assert routed(df, 0.3, 0.4, pairs)[0] == ran


def test_ints_bools_lists_and_named_records_are_unpacked_as_f_unpacks_them():
    from collections import namedtuple
    Pair = namedtuple("Pair", "x y")
    df = s2s_ad.grad(poisson, (0, 1))
    pairs = make_pairs(20)
    ran, _ = routed(df, 0.3, 0.4, pairs)
    mixed = pairs[:5] + [(1, 2), (True, 0), [0.5, 1.0], Pair(0.25, 3.0)] + pairs[5:]
    ran_mixed, got = routed(df, 0.3, 0.4, mixed)
    assert ran_mixed == ran                   # every item unpacks to Python numbers
    assert got == pytest.approx(poisson_by_hand(0.3, 0.4, mixed), rel=1e-12)
    assert all(type(g) is float for g in got)


def test_a_record_of_another_length_raises_fs_own_error():
    df = s2s_ad.grad(poisson, (0, 1))
    pairs = make_pairs(10)
    df(0.3, 0.4, pairs)
    for bad in ((1.0, 2.0, 3.0), (1.0,)):
        changed = pairs[:4] + [bad] + pairs[4:]
        with pytest.raises(ValueError) as by_f:
            poisson(0.3, 0.4, changed)
        with pytest.raises(ValueError) as by_df:
            df(0.3, 0.4, changed)
        assert str(by_df.value) == str(by_f.value)


def test_an_array_in_a_record_gets_fs_own_error():
    df = s2s_ad.grad(poisson, (0, 1))
    pairs = make_pairs(10)
    df(0.3, 0.4, pairs)
    pairs[6] = (np.array([0.1, 0.2]), 1.0)
    with pytest.raises((s2s_ad.errors.NonScalarOutputError, TypeError)):
        df(0.3, 0.4, pairs)


def test_an_empty_list_has_zero_gradient():
    df = s2s_ad.grad(poisson, (0, 1))
    df(0.3, 0.4, make_pairs(5))
    assert df(0.3, 0.4, []) == (0.0, 0.0)


def logged(a, b, pairs, seen):
    ll = 0.0
    for x, y in pairs:
        seen.append(x)                     # an effect: a call that fails later repeats it
        ll = ll + y * (a + b * x) - math.exp(a + b * x)
    return -ll


def indexed(a, b, pairs):
    ll = 0.0
    first = pairs[0][0]
    for x, y in pairs:
        ll = ll + y * (a + b * x - first) - math.exp(a + b * x)
    return -ll


@pytest.mark.parametrize("f", [logged, indexed])
def test_not_where_a_record_could_be_read_or_an_effect_made_before_its_test(f):
    df = s2s_ad.grad(f, (0, 1))
    pairs = make_pairs(15)
    args = (0.3, 0.4, pairs, []) if f is logged else (0.3, 0.4, pairs)
    g = df(*args)
    want = [central(lambda *a: f(*a), args, k) for k in range(2)]
    np.testing.assert_allclose(g, want, rtol=1e-6)
    guard = dispatcher_of(df).source()
    assert "countOf(map(type, pairs), tuple) == len(pairs)" in guard
    assert "RecordsDiffer" not in guard
    assert all(d.records_checked == () for d in dispatcher_of(df).built)


def test_a_differentiated_list_keeps_its_guard():
    def spread(c, pairs):
        return sum(c * x * y for x, y in pairs)
    df = s2s_ad.grad(spread, (0, 1))
    df(2.0, [(1.0, 2.0), (3.0, -1.0)])
    assert "RecordsDiffer" not in dispatcher_of(df).source()


def test_only_the_dispatchers_builds_test_records():
    """A CLI file's guard has no handler for RecordsDiffer: its requests do not ask."""
    assert Request("grad", ("a",)).checks_records is False
    assert issubclass(RecordsDiffer, Exception)



@pytest.mark.parametrize("line", ["o.last = x", "t = o.last", "t = pairs[0][0]",
                                  "t = helper(x)", "seen.append(x)"])
def test_the_stage_declines_a_body_with_an_effect_or_another_read(line):
    import gast
    from s2s_ad.ad.unpacked_records import records_checked_in_loops
    from s2s_ad.signature import Items, Num, SequenceOf
    FLOAT = Num(float, "float64", ())
    code = f"def d(a, pairs, o, seen):\n    s = 0.0\n    for x, y in pairs:\n" \
        f"        {line}\n        s = s + math.exp(a * x) * y\n    return s\n"
    body = gast.parse(code).body[0].body
    signature = (("a", FLOAT), ("pairs", SequenceOf(list, Items(tuple, (FLOAT, FLOAT)))))
    request = Request("grad", ("a",), signature=signature, checks_records=True)
    bound = {"math": math}

    def name_for(suggested, obj):
        bound[suggested] = obj
        return suggested
    params = ["a", "pairs", "o", "seen"]
    plain = gast.parse(code.replace(f"        {line}\n", "")).body[0].body
    assert records_checked_in_loops(plain, request, params, bound, {}, name_for)[1] == \
        ("pairs",)
    same, checked = records_checked_in_loops(body, request, params, bound,
                                             {"helper": lambda v: v}, name_for)
    assert checked == () and same is body


def test_value_and_grad_tests_the_records_too():
    vg = s2s_ad.value_and_grad(poisson, (0, 1))
    pairs = make_pairs(20)
    value, grads = vg(0.3, 0.4, pairs)
    assert value == pytest.approx(poisson(0.3, 0.4, pairs), rel=1e-12)
    assert grads == pytest.approx(poisson_by_hand(0.3, 0.4, pairs), rel=1e-12)
    assert "type(pairs) is list:" in dispatcher_of(vg).source()
    pairs[7] = (np.float64(pairs[7][0]), pairs[7][1])
    value, grads = vg(0.3, 0.4, pairs)
    assert grads == pytest.approx(poisson_by_hand(0.3, 0.4, pairs), rel=1e-9)
    assert len(dispatcher_of(vg).built) == 2
