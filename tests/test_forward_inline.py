"""Single-use forward temporaries are written back into their use, and only then."""
import textwrap

import gast
import pytest

from s2s_ad.backend.emit import to_source
from s2s_ad.ir import build
from s2s_ad.optimize.forward_inline import inline_forward_temporaries


def numpy_only(call):
    return isinstance(call.func, gast.Attribute) and call.func.value.id == "np"


def rewrite(forward, backward="return t9_0"):
    body = gast.parse(textwrap.dedent(forward)).body + [build.blank_line()] + \
        gast.parse(textwrap.dedent(backward)).body
    out = inline_forward_temporaries(body, numpy_only)
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
    ("t1_0 = X @ W\nq = np.sum(X)\nt9_0 = np.tanh(t1_0)", "t1_0 = X @ W"),       # not next
    ("h = X @ W\nt9_0 = np.tanh(h)", "h = X @ W"),                              # a user's name
])
def test_what_stays(forward, kept):
    assert kept in rewrite(forward)


def test_a_temporary_the_backward_sweep_reads_stays():
    text = rewrite("t1_0 = X @ W\nt9_0 = np.tanh(t1_0)", backward="g = unbroadcast(t9_0, t1_0)")
    assert "t1_0 = X @ W" in text
