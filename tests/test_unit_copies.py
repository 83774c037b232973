"""No copy `y = x * 1.0` of a read-only adjoint in the final code (the closed forms read the
forward array itself), and `y = float_copy(x)` at x's last read becomes `y = x`
(optimize/unit_copies.py): gradients against central differences on both derivative paths,
what the specialised source holds, and the programs where the copy must stay."""
import numpy as np
import pytest

import gast

import s2s_ad
from s2s_ad.optimize.unit_copies import share_unit_copies
from s2s_ad.signature import Num

from derivative_paths import PATHS
from gradcheck import assert_grad_matches

RNG = np.random.default_rng(1718)


def whitened_norm(A, X):
    """0.5 * sum(Z * Z): Z's adjoint is Z itself, read only (the cholesky's adjoint)."""
    S = A @ A.T + np.eye(A.shape[0])
    L = np.linalg.cholesky(S)
    Z = np.linalg.solve(L, X.T)
    return X.shape[0] * np.sum(np.log(np.diag(L))) + 0.5 * np.sum(Z * Z)


@pytest.mark.parametrize("path", PATHS)
def test_gradient_against_differences(path):
    args = [0.3 * RNG.standard_normal(s) for s in ((4, 4), (6, 4))]
    assert_grad_matches(whitened_norm, args, wrt=(0, 1), path=path)


def test_the_read_only_adjoint_is_the_forward_array():
    args = [0.3 * RNG.standard_normal(s) for s in ((4, 4), (6, 4))]
    df = s2s_ad.grad(whitened_norm, wrt=(0,))
    df(*args)
    src = s2s_ad.derivative_source(df, *args)
    # Z's adjoint is Z itself (`Z_bar = Z`), or the closed form reads Z where it would
    # read Z_bar (`Z @ Z.T`, or the cholesky adjoint's `lower_gram_update(..., Z, -1.0)`):
    # never a copy `Z * 1.0`
    assert ("Z_bar = Z\n" in src or "Z @ Z.T" in src or ", Z, -1.0)" in src) \
        and "* 1.0" not in src
    g = df(*args)
    assert not np.shares_memory(g, args[0]) and not np.shares_memory(g, args[1])


class _Kinds:
    def __init__(self, kinds):
        self.kinds = kinds

    def of(self, name):
        return self.kinds.get(name)


F64 = Num(np.ndarray, "float64", (None,))


def scaled_copy32(x):
    z = np.tanh(x)
    return 0.5 * np.sum(z * z)


def test_float32_stays_float32():
    x = RNG.standard_normal(5).astype(np.float32)
    g = s2s_ad.grad(scaled_copy32)(x)
    assert g.dtype == np.float32
    np.testing.assert_allclose(g, np.tanh(x) * (1 - np.tanh(x) ** 2), rtol=1e-5)


# ---- `y = float_copy(x)` at x's last read is `y = x` ------------------------------------
def smoothed_fit(u, target, lam):
    """A data term beside a first-difference penalty along the last axis: u's adjoint is
    the residual `u - target`, then each slice's share of the differences is added in."""
    du = u[..., 1:] - u[..., :-1]
    return 0.5 * np.sum((u - target) ** 2) + lam * np.sum(du * du)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("shape", [(7,), (3, 6)])
def test_slice_penalty_gradient_against_differences(path, shape):
    args = [RNG.standard_normal(shape), RNG.standard_normal(shape), 0.7]
    assert_grad_matches(smoothed_fit, args, wrt=0, path=path)


def test_the_residual_takes_the_slices_shares_in_its_own_array():
    args = [RNG.standard_normal((3, 6)), RNG.standard_normal((3, 6)), 0.7]
    df = s2s_ad.grad(smoothed_fit)
    g = df(*args)
    src = s2s_ad.derivative_source(df, *args)
    assert "float_copy" not in src and "u_bar = t" in src, src
    assert not np.shares_memory(g, args[0]) and not np.shares_memory(g, args[1])
    du = np.diff(args[0], axis=-1)
    want = args[0] - args[1]
    want[..., 1:] += 2 * 0.7 * du
    want[..., :-1] -= 2 * 0.7 * du
    np.testing.assert_allclose(g, want, rtol=1e-12)
    g32 = df(*[a.astype(np.float32) for a in args[:2]], 0.7)
    assert g32.dtype == np.float32


def _resolve(name):
    from s2s_ad import runtime_flow
    return runtime_flow.float_copy if name == "float_copy" else None


def _copy_run(source, kinds=None):
    statements = gast.parse(source).body
    return share_unit_copies(statements, _Kinds(kinds or {"x": F64}), _resolve)


def test_the_last_read_rule_on_final_code():
    out, changed = _copy_run("x = a - b\ny = float_copy(x)\ny[1:] += c\nreturn y")
    assert changed and isinstance(out[1].value, gast.Name) and out[1].value.id == "x"


@pytest.mark.parametrize("source", [
    "x = a - b\ny = float_copy(x)\ny[1:] += c\nreturn (x, y)",        # x read after
    "x = a - b\ny = float_copy(x)\ny[1:] += c\nz = x * 2.0\nreturn y",
    "x = a - b\nv = x[1:]\ny = float_copy(x)\ny[1:] += c\nreturn v @ y",  # a view read after
    "x = a - b\n_tape.append(x)\ny = float_copy(x)\ny += c\nreturn y",   # a tape keeps x
    "x = a - b\ns[0] = x\ny = float_copy(x)\ny += c\nreturn s",          # an item keeps x
    "x = a - b\nxs += [x]\ny = float_copy(x)\ny += c\nreturn xs",        # a list keeps x
    "x = p[1:]\ny = float_copy(x)\ny += c\nreturn y",                     # a view of p
    "x = a - b\nx = x + c\ny = float_copy(x)\ny += c\nreturn y",          # x assigned twice
    "x = a - b\ny = other_copy(x)\ny += c\nreturn y",                     # not float_copy
])
def test_the_float_copy_stays(source):
    assert not _copy_run(source, {"x": F64, "p": F64})[1]


def test_an_int_array_keeps_its_float_copy_at_its_last_read():
    assert not _copy_run("x = a - b\ny = float_copy(x)\ny += c\nreturn y",
                         {"x": Num(np.ndarray, "int64", (None,))})[1]
