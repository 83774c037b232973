"""Single-use forward temporaries are written back into their use, and only then."""
import textwrap

import gast
import pytest

from s2s_ad.backend.emit import to_source
from s2s_ad.ir import build
from s2s_ad.optimize.temporaries import inline_temporaries


def numpy_only(call):
    return isinstance(call.func, gast.Attribute) and call.func.value.id == "np"


def rewrite(forward, backward="return t9_0"):
    body = gast.parse(textwrap.dedent(forward)).body + [build.blank_line()] + \
        gast.parse(textwrap.dedent(backward)).body
    out, _ = inline_temporaries(body, numpy_only)
    return to_source(gast.Module(body=out, type_ignores=[])).strip()


def test_a_chain_of_single_use_temporaries_becomes_one_line():
    text = rewrite("""
        t1_0 = X @ W
        t2_0 = t1_0 + b
        t9_0 = np.tanh(t2_0)
        """)
    assert text.startswith("t9_0 = np.tanh(X @ W + b)")


@pytest.mark.parametrize("forward, kept", [
    ("t1_0 = X @ W\nt2_0 = t1_0 + t1_0\nt9_0 = np.tanh(t2_0)", "t1_0 = X @ W"),   # two uses
    ("t1_0 = helper(X)\nt9_0 = np.tanh(t1_0)", "t1_0 = helper(X)"),             # effects
    ("t1_0 = X @ W\nt9_0 = t1_0 if c else X", "t1_0 = X @ W"),                  # conditional
    ("t1_0 = X @ W\nW = np.sum(X)\nt9_0 = np.tanh(t1_0)", "t1_0 = X @ W"),       # W rebound
    ("t1_0 = X @ W\nq = helper(X)\nt9_0 = np.tanh(t1_0)", "t1_0 = X @ W"),      # effects between
    ("t1_0 = X @ W\nX[0] = 1.0\nt9_0 = np.tanh(t1_0)", "t1_0 = X @ W"),         # X written
    ("h = X @ W\nt9_0 = np.tanh(h)", "h = X @ W"),                              # a user's name
])
def test_what_stays(forward, kept):
    assert kept in rewrite(forward)


def test_a_temporary_the_backward_sweep_reads_stays():
    text = rewrite("t1_0 = X @ W\nt9_0 = np.tanh(t1_0)", backward="g = unbroadcast(t9_0, t1_0)")
    assert "t1_0 = X @ W" in text


def test_adjoint_temporaries_inline_and_their_negations_cancel():
    from s2s_ad.optimize.fold import fold_constants
    body = gast.parse(textwrap.dedent("""
        t4_0_bar = -(p_bar * p) / t4_0
        t2_0_bar = t4_0_bar * t3_0
        t1_0_bar = -t2_0_bar
        w_bar = t1_0_bar @ X
        return w_bar
        """)).body
    body, changed = inline_temporaries(body, numpy_only)
    body, _ = fold_constants(body)
    assert changed
    assert to_source(gast.Module(body=body, type_ignores=[])).strip().splitlines()[0] == \
        "w_bar = p_bar * p / t4_0 * t3_0 @ X"


@pytest.mark.parametrize("code, folded", [
    ("y = -a * b", "y = -(a * b)"),
    ("y = a / -b", "y = -(a / b)"),
    ("y = -(-a * b)", "y = a * b"),
    ("y = -a * -b", "y = a * b"),
    ("y = -2 * b", "y = -2 * b"),            # literals are left to constant folding
])
def test_signs_lift_out_of_products(code, folded):
    from s2s_ad.optimize.fold import fold_constants
    body, _ = fold_constants(gast.parse(code).body)
    assert to_source(gast.Module(body=body, type_ignores=[])).strip() == folded


def test_a_temporary_moves_past_effect_free_assignments_to_its_use():
    text = rewrite("t1_0 = X @ W\nq = np.sum(X)\nt9_0 = np.tanh(t1_0) + q")
    assert text.splitlines()[:2] == ["q = np.sum(X)", "t9_0 = np.tanh(X @ W) + q"]


def test_a_branch_test_takes_its_single_use_temporaries():
    text = rewrite("""
        t5_0 = np.abs(r)
        t6_0 = t5_0 <= delta
        if t6_0:
            t9_0 = r
        else:
            t9_0 = delta
        """)
    assert text.startswith("if np.abs(r) <= delta:")


@pytest.mark.parametrize("forward, kept", [
    # read in a branch, not in the test: the value stays before the if
    ("t1_0 = np.abs(r)\nif c:\n    t9_0 = t1_0\nelse:\n    t9_0 = r", "t1_0 = np.abs(r)"),
    # a while loop's test runs again on every trip
    ("t1_0 = np.abs(r)\nwhile t1_0 > 1.0:\n    r = r / 2.0\nt9_0 = r", "t1_0 = np.abs(r)"),
    # a test reading it in a conditional part
    ("t1_0 = np.abs(r)\nif c or t1_0 > 1.0:\n    t9_0 = r\nelse:\n    t9_0 = c",
     "t1_0 = np.abs(r)"),
])
def test_what_stays_before_a_branch(forward, kept):
    assert kept in rewrite(forward)


def test_a_temporary_follows_its_copy_into_the_copys_use():
    # t1_0 cannot go into the copy `t2_0 = t1_0` (it would alias nothing); the copy goes
    # into t9_0's line, and then t1_0 does: the line the copy went into is read again
    # (what the pass noted of it before is forgotten)
    text = rewrite("""
        t1_0 = X @ W
        t2_0 = t1_0
        t9_0 = np.tanh(t2_0)
        """)
    assert text.startswith("t9_0 = np.tanh(X @ W)"), text
