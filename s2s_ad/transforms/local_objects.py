"""Objects made in f that stay in f: their attributes become local variables of f
(scalar replacement), their methods nested defs (object_state.py), so a method updating
the object's state (an optimizer's momentum, a step counter) is differentiated like code
written with locals, on every path and at every order.

    def f(x):                                 def f(x):
        opt = Momentum(0.1)                       def Momentum___init__(lr): ...
        w = np.zeros(3)                           def Momentum_step(self_lr, self_m, w, g): ...
        for _ in range(3):               ->       opt_lr, opt_m = Momentum___init__(0.1)
            w = opt.step(w, x)                    w = np.zeros(3)
        return np.sum(w)                          for _ in range(3):
                                                      (opt_result, opt_m) = Momentum_step(
                                                          opt_lr, opt_m, w, x)
                                                      w = opt_result
                                                  return np.sum(w)

Runs on the parsed function, before resolve (stage 2), on a copy: the input is not
changed. Only `name = Cls(...)` at the top level of f's body, the name bound nowhere
else, Cls a plain class of f's module (object_state.class_plan), and the name used only
as `name.attr`, `name.attr = v` and `name.method(...)` after it. When the object itself
is used otherwise (returned, passed to a call, stored) and a method f calls on it
updates its attributes, the located error says so (its state would leave f); any other
object is left as it is, for normalize's own handling of objects.
"""
import builtins
import dataclasses
import inspect

import gast

from ..errors import UnsupportedSyntaxError
from ..ir import build
from ..ir.build import dotted_path
from ..ir.walk import walk_tree
from ..frontend.star_params import source_function
from ..runtime_objects import constructible
from ..signature import library_class
from .object_rewrite import Unplanned, rewrite_block, self_uses
from .object_state import class_plan


def replace_local_objects(parsed, taken):
    """`parsed` (parse.ParsedFunction) with each such object's state made locals;
    `taken`: names the new ones must not be (f's globals and builtins)."""
    func = source_function(parsed.func)
    if not _candidates(parsed.tree):
        return parsed
    tree = build.clone(parsed.tree)
    used = {n.id for n in walk_tree(tree) if isinstance(n, gast.Name)} | set(taken)

    def fresh(base):
        name, k = base, 1
        while name in used:
            name, k = f"{base}_{k}", k + 1
        used.add(name)
        return name

    tried = set()
    while True:
        todo = [(i, s) for i, s in _candidates(tree) if s.targets[0].id not in tried]
        if not todo:
            break
        index, stmt = todo[0]
        tried.add(stmt.targets[0].id)
        body = _replaced(tree, index, stmt, func, fresh, parsed.source_map)
        if body is not None:
            tree.body = body
    return dataclasses.replace(parsed, tree=tree)


def _candidates(tree):
    """[(index, `name = Cls(...)`)] at the top level of f's body, name bound once."""
    stores = {}
    for node in walk_tree(tree):
        if isinstance(node, gast.Name) and isinstance(node.ctx, (gast.Store, gast.Param)):
            stores[node.id] = stores.get(node.id, 0) + 1
    return [(i, s) for i, s in enumerate(tree.body)
            if isinstance(s, gast.Assign) and len(s.targets) == 1
            and isinstance(s.targets[0], gast.Name) and stores[s.targets[0].id] == 1
            and isinstance(s.value, gast.Call) and dotted_path(s.value.func) is not None
            and not any(isinstance(a, gast.Starred) for a in s.value.args)]


def _replaced(tree, index, stmt, func, fresh, smap):
    """f's new body for the object `stmt` makes, or None when it is left as it is."""
    name = stmt.targets[0].id
    cls = _class_named(stmt.value.func, func, tree)
    # (a library's class, np.float32(0.5) in a derivative differentiated again, is a
    # primitive, not an object whose state f could hold)
    if not isinstance(cls, type) or library_class(cls) or any(
            isinstance(n, gast.Name) and n.id == name
            for s in tree.body[:index] for n in walk_tree(s)):
        return None
    after = tree.body[index + 1:]
    where = {"__init__": stmt}
    for s in after:
        for n in walk_tree(s):
            if isinstance(n, gast.Call) and isinstance(n.func, gast.Attribute) \
                    and isinstance(n.func.value, gast.Name) and n.func.value.id == name:
                where.setdefault(n.func.attr, n)         # its first call in f
    called = set(where) - {"__init__"}
    try:
        plan = class_plan(cls, stmt.value.func, fresh, where, called)
    except Unplanned:
        return None
    try:
        self_uses(after, name)
        _check_free_names(plan, tree, _scope(func))
        local = {a: fresh(f"{name}_{a}") for a in plan.state}
        new = rewrite_block(after, name, local, plan, lambda: fresh(f"{name}_result"))
        made = _construction(stmt, plan, local)
    except Unplanned as left:
        if left.node is not None and not constructible(cls):
            _refuse_escape(name, cls, plan, called, left.node, smap)
        return None
    return tree.body[:index] + plan.defs + made + new


def _class_named(expr, func, tree):
    """The class `expr` (a dotted name f reads from its globals or closure, bound nowhere
    in f) names, else None."""
    head, *rest = dotted_path(expr).split(".")
    if any(isinstance(n, gast.Name) and n.id == head and not isinstance(n.ctx, gast.Load)
           for n in walk_tree(tree)):
        return None
    value = _scope(func).get(head)
    for attr in rest:
        value = getattr(value, attr, None)
    return value


def _scope(func):
    """{name: what it means in f} for the names f reads from outside."""
    scope = dict(vars(builtins))
    scope.update(func.__globals__)
    if func.__closure__:
        scope.update(inspect.getclosurevars(func).nonlocals)
    return scope


def _check_free_names(plan, tree, scope):
    """The methods' free names (read in their module: the class may be another module's)
    must mean the same in f, where their nested defs are inlined: none is a variable of f,
    each names there the object it names in the method's module."""
    bound = {n.id for n in walk_tree(tree) if isinstance(n, gast.Name)
             and not isinstance(n.ctx, gast.Load)}
    made = {m.name for m in plan.methods.values()}
    head = dotted_path(plan.class_expr).split(".")[0]
    for method, fdef in zip(plan.methods.values(), plan.defs):
        own = {n.id for n in walk_tree(fdef) if isinstance(n, gast.Name)
               and not isinstance(n.ctx, gast.Load)} | made | {head}
        for n in walk_tree(fdef):
            if not isinstance(n, gast.Name) or n.id in own:
                continue
            meant = method.module.get(n.id, getattr(builtins, n.id, _MISSING))
            if n.id in bound or scope.get(n.id, _MISSING) is not meant:
                raise Unplanned()


_MISSING = object()


def _construction(stmt, plan, local):
    """`opt = Cls(a)` as `opt_lr, opt_m = Cls___init__(a)` (nothing for a class without
    an __init__ of its own, called without arguments)."""
    init = plan.methods.get("__init__")
    call = stmt.value
    if init is None:
        if call.args or call.keywords:
            raise Unplanned()
        return []
    made = build.with_location(gast.Call(func=build.name(init.name), args=call.args,
                                         keywords=call.keywords), call)
    names = [local[a] for a in plan.state]
    if not names:
        return [build.with_location(build.expr_stmt(made), stmt)]
    out = build.assign(names[0], made) if len(names) == 1 else build.assign_tuple(names, made)
    return [build.with_location(out, stmt)]


def _refuse_escape(name, cls, plan, called, node, smap):
    """The located error for an object whose state a method f calls updates, used here
    as a whole (returned, passed on, stored): only an object staying in f is made locals."""
    updating = sorted(m for m in called if m in plan.methods and plan.outputs(m))
    if not updating:
        return
    attrs = ", ".join(f"`self.{a}`" for a in plan.outputs(updating[0]))
    raise UnsupportedSyntaxError(
        f"`{name}` is a {cls.__qualname__} made in f whose method `{updating[0]}` updates "
        f"its attributes ({attrs}); s2s_ad differentiates such state as local variables of "
        f"f, which needs the object to stay in f, but here `{name}` itself is used (passed "
        f"to a call, returned or stored), not only its attributes and methods",
        smap.locate(node),
        f"use only `{name}.attr` and `{name}.method(...)` in f, or keep the state in local "
        f"variables")
