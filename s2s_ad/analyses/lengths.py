"""Symbolic lengths (mixed into the facts analysis, analyses/kinds.py): the length of each
axis of an array, and the value of an integer, as an affine expression (analyses/affine.py)
over the lengths of the parameters' axes, integer parameters, floor divisions of those by
positive literals, and loop indices; None where it is not decided.

    def f(x, w):                  x: float64[n], w: float64[n]
        K = len(w)                K = w.shape[0]
        n = len(x) - K + 1        n = x.shape[0] - w.shape[0] + 1
        out = np.zeros(n)         (n,)                   and from now on n >= 0
        for k in range(K):        k = k@L, 0 <= k@L <= w.shape[0] - 1
            s = x[k:k + n]        (n,): 0 <= k@L <= k@L + n <= x.shape[0] is proved
            out = out + s         (n,)

A slice `x[a:b]` (step 1, or none) is as long as numpy makes it only where the bounds
are proved in range (0 <= a <= b <= length, negative literals counting from the end of an
axis proved long enough); otherwise its length is None. Elementwise results broadcast
their operands: an axis proved of length >= 2 is the result's whatever the other operand's
is there (numpy raises unless that one is 1 or equal). Facts learned from what numpy
requires (np.zeros(n) needs n >= 0) come only from the function's top-level statements.

The facts analysis uses a result's lengths where its own stand-in worlds decided nothing
(a slice's length it cannot evaluate): every axis of length 1 or proved >= 2 makes the
array's axes a fact. `Kinds.lengths` keeps, for each variable, the lengths every value it
takes has (no loop index in them), so that two variables of equal lengths have one shape.
"""
import inspect
import operator

import gast
import numpy as np

from ..ir.primitives import attribute_read, identity, operation_of
from ..freshness import guarded_arrays_read
from ..ir.walk import uninterrupted_blocks
from ..signature import Num
from .affine import Affine, Bounds
from .shape_values import (Ints, Range, Shape, broadcast, join, matmul, mentions,
                           substituted, without_transient)
from .evaluable import evaluable
from .shapes import FULL_REDUCTIONS, is_elementwise
from .stand_ins import literal

_CREATION = (np.zeros, np.ones, np.empty, np.full)
_LIKE = (np.zeros_like, np.ones_like, np.empty_like, np.full_like, np.copy, np.asarray,
         np.array, identity)

_COMPARISONS = (operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne)
# the result has its first operand's shape
_KEEPING = (np.cumsum, np.cumprod, np.flip, np.roll, np.sort)


class SymbolicLengths:
    """Reads self.levels, self.env (variable -> (kind, worlds)) of the analysis it is mixed
    into; keeps self.sym (variable -> Shape, Ints or Affine where decided), self.lengths
    (variable -> what every value it takes has) and self.bounds."""

    def _init_lengths(self, signature):
        self.sym, self.bounds, self._nested = {}, Bounds(), 0
        self._bound_values = {}          # variable -> every value bound (with loop symbols)
        self._equal = {}                 # a slice's own length symbol -> what it equals
        self._opaque = {}                # that symbol -> (id(block), position) of its slice
        self._site = None                # (id(block), position) of the statement analysed
        self._indices = set()            # variables a loop index symbol was bound to
        self._learnable = uninterrupted_blocks(self.levels.tree)
        for name in self.levels.resolution.parameters:
            self._sym_input(name, signature.get(name))
        for name, kind in guarded_arrays_read(self.levels):
            self._sym_input(name, kind)       # a module-level array the guard tests

    def _sym_input(self, name, kind):
        """Symbols for the lengths of a value that comes in: a parameter of `kind`, or a
        module-level array the dispatcher guards (`X.shape[0]` reads it when it runs)."""
        if not isinstance(kind, Num) or kind.axes is None:
            return
        if kind.type is np.ndarray:
            axes = []
            for k, a in enumerate(kind.axes):
                if a == 1:
                    axes.append(Affine.constant(1))
                else:                 # an axis of any other length: 0 is no signature's
                    symbol = f"{name}.shape[{k}]"
                    self.bounds.lower[symbol] = 2
                    axes.append(Affine.symbol(symbol))
            self._sym_bind(name, Shape(axes))
        elif kind.axes == () and kind.dtype is not None \
                and np.dtype(kind.dtype).kind in "iu" and kind.type is not bool:
            self._sym_bind(name, Affine.symbol(name))
        elif kind.axes == ():
            self._sym_bind(name, Shape())

    def _sym_bind(self, name, value):
        """Bind `name`; values that read a loop index `name` held go (they were of the
        index's former value). Only a loop index's symbol starts with "@name@": other names
        skip the scan of every value (quadratic in a long function's statements)."""
        if name in self._indices:
            prefix = "@" + name + "@"
            for other in [o for o, v in self.sym.items() if mentions(v, prefix)]:
                del self.sym[other]
        value = substituted(value, self._equal)
        if value is None:
            self.sym.pop(name, None)
        else:
            self.sym[name] = value
        self._bound_values.setdefault(name, []).append(value)

    def _lasting_lengths(self):
        """variable -> the lengths every value it takes has (no loop symbol in them), by
        the equalities learned by the end."""
        lengths = {}
        for name, values in self._bound_values.items():
            joined = without_transient(substituted(values[0], self._equal))
            for value in values[1:]:
                joined = join(joined, without_transient(substituted(value, self._equal)))
            if joined is not None:
                lengths[name] = joined
        return lengths

    def _sym_loop_target(self, loop):
        """The loop variable of `for k in range(...)` (a symbol with its bounds) or of
        `for row in x` (x's axes but the first)."""
        iterated = self._sym(loop.iter)
        target = loop.target.id
        if isinstance(iterated, Range):
            start, stop = iterated
            symbol = f"@{target}@{id(loop)}"
            self._indices.add(target)
            k = Affine.symbol(symbol)
            if start.is_constant:
                self.bounds.lower[symbol] = start.const
            else:
                self._learn(k - start)
            self._learn(stop - Affine.constant(1) - k)
            self._sym_bind(target, k)
        elif isinstance(iterated, Shape) and len(iterated) >= 1:
            self._sym_bind(target, Shape(iterated[1:]))
        else:
            self._sym_bind(target, None)

    def _sym_join_into(self, before, after):
        """self.sym as the join of two states (branches, loop rounds)."""
        self.sym = {n: join(before[n], after[n]) for n in set(before) & set(after)
                    if join(before[n], after[n]) is not None}

    # ---- values -------------------------------------------------------------------------
    def _sym(self, atom):
        if isinstance(atom, gast.Name):
            if atom.id in self.sym:
                return self.sym[atom.id]
            kind = self.env.get(atom.id, (None,))[0]
            return Shape() if isinstance(kind, Num) and kind.axes == () \
                and kind.type is not np.ndarray else None
        value = literal(atom)
        if type(value) is int:
            return Affine.constant(value)
        if type(value) is float:
            return Shape()
        if isinstance(atom, gast.Attribute) and atom.attr == "shape" \
                and isinstance(atom.value, gast.Name):
            shape = self.sym.get(atom.value.id)
            return Ints(shape) if isinstance(shape, Shape) else None
        if isinstance(atom, gast.Subscript):
            return self._sym_getitem(atom.value, atom.slice)
        return None

    def _symbolic(self, value):
        """The symbolic value of the right-hand side `value` (None when not decided)."""
        op = operation_of(value, self.levels.callees)
        p, args = op.primitive, op.args
        if p is range:
            return self._range(op)
        if p is operator.getitem:
            return self._sym_getitem(args[0], args[1])
        if p is attribute_read and getattr(value, "attr", None) == "shape":
            shape = self._sym(args[0])
            return Ints(shape) if isinstance(shape, Shape) else None
        if p is len and len(args) == 1:
            seq = self._sym(args[0])
            if isinstance(seq, Shape) and seq:
                return seq[0]
            return Affine.constant(len(seq)) if isinstance(seq, Ints) else None
        if p is tuple and not op.keywords:
            items = [self._sym(a) for a in args]
            return Ints(items) if all(i is None or isinstance(i, Affine) for i in items) \
                else None
        if inspect.isfunction(p) and self.helper_result is not None and not evaluable(p):
            operand = self._helper_shaped_like(p, op)       # sigmoid(z): z's shape
            return self._sym(operand) if operand is not None else None
        if op.keywords and p not in _CREATION and p not in FULL_REDUCTIONS:
            return None
        operands = [self._sym(a) for a in args]
        if p in _CREATION and args:
            return self._created(operands[0], op)
        if operands and all(isinstance(o, Affine) for o in operands):
            return self._integer(p, operands)
        if p in _LIKE and len(args) >= 1 and not op.keywords:
            return operands[0] if isinstance(operands[0], Shape) else None
        if p in _KEEPING and operands and isinstance(operands[0], Shape):
            return self._kept(p, operands[0], op)
        if p in (np.where, np.clip) and len(operands) == 3 and not op.keywords \
                and all(isinstance(o, (Shape, Affine)) for o in operands):
            return self._broadcast([Shape() if isinstance(o, Affine) else o for o in operands])
        if p is np.transpose and len(args) == 1 and not op.keywords \
                and isinstance(operands[0], Shape):
            return Shape(operands[0][::-1])
        if p is np.outer and len(operands) == 2 and all(
                isinstance(o, Shape) and len(o) == 1 for o in operands):
            return Shape(operands[0] + operands[1])
        if p in FULL_REDUCTIONS:
            return self._reduced(operands, op)
        if p in (operator.matmul, np.matmul, np.dot) and len(operands) == 2 and (
                p is not np.dot or all(isinstance(o, Shape) and len(o) <= 2 for o in operands)):
            return matmul(*operands, self.bounds)
        if p is float and len(operands) == 1:
            return Shape()
        if (is_elementwise(p) or p in _COMPARISONS) and operands and all(
                isinstance(o, (Shape, Affine))
                                                  for o in operands):
            return self._broadcast([Shape() if isinstance(o, Affine) else o for o in operands])
        return None

    def _note_kind(self, lengths, kind):
        """A slice's own length symbol is >= 2 where the facts' axes say its axis is not 1."""
        if isinstance(lengths, Shape) and isinstance(kind, Num) and kind.axes is not None \
                and len(kind.axes) == len(lengths):
            for length, axis in zip(lengths, kind.axes):
                if axis is None and length is not None and len(length.terms) == 1 \
                        and length.terms[0][0] in self._opaque and length.terms[0][1] == 1 \
                        and length.const == 0:
                    self.bounds.lower[length.terms[0][0]] = 2

    def _broadcast(self, shapes):
        """numpy's broadcast of `shapes`; where an axis of a slice's own length (proved
        >= 2) meets one of a lasting length proved >= 2, numpy raises unless they are
        equal: learned, where every value of the slice reaches this statement (same block,
        after it, no break, continue or early return: ir.walk.uninterrupted_blocks)."""
        result = broadcast(shapes, self.bounds)
        rank = len(result)
        for k in range(rank):
            axis = [s[len(s) - rank + k] for s in shapes if len(s) - rank + k >= 0]
            long = [a for a in axis if a is not None and self.bounds.at_least(a, 2)]
            lasting = [a for a in long if without_transient(a) is not None]
            for a in long:
                symbol = a.terms[0][0] if len(a.terms) == 1 and a.terms[0][1] == 1 \
                    and a.const == 0 and a.terms[0][0] in self._opaque else None
                if symbol is None or not lasting or symbol in self._equal:
                    continue
                site, here = self._opaque[symbol], self._site
                if site is not None and here is not None and site[0] == here[0] \
                        and site[0] in self._learnable and site[1] < here[1]:
                    self._equal[symbol] = lasting[0]
        return result

    def _integer(self, p, operands):
        if p in (identity, int) and len(operands) == 1:
            return operands[0]
        if p is operator.neg:
            return -operands[0]
        if len(operands) != 2:
            return None
        a, b = operands
        if p is operator.add:
            return a + b
        if p is operator.sub:
            return a - b
        if p is operator.mul and (a.is_constant or b.is_constant):
            return b.scaled(a.const) if a.is_constant else a.scaled(b.const)
        if p is operator.floordiv and b.is_constant and b.const > 0:
            # not affine: an atom of its own, q with b*q <= a <= b*q + b - 1
            if a.is_constant:
                return Affine.constant(a.const // b.const)
            if b.const == 1:
                return a
            symbol = f"({a} // {b.const})"
            q = Affine.symbol(symbol)
            self._learn(a - q.scaled(b.const))
            if self.bounds.nonnegative(a):
                self.bounds.lower[symbol] = 0
            return q
        return None

    def _range(self, op):
        """range(stop) / range(start, stop): the bounds of its items, for a loop."""
        parts = [without_transient(self._sym(a)) for a in op.args]
        if op.keywords or not 1 <= len(parts) <= 2 or not all(isinstance(p, Affine)
                                                              for p in parts):
            return None
        return Range((Affine.constant(0), parts[0]) if len(parts) == 1 else parts)

    def _learn(self, fact):
        """Know `fact >= 0` from now on."""
        if fact not in self.bounds.facts:
            self.bounds.facts.append(fact)

    def _created(self, shape, op):
        if isinstance(shape, Affine):
            shape = Ints([shape])
        if not isinstance(shape, Ints) or (op.keywords.keys() - {"dtype"}):
            return None
        if not self._nested:        # numpy raises for a negative length
            for length in shape:
                if length is not None and not length.is_constant:
                    self._learn(length)
        return Shape(shape)

    def _kept(self, p, shape, op):
        """np.cumsum(x, axis=1), np.flip(x), np.roll(x, 1), np.sort(x): x's shape (a
        cumulative sum with no axis flattens: x's only for a vector)."""
        axis = op.keywords.get("axis")
        if set(op.keywords) - {"axis"} or axis is not None and literal(axis) is None:
            return None
        if p in (np.cumsum, np.cumprod) and (len(op.args) > 1 or axis is None
                                             and len(shape) != 1):
            return None
        if p is np.sort and len(op.args) > 1:
            return None
        return shape

    def _reduced(self, operands, op):
        axis, keepdims = op.keywords.get("axis"), op.keywords.get("keepdims")
        if len(operands) != 1 or set(op.keywords) - {"axis", "keepdims"}:
            return None
        if axis is None:
            return Shape() if keepdims is None else None
        shape, axis = operands[0], literal(axis)
        keep = literal(keepdims) if keepdims is not None else False
        if not isinstance(shape, Shape) or type(axis) is not int \
                or not -len(shape) <= axis < len(shape) or type(keep) is not bool:
            return None
        axis %= len(shape)
        return Shape(shape[:axis] + ((Affine.constant(1),) if keep else ()) + shape[axis + 1:])

    def _sym_getitem(self, base, index):
        shape = self._sym(base)
        parts = list(index.elts) if isinstance(index, gast.Tuple) else [index]
        if isinstance(shape, Ints):
            position = literal(index)
            if type(position) is int and -len(shape) <= position < len(shape):
                return shape[position]
            return None
        if not isinstance(shape, Shape):
            return None
        out, axis = [], 0
        for part in parts:
            if axis >= len(shape):
                return None
            if isinstance(part, gast.Slice):
                out.append(self._slice_length(shape[axis], part))
                axis += 1
                continue
            kind = self.env.get(part.id, (None,))[0] if isinstance(part, gast.Name) else None
            if type(literal(part)) is int or isinstance(kind, Num) and kind.axes == () \
                    and kind.dtype is not None and np.dtype(kind.dtype).kind in "iu":
                axis += 1                           # one item: the axis goes
                continue
            return None                 # masks, index arrays, np.newaxis: not decided here
        return Shape(out + list(shape[axis:]))

    def _slice_length(self, length, part):
        """The length of `x[lower:upper]` on an axis of `length`, where proved."""
        if length is None:
            return None
        step = literal(part.step) if part.step is not None else 1
        if step != 1:
            return None
        lower = self._bound(part.lower, length, Affine.constant(0))
        upper = self._bound(part.upper, length, length)
        if lower is None or upper is None:
            return None
        zero = Affine.constant(0)
        proved = self.bounds.nonnegative(lower - zero) and self.bounds.nonnegative(
            upper - lower) and self.bounds.nonnegative(length - upper)
        return upper - lower if proved else self._own_length(part)

    def _own_length(self, part):
        """A slice's length that is not decided, as a symbol of its own: what it is in the
        iteration analysed (values holding the one of an earlier iteration go), until a
        broadcast later in the same block shows it equal to a length of lasting value."""
        symbol = f"@?{id(part)}@"
        for other in [o for o, v in self.sym.items() if mentions(v, symbol)]:
            del self.sym[other]
        self.bounds.lower[symbol] = 0
        self._opaque[symbol] = self._site
        return Affine.symbol(symbol)

    def _bound(self, node, length, default):
        """A slice bound as an offset from the axis' start (a negative literal counts
        from its end), or None."""
        if node is None or isinstance(node, gast.Constant) and node.value is None:
            return default
        value = literal(node)
        if type(value) is int and value < 0:
            return length + Affine.constant(value)
        bound = self._sym(node)
        if not isinstance(bound, Affine) or not self.bounds.nonnegative(bound):
            return None                # (a bound that may be negative counts from the end)
        return bound
