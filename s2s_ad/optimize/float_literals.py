"""Float literals where a value is a float anyway: `x_bar = t_bar * 2` -> `t_bar * 2.0`
in adjoints (stage 7), `t1_0 = 2 * x1` -> `2.0 * x1` beside differentiated inputs (levels
form). numpy and Python mix an int into float arithmetic by a slower path; the literal's
type changes no result there. Exponents, indices, axes and shapes keep their ints.
"""
import copy

import gast

from .. import runtime
from ..ir import build
from ..ir.naming import callee


def float_literals_in_adjoints(body, is_adjoint, resolve):
    """`x_bar = t_bar * 2` -> `x_bar = t_bar * 2.0` in adjoint assignments (anywhere in
    `body`, loops and branches included). An adjoint is a float, so the literal's type
    changes no result; but numpy mixes a Python int into float arithmetic by a slower
    path (on an array of 100, `a * 2` costs 1.3x `a * 2.0`; on np.float64 scalars ~10%).
    Only operands of arithmetic on the path from the right-hand side (and from the
    adjoint argument of unbroadcast) are touched: never an exponent, an index, an axis or
    a shape, where an int must stay an int."""
    for stmt in body:
        if isinstance(stmt, (gast.If, gast.For, gast.While)):
            float_literals_in_adjoints(stmt.body, is_adjoint, resolve)
            float_literals_in_adjoints(stmt.orelse, is_adjoint, resolve)
        elif isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
                and isinstance(stmt.targets[0], gast.Name) and is_adjoint(stmt.targets[0].id):
            stmt.value = _floated(stmt.value, resolve)
        elif isinstance(stmt, gast.AugAssign) and isinstance(stmt.target, gast.Name) \
                and is_adjoint(stmt.target.id):
            stmt.value = _floated(stmt.value, resolve)
    return body


_ARITHMETIC = (gast.Add, gast.Sub, gast.Mult, gast.Div)


def float_literals_beside_inputs(body, inputs, is_active):
    """`t1_0 = 2 * x1` -> `t1_0 = 2.0 * x1` in levels-form statements (anywhere in
    `body`) whose other operand is one of `inputs` (differentiated parameters the
    function never rebinds) and whose result carries a derivative; exponents stay.
    Returns a new list: rewritten statements (and the blocks holding them) are new
    nodes, the others the same ones; `body` is not changed.

    A differentiated argument is a float, or an int differentiated as a float, so the
    literal's type changes no result that carries a derivative; Python mixes an int into
    float arithmetic by a slower path (`2 * x` costs ~10 ns more than `2.0 * x` on a
    float, a tenth of the seed example's gradient besides numpy's calls). Other names
    are left alone: a value restored from the tape may be a loop index."""
    out = []
    for stmt in body:
        if isinstance(stmt, (gast.If, gast.For, gast.While)):
            inner = float_literals_beside_inputs(stmt.body, inputs, is_active)
            orelse = float_literals_beside_inputs(stmt.orelse, inputs, is_active)
            if any(a is not b for a, b in zip(inner + orelse, stmt.body + stmt.orelse)):
                stmt = copy.copy(stmt)
                stmt.body, stmt.orelse = inner, orelse
        elif isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
                and isinstance(stmt.targets[0], gast.Name) and is_active(stmt.targets[0].id) \
                and isinstance(stmt.value, gast.BinOp):
            node = stmt.value
            sides = ("left", "right") if isinstance(node.op, _ARITHMETIC) else \
                ("left",) if isinstance(node.op, gast.Pow) else ()
            for side, other in zip(sides, ("right", "left")):
                partner = getattr(node, other)
                if _int_literal(getattr(node, side)) and isinstance(partner, gast.Name) \
                        and partner.id in inputs:
                    node = copy.copy(node)
                    setattr(node, side, build.const(float(getattr(node, side).value)))
            if node is not stmt.value:
                stmt = build.with_location(build.assign(stmt.targets[0].id, node), stmt)
        out.append(stmt)
    return out


def _int_literal(node):
    return isinstance(node, gast.Constant) and type(node.value) is int \
        and abs(node.value) < 2 ** 53


def _floated(node, resolve):
    if _int_literal(node):
        return build.const(float(node.value))
    if isinstance(node, gast.BinOp) and isinstance(node.op, _ARITHMETIC):
        node.left, node.right = _floated(node.left, resolve), _floated(node.right, resolve)
    elif isinstance(node, gast.BinOp) and isinstance(node.op, gast.Pow):
        node.left = _floated(node.left, resolve)          # the base; the exponent stays as written
    elif isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub):
        node.operand = _floated(node.operand, resolve)
    elif isinstance(node, gast.Call) and node.args \
            and callee(node.func, resolve) is runtime.unbroadcast:
        node.args[0] = _floated(node.args[0], resolve)
    return node
