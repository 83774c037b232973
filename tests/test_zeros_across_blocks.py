"""An accumulated adjoint reset to zero stays a symbolic zero (ad/adjoints.py) until something
adds to it, which then assigns: across statements, into both branches of an `if`, and into
a loop body for values the body computes before reading them (ad/loop_zeros.py). The
gradients are checked against central differences on both paths, the generated code for
the assignments that replace `t_bar = t_bar + e`, and `0.0 + array` copies."""
import types

import gast
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, hvp_on
from gradcheck import numeric_grad
from s2s_ad.ad import backward_walk
from s2s_ad.ad.loop_zeros import iteration_local
from s2s_ad.frontend.parse import parse


def layers_in_a_loop(ws, x):
    # t is bound on both branches (two definitions: its adjoint accumulates) and read
    # after them; x is carried from one iteration to the next
    for k, w in enumerate(ws):
        if k % 2 == 0:
            t = np.tanh(x @ w)
        else:
            t = np.sin(x @ w)
        x = t * 0.5 + x
    return np.sum(x ** 2)


def branch_per_item(a, xs):
    total = 0.0
    for x in xs:
        if x > 0.0:
            t = a * x
        else:
            t = np.sin(a) * x
        total = total + t * t
    return total


def read_before_written(a, n):
    # `t` is read at the top of the body before the body computes it: loop-carried
    t = a
    s = 0.0
    for k in range(n):
        s = s + np.sum(t * t)
        t = np.sin(t) + a
    return s


def conditionally_written(a, xs):
    # `t` is written on one branch only and read after the branch: it carries the
    # previous iteration's value into the next one
    t = a
    s = 0.0
    for x in xs:
        if x > 0.5:
            t = a * x
        s = s + np.sum(t * x)
    return s


def _layer_args():
    rng = np.random.default_rng(3)
    return [rng.standard_normal((4, 4)) * 0.4 for _ in range(3)], rng.standard_normal((2, 4))


def _ws_grad(path, args):
    f = lambda w0, w1, w2, x: layers_in_a_loop([w0, w1, w2], x)   # noqa: E731
    flat = (*args[0], args[1])
    got = grad_on(path, f, wrt=(0, 1, 2, 3))(*flat)
    return got, [numeric_grad(f, flat, k) for k in range(4)]


@pytest.mark.parametrize("path", PATHS)
def test_layers_in_a_loop(path):
    got, want = _ws_grad(path, _layer_args())
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, args", [
    (branch_per_item, (0.7, [0.3, -1.2, 2.0, -0.1])),
    (read_before_written, (np.array([0.4, -0.3]), 5)),
    (conditionally_written, (np.array([0.9, 0.2]), [0.2, 0.8, 0.1, 0.9, 0.7])),
])
def test_gradients_stay_right(path, f, args):
    got = grad_on(path, f)(*args)
    np.testing.assert_allclose(got, numeric_grad(f, args, 0), rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("f, args", [
    (read_before_written, (np.array([0.4, -0.3]), 5)),
    (conditionally_written, (np.array([0.9, 0.2]), [0.2, 0.8, 0.1, 0.9, 0.7])),
])
def test_a_zero_wrongly_kept_into_a_loop_is_walked_again(monkeypatch, f, args):
    """Should the facts keep a zero into a loop body that does not leave it zero, the
    body is walked again with the zero written first: the gradient stays right."""
    walks = []

    def everything(loop, function_body):         # every name taken for iteration-local
        return frozenset(n.id for n in gast.walk(loop) if isinstance(n, gast.Name))

    loop_body = backward_walk.BackwardWalker._loop_body

    def counted(self, stmt, out, local):
        walks.append(bool(local))
        return loop_body(self, stmt, out, local)
    monkeypatch.setattr(backward_walk, "iteration_local", everything)
    monkeypatch.setattr(backward_walk.BackwardWalker, "_loop_body", counted)
    fresh = types.FunctionType(f.__code__, f.__globals__, f.__name__)   # (not cached)
    got = s2s_ad.grad(fresh)(*args)
    np.testing.assert_allclose(got, numeric_grad(f, args, 0), rtol=1e-6, atol=1e-9)
    assert walks == [True, False]


@pytest.mark.parametrize("path", PATHS)
def test_second_order_through_the_symbolic_zeros(path):
    f = branch_per_item
    args = (0.7, [0.3, -1.2, 2.0, -0.1])
    got = hvp_on(path, f, args, 1.0)
    eps = 1e-5
    g = s2s_ad.grad(f)
    want = (g(args[0] + eps, args[1]) - g(args[0] - eps, args[1])) / (2 * eps)
    assert got == pytest.approx(want, rel=1e-5)


def test_a_value_computed_then_read_in_the_body_starts_each_iteration_at_zero():
    ws, x = _layer_args()
    df = s2s_ad.grad(layers_in_a_loop, wrt=1)
    source = s2s_ad.derivative_source(df, ws, x)
    # t's adjoint is assigned from x's each iteration, never added to a held zero, and no
    # `t_bar = 0.0` is written for the next one
    assert "t_bar = t_bar +" not in source and "t_bar = 0.0" not in source, source
    assert "x_bar = x_bar +" not in source, source


def test_branches_assign_the_first_contribution():
    df = s2s_ad.grad(branch_per_item)
    source = s2s_ad.derivative_source(df, 0.7, [0.3, -1.2])
    assert "t_bar = t_bar +" not in source, source


def test_which_values_are_iteration_local():
    tree = parse(read_before_written).tree
    local = _loop_locals(tree)
    assert "t" not in local and "s" not in local
    tree = parse(conditionally_written).tree
    assert "t" not in _loop_locals(tree)
    tree = parse(branch_per_item).tree
    assert "t" in _loop_locals(tree)


def _loop_locals(fdef):
    loop = next(n for n in gast.walk(fdef) if isinstance(n, gast.For))
    return iteration_local(loop, fdef.body)


def running_total(a, xs):
    total = 0.0
    for x in xs:
        total = total + np.sum(a * x)
    return total


def read_for_a_test_then_rebound(a, x):
    s = 0.0
    for k in range(3):
        if np.sum(x) > 100.0:       # x read by a test only: no adjoint flows in the loop
            s = s + 1.0
        s = s + np.sum(a) * k
    x = a * np.ones(3)
    return s + np.sum(x)


@pytest.mark.parametrize("path", PATHS)
def test_an_adjoint_passed_back_to_itself_is_not_written_again(path):
    """`total = total + e`: total's adjoint is held (`total_bar_1 = total_bar`) and passed
    back to the total before it; total_bar still holds it (the reset is symbolic), so no
    `total_bar = total_bar_1` is written."""
    args = (np.array([0.5, -1.0]), [np.array([1.0, 2.0]), np.array([0.3, 0.1])])
    df = s2s_ad.grad(running_total)
    got = grad_on(path, running_total)(*args)
    np.testing.assert_allclose(got, numeric_grad(running_total, args, 0), rtol=1e-6)
    general = s2s_ad.api.general_derivative(df)
    sources = [s2s_ad.derivative_source(df, *args), s2s_ad.derivative_source(general)]
    for source in sources:
        assert "total_bar = total_bar_" not in source, source


@pytest.mark.parametrize("path", PATHS)
def test_a_value_read_by_a_loop_test_only(path):
    args = (np.array([0.5, -1.0, 2.0]), np.array([1.0, 2.0, 3.0]))
    got = grad_on(path, read_for_a_test_then_rebound, wrt=(0, 1))(*args)
    for k in range(2):
        np.testing.assert_allclose(got[k], numeric_grad(read_for_a_test_then_rebound, args, k),
                                   rtol=1e-6, atol=1e-9)
