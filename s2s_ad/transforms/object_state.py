"""What an object of a plain class is made of, when its state can be local values of f:
the plan `local_objects.py` rewrites f by.

An object made in f by `opt = Momentum(0.1)` whose attributes are only read, written and
used through method calls in f is scalar-replaced there: each attribute `__init__`
stores becomes a local of f (`opt_m`), and each method a nested def taking the
attributes it reads and returning, beside its result, the ones it writes (through the
methods it calls on `self` too):

    class Momentum:                          def Momentum___init__(lr):
        def __init__(self, lr):                  self_lr = lr
            self.lr = lr                 ->      self_m = 0.0
            self.m = 0.0                         return self_lr, self_m
        def step(self, w, g):                def Momentum_step(self_lr, self_m, w, g):
            self.m = 0.9 * self.m + g            self_m = 0.9 * self_m + g
            return w - self.lr * self.m          return w - self_lr * self_m, self_m

`class_plan(cls, ...)` returns that plan (the nested defs and, per method, which
attributes go in and out), or raises `Unplanned` when the class is outside what this
covers (a method reached through super(), a property, a static method, a method
writing into an argument it is given, `self` handed on): f is then left as it is. Read
only: the class's methods are parsed afresh, and the trees returned are new.
"""
import inspect

import gast

from ..analyses.returned_classes import returned_class
from ..frontend.parse import parse
from ..ir import build
from ..ir.walk import walk_tree
from .helper_inline import _written_in_place
from .object_rewrite import Unplanned, rewrite_block, self_uses


class MethodPlan:
    """A method as a nested def: its name in f, the attributes it takes (`reads`, in the
    state's order) and returns after its result (`writes`)."""

    def __init__(self, name, tree, self_name, module):
        self.name, self.tree, self.self_name = name, tree, self_name
        self.module = module             # the globals its free names are read in
        self.reads, self.writes, self.calls = set(), set(), set()


class ClassPlan:
    """The state attributes (in the order __init__ stores them) and the method plans."""

    def __init__(self, cls, class_expr, state, methods):
        self.cls, self.class_expr, self.state, self.methods = cls, class_expr, state, methods

    def inputs(self, method):
        return [a for a in self.state if a in self.methods[method].reads]

    def outputs(self, method):
        return [a for a in self.state if a in self.methods[method].writes]

    def class_value(self, attr):
        """`Momentum.beta` for an attribute the class holds as plain data, else None."""
        value = inspect.getattr_static(self.cls, attr, None)
        if value is None or callable(value) or isinstance(value, (property, staticmethod,
                                                                 classmethod)):
            return None
        return build.attribute(build.clone(self.class_expr), attr)


def class_plan(cls, class_expr, fresh, where, called):
    """The plan of `cls` (an object of it made by `class_expr(...)` in f, and its methods
    `called` there): raises Unplanned when it does not apply. `fresh(base)` names the nested defs; `where`: {method: the node its statements
    are located at} (errors and comments point at f's line that calls it), "__init__" the
    constructor's."""
    if not isinstance(cls, type) or cls.__module__ == "builtins" or issubclass(cls, tuple) \
            or "__slots__" in dir(cls) or inspect.getattr_static(cls, "__getattr__", None) \
            or any(inspect.getattr_static(cls, n) is not inspect.getattr_static(object, n)
                   for n in ("__getattribute__", "__setattr__")):
        raise Unplanned()
    methods, todo = {}, ["__init__"] + sorted(called)
    while todo:
        attr = todo.pop()
        if attr in methods:
            continue
        fn = inspect.getattr_static(cls, attr, None)
        if attr == "__init__" and fn is object.__init__:
            fn = None
        if fn is None and attr == "__init__":
            methods[attr] = None
            continue
        if attr != "__init__" and inspect.isfunction(fn) and returned_class(fn, cls):
            # `p.scaled(2.0)` making a new object of a class: left to normalize, which
            # knows that object's class and calls its methods
            raise Unplanned()
        tree = _method_tree(fn)
        if set(_written_in_place(fn)) - {next(iter(inspect.signature(fn).parameters))}:
            # it writes into an argument it is given (`u[1:-1] += ...`): inlined by
            # normalize as a method of a known class, the write then f's own
            raise Unplanned()
        self_name = tree.args.args[0].id if tree.args.args else None
        if self_name is None or tree.args.posonlyargs:
            raise Unplanned()
        plan = methods[attr] = MethodPlan(fresh(f"{cls.__name__}_{attr}"), tree, self_name,
                                          fn.__globals__)
        for kind, name, _ in self_uses(tree.body, self_name):
            getattr(plan, {"read": "reads", "write": "writes", "call": "calls"}[kind]).add(name)
        todo.extend(plan.calls)
    init = methods.pop("__init__")
    state = _stored_in_order(init) if init else []
    for name, plan in methods.items():
        if name in state or plan.writes - set(state):
            raise Unplanned()            # a method held in an attribute, a new attribute
    if init:
        methods["__init__"] = init
    _close_over_calls(methods)
    for plan in methods.values():
        plan.reads |= plan.writes        # an attribute written on one path only keeps its value
        for attr in plan.reads - set(state):
            if inspect.getattr_static(cls, attr, None) is None or (
                    attr not in methods and callable(inspect.getattr_static(cls, attr))):
                raise Unplanned()
    made = ClassPlan(cls, class_expr, state, methods)
    if init:
        init.reads = set()               # __init__ starts the state: nothing comes in
        init.writes = set(state)
    made.defs = [_nested_def(made, name, where.get(name, where["__init__"]))
                 for name in methods]
    return made


def _method_tree(fn):
    """A fresh FunctionDef of the method `fn`, when it is a plain def whose free names are
    globals (no closure, hence no super()); local_objects checks they mean the same in f."""
    if not inspect.isfunction(fn) or fn.__closure__ \
            or "super" in fn.__code__.co_names:
        raise Unplanned()
    try:
        tree = build.clone(parse(fn).tree)
    except Exception:
        raise Unplanned() from None
    if tree.decorator_list:
        raise Unplanned()
    return tree


def _stored_in_order(plan):
    """The attributes __init__ stores, in the order of their first store."""
    seen = []
    for kind, name, _ in self_uses(plan.tree.body, plan.self_name):
        if kind == "write" and name not in seen:
            seen.append(name)
    return seen


def _close_over_calls(methods):
    """A method reads and writes what the methods it calls on `self` do."""
    changed = True
    while changed:
        changed = False
        for plan in methods.values():
            for callee in plan.calls:
                inner = methods[callee]
                if not (inner.reads <= plan.reads and inner.writes <= plan.writes):
                    plan.reads |= inner.reads
                    plan.writes |= inner.writes
                    changed = True


def _nested_def(made, method, where):
    """The nested def standing for `method`: the state it reads as its first
    parameters (named `self_m`, fresh in the method), `self.m` as those locals, every
    return (and the end of the body) giving back the result and the state written."""
    plan = made.methods[method]
    tree = plan.tree
    taken = {n.id for n in walk_tree(tree) if isinstance(n, gast.Name)}
    local = {}
    for attr in made.state:
        base = f"{plan.self_name}_{attr}"
        name, k = base, 1
        while name in taken:
            name, k = f"{base}_{k}", k + 1
        taken.add(name)
        local[attr] = name
    outputs = made.outputs(method)
    counter = iter(range(1, 1 << 30))

    def temp():
        while True:
            name = f"{plan.self_name}_call_{next(counter)}"
            if name not in taken:
                taken.add(name)
                return name

    body = rewrite_block(tree.body, plan.self_name, local, made, temp)
    body = _returning(body, [local[a] for a in outputs], method == "__init__")
    args = tree.args
    params = [build.name(local[a]) for a in made.inputs(method)]
    for p in params:
        p.ctx = gast.Param()
    args.args = params + args.args[1:]
    fdef = gast.FunctionDef(name=plan.name, args=args, body=body, decorator_list=[],
                            returns=None, type_comment=None, type_params=[])
    for node in walk_tree(fdef):
        if hasattr(node, "lineno"):
            gast.copy_location(node, where)
    return fdef


def _returning(body, outputs, is_init):
    """`body` with each `return e` giving `e, *outputs` (only the outputs for __init__,
    whose result is None), and such a return at its end."""
    if not outputs:
        return body

    def value(ret):
        if is_init:
            parts = []
        else:
            parts = [ret.value if ret.value is not None else build.const(None)]
        parts += [build.name(o) for o in outputs]
        return parts[0] if len(parts) == 1 else build.tuple_(parts)

    def visit(stmts):
        for i, stmt in enumerate(stmts):
            if isinstance(stmt, gast.Return):
                stmts[i] = build.with_location(build.ret(value(stmt)), stmt)
            elif not isinstance(stmt, (gast.FunctionDef, gast.ClassDef)):
                for field in ("body", "orelse", "finalbody", "handlers"):
                    inner = getattr(stmt, field, None)
                    if isinstance(inner, list):
                        visit(inner)
    visit(body)
    for handler in (n for n in walk_tree(gast.Module(body=body, type_ignores=[]))
                    if isinstance(n, gast.ExceptHandler)):
        visit(handler.body)
    if not body or not isinstance(body[-1], gast.Return):
        body.append(build.ret(value(gast.Return(value=None))))
    return body
