"""Shapes read within one loop iteration (kinds' iteration_classes,
tape.shapes_read_within_iterations): a value a loop's backward sweep needs only for its
shape (np.mean's count) is read off a value of the same iteration that the sweep keeps
anyway, so it is neither computed in the forward sweep nor taped as a shape. The cases
whose shapes change from one iteration to the next are where a wrong pick would show."""
import re

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, check_against_differences, grad_on
from gradcheck import numeric_grad


def rnn_like(W, xs):
    h = np.zeros(W.shape[0])
    loss = 0.0
    for x_t in xs:
        h = np.tanh(W @ h + x_t)
        loss += np.mean((h - x_t) ** 2)
    return loss


def growing_windows(x):
    """Each iteration's squares have another length: the count must be this iteration's."""
    total = 0.0
    for k in range(1, x.shape[0] + 1):
        r = x[:k] * 2.0 - 1.0
        total = total + np.mean(r * r)
    return total


def shrinking_carried(x):
    """The carried u shortens every iteration; its squares' count is read after it."""
    u = x
    total = 0.0
    while u.shape[0] > 1:
        d = u[1:] - u[:-1]
        total = total + np.mean(d * d) * np.sum(u)
        u = d
    return total


def squared_before_the_value_it_matches(x):
    """The square's statement comes before the later statement binding a value of its
    class in the loop body: that later value holds the previous iteration's there."""
    total = 0.0
    v = x[:1] * 1.0
    for k in range(2, x.shape[0] + 1):
        s = v * v
        total = total + np.mean(s)
        v = x[:k] * 3.0
    return total + np.sum(v)


def carried_state_loss(u0):
    """A loop-carried state (also bound before the loop) with a loss per step: the
    squares' count reads off u, which the step's update rebinds only after it."""
    u = u0
    total = 0.0
    for _ in range(4):
        total = total + np.mean(u * u)
        u = np.tanh(u) * 0.9 + u0
    return total


def shrinking_state_between(u0):
    """u is rebound (shorter) between the square and the read of its count: the square's
    shape may not be read off u there."""
    u = u0
    total = 0.0
    for _ in range(3):
        s = u * u
        u = u[1:] * 1.5
        total = total + np.mean(s) + np.sum(u)
    return total


def test_a_loop_value_read_for_its_shape_is_not_computed_or_taped():
    W = np.random.default_rng(0).normal(size=(4, 4)) * 0.3
    xs = np.random.default_rng(1).normal(size=(6, 4))
    df = s2s_ad.grad(rnn_like)
    np.testing.assert_allclose(df(W, xs), numeric_grad(rnn_like, (W, xs), 0),
                               rtol=1e-6, atol=1e-9)
    source = s2s_ad.derivative_source(df, W, xs)
    assert "placeholder" not in source and "shape_of" not in source
    squares = re.findall(r"^\s*\w+ = (\w+) \* \1$", source, re.M)     # `t8_0 = t7_0 * t7_0`
    assert not squares and "reduced_count(" in source


def windows_summed(w, x, y):
    """A sum of shifted windows in a loop, the way a user writes a valid correlation: after
    the loop the facts know no dtype for `out` (nor for what is computed from it), and
    np.mean's count of the squares is read off the residual the adjoint keeps anyway."""
    n = len(x) - len(w) + 1
    out = np.zeros(n)
    for k in range(len(w)):
        out = out + w[k] * x[k:k + n]
    return np.mean((np.tanh(out) - y) ** 2)


def test_a_count_is_read_off_a_value_of_unknown_dtype():
    rng = np.random.default_rng(3)
    w, x = rng.normal(size=3), rng.normal(size=12)
    y = 0.3 * rng.normal(size=10)
    df = s2s_ad.grad(windows_summed, wrt=(0, 1))
    got = df(w, x, y)
    for k in (0, 1):
        np.testing.assert_allclose(got[k], numeric_grad(windows_summed, (w, x, y), k),
                                   rtol=1e-6, atol=1e-9)
    source = s2s_ad.derivative_source(df, w, x, y)
    squares = re.findall(r"^\s*\w+ = (\w+) \* \1$", source, re.M)     # `t10_0 = t9_0 * t9_0`
    assert not squares and "reduced_count(" in source, source
    for path in PATHS:
        general = grad_on(path, windows_summed, wrt=(0, 1))(w, x, y)
        for a, b in zip(general, got):
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=0.0)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [growing_windows, shrinking_carried,
                               squared_before_the_value_it_matches, carried_state_loss,
                               shrinking_state_between])
def test_shapes_that_change_every_iteration(path, f):
    x = np.linspace(-0.8, 1.1, 7)
    check_against_differences(path, f, x)


def test_a_carried_state_read_for_its_shape():
    u0 = np.linspace(-0.5, 0.8, 5)
    df = s2s_ad.grad(carried_state_loss)
    df(u0)
    source = s2s_ad.derivative_source(df, u0)
    assert "placeholder" not in source and "shape_of" not in source
    assert not re.findall(r"^\s*\w+ = (\w+) \* \1$", source, re.M)


@pytest.mark.parametrize("path", PATHS)
def test_rnn_like_on_both_paths(path):
    W = np.random.default_rng(2).normal(size=(3, 3)) * 0.3
    xs = np.random.default_rng(3).normal(size=(5, 3))
    np.testing.assert_allclose(grad_on(path, rnn_like)(W, xs),
                               numeric_grad(rnn_like, (W, xs), 0), rtol=1e-6, atol=1e-9)


def test_what_a_shape_tape_keeps():
    """shape_of (runtime.py, its arrays' path first): a float64 array's or a number's
    shape, or the value itself, whole, when its dtype or structure matters (float32,
    complex, a non-native byte order, containers, named tuples); the placeholder made
    from what it kept has that shape and dtype."""
    from s2s_ad.runtime import placeholder, shape_of
    x = np.ones((3, 2))
    assert shape_of(x) == (3, 2) and placeholder(shape_of(x)).shape == (3, 2)
    assert shape_of(np.arange(4)) == (4,) and shape_of(np.ones(2, bool)) == (2,)
    assert shape_of(1.0) == () and shape_of(np.float64(2.0)) == ()
    for whole in (x.astype(np.float32), np.ones(2, complex), np.ones(2, ">f8"), [x], (x,),
                  {"a": x}, np.linalg.slogdet(np.eye(2)), np.float32(1.0)):
        kept = shape_of(whole)
        assert type(kept) is list and kept[0] is whole and placeholder(kept) is whole
