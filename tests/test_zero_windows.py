"""Windows of zeros (ad/windows.py, ad/indexed_contributions.py): the adjoint of an array
read by slices is made by np.zeros_like where the first slice's contribution comes; a
contribution to a window no earlier one touched is assigned (`z_bar[:, :H] = e`), not
added, when the facts prove the windows apart. Overlapping windows, windows whose bounds
are no lengths, and windows across a loop or branch keep `+=`. Gradients against central
differences on both derivative paths, and second order through the assigned windows."""
import gast
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, hvp_on
from gradcheck import numeric_grad
from paths import fresh
from s2s_ad.ad.windows import disjoint_windows
from s2s_ad.analyses.affine import Affine

RNG = np.random.default_rng(2424)
W = RNG.standard_normal((3, 12)) * 0.5
U = RNG.standard_normal((4, 12)) * 0.5
XS = RNG.standard_normal((4, 2, 3))


def gated(W, U, xs):
    """Three gates sliced from one product (an LSTM's shape, tanh for the helper)."""
    H = U.shape[0]
    h = np.zeros((xs.shape[1], H))
    total = 0.0
    for x in xs:
        z = x @ W + h @ U
        i = np.tanh(z[:, :H])
        f = np.tanh(z[:, H:2 * H])
        g = np.tanh(z[:, 2 * H:])
        h = f * h + i * g
        total = total + np.sum(h * h)
    return total


def overlapping(W, xs):
    """Windows that share columns: H:3H overlaps 0:2H."""
    H = W.shape[1] // 3
    total = 0.0
    for x in xs:
        z = np.sin(x @ W)
        total = total + np.sum(z[:, :2 * H] ** 2) + np.sum(np.cos(z[:, H:]))
    return total


def three_windows(W, xs):
    """Backward: z[:, :4] is assigned, z[:, :8] added (it overlaps), and z[:, 4:] added:
    apart from the first window but not from the second."""
    z = np.sin(xs[0] @ W)
    c = np.sum(np.cos(z[:, 4:]))
    b = np.sum(z[:, :8] ** 2)
    a = np.sum(np.tanh(z[:, :4]))
    return a + b + c


def through_a_branch(W, xs, k):
    """z[:, :4] read before a branch and z[:, 4:] inside it: the window written in the
    branch is no window of zeros after it."""
    z = np.sin(xs[0] @ W)
    a = np.sum(z[:, :4] ** 2)
    if k > 0:
        a = a + np.sum(np.cos(z[:, 4:]))
    return a + np.sum(np.tanh(z[:, 4:8]))


def _adds(line):
    """`z_bar[...] += e` or `-= e` (a negated contribution folded)?"""
    return line.split("] ", 1)[1][:2] in ("+=", "-=")


def _window_lines(source, name):
    return [line.strip() for line in source.splitlines() if line.strip().startswith(name + "[")]


@pytest.mark.parametrize("path", PATHS)
def test_gates_apart_are_assigned(path):
    f = fresh(gated)
    for wrt in (0, 1, 2):
        np.testing.assert_allclose(grad_on(path, f, wrt)(W, U, XS),
                                   numeric_grad(gated, (W, U, XS), wrt), rtol=1e-6, atol=1e-9)
    source = s2s_ad.derivative_source(s2s_ad.grad(f), W, U, XS)
    lines = _window_lines(source, "z_bar")
    assert len(lines) == 3 and not any(map(_adds, lines)), source


@pytest.mark.parametrize("path", PATHS)
def test_overlapping_windows_add(path):
    f = fresh(overlapping)
    np.testing.assert_allclose(grad_on(path, f)(W, XS), numeric_grad(overlapping, (W, XS), 0),
                               rtol=1e-6, atol=1e-9)
    source = s2s_ad.derivative_source(s2s_ad.grad(f), W, XS)
    lines = _window_lines(source, "z_bar")
    assert len(lines) == 2 and sum(map(_adds, lines)) == 1, source


@pytest.mark.parametrize("path", PATHS)
def test_a_window_apart_from_one_but_not_another_adds(path):
    f = fresh(three_windows)
    np.testing.assert_allclose(grad_on(path, f)(W, XS), numeric_grad(three_windows, (W, XS), 0),
                               rtol=1e-6, atol=1e-9)
    lines = _window_lines(s2s_ad.derivative_source(s2s_ad.grad(f), W, XS), "z_bar")
    assert [_adds(line) for line in lines] == [False, True, True], lines


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("k", [1, -1])
def test_a_window_in_a_branch_is_none_after_it(path, k):
    f = fresh(through_a_branch)
    np.testing.assert_allclose(grad_on(path, f)(W, XS, k),
                               numeric_grad(lambda w: through_a_branch(w, XS, k), (W,), 0),
                               rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("path", PATHS)
def test_second_order_through_assigned_windows(path):
    f = fresh(gated)
    v = RNG.standard_normal(W.shape)
    eps = 1e-5
    g = s2s_ad.grad(gated)
    expected = (g(W + eps * v, U, XS) - g(W - eps * v, U, XS)) / (2 * eps)
    np.testing.assert_allclose(hvp_on(path, f, (W, U, XS), v), expected, rtol=1e-5, atol=1e-8)


def _slice(lower, upper):
    def atom(b):
        return None if b is None else gast.Name(id=b, ctx=gast.Load(), annotation=None,
                                                type_comment=None)
    return gast.Tuple(elts=[gast.Slice(None, None, None),
                            gast.Slice(atom(lower), atom(upper), None)], ctx=gast.Load())


def test_disjoint_windows_need_lengths():
    length = Affine.symbol("U.shape[0]")
    values = {"H": length, "H2": length.scaled(2), "n": Affine.symbol("n")}

    def value(atom):
        return values.get(atom.id) if isinstance(atom, gast.Name) else None
    assert disjoint_windows(_slice(None, "H"), _slice("H", "H2"), value)
    assert disjoint_windows(_slice("H2", None), _slice("H", "H2"), value)
    assert not disjoint_windows(_slice(None, "H2"), _slice("H", None), value)
    # an integer parameter may be negative: x[:n] and x[n:] of n = -1 overlap nowhere,
    # but x[:, :n] and x[:, 0:...] are not proved apart by it
    assert not disjoint_windows(_slice(None, "n"), _slice("n", None), value)
    assert not disjoint_windows(_slice(None, "H"), _slice("unknown", None), value)
