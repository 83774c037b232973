"""An index that provably picks no element twice (`logp[np.arange(N), labels]`) has its
adjoint added by `z_bar[rows, labels] += g`, not by np.add.at (adjoint_facts.
distinct_index_test). Indices where repeats are possible keep add_at, and every case is
checked against central differences on both paths."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, hvp_on
from gradcheck import numeric_grad


def picked_by_rows(W, X, labels):
    z = X @ W
    z = z - np.max(z, axis=1, keepdims=True)
    logp = z - np.log(np.sum(np.exp(z), axis=1, keepdims=True))
    return -np.mean(logp[np.arange(X.shape[0]), labels])


def labels_first(W, X, labels):
    z = np.tanh(X @ W).T
    return np.sum(z[labels, np.arange(X.shape[0])] ** 2)


def rows_of_given_length(W, X, labels, n):
    # arange of an integer argument: its length is no fact (1 is possible), so labels
    # may broadcast against one row and pick it repeatedly
    z = np.tanh(X @ W)
    return np.sum(z[np.arange(n), labels] ** 2)


def repeated_labels_only(W, X, labels):
    z = np.tanh(X @ W)
    return np.sum(z[labels, labels] ** 2)


def column_of_rows(W, X, labels):
    # rows as a column against a row of labels: every label is picked for every row
    z = np.tanh(X @ W)
    rows = np.arange(X.shape[0])
    return np.sum(z[rows[:, None], labels[None, :]] ** 2)


RNG = np.random.default_rng(11)
W, X = RNG.normal(size=(4, 3)), RNG.normal(size=(6, 4))
LABELS = np.array([0, 2, 2, 1, 0, 2])


def _check(path, f, args):
    expected = numeric_grad(f, args, 0)
    np.testing.assert_allclose(grad_on(path, f)(*args), expected, rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [picked_by_rows, labels_first, repeated_labels_only,
                               column_of_rows])
def test_gathers_against_differences(path, f):
    _check(path, f, (W, X, LABELS))


@pytest.mark.parametrize("path", PATHS)
def test_rows_of_unknown_length_repeat(path):
    # n = 1: one row, picked six times; its adjoint accumulates all six
    args = (W, X, LABELS, 1)
    _check(path, rows_of_given_length, args)
    _check(path, rows_of_given_length, (W, X, LABELS, 6))


def test_distinct_rows_add_in_place():
    df = s2s_ad.grad(picked_by_rows)
    source = s2s_ad.derivative_source(df, W, X, LABELS)
    assert "[t3_0, labels] += " in source and "add_at" not in source


@pytest.mark.parametrize("f", [rows_of_given_length, repeated_labels_only, column_of_rows])
def test_possible_repeats_keep_add_at(f):
    args = (W, X, LABELS, 1) if f is rows_of_given_length else (W, X, LABELS)
    assert "add_at" in s2s_ad.derivative_source(s2s_ad.grad(f), *args)


@pytest.mark.parametrize("path", PATHS)
def test_second_order_through_the_in_place_add(path):
    v = RNG.normal(size=W.shape)
    eps = 1e-6
    g = s2s_ad.grad(picked_by_rows)
    expected = (g(W + eps * v, X, LABELS) - g(W - eps * v, X, LABELS)) / (2 * eps)
    np.testing.assert_allclose(hvp_on(path, picked_by_rows, (W, X, LABELS), v), expected,
                               rtol=1e-5, atol=1e-8)
