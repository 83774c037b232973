"""Functions behind decorators: a Python wrapper (functools.wraps) is what runs, so it is
what s2s_ad differentiates; lru_cache's C wrapper leads to the def it caches."""
import functools

import numpy as np


def doubled(fn):
    @functools.wraps(fn)
    def wrapper(x):
        return fn(x) * 2.0
    return wrapper


def passes_through(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    return wrapper


def timed(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        calls.append(fn.__name__)          # a side effect around the call
        result = fn(*args, **kwargs)
        return result
    return wrapper


def scaled_star_args(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs) * 3.0
    return wrapper


calls = []


@doubled
def square_doubled(x):
    return x * x


def calls_square_doubled(x):
    return square_doubled(x) + np.sin(x)


@passes_through
def behind_star_args(x):
    return x * x


@timed
def behind_timer(x, scale=2.0):
    return np.sum(np.sin(x) * scale)


def calls_timed_helper(x):
    return behind_timer(x, scale=0.5) + np.sum(x * x)


@scaled_star_args
def scaled_behind_star_args(x):
    return x * x


@functools.lru_cache(maxsize=None)
def cached_cube(x):
    return x * x * x


def casts_to_int(x):
    return np.sum(x.astype(int) * x)


def casts_with_asarray(x):
    return np.sum(np.asarray(x, dtype=np.int64) * x + np.array(x, "int32") * x)


def casts_to_bool(x):
    return np.sum(x.astype(bool) * x)


def only_through_int_cast(x):
    return np.sum(x.astype(int))


INTEGER_DTYPE = np.int64


def casts_to_a_dtype_argument(x, dtype):
    return np.sum(x.astype(dtype) * x) + np.sum(np.asarray(x, dtype) * x)


def casts_to_a_global_dtype(x):
    return np.sum(np.array(x, dtype=INTEGER_DTYPE) * x)


def fills_with_a_dtype_argument(x, dtype):
    return np.sum(np.full(3, x[0], dtype=dtype) * x) + np.sum(np.full_like(x, x[1], dtype) * x)


def spaces_with_a_global_dtype(x):
    return np.sum(np.linspace(0.0, x[0], 4, dtype=INTEGER_DTYPE) * x[1])
