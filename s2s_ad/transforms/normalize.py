"""Stage 4, normalize: the user's function -> levels form (ARCHITECTURE §3).

Every statement of the result is one primitive operation on atoms (names, literals,
global constants such as np.pi). A fresh temporary is named `t{m}_{j}`: m its level
(1 + the highest level of its operands; inputs and constants are level 0), j its index
within the level. User variables keep their names; in straight-line code a variable
assigned twice gets a versioned name (`x`, then `x_1`), so every value has one
definition and the backward sweep needs no tape.

    def f(a, b, c, x):                  def f(a, b, c, x):
        y = a * x ** 2 + b * x + c  ->      t1_0 = x ** 2
        return y                            t1_1 = b * x
                                            t2_0 = a * t1_0
                                            t3_0 = t2_0 + t1_1
                                            y = t3_0 + c
                                            return y
"""
import builtins
import dataclasses
from dataclasses import dataclass

import gast
import numpy

from ..ir.walk import walk_tree
from .. import runtime_flow
from ..runtime_objects import attribute_of
from ..errors import UnsupportedSyntaxError
from ..ir import build
from ..ir.build import dotted_path
from . import desugar
from .assignments import AssignmentMixin
from .calls import CallMixin
from .python_calls import PythonCallMixin, updated_lists
from .control import ControlFlowMixin, assigned_in_compound, expand_sequences
from .mutation import MutationMixin
from .exits import lower_exits
from .cse import CommonSubexpressionMixin, constant_math
from .inline import InlineMixin, collect_nested
from .inputs import copy_written_inputs



@dataclass(frozen=True)
class LevelsForm:
    tree: gast.FunctionDef
    callees: dict          # dotted callee path -> the object it names
    numpy_name: str        # how generated code spells the numpy module
    levels: dict           # variable -> level
    parsed: object         # the ParsedFunction it came from
    resolution: object
    runtime_names: dict    # runtime helper -> the name normalize gave it

    def copy(self):
        """A copy a stage may change without changing this one: both trees cloned
        together (a node kept from the parsed tree stays shared with it), the tables
        copied; the resolution (read only) is shared."""
        tree, parsed_tree = build.clone((self.tree, self.parsed.tree))
        return dataclasses.replace(
            self, tree=tree, parsed=dataclasses.replace(self.parsed, tree=parsed_tree),
            callees=dict(self.callees), levels=dict(self.levels),
            runtime_names=dict(self.runtime_names))


def numpy_name_for(resolution, namer):
    """'np' when the user's `np` is numpy (or free), else a fresh name."""
    if not resolution.is_value("np") and resolution.lookup("np") in (numpy, None):
        namer.reserve("np")
        return "np"
    return namer.fresh("np")


def normalize(parsed, resolution, namer, numpy_name, functions=None):
    """`functions`: {parameter: the function a specialisation knows it holds}."""
    return _Normalizer(parsed, resolution, namer, numpy_name, functions or {}).run()


class _Normalizer(ControlFlowMixin, MutationMixin, AssignmentMixin, CallMixin, PythonCallMixin,
                  InlineMixin, CommonSubexpressionMixin):
    def __init__(self, parsed, resolution, namer, numpy_name, functions):
        self.known_functions = functions
        self.parsed = parsed
        self.smap = parsed.source_map
        self.res = resolution
        self.namer = namer
        self.np = numpy_name
        self.current = {p: p for p in resolution.parameters}
        self.levels = {p: 0 for p in resolution.parameters}
        self.callees = {}
        self.out = []
        self._pending = []   # (level, seq, stmt) for the user statement being flattened
        self.multi_def = set()
        self.written_arrays = set()
        self._loop_var = None
        self.nested = {}
        self._inlining = []
        self.runtime_names = {}
        self._deferred_writes = []
        self._in_place_of = None   # while binding `y op= e`: the name y held before
        self._available = {}      # pure operation -> the name already holding its value
        self._block_depth = 0

    def run(self):
        self.nested = collect_nested(self.parsed.tree, self.smap)
        tree = lower_exits(self.parsed.tree, self.namer)
        # a list that .extend / .insert / .pop(i) rebind may be rebound in a loop or branch
        self.multi_def = assigned_in_compound(tree) | updated_lists(tree)
        for name in self.multi_def:
            self.current.setdefault(name, name)
            self.levels.setdefault(name, 0)
        for stmt in tree.body:
            returned = self._statement(stmt)
            if returned:
                break
        else:
            self.out.append(build.with_location(build.ret(build.const(None)), tree))
        self.out = copy_written_inputs(
            self.out, self.written_arrays, self.res.parameters, self.callees,
            lambda p: self._runtime_call(runtime_flow.copy_argument, [build.name(p)]), tree)
        result = gast.FunctionDef(name=tree.name, args=tree.args, body=self.out,
                                  decorator_list=[], returns=None, type_comment=None,
                                  type_params=[])
        gast.copy_location(result, tree)
        return LevelsForm(result, dict(self.callees), self.np, dict(self.levels),
                          self.parsed, self.res, dict(self.runtime_names))

    # ---- statements -------------------------------------------------------------
    def _statement(self, stmt):
        """Flatten one user statement; True when it returns."""
        if isinstance(stmt, gast.Expr):
            if isinstance(stmt.value, gast.Constant):
                return False          # docstring or bare literal
            value = stmt.value
            if isinstance(value, gast.Call) and isinstance(value.func, gast.Attribute) \
                    and value.func.attr == "append" and isinstance(value.func.value, gast.Name) \
                    and self.res.is_value(value.func.value.id):
                self._append(value, stmt)
                return False
            if isinstance(value, gast.Call) and isinstance(value.func, gast.Attribute) \
                    and value.func.attr in ("extend", "insert", "pop") and value.args \
                    and isinstance(value.func.value, gast.Name) \
                    and self.res.is_value(value.func.value.id):
                self._list_update(value, stmt)
                return False
            if isinstance(value, gast.Call) and isinstance(value.func, gast.Attribute) \
                    and value.func.attr == "pop" and not value.args and not value.keywords \
                    and isinstance(value.func.value, gast.Name) \
                    and self.res.is_value(value.func.value.id):
                # `ys.pop()` alone: the item gets a name, which the backward sweep puts
                # back on ys (the reads of ys before the pop see it again)
                self._atom(value)
                self._flush(stmt, [])
                return False
            if not isinstance(value, gast.Call):
                raise UnsupportedSyntaxError("an expression statement without effect",
                                             self.smap.locate(stmt), "remove it")
            if self._dict_update(value, stmt):
                return False
            if self._is_put_along_axis(value):
                self._put_along_axis(value, stmt)
                return False
            op, _ = self._operation(value)
            # `d.get(k, 0.0)` lowered to a read has no effect of its own
            self._flush(stmt, [gast.Expr(value=op)] if isinstance(op, gast.Call) else [])
            return False
        if isinstance(stmt, gast.Pass):
            return False
        if isinstance(stmt, gast.If):
            self._if(stmt)
            return False
        if isinstance(stmt, gast.For):
            self._for(stmt)
            return False
        if isinstance(stmt, gast.While):
            self._while(stmt)
            return False
        if isinstance(stmt, gast.Break):
            return False      # only as `if flag: break`, rebuilt by _if
        if isinstance(stmt, gast.With):
            self._grad_of_block(stmt)
            return False
        if isinstance(stmt, gast.Return):
            if stmt.value is None:
                self._flush(stmt, [build.ret(build.const(None))])
            else:
                atom, _ = self._atom(stmt.value)
                self._flush(stmt, [build.ret(atom)])
            return True
        if isinstance(stmt, gast.Assert):
            atom, _ = self._atom(stmt.test)
            self._flush(stmt, [gast.Assert(test=atom, msg=stmt.msg)])
            return False
        if isinstance(stmt, gast.AugAssign) and isinstance(stmt.target, gast.Subscript):
            self._index_write(stmt.target, stmt.value, stmt, op=stmt.op)
            return False
        if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
                and isinstance(stmt.targets[0], gast.Subscript):
            self._index_write(stmt.targets[0], stmt.value, stmt)
            return False
        if isinstance(stmt, gast.AugAssign):
            target = stmt.target
            value = gast.BinOp(left=gast.Name(id=target.id, ctx=gast.Load(), annotation=None,
                                              type_comment=None), op=stmt.op, right=stmt.value)
            gast.copy_location(value, stmt)
            # on an array, `y *= 2` writes into the array y holds: the binding remembers
            # the name it updates, for the alias analysis (analyses/aliases.py)
            self._in_place_of = self.current.get(target.id)
            try:
                self._assign([target], value, stmt)
            finally:
                self._in_place_of = None
            return False
        if isinstance(stmt, gast.AnnAssign):
            if stmt.value is not None:
                self._assign([stmt.target], stmt.value, stmt)
            return False
        if isinstance(stmt, gast.Assign):
            self._assign(stmt.targets, stmt.value, stmt)
            return False
        raise UnsupportedSyntaxError(f"`{type(stmt).__name__}` statements are not supported",
                                     self.smap.locate(stmt))

    def _bind(self, user_name, op, level):
        ssa = user_name
        if user_name in self.current and user_name not in self.multi_def:
            ssa = self.namer.fresh(user_name)
        elif not isinstance(op, gast.Name) and any(
                isinstance(n, gast.Name) and n.id == ssa for n in walk_tree(op)):
            # `p = p * v` reads what it overwrites; the backward sweep needs both values,
            # so compute into a temporary and copy: t2_0 = p * v; p = t2_0
            temp = self.namer.level_temp(level)
            self.levels[temp] = level
            self.current[temp] = temp
            self._pend(level, build.assign(temp, op))
            op = build.name(temp)
        self.current[user_name] = ssa
        self.levels[ssa] = level
        if ssa not in self.multi_def:
            self._remember(op, ssa)
        binding = build.assign(ssa, op)
        if self._in_place_of:
            binding.in_place_of = self._in_place_of
        return binding

    def _flush(self, origin, finals):
        ordered = [stmt for _, _, stmt in sorted(self._pending, key=lambda item: item[:2])]
        for stmt in expand_sequences(ordered + list(finals)):
            self.out.append(_located(stmt, origin))
        self._pending = []

    def _flush_pending_only(self):
        ordered = [stmt for _, _, stmt in sorted(self._pending, key=lambda item: item[:2])]
        self.out.extend(expand_sequences(ordered))
        self._pending = []

    def _pend(self, level, stmt):
        self._pending.append((level, len(self._pending), stmt))


    # ---- expressions ------------------------------------------------------------
    def _atom(self, expr):
        """An atom standing for `expr`, emitting temporaries for its operations."""
        literal = _literal_value(expr)
        if literal is not _NOT_LITERAL:
            return build.literal(literal), 0
        if isinstance(expr, gast.Name):
            if expr.id in self.current:
                ssa = self.current[expr.id]
                return build.name(ssa), self.levels[ssa]
            if expr.id in self.nested and getattr(self.nested[expr.id], "lineno", 0) \
                    < getattr(expr, "lineno", 0):
                # nested functions are inlined where they are called (inline.py): as a
                # value there is nothing to pass
                raise UnsupportedSyntaxError(
                    f"the nested function `{expr.id}` is used as a value (passed, stored or "
                    f"returned): nested functions and lambdas are supported where they are "
                    f"called", self.smap.locate(expr),
                    f"define `{expr.id}` at module level: a module-level function passed "
                    f"as an argument is differentiated through")
            if self.res.is_value(expr.id):
                raise UnsupportedSyntaxError(f"`{expr.id}` is used before it is assigned",
                                             self.smap.locate(expr))
            self._check_bound(expr.id, expr)
            return build.name(expr.id), 0
        path = dotted_path(expr)
        # a name bound here is a value, also one the user never wrote (`W_1`, the iterated
        # array a loop that rebinds `W` reads: `W_1.T`)
        if path and not self.res.is_value(path.split(".")[0]) \
                and path.split(".")[0] not in self.current:
            self._check_bound(path, expr)
            return build.dotted(path), 0
        op, level = self._operation(expr)
        if isinstance(op, gast.Name):
            return op, level     # already a value (a comprehension's list, an if's result)
        value = constant_math(op, self.callees)
        if value is not None:
            return build.literal(value), 0
        return self._bound_to_temp(op, level)

    def _bound_to_temp(self, op, level):
        """The atom holding operation `op` (a new level temporary, or the one that already
        computes it), and its level."""
        known = self._computed(op)
        if known is not None:
            return build.name(known), self.levels[known]
        temp = self.namer.level_temp(level)
        self.levels[temp] = level
        self.current[temp] = temp
        self._remember(op, temp)
        self._pending.append((level, len(self._pending), build.assign(temp, op)))
        return build.name(temp), level

    def _operation(self, expr):
        """One primitive operation over atoms for `expr`, and its level."""
        op, level = self._lower(expr)
        if hasattr(expr, "lineno") and not hasattr(op, "lineno"):
            build.with_location(op, expr)   # errors point at the user's sub-expression
        return op, level

    def _lower(self, expr):
        if isinstance(expr, gast.BinOp):
            (left, l1), (right, l2) = self._atom(expr.left), self._atom(expr.right)
            return gast.BinOp(left=left, op=expr.op, right=right), 1 + max(l1, l2)
        if isinstance(expr, gast.UnaryOp):
            operand, level = self._atom(expr.operand)
            return gast.UnaryOp(op=expr.op, operand=operand), 1 + level
        if isinstance(expr, gast.Compare):
            if len(expr.ops) != 1:
                return self._chained_compare(expr)
            (left, l1), (right, l2) = self._atom(expr.left), self._atom(expr.comparators[0])
            return gast.Compare(left=left, ops=expr.ops, comparators=[right]), 1 + max(l1, l2)
        if isinstance(expr, gast.JoinedStr):
            # f"loss {loss:.3f}": formatting only (no derivative); its values become atoms
            level, parts = 0, []
            for part in expr.values:
                if isinstance(part, gast.FormattedValue):
                    atom, lvl = self._atom(part.value)
                    level = max(level, lvl)
                    part = gast.FormattedValue(value=atom, conversion=part.conversion,
                                               format_spec=part.format_spec)
                parts.append(part)
            return gast.JoinedStr(values=parts), level + 1
        if isinstance(expr, gast.IfExp):
            return self._if_expression(expr)
        if isinstance(expr, gast.BoolOp):
            return self._bool_op(expr)
        if isinstance(expr, (gast.ListComp, gast.GeneratorExp)):
            return self._comprehension(expr)
        if isinstance(expr, gast.Dict):
            return self._mapping_display(expr)
        if isinstance(expr, gast.DictComp):
            return self._mapping_comprehension(expr)
        if isinstance(expr, gast.Call) and dotted_path(expr.func) == "sum" \
                and self.res.lookup("sum") is builtins.sum and len(expr.args) == 1 \
                and not expr.keywords and isinstance(expr.args[0], (gast.ListComp,
                                                                    gast.GeneratorExp)):
            return self._comprehension(expr.args[0], accumulate=True)
        if isinstance(expr, gast.Call):
            return self._call(expr)
        if isinstance(expr, gast.Subscript):
            if (lowered := self._axis_concatenation(expr)) is not None:   # np.r_[...]
                return lowered
            value, l1 = self._atom(expr.value)
            index, l2 = self._index(expr.slice)
            return build.subscript(value, index), 1 + max(l1, l2)
        if isinstance(expr, gast.Attribute):
            # `W.T` -> np.transpose(W) on the user's expression: the call lowers its
            # argument itself (an atom here would already be W's current version, `W_1`,
            # which is no user name to look up)
            lowered = desugar.attribute_call(
                expr.value, expr.attr, expr, self.smap, isinstance(expr.value, gast.Name)
                and expr.value.id in self.res.receivers)
            if lowered is None or lowered == desugar.OBJECT_ATTRIBUTE:
                value, level = self._atom(expr.value)
                read = build.attribute(value, expr.attr)
                if lowered is not None:        # the primitive attribute_of (primitives.py)
                    self.callees[dotted_path(read)] = attribute_of
                return read, 1 + level
            return self._numpy_call(lowered[0], lowered[1], [], 0, expr)
        if isinstance(expr, (gast.Tuple, gast.List)):
            atoms = [self._atom(e) for e in expr.elts]
            node = build.tuple_([a for a, _ in atoms])
            if isinstance(expr, gast.List):
                node = gast.List(elts=node.elts, ctx=gast.Load())
            return node, 1 + max([lvl for _, lvl in atoms], default=0)
        atom, level = self._atom(expr)
        return atom, level

    def _index(self, index):
        if isinstance(index, gast.Slice):
            level, parts = 0, []
            for bound in (index.lower, index.upper, index.step):
                if bound is None:
                    parts.append(None)
                    continue
                atom, lvl = self._atom(bound)
                parts.append(atom)
                level = max(level, lvl)
            return gast.Slice(lower=parts[0], upper=parts[1], step=parts[2]), level
        if isinstance(index, gast.Tuple):
            items = [self._index(e) for e in index.elts]
            return build.tuple_([i for i, _ in items]), max([lvl for _, lvl in items], default=0)
        return self._atom(index)

    def _check_bound(self, path, node):
        if not self.res.has(path):
            raise UnsupportedSyntaxError(
                f"`{path}` is not defined when the derivative is built", self.smap.locate(node),
                "define (or import) it before calling s2s_ad.grad")


_NOT_LITERAL = object()


def _literal_value(expr):
    """The Python value of a literal expression (3, -1.5, None, (0, 1), ...)."""
    if isinstance(expr, gast.Constant):
        return expr.value
    if isinstance(expr, gast.UnaryOp) and isinstance(expr.op, gast.USub) \
            and isinstance(expr.operand, gast.Constant) \
            and isinstance(expr.operand.value, (int, float)) \
            and not isinstance(expr.operand.value, bool):
        return -expr.operand.value
    if isinstance(expr, gast.Tuple) and expr.elts:
        values = tuple(_literal_value(e) for e in expr.elts)
        if all(v is not _NOT_LITERAL for v in values):
            return values
    return _NOT_LITERAL


def _located(stmt, origin):
    if not hasattr(stmt, "lineno"):
        build.with_location(stmt, origin)
    return stmt
