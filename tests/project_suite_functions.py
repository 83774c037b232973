"""The table tests/test_project_suites.py runs: functions of the shapes other projects'
test suites and examples differentiate, written again here (not copied):
- "tangent": Google Tangent's tests/functions.py kinds (augmented assignments, nested
  and serial ifs, while loops with break, for over range and over arrays, list append /
  pop, tuple packing and unpacking, inner defs, helper calls, globals, early returns,
  writes into an argument, subscripts and slices);
- "autograd": the numpy functions autograd's test_numpy.py / test_systematic.py /
  test_linalg.py differentiate, with their axis / keepdims / ord / offset arguments;
- "examples": autograd's examples (neural net, logistic regression, Gaussian process,
  RNN, mixture model, ODE) and JAX's numpy-style tutorial losses.
Each row: (family, function, arguments, the arguments differentiated).
"""
import numpy as np
import scipy.linalg

SCALE = 3.0
_R = np.random.RandomState(26)
S = 1.3
V = np.array([0.5, -1.2, 2.0])
V5 = np.array([0.3, -0.8, 1.7, -1.1, 0.6])
M = _R.randn(3, 4)
C = _R.randn(2, 3, 4)
SQ = _R.randn(3, 3) + 2.0 * np.eye(3)
SPD = SQ @ SQ.T + 3.0 * np.eye(3)
POS = np.abs(M) + 0.5
X54 = _R.randn(5, 4)
T52 = np.eye(2)[[0, 1, 1, 0, 1]]
XGP = _R.randn(6, 2)
YGP = _R.randn(6)


def identity(a):
    return a


def aug_add(a, b):
    c = a
    c += b
    c *= a
    c -= 2.0 * b
    c /= 1.5
    return c


def aug_pow(a):
    c = a
    c **= 3
    return c


def pow_ab(a, b):
    return a ** b


def nested_if(a):
    if a > 0:
        if a < 10:
            a = a * a
        else:
            a = 0.5 * a
    else:
        a = -a
    return a


def elif_chain(x):
    if x < -1:
        y = -x
    elif x < 1:
        y = x * x
    elif x < 2:
        y = 2 * x - 1
    else:
        y = 3.0
    return y


def early_return(x):
    if x > 0:
        return x * x
    return x * 3.0


def while_loop(a):
    n = 0
    s = a
    while n < 5:
        s = s * a
        n += 1
    return s


def while_break(x):
    i = 0
    y = x
    while True:
        y = y * 0.9 + x
        i += 1
        if i >= 4:
            break
    return y


def while_data_dependent(x):
    y = x
    while y < 10.0:
        y = y * 2.0
    return y


def for_continue(a):
    s = 0.0
    for i in range(6):
        if i % 2 == 0:
            continue
        s = s + a ** i
    return s


def nested_for(a):
    s = 0.0
    for i in range(3):
        for j in range(2):
            s = s + a * i * j + a
    return s


def for_over_array(x):
    s = 0.0
    for v in x:
        s = s + v * v
    return s


def for_over_rows(m):
    s = 0.0
    for row in m:
        s = s + np.sum(np.tanh(row))
    return s


def list_append(x):
    ys = []
    for i in range(3):
        ys.append(x * i)
    return ys[0] + ys[1] * ys[2]


def list_pop(x):
    ys = [x, x * 2.0, x * x]
    a = ys.pop()
    b = ys.pop()
    return a * b + ys[0]


def list_sum(x):
    ys = [x * 1.0, x * 2.0, np.sin(x)]
    return sum(ys)


def tuple_swap(x, y):
    x, y = y, x * y
    return x + 2.0 * y


def tuple_return_helper_user(x):
    a, b = _pair(x)
    return a * b


def inner_def(x):
    def sq(z):
        return z * z
    return sq(x) + sq(2.0 * x)


def lambda_use(x):
    f = lambda z: z ** 3
    return f(x) + x


def helper_call(x):
    return _helper(x, 2.0) * x


def global_const(x):
    return x * SCALE + SCALE ** 2


def comparison_const(x):
    y = x
    if x > SCALE:
        y = x * SCALE
    return y


def np_tanh_sum(x):
    return np.sum(np.tanh(x))


def np_dot(x, y):
    return np.dot(x, y)


def np_matvec(w, x):
    return np.sum(np.dot(w, x))


def slice_step(x):
    return np.sum(x[::2]) * np.sum(x[1::2])


def subscript_assign(x):
    y = np.zeros(3)
    y[0] = x[0] * 2.0
    y[1] = x[1] ** 2
    y[2] = y[0] + y[1]
    return np.sum(y * y)


def saxpy(a, x, y):
    return np.sum(a * x + y)


def gradname_aliasing(x):
    x_bar = x * 3.0
    return x_bar * x


def cond_on_array(x):
    if np.sum(x) > 0:
        y = np.sum(x ** 2)
    else:
        y = np.sum(x)
    return y


def math_funcs(x):
    import math
    return math.sin(x) * math.exp(x) + math.log(x * x + 1.0)


def int_arg(x, n):
    return x ** n


def keyword_helper(x):
    return _kw(x, scale=4.0)


def enumerate_loop(x):
    s = 0.0
    for i, v in enumerate(x):
        s = s + v * (i + 1)
    return s


def zip_loop(x, y):
    s = 0.0
    for a, b in zip(x, y):
        s = s + a * b
    return s


def list_comp(x):
    return sum([v * v for v in x])


def ternary(x):
    return x * x if x > 0 else -x


def bool_ops(x):
    if x > 0 and x < 3:
        return x * x
    return x


def min_max_builtins(x, y):
    return max(x, y) + min(x, 2.0 * y)


def x_to_x(x):
    return x ** x


def ravel_loop(m):
    s = 0.0
    for v in m.ravel():
        s = s + v ** 3
    return s


def while_index(x):
    i = 0
    s = 0.0
    while i < len(x):
        s = s + np.sin(x[i])
        i += 1
    return s


def ints_and_value(a):
    items = [1, a * a, 2]
    return np.sum(items)


def product_in_list(x):
    items = [1, x[0] * x[1] * x[2], 3]
    return np.sum(items)


def write_into_arg(x):
    p = x[0]
    q = x[1]
    x[0] = p * q
    return np.sum(x)


def write_into_arg2(x):
    sq = x ** 2.0
    x[0] = sq[1] * sq[2]
    return np.sum(x * sq)


def spam_ifs(a):
    if a * a / 3.0 > 0:
        k = 3.0
    else:
        k = 4.0
    a = a * k
    if a < k - a * k:
        a = a * a
    elif a > k + 3.0 * a:
        if a / 2.0 < 0:
            a = a / k
        else:
            a = a * k
    else:
        a = -a
    return a


def loops_int(a, n):
    for i in range(n):
        a = a * a
    a = 2.0 * a
    for i in range(n + 1):
        a = a * 3.0
    return a


def pack_pick(a, b, c, i):
    t = a, b, c
    return t[i]


def halve_while(a):
    while np.abs(a) > 0.1:
        a = a * 0.5
    return a


def rows_from_scalars(x):
    h = np.zeros((len(x), 3))
    for t in range(len(h)):
        h[t] = x[t]
    return np.sum(h * np.arange(3.0))


def copy_loop(x):
    y = np.zeros_like(x)
    for i in range(len(x)):
        y[i] = x[i]
    return np.sum(y ** 2)


def rnn_rows(inputs, W):
    h = np.zeros((4, 3))
    for t in range(3):
        h[t + 1] = np.dot(inputs[t], W) + h[t]
    return np.sum(np.tanh(h[1:]))


def step_newaxis(x):
    return np.sum(x[::2, np.newaxis] * np.arange(2.0))


def listcomp_sum(a):
    return np.sum([v * 3 for v in a])


def chain(a):
    b = a
    b = a * a
    c = b * b
    d = c * c
    return d


def bilinear(x, h, U, W, b):
    y = np.dot(x, W)
    y = y + np.dot(h, U)
    y = y + b
    return np.sum(np.tanh(y))


def multivar_if(a, b):
    if a > b:
        a = a * a
    else:
        a = a * b
    return a


def sum_axis0(x): return np.sum(np.sum(x, axis=0) ** 2)


def sum_axis1_keep(x): return np.sum(np.sin(np.sum(x, axis=1, keepdims=True)) * x)


def mean_keep(x): return np.sum(x * np.mean(x, axis=-1, keepdims=True))


def var_ddof(x): return np.sum(np.var(x, axis=1, ddof=1))


def std_axis_keep(x): return np.sum(np.std(x, axis=1, keepdims=True) * x)


def prod_keep(x): return np.sum(np.prod(x, axis=1, keepdims=True) * x)


def cumsum_axis(x): return np.sum(np.cumsum(x, axis=1) ** 2)


def cumprod_axis(x): return np.sum(np.cumprod(x, axis=0))


def diff_axis0(x): return np.sum(np.diff(x, axis=0) ** 2)


def concat1(x): return np.sum(np.concatenate((x, np.sin(x)), axis=1) ** 3)


def stack1(x): return np.sum(np.stack([x, x ** 2], axis=1) ** 2)


def vstack1(x): return np.sum(np.vstack([x, x * 3]) * np.arange(6.0)[:, None])


def dstack1(x): return np.sum(np.dstack([x, x * 3]) ** 2)


def reshape1(x): return np.sum(np.reshape(x, (4, 3)) * np.arange(4.0)[:, None])


def transpose1(x): return np.sum(np.transpose(x) * np.arange(3.0))


def roll_axis(x): return np.sum(np.roll(x, -1, axis=1) * np.arange(4.0))


def repeat_axis(x): return np.sum(np.repeat(x, 2, axis=0) ** 2 * np.arange(4.0))


def tile2(x): return np.sum(np.tile(x, (2, 1)) ** 3)


def clip1(x): return np.sum(np.clip(x, -0.5, 0.7) ** 2)


def where1(x): return np.sum(np.where(x > 0, x ** 2, -x))


def maximum1(x): return np.sum(np.maximum(x, 0.1) ** 2)


def abs1(x): return np.sum(np.abs(x) ** 1.5)


def sign1(x): return np.sum(np.sign(x) * x ** 2)


def log1p1(x): return np.sum(np.log1p(x ** 2))


def logsumexp_axis(x):
    m = np.max(x, axis=1, keepdims=True)
    return np.sum(m + np.log(np.sum(np.exp(x - m), axis=1, keepdims=True)))


def norm_axis_keep(x): return np.sum(np.linalg.norm(x, axis=0, keepdims=True) * x)


def norm_fro(x): return np.linalg.norm(x, 'fro')


def norm_nuc(x): return np.linalg.norm(x, 'nuc')


def norm_2mat(x): return np.linalg.norm(x, 2)


def einsum_bcast(x): return np.sum(np.einsum('ij,j->i', x, np.arange(4.0)) ** 2)


def tensordot1(x): return np.sum(np.tensordot(x, x, axes=([1], [1])) ** 2)


def cross_rows(x): return np.sum(np.cross(x[:, :3], x[:, 1:]) ** 2)


def sort_axis(x): return np.sum(np.sort(x, axis=0) * np.arange(3.0)[:, None])


def take_axis(x): return np.sum(np.take(x, [1, 1, 3], axis=1) ** 2)


def fancy2(x): return np.sum(x[[0, 2], [1, 3]] ** 2)


def fancy_bool(x): return np.sum(x[x > 0] ** 2)


def rot90_1(x): return np.sum(np.rot90(x) * np.arange(3.0))


def diagonal1(x): return np.sum(np.diagonal(x) ** 2)


def remainder1(x): return np.sum(np.remainder(x, 0.7) ** 2)


def max_keep(x): return np.sum(np.max(x, axis=0, keepdims=True) * x)


def ptp1(x): return np.ptp(x)


def median1(x): return np.median(x)


def average_axis(x): return np.sum(np.average(x, axis=1, weights=np.arange(1.0, 5.0)))


def percentile1(x): return np.percentile(x, 30)


def split1(x):
    a, b = np.split(x, 2, axis=1)
    return np.sum(a * b)


def method_forms(x): return x.sum() + x.mean() * x.max() + (x ** 2).std() + x.prod()


def method_axis(x): return np.sum(x.sum(axis=0) ** 2) + np.sum(x.T.dot(x))


def softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    p = e / np.sum(e, axis=-1, keepdims=True)
    return np.sum(p * np.arange(4.0))


def multi_dot1(x): return np.sum(np.linalg.multi_dot([x, x.T, x]))


def pinv1(x): return np.sum(np.linalg.pinv(x) ** 2)


def sinc1(x): return np.sum(np.sinc(x))


def trig(x): return np.sum(np.tan(x) + np.arcsin(x / 3) + np.arccos(x / 3) + np.arctan(x))


def hyper(x): return np.sum(np.sinh(x) + np.cosh(x) + np.arcsinh(x) + np.tanh(x))


def diff2(x): return np.sum(np.diff(x, n=2) ** 2)


def roll1(x): return np.sum(np.roll(x, 2) * np.arange(5.0))


def repeat1(x): return np.sum(np.repeat(x, 3) * np.arange(15.0))


def tile1(x): return np.sum(np.tile(x, 3) * np.arange(15.0))


def expm1_1(x): return np.sum(np.expm1(x))


def logsumexp_manual(x):
    m = np.max(x)
    return m + np.log(np.sum(np.exp(x - m)))


def norm_ord1(x): return np.linalg.norm(x, ord=1)


def norm_ord3(x): return np.linalg.norm(x, ord=3)


def norm_inf(x): return np.linalg.norm(x, ord=np.inf)


def outer1(x): return np.sum(np.outer(x, x) * np.arange(25.0).reshape(5, 5))


def inner1(x): return np.inner(x, x * 2.0)


def cross1(x): return np.sum(np.cross(x[:3], np.array([1.0, 2.0, 3.0])) ** 2)


def sort1(x): return np.sum(np.sort(x) * np.arange(5.0))


def partition1(x): return np.sum(np.partition(x, 2)[:2])


def take1(x): return np.sum(np.take(x, [0, 2, 2, 4]) ** 2)


def array_of_scalars(x): return np.sum(np.array([x[0] * x[1], x[2], 3.0 * x[0]]) ** 2)


def newaxis1(x): return np.sum(x[:, None] * x[None, :])


def flip1(x): return np.sum(np.flip(x) * np.arange(5.0))


def diag_vec(x): return np.sum(np.diag(x) * np.arange(25.0).reshape(5, 5))


def average_w(x): return np.average(x, weights=np.arange(1.0, 6.0))


def array_split1(x): return np.sum(np.array_split(x, 2)[0] ** 2)


def pad1(x): return np.sum(np.pad(x, 1) ** 2 * np.arange(7.0))


def pad_edge(x): return np.sum(np.pad(x, (1, 2), mode='edge') * np.arange(8.0))


def broadcast_to1(x): return np.sum(np.broadcast_to(x, (3, 5)) * np.arange(15.0).reshape(3, 5))


def zeros_like_use(x):
    y = np.zeros_like(x)
    y[1:] = x[:-1] ** 2
    return np.sum(y * x)


def polyval1(x): return np.sum(np.polyval(np.array([1.0, -2.0, 3.0]), x))


def polyval_c(c): return np.sum(np.polyval(c, np.array([0.5, 1.5, -1.0])))


def interp1(x): return np.sum(np.interp(x, np.array([-3.0, 0.0, 3.0]), np.array([1.0, 2.0, 0.0])))


def convolve1(x): return np.sum(np.convolve(x, np.array([1.0, -2.0, 0.5])) ** 2)


def mean_list(x): return np.mean([x[0], x[1] ** 2, x[2]])


def sum_generator(x): return sum(x[i] ** 2 for i in range(3))


def cbrt1(x): return np.sum(np.cbrt(x))


def trace_offset(x): return np.trace(x, offset=1) ** 2


def triu1(x): return np.sum(np.triu(x) ** 2)


def tril_k(x): return np.sum(np.tril(x, k=-1) ** 2)


def det1(x): return np.linalg.det(x)


def slogdet1(x):
    s, l = np.linalg.slogdet(x)
    return l


def inv1(x): return np.sum(np.linalg.inv(x) ** 2)


def solve1(x): return np.sum(np.linalg.solve(x, np.arange(3.0)))


def solve_mat(x): return np.sum(np.linalg.solve(x, np.ones((3, 2))) ** 2)


def eigh1(x):
    w, v = np.linalg.eigh(0.5 * (x + x.T))
    return np.sum(w * np.arange(3.0)) + np.sum(np.abs(v[0]))


def eigh_vals(x):
    w, v = np.linalg.eigh(x + x.T)
    return np.sum(w ** 3)


def matrix_power1(x): return np.sum(np.linalg.matrix_power(x, 3))


def einsum_trace(x): return np.einsum('ii', x)


def qr1(x):
    q, r = np.linalg.qr(x)
    return np.sum(np.abs(np.diag(r)))


def lstsq1(x): return np.sum(np.linalg.lstsq(x, np.arange(3.0), rcond=None)[0] ** 2)


def eigvalsh1(x): return np.sum(np.linalg.eigvalsh(x + x.T) ** 2)


def cond1(x): return np.linalg.cond(x)


def svd_s(x):
    u, s, vt = np.linalg.svd(x, full_matrices=False)
    return np.sum(s ** 2 * np.arange(3.0))


def svd_uv(x):
    u, s, vt = np.linalg.svd(x, full_matrices=False)
    return np.sum(np.abs(u[:, 0])) + np.sum(s)


def chol1(x):
    L = np.linalg.cholesky(x)
    return np.sum(L * np.arange(9.0).reshape(3, 3))


def sum_tuple_axis(x): return np.sum(np.sum(x, axis=(0, 2)) ** 2)


def transpose_axes(x): return np.sum(np.transpose(x, (2, 0, 1)) * np.arange(3.0))


def swapaxes1(x): return np.sum(np.swapaxes(x, 0, 2) * np.arange(2.0))


def moveaxis1(x): return np.sum(np.moveaxis(x, 0, -1) * np.arange(2.0))


def kron1(x): return np.sum(np.kron(x, np.array([[1.0, 2.0], [3.0, 4.0]])) ** 2)


def sqrt1(x): return np.sum(np.sqrt(x))


def reciprocal1(x): return np.sum(np.reciprocal(x))


def log2_10(x): return np.sum(np.log2(x) + np.log10(x))


def arccosh1(x): return np.sum(np.arccosh(x + 1.0) + np.arctanh(x / 3.0))


def maximum_bcast(x, y): return np.sum(np.maximum(x, y))


def fmax1(x, y): return np.sum(np.fmax(x, y) ** 2)


def arctan2_1(x, y): return np.sum(np.arctan2(x, y))


def hypot1(x, y): return np.sum(np.hypot(x, y))


def logaddexp1(x, y): return np.sum(np.logaddexp(x, y))


def power_arr(x, y): return np.sum(np.power(x, y))


def bcast_col(x, c): return np.sum((x * c) ** 2)


def scalar_times_mat(a, x): return np.sum(np.sin(a * x))


def array_of_float_args(a, b): return np.sum(np.array([a, b, a * b]) ** 2)


def nn_loss_flat(w, X, T):
    W1 = w[:12].reshape(4, 3)
    b1 = w[12:15]
    W2 = w[15:21].reshape(3, 2)
    b2 = w[21:23]
    h = np.tanh(X @ W1 + b1)
    o = h @ W2 + b2
    lse = logsumexp(o, axis=1, keepdims=True)
    return -np.sum((o - lse) * T)


def logistic_predictions(weights, inputs):
    return sigmoid(np.dot(inputs, weights))


def logistic_loss(weights, inputs, targets):
    preds = logistic_predictions(weights, inputs)
    label_probabilities = preds * targets + (1 - preds) * (1 - targets)
    return -np.sum(np.log(label_probabilities))


def gp_log_marginal(params, X, y):
    mean = params[0]
    noise = np.exp(params[1]) + 0.0001
    cov_params = params[2:]
    cov = rbf_covariance(cov_params, X, X) + noise * np.eye(len(y))
    r = y - mean
    L = np.linalg.cholesky(cov)
    alpha = np.linalg.solve(cov, r)
    return -0.5 * np.dot(r, alpha) - np.sum(np.log(np.diag(L))) - 0.5 * len(y) * np.log(2 * np.pi)


def gp_slogdet(params, X, y):
    cov = rbf_covariance(params[2:], X, X) + np.exp(params[1]) * np.eye(len(y))
    sign, logdet = np.linalg.slogdet(cov)
    r = y - params[0]
    return -0.5 * r @ np.linalg.solve(cov, r) - 0.5 * logdet


def rnn_loss(W, U, V, xs):
    h = np.zeros(W.shape[0])
    loss = 0.0
    for t in range(xs.shape[0]):
        h = np.tanh(W @ h + U @ xs[t])
        y = V @ h
        loss = loss + np.sum((y - xs[t]) ** 2)
    return loss


def rnn_list(W, xs):
    hs = [np.zeros(3)]
    for x in xs:
        hs.append(np.tanh(W @ hs[-1] + x))
    return np.sum(np.array(hs) ** 2)


def mog_log_likelihood(params, data):
    log_weights = params[:2] - logsumexp(params[:2])
    means = params[2:4]
    log_stds = params[4:6]
    stds = np.exp(log_stds)
    z = (data[:, None] - means[None, :]) / stds
    comp = -0.5 * z ** 2 - log_stds - 0.5 * np.log(2 * np.pi) + log_weights
    return np.sum(logsumexp(comp, axis=1))


def euler_ode(theta, y0):
    a, b = theta[0], theta[1]
    y = y0
    dt = 0.05
    for k in range(20):
        dy = np.array([a * y[0] - y[0] * y[1], -b * y[1] + y[0] * y[1]])
        y = y + dt * dy
    return np.sum(y ** 2)


def rk4(theta, y):
    def f(y):
        return -theta * y + np.sin(y)
    dt = 0.1
    for _ in range(10):
        k1 = f(y)
        k2 = f(y + dt / 2 * k1)
        k3 = f(y + dt / 2 * k2)
        k4 = f(y + dt * k3)
        y = y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return np.sum(y)


def jax_loss(W, b, inputs, targets):
    preds = predict(W, b, inputs)
    label_probs = preds * targets + (1 - preds) * (1 - targets)
    return -np.sum(np.log(label_probs))


def per_example_loop(w, X, y):
    total = 0.0
    for i in range(X.shape[0]):
        pred = np.dot(X[i], w)
        total = total + (pred - y[i]) ** 2
    return total / X.shape[0]


def cross_entropy(logits, labels):
    logp = logits - logsumexp(logits, axis=1, keepdims=True)
    return -np.mean(np.sum(logp * labels, axis=1))


def attention(q, k, v):
    s = q @ k.T / np.sqrt(q.shape[-1])
    s = s - np.max(s, axis=-1, keepdims=True)
    p = np.exp(s)
    p = p / np.sum(p, axis=-1, keepdims=True)
    return np.sum((p @ v) ** 2)


def layer_norm(x, g, b):
    mu = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True)
    return np.sum(((x - mu) / np.sqrt(var + 1e-5) * g + b) ** 2)


def conv1d(w, x):
    n = x.shape[0] - w.shape[0] + 1
    out = np.zeros(n)
    for i in range(n):
        out[i] = np.sum(x[i:i + w.shape[0]] * w)
    return np.sum(out ** 2)


def conv1d_list(w, x):
    k = len(w)
    outs = [np.dot(x[i:i + k], w) for i in range(len(x) - k + 1)]
    return np.sum(np.array(outs) ** 2)


def rosenbrock(x):
    return np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


def hinge(w, X, y):
    return np.mean(np.maximum(0.0, 1.0 - y * (X @ w))) + 0.01 * np.dot(w, w)


def huber(x):
    a = np.abs(x)
    return np.sum(np.where(a < 1.0, 0.5 * x ** 2, a - 0.5))


def _pair(x):
    return x * x, np.sin(x)


def _helper(a, b):
    return a * b + np.exp(a)


def _kw(x, scale=1.0):
    return x * scale


def _dsaxpy(d):
    return d['a'] * d['b'] + d['c']


def logsumexp(x, axis=None, keepdims=False):
    m = np.max(x, axis=axis, keepdims=True)
    out = m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))
    if not keepdims:
        out = np.squeeze(out, axis=axis)
    return out


def sigmoid(x):
    return 0.5 * (np.tanh(x / 2.0) + 1)


def rbf_covariance(kernel_params, x, xp):
    output_scale = np.exp(kernel_params[0])
    lengthscales = np.exp(kernel_params[1:])
    diffs = np.expand_dims(x / lengthscales, 1) - np.expand_dims(xp / lengthscales, 0)
    return output_scale * np.exp(-0.5 * np.sum(diffs ** 2, axis=2))


def predict(W, b, inputs):
    return sigmoid(np.dot(inputs, W) + b)




def gp_scipy_cholesky(params, X, y):
    """a GP's marginal likelihood as users write it with scipy.linalg: cholesky(K,
    lower=True), then two triangular solves"""
    K = rbf_covariance(params[2:], X, X) + (np.exp(params[1]) + 1e-4) * np.eye(len(y))
    L = scipy.linalg.cholesky(K, lower=True)
    z = scipy.linalg.solve_triangular(L, y - params[0], lower=True)
    return -0.5 * np.dot(z, z) - np.sum(np.log(np.diag(L)))


def gp_scipy_upper_solve(params, X, y):
    """scipy.linalg.cholesky's default upper factor, solve and det"""
    K = rbf_covariance(params[2:], X, X) + (np.exp(params[1]) + 1e-4) * np.eye(len(y))
    U = scipy.linalg.cholesky(K)
    r = y - params[0]
    return -0.5 * r @ scipy.linalg.solve(K, r) - np.sum(np.log(np.diag(U))) \
        + 0.1 * np.log(scipy.linalg.det(K)) - 0.01 * np.sum(scipy.linalg.inv(K))


def gp_scipy_assumed(K, y):
    return y @ scipy.linalg.solve(K, y, assume_a="pos")


class Weights:
    def __init__(self, w):
        self.w = w


def getattr_of_argument(p, x):
    """getattr with a literal name reads the attribute (Tangent's and autograd's tests
    build parameters this way)"""
    return np.sum(np.tanh(getattr(p, "w") * x) ** 2)


def getattr_of_local(x):
    p = Weights(3.0 * x)
    return np.sum(getattr(p, "w") ** 2)


def getattr_after_a_write(x):
    p = Weights(1.0)
    p.w = 2.0 * x
    return np.sum(getattr(p, "w") ** 2)


def inner_of_vectors(x, y):
    return np.inner(x, y)


def trace_of(m):
    return np.trace(m)


def trace_above(m):
    return np.trace(m, offset=1)


CASES_SPEC = [
    ('tangent', identity, [S], (0,)),
    ('tangent', aug_add, [S, 0.4], (0, 1)),
    ('tangent', aug_pow, [S], (0,)),
    ('tangent', pow_ab, [S, 0.4], (0, 1)),
    ('tangent', nested_if, [S], (0,)),
    ('tangent', elif_chain, [1.5], (0,)),
    ('tangent', early_return, [-S], (0,)),
    ('tangent', while_loop, [S], (0,)),
    ('tangent', while_break, [S], (0,)),
    ('tangent', while_data_dependent, [S], (0,)),
    ('tangent', for_continue, [S], (0,)),
    ('tangent', nested_for, [S], (0,)),
    ('tangent', for_over_array, [V], (0,)),
    ('tangent', for_over_rows, [M], (0,)),
    ('tangent', list_append, [S], (0,)),
    ('tangent', list_pop, [S], (0,)),
    ('tangent', list_sum, [S], (0,)),
    ('tangent', tuple_swap, [S, 0.4], (0, 1)),
    ('tangent', tuple_return_helper_user, [S], (0,)),
    ('tangent', inner_def, [S], (0,)),
    ('tangent', lambda_use, [S], (0,)),
    ('tangent', helper_call, [S], (0,)),
    ('tangent', global_const, [S], (0,)),
    ('tangent', comparison_const, [4.0], (0,)),
    ('tangent', np_tanh_sum, [M], (0,)),
    ('tangent', np_dot, [V, 2.0 * V], (0, 1)),
    ('tangent', np_matvec, [M, M[0].copy()], (0, 1)),
    ('tangent', slice_step, [np.arange(1.0, 6.0)], (0,)),
    ('tangent', subscript_assign, [V], (0,)),
    ('tangent', saxpy, [S, V, 0.5 * V], (0, 1, 2)),
    ('tangent', gradname_aliasing, [S], (0,)),
    ('tangent', cond_on_array, [-V], (0,)),
    ('tangent', math_funcs, [S], (0,)),
    ('tangent', int_arg, [S, 3], (0,)),
    ('tangent', keyword_helper, [S], (0,)),
    ('tangent', enumerate_loop, [V], (0,)),
    ('tangent', zip_loop, [V, 3.0 * V], (0, 1)),
    ('tangent', list_comp, [V], (0,)),
    ('tangent', ternary, [-S], (0,)),
    ('tangent', bool_ops, [S], (0,)),
    ('tangent', min_max_builtins, [S, 0.4], (0, 1)),
    ('tangent', x_to_x, [S], (0,)),
    ('tangent', ravel_loop, [M], (0,)),
    ('tangent', while_index, [V], (0,)),
    ('tangent', ints_and_value, [S], (0,)),
    ('tangent', product_in_list, [V], (0,)),
    ('tangent', write_into_arg, [V], (0,)),
    ('tangent', write_into_arg2, [V], (0,)),
    ('tangent', spam_ifs, [-0.2], (0,)),
    ('tangent', loops_int, [1.1, 2], (0,)),
    ('tangent', pack_pick, [1.1, 2.0, 3.0, 1], (0, 1, 2)),
    ('tangent', halve_while, [3.0], (0,)),
    ('tangent', rows_from_scalars, [V], (0,)),
    ('tangent', copy_loop, [V], (0,)),
    ('tangent', rnn_rows, [M[:, :2], M[:2, :3].copy()], (0, 1)),
    ('tangent', step_newaxis, [np.linspace(-1.0, 1.0, 5)], (0,)),
    ('tangent', listcomp_sum, [V], (0,)),
    ('tangent', chain, [1.1], (0,)),
    ('tangent', bilinear, [V, V[:2].copy(), M[:2].copy(), M.copy(), M[0].copy()], (0, 1, 2, 3, 4)),
    ('tangent', multivar_if, [0.3, 0.5], (0, 1)),
    ('autograd', sum_axis0, [M], (0,)),
    ('autograd', sum_axis1_keep, [M], (0,)),
    ('autograd', mean_keep, [M], (0,)),
    ('autograd', var_ddof, [M], (0,)),
    ('autograd', std_axis_keep, [M], (0,)),
    ('autograd', prod_keep, [M], (0,)),
    ('autograd', cumsum_axis, [M], (0,)),
    ('autograd', cumprod_axis, [M], (0,)),
    ('autograd', diff_axis0, [M], (0,)),
    ('autograd', concat1, [M], (0,)),
    ('autograd', stack1, [M], (0,)),
    ('autograd', vstack1, [M], (0,)),
    ('autograd', dstack1, [M], (0,)),
    ('autograd', reshape1, [M], (0,)),
    ('autograd', transpose1, [M], (0,)),
    ('autograd', roll_axis, [M], (0,)),
    ('autograd', repeat_axis, [M], (0,)),
    ('autograd', tile2, [M], (0,)),
    ('autograd', clip1, [M], (0,)),
    ('autograd', where1, [M], (0,)),
    ('autograd', maximum1, [M], (0,)),
    ('autograd', abs1, [M], (0,)),
    ('autograd', sign1, [M], (0,)),
    ('autograd', log1p1, [M], (0,)),
    ('autograd', logsumexp_axis, [M], (0,)),
    ('autograd', norm_axis_keep, [M], (0,)),
    ('autograd', norm_fro, [M], (0,)),
    ('autograd', norm_nuc, [M], (0,)),
    ('autograd', norm_2mat, [M], (0,)),
    ('autograd', einsum_bcast, [M], (0,)),
    ('autograd', tensordot1, [M], (0,)),
    ('autograd', cross_rows, [M], (0,)),
    ('autograd', sort_axis, [M], (0,)),
    ('autograd', take_axis, [M], (0,)),
    ('autograd', fancy2, [M], (0,)),
    ('autograd', fancy_bool, [M], (0,)),
    ('autograd', rot90_1, [M], (0,)),
    ('autograd', diagonal1, [M], (0,)),
    ('autograd', remainder1, [M], (0,)),
    ('autograd', max_keep, [M], (0,)),
    ('autograd', ptp1, [M], (0,)),
    ('autograd', median1, [M], (0,)),
    ('autograd', average_axis, [M], (0,)),
    ('autograd', percentile1, [M], (0,)),
    ('autograd', split1, [M], (0,)),
    ('autograd', method_forms, [M], (0,)),
    ('autograd', method_axis, [M], (0,)),
    ('autograd', softmax, [M], (0,)),
    ('autograd', multi_dot1, [M], (0,)),
    ('autograd', pinv1, [M], (0,)),
    ('autograd', sinc1, [M], (0,)),
    ('autograd', trig, [M], (0,)),
    ('autograd', hyper, [M], (0,)),
    ('autograd', diff2, [V5], (0,)),
    ('autograd', roll1, [V5], (0,)),
    ('autograd', repeat1, [V5], (0,)),
    ('autograd', tile1, [V5], (0,)),
    ('autograd', expm1_1, [V5], (0,)),
    ('autograd', logsumexp_manual, [V5], (0,)),
    ('autograd', norm_ord1, [V5], (0,)),
    ('autograd', norm_ord3, [V5], (0,)),
    ('autograd', norm_inf, [V5], (0,)),
    ('autograd', outer1, [V5], (0,)),
    ('autograd', inner1, [V5], (0,)),
    ('autograd', cross1, [V5], (0,)),
    ('autograd', sort1, [V5], (0,)),
    ('autograd', partition1, [V5], (0,)),
    ('autograd', take1, [V5], (0,)),
    ('autograd', array_of_scalars, [V5], (0,)),
    ('autograd', newaxis1, [V5], (0,)),
    ('autograd', flip1, [V5], (0,)),
    ('autograd', diag_vec, [V5], (0,)),
    ('autograd', average_w, [V5], (0,)),
    ('autograd', array_split1, [V5], (0,)),
    ('autograd', pad1, [V5], (0,)),
    ('autograd', pad_edge, [V5], (0,)),
    ('autograd', broadcast_to1, [V5], (0,)),
    ('autograd', zeros_like_use, [V5], (0,)),
    ('autograd', polyval1, [V5], (0,)),
    ('autograd', polyval_c, [V5], (0,)),
    ('autograd', interp1, [V5], (0,)),
    ('autograd', convolve1, [V5], (0,)),
    ('autograd', mean_list, [V5], (0,)),
    ('autograd', sum_generator, [V5], (0,)),
    ('autograd', cbrt1, [V5], (0,)),
    ('autograd', trace_offset, [SQ], (0,)),
    ('autograd', triu1, [SQ], (0,)),
    ('autograd', tril_k, [SQ], (0,)),
    ('autograd', det1, [SQ], (0,)),
    ('autograd', slogdet1, [SQ], (0,)),
    ('autograd', inv1, [SQ], (0,)),
    ('autograd', solve1, [SQ], (0,)),
    ('autograd', solve_mat, [SQ], (0,)),
    ('autograd', eigh1, [SQ], (0,)),
    ('autograd', eigh_vals, [SQ], (0,)),
    ('autograd', matrix_power1, [SQ], (0,)),
    ('autograd', einsum_trace, [SQ], (0,)),
    ('autograd', qr1, [SQ], (0,)),
    ('autograd', lstsq1, [SQ], (0,)),
    ('autograd', eigvalsh1, [SQ], (0,)),
    ('autograd', cond1, [SQ], (0,)),
    ('autograd', svd_s, [SQ], (0,)),
    ('autograd', svd_uv, [SQ], (0,)),
    ('autograd', chol1, [SPD], (0,)),
    ('autograd', sum_tuple_axis, [C], (0,)),
    ('autograd', transpose_axes, [C], (0,)),
    ('autograd', swapaxes1, [C], (0,)),
    ('autograd', moveaxis1, [C], (0,)),
    ('autograd', kron1, [M[:2, :2].copy()], (0,)),
    ('autograd', sqrt1, [POS], (0,)),
    ('autograd', reciprocal1, [POS], (0,)),
    ('autograd', log2_10, [POS], (0,)),
    ('autograd', arccosh1, [POS], (0,)),
    ('autograd', maximum_bcast, [M, M[1].copy()], (0, 1)),
    ('autograd', fmax1, [M, M[:, :1].copy()], (0, 1)),
    ('autograd', arctan2_1, [M, POS], (0, 1)),
    ('autograd', hypot1, [M, M[2].copy()], (0, 1)),
    ('autograd', logaddexp1, [M, M[:, :1].copy()], (0, 1)),
    ('autograd', power_arr, [POS, M], (0, 1)),
    ('autograd', bcast_col, [M, M[:, :1].copy()], (0, 1)),
    ('autograd', scalar_times_mat, [0.7, M], (0, 1)),
    ('autograd', array_of_float_args, [0.7, -1.3], (0, 1)),
    ('examples', nn_loss_flat, [np.linspace(-1.0, 1.0, 23), X54, T52], (0,)),
    ('examples', logistic_loss, [M[1].copy(), X54, np.array([1.0, 0.0, 0.0, 1.0, 1.0])], (0,)),
    ('examples', gp_log_marginal, [np.array([0.1, -0.3, 0.2, 0.4, -0.1]), XGP, YGP], (0,)),
    ('examples', gp_slogdet, [np.array([0.1, -0.3, 0.2, 0.4, -0.1]), XGP, YGP], (0,)),
    ('examples', rnn_loss, [0.5 * SQ, 0.4 * SQ.T, 0.3 * SQ, M.T[:, :3].copy()], (0, 1, 2, 3)),
    ('examples', rnn_list, [0.5 * SQ, M.T[:, :3].copy()], (0, 1)),
    ('examples', mog_log_likelihood, [np.array([0.2, -0.1, 0.5, -0.5, 0.1, -0.2]), V5], (0, 1)),
    ('examples', euler_ode, [np.array([1.1, 0.4]), np.array([1.0, 0.5])], (0, 1)),
    ('examples', rk4, [np.array([0.7, 0.2]), np.array([0.3, -1.2])], (0, 1)),
    ('examples', jax_loss, [M[1].copy(), 0.3, X54, np.array([1.0, 0.0, 0.0, 1.0, 1.0])], (0, 1)),
    ('examples', per_example_loop, [M[1].copy(), X54, V5], (0, 1, 2)),
    ('examples', cross_entropy, [X54[:, :2].copy(), T52], (0,)),
    ('examples', attention, [M, X54, X54[:, :2].copy()], (0, 1, 2)),
    ('examples', layer_norm, [M, M[0].copy(), M[1].copy()], (0, 1, 2)),
    ('examples', conv1d, [V, np.linspace(-1.0, 2.0, 8)], (0, 1)),
    ('examples', conv1d_list, [V, np.linspace(-1.0, 2.0, 8)], (0, 1)),
    ('examples', rosenbrock, [V5], (0,)),
    ('examples', hinge, [M[1].copy(), X54, np.array([1.0, -1.0, 1.0, 1.0, -1.0])], (0,)),
    ('examples', huber, [2.0 * V5], (0,)),
    ('examples', gp_scipy_cholesky, [np.array([0.1, -0.3, 0.2, 0.4, -0.1]), XGP, YGP], (0,)),
    ('examples', gp_scipy_upper_solve, [np.array([0.1, -0.3, 0.2, 0.4, -0.1]), XGP, YGP], (0,)),
]


def _ids(spec):
    seen = {}
    for family, f, _, _ in spec:
        name = f"{family}-{f.__name__}"
        seen[name] = seen.get(name, 0) + 1
        yield name if seen[name] == 1 else f"{name}-{seen[name]}"


CASES = [(name, f, args, wrt) for name, (_, f, args, wrt) in zip(_ids(CASES_SPEC), CASES_SPEC)]
# the rows whose differentiated arguments are all arrays: run again in float32
FLOAT32_CASES = [case for case in CASES if all(isinstance(case[2][k], np.ndarray) for k in case[3])]


def nuclear_norm(x):
    return np.linalg.norm(x, "nuc")


def setattr_then_read(x):
    p = Weights(1.0)
    setattr(p, "w", 2.0 * x)
    return np.sum(p.w ** 2)


def dict_of_zip_over_an_array(x):
    """autograd's test_dict kind: a dict from zip(keys, array): each key gets a row"""
    d = dict(zip(["a", "b", "c", "d"], x))
    return np.sum(d["a"] * d["c"] + np.sin(d["b"]))


def dict_of_zip_fewer_keys(m):
    d = dict(zip(("first", "second"), m))
    return np.sum(d["first"] * d["second"] ** 2)
