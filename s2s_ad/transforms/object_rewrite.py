"""The statements of f (or of one of the object's methods) with an object's attributes as
local names and its method calls as calls of their nested defs (object_state.py), each
call hoisted to a statement of its own, in the order Python runs them, so the state it
returns is bound before what follows reads it:

    w = opt.step(w, g) * 2.0          (opt_result, opt_m) = Momentum_step(opt_lr, opt_m, w, g)
                                  ->  w = opt_result * 2.0
    opt.t += 1                        opt_t += 1

A call whose running is conditional or repeated inside its statement (in `and` / `or`,
`a if c else b`, a comprehension, a lambda, a while test) cannot be hoisted, nor can a
statement read an attribute a call hoisted out of it writes: `Unplanned`, and f is left as
it is. The input statements are not changed (rewrite_block works on copies).
"""
import gast

from ..ir import build
from ..ir.walk import walk_tree


class Unplanned(Exception):
    """The object's state cannot be local values; `node`: where the object itself is used
    other than through an attribute (f's located error when its methods update it)."""

    def __init__(self, node=None):
        super().__init__()
        self.node = node


def self_uses(body, obj):
    """[(kind, attribute, node)] for every use of the name `obj` in `body`: "read"
    (`obj.a`), "write" (`obj.a = v`, `obj.a += v`) or "call" (`obj.m(...)`). Raises
    Unplanned(node) for any other use (the object passed on, returned, rebound)."""
    parents, found = {}, []
    for stmt in body:
        for node in walk_tree(stmt):
            for child in gast.iter_child_nodes(node):
                parents[id(child)] = node
    for stmt in body:
        for node in walk_tree(stmt):
            if not (isinstance(node, gast.Name) and node.id == obj):
                continue
            parent = parents.get(id(node))
            if not isinstance(node.ctx, gast.Load) or not isinstance(parent, gast.Attribute) \
                    or parent.value is not node:
                raise Unplanned(node)
            if isinstance(parent.ctx, gast.Store):
                found.append(("write", parent.attr, parent))
            elif not isinstance(parent.ctx, gast.Load):
                raise Unplanned(node)
            elif isinstance(parents.get(id(parent)), gast.Call) \
                    and parents[id(parent)].func is parent:
                found.append(("call", parent.attr, parents[id(parent)]))
            else:
                held = parents.get(id(parent))
                if isinstance(held, gast.Subscript) and held.value is parent \
                        and not isinstance(held.ctx, gast.Load):
                    # `self.hist[0] = v`: a write into the array the object holds, which
                    # other names may hold too (normalize's own handling of objects)
                    raise Unplanned()
                found.append(("read", parent.attr, parent))
    return found


def rewrite_block(stmts, obj, local, plan, temp):
    """Copies of `stmts` rewritten as above; `local`: attribute -> its local name,
    `plan`: the ClassPlan, `temp()`: a fresh name for a call's result."""
    out = []
    for stmt in build.clone(list(stmts)):
        out.extend(_statement(stmt, _Rewrite(obj, local, plan, temp)))
    return out


def _statement(stmt, rw):
    """The statements standing for `stmt`: the calls hoisted out of it, then itself."""
    if isinstance(stmt, (gast.FunctionDef, gast.ClassDef)):
        rw.deferred += 1                  # its body runs when it is called: no call
        rw.nested += 1                    # hoisted, no store into f's locals
        stmt = rw.visit(stmt)
        return [stmt]
    if isinstance(stmt, gast.If):
        stmt.test = rw.visit(stmt.test)
        rw.check()
        stmt.body = _block(stmt.body, rw)
        stmt.orelse = _block(stmt.orelse, rw)
        return rw.before + [stmt]
    if isinstance(stmt, gast.For):
        stmt.iter = rw.visit(stmt.iter)
        rw.check()
        before = rw.before
        rw.deferred += 1                  # the target is bound at each step
        stmt.target = rw.visit(stmt.target)
        rw.deferred -= 1
        stmt.body = _block(stmt.body, rw)
        stmt.orelse = _block(stmt.orelse, rw)
        return before + [stmt]
    if isinstance(stmt, gast.While):
        rw.deferred += 1                  # the test runs at each step
        stmt.test = rw.visit(stmt.test)
        rw.deferred -= 1
        stmt.body = _block(stmt.body, rw)
        stmt.orelse = _block(stmt.orelse, rw)
        return [stmt]
    if isinstance(stmt, gast.Try):
        stmt.body = _block(stmt.body, rw)
        for handler in stmt.handlers:
            handler.body = _block(handler.body, rw)
        stmt.orelse = _block(stmt.orelse, rw)
        stmt.finalbody = _block(stmt.finalbody, rw)
        return [stmt]
    if isinstance(stmt, gast.With):
        stmt.items = [rw.visit(item) for item in stmt.items]
        rw.check()
        before = rw.before
        stmt.body = _block(stmt.body, rw)
        return before + [stmt]
    if isinstance(stmt, gast.Assign):
        stmt.value = rw.visit(stmt.value)
        rw.deferred += 1                  # no call in a target: it runs after the value
        stmt.targets = [rw.visit(t) for t in stmt.targets]
        rw.deferred -= 1
    else:
        if isinstance(stmt, gast.AugAssign) and rw._is_own(stmt.target):
            rw.reads.add(stmt.target.attr)         # read before the value runs
        stmt = rw.visit(stmt)
    rw.check()
    if isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Name):
        return rw.before                    # `opt.update(g)` alone: the call was all it did
    return rw.before + [stmt]


def _block(stmts, rw):
    out = []
    for stmt in stmts:
        out.extend(_statement(stmt, rw.fresh()))
    return out or [gast.Pass()]


class _Rewrite(gast.NodeTransformer):
    """One statement's rewrite: `before` collects the hoisted calls."""

    def __init__(self, obj, local, plan, temp):
        self.obj, self.local, self.plan, self.temp = obj, local, plan, temp
        self.before, self.deferred, self.nested, self.in_call = [], 0, 0, 0
        self.reads, self.written = set(), set()

    def fresh(self):
        return _Rewrite(self.obj, self.local, self.plan, self.temp)

    def check(self):
        """A read left in the statement of what a call hoisted before it writes: Python
        may read it before the call runs."""
        if self.reads & self.written:
            raise Unplanned()

    def _is_own(self, node):
        return isinstance(node, gast.Attribute) and isinstance(node.value, gast.Name) \
            and node.value.id == self.obj

    def visit_Call(self, node):
        if not (self._is_own(node.func) and node.func.attr in self.plan.methods
                and node.func.attr not in self.local):
            return self.generic_visit(node)
        if self.deferred:
            raise Unplanned()
        self.in_call += 1
        args = [self.visit(a) for a in node.args]
        keywords = [self.visit(k) for k in node.keywords]
        self.in_call -= 1
        method = node.func.attr
        inputs = [build.name(self.local[a]) for a in self.plan.inputs(method)]
        call = build.with_location(gast.Call(func=build.name(self.plan.methods[method].name),
                                             args=inputs + args, keywords=keywords), node)
        result = self.temp()
        outputs = self.plan.outputs(method)
        if outputs:
            hoisted = build.assign_tuple([result] + [self.local[a] for a in outputs], call)
        else:
            hoisted = build.assign(result, call)
        self.before.append(build.with_location(hoisted, node))
        self.written |= set(outputs)
        return build.with_location(build.name(result), node)

    def visit_Attribute(self, node):
        if not self._is_own(node):
            return self.generic_visit(node)
        attr = node.attr
        if isinstance(node.ctx, gast.Store):
            if attr not in self.local or self.nested:
                raise Unplanned()
            return build.with_location(build.name(self.local[attr], store=True), node)
        if attr in self.local:
            if not self.in_call:
                self.reads.add(attr)
            return build.with_location(build.name(self.local[attr]), node)
        value = self.plan.class_value(attr)
        if value is None:
            raise Unplanned()
        return build.with_location(value, node)

    def visit_Name(self, node):
        if node.id == self.obj:
            raise Unplanned(node)
        return node

    def _deferring(self, node):
        self.deferred += 1
        node = self.generic_visit(node)
        self.deferred -= 1
        return node

    visit_Lambda = visit_BoolOp = visit_IfExp = _deferring
    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _deferring
