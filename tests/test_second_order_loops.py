"""Second derivatives through loops that tape shapes, against differences of the gradient.

The gradient of a loop writing into a fresh array keeps its adjoint sums between its
backward loops; its own gradient brackets such a sum with a shape push and a
placeholder restore. Dead-code elimination once dropped that restore alone (the value it
restores is not read again), which left the push on the tape: every later pop read the
entry pushed before its own, and grad(grad(f)) crashed in placeholder(...) or computed
with the wrong arrays. Programs: tests/programs/second_order_loops.py.
"""
import numpy as np
import pytest

import s2s_ad
from gradcheck import numeric_grad
from programs import second_order_loops as so

EPS = 1e-5


def _cases(cases):
    return [pytest.param(fn, extra, id=fn.__name__ + "".join(f"-{e}" for e in extra))
            for fn, extra in cases]


def _point(fn, seed):
    return so.arguments(fn, np.random.default_rng(seed))


@pytest.mark.parametrize("fn, extra", _cases(so.CASES))
def test_grad_of_grad_matches_differences_of_the_gradient(fn, extra):
    """Reverse over reverse, both times w.r.t. the scalar a."""
    u, a = _point(fn, 0)
    grad = s2s_ad.grad(fn, wrt=1)
    expected = (grad(u, a + EPS, *extra) - grad(u, a - EPS, *extra)) / (2 * EPS)
    got = s2s_ad.grad(grad, wrt=1)(u, a, *extra)
    assert got == pytest.approx(expected, rel=1e-4, abs=1e-5)


@pytest.mark.parametrize("fn, extra", _cases(so.CASES))
def test_mixed_grad_of_grad_matches_differences_of_the_gradient(fn, extra):
    """The gradient w.r.t. a differentiated w.r.t. the array u."""
    u, a = _point(fn, 1)
    grad = s2s_ad.grad(fn, wrt=1)
    got = s2s_ad.grad(grad, wrt=0)(u, a, *extra)
    assert np.shape(got) == np.shape(u)
    np.testing.assert_allclose(got, numeric_grad(grad, (u, a, *extra), 0, eps=EPS),
                               rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("fn, extra", _cases(so.CASES))
def test_hessian_and_hvp_match_differences_of_the_gradient(fn, extra):
    """Forward over reverse of the same programs, w.r.t. u and w.r.t. a."""
    u, a = _point(fn, 2)
    grad_u = s2s_ad.grad(fn, wrt=0)
    expected = np.array([(grad_u(u + EPS * e, a, *extra) - grad_u(u - EPS * e, a, *extra))
                         / (2 * EPS) for e in np.eye(u.size)])
    np.testing.assert_allclose(s2s_ad.hessian(fn, wrt=0)(u, a, *extra), expected,
                               rtol=1e-4, atol=1e-5)
    v = np.random.default_rng(3).standard_normal(u.size)
    np.testing.assert_allclose(s2s_ad.hvp(fn, wrt=0)(u, a, *extra, v), expected.T @ v,
                               rtol=1e-4, atol=1e-5)
    grad_a = s2s_ad.grad(fn, wrt=1)
    expected_aa = (grad_a(u, a + EPS, *extra) - grad_a(u, a - EPS, *extra)) / (2 * EPS)
    got = s2s_ad.hessian(fn, wrt=1)(u, a, *extra)
    assert got == pytest.approx(expected_aa, rel=1e-4, abs=1e-5)


@pytest.mark.parametrize("fn", [pytest.param(fn, id=fn.__name__) for fn in so.FIRST_ORDER])
@pytest.mark.parametrize("wrt", [0, 1])
def test_first_order_gradient_with_a_dead_shape_restore(fn, wrt):
    """The same tape fault in a first-order gradient: c's restore after its rebinding
    is dead, its push is not, and the first loop's backward sweep popped c's shape."""
    args = _point(fn, 0)
    np.testing.assert_allclose(s2s_ad.grad(fn, wrt=wrt)(*args), numeric_grad(fn, args, wrt),
                               rtol=1e-5, atol=1e-6)
