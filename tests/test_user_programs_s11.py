"""Programs a new user writes (issue 14, 15), each cut down from one that failed, checked
against central differences on both derivative paths (`both_paths`), and the table of
programs that pass (tests/user_programs_s11.py)."""
from dataclasses import dataclass

import numpy as np
import pytest

import s2s_ad
from derivative_paths import central_difference, check_against_differences
from gradcheck import numeric_grad
from paths import fresh


class Model:
    def __init__(self, W, b):
        self.W, self.b = W, b

    def loss(self, x):
        return np.sum(np.tanh(x @ self.W + self.b) ** 2)


@dataclass
class Layer:
    W: np.ndarray

    def loss(self, x):
        return np.sum(np.tanh(x @ self.W) ** 2)


def method_of_an_argument(m, x):
    return m.loss(x)  # LINE


def method_of_a_dataclass_made_in_f(W, x):
    m = Layer(W)
    return np.sum(m.W * 2.0) + m.loss(x)


def test_method_of_an_object_argument_is_a_located_error(both_paths):
    """`m.loss(x)` with m differentiated gave the gradient 0.0 in every field, silently
    (the bound method was called as a function chosen at run time, whose derivative
    covers its arguments only). The specialised derivative now knows m's class from its
    signature and calls Model.loss(m, x) (tests/test_objects_s12.py); the general one
    checks when it runs that `m.loss` is a method and raises the located error."""
    import inspect
    rs = np.random.RandomState(0)
    m, x = Model(rs.randn(3, 2), rs.randn(2)), rs.randn(4, 3)
    if both_paths == "specialised":
        g = s2s_ad.grad(fresh(method_of_an_argument))(m, x)
        assert type(g) is Model and np.abs(g.W).sum() > 0
        return
    lines, start = inspect.getsourcelines(method_of_an_argument)
    for make in (s2s_ad.grad, s2s_ad.jvp):
        with pytest.raises(s2s_ad.UnsupportedSyntaxError,
                           match=r"calls a method of `m`, which carries the derivative") as info:
            derivative = make(fresh(method_of_an_argument))
            derivative(m, x) if make is s2s_ad.grad else derivative(m, x, m)
        assert f"line {start + 1}, col 12, in method_of_an_argument" in str(info.value)
        assert "ClassName.loss(m, ...)" in str(info.value) and "^^^^" in str(info.value)


def test_method_of_a_dataclass_made_in_f(both_paths):
    """The method's part of the gradient was dropped (only `np.sum(m.W * 2.0)` counted)."""
    f = fresh(method_of_a_dataclass_made_in_f)
    rs = np.random.RandomState(1)
    W, x, v = rs.randn(3, 2), rs.randn(4, 3), rs.randn(3, 2)
    expected = numeric_grad(f, (W, x), 0)
    np.testing.assert_allclose(s2s_ad.grad(f)(W, x), expected, rtol=1e-6)
    np.testing.assert_allclose(s2s_ad.jvp(f)(W, x, v)[1], np.sum(expected * v), rtol=1e-6)
    np.testing.assert_allclose(s2s_ad.hvp(f)(W, x, v),
                               central_difference(lambda w: s2s_ad.grad(f)(w, x), W, v),
                               rtol=1e-5, atol=1e-7)


def group_sums(theta, groups, x):
    """A hierarchical model's per-group sums of squares, with np.add.at (repeated groups)."""
    per_group = np.zeros(len(theta))
    np.add.at(per_group, groups, (x - theta[groups]) ** 2)
    return np.sum(np.log1p(per_group)) + 0.5 * np.sum(theta ** 2)


def test_add_at_accumulates_repeated_indices(both_paths):
    """np.add.at was "this call may write a value that carries a derivative into an
    array"; it is an index write whose repeated indices accumulate."""
    f = fresh(group_sums)
    groups = np.array([0, 1, 1, 2, 0, 2, 2])
    x = np.linspace(-1.0, 1.0, 7)
    for theta in (np.array([0.3, -0.2, 0.5]), np.array([0.3, -0.2, 0.5], np.float32)):
        v = np.array([1.0, -0.5, 2.0], theta.dtype)
        expected = numeric_grad(lambda t: f(t, groups, x), (theta.astype(float),), 0)
        tol = 1e-6 if theta.dtype == np.float64 else 1e-3
        gradient = s2s_ad.grad(f)(theta, groups, x)
        assert gradient.dtype == theta.dtype
        np.testing.assert_allclose(gradient, expected, rtol=tol)
        np.testing.assert_allclose(s2s_ad.jvp(f)(theta, groups, x, v)[1], expected @ v, rtol=tol)
    theta = np.array([0.3, -0.2, 0.5])
    np.testing.assert_allclose(
        s2s_ad.hvp(f)(theta, groups, x, v),
        central_difference(lambda t: s2s_ad.grad(f)(t, groups, x), theta, v), rtol=1e-5)
    # the values added: their gradient gathers every repeat
    assert s2s_ad.grad(f, wrt=2)(theta, groups, x) == pytest.approx(
        numeric_grad(f, (theta, groups, x), 2), rel=1e-6)


def adds_into_an_alias(x, groups):
    a = np.zeros(3)
    b = a
    np.add.at(a, groups, x)
    return np.sum(b)


def test_add_at_into_a_shared_array_is_a_located_error():
    with pytest.raises(s2s_ad.UnsupportedSyntaxError, match="holds the same numpy array"):
        s2s_ad.grad(fresh(adds_into_an_alias))(np.ones(3), np.array([0, 0, 1]))


def group_log_sums(theta, groups, x):
    """The same model with np.bincount(groups, weights=...) for the per-group sums."""
    per_group = np.bincount(groups, weights=(x - theta[groups]) ** 2, minlength=len(theta))
    return np.sum(np.log1p(per_group))


def binned_lookup(table, xs):
    """A table lookup by np.searchsorted: the bins are constants of the derivative."""
    idx = np.clip(np.searchsorted(np.array([0.0, 0.25, 0.5, 0.75]), xs) - 1, 0, len(table) - 1)
    return np.sum(table[idx] * xs) + np.sum(np.digitize(xs, [0.5]) * xs)


@pytest.mark.parametrize("fn, args, wrt", [
    (group_log_sums, (np.array([0.3, -0.2, 0.5, 0.1]), np.array([0, 1, 1, 2, 0, 2]),
                      np.linspace(-1.0, 1.0, 6)), 0),
    (group_log_sums, (np.array([0.3, -0.2, 0.5, 0.1]), np.array([0, 1, 1, 2, 0, 2]),
                      np.linspace(-1.0, 1.0, 6)), 2),
    (binned_lookup, (np.array([1.0, -2.0, 0.5]), np.array([0.1, 0.3, 0.6, 0.9])), 0),
    (binned_lookup, (np.array([1.0, -2.0, 0.5]), np.array([0.1, 0.3, 0.6, 0.9])), 1),
])
def test_bincount_weights_and_searchsorted_bins(fn, args, wrt, both_paths):
    """np.bincount had no derivative; np.searchsorted / np.digitize none in forward mode
    (jvp and hvp refused them although grad worked)."""
    f = fresh(fn)
    v = np.linspace(0.5, 1.5, np.size(args[wrt]))
    expected = numeric_grad(f, args, wrt)
    np.testing.assert_allclose(s2s_ad.grad(f, wrt=wrt)(*args), expected, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(s2s_ad.jvp(f, wrt=wrt)(*args, v)[1], expected @ v, rtol=1e-6)

    def gradient_at(point):
        return s2s_ad.grad(f, wrt=wrt)(*args[:wrt], point, *args[wrt + 1:])
    np.testing.assert_allclose(s2s_ad.hvp(f, wrt=wrt)(*args, v),
                               central_difference(gradient_at, args[wrt], v),
                               rtol=1e-5, atol=1e-7)


from user_programs_s11 import PROGRAMS  # noqa: E402


def _leaves(value):
    if isinstance(value, dict):
        return [leaf for key in value for leaf in _leaves(value[key])]
    if isinstance(value, (list, tuple)):
        return [leaf for item in value for leaf in _leaves(item)]
    return [value]


def _rebuilt(value, leaves):
    if isinstance(value, dict):
        return {key: _rebuilt(value[key], leaves) for key in value}
    if isinstance(value, (list, tuple)):
        return type(value)(_rebuilt(item, leaves) for item in value)
    return next(leaves)


def _numeric_gradient(f, args, k):
    """Central differences of f in args[k], leaf by leaf for a dict, list or tuple."""
    leaves = _leaves(args[k])
    out = []
    for j, leaf in enumerate(leaves):
        def of_leaf(value):
            changed = [value if i == j else other for i, other in enumerate(leaves)]
            return f(*args[:k], _rebuilt(args[k], iter(changed)), *args[k + 1:])
        out.append(numeric_grad(of_leaf, (leaf,), 0))
    return _rebuilt(args[k], iter(out))


@pytest.mark.parametrize("program", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_user_program(program, both_paths):
    """value_and_grad against central differences (leaf by leaf, dicts and lists
    included) and f's value, then jvp along the gradient (<g, g> in forward mode)."""
    import functools
    import inspect
    name, f, args, wrt = program[:4]
    f = fresh(f)
    if len(program) > 4:
        f = functools.partial(f, **program[4])
    value, gradient = s2s_ad.value_and_grad(f, wrt=wrt)(*args)
    assert value == pytest.approx(f(*args))
    names = list(inspect.signature(f).parameters)
    positions = [names.index(w) if isinstance(w, str) else w
                 for w in (wrt if isinstance(wrt, tuple) else (wrt,))]
    for k, got in zip(positions, gradient if isinstance(wrt, tuple) else (gradient,)):
        for a, b in zip(_leaves(got), _leaves(_numeric_gradient(f, args, k))):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-7, err_msg=name)
    _, tangent = s2s_ad.jvp(f, wrt=wrt)(*args, gradient)
    expected = sum(float(np.sum(np.square(g))) for g in _leaves(gradient))
    assert tangent == pytest.approx(expected, rel=1e-6)


def scaled_tanh(x, w):
    return np.sum(np.tanh(x * w))


@pytest.mark.parametrize("bad", [None, "abc", b"x"])
def test_differentiated_argument_that_holds_no_number(bad, both_paths):
    """grad(f)(None, 1.0) crashed inside the generated code (TypeError at `x * w`)."""
    f = fresh(scaled_tanh)
    x = np.ones(3)
    calls = [lambda: s2s_ad.grad(f)(bad, 1.0), lambda: s2s_ad.jvp(f, wrt=1)(x, bad, 1.0),
             lambda: s2s_ad.vjp(f)(bad, 1.0, 1.0),
             lambda: s2s_ad.value_and_grad(f, wrt=("x", "w"))(x, bad)]
    for call in calls:
        with pytest.raises(s2s_ad.APIUsageError, match=r"of scaled_tanh is .*, and it is "
                                                       r"differentiated") as info:
            call()
        assert info.value.filename == __file__
    with pytest.raises(s2s_ad.APIUsageError, match="and it is differentiated"):
        s2s_ad.hvp(f)(bad, 1.0, x)
    # an argument not differentiated may be anything f accepts
    assert s2s_ad.grad(f)(x, 2.0) == pytest.approx(2.0 / np.cosh(2.0) ** 2)


def numpy_float_of(x):
    return float(np.sum(x)) ** 2 + np.float64(x[0]) * 3.0 + np.sum(np.float64(x) ** 2)


def test_np_float64_called_on_a_value(both_paths):
    """np.float64(x[0]) had no derivative ("no derivative is known for np.float64(...)")."""
    f = fresh(numpy_float_of)
    x = np.array([0.3, -0.7, 1.1])
    check_against_differences(both_paths, f, x)


def penalised_by_keys(params, X, y):
    """A params dict read by key in an inlined helper and again by a loop over its keys."""
    def predict(p, X):
        return X @ p["w"] + p["b"]
    loss = np.mean((predict(params, X) - y) ** 2)
    return loss + 0.01 * sum(np.sum(params[k] ** 2) for k in params) \
        + 0.1 * sum(np.sum(v ** 2) for v in params.values())


def test_dict_argument_read_by_key_in_a_helper_and_a_comprehension(both_paths):
    """On the general path the two dict adjoints were added with `+` (TypeError in the
    generated code), and `sum(... params[k] ... for k in params)` indexed the dict by
    position (KeyError: 0)."""
    f = fresh(penalised_by_keys)
    rs = np.random.RandomState(2)
    params, X, y = {"w": rs.randn(3), "b": 0.3}, rs.randn(5, 3), rs.randn(5)
    g = s2s_ad.grad(f)(params, X, y)
    for key in params:
        def of_entry(value):
            return f({**params, key: value}, X, y)
        np.testing.assert_allclose(g[key], numeric_grad(of_entry, (params[key],), 0),
                                   rtol=1e-6, atol=1e-9)
    tangent = {"w": np.ones(3), "b": 1.0}
    assert s2s_ad.jvp(f)(params, X, y, tangent)[1] == pytest.approx(
        np.sum(g["w"]) + g["b"], rel=1e-6)


def area_either_numpy(y):
    """Code written for numpy 1 and 2 alike: one branch names what this numpy lacks."""
    return np.trapezoid(y ** 2, dx=0.1) if hasattr(np, "trapezoid") \
        else np.trapz(y ** 2, dx=0.1)


def area_either_numpy_statement(y):
    if not hasattr(np, "not_in_any_numpy"):
        z = y ** 2
        area = np.trapezoid(z, dx=0.1)
    else:
        area = np.not_in_any_numpy(y)
    return area * 2.0


@pytest.mark.parametrize("fn", [area_either_numpy, area_either_numpy_statement])
def test_hasattr_of_a_module_takes_one_branch(fn, both_paths):
    """It was "`np.trapz` is not defined when the derivative is built" for the branch
    Python never runs."""
    check_against_differences(both_paths, fresh(fn), np.linspace(0.0, 1.0, 5))


class ActivatedNet:
    def __init__(self, W, act):
        self.W, self.act = W, act

    def loss(self, x):
        return np.sum(self.act(x @ self.W) ** 2)


def test_function_held_by_self_is_no_method(both_paths):
    """`self.act(h)` with act a function the object holds carries no derivative of its own:
    not refused as a method of an object that carries the derivative."""
    net, x = ActivatedNet(np.full((3, 2), 0.1), np.tanh), np.linspace(-1.0, 1.0, 12).reshape(4, 3)
    got = s2s_ad.grad(ActivatedNet.loss)(net, x).W

    def of_weights(W):
        return ActivatedNet.loss(ActivatedNet(W, np.tanh), x)
    np.testing.assert_allclose(got, numeric_grad(of_weights, (net.W,), 0), rtol=1e-6)
