"""What building a derivative does once that it used to do several times (issue 13: the
first call with a new signature). Counted, not timed: each test fails when the work comes
back, and checks that the result is what it was.

- fence's checks read one walk of f's tree (each walked it again: eight walks);
- the assignment-expression checks do nothing on a tree without `:=`;
- the clean-up schedule copies the body twice (once for itself, once before the passes that
  write arrays: `plain` stays as it was), not once more in each of those passes;
- a specialisation whose operands' kinds are known makes no dataflow analysis to look for
  list concatenations (the general derivative still does, and still checks them);
- the tangent forms' renderer writes each form once (dividing out a factor no forward
  name holds wrote the same two expressions again), and multiplies out the degrees of a
  pair of forward names only when their total degrees can match;
- activity reads each statement's operation once (not on every round of its fixed
  points), and a forward-mode gradient's directions share one reading of the statements;
- hoisting loop-invariant floats walks nothing in a body without a loop, the max/min shift
  cuts walk for stored names only when a max or min is there, and dead cycles ask once
  per statement whether it is removable;
- grad()'s silent-zero check reads the parameters templates declare without a derivative
  from the template index: grad() imports no adjoint template module and parses no
  template (the derivative parses those it expands, when a call builds it);
- reading arrays a loop reads item by item from lists looks for the names the body binds
  in one walk of each statement, not one per array;
- the passes that rewrite what one primitive's adjoint writes count or collect nothing in
  a body without it: unit copies without `x * 1.0` or float_copy among the top-level
  statements, copysign without an np.sign call, where sums and shared inverses before a
  site is met;
- the check for writes through a second name of an array (grad()'s and the
  specialisation's) orders no statements and reads no uses in a body that writes into no
  item, updates nothing in place and grows no list.
"""
import math
import types

import gast
import numpy as np
import pytest

import s2s_ad
from s2s_ad import pipeline
from s2s_ad.derivative_registry import CACHE
from s2s_ad.analyses import activity as activity_module, aliases, shift_invariance
from s2s_ad.frontend import assignment_expressions, fence as fence_module
from s2s_ad.optimize import (closed_form_names, closed_form_render, dce,
                             shared_inverses, sign_products, unit_copies, where_sums)
from s2s_ad.transforms import invariant_floats, sequence_operands
from tests.derivative_paths import on_path


def lambdas_and_loops(x, w):
    g = lambda v: np.tanh(v) * w        # noqa: E731 (a named lambda fence lets through)
    s = 0.0
    for k in range(3):
        s = s + np.sum(g(x * k))
    return s + sum(map(lambda v: v * v, [1.0, 2.0])) * np.sum(x)


def gp_like(A, y):
    K = A @ A.T + np.eye(A.shape[0])
    alpha = np.linalg.solve(K, y)
    return y @ alpha + np.sum(np.linalg.inv(K)) + np.sum(np.abs(A) * 2.0)


def adds_two_arguments(a, b):
    c = a + b
    return np.sum(c * c)


@pytest.fixture
def fresh(monkeypatch):
    """Every derivative built again (nothing from the derivative cache)."""
    monkeypatch.setattr(CACHE, "get", lambda func, request: None)


def test_fence_walks_the_tree_once(monkeypatch, fresh):
    roots = []
    walk = fence_module.walk_tree
    monkeypatch.setattr(fence_module, "walk_tree", lambda node: roots.append(node) or walk(node))
    evaluation_order = []
    in_order = assignment_expressions._in_evaluation_order
    monkeypatch.setattr(assignment_expressions, "_in_evaluation_order",
                        lambda node: evaluation_order.append(node) or in_order(node))
    levels, _ = pipeline.front(lambdas_and_loops)
    tree = levels.parsed.tree
    # the main loop walks each statement of the body; the checks before it the whole tree
    assert sum(root is tree for root in roots) == 1
    assert not evaluation_order           # no `:=` anywhere: nothing to order
    x, w = np.array([0.3, -0.5]), np.array([0.7, 1.1])
    g = s2s_ad.grad(lambdas_and_loops, wrt=(0, 1))(x, w)
    eps = 1e-6
    for k, arg in enumerate((x, w)):
        for i in range(arg.size):
            hi, lo = [a.copy() for a in (x, w)], [a.copy() for a in (x, w)]
            hi[k][i] += eps
            lo[k][i] -= eps
            numeric = (lambdas_and_loops(*hi) - lambdas_and_loops(*lo)) / (2 * eps)
            assert g[k][i] == pytest.approx(numeric, rel=1e-6, abs=1e-8)


def test_fence_still_refuses_what_it_refused():
    def reads_before_binding(x):
        n = 2.0
        return np.sum(x) * (n + (n := 3.0))

    def unnamed_lambda(x):
        return (lambda v: v * 2.0)(x)
    with pytest.raises(s2s_ad.UnsupportedSyntaxError, match="read before the `:=`"):
        s2s_ad.grad(reads_before_binding)
    with pytest.raises(s2s_ad.UnsupportedSyntaxError, match="a lambda is supported"):
        s2s_ad.grad(unnamed_lambda)


def test_the_passes_that_write_arrays_copy_nothing_and_keep_plain(monkeypatch, fresh):
    """run_schedule makes no copy of the body (no pass writes into the one it is given):
    plain is the very body the first pass that writes arrays was given, as it was then."""
    runs = []
    run_schedule = pipeline.run_schedule

    def recording(body, facts, schedule):
        given = []
        watched = tuple(
            step if not step.writes_arrays or any(s.writes_arrays for s in schedule[:k])
            else type(step)(step.name, lambda b, f, run=step.run: given.append(
                (b, [gast.dump(s) for s in b.statements()])) or run(b, f), True)
            for k, step in enumerate(schedule))
        plain, final = run_schedule(body, facts, watched)
        runs.append((schedule, given, plain, final))
        return plain, final
    monkeypatch.setattr(pipeline, "run_schedule", recording)
    rng = np.random.default_rng(0)
    A, y = rng.normal(size=(4, 3)), rng.normal(size=4)
    g = s2s_ad.grad(gp_like)(A, y)
    reverse = [r for r in runs if r[0] is pipeline.REVERSE]
    assert reverse
    for _, given, plain, final in reverse:
        assert plain is given[0][0]
        assert [gast.dump(s) for s in plain.statements()] == given[0][1]
    assert any(r[2] is not r[3] and [gast.dump(s) for s in r[2].statements()]
               != [gast.dump(s) for s in r[3].statements()] for r in reverse), \
        "no pass that writes arrays changed anything: the test shows nothing"
    eps = 1e-6
    for i in np.ndindex(A.shape):
        hi, lo = A.copy(), A.copy()
        hi[i] += eps
        lo[i] -= eps
        numeric = (gp_like(hi, y) - gp_like(lo, y)) / (2 * eps)
        assert g[i] == pytest.approx(numeric, rel=1e-5, abs=1e-7)


@pytest.mark.parametrize("path", ["specialised", "general"])
def test_sequence_checks_make_the_dataflow_only_when_a_kind_is_unknown(monkeypatch, fresh,
                                                                        path):
    made = []
    analyse = sequence_operands.analyse_dataflow
    monkeypatch.setattr(sequence_operands, "analyse_dataflow",
                        lambda levels: made.append(levels) or analyse(levels))
    a, b = np.array([0.5, -1.0]), np.array([2.0, 0.25])
    ga = on_path(s2s_ad.grad(adds_two_arguments), path)(a, b)
    np.testing.assert_allclose(ga, 2 * (a + b))
    if path == "specialised":
        assert not made                 # a and b are arrays: `a + b` is numpy's
    else:
        assert made                     # a and b may be lists: checked when run
        with pytest.raises(s2s_ad.UnsupportedSyntaxError, match="concatenates lists"):
            on_path(s2s_ad.grad(adds_two_arguments), path)([0.5], [2.0, 1.0])


def heun_decay(k, a, ys):
    """Heun's method for y' = a cos t - k y: the forward-mode gradient's tangents are long
    sums."""
    y, t, h, loss = 1.0, 0.0, 0.1, 0.0
    for obs in ys:
        slope = a * math.cos(t) - k * y
        guess = y + h * slope
        y = y + 0.5 * h * (slope + a * math.cos(t + h) - k * guess)
        t = t + h
        loss = loss + (y - obs) * (y - obs)
    return loss


def _heun_gradient_checked(g, ys):
    eps = 1e-6
    for k in range(2):
        hi, lo = [0.7, 0.3], [0.7, 0.3]
        hi[k] += eps
        lo[k] -= eps
        numeric = (heun_decay(*hi, ys) - heun_decay(*lo, ys)) / (2 * eps)
        assert g[k] == pytest.approx(numeric, rel=1e-6, abs=1e-9)


def _new(f):
    """f as a function object of its own: nothing built for another test is reused."""
    return types.FunctionType(f.__code__, f.__globals__, f.__name__)


def _new_heun():
    return _new(heun_decay)


def test_tangent_forms_write_each_form_once(monkeypatch, fresh):
    written, renders = [], []
    write = closed_form_render.Renderer._write

    def recording(self, num, den, sign, divide_out):
        out = write(self, num, den, sign, divide_out)
        if out is not None:
            written[-1].append([gast.dump(e) for e in out])
        return out
    render = closed_form_render.Renderer.render

    def rendering(self, value, earlier=()):
        written.append([])
        renders.append(self)
        return render(self, value, earlier)
    monkeypatch.setattr(closed_form_render.Renderer, "_write", recording)
    monkeypatch.setattr(closed_form_render.Renderer, "render", rendering)
    totals = []
    plus = closed_form_names.rational.plus

    class Counted:          # the module closed_form_names reads, with plus watched
        def __getattr__(self, name):
            return getattr(closed_form_names.rational.__wrapped__, name)

        @staticmethod
        def plus(*found):
            totals.append(sum(t for t, _ in found))
            return plus(*found)
    counted = Counted()
    counted.__wrapped__ = closed_form_names.rational
    monkeypatch.setattr(closed_form_names, "rational", counted)
    ys = [0.9, 0.8, 0.75, 0.7]
    g = s2s_ad.grad(_new_heun(), wrt=(0, 1))(0.7, 0.3, ys)
    assert len(renders) >= 8          # the tangent forms ran: the test shows something
    for lists in written:             # no form written twice in one render
        assert len(lists) == len({tuple(x) for x in lists})
    # plus is asked only of pairs whose total degrees agree (left and right in turn)
    assert totals and all(a == b for a, b in zip(totals[::2], totals[1::2]))
    _heun_gradient_checked(g, ys)


def test_activity_reads_each_operation_once(monkeypatch, fresh):
    calls, runs = [], []
    activities = activity_module.activities

    def counted(levels, wrts, *rest, **kw):
        calls.append([])
        runs.append(len(wrts))
        try:
            return activities(levels, wrts, *rest, **kw)
        finally:
            calls.append(None)    # the silent-zero check's reading is not activity's
    operation_of = activity_module.operation_of
    monkeypatch.setattr(activity_module, "activities", counted)
    monkeypatch.setattr(activity_module, "operation_of",
                        lambda value, callees: (calls[-1].append(id(value))
                                                if calls and calls[-1] is not None else None)
                        or operation_of(value, callees))
    from s2s_ad.ad import forward_gradient as forward_module
    monkeypatch.setattr(forward_module, "activities", counted)
    ys = [0.9, 0.8, 0.75, 0.7]
    g = s2s_ad.grad(_new_heun(), wrt=(0, 1))(0.7, 0.3, ys)
    assert 2 in runs                  # the forward-mode gradient's two directions at once
    calls = [c for c in calls if c is not None]
    assert any(len(c) > 10 for c in calls)   # a loop: the fixed points took several rounds
    for ids in calls:
        assert len(ids) == len(set(ids))
    _heun_gradient_checked(g, ys)


def log_sum_exp(z):
    m = np.max(z)
    return m + np.log(np.sum(np.exp(z - m)))


def test_walks_only_where_a_loop_or_a_max_is(monkeypatch, fresh):
    walked = {"hoist": [], "shift": []}
    for module, key in ((invariant_floats, "hoist"), (shift_invariance, "shift")):
        stored = module.names_stored
        monkeypatch.setattr(module, "names_stored",
                            lambda node, key=key, stored=stored:
                            walked[key].append(node) or stored(node))
    removable, per_call = dce._removable, []
    cycles = dce.remove_dead_cycles

    def counting_cycles(body, pure_call, raising=None):
        per_call.append([])
        return cycles(body, pure_call, raising)
    monkeypatch.setattr(dce, "remove_dead_cycles", counting_cycles)
    monkeypatch.setattr(dce, "_removable", lambda stmt, pure: (
        per_call[-1].append(id(stmt)) if per_call else None) or removable(stmt, pure))
    from s2s_ad.optimize import schedule
    monkeypatch.setattr(schedule, "remove_dead_cycles", counting_cycles)
    a, b = np.array([0.5, -1.0]), np.array([2.0, 0.25])
    np.testing.assert_allclose(s2s_ad.grad(_new(adds_two_arguments))(a, b), 2 * (a + b))
    assert not walked["hoist"] and not walked["shift"]   # no loop, no max
    assert per_call and all(len(ids) == len(set(ids)) for ids in per_call)
    assert any(ids for ids in per_call)
    z = np.array([0.3, 2.0, -1.0])
    g = s2s_ad.grad(_new(log_sum_exp))(z)
    np.testing.assert_allclose(g, np.exp(z) / np.sum(np.exp(z)), rtol=1e-12)
    assert walked["shift"]                                # a max: its cut is looked for
    walked["hoist"].clear()
    ys = [0.9, 0.8]
    s2s_ad.grad(_new_heun(), wrt=(0, 1))(0.7, 0.3, ys)
    assert walked["hoist"]                                # a loop: looked into


def softplus_fit(w, x, y):
    z = x @ w
    return np.sum(np.logaddexp(0.0, z) - y * z) + 0.5 * np.sum(np.tanh(w) ** 2)


def rounds_only(x):
    return np.sum(np.round(x) * 2.0)


def test_grad_checks_read_constant_parameters_from_the_index(monkeypatch):
    from s2s_ad import api, derivative_registry
    from s2s_ad.ad import registry as registry_module
    base = registry_module.default_registry()
    assert base._index is not None          # the committed index describes the templates
    # a registry of its own: every template registered, none parsed yet (as in a new process)
    fresh_registry = registry_module.Registry(base._module_names, (), base._index)
    for module in (api, derivative_registry):
        monkeypatch.setattr(module, "default_registry", lambda: fresh_registry)
    parsed = []
    parse = registry_module.Registry._parse
    monkeypatch.setattr(registry_module.Registry, "_parse", lambda self, kind, function: (
        parsed.append((self, kind, function.__name__)) or parse(self, kind, function)))
    df = s2s_ad.grad(_new(softplus_fit))
    assert not [p for p in parsed if p[0] is fresh_registry]    # grad() parsed none
    with pytest.raises(s2s_ad.NonDifferentiableError, match="only through this operation"):
        s2s_ad.grad(_new(rounds_only))      # the silent zero is still refused at grad()
    assert not [p for p in parsed if p[0] is fresh_registry]
    rng = np.random.default_rng(3)
    w, x, y = rng.normal(size=3), rng.normal(size=(5, 3)), rng.normal(size=5)
    g = df(w, x, y)
    assert ("adjoint", "logaddexp") in {(k, n.split("_")[0]) for r, k, n in parsed
                                        if r is fresh_registry}   # the derivative parses
    z = x @ w
    expected = x.T @ (1.0 / (1.0 + np.exp(-z)) - y) + np.tanh(w) * (1.0 - np.tanh(w) ** 2)
    np.testing.assert_allclose(g, expected, rtol=1e-10)


def two_series(w, xs, ys, zs):
    s = 0.0
    for t in range(len(xs)):
        r = w[0] * xs[t] + w[1] - ys[t] - zs[t]
        s = s + r * r
    return s


def test_two_arrays_read_item_by_item_are_both_read_as_lists(fresh):
    """(The final-code pass that did this, list_reads.py, walked the body once per array
    it chose; the levels form's python_floats chooses them in one walk.)"""
    xs, ys, zs = np.array([0.5, 1.5, -1.0]), np.array([1.0, 2.0, 0.5]), np.array([0.1, 0.2, 0.3])
    df = s2s_ad.grad(_new(two_series))
    w = np.array([0.7, -0.2])
    g = df(w, xs, ys, zs)
    source = s2s_ad.derivative_source(df, w, xs, ys, zs)
    assert "ys_items" in source and "zs_items" in source     # both read as lists
    r = w[0] * xs + w[1] - ys - zs
    np.testing.assert_allclose(g, [np.sum(2 * r * xs), np.sum(2 * r)], rtol=1e-12)


def abs_weighted(x, w):
    return np.sum(np.abs(x) * w) + np.sum(x * w)


def test_passes_for_one_primitive_collect_nothing_without_it(monkeypatch, fresh):
    asked = []
    for module, name in ((unit_copies, "_bindings"), (unit_copies, "_kept_elsewhere"),
                         (sign_products, "_single_definitions"), (where_sums, "name_counts"),
                         (shared_inverses, "_store_counts")):
        counted = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *a, name=name, counted=counted: (
            asked.append(name) or counted(*a)))
    a, b = np.array([0.5, -1.0]), np.array([2.0, 0.25])
    np.testing.assert_allclose(s2s_ad.grad(_new(adds_two_arguments))(a, b), 2 * (a + b))
    assert not asked
    x, w = np.array([0.5, -1.5, 2.0]), np.array([1.0, 2.0, -3.0])
    np.testing.assert_allclose(s2s_ad.grad(_new(abs_weighted))(x, w), np.sign(x) * w + w)
    assert "_single_definitions" in asked     # an np.sign: looked at
    asked.clear()
    rng = np.random.default_rng(1)
    A, y = rng.normal(size=(4, 3)), rng.normal(size=4)
    g = s2s_ad.grad(_new(gp_like))(A, y)
    assert "_store_counts" in asked           # inverses and solves: counted
    i = (1, 2)
    hi, lo = A.copy(), A.copy()
    hi[i] += 1e-6
    lo[i] -= 1e-6
    assert g[i] == pytest.approx((gp_like(hi, y) - gp_like(lo, y)) / 2e-6, rel=1e-5, abs=1e-7)


def scaled_first(x, w):
    y = x * w
    y[0] = 2.0 * y[0]
    return np.sum(y * x)


def test_aliased_writes_read_nothing_without_a_write(monkeypatch, fresh):
    ordered = []
    in_order = aliases.in_order
    monkeypatch.setattr(aliases, "in_order", lambda body: ordered.append(body) or in_order(body))
    a, b = np.array([0.5, -1.0]), np.array([2.0, 0.25])
    np.testing.assert_allclose(s2s_ad.grad(_new(adds_two_arguments))(a, b), 2 * (a + b))
    assert not ordered
    x, w = np.array([0.5, -1.5, 2.0]), np.array([1.0, 2.0, -3.0])
    g = s2s_ad.grad(_new(scaled_first))(x, w)
    assert ordered                          # an item written: looked for its aliases
    np.testing.assert_allclose(g, 2 * x * w * np.array([2.0, 1.0, 1.0]))
