"""No stage writes into its input: the parsed tree normalize reads, the levels form the
later stages (facts, checks, differentiation, the clean-up schedule) read, and the body
the clean-up schedule (stage 7) starts from are the same, node for node, after a
derivative has been built from them, on both derivative
paths and in both modes."""
import gast
import numpy as np
import pytest

import s2s_ad
from s2s_ad import pipeline
from s2s_ad.ir import build
from tests.derivative_paths import PATHS, on_path


def straight_line(x, w):
    y = np.tanh(x * w) + 2 * x         # 2.0 beside an argument in the derivative
    return np.sum(y * y)


def augmented_in_a_loop(x, w):
    s = 0.0
    h = x * 1.0
    for k in range(3):
        h *= w
        h += np.sin(h)
        s += np.sum(h) * k
    return s


def branch_and_list(x, w):
    rows = []
    for k in range(2):
        if np.sum(x) > k:
            rows.append(x * w)
        else:
            rows.append(x - w)
    total = rows[0] + rows[1]
    total[0] = total[0] * 2.0
    return np.sum(total ** 2)


def decomposition(x, w):
    r = np.linalg.eigh(np.outer(x, x) + np.diag(w * w + 2.0))
    return np.sum(r.eigenvalues * w) + r[1][0, 0] ** 2


PROGRAMS = [straight_line, augmented_in_a_loop, branch_and_list, decomposition]


@pytest.fixture
def recorded(monkeypatch):
    """Every parsed tree and levels form `front` hands out, with its dump then (nothing
    is taken from the derivative cache: every derivative is built again)."""
    from s2s_ad.derivative_registry import CACHE
    monkeypatch.setattr(CACHE, "get", lambda func, request: None)
    seen = []
    front = pipeline.front

    def recording(func, functions=None):
        levels, namer = front(func, functions)
        seen.append((levels.parsed.tree, gast.dump(levels.parsed.tree)))
        seen.append((levels.tree, gast.dump(levels.tree)))
        return levels, namer
    monkeypatch.setattr(pipeline, "front", recording)
    run_schedule = pipeline.run_schedule

    def recording_schedule(body, facts, schedule):
        given = build.function_def("body", [], body.statements())
        seen.append((given, gast.dump(given)))
        return run_schedule(body, facts, schedule)
    monkeypatch.setattr(pipeline, "run_schedule", recording_schedule)
    return seen


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("mode", ["grad", "hvp"])
@pytest.mark.parametrize("f", PROGRAMS, ids=[f.__name__ for f in PROGRAMS])
def test_building_a_derivative_changes_none_of_its_inputs(f, mode, path, recorded):
    x, w = np.array([0.3, -0.5, 0.9]), np.array([0.7, 1.1, -0.4])
    if mode == "grad":
        on_path(s2s_ad.grad(f, wrt=(0, 1)), path)(x, w)
    else:
        from tests.derivative_paths import hvp_on
        hvp_on(path, f, (x, w), np.ones(3))
    assert recorded, "no tree was built"
    for tree, dump in recorded:
        assert gast.dump(tree) == dump
