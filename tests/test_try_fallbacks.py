"""`try` blocks whose handler computes a fallback (issue 15): the derivative follows the
path f's run took (the body when it completed, the handler when it raised) and only that
one, on both derivative paths, in loops, with `except (A, B) as e`, `else:`; `except E:
raise` is the body alone; what the rule cannot follow is a located error."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, check_against_differences, grad_on, jvp_on


def log_det_jittered(x):
    k = np.outer(x, x)                       # rank one: cholesky fails for 3 values
    if x[0] > 5.0:
        k = k + np.eye(x.size)
    try:
        chol = np.linalg.cholesky(k)
    except np.linalg.LinAlgError:
        chol = np.linalg.cholesky(k + 0.1 * np.eye(x.size))
    return np.sum(np.log(np.diag(chol)))


def in_a_loop(x):
    total = 0.0
    for i in range(4):
        k = np.outer(x, x) * (i - 1.5) + 0.2 * np.eye(3)   # PD for i = 2, 3 only
        try:
            chol = np.linalg.cholesky(k)
            chol = chol * x[0]
        except (np.linalg.LinAlgError, ValueError) as err:
            chol = np.tanh(k) * x[1]
        total = total + np.sum(chol * chol)
    return total


def saves_shapes(x):
    """the body saves a value by its shape only (`_tape.append(shape_of(m))`): what is put
    back is the value, never the helper"""
    total = 0.0
    for i in range(3):
        try:
            k = np.outer(x, x) * (i - 0.5) + 0.1 * np.eye(3)
            m = k * x[0]
            chol = np.linalg.cholesky(m)
        except np.linalg.LinAlgError:
            k = np.eye(3)
            m = k * x[1]
            chol = np.tanh(m)
        total = total + np.sum(chol * x)
    return total


def with_else(x):
    a = np.diag(x * np.array([1.0, 0.0, 1.0]))      # singular unless x[0] > 5
    if x[0] > 5.0:
        a = a + np.eye(3)
    try:
        y = np.linalg.solve(a, x)
    except np.linalg.LinAlgError:
        y = np.sin(x)
    else:
        y = y * np.cos(x)
    return np.sum(y * x)


def raises_for_several(x):
    try:
        y = np.linalg.solve(np.diag(x), x * x)
    except (np.linalg.LinAlgError, ValueError) as err:
        raise RuntimeError("singular")
    return np.sum(np.sin(y) * x)


def reraised(x):
    try:
        y = np.linalg.inv(np.diag(x))
    except np.linalg.LinAlgError:
        raise
    return np.sum(y)


X3 = np.array([1.0, 2.0, 3.0])


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, x", [
    (log_det_jittered, X3),                         # the handler's path
    (log_det_jittered, X3 + 5.0),                   # the body's path
    (in_a_loop, np.array([0.7, -0.4, 0.9])),        # both, in one run
    (saves_shapes, np.array([0.5, -0.3, 0.8])),
    (with_else, X3),                                # the handler
    (with_else, X3 + 5.0),                          # the body and its else
    (reraised, X3),
    (raises_for_several, X3),
])
def test_gradient_of_the_path_taken(f, x, path):
    check_against_differences(path, f, x, second_order=False)


@pytest.mark.parametrize("second", ["hvp", "grad of grad"])
def test_second_order_is_a_located_error(second, monkeypatch):
    """Located at the user's `except` (it was the generated gradient's file), also as
    users run it, without the tests' strict passes (the general derivative's error then
    follows the specialised one's)."""
    for strict in (True, False):
        if not strict:
            monkeypatch.delenv("S2S_AD_STRICT_PASSES", raising=False)
        with pytest.raises(s2s_ad.UnsupportedSyntaxError) as info:
            if second == "hvp":
                s2s_ad.hvp(log_det_jittered)(X3, X3)
            else:
                s2s_ad.grad(lambda x: np.sum(s2s_ad.grad(log_det_jittered)(x) ** 2))(X3)
        assert "second derivatives" in str(info.value) and "^" in str(info.value)
        assert info.value.filename == __file__
        assert info.value.lineno == log_det_jittered.__code__.co_firstlineno + 6
        assert "except np.linalg.LinAlgError:" in str(info.value)


@pytest.mark.parametrize("path", PATHS)
def test_the_body_raising_late_puts_the_tape_back(path):
    """The body saved values on the tape before it raised: a later iteration's backward
    sweep must see the tape and the values as before the body started."""
    x = np.array([0.7, -0.4, 0.9])
    source = s2s_ad.derivative_source(grad_on(path, in_a_loop), x)
    assert "del _tape[completed[0]:]" in source
    jvp_on(path, in_a_loop, (x,), np.ones(3))


@pytest.mark.parametrize("path", PATHS)
def test_reraise_raises(path):
    with pytest.raises(np.linalg.LinAlgError):
        grad_on(path, reraised)(np.array([1.0, 0.0, 2.0]))
    with pytest.raises(RuntimeError, match="singular"):
        grad_on(path, raises_for_several)(np.array([1.0, 0.0, 2.0]))


def reads_the_partial_value(x):
    try:
        y = np.linalg.inv(np.diag(x))
    except np.linalg.LinAlgError:
        y = y * 0.0
    return np.sum(y)


def binds_less(x):
    try:
        y = np.sin(x)
        z = np.linalg.inv(np.diag(x))
    except np.linalg.LinAlgError:
        z = np.zeros((3, 3))
    return np.sum(z) + np.sum(y)


def writes_an_item(x):
    y = np.zeros(3)
    try:
        y[0] = np.sum(np.linalg.inv(np.diag(x)))
    except np.linalg.LinAlgError:
        y = x * 1.0
    return np.sum(y)


def reads_the_exception(x):
    try:
        y = np.linalg.inv(np.diag(x))
    except np.linalg.LinAlgError as err:
        y = np.zeros((3, 3)) + len(str(err))
    return np.sum(y)


def fallback_and_finally(x):
    try:
        y = np.linalg.inv(np.diag(x))
    except np.linalg.LinAlgError:
        y = np.zeros((3, 3))
    finally:
        print("done")
    return np.sum(y)


def raises_inside_a_fallback(x):
    try:
        y = np.linalg.inv(np.diag(x))
    except np.linalg.LinAlgError:
        if x[0] > 0.0:
            raise
        y = np.zeros((3, 3))
    return np.sum(y)


@pytest.mark.parametrize("f, words", [
    (reads_the_partial_value, "the handler reads `y`"),
    (binds_less, "the handler does not bind `y`"),
    (writes_an_item, "may hold only assignments to names"),
    (reads_the_exception, "reads the exception `err`"),
    (fallback_and_finally, "cannot have a `finally` block"),
    (raises_inside_a_fallback, "a bare `raise`"),
])
def test_what_the_rule_cannot_follow_is_located(f, words):
    with pytest.raises(s2s_ad.UnsupportedSyntaxError) as info:
        s2s_ad.grad(f)(X3)
    text = str(info.value)
    assert words in text and "test_try_fallbacks.py" in text and "^" in text


SOURCE = '''
import warnings

import numpy as np


def loss(x):
    k = np.outer(x, x)
    try:
        chol = np.linalg.cholesky(k)
    except np.linalg.LinAlgError:
        chol = np.linalg.cholesky(k + 0.1 * np.eye(3))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = np.sum(np.log(np.diag(chol)))
    return y + 0.0 * len(caught)
'''


@pytest.mark.slow
def test_cli_writes_a_standalone_gradient(tmp_path):
    """the fallback `try` and `with ... as` written out, without s2s_ad's markers"""
    import importlib.util
    from gradcheck import numeric_grad
    from test_cli import run
    (tmp_path / "fallback_model.py").write_text(SOURCE)
    out = run(tmp_path, "grad", "fallback_model.py:loss", "--signature", "x: float64[N]",
              "-o", "g.py")
    assert out.returncode == 0, out.stderr
    text = (tmp_path / "g.py").read_text()
    assert "except np.linalg.LinAlgError:" in text and "as caught:" in text
    assert "body_completes" not in text and "context_bound" not in text
    spec = importlib.util.spec_from_file_location("g_fallback", tmp_path / "g.py")
    written = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(written)
    namespace = {}
    exec(compile(SOURCE, "fallback_model", "exec"), namespace)
    np.testing.assert_allclose(written.grad_loss(X3), numeric_grad(namespace["loss"], (X3,), 0),
                               rtol=1e-6)


def names_used_only_in_the_body(x):
    # `chol` and `d` are read only in the body after it binds them: whatever a body cut
    # short left in them is never read, so the handler need not bind them
    k = np.outer(x, x) + (0.2 if x[0] > 0.0 else -0.2) * np.eye(3)   # PD when x[0] > 0
    try:
        chol = np.linalg.cholesky(k)
        d = np.diag(chol)
        step = np.sum(np.log(d)) + np.sum(chol * chol)
    except np.linalg.LinAlgError:
        step = np.sum(np.tanh(k))
    return step * x[1]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("x0", [0.4, -0.4])       # the body completes / the handler runs
def test_a_name_read_only_after_the_body_binds_it_needs_no_handler_binding(path, x0):
    check_against_differences(path, names_used_only_in_the_body, np.array([x0, -0.3, 0.7]),
                              second_order=False)


def reads_it_again_next_iteration(x):
    y = x
    for i in range(3):
        try:
            y = np.linalg.inv(np.diag(y)) @ x
            s = np.sum(y)
        except np.linalg.LinAlgError:
            s = 0.0
    return s


def test_a_body_reading_its_previous_binding_still_needs_the_handler_to_bind_it():
    with pytest.raises(s2s_ad.UnsupportedSyntaxError) as info:
        s2s_ad.grad(reads_it_again_next_iteration)(X3)
    assert "the handler does not bind `y`" in str(info.value)
