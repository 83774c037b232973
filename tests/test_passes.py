"""Each pass of stage 7's schedule (optimize/schedule.py) on a small program: its body
before and after the pass, held byte for byte in tests/golden/passes/, a check that
the pass changes something there (a pass that changes nothing anywhere has no place in
the schedule), and a check that no pass writes into the body it is given (run_schedule
makes no copy).

Regenerate after an intended change with
    S2S_AD_UPDATE_GOLDEN=1 python -m pytest tests/test_passes.py
and read the diff of tests/golden/passes/ before committing it.
"""
import functools
import math
import os

import gast
import numpy as np
import pytest

from s2s_ad.ad.registry import default_registry
from s2s_ad.backend.emit import to_source
from s2s_ad.derivative_cache import DerivativeCache
from s2s_ad.ir import build
from s2s_ad import pipeline
from s2s_ad.optimize import schedule
from s2s_ad.optimize.schedule import FORWARD, FORWARD_GRADIENT, REVERSE
from s2s_ad.pipeline import Request, derive
from s2s_ad.signature import signature_of

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "passes")


def scaled_exp(x):
    return np.sum(np.exp(x) * 2)


def recurrent(W, xs):
    s = 0.0
    for x in xs:
        s = s + np.sum(np.tanh(W @ x))
    return s


def with_a_counter(x):
    total = 0.0
    count = 0.0
    for i in range(3):
        total = total + np.sum(x * i)
        count = count + 1.0       # read only by itself: not needed for the gradient
    return total


def layer(X, W, b):
    return np.sum(np.tanh(X @ W + b))


def logistic(w, X, y):
    p = 1.0 / (1.0 + np.exp(-(X @ w)))
    return -np.mean(y * np.log(p) + (1.0 - y) * np.log(1.0 - p))


def log_cosh(x):
    return np.sum(np.log(np.cosh(x)))     # x's adjoint: tanh(x), not sinh(x) / cosh(x)


def huber(r, delta):
    a = np.abs(r)
    return np.sum(np.where(a <= delta, 0.5 * r ** 2, delta * (a - 0.5 * delta)))


def square(x):
    return x * x


def tanh_weighted(x):
    return np.sum(np.tanh(x) * x ** 2)


def sine_steps(a, b, n):
    s = 0.0
    for _ in range(n):
        s = math.sin(a * b + s)           # its cosine in both directions' tangents
    return s


def tanh_scaled(x, y):
    """numpy on Python floats: its gradient is an np.float64 unless cast."""
    return np.tanh(x) * y


def scaled_first(x, cs):
    """Its gradient is an item of a list, which its guard lets be an int."""
    return x * cs[0]


def horner(x, a, coeffs):
    p = 0.0
    for c in coeffs:
        p = p * x + a * c
    return p


def cube_root_newton(p, t):
    x = 1.0
    for _ in range(4):
        x = x - (x * x * x + p * x - t) / (3.0 * x * x + p)   # dx_dp named five times
    return x


def log_density(S, x):
    sign, logdet = np.linalg.slogdet(S)      # its adjoint reads inv(S): the solves share it
    return 0.5 * logdet + 0.5 * x @ np.linalg.solve(S, x)


def whitened(A, B):
    L = np.linalg.cholesky(A @ A.T + np.eye(len(A)))   # B's solve: L^T inv(L)^T cancels
    Z = np.linalg.solve(L, B)
    return np.sum(Z * Z) + np.sum(np.log(np.diag(L)))


X, W, b = np.ones((4, 3)), np.ones((3, 2)), np.ones(2)
# pass -> (function, wrt, arguments to specialise on (None: the general derivative), mode)
CASES = {
    "clean up": (scaled_exp, ("x",), None, "grad"),
    # a jvp returning only the tangent (as hvp's): the value's sum is dead code
    "clean up (jvp)": (scaled_exp, ("x",), None, "jvp"),
    "accumulate in place": (recurrent, ("W",), None, "grad"),
    "dead cycles": (with_a_counter, ("x",), None, "grad"),
    "inline temporaries": (layer, ("W",), None, "grad"),
    "quotients": (log_cosh, ("x",), (np.ones(3),), "grad"),
    "where sums": (huber, ("r",), (np.ones(3), 1.0), "grad"),
    "closed forms": (logistic, ("w",), (np.ones(3), X, np.ones(4)), "grad"),
    "gradient types (integers)": (square, ("x",), None, "grad"),
    "gradient types (floats)": (tanh_scaled, ("x", "y"), (0.3, 0.7), "grad"),
    "shared inverses": (log_density, ("S",), (2.0 * np.eye(3), np.ones(3)), "grad"),
    "cholesky products": (whitened, ("A",), (np.eye(3), np.ones((3, 2))), "grad"),
    "in-place arithmetic": (tanh_weighted, ("x",), (np.ones(5),), "grad"),
    # a gradient of number code, built in forward mode (ad/forward_gradient.py)
    "shared calls": (sine_steps, ("a", "b"), (0.3, 2.0, 3), "grad"),
    "inline number temporaries": (horner, ("x", "a"), (0.7, 1.5, (1.0, 2.0)), "grad"),
    "tangent forms": (cube_root_newton, ("p",), (2.0, 3.0), "grad"),
    "item loops": (horner, ("x", "a"), (0.7, 1.5, [1.0, 2.0]), "grad"),
    "gradient types (items)": (scaled_first, ("x",), (np.float64(2.0), [1.5, 2.5]), "grad"),
}


def traced(name):
    """{pass name: (before, after)} for the derivative of CASES[name]."""
    func, wrt, args, mode = CASES[name]
    seen = {}

    def trace(step, before, after):
        seen[step] = (_text(before), _text(after))
    signature = None if args is None else tuple(zip(func.__code__.co_varnames,
                                                    signature_of(args)))
    request = Request(mode, wrt, signature=signature, trace=trace, tangent_only=mode == "jvp",
                      single=len(wrt) == 1)
    derive(func, request, default_registry(), DerivativeCache())
    return seen


def _text(body):
    return to_source(build.function_def("body", [], body.statements()))


def test_every_pass_has_a_case():
    names = {p.name for p in REVERSE + FORWARD + FORWARD_GRADIENT}
    assert names == {n.split(" (")[0] for n in CASES}


@pytest.mark.parametrize("name", sorted(CASES))
def test_pass_before_and_after(name):
    before, after = traced(name)[name.split(" (")[0]]
    assert before != after, f"{name} changes nothing in its case"
    text = f"# before {name}\n{before}\n# after {name}\n{after}"
    path = os.path.join(GOLDEN, name.replace(" ", "_").replace("(", "").replace(")", "") + ".txt")
    if os.environ.get("S2S_AD_UPDATE_GOLDEN"):
        os.makedirs(GOLDEN, exist_ok=True)
        with open(path, "w") as fh:
            fh.write(text)
    with open(path) as fh:
        assert text == fh.read(), f"the pass's output changed: diff against {path}"


def _checked(body, facts, run, name, seen):
    """Runs the pass; records in `seen` its name and whether the body it was given reads
    differently afterwards."""
    before = [gast.dump(s) for s in body.statements()]
    after = run(body, facts)
    seen[name] = seen.get(name, False) or [gast.dump(s) for s in body.statements()] != before
    return after


@pytest.mark.parametrize("name", sorted(CASES))
def test_pass_leaves_its_input_as_it_was(name, monkeypatch):
    """A stage never writes into its input: run_schedule makes no copy, so every pass, on
    its own case, must hand back a new body and leave the one it was given as it was
    (every statement's gast.dump before and after the pass)."""
    seen = {}
    for attr in ("REVERSE", "FORWARD", "FORWARD_GRADIENT"):
        watched = tuple(schedule.Pass(p.name, functools.partial(
            _checked, run=p.run, name=p.name, seen=seen), p.writes_arrays)
            for p in getattr(schedule, attr))
        monkeypatch.setattr(pipeline, attr, watched)
    traced(name)
    assert name.split(" (")[0] in seen, "the pass did not run on its case"
    assert [step for step, wrote in seen.items() if wrote] == []
