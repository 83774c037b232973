"""`a[rows, labels]` with every axis taken by integer arrays of one axes pattern has their
shape (kinds' shape classes), and `np.zeros_like(a)` in the backward sweep may read a
kept value of a's shape and dtype: the log-probabilities a softmax cross-entropy gathers
from are then neither gathered nor computed by the gradient, only their shape is used."""
import re

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on
from gradcheck import numeric_grad


def softmax_cross_entropy(W, X, labels):
    z = X @ W
    z = z - np.max(z, axis=1, keepdims=True)
    log_probs = z - np.log(np.sum(np.exp(z), axis=1, keepdims=True))
    return -np.mean(log_probs[np.arange(X.shape[0]), labels])


def crossed_indices(A, rows, cols):
    """Index arrays that broadcast to a matrix: no shape class, still right."""
    return np.sum(np.tanh(A)[rows[:, None], cols[None, :]] ** 2)


def int_and_float_arrays(x, idx):
    """The gathered floats share a class with the int index; zeros_like must keep the
    float dtype (it reads no int array for it)."""
    y = np.sin(x)
    picked = y[idx]
    return np.sum(picked * picked) + np.sum(idx) * 0.0


RNG = np.random.default_rng(4)
W, X = RNG.normal(size=(5, 4)), RNG.normal(size=(7, 5))
LABELS = RNG.integers(0, 4, 7)


@pytest.mark.parametrize("path", PATHS)
def test_softmax_cross_entropy(path):
    np.testing.assert_allclose(grad_on(path, softmax_cross_entropy)(W, X, LABELS),
                               numeric_grad(softmax_cross_entropy, (W, X, LABELS), 0),
                               rtol=1e-6, atol=1e-9)


def test_the_gathered_log_probabilities_are_not_computed():
    df = s2s_ad.grad(softmax_cross_entropy)
    df(W, X, LABELS)
    source = s2s_ad.derivative_source(df, W, X, LABELS)
    code = "\n".join(line for line in source.splitlines() if not line.strip().startswith("#"))
    assert "reduced_count" not in code and "labels.size" in code
    assert "log_probs = " not in code and "np.log(" not in code


@pytest.mark.parametrize("path", PATHS)
def test_other_gathers(path):
    A = RNG.normal(size=(4, 5))
    rows, cols = np.array([0, 2, 3]), np.array([1, 1, 4, 0])
    np.testing.assert_allclose(grad_on(path, crossed_indices)(A, rows, cols),
                               numeric_grad(crossed_indices, (A, rows, cols), 0), rtol=1e-6)
    x, idx = np.linspace(0.1, 1.0, 6), np.array([5, 0, 0, 3])
    got = grad_on(path, int_and_float_arrays)(x, idx)
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, numeric_grad(int_and_float_arrays, (x, idx), 0), rtol=1e-6)


def categorical_nll(Z, labels):
    m = np.max(Z, axis=1)
    lse = m + np.log(np.sum(np.exp(Z - m[:, None]), axis=1))
    return np.mean(lse - Z[np.arange(len(labels)), labels])


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, args", [
    (softmax_cross_entropy, (W, X, LABELS)),
    (categorical_nll, (X, RNG.integers(0, 5, 7)))])
def test_float32_stays_float32_beside_int_index_arrays(f, args, path):
    """An int index array shares the gathered floats' shape class: no adjoint may take
    its dtype (reading a shape off it must not widen float32 to float64)."""
    args32 = tuple(a.astype(np.float32) if a.dtype == np.float64 else a for a in args)
    got = grad_on(path, f)(*args32)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, numeric_grad(f, args, 0), rtol=2e-3, atol=1e-4)
    if path == "specialised":
        df = s2s_ad.grad(f)
        df(*args32)
        source = s2s_ad.derivative_source(df, *args32)
        assert not re.search(r"(unreduce|unbroadcast)\([^,]*, labels\b|zeros_like\(labels\)",
                             source)
