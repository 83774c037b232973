"""`with` blocks of managers that change what is reported, never a value (np.errstate,
np.printoptions, warnings.catch_warnings; issue 15 point 3): the derivative runs the
block's statements under the same manager in its forward sweep, and their backward
sweep under it too. grad, jvp and hvp on both derivative paths against differences;
errstate "raise" still raises; warnings silenced in f stay silent in the derivative,
backward sweep included; other managers are located errors naming them; the CLI writes
a standalone file."""
import contextlib
import importlib.util
import warnings

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, check_against_differences, grad_on
from gradcheck import numeric_grad
from test_cli import run


def log_quietly(x):
    with np.errstate(divide="ignore", invalid="ignore"):
        y = np.log(x)
    return np.sum(y * x)


def filtered_in_loop(x):
    s = 0.0
    for k in range(3):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            s = s + np.sum(np.sqrt(x) * (k + 1.0))
    return s


def returns_inside(x):
    with np.errstate(all="raise"):
        return np.sum(np.log(x) ** 2)


def nested_with_print_options(x):
    with np.printoptions(precision=3):
        with np.errstate(over="ignore"):
            z = np.exp(x) * x
        w = np.tanh(z)
    return np.sum(w * w)


def quiet_root(v):
    with np.errstate(invalid="ignore"):
        return np.sqrt(v)


def calls_helpers_with_blocks(x):
    def inner(v):                      # inlined: its return inside the block is a flag
        with np.errstate(invalid="ignore"):
            if np.sum(v) > 100.0:
                return v
            return np.sqrt(v) * v
    return np.sum(inner(x) * x) + np.sum(quiet_root(x) ** 3)


X = np.array([0.3, 1.2, 0.5, 2.0])


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [log_quietly, filtered_in_loop, returns_inside,
                               nested_with_print_options, calls_helpers_with_blocks])
def test_same_values_as_without_the_block(f, path):
    check_against_differences(path, f, X)


def divides_quietly(x, z):
    with np.errstate(all="ignore"):
        y = x / z
    return np.sum(np.where(np.isfinite(y), y, 0.0))


@pytest.mark.parametrize("path", PATHS)
def test_backward_sweep_runs_under_the_manager(path):
    # z has a zero: x / z warns in the forward sweep and y_bar / z in the backward one;
    # f silences both, and so does its derivative
    grad = grad_on(path, divides_quietly)
    assert grad.__name__  # built
    z = np.array([1.0, 0.0, 2.0, -1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        divides_quietly(X, z)
        g = grad(X, z)
    np.testing.assert_allclose(g[[0, 2, 3]], 1.0 / z[[0, 2, 3]])
    assert s2s_ad.derivative_source(s2s_ad.grad(divides_quietly)).count(
        "with np.errstate(all='ignore'):") >= 2


@pytest.mark.parametrize("path", PATHS)
def test_errstate_raise_still_raises(path):
    with pytest.raises(FloatingPointError):
        returns_inside(np.array([0.0, 1.0]))
    with pytest.raises(FloatingPointError):
        grad_on(path, returns_inside)(np.array([0.0, 1.0]))


def filter_outside_a_block(x):
    y = x * 2.0
    warnings.simplefilter("default")        # no `with`: set once, by the forward sweep
    z = np.sin(y)
    return np.sum(z * y)


@pytest.mark.parametrize("path", PATHS)
def test_a_filter_outside_a_block_is_not_set_again(path):
    # a block's filters are set again where its backward sweep begins; a filter that opens
    # no block was copied into the backward sweep too (the walk took every statement for
    # a block's end when f has no `with` block)
    with warnings.catch_warnings():
        check_against_differences(path, filter_outside_a_block, X)
        derivative = grad_on(path, filter_outside_a_block)
        source = s2s_ad.derivative_source(derivative, *([X] if path == "specialised" else []))
    assert source.count("warnings.simplefilter('default')") == 1, source


def opens_file(x):
    with open("f") as fh:
        return x * len(fh.read())


def suppresses(x):
    with contextlib.suppress(ValueError):
        x = np.linalg.cholesky(x)
    return np.sum(x)


def binds_a_tuple(x):
    with np.errstate(divide="ignore") as (a, b):
        y = np.log(x)
    return np.sum(y)


def counts_warnings(x):
    """The warnings the forward sweep's `with ... as w` records choose the path."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        big = np.exp(np.floor(x * 1.1) * 800.0)     # overflows (a warning) once an x > 0.91
    with np.errstate(over="ignore") as state:
        if len(caught) > 0:
            y = np.sum(np.tanh(x) * x)
        else:
            y = np.sum(np.sin(x) * x * big)
    return y


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("x", [np.array([0.1, 0.3, 0.2]), np.array([0.1, 0.95, 0.2])])
def test_as_binds_what_the_manager_gives(path, x):
    check_against_differences(path, counts_warnings, x, second_order=False)
    np.testing.assert_allclose(
        grad_on(path, counts_warnings)(x),
        np.tanh(x) + x / np.cosh(x) ** 2 if x[1] > 0.9
        else np.sin(x) + x * np.cos(x),
        rtol=1e-7)
    assert "as caught:" in s2s_ad.derivative_source(grad_on(path, counts_warnings), x)


def computed_argument(x, mode):
    with np.errstate(divide=mode):
        y = np.log(x)
    return np.sum(y)


@pytest.mark.parametrize("f, words", [
    (opens_file, "`with open(...)` cannot be differentiated"),
    (suppresses, "contextlib.suppress skips the rest of the block"),
    (binds_a_tuple, "supported binding one name"),
    (computed_argument, "literal arguments"),
])
def test_other_managers_are_located(f, words):
    args = (X, "ignore") if f is computed_argument else (X,)
    with pytest.raises(s2s_ad.UnsupportedSyntaxError) as info:
        s2s_ad.grad(f)(*args)
    assert words in str(info.value) and "test_value_preserving_with.py" in str(info.value)


SOURCE = '''
import warnings

import numpy as np


def loss(x):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(divide="ignore"):
            y = np.log(x)
    return np.sum(y * x)
'''


@pytest.mark.slow
def test_cli_writes_a_standalone_gradient(tmp_path):
    (tmp_path / "with_model.py").write_text(SOURCE)
    out = run(tmp_path, "grad", "with_model.py:loss", "-o", "g.py")
    assert out.returncode == 0, out.stderr
    text = (tmp_path / "g.py").read_text()
    assert "with np.errstate(divide='ignore'):" in text and "context_enter" not in text
    spec = importlib.util.spec_from_file_location("g_with", tmp_path / "g.py")
    written = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(written)
    namespace = {}
    exec(compile(SOURCE, "with_model", "exec"), namespace)
    np.testing.assert_allclose(written.grad_loss(X), numeric_grad(namespace["loss"], (X,), 0),
                               rtol=1e-6)
