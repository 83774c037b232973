"""A template's test on an operand the statement binds to a literal is decided when the
template is expanded (ad/expand.py TemplateSubstituter, ir/build.literal_test), not by a
later fold of the generated code: pow's `b - (b != 0)` of a literal exponent is `b - 1`,
svd's `y if compute_uv else np.linalg.svd(...)` and qr's `... if mode == "r" else y`
are the branch taken. The backward sweep as generated (before stage 7's first pass, read
through the schedule's trace) holds no such test; the gradients are checked against
central differences on both derivative paths."""
import gast
import numpy as np
import pytest

from derivative_paths import PATHS, check_against_differences, grads_against_differences
from s2s_ad.ad.registry import default_registry
from s2s_ad.backend.emit import to_source
from s2s_ad.derivative_cache import DerivativeCache
from s2s_ad.ir import build
from s2s_ad.pipeline import Request, derive
from s2s_ad.signature import signature_of


def as_generated(func, args, mode="grad"):
    """The derivative's body as the generator wrote it: what stage 7's first pass is given."""
    seen = []

    def trace(step, before, after):
        if not seen:
            seen.append(to_source(build.function_def("body", [], before.statements())))
    names = func.__code__.co_varnames[:func.__code__.co_argcount]
    request = Request(mode, (names[0],), signature=tuple(zip(names, signature_of(args))),
                      trace=trace, tangent_only=mode == "jvp", single=True)
    derive(func, request, default_registry(), DerivativeCache())
    return seen[0]


def cubed(x):
    return np.sum(x ** 3 - 2.0 * x ** 2)


def to_a_power(x, p):
    return np.sum(np.abs(x) ** p)


def svd_loss(M):
    U, s, Vt = np.linalg.svd(M, full_matrices=False)
    return np.sum(s ** 2) + np.sum(s[0] * U[:, 0] * Vt[0, :].sum())


def singular_values(M):
    return np.sum(np.linalg.svd(M, compute_uv=False) ** 2)


def qr_loss(M):
    Q, R = np.linalg.qr(M)
    return np.sum(np.abs(np.diag(R))) + np.sum(Q[:, 0] ** 3)


@pytest.mark.parametrize("mode", ["grad", "jvp"])
def test_a_literal_exponent_is_decided_in_the_template(mode):
    source = as_generated(cubed, (np.array([0.5, -1.5, 2.0]),), mode)
    assert "!=" not in source
    if mode == "jvp":       # (the reverse generator folds the adjoint's powers itself)
        assert "x ** (3 - 1)" in source and "x ** (2 - 1)" in source


def test_an_exponent_not_known_keeps_its_test():
    source = as_generated(to_a_power, (np.array([0.5, -1.5, 2.0]), 2.5))
    assert "p - (p != 0)" in source


@pytest.mark.parametrize("func", [svd_loss, singular_values, qr_loss])
def test_a_literal_mode_picks_the_branch_in_the_template(func):
    source = as_generated(func, (np.array([[2.0, 0.3, 0.1], [0.4, 1.5, -0.2],
                                           [0.1, -0.3, 1.1], [0.5, 0.2, 0.7]]),))
    assert " if True else" not in source and " if False else" not in source
    assert "== 'r'" not in source and '== "r"' not in source


@pytest.mark.parametrize("path", PATHS)
def test_the_gradients_hold(path):
    check_against_differences(path, cubed, np.array([0.5, -1.5, 2.0]))
    grads_against_differences(path, to_a_power, (np.array([0.5, -1.5, 2.0]), 2.5), (0, 1))
    M = np.array([[2.0, 0.3, 0.1], [0.4, 1.5, -0.2], [0.1, -0.3, 1.1], [0.5, 0.2, 0.7]])
    for func in (svd_loss, singular_values, qr_loss):
        grads_against_differences(path, func, (M,), (0,), rtol=1e-5, atol=1e-7)


def _test(text):
    return gast.parse(text).body[0].value


@pytest.mark.parametrize("text, truth", [
    ("True", True), ("0", False), ("3 != 0", True), ("0 != 0", False), ("-1 == -1", True),
    ("2.0 == 2", True), ("'reduced' == 'r'", False), ("'r' == 'r'", True),
    ("None is None", True), ("None is not None", False), ("1.5 is None", False),
    ("b != 0", None), ("1 < 2", None), ("1.5 is 1.5", None), ("0.5", None), ("x", None),
])
def test_literal_test(text, truth):
    assert build.literal_test(_test(text)) == truth
