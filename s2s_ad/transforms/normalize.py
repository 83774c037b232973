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

The statements are this module's; expressions are lowered by expressions.py, control flow
by control.py and control_expressions.py, calls by calls.py and python_calls.py.
"""
import dataclasses
from dataclasses import dataclass

import gast
import numpy

from ..ir.walk import walk_tree
from .. import runtime_flow
from ..errors import UnsupportedSyntaxError
from ..ir import build
from .assignments import AssignmentMixin
from .contexts import ContextMixin, GuardMixin, is_grad_of_block
from .calls import CallMixin
from .python_calls import PythonCallMixin, updated_lists
from .control import ControlFlowMixin, assigned_in_compound, expand_sequences
from .mutation import MutationMixin
from .exits import lower_exits
from .cse import CommonSubexpressionMixin
from .expressions import ExpressionMixin
from .control_expressions import ControlExpressionMixin
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
    # the bindings of augmented assignments (`y op= e`, which numpy does in y's array):
    # in_place_key(binding) -> the name y held before (analyses/aliases.py reads it).
    # Keyed by where the binding is and what it binds, so that it holds for every copy
    # of the tree (stages copy before they change it)
    in_place: dict = dataclasses.field(default_factory=dict)
    # the parameters of your defs inlined into f (transforms/helper_inline.py): fresh name
    # -> (the parameter's own name, the def, where f calls it), so that an error about a
    # write in the helper names `x` and points at the write, not at `x_1` and the call
    inlined: dict = dataclasses.field(default_factory=dict)

    def updated_in_place(self, stmt):
        """The name the augmented assignment `stmt` binds anew updates in place (numpy
        writes into its array), else None."""
        if not (isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)):
            return None
        return self.in_place.get(in_place_key(stmt))

    def updated_item(self, stmt):
        """For the item store `c[k] = t` standing for `c[k] op= v` or `c[k][j] = v`: the
        name holding what c[k] held before, whose own array numpy writes into (an array
        of a list or dict c is another name's too), else None."""
        if not (isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Subscript)
                and isinstance(stmt.targets[0].value, gast.Name)):
            return None
        return self.in_place.get(in_place_key(stmt))

    def copy(self):
        """A copy a stage may change without changing this one: both trees cloned
        together (a node kept from the parsed tree stays shared with it), the tables
        copied; the resolution (read only) is shared."""
        tree, parsed_tree = build.clone((self.tree, self.parsed.tree))
        return dataclasses.replace(
            self, tree=tree, parsed=dataclasses.replace(self.parsed, tree=parsed_tree),
            callees=dict(self.callees), levels=dict(self.levels),
            runtime_names=dict(self.runtime_names), in_place=dict(self.in_place),
            inlined=dict(self.inlined))


def in_place_key(binding):
    """A binding's place and target (for an item store, the container's name): what
    LevelsForm.in_place is keyed by."""
    target = binding.targets[0]
    return (getattr(binding, "lineno", None), getattr(binding, "col_offset", None),
            target.id if isinstance(target, gast.Name) else ("item", target.value.id))


def numpy_name_for(resolution, namer):
    """'np' when the user's `np` is numpy (or free), else a fresh name."""
    if not resolution.is_value("np") and resolution.lookup("np") in (numpy, None):
        namer.reserve("np")
        return "np"
    return namer.fresh("np")


def normalize(parsed, resolution, namer, numpy_name, functions=None):
    """`functions`: {parameter: the function a specialisation knows it holds}."""
    return _Normalizer(parsed, resolution, namer, numpy_name, functions or {}).run()


class _Normalizer(ExpressionMixin, ControlFlowMixin, ControlExpressionMixin, MutationMixin,
                  AssignmentMixin, CallMixin, PythonCallMixin, InlineMixin,
                  CommonSubexpressionMixin, ContextMixin, GuardMixin):
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
        self.constructed = {}      # a name holding `C(...)` made in an expression -> C
        self._inlining = []
        self.inlined = {}          # LevelsForm.inlined
        self.helper_defs = {}      # the key of a def of yours inlined -> that def
        self.runtime_names = {}
        self._deferred_writes = []
        self._in_place_of = None   # while binding `y op= e`: the name y held before
        self._in_place = []        # (binding, the name it updates in place)
        self._available = {}      # pure operation -> the name already holding its value
        self._block_depth = 0

    def run(self):
        self.nested = collect_nested(self.parsed.tree, self.smap)
        tree = lower_exits(self.parsed.tree, self.namer)
        # a list that .extend / .insert / .pop(i) rebind may be rebound in a loop or branch
        self.multi_def = assigned_in_compound(tree) | updated_lists(tree)
        # `(n := e)` may bind in a comprehension, a loop's test or one operand of `and`:
        # never renamed, so later code reads the one binding that ran
        self.multi_def |= {n.target.id for n in walk_tree(tree)
                           if isinstance(n, gast.NamedExpr)}
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
        # located now: a binding takes its user statement's place when it is flushed
        in_place = {in_place_key(binding): name for binding, name in self._in_place}
        return LevelsForm(result, dict(self.callees), self.np, dict(self.levels),
                          self.parsed, self.res, dict(self.runtime_names), in_place,
                          dict(self.inlined))

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
            if self._is_add_at(value):
                self._add_at(value, stmt)
                return False
            written = self._array_write(value)
            if written is not None:
                self._index_write(*written, stmt)
                return False
            op, _ = self._operation(value)
            # `d.get(k, 0.0)` lowered to a read has no effect of its own
            self._flush(stmt, [gast.Expr(value=op)] if isinstance(op, gast.Call) else [])
            return False
        if isinstance(stmt, (gast.Pass, gast.Import, gast.ImportFrom)):
            # an import binds its names when the derivative is built (frontend/resolve.py),
            # and the generated code gets them as bindings (pipeline.py)
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
        if isinstance(stmt, gast.With) and is_grad_of_block(stmt):
            self._grad_of_block(stmt)
            return False
        if isinstance(stmt, gast.With):
            return self._context_block(stmt)
        if isinstance(stmt, gast.Try):
            return self._guarded_block(stmt)
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
        if isinstance(stmt, gast.Raise):
            # kept in the forward sweep, where it stops the derivative as it stops f (the
            # backward sweep never runs after it); the exception is built like a call made
            # for its effect. `from cause` only links tracebacks: it is not kept
            exc = self._operation(stmt.exc)[0] if isinstance(stmt.exc, gast.Call) \
                else self._atom(stmt.exc)[0]
            self._flush(stmt, [gast.Raise(exc=exc, cause=None)])
            return False
        target = stmt.target if isinstance(stmt, gast.AugAssign) else \
            stmt.targets[0] if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 else None
        if isinstance(target, gast.Attribute):
            self._attribute_write(target, stmt)       # self.calls += 1: a state update
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
            written = self._array_write(stmt.value) if isinstance(stmt.value, gast.Call) \
                and "out" in {k.arg for k in stmt.value.keywords} else None
            if written is not None:
                # z = np.exp(x, out=y): the write, then z names y's array
                self._index_write(*written, stmt)
                holder = written[0].value
                if not (len(stmt.targets) == 1 and isinstance(stmt.targets[0], gast.Name)
                        and stmt.targets[0].id == holder.id):
                    self._assign(stmt.targets, build.name(holder.id), stmt)
                return False
            self._assign(stmt.targets, self._listed_iterator(stmt.targets, stmt.value), stmt)
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
            self._in_place.append((binding, self._in_place_of))
        return binding

    def _flush(self, origin, finals):
        ordered = [stmt for _, _, stmt in sorted(self._pending, key=lambda item: item[:2])]
        for stmt in expand_sequences(ordered + list(finals)):
            self.out.append(_located(stmt, origin))
        self._pending = []
        if any(not _binds_names_only(stmt) for stmt in finals):
            # a write through an index or attribute, or a call run for its effect, may
            # change what an earlier operation read, through any alias (an inlined
            # helper's parameter): no earlier value is reused after it
            self._available.clear()

    def _flush_pending_only(self):
        ordered = [stmt for _, _, stmt in sorted(self._pending, key=lambda item: item[:2])]
        self.out.extend(expand_sequences(ordered))
        self._pending = []

    def _pend(self, level, stmt):
        self._pending.append((level, len(self._pending), stmt))


def _binds_names_only(stmt):
    """`name = value` or `a, b = value`: a statement that changes no array in place."""
    return isinstance(stmt, gast.Assign) and all(
        isinstance(t, gast.Name) or (isinstance(t, gast.Tuple)
                                     and all(isinstance(e, gast.Name) for e in t.elts))
        for t in stmt.targets)


def _located(stmt, origin):
    if not hasattr(stmt, "lineno"):
        build.with_location(stmt, origin)
    return stmt
