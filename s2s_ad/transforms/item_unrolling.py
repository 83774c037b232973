"""A loop over a list or tuple of objects of several classes, unrolled: one copy of the body
per item, each with its item's class known (the way tracing JAX, or Julia specialising on
a tuple's types, sees a model's layers).

    for layer in self.layers:          layer_0 = self.layers[0]      (Linear)
        x = layer(x)            ->     x = layer_0(x)
                                       layer_1 = self.layers[1]      (ReLU)
                                       x = layer_1(x)
                                       ...

The specialisation's signature gives each item's class and the list's length (its
dispatcher's guard checks both), so a call on the item is its class's method without a
test of the class when the code runs, and each copy is differentiated for what flows
into it (the first layer's input, the data, needs no adjoint). Only loops whose iterable
is a parameter the function never rebinds or an attribute path of one, over at most
MAX_ITEMS items, whose body neither rebinds the loop variable nor leaves the loop early
(`break`, `continue`, `return`), and whose variable is not read after the loop; others
keep the loop (object_calls.py then tests each item's class).

Runs on the parsed function before resolve, on a copy: the input is not changed.
"""
import dataclasses

import gast

from ..ir import build
from ..ir.build import dotted_path
from ..ir.walk import own_nodes, walk_tree

MAX_ITEMS = 8


def unroll_item_loops(parsed, functions):
    """`parsed` with each such loop unrolled; `functions`: call_kinds.known_functions of
    the signature ({"self.layers[*].__classes__": (Linear, ReLU), "self.layers[0].__class__":
    Linear, ...})."""
    used = {n.id for n in walk_tree(parsed.tree) if isinstance(n, gast.Name)}

    def fresh(name):
        while name in used:
            name += "_"
        used.add(name)
        return name
    tree = unrolled_item_loops(parsed.tree, functions, fresh)
    return parsed if tree is parsed.tree else dataclasses.replace(parsed, tree=tree)


def unrolled_item_loops(tree, functions, fresh):
    """A copy of the def `tree` with each such loop unrolled, the names it binds made by
    `fresh` (a method inlined into f gives the normalizer's namer: its `self.layers` is
    then named by the facts its object's were given under, inline._know_as); `tree`
    itself when no loop is one to unroll."""
    if not any(key.endswith(("[*].__classes__", "].__class__")) for key in functions or ()):
        return tree
    stored = {n.id for n in walk_tree(tree)
              if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)}
    context = (functions, stored, _mentions(tree))
    if not any(isinstance(node, gast.For) and _length(node, *context) is not None
               for node in own_nodes(tree)):
        return tree
    tree = build.clone(tree)
    context = (functions, stored, _mentions(tree))
    tree.body = _unrolled_block(tree.body, context, fresh)
    for node in own_nodes(tree):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                setattr(node, field, _unrolled_block(block, context, fresh))
    return tree


def _unrolled_block(stmts, context, fresh):
    out = []
    for stmt in stmts:
        n = _length(stmt, *context) if isinstance(stmt, gast.For) else None
        if n is None:
            out.append(stmt)
            continue
        name = stmt.target.id
        items = fresh(f"{name}_items")       # (evaluated once, as by the loop)
        out.append(build.with_location(build.assign(items, build.clone(stmt.iter)), stmt))
        for k in range(n):
            item = fresh(f"{name}_{k}")
            out.append(build.with_location(build.assign(item, build.subscript(
                build.name(items), build.const(k))), stmt))
            for inner in stmt.body:
                copy = build.clone(inner)
                for node in walk_tree(copy):
                    if isinstance(node, gast.Name) and node.id == name:
                        node.id = item
                out.append(copy)
    return out


def _length(loop, functions, stored, mentions):
    """The number of items of the list `loop` iterates, when it is one to unroll: the
    loop is the only place the function mentions its variable and its iterable (so
    nothing appends to the list, or reads the variable after the loop)."""
    path = dotted_path(loop.iter)
    if path is None or path.split(".")[0] in stored \
            or not _varied(path, functions) \
            or not isinstance(loop.target, gast.Name) or loop.orelse \
            or mentions.get(path) != 1:
        return None
    inside = _mentions(loop)
    if inside.get(loop.target.id) != mentions.get(loop.target.id):
        return None
    n = 0
    while f"{path}[{n}].__class__" in functions:
        n += 1
    if not 0 < n <= MAX_ITEMS:
        return None
    for node in walk_tree(gast.Module(body=loop.body, type_ignores=[])):
        if isinstance(node, (gast.Break, gast.Continue, gast.Return, gast.Yield,
                             gast.FunctionDef, gast.Lambda)) \
                or isinstance(node, gast.Name) and node.id == loop.target.id \
                and not isinstance(node.ctx, gast.Load):
            return None
    return n


def _varied(path, functions):
    """Are the items of the list at `path` of several classes, or of one class holding
    objects of different classes (blocks whose activations differ), so that no one class
    per attribute stands for every item ("path[*].act.__class__" is missing)?"""
    if f"{path}[*].__classes__" in functions:
        return True
    every = {key[len(path) + 3:] for key in functions if key.startswith(f"{path}[*].")}
    k = 0
    while f"{path}[{k}].__class__" in functions:
        prefix = f"{path}[{k}]"
        if any(key.startswith(prefix + ".") and key[len(prefix):] not in every
               for key in functions):
            return True
        k += 1
    return False


def _mentions(tree):
    """How often each name and each attribute path (`self.layers`) occurs in `tree`, a
    parameter's own declaration not counted (`def loss(x, layers)`: `layers` is then a
    list argument the loop alone reads)."""
    counts = {}
    for node in walk_tree(tree):
        if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Param):
            continue
        key = node.id if isinstance(node, gast.Name) else dotted_path(node) \
            if isinstance(node, gast.Attribute) else None
        if key is not None:
            counts[key] = counts.get(key, 0) + 1
    return counts
