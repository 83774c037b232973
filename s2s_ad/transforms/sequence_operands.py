"""Operations whose meaning depends on whether a value is a list, where the derivative
does not know it (the general derivative: f's arguments of unknown kind; or a value
no fact decides). On two lists `+` concatenates and `*` by an integer repeats, while the
derivative, not knowing that, differentiates an elementwise sum or product of arrays: a
wrong gradient (`[a0] + [b0, b1]` would give a0 the sum of all three items' adjoints) or
a crash. A list the user built times a value no derivative flows through is read as a
repetition, which is wrong where that value is an array. `x.copy()` is read as np.copy
before x's kind is known: a dict's, or a list's the copy then grows, fails. The
specialised derivative knows the kinds (analyses/dataflow.is_sequence_operand; a copy of
what they prove a container is that container's, transforms/container_copies.py); here a
check before the statement raises the located error when the values turn out otherwise.

    def f(a, b):                 check_not_sequences(a, b, "+", "<the located error>")
        c = a + b          ->    c = a + b

Only operands that may hold a list or tuple are checked: f's parameters, items and
attributes read off values, results of calls that are no numpy function, and names
assigned from those. Not in s2s_ad's own derivatives differentiated again. Takes the
levels form, its kinds and its activity; returns a levels form (the same one when
nothing is checked), never writing into its input.
"""
import gast
import numpy as np

from ..analyses.dataflow import analyse_dataflow, is_sequence_operand
from ..errors import UnsupportedSyntaxError
from ..ir import build
from ..ir.primitives import operation_of
from ..ir.walk import all_statements
from ..signature import Num
from .. import runtime_checks
from .held_methods import with_checks


def guard_sequence_operations(levels, kinds, activity, namer, generated=False):
    # (s2s_ad's own derivative differentiated again (`generated`) concatenates only what
    # the first derivative knew to be sequences; its tape's pops would look unknown here)
    found = [] if generated else _unknown_sequence_operations(levels, kinds, activity)
    if not found:
        return levels
    from .aliased_writes import located
    name = namer.fresh("check_not_sequences")
    checks = {}
    for stmt, operands, op in found:
        # (a copy the facts prove a container's is one already: container_copies.py)
        error = _error(levels, stmt, op, located)
        checks[id(stmt)] = build.with_location(build.expr_stmt(build.call(
            build.name(name), [build.clone(a) for a in operands]
            + [build.const(op), build.const(str(error))])), stmt)
    return with_checks(levels, checks, name, runtime_checks.check_not_sequences)


def _error(levels, stmt, op, located):
    if op == "repeat":
        return UnsupportedSyntaxError(
            "`*` here multiplies a list by a value the derivative does not know the kind "
            "of (the general one, S2S_AD_GENERAL=1): it is differentiated as a repetition "
            "of the list by an integer, and this one is not", located(levels, stmt, portable=True),
            "make the list an array first: np.array(ys) * t")
    if op == "copy":
        return UnsupportedSyntaxError(
            "`.copy()` here copies a list or dict, which s2s_ad reads as an array's copy "
            "(np.copy)", located(levels, stmt, portable=True),
            "copy it by its type: list(xs), dict(d)")
    return UnsupportedSyntaxError(
        f"`{op}` here {'concatenates' if op == '+' else 'repeats'} lists or tuples when "
        f"its operands are ones, and the derivative built without knowing their kinds "
        f"(the general one, S2S_AD_GENERAL=1) differentiates an elementwise "
        f"{'sum' if op == '+' else 'product'} of arrays", located(levels, stmt, portable=True),
        "make them arrays (np.concatenate, np.tile), or call the derivative with "
        "arguments whose kinds it can read (lists and tuples of numbers or arrays)")


def _unknown_sequence_operations(levels, kinds, activity):
    """[(statement, its operands, "+" / "*" / "copy")] for `t = a + b` / `t = a * b`
    carrying the derivative where both operands may be sequences (or one, for `*`) and
    the facts decide neither; and `t = np.copy(x)` of an x that may be a list or dict."""
    maybe = _maybe_sequences(levels)
    flows = []

    def dataflow():
        """analyse_dataflow(levels), made when a statement first needs it (where every
        operand's kind is known, none does: a specialisation's usual case)."""
        if not flows:
            flows.append(analyse_dataflow(levels))
        return flows[0]
    found = []
    rebound = [s.targets[0].id for s in all_statements(levels.tree.body)
               if isinstance(s, gast.Assign) and isinstance(s.targets[0], gast.Name)]
    for stmt in all_statements(levels.tree.body):
        if isinstance(stmt, gast.Assign) and isinstance(stmt.value, gast.Call) \
                and len(stmt.value.args) == 1 and isinstance(stmt.value.args[0], gast.Name) \
                and stmt.value.args[0].id in maybe \
                and not isinstance(kinds.of(stmt.value.args[0]), Num) \
                and operation_of(stmt.value, levels.callees).primitive is np.copy:
            # x.copy(), lowered to np.copy(x) before x's kind is known: a list's or a
            # dict's would become an array (whatever carries a derivative)
            # (a list copied and then used as numpy would use an array, `c[0] = v`, reads
            # the same; grown, shrunk or rebound (`c.append`, `c.insert`) it is refused)
            target = stmt.targets[0].id
            grown = target in dataflow().list_valued or rebound.count(target) > 1
            found.append((stmt, [stmt.value.args[0], build.const(grown)], "copy"))
            continue
        if not (isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)
                and isinstance(stmt.value, gast.BinOp)
                and isinstance(stmt.value.op, (gast.Add, gast.Mult))
                and stmt.targets[0].id in activity.varied):
            continue
        operands = [stmt.value.left, stmt.value.right]
        add = isinstance(stmt.value.op, gast.Add)
        if not add and any(isinstance(kinds.of(a), Num) for a in operands):
            continue     # `2 * x`: checking every one would cost the general derivative
                         # more than the rare repeated list argument (which then fails
                         # in Python: its 2 is made 2.0 beside a differentiated input)
        # (a number or an array is no sequence: numpy's arithmetic, whatever the other is)
        unknown = [isinstance(a, gast.Name) and a.id in maybe
                   and not isinstance(kinds.of(a), Num) for a in operands]
        if add and not any(unknown):
            continue     # found below only where an operand's kind is unknown
        known = [is_sequence_operand(a, dataflow(), kinds) for a in operands]
        if not add and any(known) and any(
                k and isinstance(other, gast.Name) and _may_count(other, activity)
                for k, other in zip(known, operands[::-1])):
            # `ys * t`, ys a list: differentiated as a repetition since no derivative
            # flows through t, which may as well be an array (numpy's product)
            found.append((stmt, operands if known[0] else operands[::-1], "repeat"))
            continue
        if all(known) if add else any(known):
            continue     # differentiated as the concatenation or repetition it is
        if add and all(k or u for k, u in zip(known, unknown)) or not add and any(
                u and _may_count(other, activity)
                for u, other in zip(unknown, operands[::-1])):
            found.append((stmt, operands, "+" if add else "*"))
    return found


def _may_count(atom, activity):
    """May `atom` be the integer a list is repeated by: an int literal, or a value no
    derivative flows through (a differentiated value is a float or an array)?"""
    if isinstance(atom, gast.Constant):
        return type(atom.value) is int
    return isinstance(atom, gast.Name) and atom.id not in activity.varied


def _maybe_sequences(levels):
    """Names that may hold a list or tuple the derivative does not know of: parameters,
    `v[i]` and `v.w` reads, results of calls other than numpy's, and copies of those."""
    names = set(levels.resolution.parameters)
    statements = [s for s in all_statements(levels.tree.body)
                  if isinstance(s, gast.Assign) and isinstance(s.targets[0], gast.Name)]
    changed = True
    while changed:
        changed = False
        for stmt in statements:
            target, value = stmt.targets[0].id, stmt.value
            if target in names:
                continue
            if isinstance(value, (gast.Subscript, gast.Attribute)) \
                    or isinstance(value, gast.Name) and value.id in names \
                    or isinstance(value, gast.Call) and _not_numpy(value, levels):
                names.add(target)
                changed = True
    return names


def _not_numpy(call, levels):
    primitive = operation_of(call, levels.callees).primitive
    module = getattr(primitive, "__module__", None) or ""
    return primitive is None or not (module.startswith("numpy") or isinstance(primitive, np.ufunc)
                                     or primitive in (float, int, abs, len, sum, max, min))
