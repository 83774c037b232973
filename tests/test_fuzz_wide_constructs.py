"""Hand-written programs over the constructs the narrow fuzzer (tests/fuzz) does not reach:
broadcasting (3, 1) against (1, 4), reductions over negative and tuple axes with keepdims,
slices with negative steps and empty results, integer-array and boolean-mask reads and
writes into owned arrays, sort/clip/einsum/swapaxes/expand_dims/squeeze, cumprod/diff, a
helper returning a tuple, math.* in a loop over Python numbers, np.where with broadcasting
operands, 0-d arrays and np.float64 scalars, float32 dict and tuple arguments. Each checked
on both derivative paths against central differences (and its Hessian-vector product)."""
import math

import numpy as np
import pytest

from derivative_paths import PATHS, grad_on, hvp_on
from gradcheck import assert_grad_matches


def broadcast_column_row(c, r, W):
    return np.sum(np.tanh(c * r) * W)


def reductions_over_negative_and_tuple_axes(W):
    return np.sum(np.max(W, axis=(0, -1), keepdims=True) + np.mean(W, axis=-2, keepdims=True))


def slices_cumprod_diff(x):
    return (np.sum(x[3:0:-1] * x[-3:]) + np.sum(x[5:]) + np.sum(np.cumprod(x))
            + np.sum(np.diff(x) ** 2))


def mask_and_index_writes(W, x):
    y = W * 1.0
    y[:, x > 0.0] = 0.5
    y[y > 0.3] *= 2.0
    y[[0, 2]] += x * 2.0
    y[1:] -= W[:2] ** 2
    return np.sum(y * y)


def einsum_sort_clip_axes(W, x):
    picked = np.clip(np.sort(W, axis=1)[:, 1], -0.5, 0.5)
    moved = np.swapaxes(np.expand_dims(W, 0), 0, 2).squeeze()
    return np.einsum("ij,j->i", W, x) @ picked + np.sum(moved ** 2)


def _pair(p, q):
    return p * q, np.sum(p)


def tuple_helper_number_loop_where(a, x):
    u, v = _pair(x, a)
    t = 0.0
    for s in [0.5, 1.5]:
        t = t + s * math.exp(math.sin(a * s))
    return np.sum(np.where(x[:, None] > 0.0, u[None, :3], v)) + t + sum(e * e for e in x)


def zero_d_and_numpy_scalars(z, b, x):
    return np.sum(z * x) * b + np.float64(2.0) * z * z


_rng = np.random.default_rng(8000000)
_W, _x = _rng.standard_normal((3, 4)), _rng.standard_normal(4)
CASES = [
    (broadcast_column_row, (_rng.standard_normal((3, 1)), _rng.standard_normal((1, 4)), _W)),
    (reductions_over_negative_and_tuple_axes, (_W,)),
    (slices_cumprod_diff, (_x,)),
    (mask_and_index_writes, (_W, _x)),
    (einsum_sort_clip_axes, (_W, _x)),
    (tuple_helper_number_loop_where, (0.7, _x)),
    (zero_d_and_numpy_scalars, (np.array(0.6), np.float64(0.8), _x)),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, args", CASES, ids=[f.__name__ for f, _ in CASES])
def test_wide_constructs_have_right_gradients(f, args, path):
    for k in range(len(args)):
        assert_grad_matches(f, args, wrt=k, path=path)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, args", CASES, ids=[f.__name__ for f, _ in CASES])
def test_wide_constructs_have_right_hessian_vector_products(f, args, path):
    for k in range(len(args)):
        v = np.cos(np.arange(np.size(args[k])) + 1.0).reshape(np.shape(args[k]))
        v = v if isinstance(args[k], np.ndarray) else float(v)
        got = hvp_on(path, f, args, v, wrt=k)
        gradient, step = grad_on(path, f, wrt=k), 1e-5

        def moved(sign):
            out = list(args)
            out[k] = args[k] + sign * step * v
            return out
        want = (np.asarray(gradient(*moved(1))) - np.asarray(gradient(*moved(-1)))) / (2 * step)
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5, err_msg=f"argument {k}")


def float32_dict_and_tuple(a, x, P, T):
    y = np.zeros(4, dtype=np.float32)
    y[1:] = x * a
    y[np.array([True, False, True, True])] += P["w"][:3]
    s = np.sum(np.max(P["u"], axis=-1, keepdims=True) * T[1])
    return s + np.sum(y * y) + math.sin(a)


@pytest.mark.parametrize("path", PATHS)
def test_float32_dict_and_tuple_arguments_get_float32_gradients(path):
    f32 = lambda shape: _rng.standard_normal(shape).astype(np.float32)
    args = (0.5, f32(3), {"w": f32(4), "u": f32((3, 4))}, (f32(3), f32((3, 1))))
    wide = (0.5, args[1].astype(float), {k: v.astype(float) for k, v in args[2].items()},
            tuple(v.astype(float) for v in args[3]))
    for k in (1, 2, 3):
        got, want = grad_on(path, float32_dict_and_tuple, wrt=k)(*args), \
            grad_on(path, float32_dict_and_tuple, wrt=k)(*wide)
        if k == 1:
            pairs = [(got, want)]
        elif k == 2:
            pairs = [(got[n], want[n]) for n in ("w", "u")]
        else:
            pairs = list(zip(got, want))
        for g, w in pairs:
            assert g.dtype == np.float32
            np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5)
