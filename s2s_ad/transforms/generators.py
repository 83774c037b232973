"""A generator function as the function returning the list of what it yields, when it
yields from statements (`yield e` on a line of its own), loops only with `for` (so it
ends) and returns no value: iterated by a `for` loop or `list(...)`, as it is where s2s_ad
reads it, the list gives the same items in the same order.

    def layers(weights):                       def layers(weights):
        for m, n in shapes:                        items = []
            yield weights[:m * n], ...      ->     for m, n in shapes:
            weights = weights[m * n:]                  items.append((weights[:m * n], ...))
                                                       weights = weights[m * n:]
                                                   return items

Runs on the parsed function (its own def and the defs nested in it), before resolve and
fence, on a copy: the input is not changed. Any other generator (a `while` loop, which
may not end, `yield` inside an expression, `yield from`, `return value`) is left as it
is: the fence's located error.
"""
import dataclasses

import gast

from ..ir import build
from ..ir.walk import own_nodes, walk_tree


def generators_as_lists(parsed):
    """`parsed` (parse.ParsedFunction) with each such generator def made a list's."""
    if not any(_eager(node) for node in walk_tree(parsed.tree)):
        return parsed
    tree = build.clone(parsed.tree)
    used = {n.id for n in walk_tree(tree) if isinstance(n, gast.Name)}
    for node in list(walk_tree(tree)):
        if _eager(node):
            name = "items"
            while name in used:
                name += "_"
            used.add(name)
            _as_list(node, name)
    return dataclasses.replace(parsed, tree=tree)


def listed_generator(function):
    """Is `function` a generator function whose calls s2s_ad reads as lists (its def one
    generators_as_lists rewrites)? A call of it in f is then `list(function(...))`, the
    value its derivative's list version gives."""
    import inspect
    from ..frontend.parse import parse
    if not inspect.isgeneratorfunction(function):
        return False
    try:
        return _eager(parse(function).tree)
    except Exception:      # no source to read: the call is left as it is (a located error)
        return False


def _eager(node):
    """Is `node` a generator def that a list can stand for (the module docstring)?"""
    if not isinstance(node, gast.FunctionDef):
        return False
    own = list(own_nodes(node))
    yields = [n for n in own if isinstance(n, (gast.Yield, gast.YieldFrom))]
    statements = {id(n.value) for n in own if isinstance(n, gast.Expr)}
    return bool(yields) and all(isinstance(n, gast.Yield) and id(n) in statements
                                for n in yields) \
        and not any(isinstance(n, (gast.While, gast.AsyncFor, gast.Await)) for n in own) \
        and not any(isinstance(n, gast.Return) and n.value is not None for n in own)


def _as_list(fdef, name):
    def rewrite(body):
        out = []
        for stmt in body:
            if isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Yield):
                item = stmt.value.value if stmt.value.value is not None else build.const(None)
                stmt = build.with_location(build.expr_stmt(build.call(
                    build.attribute(build.name(name), "append"), [item])), stmt)
            elif isinstance(stmt, gast.Return):
                stmt = build.with_location(build.ret(build.name(name)), stmt)
            elif not isinstance(stmt, gast.FunctionDef):
                for field in ("body", "orelse"):
                    if isinstance(getattr(stmt, field, None), list):
                        setattr(stmt, field, rewrite(getattr(stmt, field)))
            out.append(stmt)
        return out
    body = rewrite(fdef.body)
    docstring = body[:1] if body and isinstance(body[0], gast.Expr) \
        and isinstance(body[0].value, gast.Constant) else []
    start = build.with_location(build.assign(name, build.list_([])), fdef.body[0])
    end = build.with_location(build.ret(build.name(name)), fdef.body[-1])
    fdef.body = docstring + [start] + body[len(docstring):] + [end]
