"""More scalar workloads of user_workloads.py: a Newton solver and a Monte-Carlo path on
Python floats, each with the gradient an expert writes by hand."""
import math

import numpy as np


# Kepler's equation E - e sin E = M, solved by a fixed number of Newton steps for each mean
# anomaly of a list; the objective sums cos E (the x coordinate of each orbit position).
def kepler_positions(e, anomalies):
    """Sum of cos(E) over the mean anomalies, E by six Newton steps each."""
    total = 0.0
    for M in anomalies:
        E = M
        for _ in range(6):
            E = E - (E - e * math.sin(E) - M) / (1.0 - e * math.cos(E))
        total = total + math.cos(E)
    return total


def kepler_positions_grad(e, anomalies):
    # at the root, dE/de = sin E / (1 - e cos E) (implicit function theorem); Newton has
    # converged to machine precision after six steps for e <= 0.5, and so has its derivative
    sin, cos = math.sin, math.cos
    g = 0.0
    for M in anomalies:
        E = M
        for _ in range(6):
            E = E - (E - e * sin(E) - M) / (1.0 - e * cos(E))
        s = sin(E)
        g -= s * s / (1.0 - e * cos(E))
    return g


def make_kepler(small=False):
    n = 8 if small else 50
    anomalies = [float(v) for v in np.linspace(0.1, 6.0, n)]
    return (0.3, anomalies)


# A geometric Brownian motion path from drawn normals (a tuple of floats), and a smooth
# payoff of its average (softplus of average minus strike): pathwise delta and vega.
def asian_softplus(S0, sigma, r, dt, K, normals):
    """log(1 + exp(mean(S_k) - K)) along one path S_k = S_(k-1) exp(drift + vol z_k)."""
    S = S0
    total = 0.0
    for z in normals:
        S = S * math.exp((r - 0.5 * sigma * sigma) * dt + sigma * math.sqrt(dt) * z)
        total = total + S
    average = total / len(normals)
    return math.log(1.0 + math.exp(average - K))


def asian_softplus_grad(S0, sigma, r, dt, K, normals):
    # S_k = S0 exp(k (r - sigma^2/2) dt + sigma sqrt(dt) W_k): dS_k/dS0 = S_k / S0,
    # dS_k/dsigma = S_k (sqrt(dt) W_k - k sigma dt)
    drift = (r - 0.5 * sigma * sigma) * dt
    vol = sigma * math.sqrt(dt)
    root_dt = math.sqrt(dt)
    S, W, total, dsigma = S0, 0.0, 0.0, 0.0
    for k, z in enumerate(normals, 1):
        S *= math.exp(drift + vol * z)
        W += z
        total += S
        dsigma += S * (root_dt * W - k * sigma * dt)
    n = len(normals)
    u = total / n - K
    weight = 1.0 / (1.0 + math.exp(-u)) / n
    return weight * total / S0, weight * dsigma


def make_asian(small=False):
    n = 12 if small else 250
    normals = tuple(float(v) for v in np.random.default_rng(11).standard_normal(n))
    return (100.0, 0.2, 0.01, 1.0 / 250, 100.0, normals)
