"""Stage 7 (reverse mode): closed forms for the elementwise part of a backward sweep.

The chain rule through elementwise code is arithmetic on numbers once every array it
reads has one shape: then `unbroadcast` has nothing to sum and the adjoints are rational
functions of the forward values. This pass computes them exactly (optimize/rational.py),
writes each adjoint the rest of the sweep needs in the shortest form it finds with the
forward values at hand (optimize/closed_form_render.py), checks the rewrite in exact
arithmetic at random points, and keeps it only when it does fewer array operations.
It applies only where one shape is certain: the facts of a specialisation prove it
(`same_shapes`), or every array the closed form reads is one numpy computed elementwise
from a single array (one shape by construction, floats). Otherwise (the general
derivative, or facts that leave a shape open) the sweep stays as generated; there is no
run-time shape test and no second copy of the sweep:

    t3_0 = np.exp(-(X @ w))                     t3_0 = np.exp(-(X @ w))
    t4_0 = 1.0 + t3_0                           t4_0 = 1.0 + t3_0
    p = 1.0 / t4_0                              p = 1.0 / t4_0
    t1_1 = 1.0 - y                       ->     (w: float64[D], X: float64[N, D],
    t6_1 = 1.0 - p                               y: float64[N] proved one shape)
    (eight adjoint lines of the                 w_bar = matmul_adjoint_b((p - y) / y.size, X, w)
     log-likelihood and the sigmoid)

Only straight-line gradients whose forward sweep is pure single assignments qualify.

Any failure inside this pass leaves the body as it was (the general sweep is always
right); with S2S_AD_STRICT_PASSES=1 (the test suite sets it) it raises instead.
"""
import os

import gast
import numpy

from .. import runtime
from ..ir import build
from ..ir.naming import dotted_callee
from ..ir.walk import names_loaded, walk_tree
from . import rational
from .closed_form_reading import COUNT, Opaque, SweepReading, is_size, straight_line_parts
from .closed_form_render import Renderer, rewrite_agrees


def closed_form_adjoints(body, is_adjoint, resolve, pure_call, elementwise_call,
                         same_shapes=None, raising=None, is_number=None):
    """`body` rewritten, or `body` itself when nothing qualifies or nothing gets cheaper.
    same_shapes(names) says whether the facts prove these arrays have one shape and hold
    floats (without it, or when it says no, only one-shape-by-construction code qualifies). Forward statements of f that may raise (`raising`,
    analyses/raising.py) still run, or checks standing in for them. is_number(name): the
    facts prove a name a number (a float parameter such as a loss's `nu`): it scales
    the arrays, it is not one of them."""
    parts = straight_line_parts(body, pure_call, resolve)
    if parts is None:
        return body
    try:
        return _Rewrite(parts, is_adjoint, resolve, elementwise_call, same_shapes,
                        raising, is_number).run() or body
    except (Opaque, ZeroDivisionError, KeyError, rational.TooComplex):
        return body             # not covered (KeyError: a call the exact check cannot run)
    except Exception:
        if os.environ.get("S2S_AD_STRICT_PASSES"):
            raise
        return body


class _Rewrite(SweepReading):
    def __init__(self, parts, is_adjoint, resolve, elementwise_call, same_shapes, raising,
                 is_number):
        super().__init__(parts, is_adjoint, resolve, elementwise_call, is_number)
        self.same_shapes, self.raising = same_shapes, raising

    def run(self):
        self._forward()
        kept, materialise = self._backward()
        if not self.adjoints:
            return None
        renderer = Renderer(self.field, {n: v for n, v in self.values.items()
                                         if n not in self.atom_class},
                            {COUNT: None}, {COUNT} | self.numbers)
        classes = sorted({self.atom_class[a] for a in self.touched}, key=self.order.index)
        count = next((n.id for stmt in self.backward for n in walk_tree(stmt)
                      if isinstance(n, gast.Name)
                      and self.resolve(n.id) is runtime.reduced_count), None)
        if count is not None and classes:       # any array of the one shape will do
            renderer.atoms[COUNT] = build.call(build.name(count),
                                               [build.name(classes[0]), build.const(None)])
        elif classes and any(is_size(n) for stmt in self.backward for n in walk_tree(stmt)):
            renderer.atoms[COUNT] = build.attribute(build.name(classes[0]), "size")
        # the test: one array per shape class, and every argument or global read (one
        # could hold booleans; values numpy computes here are floats)
        inputs = [a for a in sorted(self.touched, key=self.order.index)
                  if a not in self.forward_names]
        tested = classes + [a for a in inputs if a not in classes] \
            if len(classes) > 1 or inputs else []
        if tested and (self.same_shapes is None or not self.same_shapes(tested)):
            return None                 # shapes the facts do not prove: the sweep stays
        return self._assemble(kept, materialise, renderer)


    def _assemble(self, kept, materialise, renderer):
        fast, outputs, new_cost, earlier = {}, [], 0.0, []
        for index, name, (value, array) in sorted(materialise, key=lambda m: m[0]):
            expr = self._render(renderer, value, array, earlier)
            fast.setdefault(index, []).append(build.assign(name, expr))
            outputs.append((index, "after", build.name(name), expr))
            new_cost += _cost(renderer, expr)
            earlier = [(n, v) for n, v in earlier if n != name] + [(name, value)]
        old_cost = sum(_cost(renderer, self.backward[k].value) for k in self.interpreted)
        for index, stmt, closed in kept:
            stmt = build.clone(stmt)
            value = stmt.value
            fresh = isinstance(value, gast.BinOp) and isinstance(value.op, gast.MatMult) \
                or isinstance(value, gast.Call) \
                and dotted_callee(value.func, self.resolve) in _FRESH_RESULTS
            for k, (arg, value, array) in sorted(closed.items(), key=lambda c: str(c[0])):
                expr = self._render(renderer, value, array, own_array=not fresh)
                if isinstance(k, str):
                    setattr(stmt.value, k, expr)
                else:
                    stmt.value.args[k] = expr
                outputs.append((index, "before", arg, expr))
                old_cost += _cost(renderer, arg)
                new_cost += _cost(renderer, expr)
            fast.setdefault(index, []).append(stmt)
        fast_body = [build.comment("closed form of the adjoints below: the arrays they "
                                   "read have one shape")] + \
            [stmt for index in sorted(fast) for stmt in fast[index]]
        before = self._needed(fast_body)
        old_cost += sum(_cost(renderer, s.value) for s in self.forward
                        if s.targets[0].id not in before)
        if new_cost >= old_cost or not self._exact(outputs):
            return None
        forward, checks = forward_to_keep(self.forward, before, self.raising,
                                          self.forward_checks)
        return forward + checks + [build.blank_line()] + self.checks + fast_body + [self.ret]

    def _render(self, renderer, value, array, earlier=(), own_array=True):
        """`own_array`: the expression must be an array of its own (not one of a kept
        product's or solve's operands, which return a new array and write into none)."""
        if array != bool((rational.atoms_of(value[0]) | rational.atoms_of(value[1]))
                         - {COUNT} - self.numbers):
            raise Opaque()          # e.g. an array of ones whose closed form is 1.0
        expr = renderer.render(value, earlier)[0]
        if own_array and isinstance(expr, gast.Name):
            # a gradient must be an array of its own: not the caller's array, the returned
            # value or a view of an argument (W.T, W[:, 0]), where writing into one would
            # change the other; and floats (np.arange(3) holds integers)
            expr = gast.BinOp(left=expr, op=gast.Mult(), right=build.const(1.0))
        return expr

    def _needed(self, fast_body):
        """Forward names the closed form, the checks and the return read."""
        definitions = {s.targets[0].id: s for s in self.forward}
        pending = list(set().union(names_loaded(self.ret), *map(names_loaded, self.checks),
                                   *map(names_loaded, fast_body)))
        seen = set()
        while pending:
            name = pending.pop()
            if name in definitions and name not in seen:
                seen.add(name)
                pending.extend(names_loaded(definitions[name].value))
        return seen

    def _exact(self, outputs):
        """Do the original statements and the closed forms agree at random points?"""
        return rewrite_agrees(
            [s for s in self.forward if s.targets[0].id not in self.atom_class],
            self.backward, self.interpreted, outputs, set(self.atom_class) | {COUNT},
            self.resolve, COUNT, self.vanished, self.whole)


# kept calls whose result is a new array and which write into none of their operands:
# an operand that is a forward name needs no copy (`solve(L^T, Z)`, not `Z * 1.0`)
_FRESH_RESULTS = (numpy.linalg.solve, numpy.outer, numpy.dot, numpy.matmul)


def _cost(renderer, expr):
    return renderer.cost(expr) + sum(isinstance(n, gast.Call) for n in walk_tree(expr))


def forward_to_keep(forward, wanted, raising, checks=()):
    """Of a straight-line forward sweep (single assignments), the statements defining the
    `wanted` names, those of f that may raise, and what they read; a statement a check can
    stand in for gives its check instead. Returns (statements in order, checks), the
    checks (after `checks`, those already there) to run once the statements have."""
    definitions = {s.targets[0].id: s for s in forward}
    needed, stand_ins = set(wanted), []
    for check in checks:
        if gast.dump(check) not in map(gast.dump, stand_ins):
            stand_ins.append(check)
    for stmt in forward:
        name = stmt.targets[0].id
        stand_in = raising.stand_in(stmt) if raising is not None and name not in needed \
            else None
        if stand_in is not None and stand_in is not stmt and any(
                n not in definitions and n not in raising.parameters
                for n in checked_names(stand_in)):
            stand_in = stmt     # its check reads a value a pass moved into its one use
        if stand_in is stmt:
            needed.add(name)
        elif stand_in is not None and gast.dump(stand_in) not in map(gast.dump, stand_ins):
            stand_ins.append(stand_in)
    pending = list(needed) + [n.id for c in stand_ins for n in walk_tree(c)
                              if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Load)]
    while pending:
        name = pending.pop()
        needed.add(name)
        for node in walk_tree(definitions[name].value) if name in definitions else ():
            if isinstance(node, gast.Name) and node.id not in needed:
                pending.append(node.id)
    return [s for s in forward if s.targets[0].id in needed], stand_ins


def checked_names(check):
    """The names a stand-in reads as operands (a check's arguments, a domain test's x)."""
    if isinstance(check, gast.If):
        return names_loaded(check.test)
    return [n for a in check.value.args
            for n in names_loaded(gast.Tuple(elts=a.args, ctx=gast.Load())
                                  if isinstance(a, gast.Call) else a)]   # not its helper
