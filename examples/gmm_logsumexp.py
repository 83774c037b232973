"""A Gaussian mixture's log-likelihood through scipy.special.logsumexp, differentiated with
respect to the means, the log standard deviations and the mixture logits, and checked
against central differences (exits with status 1 if they disagree). Needs scipy
(`pip install s2s_ad[scipy]`).

Run: python examples/gmm_logsumexp.py
"""
import sys

import numpy as np
from scipy.special import log_softmax, logsumexp

import s2s_ad


def log_likelihood(means, log_sigmas, logits, data):
    """sum over points of log sum_k pi_k N(x | mu_k, sigma_k), 1-D components"""
    sigmas = np.exp(log_sigmas)
    z = (data[:, None] - means[None, :]) / sigmas[None, :]
    log_normal = -0.5 * z ** 2 - log_sigmas[None, :] - 0.5 * np.log(2.0 * np.pi)
    return np.sum(logsumexp(log_normal + log_softmax(logits)[None, :], axis=1))


def central_differences(f, args, k, eps=1e-6):
    x = args[k]
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = eps
        plus, minus = list(args), list(args)
        plus[k], minus[k] = x + e, x - e
        g[i] = (f(*plus) - f(*minus)) / (2 * eps)
    return g


def main():
    rng = np.random.default_rng(0)
    data = np.concatenate([rng.normal(-2.0, 0.5, 40), rng.normal(1.5, 1.0, 60)])
    params = (np.array([-1.0, 0.5, 2.0]), np.array([0.1, -0.2, 0.3]), np.array([0.2, 0.0, -0.1]))
    gradients = s2s_ad.grad(log_likelihood, wrt=(0, 1, 2))(*params, data)
    worst = 0.0
    for k, (name, gradient) in enumerate(zip(("means", "log_sigmas", "logits"), gradients)):
        expected = central_differences(log_likelihood, params + (data,), k)
        worst = max(worst, float(np.max(np.abs(gradient - expected))))
        if not np.allclose(gradient, expected, rtol=1e-5, atol=1e-6):
            print(f"gradient in {name} differs from central differences:\n"
                  f"{gradient}\n{expected}")
            return 1
    print(f"log-likelihood {log_likelihood(*params, data):.6f}; gradients in the means, log "
          f"standard deviations and logits match central differences (max |difference| "
          f"{worst:.2e})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
