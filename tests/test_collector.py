"""The cyclic garbage collector waits while a derivative is built (s2s_ad/collector.py):
no collection runs inside a build or a check of f, the collector is enabled again after
it (also when the build raises), and a process that disabled it keeps it disabled."""
import gc
import sys

import numpy as np
import pytest

import s2s_ad


def loss(w, x):
    return np.sum(np.tanh(x @ w) ** 2)


def scaled_loss(w, x):
    return 2.0 * np.sum(np.tanh(x @ w) ** 2)


def not_differentiable(w):
    return np.sum(w.astype(int))


@pytest.fixture
def collections():
    """Collections started inside pipeline._derive or pipeline._checks while the test
    runs (the thresholds set so low that a build would start many), the old thresholds
    and state restored after it."""
    seen = []

    def note(phase, info):
        frame = sys._getframe(1)
        while frame is not None and phase == "start":
            if frame.f_code.co_name in ("_derive", "_checks") \
                    and frame.f_code.co_filename.endswith("pipeline.py"):
                seen.append(info["generation"])
                break
            frame = frame.f_back
    thresholds, enabled = gc.get_threshold(), gc.isenabled()
    gc.set_threshold(10, 1, 1)
    gc.callbacks.append(note)
    try:
        yield seen
    finally:
        gc.callbacks.remove(note)
        gc.set_threshold(*thresholds)
        (gc.enable if enabled else gc.disable)()


def test_no_collection_inside_a_build(collections):
    w, x = np.ones(3), np.ones((4, 3))
    gc.enable()
    df = s2s_ad.grad(loss)                    # checks f
    s2s_ad.derivative_source(df, w, x)         # builds the specialised derivative
    assert collections == [] and gc.isenabled()
    np.testing.assert_allclose(df(w, x), 2 * x.T @ (np.tanh(x @ w) / np.cosh(x @ w) ** 2))


def test_enabled_again_after_a_build_that_raises(collections):
    gc.enable()
    with pytest.raises(s2s_ad.ADError):
        s2s_ad.grad(not_differentiable)(np.ones(3))
    assert gc.isenabled()


def test_a_disabled_collector_stays_disabled(collections):
    gc.disable()
    s2s_ad.derivative_source(s2s_ad.grad(scaled_loss), np.ones(3), np.ones((4, 3)))
    assert not gc.isenabled()
