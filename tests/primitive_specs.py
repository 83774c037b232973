"""The primitive spec table: one row per differentiable primitive.

Each row names the primitive, a small function that applies it (its source is what
s2s_ad differentiates), the shapes to test it over (scalars, vectors, matrices,
broadcasting) and each argument's input domain. tests/test_primitives.py checks every
row with the inner-product test and fails when a template has no row or a row no
template.
"""
import operator
from dataclasses import dataclass, field


REAL, POSITIVE, UNIT, ABOVE_ONE, NONZERO = "real", "positive", "unit", "above_one", "nonzero"

UNARY = [((),), ((4,),), ((3, 4),)]
BINARY = [((), ()), ((4,), (4,)), ((3, 4), (3, 4)), ((3, 4), (4,)), ((3, 1), (1, 4)),
          ((), (3, 4)), ((2, 3, 4), (3, 1))]
SCALAR_ONLY = [((),)]
SCALAR_PAIR = [((), ())]


@dataclass
class Spec:
    primitive: object
    fn: object                      # a module-level function applying the primitive
    shapes: list                    # list of per-argument shape tuples
    domains: tuple = (REAL,)        # one per argument (the last repeats)
    wrt: tuple = None               # positions differentiated (default: all)
    modes: tuple = ("reverse",)
    extra: dict = field(default_factory=dict)

    def domain(self, k):
        return self.domains[min(k, len(self.domains) - 1)]


def sample(rng, shape, domain):
    """A random input of `shape` in `domain` (a Python float for shape ())."""
    if domain == POSITIVE:
        x = rng.uniform(0.5, 2.0, shape)
    elif domain == UNIT:
        x = rng.uniform(-0.9, 0.9, shape)
    elif domain == ABOVE_ONE:
        x = rng.uniform(1.1, 3.0, shape)
    elif domain == NONZERO:
        x = rng.uniform(0.5, 2.0, shape) * rng.choice([-1.0, 1.0], shape)
    else:
        x = rng.standard_normal(shape)
    return float(x) if shape == () else x


# ---- operators ------------------------------------------------------------------------
def op_add(a, b):
    return a + b


def op_sub(a, b):
    return a - b


def op_mul(a, b):
    return a * b


def op_truediv(a, b):
    return a / b


def op_pow(a, b):
    return a ** b


def op_pow_const(a):
    return a ** 3


def op_neg(a):
    return -a


def op_pos(a):
    return +a


def op_matmul(a, b):
    return a @ b


def op_mod(a, b):
    return a % b


MATMUL = [((3, 4), (4, 5)), ((4,), (4, 5)), ((3, 4), (4,)), ((4,), (4,)),
          ((2, 3, 4), (4, 5)), ((2, 3, 4), (2, 4, 5)), ((3, 4), (2, 4, 5)),
          ((2, 3, 4), (4,)), ((3,), (2, 3, 4)), ((2, 1, 3, 4), (5, 4, 2)),
          ((1, 3, 4), (2, 4, 5))]   # N-D @ 1-D, 1-D @ N-D, batch broadcasting

SPECS = [  # operators
    Spec(operator.add, op_add, BINARY),
    Spec(operator.sub, op_sub, BINARY),
    Spec(operator.mul, op_mul, BINARY),
    Spec(operator.truediv, op_truediv, BINARY, (REAL, NONZERO)),
    Spec(operator.pow, op_pow, BINARY, (POSITIVE, REAL)),
    Spec(operator.pow, op_pow_const, UNARY, (REAL,)),
    Spec(operator.neg, op_neg, UNARY),
    Spec(operator.pos, op_pos, UNARY),
    Spec(operator.matmul, op_matmul, MATMUL),
    Spec(operator.mod, op_mod, BINARY, (POSITIVE, POSITIVE)),
]


def all_specs():
    """Operators above plus every family's table (specs_*.py), in a fixed order."""
    import specs_array_syntax
    import specs_calculus
    import specs_arrays
    import specs_creation
    import specs_decompositions
    import specs_elementwise
    import specs_nan_reductions
    import specs_norms
    import specs_objects
    import specs_fft
    import specs_functions
    import specs_pad_modes
    import specs_gathered
    import specs_log_scans
    import specs_parts
    import specs_series
    import specs_tensor_linalg
    import specs_pieces
    import specs_roots_bessel
    import specs_runtime
    import specs_runtime_products
    import specs_scipy_special
    import specs_scipy_bessel_gamma
    import specs_scipy_signal
    import specs_scipy_distributions
    import specs_scipy_linalg
    import specs_scipy_dirichlet
    import specs_statistics
    import specs_zero_spread
    return SPECS + specs_elementwise.SPECS + specs_arrays.SPECS + specs_runtime.SPECS \
        + specs_creation.SPECS + specs_zero_spread.SPECS + specs_array_syntax.SPECS \
        + specs_pad_modes.SPECS + specs_decompositions.SPECS + specs_pieces.SPECS \
        + specs_nan_reductions.SPECS + specs_statistics.SPECS + specs_norms.SPECS \
        + specs_calculus.SPECS + specs_objects.SPECS + specs_scipy_special.SPECS \
        + specs_fft.SPECS + specs_functions.SPECS + specs_parts.SPECS \
        + specs_tensor_linalg.SPECS + specs_gathered.SPECS \
        + specs_series.SPECS + specs_roots_bessel.SPECS + specs_scipy_bessel_gamma.SPECS \
        + specs_scipy_signal.SPECS + specs_scipy_distributions.SPECS \
        + specs_log_scans.SPECS + specs_scipy_linalg.SPECS \
        + specs_scipy_dirichlet.SPECS + specs_runtime_products.SPECS
