"""An adjoint `g * np.sign(x)` written `np.copysign(g, x)` where the facts prove it equal.

The adjoint of `np.abs(x)` is `g * np.sign(x)` (templates/numpy_arithmetic.py). np.sign
on floats branches per element (numpy 2.4: 1-7 ms for 10^6 float64, in place ~6 ms) and
its result is a new array the product then reads. `np.copysign(g, x)` is one
branch-free pass that can write into g's buffer, and it gives the same numbers whenever,
element by element,

    where x is NaN, g is NaN          (sign(nan) * g is NaN; copysign(g, nan) is +-g)
    g >= 0, or g is NaN               (copysign(g, x) = |g| sign(x))
    where x == 0, g == 0 or is NaN    (sign(0) * g = 0; copysign(g, 0) = +-g)

(NaN gives NaN both ways; zeros of either sign are equal numbers). A Huber or smooth-L1
loss written with `d = np.abs(r)` and `np.minimum(d, c)` has exactly such a g: the
adjoint that reaches d is a nonnegative multiple of `np.minimum(|r|, c)` (c >= 0), zero
where r is, as is `np.maximum(|r| - eps, 0.0) ** 2`'s (through the kink's share, g times
a mask) or `|r| ** p`'s (p > 1):

    d = np.abs(r)                               d = np.abs(r)
    m = np.minimum(d, 1.0)                      m = np.minimum(d, 1.0)
    d_bar = m / r.size                   ->     d_bar = m / r.size
    r_bar = d_bar * np.sign(r)                  r_bar = np.copysign(d_bar, r)

Where g is a positive multiple of `np.minimum(|x|, c)` or `np.maximum(|x| - c, 0)` (c > 0:
a literal, or a float parameter the dispatcher guards > 0, sign_facts.py), the product
needs neither the sign nor the abs nor the kink: it is that multiple of `np.clip(x, -c, c)`
or of `x - np.clip(x, -c, c)`, the same numbers (`_clipped`), and the forward values only
the adjoint read are then dropped:

    t1_0 = pred - target                        t1_0 = pred - target
    d = np.abs(t1_0)                     ->     t1_0_bar = np.clip(t1_0, -1.0, 1.0) / pred.size
    m = np.minimum(d, 1.0)
    t1_0_bar = m / pred.size * np.sign(t1_0)

The three properties are proved by structure over single assignments at the function's
top level (no loop carries them, nothing writes into their arrays); SignProof
(sign_proofs.py) holds the rules. A Huber loss written with np.where, its adjoint a where
of the two branches' adjoints, is the clip too where c > 0 (`_where_clipped`):

    r_bar = np.where(a <= delta, r / n, delta / n * np.sign(r))   ->
    r_bar = np.clip(r, -delta, delta) / n        (a = np.abs(r); delta: float > 0, guarded)

x must be proved float (a specialisation's facts): np.sign of integers is an
integer, copysign's result a float. g then is too: the rules read only x, Python numbers
and counts, so g's dtype is x's. optimize/schedule.py runs it first in the in-place step:
only the final code changes, and a derivative of this derivative still differentiates
np.sign.
"""
import gast
import numpy

from .. import runtime, runtime_checks, runtime_flow, runtime_pieces
from ..ir import build
from ..ir.naming import callee
from ..ir.walk import CopyingTransformer, walk_tree
from ..signature import Num
from .sign_proofs import MAX_DEPTH as _MAX_DEPTH, SignProof

_FLOATS = ("float64", "float32")
# runtime helpers a specialised elementwise sweep calls that never write an operand (their
# `into=`, which does, makes the pass give up: see _single_definitions)
_READ_ONLY_HELPERS = {runtime.unbroadcast, runtime.unreduce, runtime.reduced_count,
                      runtime.logistic, runtime_pieces.kink_share, runtime_pieces.where_negated,
                      runtime_checks.check_broadcast, runtime_checks.check_matmul,
                      runtime_checks.product_like,
                      runtime_flow.float_gradient}
_BUILTINS = {len, float, abs, range}


def signs_as_copysign(statements, kinds, resolve, numpy_name, pure_call, positive=(),
                      read=None):
    """(statements, changed): every `g * np.sign(x)` (either order) whose g the rules prove
    (see the module docstring) written `np.copysign(g, x)`, in new statements (`statements` is not written into).
    positive: parameters known > 0 (Request.positive; one the statements assign is not);
    `read`, a set, receives those a rewrite made relied on (PassFacts.signs_read).
    pure_call(call): numpy's and math's functions without `out=` (PassFacts.pure_call);
    any other call but the runtime's that write into nothing (a method such as `x.sort()`,
    a user's function) may change an array after it was read, and then nothing is proved."""
    calls = [node for stmt in statements
             if not (build.is_blank_line(stmt) or build.is_comment(stmt))
             for node in walk_tree(stmt) if isinstance(node, gast.Call)]
    # without an np.sign call (no abs differentiated) nothing is looked for
    if not any(callee(call.func, resolve) is numpy.sign for call in calls) \
            or not all(_harmless(call, resolve, pure_call) for call in calls):
        return statements, False
    definitions, written = _single_definitions(statements)
    if definitions is None:
        return statements, False
    stored = {node.id for stmt in statements for node in walk_tree(stmt)
              if isinstance(node, gast.Name) and not isinstance(node.ctx, gast.Load)}
    rewrite = _Copysigns(definitions, written, kinds, resolve, numpy_name,
                         frozenset(positive) - stored)
    out = [rewrite.visit(stmt) for stmt in statements]
    if read is not None:
        read |= rewrite.read
    return (out, True) if rewrite.changed else (statements, False)


class _Copysigns(CopyingTransformer):
    """The products rewritten in new nodes, outermost first (a g holding another product
    is looked at too); the statements given stay as they were."""
    def __init__(self, *facts):
        self.facts, self.changed, self.read = facts, False, set()

    def visit_BinOp(self, node):
        new = _rewritten(node, *self.facts, self.read)
        if new is None:
            return self.generic_visit(node)
        self.changed = True
        return self.generic_visit(new)

    def visit_Call(self, node):
        new = _where_clipped(node, *self.facts, self.read)
        if new is None:
            return self.generic_visit(node)
        self.changed = True
        return new


def _where_clipped(node, definitions, written, kinds, resolve, numpy_name, positive, read):
    """np.where's adjoint in a Huber loss written with np.where, without the sign:

        np.where(|x| <= c, x op k, c op k * np.sign(x))   ->   np.clip(x, -c, c) op k

    (op `*` or `/`, or no k; the mask `|x| <= c`, `|x| < c` or reversed, through names
    assigned once; c > 0: SignProof.positive_bound; k a count or a constant). Inside the
    mask both are x op k; outside it x is beyond +-c and sign(x) (c op k) is clip's +-c op
    k (a sign commutes with a product or quotient); NaN gives NaN both ways. x float64:
    c op k is then one rounding both ways (float32 would round c op k twice)."""
    if not (isinstance(node.func, (gast.Name, gast.Attribute)) and len(node.args) == 3
            and not node.keywords and callee(node.func, resolve) is numpy.where):
        return None
    mask, inside, outside = (definitions.get(a.id, a) if isinstance(a, gast.Name) else a
                             for a in node.args)
    for x, scaled in _sign_factors(outside, resolve):
        if x in written or not _is_float(kinds, x) or kinds.of(x).dtype != "float64":
            continue
        proof = SignProof(x, definitions, written, resolve, positive)
        c = _mask_bound(mask, proof)
        op = type(inside.op).__name__ if isinstance(inside, gast.BinOp) and isinstance(
            inside.op, (gast.Mult, gast.Div)) and _same(inside.left, build.name(x)) \
            and proof._count(inside.right) else None
        if c is None or not (_same(inside, build.name(x)) and _same(scaled, c) or op and _same(
                scaled, build.binop(c, op, inside.right))):
            continue
        read |= proof.read
        clip = _clip(x, c, numpy_name)
        return build.binop(clip, op, build.clone(inside.right)) if op else clip
    return None


def _sign_factors(node, resolve):
    """(x, g) for a product `g * np.sign(x)` (either order) of a name x."""
    if not (isinstance(node, gast.BinOp) and isinstance(node.op, gast.Mult)):
        return
    for sign, g in ((node.right, node.left), (node.left, node.right)):
        if isinstance(sign, gast.Call) and len(sign.args) == 1 and not sign.keywords \
                and callee(sign.func, resolve) is numpy.sign \
                and isinstance(sign.args[0], gast.Name):
            yield sign.args[0].id, g


def _mask_bound(mask, proof):
    """c for the mask `np.abs(x) <= c` (`<`, or reversed: `c >= np.abs(x)`), else None."""
    if not (isinstance(mask, gast.Compare) and len(mask.ops) == 1):
        return None
    left, op, right = mask.left, type(mask.ops[0]), mask.comparators[0]
    if op in (gast.GtE, gast.Gt):
        left, right, op = right, left, gast.LtE
    return proof.positive_bound(right) if op in (gast.LtE, gast.Lt) \
        and proof.is_abs_of_x(left, 0) else None


def _same(a, b):
    return gast.dump(a) == gast.dump(b)


def _rewritten(node, definitions, written, kinds, resolve, numpy_name, positive, read):
    for x, g in _sign_factors(node, resolve):
        if x in written or not _is_float(kinds, x):
            continue
        proof = SignProof(x, definitions, written, resolve, positive)
        clipped = _clipped(g, x, proof, numpy_name, 0)
        if clipped:           # (a node; benchmarks/paired_passes.py may make it False)
            read |= proof.read
            return clipped
        proof.read = set()    # (only the facts of the proof that holds)
        if proof.holds(g):
            read |= proof.read
            return build.call(build.dotted(f"{numpy_name}.copysign"),
                              [build.clone(g), build.name(x)])
    return None


def _clipped(g, x, proof, numpy_name, depth):
    """`g * np.sign(x)` without np.sign, np.abs or the kink, when g is one of

        np.minimum(np.abs(x), c)          ->  np.clip(x, -c, c)
        np.maximum(np.abs(x) - c, 0.0)    ->  x - np.clip(x, -c, c)

    (c a number > 0, the operands in either order, the abs directly or through a name)
    multiplied or divided by counts and constants > 0 (names assigned once followed);
    None when g has another form.

    sign(x) min(|x|, c) is x where |x| <= c and c sign(x) elsewhere: clip(x, -c, c); sign(x)
    max(|x| - c, 0) is 0 where |x| <= c and x - c sign(x) elsewhere: x - clip(x, -c, c). The
    numbers are the same (NaN where x is; a zero where x is one; +-c or +-inf at +-inf: |x| - c
    and x - c sign(x) are one rounding of numbers of opposite signs), and a positive factor
    commutes with the sign (IEEE products and quotients are symmetric in sign)."""
    if depth > _MAX_DEPTH:
        return None
    if isinstance(g, gast.Name) and g.id in proof.definitions:
        return _clipped(proof.definitions[g.id], x, proof, numpy_name, depth + 1)
    if isinstance(g, gast.BinOp) and isinstance(g.op, (gast.Mult, gast.Div)):
        sides = [(g.left, g.right)] + ([(g.right, g.left)] if isinstance(g.op, gast.Mult)
                                       else [])
        for inner, factor in sides:
            if not _positive(factor, proof, depth + 1):
                continue
            new = _clipped(inner, x, proof, numpy_name, depth + 1)
            if new is not None:
                return build.binop(new, type(g.op).__name__, build.clone(factor)) \
                    if inner is g.left else build.binop(build.clone(factor), "Mult", new)
        return None
    function = callee(g.func, proof.resolve) if isinstance(g, gast.Call) else None
    if function not in (numpy.minimum, numpy.maximum) or g.keywords or len(g.args) != 2:
        return None
    for operand, bound in (g.args, reversed(g.args)):
        if function is numpy.minimum:
            c = proof.is_abs_of_x(operand, depth + 1) and proof.positive_bound(bound)
            if c:
                return _clip(x, c, numpy_name)
        elif isinstance(bound, gast.Constant) and type(bound.value) in (int, float) \
                and bound.value == 0:
            c = _abs_minus(operand, proof, depth + 1)
            if c is not None:
                return build.binop(build.name(x), "Sub", _clip(x, c, numpy_name))
    return None


def _clip(x, c, numpy_name):
    low = build.const(-c.value) if isinstance(c, gast.Constant) else build.unaryop("USub", c)
    return build.call(build.dotted(f"{numpy_name}.clip"), [build.name(x), low, build.clone(c)])


def _abs_minus(node, proof, depth):
    """c for `np.abs(x) - c` (c > 0: SignProof.positive_bound; through a name assigned it once)."""
    if isinstance(node, gast.Name) and node.id in proof.definitions and depth < _MAX_DEPTH:
        return _abs_minus(proof.definitions[node.id], proof, depth + 1)
    if isinstance(node, gast.BinOp) and isinstance(node.op, gast.Sub) \
            and proof.is_abs_of_x(node.left, depth + 1):
        return proof.positive_bound(node.right)
    return None


def _positive(node, proof, depth):
    """A count or constant > 0 (`SignProof._count`), or a quotient of two such."""
    if isinstance(node, gast.BinOp) and isinstance(node.op, gast.Div) and depth < _MAX_DEPTH:
        return _positive(node.left, proof, depth + 1) and _positive(node.right, proof, depth + 1)
    return proof._count(node)


def _harmless(call, resolve, pure_call):
    """A call that writes into none of its operands."""
    return pure_call(call) or callee(call.func, resolve) in _READ_ONLY_HELPERS \
        or callee(call.func, resolve) in _BUILTINS


def _is_float(kinds, name):
    kind = kinds.of(name)
    return isinstance(kind, Num) and kind.dtype in _FLOATS


def _single_definitions(statements):
    """({name: value} of names assigned once, by a plain top-level `name = value`; the
    names written more than once or by `+=`), or None when an array may be written
    through another name: an item or attribute store, an `out=`/`into=` keyword, or `+=`
    into a name once bound to another name's array (`a = b` or a view `a = b[1:]`)."""
    stores, definitions, written, bound = {}, {}, set(), {}
    for stmt in statements:
        if build.assigned_name(stmt) is not None:
            definitions[stmt.targets[0].id] = stmt.value
        for node in walk_tree(stmt):
            if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Store):
                stores[node.id] = stores.get(node.id, 0) + 1
            elif isinstance(node, (gast.Subscript, gast.Attribute)) \
                    and isinstance(node.ctx, gast.Store):
                return None, None
            elif isinstance(node, gast.keyword) and node.arg in ("out", "into"):
                return None, None
            elif isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name):
                written.add(node.target.id)
            elif isinstance(node, gast.Assign):
                for target in node.targets:
                    if isinstance(target, gast.Name) and isinstance(
                            node.value, (gast.Name, gast.Subscript, gast.Attribute)):
                        bound[target.id] = True
    if any(name in bound for name in written):
        return None, None
    written |= {n for n, count in stores.items() if count > 1}
    return {n: v for n, v in definitions.items() if n not in written}, written
