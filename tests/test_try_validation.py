"""`try` blocks whose handler raises (input validation around a factorisation; issue 15
point 3): the derivative's forward sweep keeps the same `try`, so it raises what f
raises, and its gradient is f's. grad, jvp and hvp on both derivative paths against
differences; a `finally` block runs in the derivative as in f, also when the body raises;
several handlers, `else` with `finally` are located errors saying
what to write; the CLI writes a standalone file."""
import importlib.util

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, check_against_differences, grad_on
from gradcheck import numeric_grad
from test_cli import run


def log_det(x):
    a = np.reshape(x, (3, 3))
    spd = a @ a.T + 0.5 * np.eye(3)
    try:
        chol = np.linalg.cholesky(spd)
    except np.linalg.LinAlgError:
        raise ValueError("the matrix is not positive definite")
    return 2.0 * np.sum(np.log(np.diag(chol)))


def solve_checked(x):
    a = np.reshape(x[:9], (3, 3)) + 3.0 * np.eye(3)
    try:
        y = np.linalg.solve(a, x[9:])
    except np.linalg.LinAlgError as err:
        raise ValueError("singular system") from err
    else:
        z = np.tanh(y)
    return np.sum(z * y)


def returns_in_try(x):
    try:
        return np.sum(np.sin(x) ** 2)
    except Exception:
        raise RuntimeError


def validated_and_quiet(x):
    with np.errstate(divide="ignore"):
        y = np.log(x)
    try:
        z = np.linalg.solve(np.diag(x) + 1.0, y)
    except np.linalg.LinAlgError:
        raise ValueError("singular")
    return np.sum(z * x)


def checked_solve(a, b):
    try:
        return np.linalg.solve(a, b)
    except np.linalg.LinAlgError:
        raise ValueError("singular system")


def calls_a_validating_helper(x):
    a = np.reshape(x, (3, 3)) + 3.0 * np.eye(3)
    return np.sum(checked_solve(a, x[:3]) ** 2)


X9 = np.array([1.0, 0.2, 0.1, 0.3, 1.5, 0.2, 0.0, 0.4, 2.0])
X12 = np.concatenate([X9 * 0.3, [0.5, -1.0, 0.7]])


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, x", [(log_det, X9), (solve_checked, X12),
                                  (returns_in_try, X9), (validated_and_quiet, X9 + 0.5),
                                  (calls_a_validating_helper, X9)])
def test_gradient_of_the_validated_path(f, x, path):
    check_against_differences(path, f, x)


def factor(a):
    try:
        chol = np.linalg.cholesky(a)
    except np.linalg.LinAlgError:
        raise ValueError("the matrix is not positive definite")
    return np.sum(chol)


@pytest.mark.parametrize("path", PATHS)
def test_derivative_raises_what_f_raises(path):
    spd = np.array([[2.0, 0.3], [0.3, 1.0]])
    grad_on(path, factor)(spd)                  # built and run on a valid input
    with pytest.raises(ValueError, match="not positive definite"):
        grad_on(path, factor)(-spd)
    with pytest.raises(ValueError, match="not positive definite"):
        s2s_ad.jvp(factor)(-spd, spd)


def two_handlers(x):
    try:
        y = np.log(x)
    except ValueError:
        raise RuntimeError("a")
    except TypeError:
        raise RuntimeError("b")
    return np.sum(y)


def else_and_finally(x):
    try:
        y = np.log(x)
    except ValueError:
        raise RuntimeError("a")
    else:
        y = y * 2.0
    finally:
        print("done")
    return np.sum(y)


@pytest.mark.parametrize("f, words", [
    (two_handlers, "several `except` clauses"),
    (else_and_finally, "both `else` and `finally`"),
])
def test_other_handlers_are_located(f, words):
    with pytest.raises(s2s_ad.UnsupportedSyntaxError) as info:
        s2s_ad.grad(f)(X9)
    assert words in str(info.value) and "test_try_validation.py" in str(info.value)


def logs_finally(a):
    try:
        chol = np.linalg.cholesky(a)
    except np.linalg.LinAlgError:
        raise ValueError("not positive definite")
    finally:
        print("factorised")
    return np.sum(np.log(np.diag(chol)))


def binds_in_finally(x):
    total = 0.0
    for v in x:
        try:
            total = total + np.sin(v) * v
        finally:
            scale = 2.0 * v
    return total * scale


@pytest.mark.parametrize("path", PATHS)
def test_finally_runs_on_both_paths(path, capsys):
    spd = np.array([[2.0, 0.3], [0.3, 1.0]])
    np.testing.assert_allclose(grad_on(path, logs_finally)(spd),
                               numeric_grad(logs_finally, (spd,), 0), rtol=1e-6)
    capsys.readouterr()
    with pytest.raises(ValueError, match="not positive definite"):
        grad_on(path, logs_finally)(-spd)
    assert capsys.readouterr().out == "factorised\n"     # as f prints before raising
    check_against_differences(path, binds_in_finally, X9)


SOURCE = '''
import numpy as np


def loss(a):
    try:
        chol = np.linalg.cholesky(a @ a.T + np.eye(2))
    except np.linalg.LinAlgError:
        raise ValueError("not positive definite")
    return np.sum(np.log(np.diag(chol)))
'''


@pytest.mark.slow
def test_cli_writes_a_standalone_gradient(tmp_path):
    (tmp_path / "try_model.py").write_text(SOURCE)
    out = run(tmp_path, "grad", "try_model.py:loss", "-o", "g.py")
    assert out.returncode == 0, out.stderr
    text = (tmp_path / "g.py").read_text()
    assert "except np.linalg.LinAlgError:" in text and "guard_enter" not in text
    spec = importlib.util.spec_from_file_location("g_try", tmp_path / "g.py")
    written = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(written)
    namespace = {}
    exec(compile(SOURCE, "try_model", "exec"), namespace)
    a = np.array([[1.0, 0.3], [-0.2, 0.8]])
    np.testing.assert_allclose(written.grad_loss(a), numeric_grad(namespace["loss"], (a,), 0),
                               rtol=1e-6)
