"""Float literals where a value is a float anyway: `t1_0 = 2 * x1` -> `2.0 * x1` beside
differentiated inputs (levels form). numpy and Python mix an int into float arithmetic by
a slower path; the literal's type changes no result there. Exponents keep their ints.
(Adjoints and tangents get float literals as their templates are expanded: ad/expand.py.)
"""
import copy

import gast

from ..ir import build


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
        elif build.assigned_name(stmt) is not None and is_active(stmt.targets[0].id) \
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
