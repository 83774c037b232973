"""Indexing and shape manipulation: getitem, transpose, reshape, stacking, ..."""
import operator

from s2s_ad.ad.template_dsl import adjoint, d


@adjoint(operator.getitem)
def getitem_adjoint(y, x, index):
    """y = x[index]: the adjoint lands on the selected elements (repeats accumulate)."""
    d[x][index] += d[y]
