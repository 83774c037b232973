"""Data a module holds (`X, y = load()` then `def loss(w): ... X @ w - y ...`): the
arrays' kinds (dtype, rank, length-1 axes) are facts of the specialisation, as an
argument's are, while the dispatcher's guard tests them, so the gradient reads like the
one of `loss(w, X, y)` (no unbroadcast / matmul_adjoint_b / reduced_count). A new array of
the same kind in the name (the next batch) builds nothing; one of another kind builds the
derivative for it; the general derivative and written modules read them when they run."""
import inspect

import numpy as np
import pytest

import s2s_ad
from s2s_ad import dispatch
from s2s_ad.derivative_registry import dispatcher_of
from s2s_ad.freshness import note_rebound
from derivative_paths import PATHS, grad_on, hvp_on
from gradcheck import numeric_grad

_rng = np.random.default_rng(5)
X = _rng.standard_normal((40, 3))
y = _rng.standard_normal(40)
SCALES = np.array([1.0, 2.0, 0.5])
W = np.array([0.3, -0.2, 0.8])


def least_squares(w):
    r = X @ w - y
    return np.mean(r ** 2) + 0.1 * np.sum(w ** 2)


def _scaled(w):
    return w * SCALES


def through_a_helper(w):
    z = X @ _scaled(w)
    return np.sum(np.logaddexp(0.0, z) - y * z)


@pytest.fixture(autouse=True)
def _restore():
    global X, y, SCALES
    saved = X, y, SCALES
    yield
    X, y, SCALES = saved


def test_the_specialisation_reads_like_the_arguments_one():
    df = s2s_ad.grad(least_squares)
    np.testing.assert_allclose(df(W), numeric_grad(least_squares, (W,), 0), rtol=1e-6)
    source = s2s_ad.derivative_source(df, W)
    for general in ("unbroadcast", "matmul_adjoint", "reduced_count", "placeholder"):
        assert general not in source, source
    assert "@ X" in source and "y.size" in source


def test_a_new_batch_of_the_same_kind_builds_nothing():
    global X, y
    df = s2s_ad.grad(least_squares)
    df(W)
    built = len(dispatcher_of(df).built)
    for step in range(4):
        X, y = _rng.standard_normal((25 + step, 3)), _rng.standard_normal(25 + step)
        np.testing.assert_allclose(df(W), numeric_grad(least_squares, (W,), 0), rtol=1e-6)
    assert len(dispatcher_of(df).built) == built


@pytest.mark.parametrize("new", [
    lambda: (_rng.standard_normal((40, 3)).astype(np.float32), y),   # another dtype
    lambda: (X, _rng.standard_normal((40, 1))),                      # another rank
    lambda: (_rng.standard_normal((1, 3)), y),                       # a length-1 axis
], ids=["float32", "rank", "length-1"])
def test_an_array_of_another_kind_builds_the_derivative_for_it(new):
    global X, y
    df = s2s_ad.grad(least_squares)
    df(W)
    X, y = new()
    np.testing.assert_allclose(df(W), numeric_grad(least_squares, (W,), 0), rtol=1e-4)


@pytest.mark.parametrize("path", PATHS)
def test_through_a_helper_first_and_second_order(path):
    global SCALES
    v = np.array([0.5, -1.0, 2.0])
    for scales in (SCALES, np.array([3.0, -1.0, 0.25])):
        SCALES = scales
        np.testing.assert_allclose(grad_on(path, through_a_helper)(W),
                                   numeric_grad(through_a_helper, (W,), 0), rtol=1e-6)
        hessian = np.array([numeric_grad(lambda u: s2s_ad.grad(through_a_helper)(u)[k], (W,), 0)
                            for k in range(3)])
        np.testing.assert_allclose(hvp_on(path, through_a_helper, (W,), v), hessian @ v,
                                   rtol=1e-5, atol=1e-7)


def test_the_module_arrays_are_never_written_into():
    before = X.copy(), y.copy()
    df = s2s_ad.grad(least_squares)
    for _ in range(2):
        df(W)
    np.testing.assert_array_equal(X, before[0])
    np.testing.assert_array_equal(y, before[1])


def test_the_guard_tests_the_array_last_seen():
    df = s2s_ad.grad(least_squares)
    df(W)
    assert "helpers.get('X') is not X_seen.value" in inspect.getsource(df)


BATCH = _rng.standard_normal((30, 3))


def on_the_batch(w):
    return np.sum(np.tanh(BATCH @ w) ** 2) + np.sum(BATCH) * w[0]


def test_a_name_going_back_to_a_kind_it_held_is_read_at_run_time(monkeypatch):
    """Full batches and a last batch of one row, train and test sets of two dtypes: each
    change of kind rebuilt every derivative of f (~25 ms a call against microseconds);
    once the name goes back to a kind it held, the array is read when the code runs."""
    global BATCH
    kinds = [_rng.standard_normal((30, 3)), _rng.standard_normal((1, 3)),
             _rng.standard_normal((12, 3)).astype(np.float32)]
    df = s2s_ad.grad(on_the_batch)
    noted = []          # the dispatcher notes what was rebound before each rebuild
    monkeypatch.setattr(dispatch, "note_rebound",
                        lambda bindings: noted.append(1) or note_rebound(bindings))
    rebuilds = []
    for step in range(12):
        BATCH = kinds[step % 3] * (1.0 + 0.1 * step)
        before = len(noted)
        got = df(W)
        rebuilds.append(len(noted) != before)
        rtol = 1e-3 if BATCH.dtype == np.float32 else 1e-6
        np.testing.assert_allclose(got, numeric_grad(on_the_batch, (W,), 0), rtol=rtol, atol=1e-7)
    assert any(rebuilds[:4]) and not any(rebuilds[4:]), rebuilds
    assert "BATCH_seen.value" in inspect.getsource(df)
