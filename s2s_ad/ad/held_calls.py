"""Which function values on numbers an earlier statement of the same block still holds.

A template's adjoint often calls a function of the operand that the user's code already
called: the adjoint of `c = math.cos(E)` reads `math.sin(E)`, which a Newton step
`s = math.sin(E)` just above computed. When the backward sweep reverses a statement, every
variable holds the value it had right after that statement ran forward (later overwrites
are undone first), so a name assigned `f(args)` earlier in the same block, with neither it
nor any of args assigned in between, still holds `f(args)` there, in every iteration.

Only numbers (immutable: no write into an array can change them behind a name) and pure
functions (the math module's, numpy's ufuncs) are recorded; anything assigned inside an
`if`/`for`/`while` between the two statements ends what it touched.

    s = math.sin(E)       {}
    c = math.cos(E)       {(math.sin, E): "s"}        the adjoint of c reads s
    E = E - s / c         {(math.sin, E): "s", (math.cos, E): "c"}
"""
import math
import types

import gast
import numpy as np

from ..ir.primitives import operation_of
from ..ir.walk import walk_tree


def call_key(function, args):
    """The key a call `function(*args)` is held under (args: gast atoms), or None when an
    argument is neither a name nor a number literal."""
    parts = []
    for arg in args:
        if isinstance(arg, gast.Name):
            parts.append(("name", arg.id))
        elif isinstance(arg, gast.Constant) and type(arg.value) in (int, float):
            parts.append(("number", arg.value))
        else:
            return None
    return id(function), tuple(parts)


def is_pure_function(function):
    return isinstance(function, np.ufunc) or isinstance(
        function, types.BuiltinFunctionType) and getattr(function, "__self__", None) is math


def held_calls(tree_body, callees, is_number):
    """{id(statement): {call key: name}} for the assignments of every block in tree_body:
    the calls whose values a name still holds when that statement is reversed (read only:
    statements between which nothing changed share one)."""
    table = {}
    _block(tree_body, callees, is_number, table)
    return table


def _block(stmts, callees, is_number, table):
    # `uses` indexes the keys by the names they hold or read, so a statement ends only
    # what it touches; statements in between that end and add nothing share one table
    # (copying the table per statement, and testing every key against every statement,
    # was quadratic in a block's length)
    held, uses, shared = {}, {}, None
    for stmt in stmts:
        for name in _stored(stmt) & uses.keys():
            for key in uses.pop(name):
                if key in held and (held[key] == name or ("name", name) in key[1]):
                    del held[key]
                    shared = None
        if isinstance(stmt, (gast.If, gast.For, gast.While)):
            for field in ("body", "orelse"):
                _block(getattr(stmt, field), callees, is_number, table)
            continue
        if not (isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)):
            continue
        if shared is None:
            shared = dict(held)
        table[id(stmt)] = shared
        target = stmt.targets[0].id
        op = operation_of(stmt.value, callees)
        if op.keywords or not is_pure_function(op.primitive) or not is_number(target) \
                or not all(isinstance(a, gast.Constant) or isinstance(a, gast.Name)
                           and a.id != target and is_number(a.id) for a in op.args):
            continue
        key = call_key(op.primitive, op.args)
        if key is not None and key not in held:
            held[key], shared = target, None
            for name in {target} | {value for kind, value in key[1] if kind == "name"}:
                uses.setdefault(name, set()).add(key)


def _stored(stmt):
    """Names a statement assigns, writes into or may change by a method call, anywhere
    inside it."""
    names = set()
    for node in walk_tree(stmt):
        if isinstance(node, gast.Name) and isinstance(node.ctx, (gast.Store, gast.Del)):
            names.add(node.id)
        elif isinstance(node, gast.Subscript) and isinstance(node.ctx, gast.Store):
            names |= {n.id for n in walk_tree(node.value) if isinstance(n, gast.Name)}
        elif isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute):
            names |= {n.id for n in walk_tree(node.func.value) if isinstance(n, gast.Name)}
    return names
