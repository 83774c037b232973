"""Kink shares that vanish where they flow, for optimize/closed_forms.py.

The adjoint of `m = np.minimum(a, b)` sends g to a only where the minimum picks a
(`kink_share(g, b, a, True)`: g where b > a, g / 2 at ties), and there m equals a. So
if g, as a rational function of the forward values, is identically zero once m is
replaced by a, the share is zero everywhere (where it flows g is zero, elsewhere it does
not flow): the statement adds nothing. A person writing a Huber or smooth-L1 gradient uses exactly this (the
quadratic part's derivative d - m is zero where m = d):

    d = np.abs(t)                         d = np.abs(t)
    m = np.minimum(d, 1.0)                m = np.minimum(d, 1.0)
    m_bar = (d - m) / n            ->     (m_bar's share into d: zero, no statement)
    d_bar = kink_share(m_bar, 1.0, d, True)
    d_bar += m / n                        d_bar = m / n

np.maximum's shares are the same with the operands in their written order: x1's share
(`first`) flows where max(x1, x2) = x1 and min(x1, x2) = x2, x2's where max = x2 and
min = x1. A forward value that is np.maximum or np.minimum of the share's two operands
(in either order: both are symmetric) is replaced by the operand it equals there.

The mirror image (`whole_share`): if g vanishes where the share does NOT flow, the share
is g itself and the mask goes. A squared hinge `m = np.maximum(0.0, t)` with
`np.mean(m ** 2)`: g = 2 m / n is zero where the maximum picks 0.0:

    t_bar = kink_share(2.0 / n * m, 0.0, t, False)    ->    t_bar = 2.0 / n * m
"""
import gast
import numpy as np

from .. import runtime_pieces
from ..ir.naming import callee
from . import rational


def vanishing_share(value, forward, resolve, rational_of, field):
    """Is `value` (a backward right-hand side) a kink_share whose share is identically
    zero? forward: the forward sweep's `name = ...` statements; rational_of(node): the
    rational value of a backward expression (raises where it is not covered); field: the
    rational.Field the values live in."""
    return _vanishes(value, forward, resolve, rational_of, field, where_it_flows=True)


def whole_share(value, forward, resolve, rational_of, field):
    """Is `value` a kink_share equal to its g: g identically zero where the share does not
    flow (the extremum is there the other operand; at ties, where g / 2 flows, both
    operands are equal, so g is zero there too)? A squared hinge's `np.maximum(0.0, t)`
    met by `g = 2 m / n`: zero where m = 0, so the share to t is g itself, no mask."""
    return _vanishes(value, forward, resolve, rational_of, field, where_it_flows=False)


def _vanishes(value, forward, resolve, rational_of, field, where_it_flows):
    if not (isinstance(value, gast.Call) and not value.keywords and len(value.args) == 4
            and callee(value.func, resolve) is runtime_pieces.kink_share):
        return False
    g, x1, x2, first = value.args
    if not (isinstance(first, gast.Constant) and type(first.value) is bool):
        return False
    larger, smaller = (x1, x2) if first.value == where_it_flows else (x2, x1)
    operands = {_key(x1), _key(x2)}
    replaced = {}
    for stmt in forward:
        call = stmt.value
        if not (isinstance(call, gast.Call) and not call.keywords and len(call.args) == 2):
            continue
        picks = {np.maximum: larger, np.minimum: smaller}.get(callee(call.func, resolve))
        if picks is not None and {_key(a) for a in call.args} == operands:
            replaced[stmt.targets[0].id] = rational_of(picks)
    if not replaced:
        return False
    num, den = rational_of(g)
    num = _substituted(num, replaced, field)
    den = _substituted(den, replaced, field)
    return not field.div(num, den)[0]


def _key(node):
    return gast.dump(node)


def _substituted(poly, replaced, field):
    """The polynomial `poly` with the atoms in `replaced` replaced by their values, as a
    rational function."""
    total = (rational.const(0), rational.const(1))
    for mono, coef in poly.items():
        term = (rational.const(coef), rational.const(1))
        for name, power in mono:
            term = field.mul(term, field.power(replaced.get(name, (rational.atom(name),
                                                                   rational.const(1))), power))
        total = field.add(total, term)
    return total
