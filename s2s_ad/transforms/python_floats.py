"""Specialisation on facts: float64 numbers read out of arrays become Python floats.

    a = theta[0]              ->     t1_7 = theta[0]
                                     a = float(t1_7)

numpy's float64 scalars compute the same IEEE doubles as Python floats, at three to five
times the cost per operation; in scalar code over array entries (an ODE's parameters read
from `theta`, observations `obs[t]` in a time loop) nearly all of a derivative's time goes
there, and a person writing that gradient by hand reads the entries with `.tolist()`.
The derivative specialised on the arguments' kinds does the same: each read whose result
the facts (analyses/kinds.py) prove to be a float64 number is followed by `float(...)`,
and everything computed from it, forward and backward, is plain float arithmetic.

Only where the two kinds of number behave alike on every use: the rewrite is abandoned
(the levels form returned unchanged) when a value that would become a Python float is read
as an object (an attribute or method, `.shape`, `.item()`), indexed, raised to a power
that is not an integer (a negative base gives NaN for numpy and a complex number for
Python), or handed to a function that is not numpy's, `math`'s or a builtin. What
remains different is documented in README.md: where f's numpy scalars would divide by
zero and give inf with a RuntimeWarning, the derivative raises ZeroDivisionError.

`python_float_reads(levels, kinds, namer, analyse)` returns `(levels, kinds)`: the input
pair when nothing applies, else a new LevelsForm (the input is not modified) with the kinds
`analyse(new_levels)` finds for it.
"""
import dataclasses
import math
import operator

import gast
import numpy as np

from ..ir import build
from ..ir.primitives import operation_of
from ..ir.walk import all_statements, walk_tree
from ..signature import Num

_NUMPY_FLOAT = Num(np.float64, "float64", ())
_PYTHON_FLOAT = Num(float, "float64", ())


def python_float_reads(levels, kinds, namer, analyse):
    reads = [stmt for stmt in all_statements(levels.tree.body) if _is_float64_read(stmt, kinds)]
    if not reads:
        return levels, kinds
    tree = build.clone(levels.tree)
    float_name = _float_name(levels, namer)
    marked = {id(stmt) for stmt in reads}
    index = {id(old): new for old, new in zip(all_statements(levels.tree.body),
                                             all_statements(tree.body))}
    targets = {id(index[k]) for k in marked}
    new_levels = dict(levels.levels)
    callees = dict(levels.callees)
    callees[float_name] = float
    tree.body = _rewrite(tree.body, targets, namer, float_name, new_levels)
    candidate = dataclasses.replace(levels, tree=tree, callees=callees, levels=new_levels,
                                    runtime_names={**levels.runtime_names, float: float_name})
    new_kinds = analyse(candidate)
    if not _uses_alike(candidate, kinds, new_kinds):
        return levels, kinds
    return candidate, new_kinds


def _is_float64_read(stmt, kinds):
    return isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name) \
        and isinstance(stmt.value, gast.Subscript) \
        and kinds.of(stmt.targets[0].id) == _NUMPY_FLOAT


def _float_name(levels, namer):
    """The name generated code calls the builtin float by (the user may rebind `float`)."""
    name = levels.runtime_names.get(float)
    if name is None:
        res = levels.resolution
        builtin = not res.is_value("float") and res.lookup("float") is float
        name = "float" if builtin else namer.fresh("float")
    return name


def _rewrite(body, targets, namer, float_name, levels_of):
    out = []
    for stmt in body:
        for field in ("body", "orelse"):
            inner = getattr(stmt, field, None)
            if inner and isinstance(inner[0], gast.stmt):
                setattr(stmt, field, _rewrite(inner, targets, namer, float_name, levels_of))
        if id(stmt) not in targets:
            out.append(stmt)
            continue
        target = stmt.targets[0].id
        raw = namer.level_temp(1)
        levels_of[raw] = levels_of.get(target, 1)
        read = gast.copy_location(build.assign(raw, stmt.value), stmt)
        stmt.value = build.call(build.name(float_name), [build.name(raw)])
        out.extend([read, stmt])
    return out


_ALIKE_CALLS = (math.__name__, "builtins")


def _uses_alike(levels, old, new):
    """Does every use of a value that became a Python float behave as it did?"""
    changed = {name for name, kind in new.facts.items()
               if kind == _PYTHON_FLOAT and old.of(name) != _PYTHON_FLOAT}
    changed |= {name for name, kind in new.facts.items()
                if isinstance(kind, Num) and kind.type is None and kind.axes == ()
                and old.of(name) == _NUMPY_FLOAT}

    def touched(atom):
        return isinstance(atom, gast.Name) and atom.id in changed
    for stmt in all_statements(levels.tree.body):
        for node in walk_tree(stmt):
            if isinstance(node, gast.Attribute) and touched(node.value):
                return False
            if isinstance(node, gast.Subscript) and touched(node.value):
                return False
        value = getattr(stmt, "value", None)
        if isinstance(value, gast.BinOp) and isinstance(value.op, gast.Pow) \
                and touched(value.left) and not _integer(value.right, new):
            return False
        if isinstance(value, gast.Call) and any(touched(a) for a in value.args) \
                and not _alike_callee(operation_of(value, levels.callees).primitive):
            return False
    return True


def _integer(atom, kinds):
    if isinstance(atom, gast.Constant):
        return isinstance(atom.value, int)
    kind = kinds.of(atom)
    return isinstance(kind, Num) and kind.axes == () and kind.dtype in ("int64", "bool")


def _alike_callee(primitive):
    if primitive is None:
        return False
    if isinstance(primitive, np.ufunc) or primitive in (operator.neg, float, abs, min, max):
        return True
    if primitive in (isinstance, type, id, repr, str):    # tell the two kinds apart
        return False
    module = getattr(primitive, "__module__", None) or ""
    return module in _ALIKE_CALLS or module == "numpy" or module.startswith("numpy.")
