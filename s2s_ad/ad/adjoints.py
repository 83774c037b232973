"""Adjoint bookkeeping for the backward sweep (ARCHITECTURE §4).

A value's first contribution defines its adjoint: a bare name is passed straight on
(an alias, no statement at all), anything else is assigned to `x_bar`. Later
contributions add: `x_bar = alias + e` the first time, then `x_bar += e`, in place only
once the generated code allocated `x_bar` itself (never for an alias of a seed, an
argument or another adjoint).

    x used once:    x_bar is y_bar                       (no code)
    x used twice:   x_bar = t1_0_bar * w                 (allocated: owned)
                    x_bar += t1_1_bar                    (in place)
"""
import gast

from ..ir import build
from ..optimize.fold import fold_expression


class Adjoints:
    def __init__(self, namer, bindings, numpy_name):
        self._namer = namer
        self._bindings = bindings
        self._np = numpy_name
        self._current = {}   # variable (or (tuple variable, k)) -> Name of its adjoint
        self._owned = set()

    def get(self, variable):
        node = self._current.get(variable)
        return build.clone(node) if node is not None else None

    def has(self, variable):
        return variable in self._current

    def name_of(self, variable):
        return self._namer.adjoint(_label(variable))

    def contribute(self, variable, expr, out):
        # fold first: `1.0 * t1_1` is an alias of t1_1, not a fresh array we may update
        expr = fold_expression(expr)
        if variable not in self._current:
            if _is_alias(expr):
                self._current[variable] = expr
                return
            name = self.name_of(variable)
            out.append(build.assign(name, expr))
            self._current[variable] = build.name(name)
            if isinstance(expr, (gast.BinOp, gast.UnaryOp)):
                self._owned.add(variable)
            return
        name = self.name_of(variable)
        if variable in self._owned:
            out.append(build.aug_add(name, expr))
        else:
            out.append(build.assign(name, build.binop(self.get(variable), "Add", expr)))
            self._owned.add(variable)
        self._current[variable] = build.name(name)

    def contribute_at(self, variable, primal, index, expr, out):
        """x_bar[index] += expr, allocating (or copying an alias of) x_bar first."""
        name = self.name_of(variable)
        if variable not in self._current:
            zeros = build.call(f"{self._np}.zeros", [build.call(f"{self._np}.shape", [primal])])
            out.append(build.assign(name, zeros))
        elif variable not in self._owned:
            copy = build.call(f"{self._np}.array", [self.get(variable)],
                              [("dtype", build.name("float"))])
            out.append(build.assign(name, copy))
        if _is_basic_static_index(index):
            target = build.store_subscript(build.name(name), index)
            out.append(gast.AugAssign(target=target, op=gast.Add(), value=expr))
        else:
            from ..runtime import add_at
            helper = self._bindings.name_for("add_at", add_at)
            out.append(build.expr_stmt(build.call(build.name(helper),
                                                  [build.name(name), _as_value(index), expr])))
        self._current[variable] = build.name(name)
        self._owned.add(variable)


def _is_alias(expr):
    """A bare name, a number, or an item of a name (`parts[0]`): passed on as is."""
    if isinstance(expr, gast.Constant):
        return isinstance(expr.value, (int, float)) and not isinstance(expr.value, bool)
    if isinstance(expr, gast.Subscript):
        return isinstance(expr.value, gast.Name) and isinstance(expr.slice, gast.Constant)
    return isinstance(expr, gast.Name)


def _label(variable):
    if isinstance(variable, tuple):
        return f"{variable[0]}_{variable[1]}"
    return variable


def _is_basic_static_index(index):
    """Only literals, slices and Ellipsis: no repeated elements are possible."""
    parts = index.elts if isinstance(index, gast.Tuple) else [index]
    return all(isinstance(p, gast.Slice) or (isinstance(p, gast.Constant)
               and (isinstance(p.value, int) or p.value is Ellipsis or p.value is None))
               or (isinstance(p, gast.UnaryOp) and isinstance(p.operand, gast.Constant))
               for p in parts)


def _as_value(index):
    """An index node as an ordinary expression: `1:3` -> slice(1, 3, None)."""
    if isinstance(index, gast.Slice):
        return build.call(build.name("slice"), [b if b is not None else build.const(None)
                                                for b in (index.lower, index.upper, index.step)])
    if isinstance(index, gast.Tuple):
        return build.tuple_([_as_value(e) for e in index.elts])
    return index
