"""A malformed template: it assigns an adjoint instead of adding to it."""

from s2s_ad import adjoint, d


def not_registered_anywhere(x):
    return x


@adjoint(not_registered_anywhere)
def wrong_adjoint(y, x):
    d[x] = d[y]


def scaled(x, k):
    return x * k


@adjoint(scaled)
def scaled_adjoint(y, x):          # forgot k
    d[x] += d[y] * 2.0
