"""Which primitive a levels-form operation applies, and to which operands.

    t1_0 = x ** 2              ->  Operation(operator.pow, args=[x, 2], keywords={})
    t2_0 = np.sum(x, axis=0)   ->  Operation(numpy.sum, args=[x], keywords={'axis': 0})
    t3_0 = x[i, 1:3]           ->  Operation(operator.getitem, args=[x, (i, 1:3)])
    t4_0 = (a, b)              ->  Operation(tuple, args=[a, b])
    y = x                      ->  Operation(IDENTITY, args=[x])
    t5_0 = self.W              ->  Operation(attribute_of, args=[self, 'W'])  (an object's
                                   attribute: normalize records the path in the callees)
"""
import operator
from dataclasses import dataclass

import gast
import numpy

from .walk import walk_tree
from .build import const, dotted_path
from ..runtime_objects import attribute_of


def identity(x):
    """The primitive of a plain copy `y = x`."""
    return x


# attributes of a value that are read as they are (every other one is lowered or refused
# by the front end): metadata, never differentiable
VALUE_ATTRIBUTES = frozenset({"shape", "ndim", "size", "dtype"})


def attribute_read(x, attr):
    """The primitive of a value attribute read such as `x.shape` (non-differentiable)."""
    return getattr(x, attr)


BINARY = {
    gast.Add: operator.add, gast.Sub: operator.sub, gast.Mult: operator.mul,
    gast.Div: operator.truediv, gast.Pow: operator.pow, gast.MatMult: operator.matmul,
    gast.FloorDiv: operator.floordiv, gast.Mod: operator.mod,
    gast.BitAnd: operator.and_, gast.BitOr: operator.or_, gast.BitXor: operator.xor,
    gast.LShift: operator.lshift, gast.RShift: operator.rshift,
}
UNARY = {gast.USub: operator.neg, gast.UAdd: operator.pos, gast.Not: operator.not_,
         gast.Invert: operator.invert}
COMPARE = {gast.Lt: operator.lt, gast.LtE: operator.le, gast.Gt: operator.gt,
           gast.GtE: operator.ge, gast.Eq: operator.eq, gast.NotEq: operator.ne,
           gast.Is: operator.is_, gast.IsNot: operator.is_not,
           gast.In: operator.contains, gast.NotIn: operator.contains}


@dataclass
class Operation:
    primitive: object
    args: list            # gast atoms (an index node for getitem)
    keywords: dict        # name -> gast atom
    callee: str = None    # dotted path for calls


# methods of np.random.RandomState and np.random.Generator that draw samples (shuffle
# writes into its argument: not among them)
RANDOM_METHODS = frozenset(
    m for kind in (numpy.random.RandomState, numpy.random.Generator) for m in dir(kind)
    if not m.startswith("_") and callable(getattr(kind, m))
    and m not in ("seed", "set_state", "get_state", "shuffle", "spawn", "bit_generator",
                  "permuted"))


def is_random_draw(op):
    """Does `op` draw random samples (a generator's method, a np.random function)?"""
    home = getattr(op.primitive, "__module__", None) or ""
    if "random" in home:
        return True
    return op.primitive is None and bool(op.callee) and "." in op.callee \
        and op.callee.rsplit(".", 1)[1] in RANDOM_METHODS


def missing_derivative_hint(op, otherwise):
    """What to write instead when `op` has no derivative: said for a random draw and for
    the vjp of a function chosen when the code runs, `otherwise` for the rest."""
    if is_random_draw(op):
        return ("the samples of a random draw are constants of the derivative, so no "
                "derivative flows into its arguments: reparameterise (mu + sigma * "
                "rng.standard_normal(shape)), or index with drawn positions "
                "(x[rng.permutation(len(x))], x[rng.integers(0, len(x), k)])")
    if getattr(op.primitive, "__module__", None) == "s2s_ad.runtime_functions":
        return ("this derivative calls a function chosen when the code runs through its "
                "vjp or jvp, which s2s_ad differentiates to second order in reverse mode "
                "only (grad of grad, hvp, hessian): call the function by its name, or "
                "pass it as an argument so the derivative is specialised on it")
    if isinstance(op.primitive, numpy.vectorize) or isinstance(op.primitive, numpy.ufunc) \
            and getattr(numpy, op.primitive.__name__, None) is not op.primitive:
        # np.vectorize(g) / np.frompyfunc(g, ...) made outside f: numpy runs g item by item
        return ("it is np.vectorize / np.frompyfunc of a function, which numpy calls one "
                "item at a time: call the function on the whole array, or write a Python "
                "loop over the items")
    return otherwise


def operation_of(value, callees):
    """Describe the levels-form right-hand side `value` as an Operation."""
    if isinstance(value, gast.BinOp):
        return Operation(BINARY[type(value.op)], [value.left, value.right], {})
    if isinstance(value, gast.UnaryOp):
        if isinstance(value.operand, gast.Constant):
            return Operation(identity, [value], {})
        return Operation(UNARY[type(value.op)], [value.operand], {})
    if isinstance(value, gast.Compare):
        return Operation(COMPARE[type(value.ops[0])], [value.left, value.comparators[0]], {})
    if isinstance(value, gast.Call):
        path = dotted_path(value.func)
        if path not in callees and isinstance(value.func, gast.Attribute) \
                and value.func.attr == "pop" and isinstance(value.func.value, gast.Name):
            return Operation(list.pop, [value.func.value], {}, path)
        return Operation(callees.get(path), list(value.args),
                         {k.arg: k.value for k in value.keywords}, path)
    if isinstance(value, gast.Subscript):
        return Operation(operator.getitem, [value.value, value.slice], {})
    if isinstance(value, gast.Attribute) and callees.get(dotted_path(value)) is attribute_of:
        return Operation(attribute_of, [value.value, const(value.attr)], {})
    if isinstance(value, gast.Attribute) and (dotted_path(value) is None
                                              or value.attr in VALUE_ATTRIBUTES):
        return Operation(attribute_read, [value.value], {})
    if isinstance(value, gast.Tuple) and any(isinstance(e, gast.Name) for e in value.elts):
        return Operation(tuple, list(value.elts), {})
    if isinstance(value, gast.List):
        return Operation(list, list(value.elts), {})
    if isinstance(value, gast.JoinedStr):
        return Operation(format, [v.value for v in value.values
                                  if isinstance(v, gast.FormattedValue)], {})
    if isinstance(value, gast.Tuple) and not value.elts:
        return Operation(tuple, [], {})
    return Operation(identity, [value], {})


def is_conversion(op):
    """`list(s)` / `tuple(s)` called on one sequence (a display `[a, b]` is not one)."""
    return op.primitive in (list, tuple) and op.callee is not None and len(op.args) == 1 \
        and not op.keywords and isinstance(op.args[0], gast.Name)


def names_in(node):
    """Names read by an atom or index node."""
    return [n.id for n in walk_tree(node) if isinstance(n, gast.Name)]


def appended_list(stmt):
    """xs for the statement `xs.append(item)`, else None."""
    call = getattr(stmt, "value", None) if isinstance(stmt, gast.Expr) else None
    if isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute) \
            and call.func.attr == "append" and isinstance(call.func.value, gast.Name):
        return call.func.value.id
    return None


def popped_list(value):
    """xs for the expression `xs.pop()` (the one pop levels form keeps as a call)."""
    if isinstance(value, gast.Call) and isinstance(value.func, gast.Attribute) \
            and value.func.attr == "pop" and isinstance(value.func.value, gast.Name) \
            and not value.args:
        return value.func.value.id
    return None
