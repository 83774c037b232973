"""A record's items tested on the arithmetic that carries them (ad/record_tests.py): one
`type(v) is not float` of a value computed by `+ - * /` from proven floats and items
stands for the tests of every item it carries. Gradients against central differences on
both paths; records holding numpy scalars, 0-d arrays, float32 or complex items at any
position still go to the derivative built for their kinds, ints and bools to this one;
the tests sit where the code says they must (before a call, a branch, an accumulator)."""
import math

import numpy as np
import pytest

import s2s_ad
from s2s_ad.derivative_registry import dispatcher_of
from paths import fresh
from test_guard_decisions import routed as routed_first


def routed(df, *args):
    return routed_first(df, *args, last=True)


def grouped(w0, w1, w2, groups):
    nll = 0.0
    for u, v, k, n in groups:
        z = w0 + w1 * u + w2 * v
        nll = nll + n * math.log1p(math.exp(z)) - k * z
    return nll


def spread(m0, m1, s0, s1, points):
    nll = 0.0
    for x, y in points:
        log_sd = s0 + s1 * x
        z = (y - (m0 + m1 * x)) * math.exp(-log_sd)
        nll = nll + log_sd + 0.5 * z * z
    return nll


def branched(a, b, c, points):       # a branch on a carried value, an item read after it
    total = 0.0
    for x, y, w in points:
        r = a * x + b - y
        if r > 0.0:
            total = total + w * r * r
        else:
            total = total - c * r * x
    return total


def rebound(a, b, c, points):         # an item rebound before a float meets it
    total = 0.0
    for x, y, w in points:
        x = x * 2
        total = total + math.sin(a * x + b * y) * w + c * w
    return total


def stale(a, b, points):             # a value of the last record read by the next one
    total = 0.0
    v = 0.5
    for x, y in points:
        total = total + math.sin(v)
        v = a * x + b * y
        total = total + v
    return total


def stopped(a, b, c, points):         # a sum, and a break on a carried value
    total = 0.0
    for x, y, w in points:
        r = a * x + b * y
        if r > 2.0 + c:
            break
        total = total + w * r * r
    return total


def shared_sum(a, b, points):         # the sum read beside its update: tested each time
    total = 0.0
    for x, y in points:
        total = total + a * x * y
        b = b + math.sqrt(total * total + 1.0) * y
    return total + b


def records(n, width, seed=5):
    rng = np.random.default_rng(seed)
    return [tuple(float(v) for v in rng.uniform(0.1, 1.5, width)) for _ in range(n)]


CASES = [(grouped, (0.2, -0.4, 0.3), 4), (spread, (0.1, 0.5, -0.2, 0.3), 2),
         (branched, (0.7, -0.3, 0.4), 3), (rebound, (0.6, -0.2, 0.3), 3),
         (stale, (0.4, -0.7), 2), (stopped, (0.5, 0.3, 0.2), 3), (shared_sum, (0.3, 0.8), 2)]


def central(f, params, data, k, h=1e-6):
    up, down = list(params), list(params)
    up[k] += h
    down[k] -= h
    return (f(*up, data) - f(*down, data)) / (2 * h)


@pytest.fixture(params=["specialised", "general"])
def path(request, monkeypatch):
    if request.param == "general":
        monkeypatch.setenv("S2S_AD_GENERAL", "1")
    return request.param


@pytest.mark.parametrize("f, params, width", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_gradients(f, params, width, path):
    data = records(30, width)
    wrt = tuple(range(len(params)))
    got = s2s_ad.grad(f, wrt)(*params, data)
    want = [central(f, params, data, k) for k in wrt]
    np.testing.assert_allclose(np.asarray(got, dtype=float), want, rtol=1e-6, atol=1e-8)


def _source(f, params, width):
    df = s2s_ad.grad(f, tuple(range(len(params))))
    df(*params, records(10, width))
    derivative = dispatcher_of(df).built[0]
    assert derivative.records_checked
    return derivative.source


def test_one_value_tests_the_items_it_carries():
    source = _source(grouped, (0.2, -0.4, 0.3), 4)
    assert "if type(z) is not float:\n            raise RecordsDiffer" in source
    assert "type(u)" not in source and "type(k)" not in source
    # n and k only reach the sums: tested through them, once, after the loop
    assert "type(dnll_dz)" not in source
    assert "\n    if type(dnll_dw0) is not float or type(dnll_dw1) is not float or " \
        "type(dnll_dw2) is not float:\n        raise RecordsDiffer" in source
    # both items of a pair in one test, before math.exp first reads what x gave
    source = _source(spread, (0.1, 0.5, -0.2, 0.3), 2)
    assert source.count("raise RecordsDiffer") == 1
    assert source.index("type(t5_0) is not float") < source.index(" = math.exp(")


def test_before_a_branch_every_item_is_tested():
    source = _source(branched, (0.7, -0.3, 0.4), 3)
    body = source[source.index("for x, y, w in points:"):]
    assert body.index("type(w) is not float") < body.index("if r > 0.0")
    assert body.index("if type(r) is not float") < body.index("if r > 0.0")


def test_an_item_rebound_is_tested_before():
    source = _source(rebound, (0.6, -0.2, 0.3), 3)
    body = source[source.index("for x, y, w in points:"):]
    assert body.index("type(x) is not float and type(x) is not int") < body.index("x = x * 2")


OTHER = {"float64": np.float64, "0-d array": np.array, "float32": np.float32,
         "complex": complex}


@pytest.mark.parametrize("f, params, width", CASES, ids=lambda c: getattr(c, "__name__", ""))
@pytest.mark.parametrize("item", list(OTHER))
def test_an_item_of_another_kind_goes_to_its_own_derivative(f, params, width, item):
    df = s2s_ad.grad(fresh(f), tuple(range(len(params))))   # its own derivatives
    data = records(12, width)
    ran, _ = routed(df, *params, data)
    for where, position in [(0, 0), (7, width - 1), (11, width // 2)]:
        changed = list(data)
        record = list(changed[where])
        record[position] = OTHER[item](record[position])
        changed[where] = tuple(record)
        if item == "complex":             # f computes complex numbers: no gradient of them
            with pytest.raises(Exception):
                df(*params, changed)
            continue
        ran_after, got = routed(df, *params, changed)
        assert ran_after != ran
        if item == "float32":     # against the same numbers as floats, in float64
            as_floats = [tuple(float(v) for v in r) for r in changed]
            want = [central(f, params, as_floats, k) for k in range(len(params))]
            np.testing.assert_allclose(np.asarray(got, dtype=float), want, rtol=1e-4)
        else:
            want = [central(f, params, changed, k) for k in range(len(params))]
            np.testing.assert_allclose(np.asarray(got, dtype=float), want, rtol=1e-6,
                                       atol=1e-8)
        assert routed(df, *params, data)[0] == ran


@pytest.mark.parametrize("f, params, width", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_ints_and_bools_take_this_derivative(f, params, width):
    df = s2s_ad.grad(fresh(f), tuple(range(len(params))))
    data = records(12, width)
    ran, _ = routed(df, *params, data)
    mixed = data[:3] + [tuple(1 for _ in range(width)), tuple([True] + [2] * (width - 1))] \
        + data[3:]
    ran_mixed, got = routed(df, *params, mixed)
    assert ran_mixed == ran
    want = [central(f, params, mixed, k) for k in range(len(params))]
    np.testing.assert_allclose(np.asarray(got, dtype=float), want, rtol=1e-6, atol=1e-8)
    assert all(type(g) is float for g in got)


def test_what_the_next_iteration_reads_is_tested_in_its_own():
    source = _source(stale, (0.4, -0.7), 2)
    body = source[source.index("for x, y in points:"):]
    assert "if type(v) is not float:" in body          # at the end of each iteration
    source = _source(shared_sum, (0.3, 0.8), 2)
    body = source[source.index("for x, y in points:"):]
    assert body.index("type(") < body.index("math.sqrt(")
