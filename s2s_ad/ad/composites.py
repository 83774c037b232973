"""Statements reversed as one primitive, where the whole has a derivative that reads less
than its parts' do. Three shapes; the first two only when the parts' temporaries are
bound once and read once, by the next statement of the whole, in the same block:

**The sigmoid written out**, `1.0 / (1.0 + np.exp(-z))`:

    t1_0 = -z                     each temporary bound once and read once, by the next
    t2_0 = np.exp(t1_0)           statement of the same block
    t3_0 = 1.0 + t2_0       ->    z_bar = p_bar * p * (1.0 - p)     (written_sigmoid's adjoint)
    p = 1.0 / t3_0

Reversed statement by statement, the chain's derivative is `p_bar * p * p * t2_0`: it
reads exp(-z), so that array lives to the backward sweep (one array more than the forward
sweep needs once p is made, and the in-place schedule cannot build p in it). Since
p exp(-z) = 1 - p, the derivative of the four statements is p (1 - p), read from p alone,
as a hand-written gradient reads it. The forward sweep is the user's, unchanged (the same
values); only the backward sweep takes the division's statement for runtime.written_sigmoid
of z, and the three statements before it get no adjoint (nothing else reads them).

Where p rounds to 1 (z above ~37 in float64) 1 - p is 0 where p * p * exp(-z) is not:
the derivative's absolute error stays below half an ulp of 1 times the adjoint, the
error p itself carries (as in the hand-written `p (1 - p)` and the usual sigmoid's
derivative); where exp(-z) overflows (z below ~-709) it is 0 where the chain gave
0 * inf = nan.

**A maximum of two multiples of one value**, the pinball (quantile) loss's
`np.maximum(q * r, (q - 1.0) * r)`: the products differ by (high - low) r, so where the
coefficients are ordered (literals, or one written as the other minus a positive number)
the kink is at r = 0, and the shares are r > 0's (runtime.scaled_pair_maximum's adjoint):
the products, which the forward sweep computed only for the comparison, are not computed
at all. Where
they round to a tie while r is not 0 (r subnormal, overflow), the shares are the exact
kink's, not the rounded products'.

**A power of an exponential**, a Tweedie loss's `mu = np.exp(eta)`, `mu ** (1.0 - p)`: the
pow's own adjoint takes another pow, c mu ** (c - 1), then exp's a product; the whole is
exp(c x), whose derivative c exp(c x) takes one exp (runtime.power_of_exp). mu may be read
elsewhere too, and the whole's statement may be any reader of it (not an integer power,
whose products cost less than an exp). Its values are exp(c x)'s, not mu ** c's: the same
up to rounding (and finite where mu overflows while exp(c x) does not).
"""
import math
import operator

import gast
import numpy

from ..ir import build
from ..ir.build import number_literal
from ..ir.primitives import Operation, operation_of
from ..ir.walk import all_statements, name_counts, names_loaded
from ..runtime import power_of_exp, scaled_pair_maximum, written_sigmoid


def composite_operations(tree, callees, complex_names=frozenset()):
    """{id(the whole's last statement): the Operation it is reversed as} in the levels
    form's function `tree`: a sigmoid's division `p = 1.0 / u` as written_sigmoid(z), a
    maximum `np.maximum(a, b)` of two multiples of r as scaled_pair_maximum(r, high, low),
    a power `mu ** c` of mu = np.exp(x) as power_of_exp(x, c). No operand is complex."""
    body = tree.body
    reads, binds = name_counts(body)
    # a coefficient written from a parameter nothing rebinds holds its relation wherever
    # it is read (`t1_2 = q - 1.0` hoisted out of a loop): bound once, anywhere
    parameters = {a.id for a in tree.args.posonlyargs + tree.args.args + tree.args.kwonlyargs
                  if binds.get(a.id, 0) == 0}
    from_parameters = {s.targets[0].id: operation_of(s.value, callees)
                       for s in all_statements(body) if isinstance(s, gast.Assign)
                       and isinstance(s.targets[0], gast.Name)
                       and binds.get(s.targets[0].id) == 1
                       and set(names_loaded(s.value)) <= parameters}
    found = {}
    for block in _blocks(body):
        defined = dict(from_parameters)     # name -> its operation: those, and this
        for stmt in block:                  # block's names bound so far
            if not (isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)):
                continue
            op = operation_of(stmt.value, callees)
            defined[stmt.targets[0].id] = op
            z = _chain_operand(op, defined, reads, binds)
            whole = Operation(written_sigmoid, [z], {}) if z is not None else \
                _scaled_pair(op, defined, reads, binds) or _power_of_exp(op, defined, binds)
            if whole is not None and not any(isinstance(a, gast.Name) and a.id in complex_names
                                             for a in whole.args):
                found[id(stmt)] = whole
    return found


def _chain_operand(op, defined, reads, binds):
    """z's atom when `op` is 1 / u ending a chain of temporaries defined before it in the
    block (`defined`), else None."""
    if op.primitive is not operator.truediv or number_literal(op.args[0]) != 1:
        return None
    u = _temporary(op.args[1], defined, reads, binds)
    if u is None or u.primitive is not operator.add:
        return None
    ones = [number_literal(a) == 1 for a in u.args]
    if ones not in ([True, False], [False, True]):
        return None
    e = _temporary(u.args[ones.index(False)], defined, reads, binds)
    if e is None or e.primitive is not numpy.exp or e.keywords or len(e.args) != 1:
        return None
    w = _temporary(e.args[0], defined, reads, binds)
    if w is None or w.primitive is not operator.neg or not isinstance(w.args[0], gast.Name):
        return None
    return w.args[0]


def _scaled_pair(op, defined, reads, binds):
    """scaled_pair_maximum(r, high, low) for `np.maximum(a, b)` with a and b temporaries
    `c1 * r` and `c2 * r` (either order of factors) of one name r and ordered coefficients,
    else None."""
    if op.primitive is not numpy.maximum or op.keywords or len(op.args) != 2:
        return None
    products = [_temporary(a, defined, reads, binds) for a in op.args]
    if any(p is None or p.primitive is not operator.mul for p in products):
        return None
    for r in {a.id for a in products[0].args if isinstance(a, gast.Name)}:
        coefficients = [_other_factor(p, r) for p in products]
        if None in coefficients:
            continue
        order = _order(*coefficients, defined, binds)
        if order:
            high, low = coefficients if order > 0 else coefficients[::-1]
            return Operation(scaled_pair_maximum, [build.name(r), high, low], {})
    return None


def _power_of_exp(op, defined, binds):
    """power_of_exp(x, c) for `t = mu ** c` with mu bound once as np.exp(x), where x holds
    the value mu was made from (a parameter nothing rebinds, or a name bound once earlier
    in this block), and c no integer literal (`mu ** 2` is cheaper by its products); else
    None. mu may be read elsewhere too: those reads keep exp's own adjoint."""
    if op.primitive is not operator.pow or op.keywords or len(op.args) != 2:
        return None
    mu, c = op.args
    exponent = number_literal(c)
    if exponent is not None and (not math.isfinite(exponent) or exponent == int(exponent)) \
            or not (isinstance(mu, gast.Name) and binds.get(mu.id) == 1 and mu.id in defined):
        return None
    e = defined[mu.id]
    if e.primitive is not numpy.exp or e.keywords or len(e.args) != 1 \
            or not isinstance(e.args[0], gast.Name):
        return None
    x = e.args[0].id
    order = list(defined)
    if binds.get(x, 0) == 0 or binds.get(x) == 1 and x in defined \
            and order.index(x) < order.index(mu.id):
        return Operation(power_of_exp, [build.name(x), c], {})
    return None


def _other_factor(product, r):
    """The factor of `product` beside the name r (one of its two), else None."""
    a, b = product.args
    if isinstance(b, gast.Name) and b.id == r:
        return a
    if isinstance(a, gast.Name) and a.id == r:
        return b
    return None


def _order(c1, c2, defined, binds):
    """1 when c1 > c2 for every value its names may hold, -1 when c1 < c2, else 0: two
    number literals, or a name bound once in this block as the other (a name bound at most
    once) minus a positive number, or plus a number."""
    n1, n2 = number_literal(c1), number_literal(c2)
    if n1 is not None and n2 is not None:
        return (n1 > n2) - (n1 < n2)
    for lower, higher, sign in ((c2, c1, 1), (c1, c2, -1)):
        step = _offset(lower, higher, defined, binds)
        if step:
            return sign if step < 0 else -sign
    return 0


def _offset(name, base, defined, binds):
    """k when `name` is bound once, in this block, as `base + k` or `k + base` (or
    `base - (-k)`) with k a number literal other than 0 and base a name bound at most once;
    else None."""
    if not (isinstance(name, gast.Name) and isinstance(base, gast.Name)
            and name.id in defined and binds.get(name.id) == 1 and binds.get(base.id, 0) <= 1):
        return None
    op = defined[name.id]
    a, b = op.args if len(op.args) == 2 else (None, None)
    k = None
    if op.primitive is operator.sub and isinstance(a, gast.Name) and a.id == base.id:
        k = number_literal(b)
        k = None if k is None else -k
    elif op.primitive is operator.add:
        if isinstance(a, gast.Name) and a.id == base.id:
            k = number_literal(b)
        elif isinstance(b, gast.Name) and b.id == base.id:
            k = number_literal(a)
    return k or None


def _temporary(atom, defined, reads, binds):
    """The operation defining `atom` earlier in the block, when atom is a name bound only
    there and read only once (by the statement asking), else None."""
    if not (isinstance(atom, gast.Name) and atom.id in defined
            and reads.get(atom.id) == 1 and binds.get(atom.id) == 1):
        return None
    return defined[atom.id]


def _blocks(body):
    """The function's body and every nested statement list (loop, branch, with bodies)."""
    yield body
    for stmt in all_statements(body):
        for field in ("body", "orelse"):
            block = getattr(stmt, field, None)
            if isinstance(block, list) and block:
                yield block
