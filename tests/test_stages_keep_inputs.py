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


def _extra_attributes(tree):
    """(node type, attribute) for every attribute a node of `tree` carries besides its
    gast fields and location: what a stage wrote onto it."""
    found = set()
    for node in gast.walk(tree):
        known = set(node._fields) | set(getattr(node, "_attributes", ()))
        found |= {(type(node).__name__, a) for a in vars(node) if a not in known}
    return found


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", PROGRAMS, ids=[f.__name__ for f in PROGRAMS])
def test_no_stage_marks_the_nodes_of_the_levels_form(f, path, recorded):
    """What a stage knows about a statement (an augmented assignment's array updated in
    place) is a side table, never an attribute on the node."""
    x, w = np.array([0.3, -0.5, 0.9]), np.array([0.7, 1.1, -0.4])
    # (value_and_grad: a derivative the test above did not build)
    on_path(s2s_ad.value_and_grad(f, wrt=(0, 1)), path)(x, w)
    assert recorded, "no tree was built"
    for tree, _ in recorded:
        assert not _extra_attributes(tree)


def test_the_in_place_table_holds_for_copies_of_the_levels_form():
    """`h *= w` binds h anew in the levels form; the table says numpy writes into the
    array h held, for the levels form and for a copy of it alike."""
    levels, _ = pipeline.front(augmented_in_a_loop)
    copied = levels.copy()
    for form in (levels, copied):
        loop = form.tree.body[-2]
        assert isinstance(loop, gast.For)
        assert [form.updated_in_place(s) for s in loop.body if form.updated_in_place(s)] \
            == ["h", "h", "s"]
        assert not any(form.updated_in_place(s) for s in form.tree.body[:-2])


def with_aux(x, w):
    y = np.tanh(x * w)
    return np.sum(y * y), y


def test_grads_checks_read_the_shared_levels_form_without_copying_it(monkeypatch, recorded):
    """grad()'s checks (pipeline.outline) read the levels form the first call builds from
    without a copy of their own (a copy was a tenth of what they cost): no LevelsForm is
    copied before the first call, and that form is unchanged after the call builds the
    derivative from it (has_aux included: split_aux makes a new tree)."""
    copies = []
    levels_form = type(pipeline.front(straight_line)[0])
    copy = levels_form.copy
    monkeypatch.setattr(levels_form, "copy", lambda self: copies.append(self) or copy(self))
    x, w = np.array([0.3, -0.5, 0.9]), np.array([0.7, 1.1, -0.4])
    grads = [s2s_ad.grad(f, wrt=(0, 1)) for f in PROGRAMS]
    grads.append(s2s_ad.grad(with_aux, wrt=(0, 1), has_aux=True))
    assert recorded and copies == []
    for df in grads:
        df(x, w)
    assert copies, "the first call builds from a copy"
    for tree, dump in recorded:
        assert gast.dump(tree) == dump
