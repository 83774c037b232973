"""Programs written the way a new user writes them, ported from ML tutorials, statistics,
physics and optimisation code (not copies of other tests): each checked in
tests/test_user_programs_s11.py against central differences on both derivative paths.
PROGRAMS: (name, f, args, wrt, keyword arguments)."""
import numpy as np


def mlp_loss(params, X, y):
    h = np.maximum(X @ params["W1"] + params["b1"], 0.0)
    out = (h @ params["W2"] + params["b2"])[:, 0]
    return np.mean((out - y) ** 2)


def char_rnn(Wxh, Whh, Why, xs, targets):
    h = np.zeros(Whh.shape[0])
    loss = 0.0
    for t in range(len(xs)):
        x = np.zeros(Wxh.shape[1])
        x[xs[t]] = 1.0
        h = np.tanh(Wxh @ x + Whh @ h)
        y = Why @ h
        p = np.exp(y - np.max(y)) / np.sum(np.exp(y - np.max(y)))
        loss += -np.log(p[targets[t]])
    return loss


def im2col_cnn(W, img):
    k = W.shape[0]
    H, Wd = img.shape
    cols = []
    for i in range(H - k + 1):
        for j in range(Wd - k + 1):
            cols.append(img[i:i + k, j:j + k].ravel())
    C = np.array(cols)
    out = C @ W.ravel()
    return np.sum(np.maximum(out, 0.0) ** 2)


def im2col_cnn_stack(W, img):
    k = W.shape[0]
    H, Wd = img.shape
    patches = [img[i:i + k, j:j + k].reshape(-1) for i in range(H - k + 1) for j in range(Wd - k + 1)]
    C = np.stack(patches)
    return np.sum(np.tanh(C @ W.reshape(-1)))


def poisson_glm(beta, X, y):
    eta = X @ beta
    return np.sum(np.exp(eta) - y * eta)


def hier_addat(theta, groups, x):
    mu = theta[groups]
    resid = (x - mu) ** 2
    per_group = np.zeros(len(theta))
    np.add.at(per_group, groups, resid)
    return np.sum(per_group) + 0.5 * np.sum(theta ** 2)


def hier_bincount(theta, groups, x):
    mu = theta[groups]
    per_group = np.bincount(groups, weights=(x - mu) ** 2, minlength=len(theta))
    return np.sum(np.log1p(per_group))


def weighted_logreg(w, X, y, sw):
    z = X @ w
    ll = y * z - np.logaddexp(0.0, z)
    return -np.sum(sw * ll) / np.sum(sw)


def kalman_ll(q, ys):
    x, P = 0.0, 1.0
    ll = 0.0
    for t in range(len(ys)):
        P = P + q
        S = P + 0.5
        K = P / S
        r = ys[t] - x
        ll = ll - 0.5 * (np.log(2 * np.pi * S) + r * r / S)
        x = x + K * r
        P = (1 - K) * P
    return ll


def kalman_ll_mat(log_q, ys, F, H):
    n = F.shape[0]
    x = np.zeros(n); P = np.eye(n)
    Q = np.exp(log_q) * np.eye(n)
    ll = 0.0
    for y in ys:
        x = F @ x
        P = F @ P @ F.T + Q
        S = H @ P @ H.T + 0.1
        K = P @ H.T / S
        r = y - H @ x
        ll -= 0.5 * (np.log(S) + r ** 2 / S)
        x = x + K * r
        P = P - np.outer(K, H @ P)
    return ll


def spring_chain(x, k):
    ext = np.diff(x) - 1.0
    return 0.5 * np.sum(k * ext ** 2)


def nbody_energy(pos, m):
    diff = pos[:, None, :] - pos[None, :, :]
    r = np.sqrt(np.sum(diff ** 2, axis=-1) + 1e-9)
    i, j = np.triu_indices(len(m), k=1)
    return -np.sum(m[i] * m[j] / r[i, j])


def poisson_fd(f_rhs, kappa):
    n = len(f_rhs)
    A = (2 + kappa) * np.eye(n) - np.eye(n, k=1) - np.eye(n, k=-1)
    u = np.linalg.solve(A, f_rhs)
    return np.sum(u ** 2)


def shooting(v0):
    y, v, t = 0.0, v0, 0.0
    dt = 0.05
    while t < 1.0:
        y = y + dt * v
        v = v - dt * 9.81 - dt * 0.1 * v
        t = t + dt
    return (y - 1.0) ** 2


def barrier(x, t):
    c = 1.0 - np.sum(x ** 2)
    return t * np.sum((x - 2.0) ** 2) - np.log(c)


def aug_lagrangian(x, lam, rho):
    g = np.sum(x) - 1.0
    h = x[0] - 0.2
    return np.sum(x ** 2) + lam * g + 0.5 * rho * g ** 2 + rho * max(0.0, h) ** 2


def aug_lagrangian_np(x, lam, rho):
    g = x ** 2 - 0.5
    return np.sum(x ** 4) + np.sum(lam * g) + 0.5 * rho * np.sum(np.maximum(0.0, g) ** 2)


def interp_loss(y_knots, x_query):
    xk = np.linspace(0.0, 1.0, len(y_knots))
    return np.sum(np.interp(x_query, xk, y_knots) ** 2)


def interp_wrt_query(x_query, y_knots):
    xk = np.linspace(0.0, 1.0, len(y_knots))
    return np.sum(np.interp(x_query, xk, y_knots) ** 2)


def cumsum_loss(x):
    c = np.cumsum(x)
    return np.sum(c ** 2) + np.sum(np.cumprod(1 + 0.1 * x))


def searchsorted_lookup(table, xs):
    edges = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
    idx = np.searchsorted(edges, xs) - 1
    idx = np.clip(idx, 0, len(table) - 1)
    return np.sum(table[idx] * xs)


def sort_loss(x):
    s = np.sort(x)
    w = np.arange(1, len(x) + 1)
    return np.sum(w * s)


def take_along(x):
    idx = np.argsort(x, axis=1)
    top = np.take_along_axis(x, idx[:, -2:], axis=1)
    return np.sum(top ** 2)


def einsum_forms(A, B, v):
    a = np.einsum("ij,jk->ik", A, B)
    b = np.einsum("ii", A @ A.T)
    c = np.einsum("i,i->", v, v)
    d = np.einsum("ij,j->i", A, v)
    e = np.einsum("bi,bj->bij", A, A)
    f = np.einsum("ij->", B)
    return np.sum(a ** 2) + b + c + np.sum(d) + np.sum(e) + f


def einsum_implicit(A, v):
    return np.sum(np.einsum("ij,j", A, v) ** 2) + np.einsum("ij,ij", A, A) + np.sum(np.einsum("ij", A) * 2)


def norm_forms(x, M):
    return (np.linalg.norm(x) + np.linalg.norm(x, 1) + np.linalg.norm(x, np.inf)
            + np.linalg.norm(M) + np.linalg.norm(M, "fro") + np.linalg.norm(M, 2)
            + np.sum(np.linalg.norm(M, axis=0)) + np.sum(np.linalg.norm(M, axis=1, keepdims=True))
            + np.linalg.norm(x, ord=3))


def svd_loss(M):
    U, s, Vt = np.linalg.svd(M, full_matrices=False)
    return np.sum(s ** 2) + np.sum(s[0] * U[:, 0] * Vt[0, :].sum())


def eigh_loss(S):
    A = S + S.T
    w, V = np.linalg.eigh(A)
    return np.sum(w[-1] * V[:, -1] ** 2) + w[0]


def qr_loss(M):
    Q, R = np.linalg.qr(M)
    return np.sum(np.abs(np.diag(R))) + np.sum(Q[:, 0] ** 3)


def lstsq_loss(A, b):
    x, res, rank, sv = np.linalg.lstsq(A, b, rcond=None)
    return np.sum(x ** 2)


def pinv_loss(A):
    return np.sum(np.linalg.pinv(A) ** 2)


def int_index_arith(x):
    n = len(x)
    mid = n // 2
    s = 0.0
    for i in range(1, n - 1):
        s += x[i - 1] * x[(i + 1) % n] - x[mid]
    return s + x[-1] * x[n - 2]


def bool_index_arith(x):
    m = (x > 0) & (x < 1.0)
    k = np.sum(m)
    return np.sum(x[m] ** 2) / max(k, 1) + np.sum(np.where(~m, x, 0.0))


def kw_loss(x, *, scale=2.0, shift=0.5):
    return np.sum(scale * (x - shift) ** 2)


def default_args(x, w=None, alpha=0.1):
    if w is None:
        w = np.ones_like(x)
    return np.sum(w * x ** 2) + alpha * np.sum(x)


def wrt_name(a, b, c):
    return np.sum(a * b) + np.sum(np.sin(c) * b)


def softmax_ce(logits, labels):
    z = logits - logits.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return -logp[np.arange(logits.shape[0]), labels].mean()


def layernorm(x, g, b):
    mu = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return np.sum((g * (x - mu) / np.sqrt(var + 1e-5) + b) ** 2)


def batchnorm_train(x, gamma):
    mu = np.mean(x, axis=0)
    sd = np.std(x, axis=0) + 1e-5
    return np.sum(gamma * (x - mu) / sd)


def huber(r, delta=1.0):
    a = np.abs(r)
    return np.sum(np.where(a < delta, 0.5 * r ** 2, delta * (a - 0.5 * delta)))


def conv1d_valid(w, x):
    return np.sum(np.convolve(x, w, mode="valid") ** 2)


def gmm_ll(mu, log_s, x):
    s = np.exp(log_s)
    comp = -0.5 * ((x[:, None] - mu[None, :]) / s[None, :]) ** 2 - log_s[None, :] - 0.5 * np.log(2 * np.pi)
    m = comp.max(axis=1, keepdims=True)
    return -np.sum(m[:, 0] + np.log(np.sum(np.exp(comp - m), axis=1)))


def pendulum(theta0, omega0, L):
    th, om = theta0, omega0
    dt = 0.05
    for _ in range(10):
        om = om - dt * 9.81 / L * np.sin(th)
        th = th + dt * om
    return th ** 2 + 0.1 * om ** 2


def tuple_return_unpack(x):
    def stats(v):
        return np.mean(v), np.std(v)
    m, s = stats(x)
    return m ** 2 + s


def list_of_params(ps, x):
    h = x
    for W in ps:
        h = np.tanh(h @ W)
    return np.sum(h ** 2)


def cov_loss(X):
    C = np.cov(X, rowvar=False)
    return np.sum(C ** 2) + np.trace(C)


def moveaxis_split(x):
    y = np.moveaxis(x, 0, -1)
    a, b = np.split(y, 2, axis=-1)
    return np.sum(a * b)


def logdet_loss(A):
    S = A @ A.T + np.eye(A.shape[0])
    sign, ld = np.linalg.slogdet(S)
    return ld + np.log(np.linalg.det(S))


def matrix_exp_series(A):
    E = np.eye(A.shape[0]); term = np.eye(A.shape[0])
    for k in range(1, 6):
        term = term @ A / k
        E = E + term
    return np.sum(E)


def nested_loop_while(x):
    total = 0.0
    i = 0
    while i < len(x):
        j = 0
        while j <= i:
            total += x[i] * x[j]
            j += 1
        i += 1
    return total


def mean_abs_diff_pairs(x):
    i, j = np.triu_indices(len(x), 1)
    return np.mean(np.abs(x[i] - x[j]))


def outer_kron(a, b):
    return np.sum(np.kron(a, b) ** 2) + np.sum(np.outer(a, b) * np.cross(a, b)[:, None])


def percentile_loss(x):
    return np.median(x) + np.percentile(x, 75) + np.quantile(x, 0.2)


def nan_reductions(x):
    y = np.where(x > 0.5, np.nan, x)
    return np.nansum(y ** 2) + np.nanmean(y) + np.nanmax(y)


def gradient_np(y):
    return np.sum(np.gradient(y) ** 2)


def polyfit_loss(y):
    x = np.linspace(0, 1, len(y))
    c = np.polyfit(x, y, 2)
    return np.sum(np.polyval(c, x) ** 2)


def ewma(x, alpha):
    s = x[0]
    out = []
    for t in range(1, len(x)):
        s = alpha * x[t] + (1 - alpha) * s
        out.append(s)
    return np.sum(np.array(out) ** 2)


def segment_mean(x, seg):
    sums = np.zeros(3)
    np.add.at(sums, seg, x)
    counts = np.bincount(seg, minlength=3)
    return np.sum((sums / np.maximum(counts, 1)) ** 2)


def clipped_grad_norm(x):
    n = np.linalg.norm(x)
    scale = min(1.0, 1.0 / n)
    return np.sum((x * scale) ** 2)


def _params(rs):
    return {"W1": rs.randn(3, 4) * 0.5, "b1": np.zeros(4), "W2": rs.randn(4, 1) * 0.5,
            "b2": np.zeros(1)}


rs = np.random.RandomState(3)
X = rs.randn(6, 3)
y = rs.randn(6)
yb = (rs.rand(6) > 0.5).astype(float)
P = _params(np.random.RandomState(0))
PROGRAMS = [
    ("mlp_loss", mlp_loss, (P, X, y), 0),
    ("char_rnn", char_rnn, (rs.randn(4, 5) * .5, rs.randn(4, 4) * .5, rs.randn(5, 4) * .5, [0, 2, 1, 3], [2, 1, 3, 4]), (0, 1, 2)),
    ("im2col_cnn", im2col_cnn, (rs.randn(2, 2), rs.randn(4, 4)), 0),
    ("im2col_cnn_stack", im2col_cnn_stack, (rs.randn(2, 2), rs.randn(4, 4)), 0),
    ("poisson_glm", poisson_glm, (rs.randn(3) * .3, X, rs.poisson(2.0, 6).astype(float)), 0),
    ("hier_addat", hier_addat, (rs.randn(3), np.array([0, 1, 1, 2, 0, 2]), rs.randn(6)), 0),
    ("hier_bincount", hier_bincount, (rs.randn(3), np.array([0, 1, 1, 2, 0, 2]), rs.randn(6)), 0),
    ("weighted_logreg", weighted_logreg, (rs.randn(3), X, yb, rs.rand(6)), 0),
    ("weighted_logreg_sw", weighted_logreg, (rs.randn(3), X, yb, rs.rand(6)), 3),
    ("kalman_ll", kalman_ll, (0.3, rs.randn(5)), 0),
    ("kalman_ll_ys", kalman_ll, (0.3, rs.randn(5)), 1),
    ("kalman_ll_mat", kalman_ll_mat, (-1.0, rs.randn(4), np.array([[1.0, 0.1], [0.0, 0.9]]), np.array([1.0, 0.0])), 0),
    ("spring_chain", spring_chain, (np.cumsum(rs.rand(5) + 0.5), rs.rand(4) + 1), (0, 1)),
    ("nbody_energy", nbody_energy, (rs.randn(4, 3), rs.rand(4) + .5), (0, 1)),
    ("poisson_fd", poisson_fd, (rs.randn(5), 0.3), (0, 1)),
    ("shooting", shooting, (4.0,), 0),
    ("barrier", barrier, (rs.randn(3) * .2, 2.0), 0),
    ("aug_lagrangian", aug_lagrangian, (rs.randn(3) * .5 + np.array([1.0, 0, 0]), 0.3, 2.0), (0, 1)),
    ("aug_lagrangian_np", aug_lagrangian_np, (rs.randn(3), rs.rand(3), 2.0), 0),
    ("interp_loss", interp_loss, (rs.randn(5), np.array([0.1, 0.33, 0.8])), 0),
    ("interp_wrt_query", interp_wrt_query, (np.array([0.1, 0.33, 0.8]), rs.randn(5)), 0),
    ("cumsum_loss", cumsum_loss, (rs.randn(5),), 0),
    ("searchsorted_lookup", searchsorted_lookup, (rs.randn(4), np.array([0.1, 0.3, 0.6, 0.9])), (0, 1)),
    ("sort_loss", sort_loss, (rs.randn(5),), 0),
    ("take_along", take_along, (rs.randn(3, 4),), 0),
    ("einsum_forms", einsum_forms, (rs.randn(3, 3), rs.randn(3, 2), rs.randn(3)), (0, 1, 2)),
    ("einsum_implicit", einsum_implicit, (rs.randn(3, 3), rs.randn(3)), (0, 1)),
    ("norm_forms", norm_forms, (rs.randn(4), rs.randn(3, 2)), (0, 1)),
    ("svd_loss", svd_loss, (rs.randn(4, 3),), 0),
    ("eigh_loss", eigh_loss, (rs.randn(3, 3),), 0),
    ("qr_loss", qr_loss, (rs.randn(4, 3),), 0),
    ("lstsq_loss", lstsq_loss, (rs.randn(5, 3), rs.randn(5)), (0, 1)),
    ("pinv_loss", pinv_loss, (rs.randn(4, 3),), 0),
    ("int_index_arith", int_index_arith, (rs.randn(6),), 0),
    ("bool_index_arith", bool_index_arith, (rs.rand(6) * 2 - .5,), 0),
    ("kw_loss", kw_loss, (rs.randn(3),), 0, {"scale": 3.0}),
    ("default_args", default_args, (rs.randn(3),), 0),
    ("default_args_w", default_args, (rs.randn(3), rs.rand(3)), (0, 1)),
    ("wrt_names", wrt_name, (rs.randn(3), rs.randn(3), rs.randn(3)), ("a", "c")),
    ("wrt_name_and_pos", wrt_name, (rs.randn(3), rs.randn(3), rs.randn(3)), (2, "b")),
    ("softmax_ce", softmax_ce, (rs.randn(4, 3), np.array([0, 2, 1, 1])), 0),
    ("layernorm", layernorm, (rs.randn(2, 4), rs.rand(4), rs.randn(4)), (0, 1, 2)),
    ("batchnorm_train", batchnorm_train, (rs.randn(5, 3), rs.rand(3)), (0, 1)),
    ("huber", huber, (rs.randn(6) * 2,), 0),
    ("conv1d_valid", conv1d_valid, (rs.randn(3), rs.randn(7)), (0, 1)),
    ("gmm_ll", gmm_ll, (rs.randn(3), rs.randn(3) * .2, rs.randn(6)), (0, 1)),
    ("pendulum", pendulum, (0.5, 0.1, 1.2), (0, 1, 2)),
    ("pendulum_L", pendulum, (0.5, 0.1, 1.2), 2),
    ("tuple_return_unpack", tuple_return_unpack, (rs.randn(5),), 0),
    ("list_of_params", list_of_params, ([rs.randn(3, 3) * .5, rs.randn(3, 2) * .5], rs.randn(2, 3)), 0),
    ("cov_loss", cov_loss, (rs.randn(5, 3),), 0),
    ("moveaxis_split", moveaxis_split, (rs.randn(4, 2, 3),), 0),
    ("logdet_loss", logdet_loss, (rs.randn(3, 3),), 0),
    ("matrix_exp_series", matrix_exp_series, (rs.randn(3, 3) * .3,), 0),
    ("nested_loop_while", nested_loop_while, (rs.randn(4),), 0),
    ("mean_abs_diff_pairs", mean_abs_diff_pairs, (rs.randn(5),), 0),
    ("outer_kron", outer_kron, (rs.randn(3), rs.randn(3)), (0, 1)),
    ("percentile_loss", percentile_loss, (rs.randn(7),), 0),
    ("nan_reductions", nan_reductions, (rs.rand(6),), 0),
    ("gradient_np", gradient_np, (rs.randn(6),), 0),
    ("polyfit_loss", polyfit_loss, (rs.randn(6),), 0),
    ("ewma", ewma, (rs.randn(5), 0.3), (0, 1)),
    ("segment_mean", segment_mean, (rs.randn(6), np.array([0, 1, 1, 2, 0, 2])), 0),
    ("clipped_grad_norm", clipped_grad_norm, (rs.randn(4),), 0),
]
