"""Int literals in adjoint arithmetic, and beside differentiated arguments in the forward
sweep, are written as floats (numpy and Python mix an int into float arithmetic by a
slower path); ints where an int is meant stay ints. And the scalar-output guard of grad
reads `type`/`float` through bindings."""
import re

import gast
import numpy as np
import pytest

import s2s_ad
from s2s_ad.backend.emit import to_source
from s2s_ad.optimize.float_literals import float_literals_beside_inputs
from derivative_paths import PATHS, on_path
from tests.gradcheck import numeric_grad


def by_hand_index(x):
    return np.sum(x[1:] ** 2) * 3 - x[0] / 2


def halved_differences(x):
    d = x[1:] - x[:-1]
    return np.sum(d ** 2) / 4 + np.sum(x * -2)


def scalar_square(a, b):
    return a ** 3 * 2 + b / 2


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, args, floats", [
    # the exponent's 2 and 3 multiply the adjoint as floats (folded with the literal
    # factor); the exponent itself, the slices' bounds and the index stay ints. The
    # adjoint of x[0] is written into by index (x_bar[0] += ...)
    (by_hand_index, (np.linspace(0.5, 1.5, 4),), ["-1.0 / 2.0", "6.0"]),
    # (d's adjoint `2.0 * d`, or written into d's own array: `np.multiply(1.0 / 4.0 * 2.0,
    # d, out=d)`, optimize/buffers.py)
    (halved_differences, (np.linspace(0.5, 1.5, 5),), ["1.0 / 4.0", ("2.0 * d", "* 2.0, d"),
                                                       "-2.0"]),
    (scalar_square, (1.5, 2.0), ["1.0 / 2.0", "6.0 * (a * a)"]),
])
def test_adjoint_literals_are_floats(path, f, args, floats):
    """The user's int literals (`x * 2`, `x ** 3`, `x / 2`) are floats where they meet an
    adjoint in the generated code, as the templates are expanded: no int is an operand
    of the backward sweep's arithmetic."""
    df = on_path(s2s_ad.grad(f, wrt=tuple(range(len(args)))), path)
    got = df(*args)
    for k, g in enumerate(got):
        np.testing.assert_allclose(g, numeric_grad(f, list(args), k), rtol=1e-6, atol=1e-8)
    source = s2s_ad.derivative_source(df) if path == "general" else \
        s2s_ad.derivative_source(df, *args)
    backward = source.split("# grad of", 1)[-1].split("\n", 1)[-1]
    for text in floats:
        assert any(t in backward for t in (text if isinstance(text, tuple) else (text,))), \
            (text, source)
    assert not re.findall(r"[*/+-] -?\d+(?![.\d])", backward), source


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
