"""An adjoint that an array reached unconditionally since its last reset is an array,
whatever possibly-zero numbers are added to it afterwards (ad/carried_sums.SumAdjoints
.holds_array): the gradient needs no match_adjoint for it. The cases where that must not
be concluded: a branch that did not contribute, a loop of no trips, a loop that resets
the adjoint before the point the walk saw first."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on
from gradcheck import numeric_grad


def stepped_state(u0, r, n):
    u = u0
    for _ in range(n):
        u = u + 0.1 * (np.roll(u, 1) - 2.0 * u + np.roll(u, -1)) + r * u * (1.0 - u)
    return np.mean((u - 0.5) ** 2)


def one_branch_contributes(u0, w, c):
    u = u0 * 1.0
    if c > 0:
        v = u * w
    else:
        v = np.sin(u) * 0.0 + 2.0
    return np.sum(v * w)


def rebound_in_a_loop(u0, w, n):
    u = u0
    total = np.sum(u * w)
    for _ in range(n):
        u = np.tanh(u) * 0.5
        total = total + np.sum(u)
    return total


def reset_on_alternate_trips(x, n):
    y = x * 2.0
    s = 0.0
    for i in range(n):
        if i % 2 == 0:
            s = s + np.sum(y * y)
        else:
            y = np.sin(y)
    return s + np.sum(y)


U0, W = np.array([0.2, 0.5, 0.7, 0.4]), np.array([0.5, 0.4, 0.3, 0.9])
CASES = [(stepped_state, (U0, 0.3, 0)), (stepped_state, (U0, 0.3, 5)),
         (one_branch_contributes, (U0, W, 1.0)), (one_branch_contributes, (U0, W, -1.0)),
         (rebound_in_a_loop, (U0, W, 0)), (rebound_in_a_loop, (U0, W, 3)),
         (reset_on_alternate_trips, (U0, 0)), (reset_on_alternate_trips, (U0, 1)),
         (reset_on_alternate_trips, (U0, 4))]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, args", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_gradients_are_arrays_and_right(f, args, path):
    got = grad_on(path, f)(*args)
    assert isinstance(got, np.ndarray) and got.shape == U0.shape
    np.testing.assert_allclose(got, numeric_grad(f, args, 0), rtol=1e-6, atol=1e-9)


def test_a_stepped_state_needs_no_match_adjoint():
    df = s2s_ad.grad(stepped_state)
    df(U0, 0.3, 5)
    assert "match_adjoint" not in s2s_ad.derivative_source(df, U0, 0.3, 5)
