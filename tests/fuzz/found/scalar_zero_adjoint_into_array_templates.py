"""Found by `python -m tests.fuzz`: an array whose adjoint is accumulated, when the
branch or loop that reads it does not run, keeps the 0.0 standing for a zero adjoint;
templates that index or rearrange the adjoint then crashed on it (np.tril: "tri()
missing 1 required positional argument"; solve, inv, cholesky, matrix_power,
swapaxes) or passed a shapeless 0.0 on as an array argument's gradient (flip,
transpose, reshape, roll, cumsum, tensordot, einsum)."""
import numpy as np


def f(a, x, M):
    low = np.tril(x[0] + M * a)
    flipped = np.flip(M * a)
    solved = np.linalg.solve(M * a + 3.0 * np.eye(3), x)
    power = np.linalg.matrix_power(M * x[1], 2)
    turned = np.transpose(np.reshape(M * a, (3, 3)))
    product = np.tensordot(M * x[2], M, axes=1)
    total = 0.9 * a
    if np.sum(x) > 5.0:
        total = total + low[0, 2] + flipped[1, 0] + solved[0] + power[2, 2] + turned[0, 1] \
            + product[1, 1]
    for i in range(2):
        rolled = np.roll(np.cumsum(M * a, axis=0), 1)
        if np.sum(x) > 5.0:
            total = total + rolled[i, 0]
    return total


ARGS = (0.7, np.array([0.3, -0.5, 0.2]), np.array([[0.1, 0.4, -0.3], [0.2, -0.6, 0.5], [0.9, 0.1, -0.2]]))
