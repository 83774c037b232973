"""In-place updates as users write them: filled arrays, stencils, solvers, masked writes.

Differentiated by tests/test_control_flow_suite.py, which also checks that the gradient
never writes into the caller's arrays.
"""
import numpy as np

R = 0.2


def _flux(a, b, k=1.0):
    return k * (b - a)


# --- arrays filled element by element ---------------------------------------------------

def fill_squares(x, w):
    y = np.zeros(len(x))
    for i in range(len(x)):
        y[i] = x[i] ** 2
    return np.sum(y * w)


def cumulative_sum_in_place(x):
    c = np.zeros_like(x)
    c[0] = x[0]
    for i in range(1, len(x)):
        c[i] = c[i - 1] + x[i]
    return np.sum(c ** 2)


def cumulative_product_in_place(x):
    c = np.ones_like(x)
    c[0] = x[0]
    for i in range(1, len(x)):
        c[i] = c[i - 1] * x[i]
    return np.sum(c)


def recurrence_last_entry(x):
    y = np.zeros(len(x))
    y[0] = 1.0
    for i in range(1, len(x)):
        y[i] = 0.5 * y[i - 1] + np.sin(x[i])
    return y[-1] ** 2


def vector_from_scalars(a, b, c):
    v = np.zeros(3)
    v[0] = a
    v[1] = b * a
    v[2] = np.exp(c)
    return np.sum(v ** 2)


def negative_index_writes(x):
    y = x.copy()
    y[-1] = y[-1] * 3.0
    y[-2] = y[0] + y[-1]
    return np.sum(y ** 2)


def strided_slice_write(x):
    y = np.zeros_like(x)
    y[::2] = x[::2] ** 2
    y[1::2] = np.sin(x[1::2])
    return np.sum(y * x)


def multiply_in_place(x):
    y = x.copy()
    for i in range(len(y)):
        y[i] *= 2.0 + i
    return np.sum(y ** 3)


def accumulate_into_bins(x):
    acc = np.zeros(3)
    for i in range(len(x)):
        acc[i % 3] += x[i] ** 2
    return np.sum(np.sqrt(acc + 1.0))


def scatter_by_index(x, idx):
    acc = np.zeros(4)
    for i in range(len(x)):
        acc[idx[i]] += x[i]
    return np.sum(acc ** 2)


def swap_entries(x):
    y = x.copy()
    y[0], y[1] = y[1], y[0]
    return np.sum(y * np.arange(len(y)) ** 2)


# --- copies updated in place --------------------------------------------------------------

def copy_then_update(x):
    z = x.copy()
    z[0] = z[0] * 2.0
    z[1:] = np.sin(z[1:])
    return np.sum(z ** 2) + np.sum(x)


def copy_read_updated_neighbour(x):
    y = x.copy()
    for i in range(1, len(y)):
        y[i] = y[i] * y[i - 1] * 0.5 + y[i]
    return np.sum(y)


def standardize_in_place(x):
    y = x.copy()
    y -= np.mean(y)
    y /= np.sqrt(np.mean(y ** 2) + 1e-3)
    return np.sum(y ** 3)


def augmented_whole_array(x):
    y = x.copy()
    for _ in range(3):
        y += 0.1 * np.sin(y)
        y *= 0.95
    return np.sum(y ** 2)


# --- columns, rows, matrices ------------------------------------------------------------

def column_add_in_place(X, b):
    Y = X.copy()
    Y[:, 0] += b
    return np.sum(Y ** 2)


def column_writes_loop(X):
    Y = np.zeros_like(X)
    for j in range(X.shape[1]):
        Y[:, j] = X[:, j] * (j + 1.0)
    return np.sum(np.tanh(Y))


def row_normalize(X):
    Y = np.zeros_like(X)
    for i in range(X.shape[0]):
        Y[i] = X[i] / np.sqrt(np.sum(X[i] ** 2))
    return np.sum(Y[:, 0] ** 3)


def row_slice_writes(X):
    Y = X.copy()
    for i in range(1, X.shape[0]):
        Y[i, :] = Y[i, :] + 0.5 * Y[i - 1, :]
    return np.sum(Y ** 2)


def outer_product_loops(x):
    n = len(x)
    M = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            M[i, j] = x[i] * x[j] + np.sin(x[i] - x[j])
    return np.sum(M ** 2)


def matvec_loops(A, x):
    n = A.shape[0]
    y = np.zeros(n)
    for i in range(n):
        for j in range(A.shape[1]):
            y[i] = y[i] + A[i, j] * x[j]
    return np.sum(y ** 2)


def blur_2d(X):
    Y = X.copy()
    for i in range(1, X.shape[0] - 1):
        for j in range(1, X.shape[1] - 1):
            Y[i, j] = 0.25 * (X[i - 1, j] + X[i + 1, j] + X[i, j - 1] + X[i, j + 1])
    return np.sum(Y ** 2)


def trajectory_matrix(x0, v0):
    traj = np.zeros((6, 2))
    x = x0
    v = v0
    for k in range(6):
        v = v - 0.2 * np.sin(x)
        x = x + 0.2 * v
        traj[k, 0] = x
        traj[k, 1] = v
    return np.sum(traj ** 2)


# --- solvers written with loops -------------------------------------------------------------

def forward_substitution(L, b):
    n = len(b)
    x = np.zeros(n)
    for i in range(n):
        s = b[i]
        for j in range(i):
            s = s - L[i, j] * x[j]
        x[i] = s / L[i, i]
    return np.sum(x ** 2)


def back_substitution(U, b):
    n = len(b)
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        x[i] = (b[i] - np.dot(U[i, i + 1:], x[i + 1:])) / U[i, i]
    return np.sum(x)


def gauss_seidel(A, b):
    n = len(b)
    x = np.zeros(n)
    for _ in range(4):
        for i in range(n):
            s = b[i]
            for j in range(n):
                if j != i:
                    s = s - A[i, j] * x[j]
            x[i] = s / A[i, i]
    return np.sum(x ** 2)


def cholesky_loops(A):
    n = A.shape[0]
    L = np.zeros_like(A)
    for i in range(n):
        for j in range(i + 1):
            s = A[i, j]
            for k in range(j):
                s = s - L[i, k] * L[j, k]
            if i == j:
                L[i, j] = np.sqrt(s)
            else:
                L[i, j] = s / L[j, j]
    return np.sum(L)


# --- stencils and time stepping ---------------------------------------------------------

def laplacian_in_place(u):
    lap = np.zeros_like(u)
    for i in range(1, len(u) - 1):
        lap[i] = u[i - 1] - 2.0 * u[i] + u[i + 1]
    return np.sum(lap ** 2)


def heat_equation_elementwise(u0):
    u = u0.copy()
    for _ in range(4):
        new = u.copy()
        for i in range(1, len(u) - 1):
            new[i] = u[i] + R * (u[i - 1] - 2.0 * u[i] + u[i + 1])
        u = new
    return np.sum(u ** 2)


def heat_equation_slices(u0):
    u = u0.copy()
    for _ in range(5):
        u[1:-1] = u[1:-1] + R * (u[2:] - 2.0 * u[1:-1] + u[:-2])
    return np.sum(u * u)


def flux_helper_update(u0):
    u = u0.copy()
    for _ in range(3):
        for i in range(len(u) - 1):
            f = _flux(u[i], u[i + 1], k=0.3)
            u[i] = u[i] + f
            u[i + 1] = u[i + 1] - f
    return np.sum(u ** 3)


def upwind_advection(u0, c):
    u = u0.copy()
    for _ in range(4):
        prev = u.copy()
        for i in range(1, len(u)):
            u[i] = prev[i] - c * (prev[i] - prev[i - 1])
    return np.sum(u ** 2)


# --- boolean-mask writes ----------------------------------------------------------------

def mask_zero_negatives(x):
    y = x.copy()
    y[y < 0.0] = 0.0
    return np.sum(y ** 2)


def mask_scale(x):
    y = x.copy()
    mask = y > 0.5
    y[mask] = y[mask] * 3.0
    return np.sum(np.sin(y))


def mask_add_in_place(x, b):
    y = x.copy()
    y[x < 0.0] += b
    return np.sum(y ** 2)


def mask_from_other_array(x, z):
    y = np.zeros_like(x)
    y[z > 0.0] = x[z > 0.0] ** 2
    return np.sum(y)


def mask_clip_rows(X):
    Y = X.copy()
    for i in range(X.shape[0]):
        row = Y[i]
        Y[i, row > 1.0] = 1.0
    return np.sum(Y ** 2)


def write_in_branch(x):
    y = np.zeros_like(x)
    for i in range(len(x)):
        if x[i] > 0.0:
            y[i] = x[i] ** 2
        else:
            y[i] = -x[i] * 0.5
    return np.sum(y * np.arange(1.0, len(x) + 1.0))


def add_assign_index_in_while(x):
    y = x.copy()
    i = 0
    while i < len(y):
        y[i] += y[i] ** 2
        i = i + 1
    return np.sum(y * x)
