"""Normalizing expressions that carry control flow into statements of levels form.

`a if c else b`, `and`/`or` and chained comparisons become `if` statements (keeping
Python's short-circuit evaluation); `[e for x in xs if c]` becomes a loop appending to a
list, `sum(e for x in xs)` a loop accumulating into a number:

    y = a if c else b     ->   if c:                 ys = [v * 2.0 for v in xs]  ->
                                   t1_0 = a              items = []
                               else:                     t1_1 = len(xs)
                                   t1_0 = b              t2_0 = range(t1_1)
                               y = t1_0                  for index in t2_0:
                                                             v_1 = xs[index]
                                                             t2_1 = v_1 * 2.0
                                                             items.append(t2_1)
                                                         ys = items

Used by `normalize` (mixed into its normalizer, with control.py's statements); the
user's expression is read, never changed.
"""
import types

import gast

from ..ir import build
from ..ir.build import dotted_path
from ..ir.walk import walk_tree
from .control import Sequence, renamed, target_names


class ControlExpressionMixin:
    """Conditional expressions, boolean operators, chained comparisons, comprehensions."""

    def _if_expression(self, expr):
        known = self._feature_test(expr.test)
        if known is not None:       # `np.trapezoid(y) if hasattr(np, "trapezoid") else ...`
            return self._operation(expr.body if known else expr.orelse)
        test, l0 = self._atom(expr.test)
        name = self._new_multi_temp()
        body = self._branch(expr.body, name)
        orelse = self._branch(expr.orelse, name)
        level = 1 + max(l0, self.levels.get(name, 0))
        self.levels[name] = level
        self._pend(level, gast.If(test=test, body=body, orelse=orelse))
        return build.name(name), level

    def _feature_test(self, test):
        """True / False for a test of what a module provides, `hasattr(np, "trapezoid")`
        (or its `not`), decided while normalizing as Python would decide it when f runs:
        only the branch taken is read, so the other may name what this numpy lacks.
        None for any other test."""
        negated = isinstance(test, gast.UnaryOp) and isinstance(test.op, gast.Not)
        call = test.operand if negated else test
        if not (isinstance(call, gast.Call) and dotted_path(call.func) == "hasattr"
                and len(call.args) == 2 and not call.keywords
                and isinstance(call.args[1], gast.Constant)
                and isinstance(call.args[1].value, str)):
            return None
        path = dotted_path(call.args[0])
        if self.res.is_value("hasattr") or self.res.lookup("hasattr") is not hasattr \
                or path is None or self.res.is_value(path.split(".")[0]) \
                or not self.res.has(path) \
                or not isinstance(self.res.lookup(path), types.ModuleType):
            return None
        return hasattr(self.res.lookup(path), call.args[1].value) != negated

    def _bool_op(self, expr):
        """`a and b` -> t = a; if t: t = b     (`or`: if not t)."""
        name = self._new_multi_temp()
        first, level = self._atom(expr.values[0])
        stmts = [build.assign(name, first)]
        inner = stmts
        for value in expr.values[1:]:
            branch = self._branch(value, name)
            # the branch reassigns `name`: test a copy, so the backward sweep replays the
            # choice that was made
            chosen = self._new_multi_temp("chosen")
            inner.append(build.assign(chosen, build.name(name)))
            node = gast.If(test=build.name(chosen), body=branch, orelse=[]) \
                if isinstance(expr.op, gast.And) else \
                gast.If(test=build.name(chosen), body=[gast.Pass()], orelse=branch)
            inner.append(node)
            inner = node.body if isinstance(expr.op, gast.And) else node.orelse
        level = 1 + max(level, self.levels.get(name, 0))
        self.levels[name] = level
        for stmt in stmts:
            self._pend(level, stmt)
        return build.name(name), level

    def _chained_compare(self, expr):
        parts, left = [], expr.left
        for op, right in zip(expr.ops, expr.comparators):
            parts.append(gast.Compare(left=left, ops=[op], comparators=[right]))
            left = right
        return self._bool_op(gast.BoolOp(op=gast.And(), values=parts))

    def _comprehension(self, expr, accumulate=False, start=None):
        """[e for x in xs if c] -> a list built by appends; accumulate: a running sum (True)
        or fold (`combine(total, e)` -> the next total's expression) from `start` (0 unless
        given: functools.reduce's first item or initial value)."""
        if accumulate is True:
            accumulate = _added
        name = self._new_multi_temp("total" if accumulate else "items")
        start_level = 0
        if start is not None:
            start, start_level = self._atom(start)
        elif accumulate:
            start = build.const(0)
        else:
            start = gast.List(elts=[], ctx=gast.Load())
        self._pend(start_level, build.assign(name, start))
        saved = dict(self.current)
        # a comprehension in a loop's iterable (`for r in [[... for e in x], ...]`) must
        # not leave its own loop variable as the enclosing loop's
        saved_loop_var = self._loop_var
        innermost = self._comprehension_loops(expr.generators, expr.elt, name, accumulate)
        self.current = saved
        self._loop_var = saved_loop_var
        # after every value it reads from outside (a rewritten builtin's list: sorted(...))
        stored = {n.id for n in walk_tree(innermost)
                  if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)}
        level = 1 + max([self.levels.get(n.id, 0) for n in walk_tree(innermost)
                         if isinstance(n, gast.Name) and n.id not in stored], default=0)
        level = max(level, start_level + 1)         # after the total's first value
        self._pend(level, innermost)
        self.levels[name] = level
        return build.name(name), level

    def _comprehension_loops(self, generators, elt, name, accumulate):
        gen, rest = generators[0], generators[1:]
        for var in target_names(gen.target):
            fresh = self.namer.fresh(var)   # comprehension variables do not leak
            self.current[var] = fresh
            self.current[fresh] = fresh
            self.levels[fresh] = 0
            self.multi_def.add(fresh)
        target = renamed(gen.target, self.current)
        outer_pending = self._pending
        self._pending = []
        # `sum(d[k] for k in d)` iterates d's keys, as the loop `for k in d: ... d[k]` does
        reads = ([elt] + list(gen.ifs) + list(rest), getattr(gen.target, "id", None))
        rng, prefix = self._iteration(gen.iter, target, gen.iter, reads)
        setup = self._drain()
        loop_var = self._loop_var

        def body():
            if rest:
                self._flush(elt, [self._comprehension_loops(rest, elt, name, accumulate)])
                return
            if accumulate:
                value = accumulate(build.name(name), elt)
                op, level = self._operation(build.with_location(value, elt))
                if accumulate is _added:        # (the sum's adjoint reads no total)
                    self._flush(elt, [build.assign(name, op)])
                    return
                # a fold step's adjoint reads the total it was given: computed into a
                # level temporary, so the total is rebound by a copy after it
                step = self.namer.level_temp(level)
                self.levels[step] = level
                self._flush(elt, [build.assign(step, op), build.assign(name, build.name(step))])
            else:
                atom, _ = self._atom(elt)
                method = build.attribute(build.name(name), "append")
                self._flush(elt, [build.expr_stmt(build.call(method, [atom]))])

        def guarded(k=0):
            remaining = gen.ifs[k:]
            if not remaining:
                body()
                return
            test, _ = self._atom(remaining[0])
            inner = self._block_from(lambda: guarded(k + 1))
            self._flush(remaining[0], [gast.If(test=test, body=inner, orelse=[])])

        def iteration():
            for stmt in prefix:       # bind the comprehension variable, then filter
                self._statement(stmt)
            guarded()

        block = self._block_from(iteration)
        self._pending = outer_pending
        loop = gast.For(target=build.name(loop_var, store=True), iter=rng, body=block,
                        orelse=[], type_comment=None)
        if setup:
            return Sequence(setup + [loop])
        return loop


def _added(total, elt):
    """sum's step: total + e."""
    return gast.BinOp(left=total, op=gast.Add(), right=elt)
