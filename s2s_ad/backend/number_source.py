"""A number written as source text that gives back exactly that number, of its type, for
the modules the CLI writes (backend/standalone.py): constants a derivative reads.

    2.302585092994046        ->  "2.302585092994046"
    float("inf")             ->  "float('inf')"
    np.float32(0.1)          ->  "np.float32(0.10000000149011612)"
"""
import math

import numpy


def number_source(value, numpy_name):
    """Source text giving back exactly `value`, of its type: `2.302585092994046`,
    `float('inf')`, `np.float32(0.10000000149011612)`; None if `value` is no plain number
    (bool, int, float, complex or a numpy scalar of at most 64-bit parts)."""
    kind = type(value)
    if kind in (bool, int):
        return repr(value)
    if kind is float:
        return repr(value) if math.isfinite(value) else f"float('{value!r}')"
    if kind is complex:
        return f"complex({number_source(value.real, numpy_name)}, " \
               f"{number_source(value.imag, numpy_name)})"
    if isinstance(value, numpy.generic) and value.dtype.kind in "biufc" \
            and value.dtype.itemsize <= (16 if value.dtype.kind == "c" else 8) \
            and getattr(numpy, kind.__name__, None) is kind:
        return f"{numpy_name}.{kind.__name__}({number_source(value.item(), numpy_name)})"
    return None


def same_number(a, b):
    """Two numbers one literal writes (`LN2` of numpy_math and of python_math)."""
    text = number_source(a, "numpy")
    return text is not None and type(a) is type(b) and text == number_source(b, "numpy")
