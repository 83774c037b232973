"""Reads the backward sweep repeats instead of taping: `v = xs[i]` in a `for i in ...` loop.

An item of a container nothing writes, at the loop's own index, costs less to read again
at the top of each backward iteration than to push on the tape and pop (the backward loop
runs over the same indices, in reverse):

    for i in t2_0:                          for i in t2_0[::-1]:
        c = coeffs[i]            ->             c = coeffs[i]        (no _tape.append(c),
        p = p * x + a * c                       ...                   no c = _tape.pop())

A specialisation's `v = float(t)` of such a read (transforms/python_floats.py) is
repeated with it. Only when `v` is assigned nowhere else, is not read in the loop body before this statement
(that would be the previous iteration's item), and `xs` is never assigned, written into
or changed by a method call anywhere in the function; or `xs` is a list of an array's
items (`obs_items = array_tolist(obs)`, the list python_floats reads an array's items
from) assigned once, by a statement of the function's own top level, and read nowhere
but through an index or a builtin that only reads: a copy of the values (later writes
into obs do not reach it) that no other name holds, the same list from there on.
"""
import gast

from ..ir.walk import all_statements, walk_tree


def recomputed_reads(body, numpy_name, float_name=None, tolist_name=None):
    """{id(loop): [statements]} of the reads to repeat, and the set of their ids.
    `float_name`: the name the builtin float has where python_floats converted reads;
    `tolist_name`: runtime_shape.array_tolist's, where f calls it."""
    stored, mutated = _stores(body, numpy_name)
    fixed = _fixed_at_top(body, stored, mutated, tolist_name)
    by_loop, ids = {}, set()
    for loop in all_statements(body):
        if not (isinstance(loop, gast.For) and isinstance(loop.target, gast.Name)):
            continue
        index = loop.target.id
        if stored.get(index, 0) != 1:
            continue
        read_before, repeated = set(), set()
        for stmt in loop.body:
            once = isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name) \
                and stored.get(stmt.targets[0].id) == 1 \
                and stmt.targets[0].id not in read_before
            if once and (_is_item_read(stmt, index) and stmt.value.value.id not in mutated
                         and (stmt.value.value.id not in stored or stmt.value.value.id in fixed)
                         or _is_conversion(stmt, float_name, repeated)):
                by_loop.setdefault(id(loop), []).append(stmt)
                ids.add(id(stmt))
                repeated.add(stmt.targets[0].id)
            read_before |= {n.id for n in walk_tree(stmt)
                            if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Load)}
    return by_loop, ids


def _fixed_at_top(body, stored, mutated, tolist_name):
    """The lists of an array's items the module docstring reads again."""
    candidates = {stmt.targets[0].id for stmt in body if isinstance(stmt, gast.Assign)
                  and len(stmt.targets) == 1 and isinstance(stmt.targets[0], gast.Name)
                  and isinstance(stmt.value, gast.Call) and not stmt.value.keywords
                  and isinstance(stmt.value.func, gast.Name)
                  and stmt.value.func.id == tolist_name}
    candidates = {n for n in candidates if stored.get(n) == 1 and n not in mutated}
    if not candidates:
        return candidates
    allowed = set()         # breadth first: a subscript or a call comes before its names
    for node in walk_tree(gast.Module(body=body, type_ignores=[])):
        if isinstance(node, gast.Subscript):
            allowed.add(id(node.value))
        elif isinstance(node, gast.Call) and isinstance(node.func, gast.Name) \
                and node.func.id in _READERS:
            allowed.update(id(a) for a in node.args)
        elif isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load) \
                and node.id in candidates and id(node) not in allowed:
            candidates.discard(node.id)
    return candidates


def _is_item_read(stmt, index):
    return isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name) \
        and isinstance(stmt.value, gast.Subscript) \
        and isinstance(stmt.value.value, gast.Name) \
        and isinstance(stmt.value.slice, gast.Name) and stmt.value.slice.id == index


def _is_conversion(stmt, float_name, repeated):
    """`v = float(t)` of a value read again in the backward loop."""
    value = stmt.value
    return float_name is not None and isinstance(value, gast.Call) \
        and isinstance(value.func, gast.Name) and value.func.id == float_name \
        and len(value.args) == 1 and not value.keywords \
        and isinstance(value.args[0], gast.Name) and value.args[0].id in repeated


_NUMPY_WRITERS = {"copyto", "put", "place", "putmask", "fill_diagonal", "put_along_axis"}
_READERS = {"len", "range", "float", "int", "abs", "min", "max", "sum", "zip", "enumerate",
            "tuple", "list", "sorted", "reversed", "isinstance", "type", "round", "print"}


def _stores(body, numpy_name):
    """How often each name is bound, and the names written into or called a method on."""
    stored, mutated = {}, set()
    module = gast.Module(body=body, type_ignores=[])
    for node in walk_tree(module):
        if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Store):
            stored[node.id] = stored.get(node.id, 0) + 1
        elif isinstance(node, (gast.Subscript, gast.Attribute)) \
                and isinstance(node.ctx, (gast.Store, gast.Del)):
            base = node.value
            while isinstance(base, (gast.Subscript, gast.Attribute)):
                base = base.value
            if isinstance(base, gast.Name):
                mutated.add(base.id)
        elif isinstance(node, gast.Call):
            func = node.func
            numpy_call = isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name) \
                and func.value.id == numpy_name and func.attr not in _NUMPY_WRITERS \
                and not any(k.arg == "out" for k in node.keywords)
            if isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name) \
                    and not numpy_call:
                mutated.add(func.value.id)           # xs.append(...), xs.sort()
            if not numpy_call and not (isinstance(func, gast.Name) and func.id in _READERS):
                # any other call may write into an array it is given (a helper, np.copyto)
                mutated.update(a.id for a in node.args if isinstance(a, gast.Name))
    return stored, mutated
