"""Assignment expressions (`n := e`, issue 15 point 3): normalize binds the name where the
expression is evaluated, in f's scope also from inside a comprehension, and re-binds it
each time a `while` test runs. grad, jvp and hvp on both derivative paths against
differences; the forms that would need two values of one name at once are located
errors; the CLI writes a standalone file for such a function."""
import importlib.util

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, check_against_differences, grad_on
from gradcheck import numeric_grad
from test_cli import run


def halve(r):
    return 0.5 * r


def mean_square_when_long(x):
    if (n := x.shape[0]) > 2:
        return np.sum(x ** 2) / n
    return np.sum(x)


def halves_until_small(x):
    r = x
    while (s := np.sum(r ** 2)) > 0.1:
        r = halve(r)
    return s + np.sum(r * x)


def positive_sines(x):
    # y is bound in f's scope: after the comprehension it holds the last sine
    ys = [y for v in x if (y := np.sin(v)) > 0]
    return sum(ys) * y


def reuses_in_statement(x):
    t = (a := np.tanh(x)) * a + np.sum(a)
    return np.sum(t * x)


def short_circuits(x):
    total = 0.0
    for v in x:
        if v > 0 and (w := v * v) > 0.2:
            total = total + w * v
    return total


X = np.array([0.3, 1.2, -0.5, 2.0])


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [mean_square_when_long, halves_until_small, positive_sines,
                               reuses_in_statement, short_circuits])
def test_bound_where_evaluated(f, path):
    check_against_differences(path, f, X)


def test_comprehension_binding_leaks_as_in_python():
    # the last sine (of 2.0) multiplies: a name bound inside the comprehension would
    # not be read after it
    assert positive_sines(X) == pytest.approx((np.sin(0.3) + np.sin(1.2) + np.sin(2.0))
                                              * np.sin(2.0))
    np.testing.assert_allclose(s2s_ad.grad(positive_sines)(X),
                               numeric_grad(positive_sines, (X,), 0), rtol=1e-6)


def reads_then_rebinds(x):
    n = np.sum(x)
    return n + (n := 2.0 * n)


def rebinds_in_lambda(x):
    g = lambda v: (w := v * 2.0) + w
    return g(x)


@pytest.mark.parametrize("f, words", [
    (reads_then_rebinds, "`n` is read before the `:=` that rebinds it"),
    (rebinds_in_lambda, "in a lambda"),
])
def test_forms_needing_two_values_are_located(f, words):
    with pytest.raises(s2s_ad.UnsupportedSyntaxError) as info:
        s2s_ad.grad(f)(X)
    assert words in str(info.value) and "test_assignment_expressions.py" in str(info.value)


SOURCE = '''
import numpy as np


def loss(x):
    if (n := x.shape[0]) > 2:
        return np.sum(np.tanh(x) ** 2) / n
    return np.sum(x)
'''


@pytest.mark.slow
def test_cli_writes_a_standalone_gradient(tmp_path):
    (tmp_path / "walrus_model.py").write_text(SOURCE)
    out = run(tmp_path, "grad", "walrus_model.py:loss", "-o", "g.py")
    assert out.returncode == 0, out.stderr
    spec = importlib.util.spec_from_file_location("g_walrus", tmp_path / "g.py")
    written = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(written)
    namespace = {}
    exec(compile(SOURCE, "walrus_model", "exec"), namespace)
    np.testing.assert_allclose(written.grad_loss(X), numeric_grad(namespace["loss"], (X,), 0),
                               rtol=1e-6)
