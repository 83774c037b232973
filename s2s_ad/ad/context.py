"""What template expansion (reverse and forward) asks of the function being built: fresh
names, the names globals are bound under, which operands are active, and the facts about
shapes (analyses/shapes.py, and analyses/kinds.py for a specialised derivative).

    ctx.same_shape("t2_0", x)            True when x is shaped like the result t2_0
    ctx.reduce_to_operand(g, "t2_0", b)  np.sum(g, axis=0) when b broadcast over axis 0
    ctx.dot_to_number(g * x, x, "t2_0", r)  np.dot(g, x) for a number r times a vector
    ctx.solve_columns(g, K, alpha)       g when K is one float matrix, alpha a vector/matrix
"""
import gast
import numpy

from ..freshness import guarded_arrays_read
from ..ir import build
from ..ir.primitives import operation_of
from .contractions import contraction
from .held_calls import call_key
from ..ir.walk import assigned_at_most_once, names_stored, walk_tree


class ExpansionContext:
    """What template expansion (reverse and forward) needs from the function being built."""

    def __init__(self, inputs):
        self.i = inputs
        self._held = None         # forward_value's table, made when first asked
        self._identity_names = None     # _identities' set, made when first asked

    def fresh_name(self, temp):
        return self.i.namer.fresh(temp.lstrip("_"))

    def global_name(self, ident, obj):
        if obj is numpy:
            return self.i.levels.numpy_name
        return self.i.bindings.name_for(ident, obj)

    def is_active_operand(self, atom):
        return isinstance(atom, gast.Name) and self.i.activity.is_active(atom.id)

    elementwise = False       # set per statement: is its primitive elementwise?
    held_calls = {}           # set per statement: call key -> the name holding its value

    def held_value(self, function, args):
        """A name still holding `function(*args)` where the statement being reversed is
        (ad/held_calls.py), or None."""
        key = call_key(function, args)
        name = self.held_calls.get(key) if key is not None else None
        return build.name(name) if name is not None else None

    def same_shape(self, result, atom):
        """Is operand `atom` of the operation computing `result` shaped like it?"""
        if self.i.shapes.same(result, atom):
            return True
        if self.i.kinds is not None and isinstance(atom, gast.Name) \
                and self.i.kinds.same_lengths(result, atom.id):
            return True                 # lengths proved equal (analyses/lengths.py)
        axes = self._axes(atom)
        return axes is not None and axes == self._axes(result)

    def is_scalar(self, atom):
        return self.i.shapes.is_scalar(atom) or self._axes(atom) == ()

    def _axes(self, atom):
        return self.i.kinds.axes(atom) if self.i.kinds is not None else None

    adjoint_may_be_scalar_zero = True   # set per statement by the reverser

    def reduce_to_operand(self, contribution, result, atom):
        """`unbroadcast(contribution, atom)` written out from the facts: np.sum over the
        axes broadcasting added, or None when they are not known. A contribution that may
        still be the scalar zero of a loop keeps the general helper."""
        result_axes, axes = self._axes(result), self._axes(atom)
        if result_axes is None or axes is None or self.adjoint_may_be_scalar_zero \
                or not self.elementwise:
            return None
        lead = len(result_axes) - len(axes)
        if lead < 0 or any(a is None and r is not None
                           for a, r in zip(axes, result_axes[lead:])):
            return None
        kept = [k for k, (a, r) in enumerate(zip(axes, result_axes[lead:]))
                if a == 1 and r is None]
        if lead or kept:        # a product summed in one pass (ad/contractions.py)
            contracted = contraction(self, contribution, result, result_axes,
                                     range(lead), [lead + k for k in kept])
            if contracted is not None:
                return contracted
        total = self.i.levels.numpy_name + ".sum"
        if lead:
            axis = build.const(0) if lead == 1 else build.tuple_(
                [build.const(k) for k in range(lead)])
            contribution = build.call(total, [contribution], [("axis", axis)])
        if kept:
            axis = build.const(kept[0]) if len(kept) == 1 else build.tuple_(
                [build.const(k) for k in kept])
            contribution = build.call(total, [contribution],
                                      [("axis", axis), ("keepdims", build.const(True))])
        return contribution

    def dot_to_number(self, contribution, other, result, atom):
        """`np.dot(g, x)` for the contribution `g * x` to a number operand `atom` of an
        elementwise operation on vectors, where the facts say x is a float vector shaped
        like the result (so g, the result's adjoint, is too): one pass and no temporary,
        where `np.sum(g * x, axis=0)` builds the product first. None otherwise.

            r_bar += np.sum(t1_4_bar * u, axis=0)   ->   r_bar += np.dot(t1_4_bar, u)
        """
        kinds = self.i.kinds
        if kinds is None or self.adjoint_may_be_scalar_zero or not self.elementwise \
                or not isinstance(other, gast.Name) or self._axes(atom) != () \
                or not (isinstance(contribution, gast.BinOp)
                        and isinstance(contribution.op, gast.Mult)):
            return None
        traced = self._trace_of_identity(contribution, other, result)
        if traced is not None:
            return traced
        result_axes, kind = self._axes(result), kinds.of(other.id)
        if getattr(kind, "type", None) is not numpy.ndarray \
                or kind.dtype not in ("float64", "float32"):
            return None
        if kind.axes is None and self._real_number(atom):
            # a slice of unknown length (`x[k:k + n]`): the number times it has its shape,
            # whatever its rank, so the adjoint pairs with it item by item (np.vdot reads
            # both flat; both are real here, so its conjugation changes nothing)
            return build.call(self.i.levels.numpy_name + ".vdot",
                              [contribution.left, contribution.right])
        if result_axes is None or len(result_axes) != 1 or kind.axes != result_axes:
            return None
        return build.call(self.i.levels.numpy_name + ".dot",
                          [contribution.left, contribution.right])

    def _trace_of_identity(self, contribution, other, result):
        """`np.trace(g)` for the contribution `g * E` to a number times an identity matrix
        E (`sn2 * np.eye(n)`, a kernel matrix's noise) where both are matrices of no axis
        of length 1, so E has the result's shape: the diagonal's sum, where `np.sum(g *
        E)` builds an n x n product and keeps E for the backward sweep. None otherwise."""
        sides = [contribution.left, contribution.right]
        g = [s for s in sides if not (isinstance(s, gast.Name) and s.id == other.id)]
        if len(g) != 1 or self._axes(result) != (None, None) \
                or self._axes(other.id) != (None, None) or other.id not in self._identities():
            return None
        return build.call(self.i.levels.numpy_name + ".trace", [g[0]])

    def _identities(self):
        """Names bound once, at the top level, to `np.eye(n)` or `np.identity(n)` (one
        argument: square, ones on the main diagonal) and never written into."""
        if self._identity_names is None:
            body = self.i.levels.tree.body
            once = assigned_at_most_once(body)
            self._identity_names = {
                stmt.targets[0].id for stmt in body
                if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], gast.Name) and stmt.targets[0].id in once
                and _is_identity_call(stmt.value, self.i.levels.callees)}
        return self._identity_names

    def _real_number(self, atom):
        """Is `atom` a float number (Python or numpy, not complex, not a 0-d array)?"""
        kinds = self.i.kinds
        return kinds.is_number(atom) and kinds.of(atom).dtype in ("float64", "float32")

    def matmul_adjoint(self, which, g, a, b):
        """`matmul_adjoint_a/b(g, a, b)` written out where the facts say both operands are
        float matrices or vectors and the adjoint is not the scalar zero, as a person writes
        them: `g @ b.T` and `a.T @ g` for two matrices, `np.outer(g, b)` and `g @ a` for a
        matrix times a vector, `g * b` for a dot product (the helper covers batched and
        still-zero cases). None otherwise."""
        ranks = self._float_ranks(a, b)
        if ranks is None or not set(ranks) <= {1, 2}:
            return None
        if ranks == [1, 1]:           # a dot product: g a number (0.0 too gives zeros)
            return gast.BinOp(left=g, op=gast.Mult(),
                              right=build.clone(b if which == "a" else a))
        if self.adjoint_may_be_scalar_zero:
            return None               # 0.0 standing for an array has no shape to take
        if ranks == [2, 2]:
            if which == "a":
                return gast.BinOp(left=g, op=gast.MatMult(), right=_transposed(b))
            return gast.BinOp(left=_transposed(a), op=gast.MatMult(), right=g)
        # a matrix times a vector (or a vector times a matrix): g is a vector; the
        # matrix's adjoint is an outer product, the vector's g times the matrix
        matrix_is_mine = ranks[0 if which == "a" else 1] == 2
        if matrix_is_mine:
            pair = [g, build.clone(b)] if which == "a" else [build.clone(a), g]
            return build.call(self.i.levels.numpy_name + ".outer", pair)
        if which == "a":                          # a (n,) @ b (n, k): b @ g
            return gast.BinOp(left=build.clone(b), op=gast.MatMult(), right=g)
        return gast.BinOp(left=g, op=gast.MatMult(), right=build.clone(a))   # a (m, n) @ b

    def solve_columns(self, v, a, x):
        """`as_columns(v, a, x)` (x = np.linalg.solve(a, b); templates/numpy_linalg.py)
        written out where the facts say a is one float matrix and x a float vector or
        matrix: v itself. For x a matrix that is the helper's own value; for x a vector v
        stays a vector, which a solve against one matrix reads as one right-hand side and
        the solve's adjoint turns into an outer product (matmul_adjoint_a of two vectors
        is np.multiply.outer, written out `np.outer(g, b)` by matmul_adjoint), where the
        helper's (n, 1) column took an (n, 1) @ (1, n) product:

            _solved @ np.swapaxes(as_columns(alpha, K, alpha), -1, -2)  ->  np.outer(s, alpha)
        None otherwise."""
        return v if self._float_ranks(a, x) in ([2, 1], [2, 2]) else None

    def _float_ranks(self, *atoms):
        """The ranks of atoms the facts say are float64/float32 arrays, else None."""
        kinds = self.i.kinds
        if kinds is None or not all(isinstance(x, gast.Name) for x in atoms):
            return None
        ranks = []
        for x in atoms:
            kind = kinds.of(x.id)
            if getattr(kind, "type", None) is not numpy.ndarray or kind.axes is None \
                    or kind.dtype not in ("float64", "float32"):
                return None
            ranks.append(len(kind.axes))
        return ranks

    def var_adjoint(self, g, x, axis, ddof, keepdims):
        """`unreduce_var(g, x, axis, ddof, keepdims)` (np.var's adjoint) written out where
        the facts say x is a float array and axis, ddof and keepdims are literals:
        `(x - mean) * (g * (2.0 / (n - ddof)))`, g given back its reduced axis where
        broadcasting would not. The mean is written as a user's forward sweep has it (no
        keepdims over the first axis or all of them), and read from the forward sweep
        where the user computed it (`mu = np.mean(x, axis=-1, keepdims=True)`; and `x - mu`
        too: forward_value), so the arithmetic can go into buffers. None otherwise."""
        kinds = self.i.kinds
        if kinds is None or self.adjoint_may_be_scalar_zero or not isinstance(x, gast.Name):
            return None
        kind = kinds.of(x.id)
        if getattr(kind, "type", None) is not numpy.ndarray or not kind.axes \
                or kind.dtype not in ("float64", "float32"):
            return None
        rank = len(kind.axes)
        position = None if isinstance(axis, gast.Constant) and axis.value is None \
            else build.number_literal(axis)
        ddof_value = build.number_literal(ddof)
        if position is None and not (isinstance(axis, gast.Constant) and axis.value is None) \
                or type(position) not in (int, type(None)) or type(ddof_value) is not int \
                or not (isinstance(keepdims, gast.Constant) and type(keepdims.value) is bool):
            return None
        count = self.element_count(x, build.literal(position))
        if count is None:
            return None
        mean = build.attribute(build.name(self.i.levels.numpy_name), "mean")
        spread = g
        if position is None or position % rank == 0:
            mean = build.call(mean, [build.clone(x)],
                              [] if position is None else [("axis", build.literal(position))])
        else:
            mean = build.call(mean, [build.clone(x)], [("axis", build.literal(position)),
                                                       ("keepdims", build.const(True))])
            if not keepdims.value:
                spread = build.call(build.attribute(build.name(self.i.levels.numpy_name),
                                                    "expand_dims"),
                                    [g, build.literal(position)])
        if ddof_value:
            count = build.binop(count, "Sub", build.const(ddof_value))
        scale = build.binop(build.const(2.0), "Div", count)
        centred = self.forward_value(build.binop(build.clone(x), "Sub", self.forward_value(mean)))
        return build.binop(centred, "Mult", build.binop(spread, "Mult", scale))

    def forward_value(self, expr):
        """A name the forward sweep holds `expr`'s value in, else `expr`: one operation on
        names and number literals (same operands, literal keywords and order, or operands
        swapped for `+` and `*`, which IEEE arithmetic commutes exactly) that a top-level
        statement of f assigns to a name bound once, where neither it nor the operands are
        ever bound again or written into: the backward sweep reads that value. Only for
        a part of a larger expression (a whole assigned value would alias the array)."""
        if self._held is None:
            body = self.i.levels.tree.body
            unchanged = assigned_at_most_once(body) - _receivers(body)
            self._held = {}, unchanged
            # what a holder reads must be bound before it (or never: a parameter)
            ready = unchanged - set(names_stored(self.i.levels.tree))
            for stmt in body:
                if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name) \
                        and stmt.targets[0].id in unchanged:
                    for key in _value_keys(stmt.value, ready):
                        self._held[0].setdefault(key, stmt.targets[0].id)
                    ready.add(stmt.targets[0].id)
        held, unchanged = self._held        # in the backward sweep all are bound
        name = next((held[k] for k in _value_keys(expr, unchanged) if k in held), None)
        return build.name(name) if name is not None else expr

    def element_count(self, atom, axis):
        """`reduced_count(atom, axis)` written out from the facts: `y.size` for a full
        reduction, `y.shape[k]` over one axis, read off a parameter of the same shape
        when there is one (it is alive anyway; a temporary read only for its shape would
        be kept alive for nothing). None when the facts do not say atom is an array of a
        parameter's shape or the axis is not a literal."""
        kinds = self.i.kinds
        if isinstance(axis, gast.UnaryOp) and isinstance(axis.op, gast.USub) \
                and isinstance(axis.operand, gast.Constant) and type(axis.operand.value) is int:
            axis = build.const(-axis.operand.value)
        if kinds is None or not isinstance(atom, gast.Name) or not isinstance(
                axis, gast.Constant) or not (axis.value is None or type(axis.value) is int):
            return None
        kind = kinds.of(atom.id)
        if getattr(kind, "type", None) is not numpy.ndarray or kind.axes is None:
            return None
        rank = len(kind.axes)
        if axis.value is not None and not -rank <= axis.value < rank:
            return None
        parameter = self.same_shaped_parameter(atom.id)
        if parameter is None:
            return None         # reduced_count(x): see tape.shapes_read_off_kept_values
        shaped = build.name(parameter)
        if axis.value is None:
            return gast.Attribute(value=shaped, attr="size", ctx=gast.Load())
        return build.subscript(gast.Attribute(value=shaped, attr="shape", ctx=gast.Load()),
                               build.const(axis.value))

    def same_shaped_parameter(self, name, same_dtype=False):
        """A parameter provably of `name`'s shape (and, with `same_dtype`, of its type and
        dtype: a shape class may hold an int index array beside the floats it gathers),
        never rebound nor written into (so alive and unchanged all through the
        derivative), or None."""
        if self.i.kinds is None:
            return None
        classes = self.i.kinds.shape_class or {}
        root = classes.get(name, name)
        if self._unchanged is None:       # parameters never rebound nor written into
            touched = set(names_stored(self.i.levels.tree))
            if self.i.dataflow is not None:
                touched |= set(self.i.dataflow.subscripted)
            # (and the module-level arrays the guard tests: alive all through too)
            inputs = list(self.i.levels.resolution.parameters) + \
                [name for name, _ in guarded_arrays_read(self.i.levels)]
            self._unchanged = [p for p in inputs if p not in touched]
        kind = self.i.kinds.of(name)
        for p in self._unchanged:
            if classes.get(p, p) == root and not same_dtype or classes.get(p, p) == root \
                    and self.i.kinds.of(p) == kind and getattr(kind, "dtype", None):
                return p
        return None

    _unchanged = None

    current_target = None     # set per statement by forward mode

    def tangent_shape_known(self, bound):
        """Does every operand provably have the result's shape (no broadcasting)?"""
        names = [a for a in bound.values() if isinstance(a, gast.Name)]
        return bool(names) and all(self.same_shape(self.current_target, a) for a in names)


def _transposed(atom):
    return gast.Attribute(value=build.clone(atom), attr="T", ctx=gast.Load())


def _value_keys(value, unchanged):
    """The ways to say which operation `value` is (both operand orders for `+` and `*`),
    or none when it is not one operation on unchanged names and number literals."""
    if isinstance(value, gast.BinOp):
        left, right = _atom_key(value.left, unchanged), _atom_key(value.right, unchanged)
        if left is None or right is None:
            return []
        op = type(value.op).__name__
        swapped = [(op, right, left)] if isinstance(value.op, (gast.Add, gast.Mult)) else []
        return [(op, left, right)] + swapped
    if isinstance(value, gast.Call) and value.args:
        func = build.dotted_path(value.func)
        args = [_atom_key(a, unchanged) for a in value.args]
        keywords = sorted((k.arg, _atom_key(k.value, ())) for k in value.keywords)
        if func is None or None in args or any(k is None or v is None for k, v in keywords):
            return []
        return [("call", func) + tuple(args) + tuple(keywords)]
    return []


def _atom_key(node, unchanged):
    if isinstance(node, gast.Name):
        return ("name", node.id) if node.id in unchanged else None
    number = build.number_literal(node)
    if number is not None:
        return ("number", type(number).__name__, repr(number))
    if isinstance(node, gast.Constant) and (node.value is None or type(node.value) is bool):
        return ("constant", repr(node.value))
    return None


def _receivers(body):
    """Names a method is called on (`x.sort()` may change x)."""
    return {n.func.value.id for stmt in body for n in walk_tree(stmt)
            if isinstance(n, gast.Call) and isinstance(n.func, gast.Attribute)
            and isinstance(n.func.value, gast.Name)}


def _is_identity_call(value, callees):
    op = operation_of(value, callees) if isinstance(value, gast.Call) else None
    return op is not None and op.primitive in (numpy.eye, numpy.identity) \
        and len(op.args) == 1 and not set(op.keywords) - {"dtype"}
