"""End-to-end: straight-line user programs against central differences."""
import numpy as np
import pytest

from gradcheck import assert_grad_matches
from programs import straight_line as p

RNG = np.random.default_rng(42)


def r(*shape):
    return RNG.standard_normal(shape)


CASES = [
    (p.softmax_cross_entropy, lambda: [r(4, 5), np.eye(5)[[0, 2, 4, 1]]], (0,)),
    (p.layer_norm, lambda: [r(3, 6), r(6), r(6)], (0, 1, 2)),
    (p.attention, lambda: [r(3, 4), r(5, 4), r(5, 2)], (0, 1, 2)),
    (p.gaussian_nll, lambda: [r(5), r(5) * 0.1, r(5)], (0, 1)),
    (p.polynomial, lambda: [r(4), r(7)], (0, 1)),
    (p.bilinear, lambda: [r(3, 3), r(3), r(3)], (0, 1, 2)),
    (p.huber, lambda: [r(8) * 2.0], (0,)),
    (p.scalar_physics, lambda: [0.7, 12.0], (0, 1)),
    (p.einsum_energy, lambda: [r(3, 4), r(5, 4)], (0, 1)),
    (p.indexing_mix, lambda: [r(7)], (0,)),
    (p.matrix_rows, lambda: [r(4, 3), r(3)], (0, 1)),
    (p.uses_tuples, lambda: [r(3), r(3)], (0, 1)),
    (p.uses_kwargs, lambda: [r(4), 1.5], (0, 1)),
    (p.reshape_and_concat, lambda: [r(6)], (0,)),
    (p.nested_lists, lambda: [1.0, 2.0, 3.0, 4.0], (0, 1, 2, 3)),
    (p.scaled_matmul, lambda: [2.0, r(4), r(4)], (0, 1, 2)),
]


@pytest.mark.parametrize("func, make_args, wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_program_gradient_matches_finite_differences(func, make_args, wrt):
    for _ in range(3):
        assert_grad_matches(func, make_args(), wrt=wrt, rtol=1e-5, atol=1e-6)
