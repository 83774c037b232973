"""Flow-aware tape liveness (s2s_ad/ad/restore_liveness.py, used by ad/tape.py): a
name's save/restore pair is kept only when a read of the backward sweep can see one of
its restores, not whenever the name is read somewhere in it. Gradients against central
differences (loops nested in loops, branches, reads that see a restore only across an
iteration), generated code without the dead pushes, and the analysis on its own."""
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


def _live(source, returned=()):
    tree = gast.parse(source)

    def restored(stmt):
        if isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call) \
                and stmt.value.func.id == "restore":
            return stmt.value.args[0].id
        return None
    return live_restored_names(tree.body, [gast.parse(e).body[0].value for e in returned],
                               restored, lambda stmt: restored(stmt) is not None)


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
