"""numpy spellings that are not plain calls, rewritten to calls with templates:

    np.r_[a, 2.0, 0:3]        ->  np.concatenate((np.atleast_1d(a), np.atleast_1d(2.0),
                                                  np.arange(0, 3, 1)), axis=0)
    np.c_[u, v]               ->  np.concatenate((column_item(u), column_item(v)), axis=-1)
    np.einsum(x, [0, 1], [1, 0])  ->  np.einsum('AB->BA', x)      (sublist form)
    np.piecewise(x, conds, [f, lambda v: 2 * v, 0.5])
        ->  spread_masked(f(a[m[0]]), m[0]) + spread_masked(2 * a[m[1]], m[1]) + m[2] * 0.5
            with a = np.asarray(x), m = piecewise_masks(a, conds, 3)   (piecewise_terms)

Each is exactly what numpy computes (np.piecewise calls each function on the elements
where it applies, as numpy does; np.c_ lays a 1-D item out as a column, a number as
a 1x1 array, anything else unchanged: column_item). What cannot be rewritten (a directive
string such as np.r_['0,2', ...], sublists held in variables) is a located error. Used by
`normalize` through CallMixin.
"""
import string

import gast
import numpy

from ..errors import UnsupportedSyntaxError
from ..ir import build

AXIS_CONCATENATORS = {id(numpy.r_): 0, id(numpy.c_): -1}


def axis_concatenation(expr, np_name, axis, column_item, smap):
    """The call computing np.r_[...] (axis 0) or np.c_[...] (axis -1) of the subscript
    `expr`; `column_item(e)` builds the call laying e out as np.c_ does."""
    items = expr.slice.elts if isinstance(expr.slice, gast.Tuple) else [expr.slice]
    if items and isinstance(items[0], gast.Constant) and isinstance(items[0].value, str):
        raise UnsupportedSyntaxError(
            "np.r_ / np.c_ with a directive string is not supported", smap.locate(expr),
            "np.concatenate / np.stack with an explicit axis")
    parts = []
    for item in items:
        if isinstance(item, gast.Slice):
            item = _range_of(item, np_name)
        parts.append(column_item(item) if axis else build.call(f"{np_name}.atleast_1d", [item]))
    return build.call(f"{np_name}.concatenate", [build.tuple_(parts)],
                      [("axis", build.const(axis))])


def _range_of(item, np_name):
    """start:stop:step as np.r_ reads it: np.arange, or np.linspace for a step `n * 1j`."""
    start = item.lower or build.const(0)
    step = item.step
    if isinstance(step, gast.Constant) and isinstance(step.value, complex):
        count = build.const(int(abs(step.value)))
        return build.call(f"{np_name}.linspace", [start, item.upper, count])
    return build.call(f"{np_name}.arange", [start, item.upper, step or build.const(1)])


def einsum_subscripts(expr, smap):
    """np.einsum in sublist form as a call in the string form (None for the string form):
    np.einsum(op0, sub0, op1, sub1, ..., [out]) with sublists of literal ints and `...`;
    ints 0-25 are the letters A-Z, 26-51 a-z (numpy's order, so an implicit output keeps
    its order)."""
    args = expr.args
    if len(args) < 2 or not isinstance(args[1], (gast.List, gast.Tuple)):
        return None
    paired = args if len(args) % 2 == 0 else args[:-1]     # an odd count ends with `out`
    operands = paired[0::2]
    text = ",".join(_sublist(s, expr, smap) for s in paired[1::2])
    if len(args) % 2:
        text += "->" + _sublist(args[-1], expr, smap)
    return gast.Call(func=expr.func, args=[build.const(text)] + list(operands),
                     keywords=expr.keywords)


def _sublist(node, expr, smap):
    values = [e.value if isinstance(e, gast.Constant) else
              Ellipsis if isinstance(e, gast.Name) and e.id == "Ellipsis" else None
              for e in node.elts] if isinstance(node, (gast.List, gast.Tuple)) else [None]
    if any(not (v is Ellipsis or (type(v) is int and 0 <= v < 52)) for v in values):
        raise UnsupportedSyntaxError(
            "np.einsum's sublist form is differentiated with sublists written as literal "
            "lists of integers 0-51 and `...`", smap.locate(expr),
            "np.einsum('ij->ji', x) (the string form)")
    letters = string.ascii_uppercase + string.ascii_lowercase
    return "".join("..." if v is Ellipsis else letters[v] for v in values)


def piecewise_parts(expr, smap):
    """(x, condlist, funclist items) of an np.piecewise call; a located error when the
    functions are not a literal list or tuple, or extra arguments go to them."""
    names = ("x", "condlist", "funclist")
    given = dict(zip(names, expr.args))
    given.update({k.arg: k.value for k in expr.keywords})
    if len(expr.args) > 3 or set(given) != set(names) \
            or not isinstance(given["funclist"], (gast.List, gast.Tuple)):
        raise UnsupportedSyntaxError(
            "np.piecewise is differentiated as np.piecewise(x, condlist, funclist) with the "
            "functions (names, lambdas or numbers) written as a list, and no extra "
            "arguments for them", smap.locate(expr),
            "np.piecewise(x, [x < 0, x >= 0], [np.sin, lambda v: v ** 2])")
    return given["x"], given["condlist"], list(given["funclist"].elts)


def piecewise_terms(items, array, masks, is_function, spread, smap):
    """The sum of np.piecewise's terms, one per item of funclist: a function (a lambda
    applied by substituting its parameter) called on array[masks[k]] and spread back
    by `spread(value, mask)`, or a number times the mask. `is_function(node)` tells
    whether a name stands for a function."""
    total = None
    for k, item in enumerate(items):
        mask = build.subscript(masks, build.const(k))
        gathered = build.subscript(array, mask)
        if isinstance(item, gast.Lambda):
            term = spread(_applied(item, gathered, smap), mask)
        elif is_function(item):
            term = spread(build.call(item, [gathered]), mask)
        else:
            term = build.binop(mask, "Mult", item)
        total = term if total is None else build.binop(total, "Add", term)
    return total


def _applied(function, argument, smap):
    """The body of `lambda v: body` with v replaced by `argument` (an expression without
    effects, so it may be repeated: normalize computes it once)."""
    params = function.args
    if len(params.args) != 1 or params.vararg or params.kwarg or params.kwonlyargs \
            or params.defaults:
        raise UnsupportedSyntaxError(
            "a function of np.piecewise's funclist takes one argument",
            smap.locate(function), "lambda v: ...")
    param = params.args[0].id

    class Substitute(gast.NodeTransformer):
        def visit_Name(self, node):
            return build.clone(argument) if node.id == param else node

        def visit_Lambda(self, node):       # a nested lambda may rebind the name
            return node
    return Substitute().visit(build.clone(function.body))
