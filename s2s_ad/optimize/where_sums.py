"""Stage 7 (reverse mode): the two branches' adjoints of one np.where summed as one np.where.

The adjoint of `np.where(c, a, b)` hands `np.where(c, g, 0.0)` to a and `np.where(c, 0.0,
g)` to b. When both branches are computed from the same value (Huber's `0.5 * r ** 2`
and `delta * (np.abs(r) - 0.5 * delta)`, a leaky ReLU's `x` and `0.01 * x`), its adjoint
is assigned one contribution and then incremented by the other: two np.where arrays of
the mask, two products and a sum, where one np.where of the two products does (every
element takes one branch):

    t4_2_bar = np.where(t4_0, 0.0, s) * delta
    r_bar = np.where(t4_0, s, 0.0) * r          ->   r_bar = np.where(t4_0, s * r,
    r_bar += t4_2_bar * np.sign(r)                                    s * delta * np.sign(r))

Both contributions in one expression (`np.where(c, s, 0.0) * 3.0 - np.where(c, 0.0, s)`)
are merged the same way. Each element gets the same product as before, with s where the np.where of s stood; the
0.0 the other branch added is gone (so an inf or nan in the branch not taken no longer
makes the sum nan). Only a top-level `v = e1` followed by `v += e2` (or `v = v + e2`)
is merged (also `v -= e2`, `v = v - e2`, where a branch is `1.0 - x`: that
branch's product is negated, exactly), where each is a chain of products and divisions holding one `np.where(c, s, 0.0)` (and the other the complementary
`np.where(c, 0.0, s)`, of the same c and s), directly or through a temporary of the
backward sweep read only there, and nothing between the two statements binds a name e2
reads.

A branch's adjoint that meets no other (`np.where(x > 0, np.sqrt(x), 0.0)`: the other
branch is a constant) has its mask moved outside the product it is a factor of, in any
adjoint's assignment (adjoints_masked_outward):

    x_bar = np.where(t1_0, g, 0.0) * 0.5 / t1_1   ->   x_bar = np.where(t1_0, g * 0.5 / t1_1, 0.0)

The same numbers where the branch was taken; where it was not, 0.0 instead of `0.0 * h`,
which is nan wherever h is (here 1 / np.sqrt(x) for x < 0).
"""
import numpy

import gast

from ..ir import build
from ..ir.naming import callee
from ..ir.walk import Transformer, name_counts, walk_tree, with_blocks
from .fold import fold_expression


def merge_where_sums(body, resolve):
    """(body, changed) for a flattened statement list (forward, blank line, backward,
    return). resolve(name): what a name of the generated code denotes."""
    changed = False
    while True:
        body, merged = _merge_once(body, resolve)
        if not merged:
            return body, changed
        changed = True


def _merge_once(body, resolve):
    split = next((k for k, stmt in enumerate(body) if build.is_blank_line(stmt)), None)
    if split is None:
        return body, False
    backward = list(body[split + 1:])
    changed = False
    names = None                # each statement's names, read once when first needed
    counts = None               # (loads, stores) of the body: counted when first needed
    for i, first in enumerate(backward):
        target = build.assigned_name(first)
        # (the np.where test first: a long body has none, and stays one pass)
        if target is None:
            continue
        within = _merged_within(first.value, resolve)
        if within is not None:
            backward[i] = build.assign(target, within)
            changed = True
            break
        if _without_where(first.value, resolve) is None:
            continue
        if names is None:
            names = [_names(s) for s in backward]
        j = next((k for k in range(i + 1, len(backward)) if target in names[k]), None)
        increment = _increment(backward[j], target) if j is not None else None
        if increment is None:
            continue
        counts = counts or name_counts(body)
        added, temporary = _through_temporary(increment[0], backward[:j], *counts)
        left, right = _without_where(first.value, resolve), _without_where(added, resolve)
        if left is None or right is None or not _complementary(left[0], right[0]):
            continue
        between = set().union(*(_stored(s) for s in backward[i + 1:j])) if j > i + 1 else set()
        if between & _names(added) or not _calls_numpy_only(added, resolve):
            continue                # (a tape pop moved up would change the pops' order)
        (mask, _, true_first), (_, _, _) = left[0], right[0]
        second = build.unaryop("USub", right[1]) if increment[1] else right[1]
        branches = (left[1], second) if true_first else (second, left[1])
        merged = build.call(build.clone(left[2]), [mask, branches[0], branches[1]])
        backward[i] = build.assign(target, merged)
        backward[j] = None
        if temporary is not None:
            backward[temporary[1]] = None
        changed = True
        break                   # indices moved: merge_where_sums looks again
    if not changed:
        return body, False
    return body[:split + 1] + [s for s in backward if s is not None], True


def _merged_within(value, resolve):
    """`e1 + e2` / `e1 - e2` whose two terms are the complementary chains (both branches'
    contributions in one expression): their one np.where, else None."""
    if not (isinstance(value, gast.BinOp) and isinstance(value.op, (gast.Add, gast.Sub))):
        return None
    left, right = _without_where(value.left, resolve), _without_where(value.right, resolve)
    if left is None or right is None or not _complementary(left[0], right[0]) \
            or not _calls_numpy_only(value.right, resolve):
        return None
    second = build.unaryop("USub", right[1]) if isinstance(value.op, gast.Sub) else right[1]
    branches = (left[1], second) if left[0][2] else (second, left[1])
    return build.call(build.clone(left[2]), [left[0][0], branches[0], branches[1]])


def _increment(stmt, target):
    """(e, subtracted) of `target += e` or `target = target + e` (False), `target -= e` or
    `target = target - e` (True: `1.0 - p` in a branch), target not read in e; else None."""
    if isinstance(stmt, gast.AugAssign) and isinstance(stmt.op, (gast.Add, gast.Sub)) \
            and isinstance(stmt.target, gast.Name) and stmt.target.id == target:
        value, op = stmt.value, stmt.op
    elif build.assigned_name(stmt) == target and isinstance(stmt.value, gast.BinOp) \
            and isinstance(stmt.value.op, (gast.Add, gast.Sub)) \
            and isinstance(stmt.value.left, gast.Name) and stmt.value.left.id == target:
        value, op = stmt.value.right, stmt.value.op
    else:
        return None
    return None if target in _names(value) else (value, isinstance(op, gast.Sub))


def _names(node):
    return {n.id for n in walk_tree(node) if isinstance(n, gast.Name)}


def _stored(stmt):
    return {n.id for n in walk_tree(stmt) if isinstance(n, gast.Name)
            and not isinstance(n.ctx, gast.Load)}


def _through_temporary(value, before, loads, stores):
    """value with a leading temporary `t * e` replaced by its one definition among
    `before` (assigned once, read only here): (value, (name, index) or None)."""
    head = value
    while isinstance(head, gast.BinOp) and isinstance(head.op, (gast.Mult, gast.Div)):
        head = head.left
    if not isinstance(head, gast.Name) or loads.get(head.id) != 1 \
            or stores.get(head.id) != 1:
        return value, None
    index = next((k for k, s in enumerate(before) if build.assigned_name(s) == head.id), None)
    if index is None:
        return value, None
    definition = before[index].value
    if any(_stored(s) & _names(definition) for s in before[index + 1:]):
        return value, None

    def substitute(node):
        if node is head:
            return build.clone(definition)
        return build.binop(substitute(node.left), type(node.op).__name__,
                           build.clone(node.right))
    return substitute(value), (head.id, index)


def _without_where(value, resolve):
    """((mask, scale, mask picks scale), value with scale in the np.where's place, the
    np.where's callee expression) for a chain of products (and divisions of it) holding one `np.where(c, s, 0.0)`
    or `np.where(c, 0.0, s)`, else None."""
    if isinstance(value, gast.Call):
        if callee(value.func, resolve) is not numpy.where or len(value.args) != 3 \
                or value.keywords or not isinstance(value.args[0], gast.Name):
            return None
        mask, yes, no = value.args
        if _is_zero(no) and not _is_zero(yes):
            return (mask, yes, True), build.clone(yes), value.func
        if _is_zero(yes) and not _is_zero(no):
            return (mask, no, False), build.clone(no), value.func
        return None
    if isinstance(value, gast.BinOp) and isinstance(value.op, (gast.Mult, gast.Div)):
        op = type(value.op).__name__
        for side in ("left", "right") if op == "Mult" else ("left",):   # (w / x, not x / w)
            found = _without_where(getattr(value, side), resolve)
            if found is not None:
                other = "right" if side == "left" else "left"
                parts = {side: found[1], other: build.clone(getattr(value, other))}
                return found[0], build.binop(parts["left"], op, parts["right"]), found[2]
    return None


def _calls_numpy_only(node, resolve):
    """Does node call numpy's functions only (no effects, nothing popped)?"""
    for call in walk_tree(node):
        if isinstance(call, gast.Call):
            function = callee(call.func, resolve)
            if not (isinstance(function, numpy.ufunc)
                    or str(getattr(function, "__module__", "")).startswith("numpy")):
                return False
    return True


def _complementary(a, b):
    (mask_a, scale_a, yes_a), (mask_b, scale_b, yes_b) = a, b
    return mask_a.id == mask_b.id and yes_a != yes_b \
        and gast.dump(scale_a) == gast.dump(scale_b) and _pure(scale_a)


def _pure(node):
    """Names, numbers and arithmetic (as the adjoint seeds are): the same value however
    often it is evaluated."""
    return all(isinstance(n, (gast.Name, gast.Constant, gast.BinOp, gast.UnaryOp,
                              gast.Attribute, gast.Load, gast.operator, gast.unaryop))
               for n in walk_tree(node))


def _is_zero(node):
    return isinstance(node, gast.Constant) and type(node.value) in (int, float) \
        and node.value == 0

def masked_outward(expr, resolve):
    """`np.where(c, e, 0.0) * h / k` as `np.where(c, e * h / k, 0.0)` (and `h * np.where(c,
    0.0, e)` alike): the same numbers where the branch was taken, and a zero where it was
    not, where the product wrote `0.0 * h`. That is nan when h is: `np.where(x > 0,
    np.sqrt(x), 0.0)` has the adjoint `np.where(x > 0, g, 0.0) * 0.5 / np.sqrt(x)`, nan at
    every x < 0, though f does not depend on np.sqrt(x) there (JAX and autograd give that
    nan). The broadcast shape and the operations where c holds are unchanged."""
    def where_with_zero(node):
        if not (isinstance(node, gast.Call) and not node.keywords and len(node.args) == 3
                and callee(node.func, resolve) is numpy.where):
            return None
        zeros = [k for k in (1, 2) if isinstance(node.args[k], gast.Constant)
                 and type(node.args[k].value) in (int, float) and node.args[k].value == 0]
        return zeros[0] if len(zeros) == 1 else None

    def visit(node):
        if isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub):
            operand = visit(node.operand)
            return node if operand is node.operand else gast.UnaryOp(op=node.op,
                                                                     operand=operand)
        if isinstance(node, gast.BinOp) and isinstance(node.op, (gast.Add, gast.Sub)):
            left, right = visit(node.left), visit(node.right)
            return node if left is node.left and right is node.right else \
                gast.BinOp(left=left, op=node.op, right=right)
        if not (isinstance(node, gast.BinOp) and isinstance(node.op, (gast.Mult, gast.Div))):
            return node
        left, right = visit(node.left), visit(node.right)
        for where, other, on_left in ((left, right, True), (right, left, False)):
            zero = where_with_zero(where)
            if zero is None or not on_left and isinstance(node.op, gast.Div):
                continue
            taken = 3 - zero            # the branch that is not the literal zero
            inner = gast.BinOp(left=where.args[taken], op=node.op, right=other) if on_left \
                else gast.BinOp(left=other, op=node.op, right=where.args[taken])
            args = list(where.args)
            args[taken] = fold_expression(build.clone(inner))   # 1.0 * 0.5 -> 0.5
            return gast.Call(func=where.func, args=args, keywords=[])
        return node if left is node.left and right is node.right else \
            gast.BinOp(left=left, op=node.op, right=right)
    return visit(expr)



def negations_as_products(expr, resolve, negated):
    """`np.where(c, e, -e)` as `where_negated(e, c)` and `np.where(c, -e, e)` as
    `-where_negated(e, c)` (runtime_pieces.where_negated: e times +-1, the same numbers,
    without numpy's element-at-a-time np.where); `negated()` names the helper. What
    merging a branch `1.0 - p` with its other branch `p` leaves (a focal loss's p_t)."""
    class Negations(Transformer):
        def visit_Call(self, node):
            self.generic_visit(node)
            if not (not node.keywords and len(node.args) == 3
                    and callee(node.func, resolve) is numpy.where):
                return node
            mask, first, second = node.args
            for value, minus, sign in ((first, second, 1), (second, first, -1)):
                if _negated(minus) and gast.dump(minus.operand) == gast.dump(value):
                    product = build.call(build.name(negated()), [value, mask])
                    return product if sign == 1 else build.unaryop("USub", product)
            return node
    return Negations().visit(build.clone(expr))


def _negated(node):
    return isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub)


def adjoints_masked_outward(body, resolve, is_adjoint, negated=None):
    """Returns (new body, changed): masked_outward on the value of every assignment of an
    adjoint (`x_bar = ...`, `x_bar += ...`), in every block, then negations_as_products
    when `negated` (a callable naming runtime_pieces.where_negated) is given. f's own
    values are not touched: where f computes nan, so does the derivative's forward sweep.
    A statement that changes is a new one; `body` and its statements are not written
    into."""
    def block(stmts):
        out, changed = [], False
        for stmt in stmts:
            if isinstance(stmt, (gast.If, gast.For, gast.While)):
                new = with_blocks(stmt, lambda inner: block(inner)[0])
                changed |= new is not stmt
                out.append(new)
                continue
            target = stmt.targets[0] if isinstance(stmt, gast.Assign) \
                and len(stmt.targets) == 1 else stmt.target \
                if isinstance(stmt, gast.AugAssign) else None
            if isinstance(target, gast.Name) and is_adjoint(target.id):
                value = masked_outward(stmt.value, resolve)
                if negated is not None and "where" in gast.dump(value):
                    products = negations_as_products(value, resolve, negated)
                    value = value if gast.dump(products) == gast.dump(value) else products
                if value is not stmt.value:
                    stmt = build.clone(stmt)
                    stmt.value = build.clone(value)     # none of the input's nodes
                    changed = True
            out.append(stmt)
        return out, changed
    return block(body)
