"""Adjoints that are one number spread over an array, kept as that number while they can be.

A full reduction `s = np.sum(t)` (or np.mean) gives t the adjoint `unreduce(g, t)`: an
array of t's shape filled with the number g. When the facts know t's kind, that array is
not built at once: t's adjoint is remembered as "g everywhere" and handed to the
statement defining t. There, each contribution is either an array of t's shape anyway
(the template multiplies g by a value shaped like t: `g * np.exp(z - t2_0)`), or again a
number spread over an operand of t's shape (`u = t - v`: u gets g, v gets -g), which
passes the spreading on; anything else (a broadcast operand, a matrix product, a loop, a
parameter's gradient) gets the array, built where it is needed:

    t4_0 = np.mean(t3_0)          t3_0_bar = unreduce(1.0 / n, t3_0, None, False)
    t3_0 = t2_0 - t2_1      ->    (nothing: t2_0 gets 1.0 / n, t2_1 gets -(1.0 / n))
    t2_0 = np.logaddexp(0.0, z)   z_bar = 1.0 / n * np.exp(z - t2_0) - 1.0 / n * y
    t2_1 = y * z

A reduction along some axes leaves a view instead (`np.expand_dims(g, (2,))`, the reduced
axes of length 1); it goes on through elementwise statements as view_adjoints.py decides.
"""
import gast
import numpy as np

from ..analyses.shapes import is_elementwise
from ..signature import UNKNOWN, Num
from ..ir import build
from ..ir.walk import walk_tree
from .. import runtime, runtime_pieces
from .binding import BindingError, bind_operands
from .expand import expand
from .view_adjoints import contracted, literal_int, spread_view, view_step


class UniformAdjoints:
    """variable -> the number its adjoint is, everywhere (only for values the facts know
    to be arrays, defined once at the top level and never overwritten)."""

    def __init__(self, inputs, adjoints, context, maybe_zero=frozenset()):
        self.i = inputs
        self.adj = adjoints
        self.ctx = context
        self.pending = {}
        self.views = {}                 # pending adjoints that are arrays with axes of length 1:
        #                                 variable -> those axes (view_adjoints.py)
        self.maybe_zero = maybe_zero    # adjoint names that may hold a loop's shapeless 0.0

    def _unreduce_args(self, value, operand=None):
        """The arguments (g, v, axis, keepdims) of `value` when it is `unreduce(g, v, axis,
        keepdims)` with v a name (`operand`, when given) and keepdims a literal bool."""
        ok = isinstance(value, gast.Call) and isinstance(value.func, gast.Name) \
            and self.i.bindings.names.get(value.func.id) is runtime.unreduce \
            and len(value.args) == 4 and not value.keywords \
            and isinstance(value.args[1], gast.Name) and operand in (None, value.args[1].id) \
            and isinstance(value.args[3], gast.Constant) and type(value.args[3].value) is bool
        return value.args if ok else None

    def spread_number(self, value, operand):
        """g when `value` is `unreduce(g, operand, None, False)`, else None."""
        args = self._unreduce_args(value, operand)
        return None if args is None or args[3].value or not build.is_none(args[2]) else args[0]

    def spread_view(self, value, operand):
        """(the view, its axes) of `unreduce(g, operand, axis, keepdims)`, or None
        (view_adjoints.py)."""
        return spread_view(self, value, operand)

    def eligible(self, variable, within_block=False):
        """A float array defined once at the top level (or a parameter never rebound nor
        written into), with no adjoint yet: its adjoint may be held as a number. A
        parameter's is built as an array only when the gradient is returned, if nothing
        else reached it (reverse.py flushes what is left). In a specialisation, of no
        known dtype too (see pass_on). `within_block`: a loop's or branch's own value."""
        kinds, flow = self.i.kinds, self.i.dataflow
        if kinds is None or variable in self.pending or self.adj.has(variable) and not within_block:
            return False
        kind = kinds.of(variable)
        return (self._is_array(variable) and getattr(kind, "dtype", None) in (
            "float64", "float32") or self.i.specialised and _dtype_unknown(kind)) \
            and (within_block or not self.adj.accumulates(variable)
                 and not flow.is_overwritten(variable)) \
            and variable not in flow.subscripted and variable not in flow.list_valued \
            and variable not in flow.structured

    def hold(self, variable, number, view=None):
        """view: the axes of length 1 when `number` is a view (an array)."""
        self.pending[variable] = number
        if view is not None:
            self.views[variable] = view

    def flush(self, variable, out):
        """Build the array now: the adjoint is needed as one."""
        number = self.pending.pop(variable, None)
        self.views.pop(variable, None)
        if number is not None:
            self.adj.contribute(variable, self.spread(number, variable), out)

    def combine(self, variable, value):
        """`value + g` when `variable`'s adjoint is the number g spread over it and `value`
        is an array of its shape and dtype: the spread array is never built (`x_bar =
        t1_0_bar * w + 1.0`). None otherwise."""
        number = self.pending.get(variable)
        axes = self.i.kinds.axes(variable) if number is not None else None
        if number is None or not self._is_array(variable) \
                or not self.shaped_like(value, axes, adjoints=True, variable=variable) \
                or self.aliases_a_written_array(value) or not self.keeps_dtype(value, variable):
            return None
        del self.pending[variable]
        self.views.pop(variable, None)
        return build.binop(value, "Add", build.clone(number))

    def spread_into(self, variable, value):
        """g when `value` is `unreduce(g, v, axis, True)` (or `unreduce(g, v, None,
        False)`, or over the first axis, `unreduce(g, v, 0, False)`: numpy broadcasting
        puts the missing axis first), v of `variable`'s shape, and `variable` already has
        an adjoint array of that shape: g broadcasts against it as the spread array would
        (`x_bar += mu_bar / n`), with no array of x's size built for it. None otherwise."""
        kind = self.i.kinds.of(variable) if self.i.kinds is not None else None
        current = self.adj.get(variable) if self.adj.has(variable) else None
        args = self._unreduce_args(value)
        if args is None or not (args[3].value or build.is_none(args[2])
                                or literal_int(args[2]) == 0) \
                or not self._is_array(variable) \
                or getattr(kind, "dtype", None) not in ("float64", "float32") \
                or self.adj.accumulates(variable) or variable in self.pending \
                or not isinstance(current, gast.Name) \
                or not self.shaped_like(current, kind.axes, adjoints=True, variable=variable):
            return None
        classes = self.i.kinds.shape_class or {}
        if classes.get(value.args[1].id, value.args[1].id) != classes.get(variable, variable):
            return None
        return value.args[0]

    def flush_all(self, out):
        for variable in list(self.pending):
            self.flush(variable, out)

    def spread(self, number, variable):
        """unreduce(number, x): of a parameter shaped like x when there is one (x itself
        need not then be computed at all if nothing else reads it)."""
        helper = build.name(self.i.bindings.name_for("unreduce", runtime.unreduce))
        shaped = self.ctx.same_shaped_parameter(variable, same_dtype=True) or variable
        return build.call(helper, [build.clone(number), build.name(shaped),
                                   build.const(None), build.const(False)])

    def pass_on(self, stmt, op, target, out, first_def, contribute):
        """The statement defining `target`, whose adjoint is a number spread over it: pass
        the number on where each contribution is an array of target's shape anyway or a
        number for an operand of that shape; False (nothing written) otherwise.
        `contribute(variable, value, out)` adds an array contribution."""
        number = self.pending[target]
        axes = self.i.kinds.axes(target)
        # of no known dtype, from one array (`t = u ** 2`): `g * 2.0 * u` has t's shape, dtype
        unknown = _dtype_unknown(self.i.kinds.of(target))
        alike = {a.id for a in op.args if isinstance(a, gast.Name)} if unknown else set()
        if unknown and not (len(alike) == 1 and all(
                isinstance(a, (gast.Name, gast.Constant)) for a in op.args)):
            return False
        template = self.i.registry.reverse(op.primitive) if op.primitive is not None else None
        if template is None or op.keywords or not (
                is_elementwise(op.primitive) or op.primitive is np.where and len(op.args) == 3) \
                or not first_def or self.adj.has(target):
            return False
        try:
            bound = bind_operands(template, op.args, op.keywords, op.primitive)
            self.ctx.elementwise = True
            self.ctx.adjoint_may_be_scalar_zero = True     # no sums written from a number
            expansion = expand(template, bound, target, build.clone(number), self.ctx)
        except BindingError:
            return False
        plan = []
        # the template's own temporaries (`_g1 = np.where(x1 > x2, g, ...)` of np.maximum):
        # a contribution reading one is shaped like what that temporary reads
        defined = {s.targets[0].id: s.value for s in expansion.statements
                   if isinstance(s, gast.Assign) and len(s.targets) == 1
                   and isinstance(s.targets[0], gast.Name)}
        for param, index, value in expansion.contributions:
            operand = bound[param]
            if index is not None:
                return False
            if any(operand.id == planned and spread for planned, _, spread in plan):
                return False                    # `t + t`: two numbers, one operand
            # a view goes on as a view where it can (view_adjoints.py), before a factor of
            # the target's shape makes it an array (`unbroadcast(view, t4_1)`)
            step = view_step(self, target, operand.id, value, number) \
                if target in self.views and not unknown and not any(
                    operand.id == planned for planned, _, _ in plan) else None
            if step is not None and self.keeps_dtype(value, operand.id):
                plan.append((operand.id, step[1], self.views[target] if step[0] == "view"
                             else False))
            elif self.shaped_like(value, axes, defined=defined, variable=target, alike=alike):
                if not (self.keeps_dtype(value, operand.id) or unknown):
                    return False
                plan.append((operand.id, value, False))
            elif target not in self.views and self.numbers_only(value) \
                    and self._shaped_as(operand.id, axes, target) and self.eligible(operand.id) \
                    and not any(operand.id == planned for planned, _, _ in plan):
                plan.append((operand.id, value, True))
            else:
                return False

        def aliased(plan):
            return any(not spread and self.aliases_a_written_array(value)
                       for _, value, spread in plan)
        # summed per operand only where needed: `(x + x) * g` is slower than adding
        # `g * x` twice (RMSNorm's row adjoint: 2x the time)
        if aliased(plan):
            plan = _sums_per_operand(plan)
            if aliased(plan):
                return False
        del self.pending[target]
        viewed = self.views.pop(target, None) is not None
        out.extend(expansion.statements)
        for operand, value, spread in plan:
            if spread is not False:
                self.hold(operand, value, view=None if spread is True else spread)
            else:
                contribute(operand, contracted(self, value, target) if viewed else value, out)
        return True

    def pass_on_to_elements(self, op, target, out, first_def):
        """`target = x[index]` whose adjoint is a number g spread over it: x's adjoint gets
        g added at the selected elements (`x_bar[index] += g`, or add_at for integer
        arrays, where repeats accumulate), with no array of g's built first. False
        (nothing written) when the statement is not such an index read."""
        import operator
        base = self.i.kinds.of(op.args[0]) if op.args else None
        if op.primitive is not operator.getitem or op.keywords or not first_def \
                or self.adj.has(target) or not (
                    isinstance(base, Num) and base.type is np.ndarray and base.axes
                    and base.dtype in ("float64", "float32")):
            return False          # (an item of a tuple or list takes the array itself)
        if target in self.views:
            return False          # an array: its length-1 axes do not index like a number
        number = self.pending[target]
        template = self.i.registry.reverse(op.primitive)
        try:
            bound = bind_operands(template, op.args, op.keywords, op.primitive)
            self.ctx.elementwise = False
            self.ctx.adjoint_may_be_scalar_zero = False
            expansion = expand(template, bound, target, build.clone(number), self.ctx)
        except BindingError:
            return False
        contributions = expansion.contributions
        if expansion.statements or any(
                index is None or isinstance(index, gast.Tuple) and not index.elts
                or isinstance(index, gast.Constant) and index.value is Ellipsis
                or not self.numbers_only(value) for _, index, value in contributions):
            return False          # x[()] and x[...] are all of x: spread as before
        del self.pending[target]
        for param, index, value in contributions:
            operand = bound[param]
            self.flush(operand.id, out)
            self.adj.contribute_at(operand.id, operand, index, value, out)
        return True

    def _is_array(self, variable):
        """An array by the facts: of axes they know, or of a shape they do not (a slice
        `u[1:]`, arithmetic on one), but not a 0-d array."""
        kind = self.i.kinds.of(variable)
        axes = getattr(kind, "axes", None)
        return bool(axes) or axes is None and getattr(kind, "type", None) is np.ndarray

    def _shaped_as(self, name, axes, variable):
        """Has `name` the shape of `variable`, whose axes are `axes`? By the axes where the
        facts know them; else only `variable` itself and its shape class (kinds.py) have
        its shape, which no axes tell."""
        if axes is not None:
            return self.i.kinds.axes(name) == axes
        if variable is None:
            return False
        classes = self.i.kinds.shape_class or {}
        return classes.get(name, name) == classes.get(variable, variable)

    def shaped_like(self, value, axes, adjoints=False, defined=None, variable=None,
                    alike=()):
        """Is `value` an array of these axes (of `variable`'s shape, where the facts know
        no axes) because a factor of it is (following products, sums, negations,
        comparisons and elementwise calls down from the top)? With `adjoints`, an adjoint
        counts as its value's kind (a straight-line adjoint has its value's shape, unless
        it may be a loop's shapeless 0.0). defined: {name: value} of temporaries a
        template just assigned, followed into their values; `alike`: names of its shape."""
        stack = [value]
        defined = dict(defined or {})
        while stack:
            node = stack.pop()
            if isinstance(node, gast.Name) and node.id in defined:
                stack.append(defined.pop(node.id))     # each once: no cycles
            elif isinstance(node, gast.Compare):
                stack += [node.left] + list(node.comparators)
            elif isinstance(node, gast.Name):
                if not self.i.namer.is_adjoint(node.id):
                    if node.id in alike or self._shaped_as(node.id, axes, variable):
                        return True
                elif adjoints and node.id not in self.maybe_zero:
                    held = self.adj.variable_holding(node.id)
                    if held is not None and self._shaped_as(held, axes, variable):
                        return True
            elif isinstance(node, gast.BinOp):
                stack += [node.left, node.right]
            elif isinstance(node, gast.UnaryOp):
                stack.append(node.operand)
            elif isinstance(node, gast.Call) and node.args and not node.keywords \
                    and self._broadcasts(node.func):
                stack += list(node.args)            # elementwise calls: every argument
        return False

    def _broadcasts(self, func):
        """Does this callee give the broadcast shape of its arguments (a ufunc, np.where,
        runtime.logistic, np.maximum's kink_share, where_negated, unbroadcast's second
        argument's shape)?"""
        import numpy
        if isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name) \
                and func.value.id == self.i.levels.numpy_name:
            callee = getattr(numpy, func.attr, None)
            return isinstance(callee, numpy.ufunc) or callee is numpy.where
        return isinstance(func, gast.Name) and \
            self.i.bindings.names.get(func.id) in (runtime.unbroadcast, runtime.logistic,
                                                   runtime_pieces.kink_share,
                                                   runtime_pieces.where_negated)

    def numbers_only(self, value):
        """Does `value` read only numbers (constants, number-valued names, the adjoint it
        was made from, element counts)? Then it is a number too."""
        stack = [value]
        while stack:
            node = stack.pop()
            if isinstance(node, gast.Call):
                if not (isinstance(node.func, gast.Name) and self.i.bindings.names.get(
                        node.func.id) is runtime.reduced_count):
                    return False
                continue                          # an int, whatever it counts
            if isinstance(node, gast.Attribute) and node.attr == "size" or isinstance(
                    node, gast.Subscript) and isinstance(node.value, gast.Attribute) \
                    and node.value.attr == "shape":
                continue                          # an element count (ad/context.py)
            if isinstance(node, gast.Name):
                if not self.i.namer.is_adjoint(node.id) and self.i.kinds.axes(node.id) != ():
                    return False
                continue
            stack.extend(gast.iter_child_nodes(node))
        return True

    def aliases_a_written_array(self, value):
        """Would the contribution, once `1.0 * y` is folded, be the array `y` itself, which
        the backward sweep later writes into (restoring y[i]) or rebinds? An adjoint
        passed on as that name would change with it."""
        from ..optimize.fold import fold_expression
        folded = fold_expression(build.clone(value))
        flow = self.i.dataflow
        return isinstance(folded, gast.Name) and not self.i.namer.is_adjoint(folded.id) \
            and (folded.id in flow.subscripted or flow.is_overwritten(folded.id))

    def keeps_dtype(self, value, operand):
        """Do the arrays `value` reads have the operand's dtype? (`g * c` with c float32
        would make a float64 operand's adjoint float32, where the array g spreads to is
        float64.)"""
        dtype = getattr(self.i.kinds.of(operand), "dtype", None)
        carried = False       # an array of that dtype: numbers and conditions alone give float64
        for node in walk_tree(value):
            if isinstance(node, gast.Name) and not self.i.namer.is_adjoint(node.id):
                kind = self.i.kinds.of(node.id)
                if not self._is_array(node.id):
                    continue
                if getattr(kind, "dtype", None) not in (dtype, "bool"):
                    return False                      # (a condition widens nothing)
                carried |= kind.dtype == dtype
        return dtype is not None and (carried or dtype == "float64")


def _dtype_unknown(kind):     # of no known kind, or of no known dtype and not a number
    return kind == UNKNOWN or isinstance(kind, Num) and kind.dtype is None and kind.axes != ()


def _sums_per_operand(plan):
    """An operand's two array contributions (`t * t`) as one sum: `1.0 * u + 1.0 * u` folds
    to the fresh array `u + u`, where `1.0 * u` alone would be u itself (an adjoint the
    backward sweep's restores of u would change)."""
    merged = []
    for operand, value, spread in plan:
        earlier = next((k for k, (o, _, s) in enumerate(merged) if o == operand and not s), None)
        if spread or earlier is None:
            merged.append((operand, value, spread))
        else:
            merged[earlier] = (operand, build.binop(merged[earlier][1], "Add", value), False)
    return merged
