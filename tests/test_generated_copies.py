"""What the reverse generator no longer writes (stage 7 removed it afterwards before): the
copy `x_bar_1 = x_bar` of an accumulated adjoint held across its reset, written only where
the statement's own backward code binds x_bar before the copy's last read
(s2s_ad/ad/held_copies.py), and an adjoint bound once to a float literal (the seed
`s_bar = 1.0` a loop reads), read as the literal (ad/output_seed.py literal_seed). On
both paths, with the gradients checked against differences."""
import re

import numpy as np
import pytest

import s2s_ad
from s2s_ad.api import general_derivative
from derivative_paths import PATHS, grad_on
from gradcheck import numeric_grad


def euler(x, v, dt):
    for _ in range(5):
        x = x + dt * v          # x's copy: only read, x_bar bound after its last read
        v = v - dt * x
    return np.sum(x * x) + np.sum(v)


def horner(x, a, coeffs):
    p = np.zeros_like(x)
    for c in coeffs:
        p = p * x + a * c       # p_bar = p_bar_1 * x binds p_bar before x_bar reads p_bar_1
    return np.sum(p)


def moved(x0):
    x = x0                      # the gradient is x's adjoint, after f's whole body
    for _ in range(3):
        x = np.sin(x) + x
    return np.sum(x)


def _source(f, args, path, wrt=0):
    derivative = s2s_ad.grad(f, wrt=wrt)
    derivative(*args)
    if path == "general":
        return s2s_ad.derivative_source(general_derivative(derivative))
    return s2s_ad.derivative_source(derivative, *args)


def _copies(source):
    """The adjoint copies `a_bar_1 = a_bar` of a source."""
    return re.findall(r"^\s*(\w+_bar_\d+) = (\w+_bar)$", source, re.M)


@pytest.mark.parametrize("path", PATHS)
def test_a_copy_only_read_is_not_written(path):
    args = (np.linspace(0.1, 0.5, 4), np.linspace(-0.3, 0.3, 4), 0.1)
    copies = _copies(_source(euler, args, path))
    # the general derivative's `v_bar = unbroadcast(v_bar_1, v)` binds v_bar before the
    # copy's last read: there the copies stay
    assert copies == [] if path == "specialised" else copies
    for k in range(2):
        np.testing.assert_allclose(grad_on(path, euler, wrt=k)(*args),
                                   numeric_grad(euler, args, k), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("path", PATHS)
def test_a_copy_read_after_its_adjoint_is_bound_again_stays(path):
    args = (np.linspace(0.1, 0.5, 3), np.linspace(1.0, 2.0, 3), (1.0, -2.0, 0.5))
    if path == "specialised":
        assert ("p_bar_1", "p_bar") in _copies(_source(horner, args, path, wrt=(0, 1)))
    for k, got in enumerate(grad_on(path, horner, wrt=(0, 1))(*args)):
        np.testing.assert_allclose(got, numeric_grad(horner, args, k), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("path", PATHS)
def test_a_copy_the_returned_gradient_reads_is_not_written(path):
    x0 = np.linspace(-1.0, 1.0, 5)
    source = _source(moved, (x0,), path)
    assert _copies(source) == [], source
    np.testing.assert_allclose(grad_on(path, moved)(x0), numeric_grad(moved, (x0,), 0),
                               rtol=1e-6, atol=1e-8)


def running_sum(w, n):
    s = 0.0
    for i in range(n):
        s = s + np.sum(w * i) + 0.25 * np.sum(w * w)   # s_bar is the seed on every step
    return s


def penalised(w, n):
    total = 0.0
    for i in range(n):
        total = total + np.sum(np.tanh(w * i))
    return total + 0.001 * np.sum(w * w)       # 0.001 * (w_bar's share): no name for 0.001


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [running_sum, penalised])
def test_a_literal_adjoint_is_read_as_the_literal(f, path):
    args = (np.linspace(-0.5, 0.5, 4), 3)
    source = _source(f, args, path)
    # (a zero `w_bar = 0.0` the loop adds into is no literal adjoint read as such)
    assert not re.search(r"^\s*\w+_bar = (?!0\.0$)[0-9.e-]+$", source, re.M), source
    np.testing.assert_allclose(grad_on(path, f)(*args), numeric_grad(f, args, 0),
                               rtol=1e-6, atol=1e-8)
