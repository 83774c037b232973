"""Loop-accumulated adjoints are added in place only where no other name can see them."""
import textwrap

import gast
import numpy as np
import pytest

import s2s_ad
from s2s_ad.backend.emit import to_source
from s2s_ad.optimize.inplace import accumulate_in_place


def rewrite(code):
    body = gast.parse(textwrap.dedent(code)).body
    out, changed = accumulate_in_place(body)
    return to_source(gast.Module(body=out, type_ignores=[])).strip(), changed


def test_loop_sum_of_fresh_values_becomes_in_place():
    text, changed = rewrite("""
        W_bar = 0.0
        for t in ts:
            W_bar = W_bar + a.T @ g
        return match_adjoint(W_bar, W)
        """)
    assert changed and "W_bar += a.T @ g" in text


@pytest.mark.parametrize("escape", [
    "M = W_bar",                 # an alias would see the later additions
    "v = W_bar[0]",              # a view
    "v = W_bar.T",               # a view
    "_tape.append(W_bar)",       # kept by someone else
    "v = helper(W_bar)",         # a helper could keep it
    "W_bar = g * 2",             # reset to something that may be shared
    "W_bar += g",                # already in place (not the pass's to reason about)
    "xs = [W_bar, g]",           # inside a container
])
def test_any_escape_keeps_the_sum_out_of_place(escape):
    text, changed = rewrite(f"""
        W_bar = 0.0
        for t in ts:
            W_bar = W_bar + g
            {escape}
        return W_bar
        """)
    assert not changed and "W_bar = W_bar + g" in text


def test_sum_reading_itself_on_the_right_stays():
    text, changed = rewrite("""
        W_bar = 0.0
        for t in ts:
            W_bar = W_bar + W_bar * g
        return W_bar
        """)
    assert not changed


def rnn_like(W, h0, xs):
    h = h0
    total = 0.0
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ W + h)
        total = total + np.sum(h * h)
    return total


def test_generated_loop_gradient_adds_weights_in_place_and_is_right():
    rng = np.random.default_rng(0)
    W = rng.standard_normal((3, 3)) * 0.5
    h0 = rng.standard_normal((2, 3))
    xs = rng.standard_normal((4, 2, 3))
    df = s2s_ad.grad(rnn_like, wrt=(0, 1))
    assert "W_bar += " in s2s_ad.derivative_source(df)
    dW, dh0 = df(W, h0, xs)
    eps = 1e-6
    for k in np.ndindex(W.shape):
        step = np.zeros_like(W)
        step[k] = eps
        fd = (rnn_like(W + step, h0, xs) - rnn_like(W - step, h0, xs)) / (2 * eps)
        assert dW[k] == pytest.approx(fd, rel=1e-5, abs=1e-8)
    W_copy = W.copy()
    df(W, h0, xs)
    np.testing.assert_array_equal(W, W_copy)        # the caller's array is untouched
    dW2, _ = df(W, h0, xs)
    np.testing.assert_array_equal(dW, dW2)          # no state carried between calls


def rewrite_after(code, returned=""):
    body = gast.parse(textwrap.dedent(code)).body
    out, changed = accumulate_in_place(body, gast.parse(textwrap.dedent(returned)).body)
    return to_source(gast.Module(body=out, type_ignores=[])).strip(), changed


def test_sum_started_from_an_adjoint_only_it_holds_becomes_in_place():
    text, changed = rewrite_after("""
        t8_0_bar = 2.0 * t8_0
        u_bar = t8_0_bar
        for t in ts:
            u_bar = u_bar + g
        return u_bar
        """)
    assert changed and "u_bar += g" in text
    text, changed = rewrite_after("""
        u_bar = t5_0_bar * u
        for t in ts:
            u_bar = u_bar + g
        return u_bar
        """)
    assert changed and "u_bar += g" in text


@pytest.mark.parametrize("start", [
    "t8_0_bar = 2.0 * t8_0\nu_bar = t8_0_bar\nw_bar = t8_0_bar",
    "u_bar = t8_0",                                             # a forward value
    "u_bar = x",                                                # an argument
    "t8_0_bar = np.multiply(2.0, t8_0, out=t8_0)\nu_bar = t8_0_bar",   # a forward buffer
    "t8_0_bar = 2.0 * t8_0\nfor s in ss:\n    u_bar = t8_0_bar",    # in a loop
])
def test_a_start_someone_else_can_see_keeps_the_sum_out_of_place(start):
    text, changed = rewrite_after(start + """
for t in ts:
    u_bar = u_bar + g
return u_bar
""")
    assert not changed and "u_bar = u_bar + g" in text


def test_a_start_the_return_reads_keeps_the_sum_out_of_place():
    # the final return is not part of the backward sweep handed over: it is read too
    text, changed = rewrite_after("""
        x_bar = 2.0 * t
        u_bar = x_bar
        for s in ss:
            u_bar = u_bar + g
        """, "return x_bar, u_bar")
    assert not changed and "u_bar = u_bar + g" in text
