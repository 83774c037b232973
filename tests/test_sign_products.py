"""abs's adjoint `g * np.sign(x)` written `np.copysign(g, x)` where the facts prove the two
equal: g nonnegative, zero where x is and NaN where x is (optimize/sign_products.py)."""
import gast
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on
from gradcheck import numeric_grad
from s2s_ad.optimize.sign_products import signs_as_copysign
from s2s_ad.runtime import unbroadcast
from s2s_ad.signature import Num


def smooth_l1(pred, target):
    d = np.abs(pred - target)
    m = np.minimum(d, 1.0)
    return np.mean(m * (d - 0.5 * m))


def eps_insensitive(r):
    """A support-vector regression's squared epsilon-insensitive loss."""
    return np.mean(np.maximum(np.abs(r) - 0.1, 0.0) ** 2)


def cubed_norm(x):
    return np.sum(np.abs(x) ** 3) / 3.0


def capped_below(x):
    """np.minimum(0.5, |x|) with the constant first, scaled by a constant and a count."""
    return np.sum(np.minimum(0.5, np.abs(x)) ** 2) * 2.0 / len(x)


def huber_builtin_abs(x):
    """The builtin abs of an array, and a threshold of 2.0."""
    d = abs(x)
    m = np.minimum(d, 2.0)
    return np.mean(m * (d - 0.5 * m))


# abs's adjoint here is not zero where x is (or its sign is not proved): np.sign stays
def l1(x):
    return np.sum(np.abs(x))


def smooth_l1_beta(r, beta):
    """beta < 0 makes m = beta and g = 1 / n at r = 0: copysign would give +-1/n (beta > 0
    is a fact the dispatcher guards: tests/test_sign_facts.py)."""
    d = np.abs(r)
    m = np.minimum(d, beta)
    return np.mean(m * (d - 0.5 * m)) / beta


def floored(x):
    return np.sum(np.maximum(np.abs(x), 1.0) ** 2)


def huber_scaled(r):
    """A Huber loss written with the threshold first, scaled by constants and a count: its
    share to |r| is 3 min(|r|, 0.5) / n, so sign(r) times it is 3 clip(r, -0.5, 0.5) / n."""
    d = np.abs(r)
    m = np.minimum(0.5, d)
    return 3.0 * np.sum(0.5 * m * m + 0.5 * (d - m)) / r.size


def dead_zone(r):
    """A penalty on what lies outside [-0.25, 0.25], written with the zero first, times a
    mean: its share to |r| is 4 max(|r| - 0.25, 0) / n."""
    e = np.maximum(0.0, np.abs(r) - 0.25)
    return 2.0 * np.mean(e * e)


def shifted_tube(r):
    """np.maximum(|r| - 0.1, 0.5): a floor that is no zero, so no soft threshold."""
    return np.sum(np.maximum(np.abs(r) - 0.1, 0.5) ** 2)


PROVED = [(cubed_norm, 1), (capped_below, 1)]
# g a positive multiple of np.minimum(|x|, c) or np.maximum(|x| - c, 0), c > 0: sign(x) g
# is that multiple of np.clip(x, -c, c) or x - np.clip(x, -c, c), and neither np.abs nor
# the kink is left to compute
CLIPPED = [(smooth_l1, 2), (huber_builtin_abs, 1), (huber_scaled, 1), (eps_insensitive, 1),
           (dead_zone, 1)]
KEPT = [(l1, (np.arange(-2.0, 3.0),)), (smooth_l1_beta, (np.arange(-2.0, 3.0), -0.7)),
        (floored, (np.arange(-2.0, 3.0),)), (shifted_tube, (np.arange(-2.0, 3.0),))]


def _args(f, n, shape, dtype=np.float64):
    rng = np.random.default_rng(7)
    args = tuple((2.0 * rng.standard_normal(shape)).astype(dtype) for _ in range(n))
    for a in args:
        a.flat[0] = 0.0                      # abs's kink itself: the adjoint there is 0
    return args


def _source(f, args):
    df = s2s_ad.grad(f)
    df(*args)
    return s2s_ad.derivative_source(df, *args)


@pytest.mark.parametrize("shape", [(6,), (4, 5), (3, 1, 4)])
@pytest.mark.parametrize("f, n", PROVED)
def test_copysign_where_proved_agrees_with_differences(f, n, shape):
    args = _args(f, n, shape)
    text = _source(f, args)
    assert "np.copysign(" in text and "np.sign(" not in text, text
    got = s2s_ad.grad(f)(*args)
    general = grad_on("general", f)(*args)
    np.testing.assert_allclose(got, numeric_grad(f, args, 0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got, general, rtol=1e-13, atol=0.0)
    assert got.flat[0] == 0.0


@pytest.mark.parametrize("shape", [(6,), (4, 5), (3, 1, 4)])
@pytest.mark.parametrize("f, n", CLIPPED)
def test_a_clipped_distance_times_its_sign_is_a_clip(f, n, shape):
    args = _args(f, n, shape)
    text = _source(f, args)
    assert "np.clip(" in text and "sign(" not in text and "np.minimum(" not in text \
        and "np.maximum(" not in text, text
    got = s2s_ad.grad(f)(*args)
    general = grad_on("general", f)(*args)
    np.testing.assert_allclose(got, numeric_grad(f, args, 0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got, general, rtol=1e-13, atol=0.0)
    assert got.flat[0] == 0.0


def test_the_clip_writes_into_the_difference_it_reads():
    args = _args(smooth_l1, 2, (4, 5))
    text = _source(smooth_l1, args)
    assert "np.clip(t1_0, -1.0, 1.0, out=t1_0)" in text and "np.abs(" not in text, text


@pytest.mark.parametrize("f, args", KEPT)
def test_sign_kept_where_not_proved(f, args):
    text = _source(f, args)
    assert "np.sign(" in text and "copysign" not in text, text
    for path in PATHS:
        np.testing.assert_allclose(grad_on(path, f)(*args), numeric_grad(f, args, 0),
                                   rtol=1e-5, atol=1e-6)


def test_negative_beta_is_why_the_threshold_must_be_proved():
    r = np.array([0.0, 1.0, -2.0])
    g = s2s_ad.grad(smooth_l1_beta)(r, -0.5)
    assert g[0] == 0.0
    np.testing.assert_allclose(g, numeric_grad(smooth_l1_beta, (r, -0.5), 0), atol=1e-6)


def test_nan_and_float32_keep_sign_s_numbers():
    x = np.array([np.nan, 0.0, -0.0, 3.0, -0.25, np.inf], dtype=np.float32)
    t = np.zeros_like(x)
    got = s2s_ad.grad(smooth_l1)(x, t)
    # the closed form before the rewrite: np.sign times the clipped distance over n
    # (the general sweep differs at inf: its kink share multiplies inf by a mask of 0)
    want = np.sign(x - t) * (np.minimum(np.abs(x - t), np.float32(1.0)) / x.size)
    assert got.dtype == np.float32 and want.dtype == np.float32
    np.testing.assert_array_equal(got, want)          # NaN where x is NaN, 0 at +-0


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_clips_give_the_sign_products_numbers(dtype):
    """Bit for bit, at NaN, +-0, +-inf, on the thresholds and between them."""
    x = np.array([np.nan, 0.0, -0.0, 3.0, -0.25, np.inf, -np.inf, 1.0, -1.0, 0.1, -0.1,
                  0.7, -1e-30], dtype=dtype)
    t = np.zeros_like(x)
    got = s2s_ad.grad(smooth_l1)(x, t)
    want = np.sign(x) * (np.minimum(np.abs(x), dtype(1.0)) / x.size)
    assert got.dtype == dtype
    np.testing.assert_array_equal(got, want)
    got = s2s_ad.grad(eps_insensitive)(x)
    e = np.maximum(np.abs(x) - dtype(0.1), dtype(0.0))
    want = np.sign(x) * (e * (dtype(2.0) / x.size))
    assert got.dtype == dtype
    np.testing.assert_array_equal(got, want)


def _statements(source):
    return gast.parse(source).body[0].body


def _pure(call):
    """numpy's functions without out= (PassFacts.pure_call for these sources)."""
    return isinstance(call.func, gast.Attribute) and isinstance(call.func.value, gast.Name) \
        and call.func.value.id == "np" and not any(k.arg == "out" for k in call.keywords)


def _kinds(**dtypes):
    class Kinds:
        def of(self, name):
            return Num(np.ndarray, dtypes[name], (None,)) if name in dtypes else None
    return Kinds()


@pytest.mark.parametrize("source, expected", [
    # the rule's own shape
    ("def f(r):\n d = np.abs(r)\n m = np.minimum(d, 1.0)\n g = m / r.size\n"
     " return g * np.sign(r)", True),
    # an integer array: np.sign(x) * g is integer arithmetic, copysign a float
    ("def f(r):\n d = np.abs(r)\n return d * np.sign(r)", "int"),
    # d written after it was read: the definition is not the value any more
    ("def f(r):\n d = np.abs(r)\n d = d + 1.0\n return d * np.sign(r)", False),
    # an item store anywhere may write through an alias
    ("def f(r):\n d = np.abs(r)\n r2 = r\n r2[0] = 5.0\n return d * np.sign(r)", False),
    # += into a view of r changes r after d read it
    ("def f(r):\n d = np.abs(r)\n v = r[1:]\n v += 1.0\n return d * np.sign(r)", False),
    # a subtraction of a nonnegative constant: negative where |r| < 1
    ("def f(r):\n d = np.abs(r) - 1.0\n return d * np.sign(r)", False),
    # a constant: not NaN where r is
    ("def f(r):\n return 0.0 * np.sign(r)", False),
    # a divisor of unknown sign
    ("def f(r, b):\n return np.abs(r) / b * np.sign(r)", False),
    # a method may sort r in place after d read it
    ("def f(r):\n d = np.abs(r)\n r.sort()\n return d * np.sign(r)", False),
    # so may a function the pass knows nothing of
    ("def f(r):\n d = np.abs(r)\n shuffle(r)\n return d * np.sign(r)", False),
])
def test_what_the_rules_prove(source, expected):
    dtype = "int64" if expected == "int" else "float64"
    changed = signs_as_copysign(_statements(source), _kinds(r=dtype, b="float64"),
                                {"np": np, "len": len}.get, "np", _pure)[1]
    assert changed is (expected is True)


def test_a_product_inside_a_call_is_rewritten():
    source = ("def f(r):\n d = np.abs(r)\n m = d * 2.0\n"
              " return unbroadcast(m * np.sign(r), r)")
    statements, changed = signs_as_copysign(_statements(source), _kinds(r="float64"),
                                            {"np": np, "unbroadcast": unbroadcast}.get,
                                            "np", _pure)
    assert changed
    call = statements[-1].value.args[0]
    assert isinstance(call, gast.Call) and call.func.attr == "copysign"


def test_the_statements_given_are_not_written_into():
    """The rewrite builds new statements: the ones it was given read as before."""
    source = ("def f(r):\n d = np.abs(r)\n m = d * 2.0\n"
              " return unbroadcast(m * np.sign(r), r)")
    given = _statements(source)
    before = [gast.dump(s) for s in given]
    statements, changed = signs_as_copysign(given, _kinds(r="float64"),
                                            {"np": np, "unbroadcast": unbroadcast}.get,
                                            "np", _pure)
    assert changed and statements[-1].value.args[0].func.attr == "copysign"
    assert [gast.dump(s) for s in given] == before
