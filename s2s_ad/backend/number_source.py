"""A number written as source text that gives back exactly that number, of its type, for
the modules the CLI writes (backend/standalone.py): constants a derivative reads.

    2.302585092994046        ->  "2.302585092994046"
    float("inf")             ->  "float('inf')"
    np.float32(0.1)          ->  "np.float32(0.10000000149011612)"

A table a runtime helper reads, as the text of its module's assignment (table_source):

    _EXP_LIMIT (read by runtime.logistic)  ->  "{np.dtype(np.float64): 709.0, ...}"
"""
import ast
import inspect
import math
import sys

import numpy

from ..errors import APIUsageError


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


def table_source(helper, name):
    """The text of `name = ...` in the module of the runtime helper that reads it, an
    expression of literals and numpy (as np) only; an error otherwise (a file that
    would raise NameError when it runs is never written)."""
    tree = ast.parse(inspect.getsource(sys.modules[helper.__module__]))
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and [getattr(t, "id", None) for t in stmt.targets] \
                == [name] and {n.id for n in ast.walk(stmt.value)
                               if isinstance(n, ast.Name)} <= {"np"}:
            return ast.unparse(stmt.value)
    raise APIUsageError(f"cannot write the runtime helper {helper.__name__} standalone: "
                        f"it reads the module-level `{name}`, not written out as literals")
