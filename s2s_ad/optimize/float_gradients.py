"""Gradients of floats: a cast where the returned adjoint could hold integers.

Folding removes the seed `1.0` from products (`x * 1.0 + x * 1.0` is `x + x`), so the
adjoint of `x * x` at the integer 3 would be the integer 6, and the gradient of
`int(x) * x` is `int(x)` itself. Integer arguments are differentiated as floats, so a
gradient is always of floats. This pass proves, from the generated code alone, that a
returned adjoint is a float (an arithmetic with a float literal, a true division, a
numpy function that always gives floats, a runtime adjoint helper applied to a float
adjoint, a name all of whose assignments are such); where it cannot, the returned
expression goes through `float_gradient`, which costs a call only there:

    def grad_f(x):                               def grad_f(x):
        x_bar = x + x                    ->          x_bar = x + x
        return x_bar                                 return float_gradient(x_bar)

    x1_bar = t1_1 + t2_0 * 2.0                   (proved: unchanged)

A specialisation's Python float argument gets a Python float gradient first (the cast
optimize/number_gradients.py decides, `float(x_bar)`), which holds floats in turn.
"""
import itertools
import math

import gast
import numpy

from ..ir.walk import walk_tree
from ..ir import build
from ..ir.naming import callee
from ..runtime import RUNTIME_MODULES as _RUNTIME

# numpy functions whose result holds floats whatever the (real) arguments hold
_FLOAT_RESULTS = {
    numpy.exp, numpy.expm1, numpy.exp2, numpy.log, numpy.log1p, numpy.log2, numpy.log10,
    numpy.sqrt, numpy.cbrt, numpy.sin, numpy.cos, numpy.tan, numpy.arcsin, numpy.arccos,
    numpy.arctan, numpy.arctan2, numpy.sinh, numpy.cosh, numpy.tanh, numpy.arcsinh,
    numpy.arccosh, numpy.arctanh, numpy.true_divide, numpy.reciprocal, numpy.mean,
    numpy.var, numpy.std, numpy.hypot, numpy.logaddexp, numpy.logaddexp2, numpy.deg2rad,
    numpy.rad2deg, numpy.sinc, numpy.float_power, numpy.average, numpy.zeros,
    numpy.ones, numpy.zeros_like, numpy.ones_like, float, numpy.float32, numpy.float16,
}
_FLOAT_TYPES = (numpy.float64, numpy.float32, numpy.float16)
_FLOAT_ARITHMETIC = (gast.Add, gast.Sub, gast.Mult, gast.Pow, gast.MatMult)


def float_gradients(body, request, params, resolve, cast_name, known_float=None,
                    python_float=None, integers=True):
    """`body` with each returned gradient that may hold integers wrapped in
    `cast_name()(...)` (statements holding such a return are fresh copies; `body` is not
    changed). `request` says where the gradients are in the returned value; `params` are
    the generated function's parameters; `resolve(name)` gives what a free name denotes;
    `known_float(name)`, a specialisation's facts, says that a value of f holds floats
    (then arithmetic on it gives a fresh float array). `python_float(k, gradient)`: the
    k-th gradient (in wrt order) cast to a Python float, or None where it needs no such
    cast (number_gradients.python_float_casts). `integers`: cast what may hold integers
    (False: only the Python float casts)."""
    proof = _Proof(body, params, resolve, known_float or (lambda name: False)) \
        if integers else None
    out = []
    for stmt in body:
        if any(isinstance(node, gast.Return) and node.value is not None
               for node in walk_tree(stmt)):
            stmt = build.clone(stmt)
            for node in walk_tree(stmt):
                if isinstance(node, gast.Return) and node.value is not None:
                    node.value = _cast_gradients(node.value, request, proof, cast_name,
                                                 python_float)
        out.append(stmt)
    return out


def _cast_gradients(value, request, proof, cast_name, python_float):
    position = itertools.count()

    def cast(gradient):
        k = next(position)
        made = python_float(k, gradient) if python_float is not None else None
        if made is not None:
            return made                 # a Python float holds no integers
        if proof is None or proof.is_float(gradient):
            return gradient
        return build.call(build.name(cast_name()), [gradient])

    def cast_all(grads):
        if request.single:
            return cast(grads)
        if isinstance(grads, gast.Tuple):
            grads.elts = [cast(g) for g in grads.elts]
            return grads
        return cast(grads)

    if request.mode == "value_and_grad" or request.preserve_result or request.has_aux:
        # (value, gradient), or (gradient, aux) for grad with has_aux
        if not isinstance(value, gast.Tuple) or len(value.elts) != 2:
            return value
        k = 1 if request.mode == "value_and_grad" or request.preserve_result else 0
        value.elts[k] = cast_all(value.elts[k])
        return value
    return cast_all(value)


class _Proof:
    """Which expressions of one generated function certainly hold floats.

    A name holds floats when every assignment to it gives floats, assuming the same of
    the names those assignments read (a loop's `a = a + e` is decided by `a`'s other
    assignments and `e`): the greatest such set, found by a worklist that marks a name
    as not proved and rechecks the names whose assignments read it. Nothing recurses on
    the length of the program (a chain of 2,000 assignments is 2,000 steps) or on the
    depth of an expression (evaluated from an explicit stack)."""

    def __init__(self, body, params, resolve, known_float):
        self.resolve, self.known_float = resolve, known_float
        self.definitions = {name: [None] for name in params}
        for stmt in body:
            for node in walk_tree(stmt):
                self._record(node)
        self._proved = None

    def _record(self, node):
        if isinstance(node, gast.Assign):
            for target in node.targets:
                if isinstance(target, gast.Name):
                    self.definitions.setdefault(target.id, []).append(node.value)
                elif isinstance(target, gast.Subscript):
                    continue     # `x[i] = v` writes into x, whose dtype stays (as `+=`)
                else:                                   # unpacking: not followed
                    for name in walk_tree(target):
                        if isinstance(name, gast.Name):
                            self.definitions.setdefault(name.id, []).append(None)
        elif isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name):
            self.definitions.setdefault(node.target.id, []).append(
                gast.BinOp(left=node.target, op=node.op, right=node.value))
        elif isinstance(node, (gast.For, gast.comprehension)):
            for name in walk_tree(node.target):
                if isinstance(name, gast.Name):
                    self.definitions.setdefault(name.id, []).append(None)

    def is_float(self, node):
        if self._proved is None:
            self._proved = self._float_names()
        return self._holds(node, self._proved)

    def _float_names(self):
        """The names all of whose assignments give floats (see the class docstring)."""
        proved = {name for name, values in self.definitions.items() if None not in values}
        readers = {}                    # name -> the defined names whose values read it
        for name, values in self.definitions.items():
            for value in values:
                for node in walk_tree(value) if value is not None else ():
                    if isinstance(node, gast.Name) and node.id in self.definitions:
                        readers.setdefault(node.id, set()).add(name)
        pending = sorted(proved)
        while pending:
            name = pending.pop()
            if name in proved and not all(self._holds(v, proved)
                                          for v in self.definitions[name]):
                proved.discard(name)
                pending.extend(sorted(readers.get(name, set()) & proved))
        return proved

    def _holds(self, root, proved):
        """Whether the expression `root` holds floats when the names in `proved` (and
        the free names resolving to floats) do."""
        results = {}
        stack = [(root, False)]
        while stack:
            node, ready = stack.pop()
            parts = self._parts(node)
            if not ready and parts:
                stack.append((node, True))
                stack.extend((part, False) for part in parts if id(part) not in results)
                continue
            results[id(node)] = self._combine(node, [results[id(p)] for p in parts], proved)
        return results[id(root)]

    def _parts(self, node):
        """The subexpressions whose floatness decides `node`'s."""
        if isinstance(node, gast.BinOp):
            return [node.left, node.right]
        if isinstance(node, gast.UnaryOp):
            return [node.operand]
        if isinstance(node, gast.IfExp):
            return [node.body, node.orelse]
        if isinstance(node, gast.List):
            return list(node.elts)
        if isinstance(node, gast.Call) and not any(k.arg == "dtype" for k in node.keywords):
            return list(node.args)
        return []

    def _combine(self, node, parts, proved):
        if isinstance(node, gast.Constant):
            return isinstance(node.value, float)
        if isinstance(node, gast.BinOp):
            if isinstance(node.left, gast.List) or isinstance(node.right, gast.List):
                # `[0.0] * len(x)` (a list of floats' adjoint, ad/adjoints.py) repeats
                # floats; `[a] + b` concatenates, floats only where both hold them
                return all(parts) or isinstance(node.op, gast.Mult) and (
                    parts[0] if isinstance(node.left, gast.List) else parts[1])
            if isinstance(node.op, gast.Div):
                return True
            return isinstance(node.op, _FLOAT_ARITHMETIC) and (
                any(parts) or self._known_operand(node.left) or self._known_operand(node.right))
        if isinstance(node, gast.UnaryOp):
            return isinstance(node.op, (gast.USub, gast.UAdd)) and (
                parts[0] or self._known_operand(node.operand))
        if isinstance(node, gast.Name):
            if node.id in self.definitions:
                return node.id in proved
            return isinstance(self.resolve(node.id), float)     # a global
        if isinstance(node, gast.Call):
            return self._call_is_float(node, parts)
        if isinstance(node, (gast.IfExp, gast.List)):
            return all(parts)           # (items added by `x[k] += e` into a list of
        return False                    # floats stay floats, as an array's dtype stays)

    def _known_operand(self, node):
        """An operand the facts know holds floats: arithmetic on it makes a new float
        array (the name alone may be a view of an argument, so it proves nothing)."""
        return isinstance(node, gast.Name) and self.known_float(node.id)

    def _call_is_float(self, call, args):
        """`args`: whether each positional argument holds floats."""
        if any(k.arg == "dtype" for k in call.keywords):
            return False
        if isinstance(call.func, gast.Attribute) and call.func.attr == "astype" and call.args:
            return callee(call.args[0], self.resolve) in _FLOAT_TYPES    # a kept float32
        target = callee(call.func, self.resolve)
        if target in _FLOAT_RESULTS or (getattr(target, "__module__", None) == "math"
                                        and target not in _MATH_INTEGERS):
            return True
        name = getattr(target, "__name__", None)
        if target in _FRESH_LIKE_FIRST or target in (tuple, list):
            return bool(args) and args[0]
        if target is numpy.where:
            return any(args[1:])
        if target is numpy.einsum:      # of two operands or more: a new array, never a view
            return len(args) > 2 and any(args[1:])
        if target is numpy.expand_dims:     # a view of a proved (new) array of floats
            return bool(args) and args[0]
        if getattr(target, "__module__", None) in _RUNTIME and name in _ADJOINT_FIRST:
            return bool(args) and args[0]
        return getattr(target, "__module__", None) in _RUNTIME and name in _FLOAT_HELPERS


# runtime helpers given an adjoint first: they sum, broadcast, reshape, multiply it or
# place it into float zeros, so they give floats when it holds floats
_ADJOINT_FIRST = {
    "unbroadcast", "unreduce", "add_at", "unreduce_extremum", "unreduce_prod",
    "reverse_cumsum", "unreduce_var", "unreduce_norm", "unreduce_std", "reshape_like",
    "untranspose", "untile", "unrepeat", "matmul_adjoint_a", "matmul_adjoint_b", "dot_adjoint_a",
    "dot_adjoint_b", "inner_adjoint_a", "inner_adjoint_b", "tensordot_adjoint_a",
    "tensordot_adjoint_b", "place_diagonal", "spread_trace", "undiag",
    "einsum_operand_adjoint", "scatter_add", "take_adjoint", "copy_adjoint",
    "clear_adjoint", "match_adjoint", "unpad", "unpad_values", "unpad_end_values",
    "pad_linear", "kink_share", "where_negated",
}
# numpy functions giving a new array of floats when their first argument holds floats
# (never a view of it: a gradient must not share memory with an argument); tuple() and
# list() too, of a proved name (a list this code made: never an argument's tuple)
_FRESH_LIKE_FIRST = {numpy.sum, numpy.cumsum, numpy.prod, numpy.dot, numpy.matmul,
                     numpy.outer, numpy.tensordot}
# runtime helpers whose result holds floats whatever they are given
_FLOAT_HELPERS = {"zero_adjoint", "float_gradient", "float_zeros", "float_copy", "halved_diagonal"}
_MATH_INTEGERS = {getattr(math, n) for n in ("floor", "ceil", "trunc", "factorial", "gcd",
                                             "isqrt", "comb", "perm", "lcm")
                  if hasattr(math, n)}
