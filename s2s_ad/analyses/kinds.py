"""Facts over the levels form: the kind (signature.py) of every variable, given the call's.

Each statement is evaluated on tiny stand-in values in a few "worlds" that differ only in
the length of every axis that is not 1 (2, 3 and 5): a result's kind is a fact when all
worlds agree on it (type, dtype, rank, which axes have length 1) and no axis came out
empty. Integers read off shapes keep their per-world values, so `np.zeros(x.shape[0])`
is an array of length n; every other integer of unknown value stands in as 0, so a shape
built from it comes out empty and stays unknown. Only primitives whose result shape is a
function of their operands' shapes are evaluated (elementwise operations, reductions,
products, reshaping); anything else, data-dependent indexing (boolean masks, strided
slices) and user functions give UNKNOWN. Branches join their kinds; loops iterate to a
fixed point. A variable's fact is the join of every value it takes.

    def f(x, w):             x: float64[n, n], w: float64[n]
        z = x @ w            z: float64[n]
        s = np.sum(z)        s: np.float64 (a number)
        return s * 2.0
"""
import inspect
import operator
import warnings
from collections import Counter
from dataclasses import dataclass

import gast
import numpy as np

from ..ir.walk import names_stored
from ..ir.primitives import attribute_read, identity, operation_of
from .. import runtime_shape
from ..freshness import (guarded_arrays_read, is_guarded_array, is_varying,
                         varying_number_type)
from ..signature import UNKNOWN, Items, Num, Opaque, SequenceOf
from .object_kinds import PRIMITIVES as OBJECT_PRIMITIVES, object_result
from .evaluable import evaluable
from .shapes import FULL_REDUCTIONS, is_elementwise
from .slice_shapes import unsized_result
from .lengths import SymbolicLengths
from .shape_values import Shape, axes_from_lengths
from .shape_classes import ShapeClasses
from .helper_kinds import HelperKinds
from .item_kinds import ItemKinds, join, listed, public
from .operand_kinds import OperandsAtCalls, OperandsNoted
from .tape_restores import tape_restores
from .union_find import root_of
from .stand_ins import (WORLDS, constant, global_value, integer_worlds, literal, result_kind,
                        same_value, stand_ins, unknown_int, UnknownInt, written_worlds)

_LOOP_ROUNDS = 6
_PRODUCTS = (operator.matmul, np.matmul)       # (slice_shapes.unsized_result)

@dataclass(frozen=True)
class Kinds(OperandsAtCalls):
    """variable -> kind (UNKNOWN when not decided); `shape_class`: variable -> a variable
    it provably has the same shape as (an operand and the result of an elementwise
    operation whose axes agree: numpy broadcasting leaves no other possibility)."""
    facts: dict
    shape_class: dict = None
    iteration_classes: dict = None    # id(loop) -> shape edges within one iteration
    lengths: dict = None              # variable -> its symbolic lengths (lengths.py)
    at_calls: dict = None             # id(call statement) -> {operand: kind there}
                                      # (operand_kinds.py)

    def same_lengths(self, a, b):
        """Do a and b provably have one shape, every axis's length decided and equal?"""
        return self.decided_lengths(a) and (self.lengths or {}).get(a) == self.lengths.get(b)

    def decided_lengths(self, name):
        """Is `name` an array whose every axis's length (lengths.py) is decided, the same
        for every value it takes?"""
        shape = (self.lengths or {}).get(name)
        return isinstance(shape, Shape) and bool(shape) and None not in shape

    def same_shapes(self, names):
        """Do all these variables provably have one shape, and hold floats?"""
        classes = self.shape_class or {}
        roots = {classes.get(n, n) for n in names}
        floats = all(isinstance(self.of(n), Num) and self.of(n).dtype in ("float64", "float32")
                     for n in names)
        return floats and len(roots) == 1

    def of(self, atom):
        if isinstance(atom, str):
            return self.facts.get(atom, UNKNOWN)
        if isinstance(atom, gast.Name):
            return self.facts.get(atom.id, UNKNOWN)
        value = literal(atom)
        if value is not None:
            return result_kind([value] * len(WORLDS))[0]
        return UNKNOWN

    def axes(self, atom):
        """The axes of a number or array (() for numbers), or None when not known."""
        kind = self.of(atom)
        return kind.axes if isinstance(kind, Num) else None

    def is_number(self, atom):
        """A Python or numpy number (not an array, not even a 0-d one)?"""
        kind = self.of(atom)
        return isinstance(kind, Num) and kind.axes == () and kind.type is not None \
            and kind.type is not np.ndarray


def analyse_kinds(levels, signature, helper_result=None):
    """Kinds of every variable of `levels` when its parameters have `signature`'s kinds
    (a dict parameter -> kind; parameters not in it are UNKNOWN). `helper_result(function,
    signature)` gives the kind a user function called here returns for arguments of those
    kinds (UNKNOWN when not given)."""
    return _Analysis(levels, signature, helper_result).run()


class _Analysis(ItemKinds, ShapeClasses, SymbolicLengths, OperandsNoted, HelperKinds):
    def __init__(self, levels, signature, helper_result):
        self.levels = levels
        self.helper_result = helper_result
        self.facts = {}
        self._init_operands()
        self.env = {}                      # variable -> (kind, per-world stand-ins or None)
        self.restores = tape_restores(levels)  # a derivative differentiated again
        for name in levels.resolution.parameters:
            kind = signature.get(name, UNKNOWN)
            self._bind(name, kind, stand_ins(kind))
        for name, kind in guarded_arrays_read(levels):   # data a module holds, guarded
            self._bind(name, kind, stand_ins(kind))
        self._init_lengths(signature)

    def run(self):
        self._block(self.levels.tree.body)
        counts = Counter(names_stored(self.levels.tree))     # name -> times it is bound
        lengths = self._lasting_lengths()
        return Kinds({name: public(kind) for name, kind in self.facts.items()},
                     _with_equal_lengths(self._shape_classes(counts), lengths),
                     self._iteration_classes(counts), lengths, self._operands_at_calls())

    def _bind(self, name, kind, worlds):
        self.env[name] = (kind, worlds)
        self.facts[name] = join(self.facts[name], kind) if name in self.facts else kind

    # ---- statements ---------------------------------------------------------------------
    def _block(self, stmts):
        for position, stmt in enumerate(stmts):
            self._site = (id(stmts), position)
            self._statement(stmt)

    def _statement(self, stmt):
        skip, name = self.restores.skipped(stmt) if self.restores else (False, None)
        if name is not None:       # a restore: the join of the kinds its name was given
            kind = self.facts.get(name, UNKNOWN)
            self._bind(name, kind, stand_ins(kind))
            self._sym_bind(name, None)
        if skip:
            return
        if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name):
            if isinstance(stmt.value, gast.Call):
                self._note_operands(stmt)
            kind, worlds = self._evaluate(stmt.value)
            lengths = self._symbolic(stmt.value)
            self._note_kind(lengths, kind)
            known = axes_from_lengths(kind, lengths, self.bounds)
            if known is not kind:        # a slice's length the stand-ins could not evaluate
                kind, worlds = known, stand_ins(known)
            self._bind(stmt.targets[0].id, kind, worlds)
            self._sym_bind(stmt.targets[0].id, lengths)
        elif isinstance(stmt, gast.Assign):
            self._bind(stmt.targets[0].value.id, *self._written(stmt.targets[0], stmt.value))
        elif isinstance(stmt, gast.Expr):
            self._forget_written(stmt.value)
        elif isinstance(stmt, gast.If):
            before, sym_before = dict(self.env), dict(self.sym)
            self._nested += 1
            self._block(stmt.body)
            after_body, self.env = self.env, dict(before)
            sym_after_body, self.sym = self.sym, sym_before
            self._block(stmt.orelse)
            self._nested -= 1
            self.env = _join_envs(after_body, self.env)
            self._sym_join_into(sym_after_body, self.sym)
        elif isinstance(stmt, (gast.For, gast.While)):
            self._nested += 1
            self._loop(stmt)
            self._nested -= 1
        elif isinstance(stmt, gast.With):
            self._block(stmt.body)

    def _written(self, target, value):
        """y after `y[index] = v`: an array keeps its kind; a dict or list is written in
        each world (`d['b'] = x * 2.0` makes d['b'] an array, whatever it held before)."""
        kind, worlds = self.env.get(target.value.id, (UNKNOWN, None))
        if isinstance(kind, Num) and kind.type is np.ndarray \
                or not isinstance(target, gast.Subscript):
            return kind, stand_ins(kind)
        item = self._atom(value)
        if isinstance(kind, SequenceOf):
            joined = SequenceOf(kind.container, join(kind.item, item[0]))
            return joined, stand_ins(joined)
        return written_worlds(worlds, self._atom(target.slice)[1], item[1])

    def _loop(self, loop):
        for _ in range(_LOOP_ROUNDS):
            before, sym_before = dict(self.env), dict(self.sym)
            if isinstance(loop, gast.For):
                self._bind(loop.target.id, *self._iterated(loop.iter))
                self._sym_loop_target(loop)
            self._block(loop.body)
            self.env = _join_envs(before, self.env)
            self._sym_join_into(sym_before, self.sym)
            if all(before.get(k, (None,))[0] == v[0] for k, v in self.env.items()) \
                    and self.sym == sym_before:
                return
        for name, (kind, _) in list(self.env.items()):     # no fixed point: give up
            if before.get(name, (None,))[0] != kind:
                self._bind(name, UNKNOWN, None)
                self._forget_operand(name)
        for name in set(self.sym) | set(sym_before):
            if self.sym.get(name) != sym_before.get(name):
                self._sym_bind(name, None)

    def _forget_written(self, call):
        """`xs.append(v)` and other calls on a name change what it holds."""
        if isinstance(call.func, gast.Attribute) and isinstance(call.func.value, gast.Name):
            name = call.func.value.id
            if name in self.env:
                self._bind(name, UNKNOWN, None)

    def _iterated(self, atom):
        kind, worlds = self._atom(atom)
        if isinstance(kind, Opaque) and kind.type is range:
            return Num(int, "int64", ()), unknown_int()
        if isinstance(kind, SequenceOf):
            return kind.item, stand_ins(kind.item)
        if isinstance(kind, Items) and kind.items:
            item = kind.items[0]
            for other in kind.items[1:]:
                item = join(item, other)
            return item, stand_ins(item)
        if isinstance(kind, Num) and kind.type is np.ndarray and kind.axes:
            item = Num(np.ndarray if len(kind.axes) > 1 else np.dtype(kind.dtype).type,
                       kind.dtype, kind.axes[1:])
            return item, stand_ins(item)
        return UNKNOWN, None

    # ---- operations ---------------------------------------------------------------------
    def _atom(self, atom):
        if isinstance(atom, gast.Name):
            if atom.id in self.env:
                return self.env[atom.id]
            if self.levels.resolution.is_value(atom.id):
                return UNKNOWN, None            # not bound on this path (yet)
            resolution = self.levels.resolution
            module_global = resolution.kind(atom.id) == "global" \
                and atom.id not in resolution.imported
            live = getattr(resolution.globals, "live", resolution.globals)
            value = resolution.lookup(atom.id)
            return global_value(value, module_global,
                                module_global and is_varying(live, atom.id)
                                and varying_number_type(live, atom.id, value),
                                module_global and is_guarded_array(live, atom.id))
        if isinstance(atom, gast.Constant):
            return constant(atom.value)
        value = literal(atom)
        if value is not None:
            return constant(value)
        if isinstance(atom, gast.Subscript):          # `theta[0], theta[1]` in a tuple
            return self._getitem(atom.value, atom.slice)
        if isinstance(atom, gast.Tuple):
            parts = [self._atom(e) for e in atom.elts]
            if any(w is None for _, w in parts):
                return UNKNOWN, None
            return result_kind([tuple(w[k] for _, w in parts) for k in range(len(WORLDS))])
        if isinstance(atom, gast.Attribute):
            from ..ir.build import dotted_path
            path = dotted_path(atom)
            if path is not None and not self.levels.resolution.is_value(path.split(".")[0]):
                return constant(self.levels.resolution.lookup(path))
        return UNKNOWN, None

    def _evaluate(self, value):
        op = operation_of(value, self.levels.callees)
        primitive = op.primitive
        if primitive is operator.getitem:
            return self._getitem(op.args[0], op.args[1])
        if primitive is len:
            kind, worlds = self._atom(op.args[0])
            if isinstance(kind, SequenceOf):
                return Num(int, "int64", ()), unknown_int()
        if primitive is range:
            return Opaque(range), None
        if primitive is identity:
            # `self = blk` (an inlined method's receiver): the same value, whose kind has
            # no stand-ins when it is an object (its attributes' kinds are the facts)
            return self._atom(op.args[0])
        if primitive is runtime_shape.array_tolist:     # x.tolist(): nested lists
            return listed(self._atom(op.args[0])[0]), None
        if primitive in OBJECT_PRIMITIVES:          # self.W, P(w, b): object_kinds.py
            return object_result(primitive, op, self._atom)
        if primitive is attribute_read and value.attr not in ("shape", "ndim", "size", "dtype"):
            return UNKNOWN, None
        if inspect.isfunction(primitive) and self.helper_result is not None \
                and not evaluable(primitive):           # identity, attribute reads: ours
            return self._helper(primitive, op)
        if not (evaluable(primitive) or primitive is np.where and len(op.args) == 3):
            return UNKNOWN, None          # (np.where(c) alone gives data-dependent lengths)
        args = [self._atom(a) for a in op.args]
        keywords = {k: self._atom(v) for k, v in op.keywords.items()}
        if any(w is None for _, w in args + list(keywords.values())):
            if (is_elementwise(primitive) or primitive in _PRODUCTS
                    or primitive in FULL_REDUCTIONS) and not keywords and args:
                return unsized_result(primitive, args), None
            return UNKNOWN, None
        if primitive is attribute_read:
            call = lambda x: getattr(x, value.attr)              # noqa: E731
        elif isinstance(value, (gast.Tuple, gast.List)):         # a display, not a call
            call = lambda *items: primitive(items)               # noqa: E731
        else:
            call = primitive
        results = []
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            for k in range(len(WORLDS)):
                try:
                    results.append(call(*[w[k] for _, w in args],
                                        **{n: w[k] for n, (_, w) in keywords.items()}))
                except ZeroDivisionError:
                    # an integer whose value is not known stands in as 0 in one world:
                    # Python numbers divided by it have the kind they have divided by a
                    # nonzero one
                    try:
                        results.append(call(*[_nonzero(w[k]) for _, w in args], **{
                            n: w[k] for n, (_, w) in keywords.items()}))
                    except Exception:
                        return UNKNOWN, None
                except Exception:  # the stand-ins do not fit: no fact, never an error
                    return UNKNOWN, None
        kind, worlds = result_kind(results)
        if isinstance(kind, Num) and any(isinstance(k, Num) and (k.type is None or k.dtype is None)
                                         for k, _ in args + list(keywords.values())):
            kind = Num(None, None, kind.axes)         # only the shape is a fact
            worlds = stand_ins(kind) if kind.axes is not None else None
        return kind, integer_worlds(kind, worlds, primitive,
                                     [w for _, w in args + list(keywords.values())])


def _with_equal_lengths(classes, lengths):
    """Shape classes joined where the lengths (lengths.py) of every value two variables
    take are decided and equal: `out = np.zeros(n)`, `out = out + w[k] * x[k:k + n]`."""
    parent = dict(classes)
    first = {}
    for name in sorted(lengths):
        shape = lengths[name]
        if isinstance(shape, Shape) and shape and None not in shape:
            if shape in first:
                parent[root_of(parent, name)] = root_of(parent, first[shape])
            else:
                first[shape] = name
    return {name: root_of(parent, name) for name in parent}


def _nonzero(value):
    """A Python number's zero stand-in as a one of its type (anything else as it is)."""
    return type(value)(1) if type(value) in (int, float) and value == 0 else value


def _join_envs(a, b):
    out = {}
    for name in set(a) | set(b):
        if name not in a or name not in b:
            kind, worlds = a.get(name) or b.get(name)
            out[name] = (kind, worlds)
            continue
        (ka, wa), (kb, wb) = a[name], b[name]
        kind = join(ka, kb)
        same = wa is not None and wb is not None and not isinstance(wa, UnknownInt) \
            and not isinstance(wb, UnknownInt) and all(
            same_value(x, y) for x, y in zip(wa, wb))
        out[name] = (kind, wa if same else stand_ins(kind))
    return out

