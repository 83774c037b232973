"""Elementwise numpy functions."""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d


@adjoint(np.exp)
def exp_adjoint(y, x):
    d[x] += d[y] * y


@adjoint(np.log)
def log_adjoint(y, x):
    d[x] += d[y] / x


@adjoint(np.sin)
def sin_adjoint(y, x):
    d[x] += d[y] * np.cos(x)


@adjoint(np.cos)
def cos_adjoint(y, x):
    d[x] += -d[y] * np.sin(x)


@adjoint(np.tanh)
def tanh_adjoint(y, x):
    d[x] += d[y] * (1.0 - y * y)
