"""Stage 7, after optimize/cholesky_products.py: a cholesky adjoint whose terms are a
diagonal and symmetric rank-one pairs takes no n x n congruence.

cholesky_products leaves m = lower_congruence(W, L_bar_lt), W = inv(L), with L_bar_lt
the sum of its terms. lower_congruence reads the lower triangle of its second argument
as a symmetric matrix S: tril(W^T S W), 10 half-size products. Where every term is

    undiag(np.diagonal(L) * v, L, 0)        a diagonal (np.diag(L)'s adjoint)
    s * np.outer(u, v)  beside  s * np.outer(v, u)     a mirrored pair (u, v vectors)

the sum is symmetric as it stands, so S is it, and W^T S W = W^T diag(e) W + s ((W^T u)
(W^T v)^T + (W^T v)(W^T u)^T): a lower_gram (4 half-size products) and two outer products
of vectors. The textbook GP's `alpha = np.linalg.solve(L.T, np.linalg.solve(L, y))` gives
such a pair once cholesky_products has read L^T alpha as the solve's right-hand side
(W^T u is then a name the forward sweep holds: alpha itself):

    L_bar_lt = undiag(np.diagonal(L) * (1.0 / t), L, 0)     solved = inv @ t1_7
    solved = inv @ t1_7                                  ->  t4 = np.swapaxes(inv, -1, -2) @ solved
    L_bar_lt = L_bar_lt + np.outer(-solved, c) \\              m = lower_gram(inv, np.diagonal(L) * (1.0 / t))
        + np.outer(c, -solved)                                 - np.tril(np.outer(t4, alpha)
    m = lower_congruence(inv, L_bar_lt)                            + np.outer(alpha, t4))

(np.outer flattens its operands, so `reshape_like(x, y)` of a vector is read as x.) A
term of another kind (a solve of a matrix: -Z @ Z.T, whose low-rank form pays off only
for few columns), an unpaired outer product, or a name a term reads bound again before
the congruence: unchanged.
"""
import gast
import numpy

from ..ir import build
from ..ir.walk import walk_tree
from ..runtime_linalg import undiag
from ..runtime_shape import reshape_like
from ..runtime_triangular import lower_gram, lower_gram_update
from .shared_inverses import _is_transpose


def low_rank_congruence(terms, context):
    """The statements that compute m in place of `m = lower_congruence(W, L_bar_lt)` from
    `terms` [(sign, term, index of the statement that added it)], else None. context:
    (statements, site index, W's name, L's name, top-level definitions, callee, numpy_name,
    name_for, fresh, bound_or_written)."""
    (statements, k, w_name, l_name, top, callee, numpy_name, name_for, fresh,
     bound_or_written) = context
    diagonal, pairs, grams = [], [], []
    for sign, term, at in terms:
        names = {n.id for n in walk_tree(term) if isinstance(n, gast.Name)}
        if bound_or_written(statements[at + 1:k]) & names:
            return None
        if isinstance(term, gast.Call) and callee(term) is undiag:
            diagonal.append((sign > 0, term.args[0]))
            continue
        gram = _gram_factor(term, callee)
        if gram is not None:
            grams.append((sign, gram))
            continue
        if not (isinstance(term, gast.Call) and callee(term) is numpy.outer
                and len(term.args) == 2 and not term.keywords):
            return None
        (s1, u), (s2, v) = (_multiple(a, top, callee, statements) for a in term.args)
        pairs.append((sign * s1 * s2, u, v))
    pairs = _mirrored(pairs)
    if pairs is None or not diagonal and not pairs or len(grams) > 1 or grams and not diagonal:
        return None
    out, products = [], {}

    def times_w_t(node):
        """A name for W^T node: one the body holds (`alpha = W^T c`), else a new one."""
        key = gast.dump(node)
        if key not in products:
            held = next((name for name, stmt in top.items() if _is_w_t_product(
                stmt.value, w_name, key, callee) and _once(name, statements)
                and _index(stmt, statements) < k
                and not bound_or_written(statements[_index(stmt, statements) + 1:k])
                & {n.id for n in walk_tree(stmt.value) if isinstance(n, gast.Name)}), None)
            if held is None:
                held = fresh(f"{w_name}_t")
                upper = build.call(f"{numpy_name}.swapaxes",
                                   [build.name(w_name), build.const(-1), build.const(-2)])
                out.append(build.assign(held, gast.BinOp(left=upper, op=gast.MatMult(),
                                                         right=build.clone(node))))
            products[key] = held
        return build.name(products[key])

    parts = []
    for sign, u, v in pairs:
        pu, pv = times_w_t(u), times_w_t(v)
        outer = build.call(f"{numpy_name}.outer", [pu, pv])
        if gast.dump(u) != gast.dump(v):
            outer = gast.BinOp(left=outer, op=gast.Add(),
                               right=build.call(f"{numpy_name}.outer", [build.clone(pv),
                                                                        build.clone(pu)]))
        if abs(sign) != 1:
            outer = gast.BinOp(left=build.const(abs(sign)), op=gast.Mult(), right=outer)
        parts.append((sign > 0, outer))
    negative = bool(parts) and not any(positive for positive, _ in parts)
    if negative:                        # gram - tril(a + b), not gram + tril(-(a + b))
        parts = [(True, part) for _, part in parts]
    low_rank = build.call(f"{numpy_name}.tril", [build.signed_sum(parts)]) if parts else None
    if grams:
        (sign, z), = grams
        gram = build.call(build.name(name_for("lower_gram_update", lower_gram_update)),
                          [build.name(w_name), build.signed_sum(diagonal), build.clone(z),
                           build.const(float(sign))])
    elif diagonal:
        gram = build.call(build.name(name_for("lower_gram", lower_gram)),
                          [build.name(w_name), build.signed_sum(diagonal)])
    if diagonal:
        low_rank = gram if low_rank is None else gast.BinOp(
            left=gram, op=gast.Sub() if negative else gast.Add(), right=low_rank)
    elif negative:
        low_rank = gast.UnaryOp(op=gast.USub(), operand=low_rank)
    site = statements[k]
    out.append(build.with_location(build.assign(site.targets[0].id, low_rank), site))
    return out


def _multiple(node, top, callee, statements):
    """(c, x) for an operand of np.outer that is c times x, c a number: -x -> (-1, x);
    a name bound once to reshape_like(x, y) -> x (np.outer flattens its operands); to
    `x + x`, `k * x` or `x * k` (k a literal) -> that multiple of what x is (a quadratic
    form's adjoint: `z_bar = (z + z) * 0.5` is z). Else (1, node)."""
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub):
        c, x = _multiple(node.operand, top, callee, statements)
        return -c, x
    c, x = _followed(node, top, callee, statements)
    # a name reached through definitions holds its value at the congruence too: bound once
    if x is node or isinstance(x, gast.Name) and _stores(x.id, statements) <= 1:
        return c, x
    return 1, node


def _followed(node, top, callee, statements):
    """_multiple's (c, x) through node's definition (node itself when it is no multiple)."""
    value = top[node.id].value if isinstance(node, gast.Name) and node.id in top \
        and _once(node.id, statements) else node
    if isinstance(value, gast.Call) and callee(value) is reshape_like \
            and len(value.args) == 2 and isinstance(value.args[0], gast.Name):
        return _multiple(value.args[0], top, callee, statements)
    if isinstance(value, gast.BinOp) and isinstance(value.op, gast.Add):
        (c1, x1), (c2, x2) = (_multiple(v, top, callee, statements)
                              for v in (value.left, value.right))
        if gast.dump(x1) == gast.dump(x2):
            return c1 + c2, x1
    if isinstance(value, gast.BinOp) and isinstance(value.op, gast.Mult):
        for k, other in ((value.left, value.right), (value.right, value.left)):
            number = build.number_literal(k)
            if isinstance(number, (int, float)) and not isinstance(number, bool):
                c, x = _multiple(other, top, callee, statements)
                return c * number, x
    return 1, node


def _gram_factor(term, callee):
    """Z for a term Z @ Z.T (np.transpose(Z), np.swapaxes(Z, -1, -2)) of a name Z, else None."""
    if not (isinstance(term, gast.BinOp) and isinstance(term.op, gast.MatMult)
            and isinstance(term.left, gast.Name)):
        return None
    right = term.right
    if isinstance(right, gast.Attribute) and right.attr == "T":
        inner = right.value
    elif isinstance(right, gast.Call) and _is_transpose(right, callee):
        inner = right.args[0]
    else:
        return None
    return term.left if isinstance(inner, gast.Name) and inner.id == term.left.id else None


def _mirrored(pairs):
    """The pairs grouped as [(sign, u, v)], each (s, u, v) with its mirror (s, v, u) taken
    once (np.outer(u, u) is its own mirror); None when one has no mirror."""
    pending = [(s, u, v, gast.dump(u), gast.dump(v)) for s, u, v in pairs]
    grouped = []
    while pending:
        s, u, v, du, dv = pending.pop(0)
        if du != dv:
            mirror = next((p for p in pending if p[0] == s and p[3] == dv and p[4] == du), None)
            if mirror is None:
                return None
            pending.remove(mirror)
        grouped.append((s, u, v))
    return grouped


def _is_w_t_product(value, w_name, key, callee):
    """Is value `np.swapaxes(W, -1, -2) @ x` (or np.transpose(W) @ x) with x dumping to key?"""
    return isinstance(value, gast.BinOp) and isinstance(value.op, gast.MatMult) \
        and isinstance(value.left, gast.Call) and _is_transpose(value.left, callee) \
        and isinstance(value.left.args[0], gast.Name) and value.left.args[0].id == w_name \
        and gast.dump(value.right) == key


def _index(stmt, statements):
    return next(j for j, s in enumerate(statements) if s is stmt)


def _once(name, statements):
    return _stores(name, statements) == 1


def _stores(name, statements):
    return sum(1 for s in statements for n in walk_tree(s) if isinstance(n, gast.Name)
               and n.id == name and isinstance(n.ctx, gast.Store))
