"""The sigmoid written out, `1.0 / (1.0 + np.exp(-z))`, reversed as one primitive.

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
derivative).
"""
import operator

import gast
import numpy

from ..ir.build import number_literal
from ..ir.primitives import Operation, operation_of
from ..ir.walk import all_statements, name_counts
from ..runtime import written_sigmoid


def logistic_chains(body, callees, complex_names=frozenset()):
    """{id(the division `p = 1.0 / u`): Operation(written_sigmoid, [z])} for each chain
    above whose three temporaries are bound once and read once, each by the next statement
    of the chain in the same block, and whose z is not complex."""
    reads, binds = name_counts(body)
    found = {}
    for block in _blocks(body):
        defined = {}        # name -> (position, its operation) within this block
        for position, stmt in enumerate(block):
            if not (isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)):
                continue
            op = operation_of(stmt.value, callees)
            defined[stmt.targets[0].id] = op
            z = _chain_operand(op, defined, reads, binds)
            if z is not None and z.id not in complex_names:
                found[id(stmt)] = Operation(written_sigmoid, [z], {})
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
