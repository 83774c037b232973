"""Stage 7 (specialised reverse mode): the array class of a generated expression, for
optimize/buffers.py.

Two arrays may share a buffer when they have one shape and one dtype. The facts
(analyses/kinds.py) give each name's kind and its shape class (names proved to have one
shape); `ArrayClasses(kinds, resolve).class_of(expr)` extends that to an expression:
`(shape class, dtype)` for a float array, WEAK for a Python number (it never changes an
array's dtype), a dtype name for a numpy scalar, a `Row` for a reduction that kept its
axes (or `np.expand_dims` of an array, a view of it), None when the facts do not say.
`reduced_count(...)`, a mean's n, is a Python int. An elementwise operation has its operands' class
when one of them broadcasts into the other without growing it:

    x: float64[N, D] (class x), m = np.sum(x, axis=1, keepdims=True)
    class_of(x * 2.0)       -> ("x", "float64")
    class_of(x - m)         -> ("x", "float64")       (m: Row((None, 1), "float64"))
    class_of(np.isnan(x))   -> None                   (a ufunc that does not keep the dtype)

It also says which calls a buffer may pass through: ufuncs, numpy reductions (they keep
no reference) and the runtime helpers whose result is a new array of their operands'
class.
"""
from dataclasses import dataclass

import gast
import numpy

from .. import runtime, runtime_pieces
from ..ir import build
from ..ir.naming import callee
from ..signature import Num
from .buffer_plan import UFUNC_OF, keeps_dtype

_REDUCTIONS = {numpy.sum, numpy.mean, numpy.max, numpy.min, numpy.prod}
# runtime helpers whose result is always a new float array of the shape and dtype of an
# elementwise operation on their first k operands (given float arrays and numbers there,
# numbers or flags after): a buffer like arithmetic's. helper -> k
_FRESH_HELPERS = {runtime.logistic: 1, runtime_pieces.kink_share: 3,
                  runtime_pieces.where_negated: 1}
# those of them that take `into=` (an array of their result's class to write into) ->
# may it be one of their operands' (they read all operands before writing)?
_OUT_HELPERS = {runtime_pieces.kink_share: True, runtime_pieces.where_negated: False}
# ufuncs given a free buffer or a new array, never their operand's: np.sign of 10^6 float64
# takes 5.3 ms in place, 0.6 ms into another array (numpy 2.4; abs's adjoint met it)
_SLOW_IN_PLACE = {numpy.sign}
# np.clip(x, lo, hi) applies numpy's clip ufunc to its operands and takes its `out=`
_CLIP = (getattr(numpy, "_core", None) or numpy.core).umath.clip
WEAK = "python number"        # a Python int or float: never changes an array's dtype


class ArrayClasses:
    """class_of and the calls a buffer may pass through, over kinds (the levels form's
    facts) and resolve(name) (what a free name of the generated code denotes)."""

    def __init__(self, kinds, resolve):
        self.kinds, self.resolve = kinds, resolve
        self.classes = {}         # generated name -> its class, from its one assignment
        self._class_memo = {}     # id(node) -> (class, node: kept alive so ids stay unique)

    def class_of(self, node):
        """(shape class, dtype) of a float array, WEAK or a dtype name for a number, or
        None when the facts do not say."""
        key = id(node)
        if key not in self._class_memo:         # each node once: deep expressions
            self._class_memo[key] = (self._class_of(node), node)
        return self._class_memo[key][0]

    def _class_of(self, node):
        if isinstance(node, gast.Constant):
            return WEAK if type(node.value) in (int, float) else None
        if isinstance(node, gast.Name):
            return self.name_class(node.id)
        if isinstance(node, gast.Attribute) and node.attr in ("size", "ndim") \
                and isinstance(node.value, gast.Name) or is_length(node):
            return WEAK                                        # a Python int
        if isinstance(node, gast.UnaryOp) and isinstance(node.op, (gast.USub, gast.UAdd)):
            return self.class_of(node.operand)
        if isinstance(node, gast.BinOp) and type(node.op) in UFUNC_OF:
            return self._combine(self.class_of(node.left), self.class_of(node.right))
        if self.spread(node):
            return self.class_of(node.args[1])
        if self.fresh_helper(node):
            cls = self.class_of(node.args[0])
            for operand in node.args[1:_FRESH_HELPERS[callee(node.func, self.resolve)]]:
                cls = self._combine(cls, self.class_of(operand))
            return cls if isinstance(cls, tuple) else None
        if self.reduction(node):
            return self._kept_reduction(node)
        if self.kept_contraction(node):
            return self._kept_contraction(node)
        function = callee(node.func, self.resolve) if isinstance(node, gast.Call) else None
        if function is runtime.reduced_count:
            return WEAK                                        # a Python int, a mean's n
        if function is numpy.expand_dims:
            return self._expanded(node)
        ufunc = self.ufunc(node)
        if ufunc is not None:
            classes = [self.class_of(a) for a in node.args]
            cls = classes[0] if classes else None
            for other in classes[1:]:
                cls = self._combine(cls, other)
            # only ufuncs that give an array of its operands' float dtype (not np.isnan)
            if isinstance(cls, tuple) and keeps_dtype(ufunc, cls[1]):
                return cls
        return None

    def _kept_reduction(self, node):
        """`np.sum(a, axis=k, keepdims=True)` of a float array a: a Row (a's axes with
        axis k of length 1), else None."""
        keywords = {k.arg: k.value for k in node.keywords}
        axis = build.number_literal(keywords.get("axis", build.const(None)))
        keepdims = keywords.get("keepdims")
        cls = self.class_of(node.args[0]) if len(node.args) == 1 else None
        axes = self.axes_of(cls)
        if type(axis) is not int or not (isinstance(keepdims, gast.Constant)
                                         and keepdims.value is True) \
                or axes is None or not -len(axes) <= axis < len(axes):
            return None
        kept = list(axes)
        kept[axis] = 1
        return Row(tuple(kept), cls[1] if isinstance(cls, tuple) else cls.dtype)

    def kept_contraction(self, node):
        """`np.expand_dims(np.einsum(spec, a, b), k)` (ad/contractions.py: a sum of a
        product with its axes kept)."""
        return isinstance(node, gast.Call) and not node.keywords and len(node.args) == 2 \
            and callee(node.func, self.resolve) is numpy.expand_dims \
            and self.contraction(node.args[0])

    def contraction(self, node):
        """`np.einsum(spec, a, b, ...)` of two operands or more: it reads them and returns
        a new array, keeping no reference to them."""
        return isinstance(node, gast.Call) and not node.keywords and len(node.args) >= 3 \
            and callee(node.func, self.resolve) is numpy.einsum \
            and isinstance(node.args[0], gast.Constant) and isinstance(node.args[0].value, str)

    def _kept_contraction(self, node):
        """The Row of `np.expand_dims(np.einsum('ab,ab->a', x, y), 1)`, as of `np.sum(x * y,
        axis=1, keepdims=True)`: an operand labelled with every axis in order ('ab') gives
        the axes, the ones summed and put back have length 1. None otherwise."""
        spec, operands = node.args[0].args[0].value, node.args[0].args[1:]
        if spec.count("->") != 1:
            return None
        inputs, out = spec.split("->")
        labels = inputs.split(",")
        full = "".join(sorted(set(inputs) - {","}))
        if full not in labels or len(labels) != len(operands):
            return None
        cls = self.class_of(operands[labels.index(full)])
        axes = self.axes_of(cls)
        given = node.args[1].elts if isinstance(node.args[1], gast.Tuple) else [node.args[1]]
        places = [build.number_literal(p) for p in given]
        summed = [k for k, label in enumerate(full) if label not in out]
        if not isinstance(cls, tuple) or axes is None or len(axes) != len(full) \
                or out != "".join(label for label in full if label in out) \
                or places != summed:
            return None
        return Row(tuple(1 if k in summed else a for k, a in enumerate(axes)), cls[1])

    def product_class(self, target, value, primal_of):
        """The class of an adjoint `target` assigned a product (`g @ W.T`, `np.outer(g,
        w)`, the adjoints of a matrix product's operands): its variable's class, which the
        generator gives it (an adjoint has its value's shape), where that variable is a
        float array of known axes and every array the product reads has its dtype (so the
        product has it too). None otherwise. primal_of(name): the variable an adjoint name
        is for, else None."""
        if not self.matrix_product(value) or primal_of is None:
            return None
        variable = primal_of(target)
        kind = self.kinds.of(variable) if variable is not None else None
        if not (isinstance(kind, Num) and kind.type is numpy.ndarray and kind.axes
                and kind.dtype in ("float64", "float32")):
            return None
        operands = [value.left, value.right] if isinstance(value, gast.BinOp) else value.args
        for operand in operands:
            if isinstance(operand, gast.Attribute) and operand.attr == "T":
                operand = operand.value
            name = operand.id if isinstance(operand, gast.Name) else None
            of = self.kinds.of((primal_of(name) or name) if name is not None else "")
            if not (isinstance(of, Num) and of.type is numpy.ndarray
                    and of.dtype == kind.dtype):
                return None
        return ((self.kinds.shape_class or {}).get(variable, variable), kind.dtype)

    def matrix_product(self, node):
        """`a @ b` or `np.outer(a, b)`: a new array, its operands read and not kept."""
        return isinstance(node, gast.BinOp) and isinstance(node.op, gast.MatMult) \
            or isinstance(node, gast.Call) and not node.keywords and len(node.args) == 2 \
            and callee(node.func, self.resolve) is numpy.outer
    def _expanded(self, node):
        """`np.expand_dims(g, (k,))` of a float array g (a reduction's adjoint held as a
        view, ad/view_adjoints.py): a Row, g's axes with length-1 axes inserted, as the
        reduction with keepdims would have kept them; else None. A view of g: like any
        Row, never a buffer, only read where it broadcasts."""
        if len(node.args) != 2 or node.keywords:
            return None                                  # (axis= by keyword: not read)
        axes = self.axes_of(self.class_of(node.args[0]))
        where = node.args[1].elts if isinstance(node.args[1], gast.Tuple) else [node.args[1]]
        inserted = [build.number_literal(a) for a in where]
        if axes is None or any(type(k) is not int for k in inserted):
            return None
        ndim = len(axes) + len(inserted)
        inserted = {k % ndim for k in inserted if -ndim <= k < ndim}
        if len(inserted) != len(where):
            return None
        rest = iter(axes)
        kept = tuple(1 if k in inserted else next(rest) for k in range(ndim))
        return Row(kept, _dtype(self.class_of(node.args[0])))

    def axes_of(self, cls):
        """The axes (1 or None for any other length) of a class's arrays, or None."""
        if isinstance(cls, Row):
            return cls.axes
        if isinstance(cls, tuple):
            return self.kinds.axes(cls[0])
        return None

    def _combine(self, a, b):
        """The class of an elementwise operation on operands of classes a and b: a float
        array's class also when the other operand is an array that broadcasts against it
        without growing it (a row of means against its matrix), never when the result
        would be larger than either."""
        if a is None or b is None:
            return None
        if a == b:
            return a
        if not isinstance(a, (tuple, Row)):
            a, b = b, a
        if not isinstance(a, (tuple, Row)):
            return WEAK if a == b == WEAK else None
        if not isinstance(b, (tuple, Row)):              # an array and a number
            if b == WEAK or numpy.promote_types(b, _dtype(a)) == numpy.dtype(_dtype(a)):
                return a
            return None
        for big, small in ((a, b), (b, a)):
            if isinstance(big, tuple) and self._broadcasts_into(small, big):
                return big
        return None

    def _broadcasts_into(self, small, big):
        small_axes, big_axes = self.axes_of(small), self.axes_of(big)
        if small_axes is None or big_axes is None or len(small_axes) > len(big_axes) \
                or numpy.promote_types(_dtype(small), _dtype(big)) != numpy.dtype(_dtype(big)):
            return False
        pairs = zip(reversed(small_axes), reversed(big_axes))
        return all(s == 1 or s is None and b is None for s, b in pairs)

    def name_class(self, ident):
        if ident in self.classes:
            return self.classes[ident]
        kind = self.kinds.of(ident)
        if not isinstance(kind, Num) or kind.dtype is None:
            return None
        if kind.axes == ():
            if kind.type in (int, float):
                return WEAK
            return kind.dtype if kind.type is not None and kind.type is not numpy.ndarray \
                else None
        if kind.type is numpy.ndarray and kind.dtype in ("float64", "float32") \
                and (kind.axes or kind.axes is None and ident in self.once):
            # axes None (`u[1:, :] - u[:-1, :]`, lengths no fact): still an array, whose
            # class meets numbers and its shape class only, nothing that may broadcast
            return ((self.kinds.shape_class or {}).get(ident, ident), kind.dtype)
        return None

    def spread(self, node):
        """`unreduce(g, x, None, False)` with g a Python number: a reduction's seed spread
        over x, a new array of x's shape and dtype (runtime.unreduce)."""
        return isinstance(node, gast.Call) and not node.keywords and len(node.args) >= 2 \
            and callee(node.func, self.resolve) is runtime.unreduce \
            and all(isinstance(a, gast.Constant) and a.value in (None, False)
                    for a in node.args[2:]) \
            and self.class_of(node.args[0]) == WEAK

    def fresh_helper(self, node):
        """`logistic(z, 0.0)`, `kink_share(g, 1.0, d, True)`, `where_negated(g, c)`: a
        helper of _FRESH_HELPERS on names and numbers (its first k operands, one of them a
        name), numbers, flags or a mask that fits in the first operand after them."""
        if not (isinstance(node, gast.Call) and not node.keywords and node.args):
            return False
        k = _FRESH_HELPERS.get(callee(node.func, self.resolve))
        if k is None or len(node.args) < k:
            return False
        operands, rest = node.args[:k], node.args[k:]
        return any(isinstance(a, gast.Name) for a in operands) \
            and all(isinstance(a, gast.Name) or self.class_of(a) == WEAK for a in operands) \
            and all(self.class_of(a) == WEAK or isinstance(a, gast.Constant)
                    and type(a.value) is bool or self._mask_within(a, operands[0])
                    for a in rest)

    def _mask_within(self, node, array):
        """Is `node` a boolean array (where_negated's mask) that broadcasts into `array`'s
        class without growing it?"""
        kind = self.kinds.of(node.id) if isinstance(node, gast.Name) else None
        axes = self.axes_of(self.class_of(array))
        if not (isinstance(kind, Num) and kind.dtype == "bool" and kind.axes is not None
                and axes is not None and len(kind.axes) <= len(axes)):
            return False
        pairs = zip(reversed(kind.axes), reversed(axes))
        return all(s == 1 or s is None and b is None for s, b in pairs)

    def takes_out(self, node):
        """_OUT_HELPERS's entry for `node`'s callee (None: it takes no `into=`)."""
        return _OUT_HELPERS.get(callee(node.func, self.resolve))

    def slow_in_place(self, node):
        return self.ufunc(node) in _SLOW_IN_PLACE     # (its operand is no buffer for it)

    def reduction(self, node):
        """A numpy reduction (`np.sum(t, axis=1)`): it reads its array and returns a new
        one, keeping no reference, so the array may serve as a buffer after it."""
        return isinstance(node, gast.Call) and callee(node.func, self.resolve) in _REDUCTIONS \
            and all(k.arg in ("axis", "keepdims") for k in node.keywords)

    def ufunc(self, node):
        """The numpy ufunc a call without keywords applies elementwise, else None."""
        if not isinstance(node, gast.Call) or node.keywords:
            return None
        function = callee(node.func, self.resolve)
        if function is numpy.clip:
            function = _CLIP
        if isinstance(function, numpy.ufunc) and function.nout == 1 \
                and function.nin == len(node.args):
            return function
        return None


def is_length(node):
    """`x.shape[-1]`: a Python int."""
    return isinstance(node, gast.Subscript) and build.number_literal(node.slice) is not None \
        and isinstance(node.value, gast.Attribute) and node.value.attr == "shape" \
        and isinstance(node.value.value, gast.Name)


@dataclass(frozen=True)
class Row:
    """The class of an array a reduction kept the axes of (`np.sum(g, axis=1,
    keepdims=True)`): its axes and dtype. It is never a buffer; arithmetic reads it where
    it broadcasts against an array of a class."""
    axes: tuple
    dtype: str


def _dtype(cls):
    return cls.dtype if isinstance(cls, Row) else cls[1]
