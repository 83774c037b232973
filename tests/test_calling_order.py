"""One calling convention for every derivative: f's arguments first, the (co)tangent or
vector last, in the callable, in the source it shows (derivative_source,
inspect.getsource), in files the CLI writes, and in derivatives of derivatives.

Each derivative here is called exactly as the `def` line of its own shown source says:
its parameters are filled by name (f's arguments by their names, the extra ones in the
order the source lists them), then checked against central differences."""
import ast
import importlib.util
import inspect
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import s2s_ad
from paths import fresh

EPS = 1e-6
RNG = np.random.default_rng(7)
X, W, V, U = (RNG.standard_normal(3) for _ in range(4))


def loss(x, w):
    h = np.tanh(x * w)
    return np.sum(h * h) + np.sum(w ** 3) * 0.5


def layer(x, w):
    return np.tanh(x * w) * w


def scalar(a, b):
    return a * a * b + np.sin(b) * a


def written_parameters(source, name):
    """The parameter names of `def name(...)` in `source`, in order."""
    tree = ast.parse(textwrap.dedent(source))
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name)
    return [a.arg for a in node.args.posonlyargs + node.args.args]


def call_as_written(df, source, values, extras):
    """Call df with its parameters as `source` lists them: names of f's parameters take
    `values[name]`, the others take `extras` in order."""
    params = written_parameters(source, df.__name__)
    extra = iter(extras)
    args = [values[p] if p in values else next(extra) for p in params]
    assert next(extra, None) is None, (params, "not every extra parameter was passed")
    return df(*args)


def shown_source(df):
    source = s2s_ad.derivative_source(df)
    assert written_parameters(source, df.__name__) == \
        written_parameters(inspect.getsource(df), df.__name__)
    return source


def fd(fun, x, v):
    return (fun(x + EPS * v) - fun(x - EPS * v)) / (2 * EPS)


def grad_w(x, w):
    """The exact gradient of loss in w (by hand), for second-order checks."""
    h = np.tanh(x * w)
    return 2 * h * (1 - h * h) * x + 1.5 * w * w


def test_first_order_derivatives_called_as_their_source_says(both_paths):
    f, g = fresh(loss), fresh(layer)
    values = {"x": X, "w": W}
    df = s2s_ad.grad(f, wrt=1)
    got = call_as_written(df, shown_source(df), values, [])
    np.testing.assert_allclose(got, grad_w(X, W), rtol=1e-7)
    assert np.sum(got * V) == pytest.approx(fd(lambda w: f(X, w), W, V), rel=1e-6)

    vg = s2s_ad.value_and_grad(f, wrt=1)
    value, got = call_as_written(vg, shown_source(vg), values, [])
    assert value == pytest.approx(f(X, W))
    np.testing.assert_allclose(got, grad_w(X, W), rtol=1e-7)

    vf = s2s_ad.vjp(g, wrt=1)
    got = call_as_written(vf, shown_source(vf), values, [U])
    assert np.sum(got * V) == pytest.approx(np.sum(U * fd(lambda w: g(X, w), W, V)), rel=1e-6)

    jf = s2s_ad.jvp(f, wrt=1)
    value, got = call_as_written(jf, shown_source(jf), values, [V])
    assert value == pytest.approx(f(X, W))
    assert got == pytest.approx(fd(lambda w: f(X, w), W, V), rel=1e-6)

    jac = s2s_ad.jacobian(g, wrt=1)
    got = call_as_written(jac, inspect.getsource(g), values, [])
    np.testing.assert_allclose(got @ V, fd(lambda w: g(X, w), W, V), rtol=1e-6)


def test_second_order_derivatives_called_as_their_source_says(both_paths):
    f = fresh(loss)
    values = {"x": X, "w": W}
    hv = s2s_ad.hvp(f, wrt=1)
    got = call_as_written(hv, shown_source(hv), values, [V])
    np.testing.assert_allclose(got, fd(lambda w: grad_w(X, w), W, V), rtol=1e-6)

    hess = s2s_ad.hessian(f, wrt=1)
    got = call_as_written(hess, inspect.getsource(f), values, [])
    np.testing.assert_allclose(got @ V, fd(lambda w: grad_w(X, w), W, V), rtol=1e-6)

    s = fresh(scalar)
    ddf = s2s_ad.grad(s2s_ad.grad(s, wrt=1), wrt=0)      # d/da of ds/db = 2a + cos b
    got = call_as_written(ddf, shown_source(ddf), {"a": 0.7, "b": 1.3}, [])
    assert got == pytest.approx(2 * 0.7 + np.cos(1.3))


def test_jvp_of_hvp_called_as_its_source_says(both_paths):
    # the case: jvp(hvp(g)) called as documented was off by a factor
    f = fresh(loss)
    hv = s2s_ad.hvp(f, wrt=1)
    jh = s2s_ad.jvp(hv, wrt=1)
    value, got = call_as_written(jh, shown_source(jh), {"x": X, "w": W}, [V, U])
    np.testing.assert_allclose(value, hv(X, W, V), rtol=1e-12)

    def hessian_times_v(w):            # by hand: loss's Hessian in w is diagonal
        h = np.tanh(X * w)
        return (2 * X * X * (1 - h * h) * (1 - 3 * h * h) + 3 * w) * V
    np.testing.assert_allclose(hessian_times_v(W), value, rtol=1e-10)
    np.testing.assert_allclose(got, fd(hessian_times_v, W, U), rtol=1e-6, atol=1e-9)


def test_defaults_are_filled_in_by_the_callable():
    def with_default(x, w=2.0):
        return np.sum(np.sin(x) * w)
    jf = s2s_ad.jvp(with_default)
    value, derivative = jf(X, V)                 # w left to its default
    assert derivative == pytest.approx(np.sum(np.cos(X) * V * 2.0))
    assert jf(X, 2.0, V)[1] == pytest.approx(derivative)
    hv = s2s_ad.hvp(with_default)
    np.testing.assert_allclose(hv(X, V), -np.sin(X) * V * 2.0)


MODEL = '''
import numpy as np


def loss(x, w):
    h = np.tanh(x * w)
    return np.sum(h * h) + np.sum(w ** 3) * 0.5
'''


@pytest.mark.slow
def test_cli_files_called_as_their_source_says(tmp_path):
    (tmp_path / "model.py").write_text(MODEL)
    modules = {}
    for command in ("grad", "jvp", "hvp"):
        out = subprocess.run(
            [sys.executable, "-m", "s2s_ad", command, "model.py:loss", "--wrt", "w", "-o",
             f"{command}_model.py"], cwd=tmp_path, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        path = tmp_path / f"{command}_model.py"
        spec = importlib.util.spec_from_file_location(f"{command}_model_{id(path)}", path)
        module = importlib.util.module_from_spec(spec)
        sys.path.insert(0, str(tmp_path))
        try:
            spec.loader.exec_module(module)
        finally:
            sys.path.remove(str(tmp_path))
        modules[command] = (module, path.read_text())
    values = {"x": X, "w": W}
    module, text = modules["grad"]
    np.testing.assert_allclose(call_as_written(module.grad_loss, text, values, []),
                               grad_w(X, W), rtol=1e-7)
    module, text = modules["jvp"]
    value, got = call_as_written(module.jvp_loss, text, values, [V])
    assert got == pytest.approx(fd(lambda w: loss(X, w), W, V), rel=1e-6)
    module, text = modules["hvp"]
    np.testing.assert_allclose(call_as_written(module.hvp_loss, text, values, [V]),
                               fd(lambda w: grad_w(X, w), W, V), rtol=1e-6)
