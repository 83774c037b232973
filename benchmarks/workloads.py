"""Benchmark workloads: each pairs a function, the arguments to differentiate, and a
hand-written numpy gradient of the same function (written the way a competent numpy
programmer would write it, returning the gradients in the same order as s2s_ad).

Imported by benchmarks/run.py, which sets the BLAS thread count before numpy is imported.
"""
import os
import sys
from dataclasses import dataclass
from typing import Callable, Tuple

import numpy as np

_EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")
if _EXAMPLES not in sys.path:
    sys.path.insert(0, _EXAMPLES)

import logistic_regression  # noqa: E402  (examples/)
import mlp  # noqa: E402
import seed_example  # noqa: E402


@dataclass
class Workload:
    name: str            # row label
    func: Callable       # the function s2s_ad differentiates
    wrt: object          # s2s_ad.grad(func, wrt=wrt)
    hand: Callable       # hand-written gradient, same signature and return layout as df
    args: Tuple          # the benchmark inputs
    scalar: bool = False  # Python-float workload (target 1.3 instead of 1.15)


# ---- 1. logistic regression -------------------------------------------------------------
def logreg_workload(n, dim):
    X, y = logistic_regression.make_data(n=n, dim=dim, seed=0)
    w = np.random.default_rng(1).standard_normal(dim) * 0.1
    # examples/logistic_regression.py: sigmoid, then X.T @ (p - y) / N
    return Workload(f"logreg NLL N={n} D={dim}", logistic_regression.negative_log_likelihood,
                    0, logistic_regression.hand_written_gradient, (w, X, y))


# ---- 2. two-layer MLP -------------------------------------------------------------------
MLP_FEATURES, MLP_CLASSES = 784, 10


def mlp_workload(batch, hidden):
    params = mlp.make_problem(batch=batch, features=MLP_FEATURES, hidden=hidden,
                              classes=MLP_CLASSES, seed=0)
    # examples/mlp.py: standard softmax-cross-entropy backprop, four gradients
    return Workload(f"MLP batch={batch} hidden={hidden}", mlp.mlp_loss, (0, 1, 2, 3),
                    mlp.hand_written_gradient, params)


# ---- 3. the seed example on Python floats -----------------------------------------------
def seed_hand_gradient(x1, x2):
    """d/dx1, d/dx2 of exp(2 x1) + x1 x2^2 + cos(x2), with numpy functions on floats."""
    return 2.0 * np.exp(2.0 * x1) + x2 * x2, 2.0 * x1 * x2 - np.sin(x2)


def seed_workload():
    return Workload("seed example (floats)", seed_example.f, (0, 1), seed_hand_gradient,
                    (1.0, 2.0), scalar=True)


# ---- 4. layer-norm-like reduction kernel ------------------------------------------------
def layer_norm_loss(x, gamma, beta):
    mu = np.mean(x, axis=-1, keepdims=True)
    var = np.mean((x - mu) ** 2, axis=-1, keepdims=True)
    xhat = (x - mu) / np.sqrt(var + 1e-5)
    return np.sum((gamma * xhat + beta) ** 2)


def layer_norm_hand_gradient(x, gamma, beta):
    mu = np.mean(x, axis=-1, keepdims=True)
    xc = x - mu
    var = np.mean(xc * xc, axis=-1, keepdims=True)
    inv_std = 1.0 / np.sqrt(var + 1e-5)
    xhat = xc * inv_std
    g = 2.0 * (gamma * xhat + beta)          # d loss / d output
    dgamma = np.sum(g * xhat, axis=0)
    dbeta = np.sum(g, axis=0)
    dxhat = g * gamma
    # the usual closed form of the normalisation's backward pass
    dx = inv_std * (dxhat - np.mean(dxhat, axis=-1, keepdims=True)
                    - xhat * np.mean(dxhat * xhat, axis=-1, keepdims=True))
    return dx, dgamma, dbeta


def layer_norm_workload(rows=256, cols=512):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((rows, cols))
    gamma = 1.0 + 0.1 * rng.standard_normal(cols)
    beta = 0.1 * rng.standard_normal(cols)
    return Workload(f"layer-norm loss {rows}x{cols}", layer_norm_loss, (0, 1, 2),
                    layer_norm_hand_gradient, (x, gamma, beta))


# ---- call overhead of a cached df -------------------------------------------------------
def ident(x):
    return x * 1.0


def ident_hand_gradient(x):
    return 1.0


def all_workloads():
    return [
        logreg_workload(100, 10),
        logreg_workload(10000, 100),
        mlp_workload(64, 128),
        mlp_workload(512, 512),
        seed_workload(),
        layer_norm_workload(),
    ]
