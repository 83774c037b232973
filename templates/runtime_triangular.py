"""Templates of the triangular helpers in runtime_triangular.py (cholesky's adjoint and
tangent call them), for grad of grad and forward over reverse.

y = inv(tril(a)) reads only a's lower triangle: d y = -y tril(da) y, and the adjoint is
that map's transpose restricted to the lower triangle."""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime_triangular import lower_inverse


@adjoint(lower_inverse)
def lower_inverse_adjoint(y, l):
    """a_bar = tril(-y^T y_bar y^T)"""
    _yt = np.swapaxes(y, -1, -2)
    d[l] += np.tril(-(_yt @ d[y] @ _yt))


@tangent(lower_inverse)
def lower_inverse_tangent(y, l):
    """dy = -y tril(dl) y"""
    d[y] = -(y @ np.tril(d[l]) @ y)
