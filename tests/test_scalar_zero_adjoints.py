"""In a loop or after a branch an adjoint may still be the scalar zero 0.0 it started as.
The runtime helpers that would reshape, split or contract it give zero back (they
crashed: `cannot reshape array of size 1`), and broadcast_tangent sums an adjoint down
to such a zero when the gradient is differentiated again."""
import numpy as np
import pytest

from s2s_ad import runtime as R
from s2s_ad import runtime_reductions as RR
from s2s_ad import runtime_shape as S
from s2s_ad import runtime_arrays as A
from s2s_ad import runtime_linalg as L

X = np.arange(6.0).reshape(2, 3) + 1.0
V = np.arange(3.0) + 1.0

CALLS = [
    (RR.reverse_cumsum, (X, None)), (RR.reverse_cumsum, (X, 0)), (S.reshape_like, (X,)),
    (S.split_concatenated, ([X, X], 0)), (S.split_hstacked, ([X, X],)),
    (S.split_vstacked, ([X, X],)), (S.unstack, ([X, X], 0)), (S.split_array, ([V, V],)),
    (S.split_array, (X,)), (S.untile, (X, (2, 1))), (S.unrepeat, (X, 2, None)),
    (L.matmul_adjoint_a, (X, V)), (L.matmul_adjoint_b, (X, V)), (L.dot_adjoint_a, (X, V)),
    (L.dot_adjoint_b, (X, V)), (L.inner_adjoint_a, (X, V)), (L.inner_adjoint_b, (X, V)),
    (L.tensordot_adjoint_a, (X, X, 2)), (L.tensordot_adjoint_b, (X, X, 2)),
    (L.place_diagonal, (X,)), (L.undiag, (V, 0)),
    (L.einsum_operand_adjoint, ("ij,j->i", (X, V), 0)),
    (A.unpad, (np.ones((2, 2), dtype=int),)),
]


@pytest.mark.parametrize("helper, rest", CALLS, ids=lambda c: getattr(c, "__name__", ""))
def test_a_scalar_zero_adjoint_gives_zero(helper, rest):
    out = helper(0.0, *rest)
    for part in (out if isinstance(out, list) else [out]):
        assert np.all(np.asarray(part) == 0.0)


def test_broadcast_tangent_sums_down_to_a_scalar_zero():
    assert R.broadcast_tangent(np.ones(3), 0.0) == 3.0
    np.testing.assert_array_equal(R.broadcast_tangent(2.0, np.ones(3)), [2.0, 2.0, 2.0])
