"""A forward-mode gradient's tangents of numbers written as the linear forms they are.

Each @tangent template writes its own part of the chain rule, and once the temporaries
are back in their use (optimize/temporaries.py) a tangent is one long expression that
names the incoming tangent several times: the product rule of `x * x * x` gives
`(x + x) * dx * x + t1_2 * dx`, and a quotient's tangent repeats its denominator's. A
tangent is linear in the tangents it reads, and the values beside it are numbers, so
this pass reads the expression as a rational function (optimize/rational.py) over the
names it reads, with the polynomial values computed earlier in the same block (`t3_1 =
t1_4 * x + p`, i.e. 3 x^2 + p) written out, and writes it back in the shortest form
closed_form_render.Renderer finds, dividing through those values' names. A Newton step's
tangent, as a person would write it:

    t1_2 = x * x                              t1_2 = x * x
    t1_4 = 3.0 * x                            t1_4 = 3.0 * x
    t3_1 = t1_4 * x + p                       t3_1 = t1_4 * x + p
    t5_0 = ((t1_2 + p) * x - t) / t3_1        t5_0 = ((t1_2 + p) * x - t) / t3_1
    dx_dp = dx_dp - ((x + x) * dx_dp * x  ->  dx_dp = (6.0 * (dx_dp * t5_0 * x)
        + t1_2 * dx_dp + (x + p * dx_dp)          + t5_0 - x) / t3_1
        - t5_0 * (3.0 * dx_dp * x
        + t1_4 * dx_dp + 1.0)) / t3_1

Only where every name read is a number the facts prove (or a tangent), only arithmetic
(+ - * /, small integer powers), only when the new form has fewer operations, and only
when both forms agree in exact arithmetic at random points (closed_form_render.agree):
the same numbers up to rounding, often fewer digits lost (no `dx - (dx + ...)`).
"""
import gast

from ..ir import build
from ..ir.walk import names_stored, walk_tree, with_blocks
from . import rational
from .closed_form_render import Renderer, agree, evaluate

_OPS = {gast.Add: "add", gast.Sub: "sub", gast.Mult: "mul", gast.Div: "div"}


class _Outside(Exception):
    """An expression this pass does not read (a call, a subscript, a non-number)."""


def linear_tangent_forms(statements, is_tangent, is_number):
    """The statements with each tangent assignment `dv_dx = <arithmetic>` written in a
    shorter form where one is found. Returns (new statements, changed); `statements` and
    its nodes are not written into (a statement rewritten is a new one, a loop or branch
    holding one a shallow copy with its new block)."""
    changed = [False]
    return _block(statements, is_tangent, is_number, changed), changed[0]


def _block(statements, is_tangent, is_number, changed):
    defs = {}           # name -> (rational value, its expression): polynomials of this block
    out = []
    for stmt in statements:
        single = build.assigned_name(stmt) is not None
        if single and is_tangent(stmt.targets[0].id):
            new = _shorter(stmt.value, defs, is_tangent, is_number)
            if new is not None:
                stmt = gast.Assign(targets=stmt.targets, value=new, type_comment=None)
                changed[0] = True
        stmt = with_blocks(stmt, lambda block: _block(block, is_tangent, is_number, changed))
        out.append(stmt)
        stored = set(names_stored(stmt))
        for name in [n for n, (value, _) in defs.items()
                     if n in stored or _atoms(value) & stored]:
            del defs[name]
        if single and not is_tangent(stmt.targets[0].id) and is_number(stmt.targets[0].id):
            name = stmt.targets[0].id
            try:
                value = _rational(stmt.value, defs, is_tangent, is_number)
            except (_Outside, ZeroDivisionError, rational.TooComplex):
                continue
            if value[1] == rational.const(1) and name not in _atoms(value):
                defs[name] = (value, stmt.value)
    return out


def _atoms(value):
    return rational.atoms_of(value[0]) | rational.atoms_of(value[1])


def _shorter(expr, defs, is_tangent, is_number):
    """A cheaper expression of the same value, or None."""
    names = {n: v for n, (v, _) in defs.items()}
    renderer = Renderer(rational.Field(), names, {}, set())
    cost = renderer.cost(expr)
    if not cost:                # a name or a number: nothing is shorter
        return None
    try:
        value = _rational(expr, defs, is_tangent, is_number, renderer.field)
        new, new_cost = renderer.render(value)
    except (_Outside, ZeroDivisionError, rational.TooComplex):
        return None
    if new_cost >= cost:
        return None
    used = [(n, e) for n, (_, e) in defs.items()]
    atoms = set().union(*(_reads(e) for _, e in used), _reads(expr)) - set(defs)

    def run(final):
        def go(env):
            for name, e in used:
                env[name] = evaluate(e, env, _no_calls)
            return [evaluate(final, env, _no_calls)]
        return go
    if not agree(run(expr), run(new), atoms):
        return None
    return new


def _no_calls(node, ev):
    raise KeyError(gast.dump(node))


def _reads(expr):
    return {n.id for n in walk_tree(expr) if isinstance(n, gast.Name)}


def _rational(expr, defs, is_tangent, is_number, field=None):
    """expr's value over the names it reads, the block's polynomials written out."""
    field = field or rational.Field()
    one = rational.const(1)

    def ev(n):
        if isinstance(n, gast.Constant) and type(n.value) in (int, float):
            return rational.const(n.value), one
        if isinstance(n, gast.Name):
            if n.id in defs:
                return defs[n.id][0]
            if not (is_tangent(n.id) or is_number(n.id)):
                raise _Outside()
            return rational.atom(n.id), one
        if isinstance(n, gast.UnaryOp) and isinstance(n.op, gast.USub):
            return field.neg(ev(n.operand))
        if isinstance(n, gast.BinOp) and type(n.op) in _OPS:
            return getattr(field, _OPS[type(n.op)])(ev(n.left), ev(n.right))
        if isinstance(n, gast.BinOp) and isinstance(n.op, gast.Pow) \
                and isinstance(n.right, gast.Constant) and type(n.right.value) is int \
                and 0 < n.right.value <= 4:
            return field.power(ev(n.left), n.right.value)
        raise _Outside()
    return ev(expr)

