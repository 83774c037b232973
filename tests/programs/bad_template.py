"""A malformed template: it assigns an adjoint instead of adding to it."""

from s2s_ad import adjoint, d


def not_registered_anywhere(x):
    return x


@adjoint(not_registered_anywhere)
def wrong_adjoint(y, x):
    d[x] = d[y]
