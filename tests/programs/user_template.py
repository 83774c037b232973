"""A user primitive with a user-registered template (as a user would write it)."""
import numpy as np

from s2s_ad import adjoint, d


def opaque_softplus(x):
    """Pretend this is a compiled function: s2s_ad must use the template below."""
    return np.logaddexp(0.0, x)


@adjoint(opaque_softplus)
def opaque_softplus_adjoint(y, x):
    """d softplus(x) = sigmoid(x) dx"""
    d[x] += d[y] / (1.0 + np.exp(-x))


def uses_softplus(x):
    return np.sum(opaque_softplus(x) * 2.0)
