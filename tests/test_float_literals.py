"""Int literals in adjoint arithmetic, and beside differentiated arguments in the forward
sweep, are written as floats (numpy and Python mix an int into float arithmetic by a
slower path); ints where an int is meant stay ints. And the scalar-output guard of grad
reads `type`/`float` through bindings."""
import textwrap

import gast
import numpy as np
import pytest

import s2s_ad
from s2s_ad import runtime
from s2s_ad.backend.emit import to_source
from s2s_ad.optimize.float_literals import float_literals_beside_inputs, float_literals_in_adjoints
from tests.gradcheck import numeric_grad


def rewrite(source):
    body = gast.parse(textwrap.dedent(source)).body
    resolve = {"unbroadcast": runtime.unbroadcast, "unreduce": runtime.unreduce}.get
    float_literals_in_adjoints(body, lambda name: name.endswith("_bar"), resolve)
    return to_source(gast.Module(body=body, type_ignores=[])).strip()


@pytest.mark.parametrize("source, expected", [
    ("x_bar = t_bar * 2 * x", "x_bar = t_bar * 2.0 * x"),
    ("x_bar = -(3 * y_bar) / 2", "x_bar = -(3.0 * y_bar) / 2.0"),
    ("x_bar += t_bar * 3 * x ** 2", "x_bar += t_bar * 3.0 * x ** 2"),          # exponent
    ("x_bar = unbroadcast(t_bar * 2, x)", "x_bar = unbroadcast(t_bar * 2.0, x)"),
    ("x_bar = unreduce(g_bar * 2, x, n - 1)", "x_bar = unreduce(g_bar * 2, x, n - 1)"),
    ("x_bar = t_bar[i * 2] * 2", "x_bar = t_bar[i * 2] * 2.0"),                  # index
    ("x_bar = np.reshape(t_bar, (n * 2,))", "x_bar = np.reshape(t_bar, (n * 2,))"),
    ("i = n - 1", "i = n - 1"),                                                 # not an adjoint
    ("x_bar = t_bar * True", "x_bar = t_bar * True"),
])
def test_which_literals_become_floats(source, expected):
    assert rewrite(source) == expected


@pytest.mark.parametrize("source, expected", [
    ("t = 2 * x", "t = 2.0 * x"),
    ("t = x / 4 - 0", "t = x / 4 - 0"),            # not three-address: left alone
    ("t = x - 1", "t = x - 1.0"),
    ("t = 2 ** x", "t = 2.0 ** x"),
    ("t = x ** 2", "t = x ** 2"),                  # an exponent stays as written
    ("t = 2 * i", "t = 2 * i"),                    # not a differentiated argument
    ("n = 2 * x", "n = 2 * x"),                    # result carries no derivative
    ("t = x // 2", "t = x // 2"),
    ("t = True * x", "t = True * x"),
])
def test_which_forward_literals_become_floats(source, expected):
    body = gast.parse(source).body
    new = float_literals_beside_inputs(body, {"x"}, lambda name: name != "n")
    assert to_source(gast.Module(body=new, type_ignores=[])).strip() == expected
    assert to_source(gast.Module(body=body, type_ignores=[])).strip() == source


def scaled_exp(x, a):
    y = np.exp(2 * x) + 3 ** x - 1 / x
    return np.sum(y * (2 * a))


@pytest.mark.parametrize("x", [np.array([0.5, -1.0, 2.0]), np.array([1, 2, 3]), 1.5, 2])
def test_forward_literals_beside_arguments(x):
    df = s2s_ad.grad(scaled_exp)
    a = np.array([1.0, 2.0, 3.0])
    want = numeric_grad(scaled_exp, [np.asarray(x, dtype=float), a], 0)
    np.testing.assert_allclose(df(x, a), want, rtol=1e-6)
    source = s2s_ad.derivative_source(df)
    assert "np.exp(2.0 * x)" in source and "3.0 ** x" in source and "1.0 / x" in source
    assert "2 * a" in source                      # `a` is not differentiated


def test_loops_and_branches_are_walked():
    text = rewrite("""
        for i in range(3):
            if c:
                x_bar = x_bar + t_bar * 2
        """)
    assert "t_bar * 2.0" in text and "range(3)" in text


def poly(x, n):
    return np.sum(3 * x ** 2 + 2 * x) + x[n - 1] * 4


@pytest.mark.parametrize("x", [np.array([0.5, -1.0, 2.0]),
                               np.array([1, 2, 3])])        # int input: as floats
def test_gradients_with_int_literals_stay_right(x):
    df = s2s_ad.grad(poly)
    got = df(x, 2)
    want = numeric_grad(poly, [np.asarray(x, dtype=float), 2], 0)
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    assert "* 2.0" in s2s_ad.derivative_source(df)


def test_scalar_guard_does_not_read_a_rebound_float_or_type():
    from tests.programs.rebinds_builtins import cube
    df = s2s_ad.grad(cube)
    assert df(2.0) == pytest.approx(12.0)
    with pytest.raises(s2s_ad.ADError, match="vjp"):
        df(np.ones(3))
    source = s2s_ad.derivative_source(df)
    assert "type_1(x) is not float_1" in source


def test_standalone_file_needs_no_import_for_builtins(tmp_path):
    from s2s_ad.cli import main
    src = tmp_path / "model.py"
    src.write_text("import numpy as np\n\ndef f(x, y):\n    return np.sin(x) * y\n")
    out = tmp_path / "grads.py"
    assert main(["grad", f"{src}:f", "-o", str(out)]) == 0
    text = out.read_text()
    assert "builtins" not in text
    namespace = {}
    exec(compile(text, str(out), "exec"), namespace)
    assert namespace["grad_f"](0.5, 2.0) == pytest.approx(2.0 * np.cos(0.5))
