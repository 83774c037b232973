"""Programs written the way a new user writes scientific numpy code (issues 14 and 15),
each cut down from one that failed, checked against central differences on both
derivative paths (`both_paths`: specialised, and the general one S2S_AD_GENERAL=1 runs)."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, central_difference, on_path
from gradcheck import numeric_grad
from paths import fresh


def layers_by_name(x):
    """A dict made empty in f and filled by string keys: its tangent gets entries too."""
    d = {}
    for i in range(3):
        d[f"layer{i}"] = x * (i + 1)
    return sum(np.sum(d[f"layer{i}"] ** 2) for i in range(3))


def one_entry(x):
    d = {}
    d["a"] = np.sin(x) * 2.0
    return np.sum(d["a"])


@pytest.mark.parametrize("fn", [layers_by_name, one_entry])
def test_dict_filled_inside_f_forward_and_second_order(fn, both_paths):
    f = fresh(fn)
    x = np.array([0.3, -0.7, 1.1])
    v = np.array([1.0, 0.5, -2.0])
    expected = numeric_grad(f, (x,), 0)
    value, tangent = s2s_ad.jvp(f)(x, v)
    np.testing.assert_allclose(value, f(x))
    np.testing.assert_allclose(tangent, expected @ v, rtol=1e-6)
    np.testing.assert_allclose(s2s_ad.grad(f)(x), expected, rtol=1e-6)
    np.testing.assert_allclose(s2s_ad.hvp(f)(x, v), central_difference(s2s_ad.grad(f), x, v),
                               rtol=1e-5, atol=1e-7)
    assert s2s_ad.jvp(f)(0.4, 1.0)[1] == pytest.approx(numeric_grad(f, (0.4,), 0))


def apply_activation(act, x):
    return np.sum(act(x) ** 2)


def swish(z):
    return z * np.tanh(z)


@pytest.mark.parametrize("act", [np.tanh, swish, np.sin])
def test_function_argument_on_both_paths(act, both_paths):
    """A function passed as an argument: S2S_AD_GENERAL=1 used to make the derivative s2s_ad
    builds for the held function general too, which has no way to call it by name (an
    APIUsageError for every function argument)."""
    f = fresh(apply_activation)
    x = np.array([0.3, -0.7, 1.1])
    v = np.array([1.0, 0.5, -2.0])
    expected = numeric_grad(f, (act, x), 1)
    np.testing.assert_allclose(s2s_ad.grad(f, wrt=1)(act, x), expected, rtol=1e-6)
    np.testing.assert_allclose(s2s_ad.jvp(f, wrt=1)(act, x, v)[1], expected @ v, rtol=1e-6)
    np.testing.assert_allclose(s2s_ad.hvp(f, wrt=1)(act, x, v),
                               central_difference(lambda y: s2s_ad.grad(f, wrt=1)(act, y), x, v),
                               rtol=1e-5, atol=1e-7)


def passes_nested_function(x):
    def cube(z):
        return z ** 3
    return apply_activation(cube, x)


def passes_named_lambda(x):
    cube = lambda z: z ** 3  # noqa: E731
    return apply_activation(cube, x)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("fn", [passes_nested_function, passes_named_lambda])
def test_nested_function_passed_as_a_value_is_differentiated(fn, path):
    """It was a located error; apply_activation is now inlined into f (issue 15)."""
    x = np.array([0.5, -1.0])
    np.testing.assert_allclose(on_path(s2s_ad.grad(fresh(fn)), path)(x), 6.0 * x ** 5)


def cubes(x):
    return np.sum(x ** 3)


@pytest.mark.parametrize("x, v", [(np.ones(3), np.ones(2)), (np.ones(3), np.ones((3, 1))),
                                  (np.ones(3), 1.0), (1.0, np.ones(2))])
def test_hvp_vector_of_another_shape_is_an_error_at_the_call(x, v):
    """hv(x, v) with v not of x's shape used to broadcast: a (3, 3) "Hessian-vector
    product" for v of shape (3, 1), a vector for a float x."""
    with pytest.raises(s2s_ad.APIUsageError, match="the vector v for `x` has shape"):
        s2s_ad.hvp(fresh(cubes))(x, v)


def pair_out(x):
    return x, x * 2.0


def test_grad_of_a_tuple_output_prints_no_compiler_warning(recwarn, tmp_path, monkeypatch):
    """The error is NonScalarOutputError alone: compiling the derivative used to print a
    SyntaxWarning about a generated line (`(1.0)[0]`) the check keeps from running."""
    monkeypatch.setenv("S2S_AD_SOURCE_DIR", str(tmp_path))
    with pytest.raises(s2s_ad.NonScalarOutputError, match="returns a tuple"):
        s2s_ad.grad(fresh(pair_out))(1.0)
    assert not [w for w in recwarn if issubclass(w.category, SyntaxWarning)]


def net_keys_by_str_methods(params, x):
    """Parameter names made with str methods, as cs231n-style code writes them."""
    h = x
    for i in range(2):
        h = np.tanh(h @ params["W{}".format(i)] + params["b%d" % i])
    return np.sum(h ** 2) + np.sum(params["_".join(["W", "0"])])


def _net_params():
    rs = np.random.RandomState(0)
    return {"W0": rs.randn(3, 3), "b0": rs.randn(3), "W1": rs.randn(3, 2), "b1": rs.randn(2),
            "W_0": np.ones(1)}


def _flat_numeric_grad(f, params, x, key):
    def of_entry(value):
        return f({**params, key: value}, x)
    return numeric_grad(of_entry, (params[key],), 0)


def test_dict_keys_made_by_str_methods(both_paths):
    """`"W{}".format(i)` used to be "the array method `.format()` is not supported"."""
    f = fresh(net_keys_by_str_methods)
    params, x = _net_params(), np.linspace(-1.0, 1.0, 6).reshape(2, 3)
    g = s2s_ad.grad(f)(params, x)
    for key in params:
        np.testing.assert_allclose(g[key], _flat_numeric_grad(f, params, x, key), rtol=1e-6,
                                   atol=1e-9)
    tangent = {k: np.ones_like(v) for k, v in params.items()}
    expected = sum(np.sum(g[k]) for k in params)
    np.testing.assert_allclose(s2s_ad.jvp(f)(params, x, tangent)[1], expected, rtol=1e-6)


def test_cli_writes_str_method_calls(tmp_path):
    import subprocess
    import sys
    import textwrap
    (tmp_path / "netkeys.py").write_text(textwrap.dedent('''
        import numpy as np
        def net(params, x):
            h = x
            for i in range(2):
                h = np.tanh(h @ params["W{}".format(i)])
            return np.sum(h ** 2)
    '''))
    out = subprocess.run([sys.executable, "-m", "s2s_ad", "grad", "netkeys.py:net", "-o",
                          "grad_netkeys.py"], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "= str.format" in (tmp_path / "grad_netkeys.py").read_text()
    check = subprocess.run([sys.executable, "-c", textwrap.dedent('''
        import numpy as np, grad_netkeys, netkeys, s2s_ad
        p = {"W0": np.full((3, 3), 0.1), "W1": np.full((3, 2), 0.2)}
        x = np.ones((2, 3))
        a, b = grad_netkeys.grad_net(p, x), s2s_ad.grad(netkeys.net)(p, x)
        assert all(np.allclose(a[k], b[k]) for k in p)
    ''')], cwd=tmp_path, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr


def named_outputs(x):
    return {"a": x * 2.0, "b": np.sum(x ** 2)}


def test_vjp_of_a_dict_output(both_paths):
    """The cotangent check refused every dict ("must have the output's shape ()")."""
    f = fresh(named_outputs)
    x = np.array([0.5, -1.0, 2.0])
    np.testing.assert_allclose(s2s_ad.vjp(f)(x, {"a": np.ones(3), "b": 2.0}), 2.0 + 4.0 * x)
    with pytest.raises(s2s_ad.NonScalarOutputError, match="dict with the keys"):
        s2s_ad.vjp(f)(x, {"a": np.ones(3)})
    with pytest.raises(s2s_ad.NonScalarOutputError, match=r"shape \(3,\); got shape \(2,\)"):
        s2s_ad.vjp(f)(x, {"a": np.ones(2), "b": 1.0})


CLI_PROGRAMS = '''
import numpy as np


def layers_by_name(x):
    d = {}
    for i in range(3):
        d[f"layer{i}"] = x * (i + 1)
    return sum(np.sum(d[f"layer{i}"] ** 2) for i in range(3))


def power(x, n):
    if n == 0:
        return 1.0
    return x * power(x, n - 1)


def fourth(x):
    return power(x, 4)


def hinted(x: np.ndarray, w: float = 2.0) -> float:
    return float(w * np.sum(x ** 2))
'''


def test_cli_files_of_user_programs(tmp_path):
    """Written files used to fail: a dict filled by key in f (NameError: ABSENT, a runtime
    marker not copied), a recursive helper ("the name `vjp_power_x` would denote two
    different things") and annotated parameters with defaults (the dispatching function
    dropped `w=2.0`)."""
    import subprocess
    import sys
    import textwrap
    (tmp_path / "userprog.py").write_text(CLI_PROGRAMS)
    out = subprocess.run([sys.executable, "-m", "s2s_ad", "grad", "userprog.py:layers_by_name",
                          "userprog.py:fourth", "userprog.py:hinted", "-o", "grad_userprog.py"],
                         cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    check = subprocess.run([sys.executable, "-c", textwrap.dedent('''
        import numpy as np, grad_userprog as g, userprog as u, s2s_ad
        x = np.array([0.5, -1.0, 2.0])
        assert np.allclose(g.grad_layers_by_name(x), s2s_ad.grad(u.layers_by_name)(x))
        assert np.isclose(g.grad_fourth(0.7), 4 * 0.7 ** 3)
        assert np.allclose(g.grad_hinted(x), 4.0 * x)
        assert np.allclose(g.grad_hinted(x, 3.0), 6.0 * x)
    ''')], cwd=tmp_path, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr


from user_programs_s10 import PROGRAMS  # noqa: E402


def _leaves(value):
    if isinstance(value, dict):
        return [leaf for key in value for leaf in _leaves(value[key])]
    if isinstance(value, (list, tuple)):
        return [leaf for item in value for leaf in _leaves(item)]
    if hasattr(value, "__dataclass_fields__"):
        return [leaf for key in value.__dataclass_fields__ for leaf in _leaves(getattr(value, key))]
    return [value]


@pytest.mark.parametrize("name, f, args, wrt", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_user_program(name, f, args, wrt, both_paths):
    """grad against check_grads' central differences (element by element, structures
    included), and jvp along the gradient: <g, g> from forward mode."""
    gradient = s2s_ad.grad(f, wrt=wrt)(*args)
    if not hasattr(args[wrt], "__dataclass_fields__"):
        s2s_ad.check_grads(f, *args, wrt=wrt, rtol=1e-5, atol=1e-7)
        value, tangent = s2s_ad.jvp(f, wrt=wrt)(*args, gradient)
        assert value == pytest.approx(f(*args))
        expected = sum(float(np.sum(np.square(g))) for g in _leaves(gradient))
        assert tangent == pytest.approx(expected, rel=1e-6)
    else:
        expected = numeric_grad(lambda w: f(type(args[wrt])(w, args[wrt].b), *args[1:]),
                                (args[wrt].w,), 0)
        np.testing.assert_allclose(gradient.w, expected, rtol=1e-6)


def lists_made_together(x):
    """`a, b = [], []` then appends: the tangents of the lists were zero arrays (no append)."""
    squares, sines = [], []
    for xi in x:
        squares.append(xi ** 2)
        sines.append(np.sin(xi))
    return sum(squares) + sum(sines)


def test_forward_mode_of_lists_made_in_one_statement(both_paths):
    f = fresh(lists_made_together)
    x = np.array([0.3, -0.7, 1.1])
    v = np.array([1.0, 0.5, -2.0])
    expected = numeric_grad(f, (x,), 0)
    np.testing.assert_allclose(s2s_ad.jvp(f)(x, v)[1], expected @ v, rtol=1e-6)
    np.testing.assert_allclose(s2s_ad.hvp(f)(x, v), central_difference(s2s_ad.grad(f), x, v),
                               rtol=1e-5, atol=1e-7)


def updates_a_dict(x):
    d = {"a": x, "b": 1.0}
    d.update({"b": x * 2.0, "c": d["a"] + 1.0}, e=np.sin(x))
    return np.sum(d["a"] * d["b"] + d["c"] * d["e"])


def test_dict_update_in_f(both_paths):
    """d.update({...}) used to give half the gradient, silently (the entries it wrote were
    not followed), and a KeyError in jvp."""
    f = fresh(updates_a_dict)
    x = np.array([0.3, -0.7, 1.1])
    v = np.array([1.0, 0.5, -2.0])
    expected = numeric_grad(f, (x,), 0)
    np.testing.assert_allclose(s2s_ad.grad(f)(x), expected, rtol=1e-6)
    np.testing.assert_allclose(s2s_ad.jvp(f)(x, v)[1], expected @ v, rtol=1e-6)
    np.testing.assert_allclose(s2s_ad.hvp(f)(x, v), central_difference(s2s_ad.grad(f), x, v),
                               rtol=1e-5, atol=1e-7)


def reverses_a_list(x):
    ys = [x[0], x[1] * 2.0]
    ys.reverse()  # LINE
    return ys[0] * 3.0 + ys[1]


def clears_a_dict(x):
    d = {"a": x[0]}
    d.clear()  # LINE
    d["b"] = x[1]
    return d["b"]


def removes_from_a_list(x):
    ys = [x[0], x[1]]
    ys.remove(x[0])  # LINE
    return ys[0]


def set_default(x):
    d = {}
    v = d.setdefault("a", x[0] * 2.0)  # LINE
    return v + d["a"]


def sorts_a_list(x):
    ys = [x[1], x[0]]
    ys.sort()  # LINE
    return ys[0] * 2.0


@pytest.mark.parametrize("fn", [reverses_a_list, clears_a_dict, removes_from_a_list,
                                set_default, sorts_a_list])
def test_list_and_dict_changed_in_place_is_a_located_error(fn):
    """`ys.reverse()` gave a wrong gradient without an error, `ys.remove(v)` an IndexError in
    generated code, `d.setdefault` an error naming no line."""
    import inspect
    with pytest.raises(s2s_ad.UnsupportedSyntaxError, match="changes a list or dict in place") \
            as info:
        s2s_ad.grad(fresh(fn))(np.array([1.0, 2.0]))
    lines, start = inspect.getsourcelines(fn)
    assert info.value.lineno == start + next(k for k, line in enumerate(lines) if "# LINE" in line)


def pops_twice(x):
    stack = [x[0], x[1], x[2]]
    top = stack.pop()
    return top * stack[0] + stack.pop(0)


def test_pop_then_pop_at_an_index(both_paths):
    """The rest of the list after `stack.pop(0)` is read by nothing: its adjoint, the number
    0.0, was iterated (TypeError inside a runtime helper)."""
    f = fresh(pops_twice)
    x = np.array([1.0, 2.0, 3.0])
    np.testing.assert_allclose(s2s_ad.grad(f)(x), numeric_grad(f, (x,), 0), rtol=1e-6)


def appends_to_an_item(x):
    d = {"h": []}
    for xi in x:
        d["h"].append(np.tanh(xi))  # LINE
    return sum(d["h"])


def test_append_to_an_item_says_what_to_write():
    """It said "the array method `.append()` is not supported" of a list."""
    with pytest.raises(s2s_ad.UnsupportedSyntaxError, match="on a list held in a variable"):
        s2s_ad.grad(fresh(appends_to_an_item))(np.ones(2))
