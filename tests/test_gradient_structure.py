"""A gradient has its argument's structure: a namedtuple's is the same namedtuple; the
Hessian in a dict / list / tuple / dataclass / object argument is that structure of
structures (as in JAX for a pytree)."""
import dataclasses
from collections import namedtuple

import numpy as np
import pytest

import s2s_ad
from paths import fresh

Params = namedtuple("Params", "w b")


def model(p, x):
    return np.sum(np.tanh(p[0] * x + p[1]) ** 2)


def by_key(d):
    return np.sum(d["a"] ** 3) + d["b"] * np.sum(d["a"])


def by_item(items):
    return np.sum(items[0] ** 3) + items[1] * np.sum(items[0])


def test_a_namedtuple_gradient_is_the_same_namedtuple(both_paths):
    x = np.array([0.5, -1.0])
    for p in (Params(np.array([0.3, 0.2]), 0.5), Params(0.3, 0.5)):
        arg = x if isinstance(p.w, np.ndarray) else 2.0
        g = s2s_ad.grad(fresh(model))(p, arg)
        assert type(g) is Params
        t = np.tanh(p.w * arg + p.b)
        np.testing.assert_allclose(g.w, 2 * t * (1 - t * t) * arg)
        assert g.b == pytest.approx(np.sum(2 * t * (1 - t * t)))
        vg = s2s_ad.value_and_grad(fresh(model))(p, arg)[1]
        assert type(vg) is Params


A = np.array([1.0, 2.0])
EXPECTED_AA = np.diag(6 * A)           # d²/da² sum(a³); d²/da db sum(a) = 1; d²/db² = 0


def test_hessian_of_a_dict_argument(both_paths):
    h = s2s_ad.hessian(fresh(by_key))({"a": A, "b": 0.5})
    assert set(h) == {"a", "b"} and set(h["a"]) == {"a", "b"}
    np.testing.assert_allclose(h["a"]["a"], EXPECTED_AA)
    np.testing.assert_allclose(h["a"]["b"], np.ones(2))
    np.testing.assert_allclose(h["b"]["a"], np.ones(2))
    assert h["b"]["b"] == 0.0
    # each block agrees with hvp along that block's basis vectors
    hv = s2s_ad.hvp(fresh(by_key))({"a": A, "b": 0.5}, {"a": np.array([1.0, 0.0]), "b": 0.0})
    np.testing.assert_allclose(hv["a"], h["a"]["a"][:, 0])


@pytest.mark.parametrize("container", [list, tuple])
def test_hessian_of_a_list_or_tuple_argument(both_paths, container):
    h = s2s_ad.hessian(fresh(by_item))(container([A, 0.5]))
    assert type(h) is container and type(h[0]) is container
    np.testing.assert_allclose(h[0][0], EXPECTED_AA)
    np.testing.assert_allclose(h[0][1], np.ones(2))
    np.testing.assert_allclose(h[1][0], np.ones(2))
    assert h[1][1] == 0.0
    hv = s2s_ad.hvp(fresh(by_item))(container([A, 0.5]), container([np.zeros(2), 1.0]))
    np.testing.assert_allclose(hv[0], np.ones(2))


@dataclasses.dataclass
class Weights:
    a: np.ndarray
    b: float
    label: str = "layer"            # no derivative: None in the Hessian


def by_attribute(p):
    return np.sum(p.a ** 3) + p.b * np.sum(p.a)


class Cubic:
    def __init__(self, a, b):
        self.a, self.b, self.name = a, b, "cubic"

    def energy(self, scale):
        return scale * (np.sum(self.a ** 3) + self.b * np.sum(self.a))


def _check_object_hessian(h, cls):
    assert type(h) is cls and type(h.a) is cls and type(h.b) is cls
    np.testing.assert_allclose(h.a.a, EXPECTED_AA)
    np.testing.assert_allclose(h.a.b, np.ones(2))
    np.testing.assert_allclose(h.b.a, np.ones(2))
    assert h.b.b == 0.0


def test_hessian_of_a_dataclass_argument(both_paths):
    h = s2s_ad.hessian(fresh(by_attribute))(Weights(A, 0.5))
    _check_object_hessian(h, Weights)
    assert h.label is None and h.a.label is None


def test_hessian_with_respect_to_self(both_paths):
    h = s2s_ad.hessian(Cubic.energy, wrt="self")(Cubic(A, 0.5), 1.0)
    _check_object_hessian(h, Cubic)
    assert h.name is None
    bound = s2s_ad.hessian(Cubic(A, 0.5).energy, wrt="self")(2.0)
    np.testing.assert_allclose(bound.a.a, 2.0 * EXPECTED_AA)
