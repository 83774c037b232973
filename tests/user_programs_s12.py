"""Ten small programs written the way a user of autograd or JAX writes them: a model
class trained by gradient descent, a loss made by a closure, dict parameters with an
optimizer of one's own, functools.partial, a function chosen by the caller, a mixture
model's log-likelihood, an RNN over a list of parameters, an attention block, a plain
class made inside the loss, and a drawdown penalty with an import inside the function.
Each is checked in tests/test_user_programs_s12.py against central differences on both
derivative paths."""
import collections
import functools

import numpy as np

import s2s_ad


# 1. a model class trained by gradient descent on its own parameters
class TwoLayer:
    def __init__(self, rs, n_in, n_hidden):
        self.W1 = rs.randn(n_in, n_hidden) * 0.5
        self.b1 = np.zeros(n_hidden)
        self.w2 = rs.randn(n_hidden) * 0.5
        self.act = np.tanh

    def predict(self, X):
        return self.act(X @ self.W1 + self.b1) @ self.w2

    def loss(self, X, y):
        return np.mean((self.predict(X) - y) ** 2)


def train_two_layer(model, X, y, steps=3, lr=0.1):
    step = s2s_ad.grad(model.loss, wrt="self")
    for _ in range(steps):
        g = step(X, y)
        model.W1 -= lr * g.W1
        model.b1 -= lr * g.b1
        model.w2 -= lr * g.w2
    return model.loss(X, y)


# 2. a loss made by a closure, minimised with momentum in a loop
def make_ridge_loss(X, y, lam):
    def loss(w):
        r = X @ w - y
        return 0.5 * np.dot(r, r) + lam * np.sum(w ** 2)
    return loss


def momentum(loss, w, steps=5, lr=0.05, beta=0.9):
    g_of = s2s_ad.grad(loss)
    v = np.zeros_like(w)
    for _ in range(steps):
        v = beta * v + g_of(w)
        w = w - lr * v
    return w


# 3. dict parameters and an Adam written by hand
def softplus_regression(params, X, y):
    z = X @ params["w"] + params["b"]
    pred = np.log1p(np.exp(z))
    return np.mean((pred - y) ** 2) + 1e-3 * sum(np.sum(v ** 2) for v in params.values())


def adam(loss, params, data, steps=4, lr=0.01, b1=0.9, b2=0.999, eps=1e-8):
    g_of = s2s_ad.grad(loss)
    m = {k: np.zeros_like(v) for k, v in params.items()}
    s = {k: np.zeros_like(v) for k, v in params.items()}
    for t in range(1, steps + 1):
        g = g_of(params, *data)
        for k in params:
            m[k] = b1 * m[k] + (1 - b1) * g[k]
            s[k] = b2 * s[k] + (1 - b2) * g[k] ** 2
            params[k] = params[k] - lr * (m[k] / (1 - b1 ** t)) / (np.sqrt(s[k] / (1 - b2 ** t)) + eps)
    return params


# 4. functools.partial of a negative log-likelihood, a Newton step with the Hessian
def logistic_nll(w, X, y):
    z = X @ w
    return np.sum(np.logaddexp(0.0, z) - y * z)


def newton_step(w, X, y):
    nll = functools.partial(logistic_nll, X=X, y=y)
    g = s2s_ad.grad(nll)(w)
    H = s2s_ad.hessian(nll)(w)
    return w - np.linalg.solve(H + 1e-6 * np.eye(len(w)), g)


# 5. a chain of particles, the pair potential chosen by the caller
def lennard_jones(r):
    return 4.0 * ((1.0 / r) ** 12 - (1.0 / r) ** 6)


def harmonic(r):
    return 0.5 * (r - 1.0) ** 2


def chain_energy(pos, potential=harmonic):
    total = 0.0
    for i in range(len(pos) - 1):
        total = total + potential(np.abs(pos[i + 1] - pos[i]))
    return total


# 6. a Gaussian mixture's log-likelihood, written as a class
class Mixture:
    def __init__(self, means, log_sds, logits):
        self.means, self.log_sds, self.logits = means, log_sds, logits

    def log_likelihood(self, x):
        sd = np.exp(self.log_sds)
        log_w = self.logits - np.log(np.sum(np.exp(self.logits)))
        z = (x[:, None] - self.means) / sd
        comp = log_w - 0.5 * z ** 2 - self.log_sds - 0.5 * np.log(2 * np.pi)
        top = np.max(comp, axis=1, keepdims=True)
        return np.sum(top[:, 0] + np.log(np.sum(np.exp(comp - top), axis=1)))


# 7. an RNN over a list of parameters, zipped with the inputs
def rnn_loss(layers, xs, targets):
    Wx, Wh, Wy = layers
    h = np.zeros(Wh.shape[0])
    loss = 0.0
    for x, t in zip(xs, targets):
        h = np.tanh(Wx @ x + Wh @ h)
        loss += (Wy @ h - t) ** 2
    return loss / len(xs)


# 8. an attention block over dict parameters
def attention(params, X):
    q, k, v = X @ params["Wq"], X @ params["Wk"], X @ params["Wv"]
    scores = q @ k.T / np.sqrt(q.shape[1])
    scores = scores - np.max(scores, axis=1, keepdims=True)
    weights = np.exp(scores) / np.sum(np.exp(scores), axis=1, keepdims=True)
    return np.sum((weights @ v) ** 2)


# 9. a plain class made inside the loss, and its method
class Affine:
    def __init__(self, W, b):
        self.W = W
        self.b = b

    def apply(self, x):
        return np.tanh(x @ self.W + self.b)


def affine_loss(W, b, X):
    layer = Affine(W, b * 2.0)
    out = layer.apply(X)
    return np.sum(out ** 2) + np.sum(layer.W * layer.b[None, :])


# 10. a portfolio's drawdown penalty: an import inside, the running peak
def drawdown_penalty(weights, returns):
    from numpy import cumprod
    w = np.exp(weights) / np.sum(np.exp(weights))
    wealth = cumprod(1.0 + returns @ w)
    peak = np.maximum.accumulate(wealth)
    return np.mean(((peak - wealth) / peak) ** 2) - 0.1 * np.log(wealth[-1])


Params = collections.namedtuple("Params", "scale shift")


# 11. a namedtuple of parameters, value_and_grad in a loop
def namedtuple_fit(p, x, y):
    return np.sum((p.scale * np.sin(x) + p.shift - y) ** 2)


# 12. a Gaussian process's negative log marginal likelihood with scipy.stats
def gp_negative_log_likelihood(log_params, X, y):
    from scipy.stats import multivariate_normal as mvn
    amplitude, lengthscale, noise = np.exp(log_params)
    sq = (X[:, None] - X[None, :]) ** 2
    K = amplitude * np.exp(-0.5 * sq / lengthscale ** 2) + (noise + 1e-6) * np.eye(len(X))
    return -mvn.logpdf(y, np.zeros(len(X)), K)


# 13. a robust regression with Student's t noise
def student_t_regression(w, X, y, df):
    from scipy import stats
    return -np.sum(stats.t.logpdf(y, df, X @ w, 0.5))
