"""Normalizing assignments: plain, chained, tuple and star unpacking, and names bound to
a function (used by `normalize`, mixed into its normalizer).

    a, (b, c) = t          ->  a = t[0]; t2 = t[1]; b = t2[0]; c = t2[1]
    first, *rest, last = t ->  first = t[0]; t1 = t[1:-1]; rest = list(t1); last = t[-1]
    xs, ys = zip(*pairs)   ->  rows = pairs; check_unzipped(pairs, 2)
                               xs = tuple([v[0] for v in rows]); ...
    g = ACTIVATIONS["tanh"] ->  (no statement: calls of g call that function)
"""
import dataclasses

import gast

from ..errors import UnsupportedSyntaxError
from ..ir import build
from .. import runtime_checks, runtime_objects
from .function_values import _NOT_STATIC
from .object_unpacking import ObjectUnpackingMixin
from .returned_functions import ReturnedFunctionMixin


class AssignmentMixin(ReturnedFunctionMixin, ObjectUnpackingMixin):
    """Statements that bind names."""

    def _assign(self, targets, value, stmt):
        first, *others = targets
        if not others and self._unzipped(first, value, stmt):
            return
        if not others and self._assign_returned_functions(first, value, stmt):
            return      # flat, unflatten = flatten(params): returned_functions.py
        finals = []
        if isinstance(first, gast.Name) and not others \
                and self._static_function(first) is not _NOT_STATIC:
            # g = ACTIVATIONS["tanh"] / g = np.sin: g names that function (bound once)
            self.current[first.id] = self._function_value(first)[1]
            self.levels[self.current[first.id]] = 0
            self._flush(stmt, [])
            return
        if isinstance(first, gast.Name):
            op, level = self._operation(value)
            finals.append(self._bind(first.id, op, level))
            source_name = self.current[first.id]
        else:
            atom, level = self._atom(self._unpacked_object(value) or value)
            source_name = None
            self._deferred_writes = []
            finals.extend(self._unpack(first, atom, level))
        for extra in others:
            atom = build.name(source_name) if source_name else None
            if atom is None:
                raise UnsupportedSyntaxError("chained assignment to a tuple is not supported",
                                             self.smap.locate(extra), "assign separately")
            if isinstance(extra, gast.Name):
                finals.append(self._bind(extra.id, atom, self.levels[source_name]))
            else:
                finals.extend(self._unpack(extra, atom, self.levels[source_name]))
        self._flush(stmt, finals)
        for target, item in getattr(self, "_deferred_writes", []):
            self._index_write(target, item, stmt)     # `a[0], a[1] = ...`
        self._deferred_writes = []

    def _attribute_write(self, target, stmt):
        """`obj.n = v` / `obj.n += v` (a running mean, a call counter) -> set_attribute(obj,
        "n", v): run once where Python runs it, in the forward sweep, nondifferentiable
        (analyses/state_updates.py refuses a write the differentiated code reads again)."""
        value = stmt.value
        if isinstance(stmt, gast.AugAssign):
            # `obj.n += v` is `obj.n = obj.n + v` for a number; on an array Python adds in
            # place, into the array others may hold, which the derivative would not see
            held = self.namer.fresh(target.attr)
            self.res = dataclasses.replace(self.res, locals=self.res.locals | {held})
            read = gast.Attribute(value=build.clone(target.value), attr=target.attr,
                                  ctx=gast.Load())
            self._statement(build.with_location(gast.Assign(
                targets=[build.name(held, store=True)], value=read, type_comment=None),
                target))
            error = UnsupportedSyntaxError(
                "augmented assignment to an attribute holding an array adds into that array "
                "in place, which other names may hold: s2s_ad would not follow the change",
                self.smap.locate(target),
                "assign a new array: `obj.n = obj.n + v` rather than `obj.n += v`")
            check = self._runtime_call(runtime_objects.check_not_array, [
                build.name(self.current.get(held, held)), build.const(str(error))])
            self._flush(stmt, [build.with_location(build.expr_stmt(check), target)])
            value = gast.BinOp(left=build.name(held), op=stmt.op, right=value)
            for node in gast.walk(value):
                gast.copy_location(node, target)
        holder, _ = self._atom(target.value)
        atom, _ = self._atom(value)
        call = self._runtime_call(runtime_objects.set_attribute,
                                  [holder, build.const(target.attr), atom])
        for node in gast.walk(call):
            build.with_location(node, target)
        self._flush(stmt, [build.with_location(build.expr_stmt(call), target)])

    def _unzipped(self, target, value, stmt):
        """`xs, ys = zip(*pairs)` -> rows = pairs; check_unzipped(pairs, 2); xs = tuple([v[0]
        for v in rows]); ys = tuple([v[1] for v in rows]): the same values wherever the
        unpacking succeeds (the check raises Python's ValueError where it does not: then
        zip does not give one column per target), zip's k-th tuple being every item's k-th
        value. False for any other assignment."""
        if not (isinstance(target, (gast.Tuple, gast.List)) and isinstance(value, gast.Call)
                and self._names_builtin(value.func, "zip") and len(value.args) == 1
                and isinstance(value.args[0], gast.Starred) and not value.keywords
                and not any(isinstance(e, gast.Starred) for e in target.elts)):
            return False
        self._check_builtin("tuple", value)
        rows, item = self.namer.fresh("rows"), self.namer.fresh("item")
        self.res = dataclasses.replace(self.res, locals=self.res.locals | {rows, item})
        self._assign([build.with_location(build.name(rows, store=True), value)],
                     value.args[0].value, stmt)
        # Python raises when the rows do not give one column per target (no rows, rows of
        # 3 values for 2 names); transforms/unzip_checks.py settles this check from the
        # facts where they know the rows (dropped, or a located error). After `rows =
        # pairs` it reads `pairs`, whose kind the facts keep (a copy's they do not follow)
        copied = self.out[-1].value if self.out and isinstance(self.out[-1], gast.Assign) \
            and isinstance(self.out[-1].value, gast.Name) else None
        check = self._runtime_call(runtime_checks.check_unzipped, [
            build.name(copied.id if copied is not None else self.current.get(rows, rows)),
            build.const(len(target.elts))])
        for node in gast.walk(check):
            build.with_location(node, value)
        self._flush(stmt, [build.with_location(build.expr_stmt(check), value)])
        for k, elt in enumerate(target.elts):
            column = build.list_comp(build.subscript(build.name(item), build.const(k)),
                                     item, build.name(rows))
            call = build.call(build.name("tuple"), [column])
            for node in gast.walk(call):
                build.with_location(node, value)
            self._assign([elt], call, stmt)
        return True

    def _unpack(self, target, atom, level):
        """a, (b, c) = t  ->  a = t[0]; t2 = t[1]; b = t2[0]; c = t2[1]."""
        stmts = []
        starred = [k for k, elt in enumerate(target.elts) if isinstance(elt, gast.Starred)]
        for k, elt in enumerate(target.elts):
            item = build.subscript(build.clone(atom), build.const(k))
            if starred and k >= starred[0]:
                # first, *rest, last = t  ->  rest = list(t[1:-1]); last = t[-1]
                after = len(target.elts) - k
                item = build.subscript(build.clone(atom), build.literal(-after))
                if k == starred[0]:
                    upper = build.literal(1 - after) if after > 1 else None
                    part = build.subscript(build.clone(atom), build.slice_(
                        lower=build.const(k), upper=upper))
                    self._check_bound("list", elt)
                    item, _ = self._bound_to_temp(build.with_location(part, elt), level + 1)
                    item = build.call(build.name("list"), [item])
                    self.callees["list"] = list
                    elt = elt.value
            if isinstance(elt, gast.Name):
                stmts.append(self._bind(elt.id, item, level + 1))
            elif isinstance(elt, gast.Subscript):
                holder = self.namer.level_temp(level + 1)
                self.levels[holder] = level + 1
                self.current[holder] = holder
                stmts.append(build.assign(holder, item))
                self._deferred_writes.append((elt, build.name(holder)))
            else:
                holder = self.namer.level_temp(level + 1)
                self.levels[holder] = level + 1
                stmts.append(build.assign(holder, item))
                stmts.extend(self._unpack(elt, build.name(holder), level + 1))
        return stmts
