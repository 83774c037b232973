"""Spec rows for elementwise numpy functions and the math module (see primitive_specs);
those of mod, fmod and ptp (smooth between jumps or kinks) are in specs_piecewise."""
import builtins
import math

import numpy as np

import specs_piecewise
from primitive_specs import (ABOVE_ONE, BINARY, NONZERO, POSITIVE, REAL, SCALAR_ONLY,
                             SCALAR_PAIR, UNARY, UNIT, Spec)


# ---- numpy: unary ---------------------------------------------------------------------
def np_exp(x):
    return np.exp(x)


def np_exp2(x):
    return np.exp2(x)


def np_expm1(x):
    return np.expm1(x)


def np_log(x):
    return np.log(x)


def np_log1p(x):
    return np.log1p(x)


def np_log2(x):
    return np.log2(x)


def np_log10(x):
    return np.log10(x)


def np_sqrt(x):
    return np.sqrt(x)


def np_cbrt(x):
    return np.cbrt(x)


def np_square(x):
    return np.square(x)


def np_reciprocal(x):
    return np.reciprocal(x)


def np_sin(x):
    return np.sin(x)


def np_cos(x):
    return np.cos(x)


def np_tan(x):
    return np.tan(x)


def np_arcsin(x):
    return np.arcsin(x)


def np_arccos(x):
    return np.arccos(x)


def np_arctan(x):
    return np.arctan(x)


def np_sinc(x):
    return np.sinc(x)


def np_deg2rad(x):
    return np.deg2rad(x)


def np_rad2deg(x):
    return np.rad2deg(x)


def np_sinh(x):
    return np.sinh(x)


def np_cosh(x):
    return np.cosh(x)


def np_tanh(x):
    return np.tanh(x)


def np_arcsinh(x):
    return np.arcsinh(x)


def np_arccosh(x):
    return np.arccosh(x)


def np_arctanh(x):
    return np.arctanh(x)


def np_negative(x):
    return np.negative(x)


def np_positive(x):
    return np.positive(x)


def np_abs(x):
    return np.abs(x)


def np_fabs(x):
    return np.fabs(x)


# ---- numpy: binary --------------------------------------------------------------------
def np_add(a, b):
    return np.add(a, b)


def np_subtract(a, b):
    return np.subtract(a, b)


def np_multiply(a, b):
    return np.multiply(a, b)


def np_divide(a, b):
    return np.divide(a, b)


def np_power(a, b):
    return np.power(a, b)


def np_float_power(a, b):
    return np.float_power(a, b)


def np_hypot(a, b):
    return np.hypot(a, b)


def np_arctan2(a, b):
    return np.arctan2(a, b)


def np_logaddexp(a, b):
    return np.logaddexp(a, b)


def np_logaddexp2(a, b):
    return np.logaddexp2(a, b)


def np_maximum(a, b):
    return np.maximum(a, b)


def np_minimum(a, b):
    return np.minimum(a, b)


def np_fmax(a, b):
    return np.fmax(a, b)


def np_fmin(a, b):
    return np.fmin(a, b)


def np_power_const(a):
    return np.power(a, 3.0)


# ---- numpy: clip and where ------------------------------------------------------------
def np_clip(a, lo, hi):
    return np.clip(a, lo - 1.0, hi + 1.0)


def np_clip_keywords(a):
    return np.clip(a, a_min=-0.5, a_max=0.5)


def np_clip_one_sided(a, b):
    return np.clip(a, None, b) + np.clip(a, b, None)


def np_where(a, b):
    return np.where(a > 0.0, a * b, b)


def np_where_operands(a, b):
    return np.where(b > a, a, b)


# ---- math module ----------------------------------------------------------------------
def math_exp(x):
    return math.exp(x)


def math_expm1(x):
    return math.expm1(x)


def math_log(x):
    return math.log(x)


def math_log1p(x):
    return math.log1p(x)


def math_log2(x):
    return math.log2(x)


def math_log10(x):
    return math.log10(x)


def math_sqrt(x):
    return math.sqrt(x)


def math_fabs(x):
    return math.fabs(x)


def math_sin(x):
    return math.sin(x)


def math_cos(x):
    return math.cos(x)


def math_tan(x):
    return math.tan(x)


def math_asin(x):
    return math.asin(x)


def math_acos(x):
    return math.acos(x)


def math_atan(x):
    return math.atan(x)


def math_sinh(x):
    return math.sinh(x)


def math_cosh(x):
    return math.cosh(x)


def math_tanh(x):
    return math.tanh(x)


def math_asinh(x):
    return math.asinh(x)


def math_acosh(x):
    return math.acosh(x)


def math_atanh(x):
    return math.atanh(x)


def math_erf(x):
    return math.erf(x)


def math_erfc(x):
    return math.erfc(x)


def math_pow(a, b):
    return math.pow(a, b)


def math_hypot(a, b):
    return math.hypot(a, b)


def math_atan2(a, b):
    return math.atan2(a, b)


def math_log_base(x, base):
    return math.log(x, base)


# ---- builtins -------------------------------------------------------------------------
def builtin_abs(x):
    return abs(x)


def builtin_pow(a, b):
    return pow(a, b)


def builtin_pow_const(a):
    return pow(a, 3)


def builtin_max(a, b):
    return max(a, b)


def builtin_min(a, b):
    return min(a, b)


def builtin_max_const(a):
    return max(a, 0.0)


def builtin_float(x):
    return float(x) * x


CLIP = [((), (), ()), ((4,), (), ()), ((), (4,), (4,)), ((3, 4), (4,), (3, 1)),
        ((3, 4), (3, 4), (3, 4))]
CLIP_ONE_SIDED = [((), ()), ((4,), ()), ((3, 4), (4,)), ((3, 4), (3, 1))]


def builtin_sum_of_list(a, b):
    return sum([a, b, a * b])


def math_fsum_of_list(a, b):
    return math.fsum([a, b, a * b, math.sin(a)])


SPECS = [
    # numpy, unary
    Spec(np.exp, np_exp, UNARY),
    Spec(np.exp2, np_exp2, UNARY),
    Spec(np.expm1, np_expm1, UNARY),
    Spec(np.log, np_log, UNARY, (POSITIVE,)),
    Spec(np.log1p, np_log1p, UNARY, (POSITIVE,)),
    Spec(np.log2, np_log2, UNARY, (POSITIVE,)),
    Spec(np.log10, np_log10, UNARY, (POSITIVE,)),
    Spec(np.sqrt, np_sqrt, UNARY, (POSITIVE,)),
    Spec(np.cbrt, np_cbrt, UNARY, (NONZERO,)),
    Spec(np.square, np_square, UNARY),
    Spec(np.reciprocal, np_reciprocal, UNARY, (NONZERO,)),
    Spec(np.sin, np_sin, UNARY),
    Spec(np.cos, np_cos, UNARY),
    Spec(np.tan, np_tan, UNARY, (UNIT,)),
    Spec(np.arcsin, np_arcsin, UNARY, (UNIT,)),
    Spec(np.arccos, np_arccos, UNARY, (UNIT,)),
    Spec(np.arctan, np_arctan, UNARY),
    Spec(np.sinc, np_sinc, UNARY),
    Spec(np.deg2rad, np_deg2rad, UNARY),
    Spec(np.rad2deg, np_rad2deg, UNARY),
    Spec(np.sinh, np_sinh, UNARY),
    Spec(np.cosh, np_cosh, UNARY),
    Spec(np.tanh, np_tanh, UNARY),
    Spec(np.arcsinh, np_arcsinh, UNARY),
    Spec(np.arccosh, np_arccosh, UNARY, (ABOVE_ONE,)),
    Spec(np.arctanh, np_arctanh, UNARY, (UNIT,)),
    Spec(np.negative, np_negative, UNARY),
    Spec(np.positive, np_positive, UNARY),
    Spec(np.abs, np_abs, UNARY, (NONZERO,)),
    Spec(np.fabs, np_fabs, UNARY, (NONZERO,)),
    # numpy, binary (with broadcasting)
    Spec(np.add, np_add, BINARY),
    Spec(np.subtract, np_subtract, BINARY),
    Spec(np.multiply, np_multiply, BINARY),
    Spec(np.divide, np_divide, BINARY, (REAL, NONZERO)),
    Spec(np.power, np_power, BINARY, (POSITIVE, REAL)),
    Spec(np.power, np_power_const, UNARY, (NONZERO,)),
    Spec(np.float_power, np_float_power, BINARY, (POSITIVE, REAL)),
    Spec(np.hypot, np_hypot, BINARY, (NONZERO,)),
    Spec(np.arctan2, np_arctan2, BINARY, (NONZERO,)),
    Spec(np.logaddexp, np_logaddexp, BINARY),
    Spec(np.logaddexp2, np_logaddexp2, BINARY),
    Spec(np.maximum, np_maximum, BINARY),
    Spec(np.minimum, np_minimum, BINARY),
    Spec(np.fmax, np_fmax, BINARY),
    Spec(np.fmin, np_fmin, BINARY),
    # numpy, clip and where
    Spec(np.clip, np_clip, CLIP, (REAL, UNIT, UNIT)),
    Spec(np.clip, np_clip_keywords, UNARY),
    Spec(np.clip, np_clip_one_sided, CLIP_ONE_SIDED, (REAL, UNIT)),
    Spec(np.where, np_where, BINARY),
    Spec(np.where, np_where_operands, BINARY),
    # math module
    Spec(math.exp, math_exp, SCALAR_ONLY),
    Spec(math.expm1, math_expm1, SCALAR_ONLY),
    Spec(math.log, math_log, SCALAR_ONLY, (POSITIVE,)),
    Spec(math.log, math_log_base, SCALAR_PAIR, (POSITIVE, ABOVE_ONE)),
    Spec(math.log1p, math_log1p, SCALAR_ONLY, (POSITIVE,)),
    Spec(math.log2, math_log2, SCALAR_ONLY, (POSITIVE,)),
    Spec(math.log10, math_log10, SCALAR_ONLY, (POSITIVE,)),
    Spec(math.sqrt, math_sqrt, SCALAR_ONLY, (POSITIVE,)),
    Spec(math.pow, math_pow, SCALAR_PAIR, (POSITIVE, REAL)),
    Spec(math.hypot, math_hypot, SCALAR_PAIR, (NONZERO,)),
    Spec(math.fabs, math_fabs, SCALAR_ONLY, (NONZERO,)),
    Spec(math.sin, math_sin, SCALAR_ONLY),
    Spec(math.cos, math_cos, SCALAR_ONLY),
    Spec(math.tan, math_tan, SCALAR_ONLY, (UNIT,)),
    Spec(math.asin, math_asin, SCALAR_ONLY, (UNIT,)),
    Spec(math.acos, math_acos, SCALAR_ONLY, (UNIT,)),
    Spec(math.atan, math_atan, SCALAR_ONLY),
    Spec(math.atan2, math_atan2, SCALAR_PAIR, (NONZERO,)),
    Spec(math.sinh, math_sinh, SCALAR_ONLY),
    Spec(math.cosh, math_cosh, SCALAR_ONLY),
    Spec(math.tanh, math_tanh, SCALAR_ONLY),
    Spec(math.asinh, math_asinh, SCALAR_ONLY),
    Spec(math.acosh, math_acosh, SCALAR_ONLY, (ABOVE_ONE,)),
    Spec(math.atanh, math_atanh, SCALAR_ONLY, (UNIT,)),
    Spec(math.erf, math_erf, SCALAR_ONLY),
    Spec(math.erfc, math_erfc, SCALAR_ONLY),
    # builtins
    Spec(abs, builtin_abs, UNARY, (NONZERO,)),
    Spec(pow, builtin_pow, SCALAR_PAIR, (POSITIVE, REAL)),
    Spec(pow, builtin_pow_const, SCALAR_ONLY, (NONZERO,)),
    Spec(max, builtin_max, SCALAR_PAIR),
    Spec(max, builtin_max_const, SCALAR_ONLY, (NONZERO,)),
    Spec(min, builtin_min, SCALAR_PAIR),
    Spec(float, builtin_float, SCALAR_ONLY),
    Spec(builtins.sum, builtin_sum_of_list, BINARY),
    Spec(math.fsum, math_fsum_of_list, SCALAR_PAIR),
] + specs_piecewise.SPECS

