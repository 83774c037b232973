"""Flow-aware tape liveness (s2s_ad/ad/restore_liveness.py, used by ad/tape.py): a
name's save/restore pair is kept only when a read of the backward sweep can see one of
its restores, not whenever the name is read somewhere in it. Gradients against central
differences (loops nested in loops, branches, reads that see a restore only across an
iteration), generated code without the dead pushes, and the analysis on its own."""
import math

import gast
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on
from gradcheck import numeric_grad
from paths import fresh
from s2s_ad.ad.restore_liveness import live_restored_names

X = np.array([0.3, -0.2, 0.5])
W = np.array([1.1, 0.7, -0.4])
M = np.array([[0.9, 0.2, -0.3], [0.1, 1.2, 0.4], [-0.5, 0.3, 0.8]])


def layer(x, w):                      # split: f's backward calls bwd_layer, never reads x
    return np.tanh((x @ M) * w) + np.sin(x)


def stacked(x, w):
    for _ in range(3):
        x = layer(x, w)
    return np.sum(x * x)             # reads the final x only


def nested(x, w):
    for _ in range(2):
        for _ in range(2):
            x = layer(x, w)
        x = layer(x, w * 0.5)
    return np.sum(x * x)


def read_each_iteration(x, w):       # x * w reads the restore of the iteration after
    s = 0.0
    for _ in range(3):
        s = s + np.sum(x * w)
        x = layer(x, w)
    return s + np.sum(x * x)


def nested_branches(x, w):
    s = 0.0
    for i in range(2):
        for j in range(3):
            if j == 1:
                s = s + np.sum(x * w)
            else:
                s = s - 0.5 * np.sum(w)
            x = layer(x, w)
    return s + np.sum(x * x)


def while_loop(x, w):
    k = 0
    while k < 3:
        if k > 0:
            x = layer(x, w)
        else:
            x = x * w
        k = k + 1
    return np.sum(x * x)


CASES = [stacked, nested, read_each_iteration, nested_branches, while_loop]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", CASES, ids=lambda f: f.__name__)
def test_gradients(f, path):
    expected = [numeric_grad(f, (X, W), k) for k in (0, 1)]
    got = grad_on(path, fresh(f), wrt=(0, 1))(X, W)     # both: x's restores feed match_adjoint
    assert len(got) == 2
    for gradient, differences in zip(got, expected):
        np.testing.assert_allclose(gradient, differences, rtol=1e-6, atol=1e-8)
    # w alone: the restores of x that no read sees are gone (test below)
    np.testing.assert_allclose(grad_on(path, fresh(f), wrt=1)(X, W), expected[1],
                               rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("f", [stacked, nested], ids=lambda f: f.__name__)
def test_a_restore_no_read_sees_is_not_taped(f):
    # x is read in the backward sweep (the seed's x + x) but before any restore of it
    f = fresh(f)
    df = s2s_ad.grad(f, wrt=1)
    df(X, W)
    source = s2s_ad.derivative_source(df, X, W)
    assert "bwd_layer" in source
    assert "_tape.append(x)" not in source and "x = _tape.pop()" not in source
    assert "_tape.append(shape_of(x))" not in source


def test_a_restore_seen_by_the_next_iteration_is_kept():
    f = fresh(read_each_iteration)
    df = s2s_ad.grad(f, wrt=1)
    df(X, W)
    assert "x = _tape.pop()" in s2s_ad.derivative_source(df, X, W)


def _pairs(source, returned=()):
    """The live (name, pair) restores of `source`, whose `restore(x, k)` stands for the
    restore marker of pair k (k left out: pair None)."""
    tree = gast.parse(source)

    def restored(stmt):
        if isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call) \
                and stmt.value.func.id == "restore":
            args = stmt.value.args
            return args[0].id, args[1].value if len(args) > 1 else None
        return None
    return live_restored_names(tree.body, [gast.parse(e).body[0].value for e in returned],
                               restored, lambda stmt: restored(stmt) is not None)


def _live(source, returned=()):
    pairs = _pairs(source, returned)
    return None if pairs is None else {name for name, _ in pairs}


def test_the_analysis_on_loops_and_branches():
    assert _live("a = x\nrestore(x)") == set()                        # read before
    assert _live("restore(x)\na = x") == {"x"}
    assert _live("restore(x)\nx = 1\na = x") == set()                 # rebound first
    assert _live("restore(x)\nx += 1") == {"x"}                       # reads x
    assert _live("restore(x)\nx[0] = 1") == {"x"}                     # writes into it
    assert _live("restore(x)", returned=["f(x)"]) == {"x"}
    # one branch rebinds x, the other does not: the read after the if sees the restore
    assert _live("restore(x)\nif c:\n    x = 1\nelse:\n    pass\na = x") == {"x"}
    assert _live("restore(x)\nif c:\n    x = 1\nelse:\n    x = 2\na = x") == set()
    # a restore at the end of an iteration is seen at the start of the next one
    assert _live("for i in r:\n    a = x\n    restore(x)") == {"x"}
    assert _live("for i in r:\n    x = 0\n    a = x\n    restore(x)") == set()
    # two levels of loops, the read in the outer loop after the inner one
    assert _live("for i in r:\n    a = x\n    for j in r:\n        restore(x)") == {"x"}
    assert _live("for i in r:\n    for j in r:\n        x = 0\n        a = x\n"
                 "        restore(x)\n    x = 1") == set()
    assert _live("for x in r:\n    a = x\n    restore(x)") == set()      # the target
    assert _live("while x:\n    restore(x)") == {"x"}                 # the test reads
    # constructs the walk does not model: the caller keeps every read name
    assert _live("for i in r:\n    restore(x)\n    break") is None
    assert _live("restore(x)\ng = lambda: x") is None


def test_the_analysis_decides_each_pair():
    # an outer loop resets x before an inner loop that rebinds it: the inner loop's
    # backward body restores x before reading it, so the outer restore is seen by nothing
    source = ("for i in r:\n    a = b\n    for j in r:\n        restore(x, 2)\n"
              "        c = x\n    restore(x, 1)")
    assert _pairs(source) == {("x", 2)}
    # read after the inner loop (which may run no iteration): both are seen
    assert _pairs(source + "\n    d = x") == {("x", 1), ("x", 2)}
    assert _pairs("restore(x, 1)\nrestore(x, 2)\na = x") == {("x", 2)}


def powers_sse(coeffs, xs, ys):       # power reset per point; its inner restores suffice
    sse = 0.0
    for x, y in zip(xs, ys):
        p = 0.0
        power = 1.0
        for c in coeffs:
            p = p + c * power
            power = power * x
        sse = sse + (p - y) ** 2
    return sse


def counted_powers(coeffs, xs):       # the same over a tuple, with a per-point weight
    total = 0.0
    for x in xs:
        power = 1.0
        w = math.exp(-x * x)
        for c in coeffs:
            total = total + w * c * power * math.sin(power)
            power = power * x
    return total


POWER_ARGS = ([0.4, -1.0, 0.1, 0.6], [0.3, -0.7, 0.9], [0.2, 0.1, -0.5])


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("container", [list, tuple])
def test_an_outer_reset_before_an_inner_loop(path, container):
    coeffs, xs, ys = (container(v) for v in POWER_ARGS)
    for f, args in ((powers_sse, (coeffs, xs, ys)), (counted_powers, (coeffs, xs))):
        got = grad_on(path, fresh(f), wrt=0)(*args)
        expected = [(f(*((coeffs[:k] + container([c + h]) + coeffs[k + 1:],) + args[1:]))
                     - f(*((coeffs[:k] + container([c - h]) + coeffs[k + 1:],) + args[1:])))
                    / (2 * h) for k, c in enumerate(coeffs) for h in [1e-6]]
        np.testing.assert_allclose(list(got), expected, rtol=1e-6, atol=1e-8)


def test_the_outer_pair_and_the_inner_range_are_not_taped():
    df = s2s_ad.grad(fresh(powers_sse), wrt=0)
    df(*POWER_ARGS)
    source = s2s_ad.derivative_source(df, *POWER_ARGS)
    # one push of power a step of the inner loop (read by c's adjoint), none per point
    assert source.count("_tape.append(power)") == 1
    assert source.count("power = _tape.pop()") == 1
    # the range of len(coeffs), alike for every point, is neither pushed nor popped
    ranges = _range_names(source)
    assert len(ranges) == 2 and "_tape.append(t" in source          # t4_1, the residual
    assert not any(f"_tape.append({name})" in source for name in ranges)


def _range_names(source):
    return [line.split("=")[0].strip() for line in source.splitlines()
            if "= range(len(" in line or "= range(t" in line]
