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

An array read so item by item in a loop is read from a list made once, as by hand: a
1-d float64 argument f does not differentiate, bound nowhere, every use of which is
`len(obs)` or a read `obs[t]` with t the integer target of an enclosing `for` loop (a
float32 one too where f converts each such read with `float(...)` and uses it no other
way):

    for t in t2_1:                          obs_items = array_tolist(obs)     (first)
        t1_5 = obs[t]             ->        ...
        ...                                 for t in t2_1:
                                                t1_5 = obs_items[t]

Same values: `tolist()` holds the Python float of each entry, which `float(obs[t])` makes
of it, and nothing writes into obs; an index past either end raises IndexError both ways.
(`obs.tolist()` is a primitive with its templates: a derivative of this derivative along
obs differentiates it.)

`python_float_reads(levels, kinds, namer, analyse, differentiated)` returns `(levels,
kinds)`: the input pair when nothing applies, else a new LevelsForm (the input is not
modified) with the kinds `analyse(new_levels)` finds for it. `differentiated`: the names
of f's parameters the derivative is taken along (their reads stay array reads).
"""
import dataclasses
import math
import operator

import gast
import numpy as np

from .. import runtime_shape
from ..ir import build
from ..ir.primitives import operation_of
from ..ir.walk import all_statements, names_stored, walk_tree
from ..signature import Num

_NUMPY_FLOAT = Num(np.float64, "float64", ())
_NUMPY_FLOAT32 = Num(np.float32, "float32", ())
_PYTHON_FLOAT = Num(float, "float64", ())
_INT = Num(int, "int64", ())


def python_float_reads(levels, kinds, namer, analyse, differentiated=()):
    reads = [stmt for stmt in all_statements(levels.tree.body) if _is_float64_read(stmt, kinds)]
    converted = _converted_float32_reads(levels, kinds)
    if not reads and not converted:
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
    runtime_names = {**levels.runtime_names, float: float_name}
    listed = _read_item_by_item(levels, reads + converted, kinds, differentiated)
    lists = {array: namer.fresh(f"{array}_items") for array in listed}
    item_reads = {id(index[id(stmt)]): lists[array]
                  for array, stmts in listed.items() for stmt in stmts}
    tree.body = _rewrite(tree.body, targets, namer, float_name, new_levels, item_reads)
    if lists:
        tolist = _runtime_name(levels, namer, runtime_shape.array_tolist, runtime_names)
        callees[tolist] = runtime_shape.array_tolist
        tree.body = [build.assign(lists[array], build.call(build.name(tolist),
                                                           [build.name(array)]))
                     for array in listed] + tree.body
    candidate = dataclasses.replace(levels, tree=tree, callees=callees, levels=new_levels,
                                    runtime_names=runtime_names)
    new_kinds = analyse(candidate)
    if not _uses_alike(candidate, kinds, new_kinds):
        return levels, kinds
    return candidate, new_kinds


def _is_float64_read(stmt, kinds):
    return isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name) \
        and isinstance(stmt.value, gast.Subscript) \
        and kinds.of(stmt.targets[0].id) == _NUMPY_FLOAT


def _converted_float32_reads(levels, kinds):
    """The reads `t = a32[i]` of a float32 number that f converts with `float(t)` and
    uses no other way: read from a list (whose items are those floats), the same."""
    reads = {stmt.targets[0].id: stmt for stmt in all_statements(levels.tree.body)
             if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)
             and isinstance(stmt.value, gast.Subscript)
             and kinds.of(stmt.targets[0].id) == _NUMPY_FLOAT32}
    if not reads:
        return []
    converted = set()        # breadth first: a call comes before the names it reads
    for node in walk_tree(levels.tree):
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) \
                and levels.callees.get(node.func.id) is float and len(node.args) == 1:
            converted.add(id(node.args[0]))
        elif isinstance(node, gast.Name) and node.id in reads:
            if isinstance(node.ctx, gast.Store):
                if node is not reads[node.id].targets[0]:
                    reads.pop(node.id)          # bound again
            elif id(node) not in converted:
                reads.pop(node.id)              # used as a float32 number
    return list(reads.values())


def _float_name(levels, namer):
    """The name generated code calls the builtin float by (the user may rebind `float`)."""
    return _runtime_name(levels, namer, float, {})


def _runtime_name(levels, namer, function, names):
    """The name generated code calls `function` (a builtin or a runtime helper) by: its
    own where f's module does not bind that name to something else. Recorded in `names`."""
    name = levels.runtime_names.get(function)
    if name is None:
        res = levels.resolution
        mine = not res.is_value(function.__name__) \
            and res.lookup(function.__name__) is function
        name = function.__name__ if mine else namer.fresh(function.__name__)
    names[function] = name
    return name


def _read_item_by_item(levels, reads, kinds, differentiated):
    """{array: its reads `x = array[t]`} for the arrays the module docstring reads from a
    list: 1-d float64 parameters not differentiated nor bound in f, every use of which is
    `len(array)` or one of `reads` indexed by an enclosing loop's integer target."""
    args = levels.tree.args
    candidates = {a.id for a in args.posonlyargs + args.args + args.kwonlyargs
                  if a.id not in differentiated and _float_vector(kinds.of(a.id))}
    if not candidates:
        return {}
    marked = {id(stmt) for stmt in reads}
    found, other = {}, set()

    def visit(body, loop_targets):
        for stmt in body:
            value = getattr(stmt, "value", None)
            if id(stmt) in marked and isinstance(value.value, gast.Name) \
                    and value.value.id in candidates and isinstance(value.slice, gast.Name) \
                    and value.slice.id in loop_targets:
                found.setdefault(value.value.id, []).append(stmt)
                continue
            if isinstance(stmt, gast.For):
                header = [stmt.target, stmt.iter]
                inner = loop_targets | ({stmt.target.id} if isinstance(stmt.target, gast.Name)
                                        and kinds.of(stmt.target.id) == _INT else set())
                visit(stmt.body, inner)
                visit(stmt.orelse, loop_targets)
            elif isinstance(stmt, (gast.If, gast.While)):
                header = [stmt.test]
                visit(stmt.body, loop_targets)
                visit(stmt.orelse, loop_targets)
            else:           # any other block is walked whole: its reads count as other uses
                header = [stmt]
            other.update(_other_uses(header, candidates, levels.callees))
    visit(levels.tree.body, frozenset())
    bound = {name for stmt in all_statements(levels.tree.body) for name in names_stored(stmt)}
    return {array: found[array] for array in sorted(found)
            if array not in other and array not in bound}


def _float_vector(kind):
    return isinstance(kind, Num) and kind.type is np.ndarray \
        and kind.dtype in ("float64", "float32") \
        and kind.axes is not None and len(kind.axes) == 1


def _other_uses(nodes, candidates, callees):
    """The candidates read under `nodes` other than as `len(array)`."""
    allowed, used = set(), set()
    for node in (n for top in nodes for n in walk_tree(top)):     # a call before its names
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) \
                and callees.get(node.func.id) is len and len(node.args) == 1:
            allowed.add(id(node.args[0]))
        elif isinstance(node, gast.Name) and node.id in candidates and id(node) not in allowed:
            used.add(node.id)
    return used


def _rewrite(body, targets, namer, float_name, levels_of, item_reads):
    out = []
    for stmt in body:
        for field in ("body", "orelse"):
            inner = getattr(stmt, field, None)
            if inner and isinstance(inner[0], gast.stmt):
                setattr(stmt, field, _rewrite(inner, targets, namer, float_name, levels_of,
                                              item_reads))
        if id(stmt) in item_reads:      # `x = obs_items[t]`: a Python float already
            stmt.value = build.subscript(build.name(item_reads[id(stmt)]),
                                         build.name(stmt.value.slice.id))
            out.append(stmt)
            continue
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
