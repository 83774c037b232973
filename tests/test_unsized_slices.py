"""Slices whose length is no fact (`u[1:]` of a length that may be 2, `z[:, H:2 * H]`):
the facts keep their dtype, and the dtype of arithmetic and matrix products on them
(analyses/slice_shapes.unsized_result), so their adjoints start as `np.zeros_like`
and are added into by slice (ad/adjoints.py), where scatter_add from 0.0 was called.
Checked on both derivative paths against finite differences with negative, open and
stepped bounds, empty slices and slices of length 1, and second order (hvp)."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, hvp_on
from gradcheck import numeric_grad
from s2s_ad.analyses.slice_shapes import unsized_result
from s2s_ad.signature import UNKNOWN, Num

RNG = np.random.default_rng(13)


def sigmoid(a):
    return 1.0 / (1.0 + np.exp(-a))


def gates(W, U, xs):
    """An LSTM-like cell: gates sliced from one product, z rebound every step."""
    H = U.shape[0]
    h = np.zeros((xs.shape[1], H))
    c = np.zeros((xs.shape[1], H))
    for x_t in xs:
        z = x_t @ W + h @ U
        i = sigmoid(z[:, :H])
        f = sigmoid(z[:, H:2 * H])
        g = np.tanh(z[:, 2 * H:])
        c = f * c + i * g
        h = np.tanh(c)
    return np.sum(h * h)


def differences(u):
    """Open, negative and stepped bounds at the top level; `u[1:]` has length 1 when
    u has length 2, and `u[5:]` is empty for short u."""
    d = u[1:] - u[:-1]
    e = u[::2] * 2.0 - u[-1::-2][::-1]
    tail = u[5:]
    return np.sum(d * d) + np.sum(np.sin(e)) + np.sum(tail ** 3) + 0.5 * np.sum(u[-2:-1])


def second_differences(u):
    d2 = u[2:] - 2.0 * u[1:-1] + u[:-2]
    return np.sum(d2 ** 2) + np.sum(u[1:-1] * u[1:-1])


def rows_and_columns(u):
    dx = u[1:, :] - u[:-1, :]
    dy = u[:, 1:] - u[:, :-1]
    return np.sum(np.sqrt(dx[:, :-1] ** 2 + dy[:-1, :] ** 2 + 1e-3))


def gate_args(H, B=2, T=3, D=2, width=None):
    width = 3 * H if width is None else width
    return (RNG.normal(size=(D, width)) * 0.5, RNG.normal(size=(H, width)) * 0.5,
            RNG.normal(size=(T, B, D)))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("H, width", [(3, None), (2, None), (1, None), (3, 7), (2, 5)])
def test_gates_sliced_from_one_product(H, width, path):
    args = gate_args(H, width=width)
    try:
        gates(*args)
    except ValueError:
        pytest.skip("f itself cannot combine gates of these widths")
    got = grad_on(path, gates, wrt=(0, 1))(*args)
    for k in (0, 1):
        assert got[k].shape == args[k].shape
        np.testing.assert_allclose(got[k], numeric_grad(gates, args, k), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [differences, second_differences])
@pytest.mark.parametrize("n", [1, 2, 3, 4, 7])
def test_bounds_of_every_kind(f, n, path):
    u = RNG.normal(size=n)
    try:
        f(u)
    except ValueError:
        pytest.skip("f itself cannot combine slices of these lengths")
    np.testing.assert_allclose(grad_on(path, f)(u), numeric_grad(f, (u,), 0),
                               rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("shape", [(4, 5), (2, 2), (2, 3), (3, 2)])
def test_rows_and_columns(shape, path):
    u = RNG.normal(size=shape)
    np.testing.assert_allclose(grad_on(path, rows_and_columns)(u),
                               numeric_grad(rows_and_columns, (u,), 0), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, u", [(second_differences, RNG.normal(size=6)),
                                  (rows_and_columns, RNG.normal(size=(3, 4)))])
def test_second_order(f, u, path):
    v = RNG.normal(size=u.shape)
    got = hvp_on(path, f, (u,), v)
    eps = 1e-5
    grad_u = s2s_ad.grad(f)
    expected = (grad_u(u + eps * v) - grad_u(u - eps * v)) / (2 * eps)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_float32_gates_stay_float32():
    args = [a.astype(np.float32) for a in gate_args(3)]
    got = s2s_ad.grad(gates, wrt=(0, 1))(*args)
    assert all(g.dtype == np.float32 for g in got)


def test_gate_adjoints_fill_one_array():
    df = s2s_ad.grad(gates, wrt=(0, 1))
    args = gate_args(3)
    df(*args)
    source = s2s_ad.derivative_source(df, *args)
    assert "scatter_add" not in source
    assert "z_bar = np.zeros_like(z)" in source
    # (the gates' slices, proved disjoint, are assigned into the fresh zeros: ad/windows.py)
    assert "z_bar[:, H:t" in source and "z_bar[:, :H] = " in source


def test_slice_differences_start_from_zeros_like():
    df = s2s_ad.grad(rows_and_columns)
    u = RNG.normal(size=(5, 6))
    df(u)
    source = s2s_ad.derivative_source(df, u)
    assert "scatter_add" not in source
    assert "dy_bar = np.zeros_like(dy)" in source and "dx_bar = np.zeros_like(dx)" in source
    # the sum's adjoint is passed on as the number it is: no array of it is spread
    assert "unreduce" not in source


def penalised(u, lam):
    d = u[1:] - u[:-1]
    return lam * np.sum(d * d) + np.sum(np.sqrt(d * d + 1.0))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_sum_over_a_slice_passes_a_number_on(dtype, path):
    u = RNG.normal(size=7).astype(dtype)
    got = grad_on(path, penalised)(u, 0.3)
    assert got.dtype == dtype
    np.testing.assert_allclose(got, numeric_grad(penalised, (u.astype(float), 0.3), 0),
                               rtol=1e-6 if dtype == np.float64 else 1e-3,
                               atol=1e-8 if dtype == np.float64 else 1e-3)
    if path == "specialised":
        df = s2s_ad.grad(penalised)
        df(u, 0.3)
        assert "unreduce" not in s2s_ad.derivative_source(df, u, 0.3)


def test_facts_of_arithmetic_on_unsized_arrays():
    assert unsized_result(np.sum, [(Num(np.ndarray, "float32", None), None)]) \
        == Num(np.float32, "float32", ())
    unsized = (Num(np.ndarray, "float32", None), None)
    number = (Num(float, "float64", ()), (0.5, 1.5, 2.5))
    matrix = (Num(np.ndarray, "float64", (None, None)), tuple(np.ones((n, n)) for n in (2, 3, 5)))
    assert unsized_result(np.multiply, [number, unsized]) == Num(np.ndarray, "float32", None)
    assert unsized_result(np.add, [matrix, unsized]) == Num(np.ndarray, "float64", None)
    assert unsized_result(np.matmul, [unsized, matrix]) == Num(np.ndarray, "float64", None)
    # a product of two arrays of unknown rank may be a number; an operand of no known
    # dtype decides nothing
    assert unsized_result(np.matmul, [unsized, unsized]) is UNKNOWN
    assert unsized_result(np.add, [unsized, (UNKNOWN, None)]) is UNKNOWN
    assert unsized_result(np.greater, [unsized, number]) == Num(np.ndarray, "bool", None)
