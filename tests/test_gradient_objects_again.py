"""A gradient object (of a dataclass, of a model) computed inside f and differentiated
again: its cotangent may come back from a helper's vjp as an object of the class, where
the derivative holds an object's adjoint as the dict of its attributes (session 16: read
as no adjoint at all, a silent zero)."""
from dataclasses import dataclass

import numpy as np
import pytest

import s2s_ad
from gradcheck import numeric_grad
from paths import fresh


@dataclass
class P:
    w: np.ndarray
    b: np.ndarray


def loss(x, p):
    return np.sum(np.tanh(x @ p.w + p.b) ** 2)


def first_leaves(q):
    return [q.w, q.b]


def norm_through_a_helper(w, b, x):
    g = s2s_ad.grad(loss, wrt=1)(x, P(w, b))
    return sum(np.sum(v ** 2) for v in first_leaves(g))


def norm_read_directly(w, b, x):
    g = s2s_ad.grad(loss, wrt=1)(x, P(w, b))
    return np.sum(g.w ** 2) + np.sum(g.b ** 2)


@pytest.mark.parametrize("f", [norm_through_a_helper, norm_read_directly])
@pytest.mark.parametrize("wrt", [0, 1])
def test_gradient_of_a_gradient_object_norm(f, wrt):
    rng = np.random.default_rng(8)
    args = (rng.normal(size=(3, 2)), rng.normal(size=2), rng.normal(size=(4, 3)))
    got = s2s_ad.grad(fresh(f), wrt=wrt)(*args)
    np.testing.assert_allclose(got, numeric_grad(f, args, wrt), rtol=1e-5, atol=1e-7)
