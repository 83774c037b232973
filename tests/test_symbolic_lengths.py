"""Axis lengths as symbolic facts (analyses/lengths.py, analyses/affine.py): the length of a
parameter's axis, an integer argument, a constant or an affine expression of those; a
slice's length only where its bounds are proved in range. Checked: the facts themselves,
gradients against finite differences on both derivative paths (open, negative, stepped,
empty, past-the-end and length-1 slices), one specialisation serving two sizes, and the
generated code of a running sum of slices (no shape bookkeeping left)."""
import re

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, hvp_on
from gradcheck import numeric_grad
from s2s_ad.analyses.affine import Affine, Bounds
from s2s_ad.analyses.kinds import analyse_kinds
from s2s_ad.pipeline import front
from s2s_ad.signature import kind_of

RNG = np.random.default_rng(1501)


def conv_loop(w, x):
    """A valid convolution by a for-loop of slices: every slice has length n."""
    n = len(x) - len(w) + 1
    out = np.zeros(n)
    for k in range(len(w)):
        out = out + w[k] * x[k:k + n]
    return np.sum(np.tanh(out) ** 2)


def slices(x):
    """Slices of every kind of bound: decided (s1, s2, half, rest, mid) and not (the rest)."""
    s1 = x[1:]
    s2 = x[:-1]
    h = len(x) // 2
    half = x[:h]
    rest = x[h:]
    mid = x[h:2 * h]
    tail = x[-3:]                 # longer than x when len(x) == 2: clipped
    every = x[::2]
    short = x[5:]                 # empty for short x
    past = x[h:h + 10]            # past the end: clipped
    empty = x[len(x):]
    return np.sum(s1 * s2) + np.sum(np.sin(half * mid)) + np.sum(rest ** 3) \
        + np.sum(np.cos(tail)) + np.sum(every ** 2) + np.sum(short ** 3) \
        + np.sum(past * past) + np.sum(empty) + np.sum(x[-1:] * 3.0)


def windows(x, m):
    """Bounds from an integer argument: x[k:k + m] may run past the end or be empty."""
    total = 0.0
    for k in range(len(x)):
        total = total + np.sum(np.sin(x[k:k + m]))
    return total


def kept(x, y):
    """Calls whose result has their operand's shape (or the broadcast of theirs)."""
    c = np.cumsum(x)
    r = np.roll(x, 1)
    f = np.flip(x)
    s = np.sort(x)
    w = np.where(x > 0, x, y)
    o = np.outer(x, y)
    t = np.transpose(o)
    return np.sum(c * r * f * s * w) + np.sum(o * t)


def gate_mix(W, U, xs):
    """z's length (min(H, W.shape[1])) equals H only because z * h runs after it in the
    same loop body; r's (W.shape[1] - H) may be 1 (it broadcasts)."""
    H = U.shape[0]
    h = np.zeros((xs.shape[1], H))
    for x_t in xs:
        a = x_t @ W
        z = np.tanh(a[:, :H])
        r = np.tanh(a[:, H:])
        h = z * h + r * z + 0.1 * a[:, :H] + x_t[:, :1]
    return np.sum(h * h)


def late_gate(W, U, xs):
    """z meets h only in the next iteration: its last value, of any length, never does."""
    H = U.shape[0]
    h = np.ones((xs.shape[1], H))
    z = np.ones((xs.shape[1], H))
    for x_t in xs:
        h = z * h + 1.0
        z = np.tanh((x_t @ W)[:, :H])
    return np.sum(h * h) + np.sum(z * z)


def facts(f, *args):
    levels, _ = front(f)
    names = list(levels.resolution.parameters)
    return analyse_kinds(levels, {n: kind_of(a) for n, a in zip(names, args)})


def length(name):
    return Affine.symbol(name)


def test_affine_arithmetic_and_proofs():
    n = length("x.shape[0]") - length("w.shape[0]") + Affine.constant(1)
    assert str(n) == "-w.shape[0] + x.shape[0] + 1"
    assert (n - n).is_constant and (n - n).const == 0
    bounds = Bounds({"x.shape[0]": 2, "w.shape[0]": 2})
    assert bounds.nonnegative(length("x.shape[0]") - Affine.constant(2))
    assert not bounds.nonnegative(length("x.shape[0]") - Affine.constant(3))
    assert not bounds.nonnegative(n)                     # x may be shorter than w
    bounds.facts.append(n)                               # learned: np.zeros(n) ran
    assert bounds.nonnegative(n + Affine.constant(4))


def test_facts_of_a_convolution_by_slices():
    kinds = facts(conv_loop, np.ones(3), np.ones(8))
    n = (length("x.shape[0]") - length("w.shape[0]") + Affine.constant(1),)
    assert tuple(kinds.lengths["out"]) == n
    # the slice x[k:k + n] (read through its product with w[k]) has out's length
    assert kinds.same_lengths("out", "t7_0") or any(
        tuple(v) == n for k, v in kinds.lengths.items() if k.startswith("t") and k != "out")
    assert "k" not in kinds.lengths or kinds.lengths["k"] is None    # a loop index: no fact


def test_facts_of_slices():
    kinds = facts(slices, np.ones(6))
    x0, half = length("x.shape[0]"), length("(x.shape[0] // 2)")
    assert tuple(kinds.lengths["s1"]) == (x0 - Affine.constant(1),)
    assert tuple(kinds.lengths["s2"]) == (x0 - Affine.constant(1),)
    assert tuple(kinds.lengths["half"]) == (half,)
    assert tuple(kinds.lengths["rest"]) == (x0 - half,)
    assert tuple(kinds.lengths["mid"]) == (half,)
    assert tuple(kinds.lengths["empty"]) == (Affine.constant(0),)     # x[len(x):]
    for undecided in ("tail", "every", "short", "past"):
        assert tuple(kinds.lengths[undecided]) == (None,), undecided
    # no length of 1 is claimed "not 1": s1 has length 1 when x has length 2
    assert kinds.of("s1").axes is None


def test_facts_of_shape_keeping_calls():
    kinds = facts(kept, np.ones(4), np.ones(4))
    x0, y0 = length("x.shape[0]"), length("y.shape[0]")
    for name in ("c", "r", "f", "s", "w"):
        assert tuple(kinds.lengths[name]) == (x0,), name
    assert tuple(kinds.lengths["o"]) == (x0, y0)
    assert tuple(kinds.lengths["t"]) == (y0, x0)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("n", [2, 3, 6])
def test_shape_keeping_calls_gradient(n, path):
    args = (RNG.normal(size=n), RNG.normal(size=n))
    got = grad_on(path, kept, wrt=(0, 1))(*args)
    for k in (0, 1):
        np.testing.assert_allclose(got[k], numeric_grad(kept, args, k), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("n", [2, 3, 4, 5, 8, 13])
def test_slices_gradient(n, path):
    x = RNG.normal(size=n)
    np.testing.assert_allclose(grad_on(path, slices)(x), numeric_grad(slices, (x,), 0),
                               rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("n, m", [(5, 2), (4, 1), (3, 5), (4, 0), (6, -2)])
def test_windows_of_an_integer_argument(n, m, path):
    x = RNG.normal(size=n)
    got = grad_on(path, windows)(x, m)
    np.testing.assert_allclose(got, numeric_grad(lambda x: windows(x, m), (x,), 0),
                               rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("K, N", [(3, 10), (3, 3), (4, 5), (2, 9)])
def test_convolution_gradient(K, N, path):
    """N == K: every slice has length 1 (out too)."""
    args = (RNG.normal(size=K), RNG.normal(size=N))
    got = grad_on(path, conv_loop, wrt=(0, 1))(*args)
    for k in (0, 1):
        np.testing.assert_allclose(got[k], numeric_grad(conv_loop, args, k),
                                   rtol=1e-6, atol=1e-8)


def test_one_specialisation_serves_every_size():
    df = s2s_ad.grad(conv_loop, wrt=(0, 1))
    for K, N in [(3, 10), (4, 4), (2, 7), (5, 40)]:
        args = (RNG.normal(size=K), RNG.normal(size=N))
        got = df(*args)
        np.testing.assert_allclose(got[1], numeric_grad(conv_loop, args, 1),
                                   rtol=1e-6, atol=1e-8)
    source = s2s_ad.derivative_source(df)
    assert len(re.findall(r"def grad_conv_loop_\d", source)) == 1      # specialisations


def test_running_sum_of_slices_keeps_no_shape_bookkeeping():
    df = s2s_ad.grad(conv_loop, wrt=(0, 1))
    args = (RNG.normal(size=3), RNG.normal(size=10))
    source = s2s_ad.derivative_source(df, *args)
    for bookkeeping in ("shape_of", "placeholder", "unbroadcast", "match_adjoint"):
        assert bookkeeping not in source, bookkeeping
    assert "np.vdot(" in source        # w[k]'s adjoint: one pass over the slice


@pytest.mark.parametrize("path", PATHS)
def test_second_order_through_slices(path):
    x, v = RNG.normal(size=7), RNG.normal(size=7)
    got = hvp_on(path, slices, (x,), v)
    grad_x = s2s_ad.grad(slices)
    eps = 1e-5
    expected = (grad_x(x + eps * v) - grad_x(x - eps * v)) / (2 * eps)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, H, width, T", [
    (gate_mix, 3, 6, 3), (gate_mix, 3, 4, 3), (gate_mix, 2, 4, 2),
    (late_gate, 3, 2, 1), (late_gate, 3, 5, 3), (late_gate, 2, 2, 2)])
def test_lengths_learned_from_broadcasting(f, H, width, T, path):
    args = (RNG.normal(size=(2, width)) * 0.5, RNG.normal(size=(H, H)),
            RNG.normal(size=(T, 2, 2)))
    try:
        f(*args)
    except ValueError:
        pytest.skip("f itself cannot combine these lengths")
    got = grad_on(path, f, wrt=(0, 2))(*args)
    for k, a in ((0, 0), (1, 2)):
        np.testing.assert_allclose(got[k], numeric_grad(f, args, a), rtol=1e-6, atol=1e-8)


def test_learned_length_needs_the_broadcast_after_the_slice():
    kinds = facts(gate_mix, np.ones((2, 6)), np.ones((3, 3)), np.ones((3, 2, 2)))
    H = length("U.shape[0]")
    assert tuple(kinds.lengths["z"]) == (length("xs.shape[1]"), H)
    assert tuple(kinds.lengths["r"]) == (length("xs.shape[1]"), None)
    late = facts(late_gate, np.ones((2, 5)), np.ones((3, 3)), np.ones((3, 2, 2)))
    assert tuple(late.lengths["z"]) == (length("xs.shape[1]"), None)


def test_only_rebinding_a_loop_index_looks_for_the_values_that_read_it(monkeypatch):
    """A value whose length reads a loop index (`@k@...`) is forgotten when k is bound
    again; binding any other name looks at no value (that scan of every value at every
    binding was quadratic in a function's length)."""
    from s2s_ad.analyses import lengths
    scanned = []
    mentions = lengths.mentions
    monkeypatch.setattr(lengths, "mentions",
                        lambda value, prefix: scanned.append(prefix) or mentions(value, prefix))
    rebound = lambda: [p for p in scanned if not p.startswith("@?")]   # noqa: E731
    facts(slices, np.ones(6))        # no loop (an undecided slice's own symbol: "@?...")
    assert rebound() == []
    kinds = facts(conv_loop, np.ones(3), np.ones(8))
    assert set(rebound()) == {"@k@"}
    assert "k" not in kinds.lengths or kinds.lengths["k"] is None
