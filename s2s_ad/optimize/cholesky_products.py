"""Stage 7 (specialised reverse mode): a cholesky adjoint multiplies by L^T what a solve's
adjoint multiplied by inv(L)^T: the two cancel (L^T inv(L)^T = I), so neither product is
computed.

With L = np.linalg.cholesky(S) and W = lower_inverse(L), the cholesky adjoint reads
P = tril(L^T L_bar) (templates/numpy_linalg.py), an n^3 / 2 product. Every solve
`Z = np.linalg.solve(L, B)` adds into L_bar the term -(W^T Z_bar) Z^T once
shared_inverses has made its solve against L^T a product with W^T (another n^2 k). Its
share of P is tril(-(L^T W^T) Z_bar Z^T) = tril(-Z_bar Z^T): exact, because W is the
inverse of the triangle L is. So such a term joins P directly; so does the term
undiag(v, L, 0) of np.diag(L)'s adjoint, as undiag(np.diagonal(L) * v, L, 0) (tril(L^T
diag(v)) is diagonal); a term unbroadcast(T, L) (a sum over leading axes, which the
product with L^T commutes with) as unbroadcast(T', L); a vector's term np.outer(-(W^T c),
z) as np.outer(-c, z); the transposed outer product a solve of a vector against L^T
adds, untranspose(t, None) with t = np.outer(u, v), as np.outer(L^T v, u) (n^2 work where
the product with L^T takes n^3 / 2). Only L_bar's other terms (a
transposed solve's, ...) go through the product with L^T:

    solved = np.swapaxes(W, -1, -2) @ C              solved = np.swapaxes(W, -1, -2) @ C
    L_bar = L_bar - solved @ H                         L_bar_lt = -(C @ H)
    m = lower_congruence(W, lower_of_upper_product(    m = lower_congruence(W,
        np.swapaxes(L, -1, -2), L_bar))                  lower_of_upper_product(
                                                           np.swapaxes(L, -1, -2), L_bar)
                                                           + L_bar_lt)

(`solved` goes when nothing else reads it, as when B is a constant.) lower_congruence
reads only its second argument's lower triangle, and tril(A) + tril(B) = tril(A + B), so
the terms need no tril of their own.

Only the top level of the body is looked at: L (a cholesky's), W and each `solved` are
assigned once there, nothing C reads is bound again before the term, L_bar is assigned
only by the chain `L_bar = E`, `L_bar = L_bar +- T +- ...` (or `+=` / `-=`) at the top
level and read nowhere but in that chain and the one cholesky adjoint. Anything else:
unchanged.
"""
import copy

import gast
import numpy

from ..ir import build
from ..ir.walk import name_counts, walk_tree
from ..runtime import unbroadcast
from ..runtime_linalg import undiag
from ..runtime_shape import reshape_like, untranspose
from ..runtime_triangular import lower_congruence, lower_inverse, lower_of_upper_product
from .cholesky_low_rank import low_rank_congruence
from .shared_inverses import _is_cholesky, _is_transpose, _store_counts


def cancel_cholesky_products(statements, callee, numpy_name, fresh, name_for=None):
    """(statements, changed) for a flattened body (forward, blank line, backward, return).
    callee(call): the object a call names; numpy_name: what the code calls numpy;
    fresh(hint): a new name; name_for(hint, helper): the code's name for a runtime helper
    (when given, a diagonal and mirrored rank-one terms take optimize/cholesky_low_rank.py's
    form)."""
    statements = list(statements)
    changed = False
    k = 0
    while k < len(statements):
        rewritten = _rewrite_site(statements, k, callee, numpy_name, fresh, name_for)
        if rewritten is not None:
            # statements before the site may have gone: look again from the start (a site
            # rewritten no longer matches)
            statements, changed, k = rewritten, True, 0
        else:
            k += 1
    return statements, changed


def _rewrite_site(statements, k, callee, numpy_name, fresh, name_for):
    stmt = statements[k]
    site = _congruence_site(stmt, callee)
    if site is None:
        return None
    w_name, t_arg, g_name = site
    stores = _store_counts(statements)
    top = {s.targets[0].id: s for s in statements
           if build.assigned_name(s) is not None}
    w_def, l_name = top.get(w_name), _transposed_name(t_arg, callee)
    if l_name is None or w_def is None or stores.get(w_name) != 1 or stores.get(l_name) != 1 \
            or not _is_cholesky(top.get(l_name), callee) \
            or not _calls(w_def.value, lower_inverse, callee, [l_name]):
        return None
    chain = _chain(statements, k, g_name)
    if chain is None:
        return None

    position = {id(s): j for j, s in enumerate(statements)}
    loads = name_counts(statements)[0]
    products = set()

    def cancelled(term, at):
        """C @ H for a term (W^T @ C) @ H of statement `at` whose first factor a statement
        names, C's names not bound again in between; diag(L) * v placed on the diagonal
        for a term undiag(v, L, 0) (tril(L^T diag(v)) is that diagonal); else None."""
        if _calls(term, undiag, callee) and len(term.args) == 3 \
                and _is_name(term.args[1], l_name) and build.number_literal(term.args[2]) == 0:
            scaled = gast.BinOp(left=build.call(f"{numpy_name}.diagonal", [build.name(l_name)]),
                                op=gast.Mult(), right=term.args[0])
            return build.call(term.func, [scaled, term.args[1], term.args[2]])
        if _calls(term, unbroadcast, callee) and len(term.args) == 2 \
                and _is_name(term.args[1], l_name) and len(_split(term.args[0], 1)) == 1:
            # a sum over leading axes: the product with L^T on the left commutes with it
            (sign, inner), = _split(term.args[0], 1)
            product = cancelled(inner, at)
            if product is None:
                return None
            if sign < 0:
                product = gast.UnaryOp(op=gast.USub(), operand=product)
            return build.call(term.func, [product, term.args[1]])
        if _calls(term, untranspose, callee) and len(term.args) == 2 \
                and build.is_none(term.args[1]) and isinstance(term.args[0], gast.Name):
            return transposed_outer(term.args[0].id, at)
        # (W^T C) @ H, or np.outer(W^T c, h) (a vector's solve, ad/context.py
        # solve_columns): L^T outer(W^T c, h) = outer(c, h); either first factor may be
        # negated, the sign kept on C (the smaller array)
        is_outer = isinstance(term, gast.Call) and not term.keywords \
            and callee(term) is numpy.outer and len(term.args) == 2
        if not (is_outer or isinstance(term, gast.BinOp) and isinstance(term.op, gast.MatMult)):
            return None
        first = term.args[0] if is_outer else term.left
        negated = isinstance(first, gast.UnaryOp) and isinstance(first.op, gast.USub)
        if negated:
            first = first.operand
        if not (isinstance(first, gast.Name) and stores.get(first.id) == 1):
            return None
        solved = top.get(first.id)
        value = solved.value if solved is not None else None
        if not (isinstance(value, gast.BinOp) and isinstance(value.op, gast.MatMult)
                and isinstance(value.left, gast.Call) and _is_transpose(value.left, callee)
                and _is_name(value.left.args[0], w_name)):
            return None
        read = {n.id for n in walk_tree(value.right) if isinstance(n, gast.Name)}
        between = statements[position[id(solved)] + 1:at]
        if _bound_or_written(between) & read:
            return None
        products.add(first.id)
        factor = copy.deepcopy(value.right)
        if negated:
            factor = gast.UnaryOp(op=gast.USub(), operand=factor)
        if is_outer:
            return build.call(term.func, [factor, term.args[1]])
        return gast.BinOp(left=factor, op=gast.MatMult(), right=term.right)

    def transposed_outer(name, at):
        """np.outer(L^T v, u) for a term untranspose(t, None), t = np.outer(u, v) assigned
        once and read only there (the adjoint of L^T in a solve of a vector against it):
        L^T outer(v, u) = outer(L^T v, u), n^2 work where the product with L^T took n^3 / 2;
        u's and v's names not bound again in between. Else None."""
        definition = top.get(name)
        value = definition.value if definition is not None else None
        if stores.get(name) != 1 or loads.get(name) != 1 or not (
                isinstance(value, gast.Call) and not value.keywords
                and callee(value) is numpy.outer and len(value.args) == 2):
            return None
        read = {n.id for n in walk_tree(value) if isinstance(n, gast.Name)}
        if _bound_or_written(statements[position[id(definition)] + 1:at]) & read:
            return None
        products.add(name)
        return build.call(copy.deepcopy(value.func), [
            solved_against_l_t(value.args[1], at), copy.deepcopy(value.args[0])])

    def solved_against_l_t(v, at):
        """L^T v: C when v = W^T C (a solve against L^T that shared_inverses made a product;
        L^T W^T = I), C's names not bound again before `at`; else the product written out."""
        value = top[v.id].value if isinstance(v, gast.Name) and stores.get(v.id) == 1 \
            and v.id in top else None
        if isinstance(value, gast.BinOp) and isinstance(value.op, gast.MatMult) \
                and isinstance(value.left, gast.Call) and _is_transpose(value.left, callee) \
                and _is_name(value.left.args[0], w_name) and not _bound_or_written(
                    statements[position[id(top[v.id])] + 1:at]) & {
                        n.id for n in walk_tree(value.right) if isinstance(n, gast.Name)}:
            return copy.deepcopy(value.right)
        upper = build.call(f"{numpy_name}.swapaxes", [build.name(l_name), build.const(-1),
                                                      build.const(-2)])
        return gast.BinOp(left=upper, op=gast.MatMult(), right=copy.deepcopy(v))

    out, any_cancelled, any_left, plan = [], False, False, {}
    for j in chain:
        kept, moved = [], []
        for sign, term in _terms(statements[j], g_name):
            product = cancelled(term, j)
            if product is None:
                kept.append((sign, term))
            else:
                moved.append((sign, product))
        plan[j] = (kept, moved)
        any_cancelled |= bool(moved)
        any_left |= bool(kept)
    if not any_cancelled:
        return None
    if not any_left and name_for is not None:
        replacement = low_rank_congruence(
            [(sign, term, j) for j in chain for sign, term in plan[j][1]],
            (statements, k, w_name, l_name, top, callee, numpy_name, name_for, fresh,
             _bound_or_written))
        if replacement is not None:
            gone = set(chain) | {k}
            out = [s for j, s in enumerate(statements) if j not in gone or j == k]
            at = next(j for j, s in enumerate(out) if s is statements[k])
            # a reshape of a solve's adjoint only the chain read (np.outer's operand): unread
            reshaped = {n.id for j in chain for _, term in plan[j][1] for n in walk_tree(term)
                        if isinstance(n, gast.Name) and n.id in top and stores.get(n.id) == 1
                        and _calls(top[n.id].value, reshape_like, callee)}
            return _drop_unread(out[:at] + replacement + out[at + 1:], products | reshaped)
    lt_name = fresh(f"{g_name}_lt")
    started = {g_name: False, lt_name: False}
    for j, stmt in enumerate(statements):
        if j == k:
            reads = [build.name(lt_name)]
            if any_left:
                reads.insert(0, stmt.value.args[1])
            total = reads[0]
            for extra in reads[1:]:
                total = gast.BinOp(left=total, op=gast.Add(), right=extra)
            value = copy.copy(stmt.value)           # the statement given stays as it was
            value.args = [value.args[0], total] + value.args[2:]
            stmt = copy.copy(stmt)
            stmt.value = value
            out.append(stmt)
        elif j in plan:
            for name, terms in ((g_name, plan[j][0]), (lt_name, plan[j][1])):
                if terms:
                    total = build.name(name) if started[name] else None
                    out.append(build.assign(name, build.signed_sum(
                        [(sign > 0, term) for sign, term in terms], total)))
                    started[name] = True
        else:
            out.append(stmt)
    return _drop_unread(out, products)


def _bound_or_written(statements):
    """The names the statements bind or write into (`x = ...`, `x += ...`, `x[i] = ...`,
    `x[i] += ...`, an out= argument)."""
    names = set()
    for node in (n for s in statements for n in walk_tree(s)):
        if isinstance(node, gast.AugAssign):
            node = node.target
        elif isinstance(node, gast.keyword) and node.arg == "out":
            node = node.value
        elif not isinstance(getattr(node, "ctx", None), gast.Store):
            continue
        while isinstance(node, (gast.Subscript, gast.Attribute)):
            node = node.value
        if isinstance(node, gast.Name):
            names.add(node.id)
    return names


def _congruence_site(stmt, callee):
    """(W, T, G) for `m = lower_congruence(W, lower_of_upper_product(T, G))`."""
    if not (isinstance(stmt, gast.Assign) and len(stmt.targets) == 1
            and _calls(stmt.value, lower_congruence, callee)):
        return None
    w, inner = stmt.value.args
    if not (isinstance(w, gast.Name) and _calls(inner, lower_of_upper_product, callee)
            and isinstance(inner.args[1], gast.Name)):
        return None
    return w.id, inner.args[0], inner.args[1].id


def _calls(node, fn, callee, names=None):
    """Is node a call of fn with positional arguments only (named `names`, when given)?"""
    return isinstance(node, gast.Call) and not node.keywords and callee(node) is fn \
        and (names is None or [getattr(a, "id", None) for a in node.args] == names)


def _transposed_name(node, callee):
    if isinstance(node, gast.Call) and _is_transpose(node, callee) \
            and isinstance(node.args[0], gast.Name):
        return node.args[0].id
    return None


def _is_name(node, name):
    return isinstance(node, gast.Name) and node.id == name


def _chain(statements, site, g):
    """The indices of the top-level statements binding g, when g is bound only by `g = E`
    (E not reading g) followed by updates `g = g +- ...` / `g += ...` / `g -= ...`, all
    before `site`, and read nowhere else than in those updates and the site; else None."""
    chain = []
    for j, stmt in enumerate(statements):
        reads = sum(1 for n in walk_tree(stmt) if _is_name(n, g)
                    and isinstance(n.ctx, gast.Load))
        binds = any(_is_name(n, g) and isinstance(n.ctx, gast.Store) for n in walk_tree(stmt))
        if isinstance(stmt, gast.AugAssign) and _is_name(stmt.target, g):
            binds, reads = True, reads + 1
        if j == site:
            if reads != 1 or binds:
                return None
            continue
        if not binds and not reads:
            continue
        if j > site or _terms(stmt, g) is None or reads != (1 if chain else 0):
            return None
        chain.append(j)
    return chain or None


def _terms(stmt, g):
    """[(sign, term)] that statement adds to g ( `g = a - b` -> [(+1, a), (-1, b)]; the
    previous g itself left out); None when it is no such sum."""
    if isinstance(stmt, gast.AugAssign) and _is_name(stmt.target, g) \
            and isinstance(stmt.op, (gast.Add, gast.Sub)):
        return _split(stmt.value, -1 if isinstance(stmt.op, gast.Sub) else 1)
    if not (isinstance(stmt, gast.Assign) and len(stmt.targets) == 1
            and _is_name(stmt.targets[0], g)):
        return None
    terms = _split(stmt.value, 1)
    rest = [(s, t) for s, t in terms if not _is_name(t, g)]
    if len(terms) - len(rest) > 1 or any(s < 0 for s, t in terms if _is_name(t, g)):
        return None
    return rest


def _split(node, sign):
    """A sum's signed terms: a + b - c -> [(s, a), (s, b), (-s, c)]; -(a) -> [(-s, a)]."""
    if isinstance(node, gast.BinOp) and isinstance(node.op, (gast.Add, gast.Sub)):
        right = -sign if isinstance(node.op, gast.Sub) else sign
        return _split(node.left, sign) + _split(node.right, right)
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub):
        return _split(node.operand, -sign)
    return [(sign, node)]


def _drop_unread(statements, products):
    """Without the assignments of the products W^T @ C (named in `products`, each assigned
    once) that nothing reads any more."""
    while True:         # a product dropped may leave another unread (W^T reshape_like(x))
        read = {n.id for s in statements for n in walk_tree(s)
                if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Load)}
        kept = [s for s in statements
                if build.assigned_name(s) not in products or s.targets[0].id in read]
        if len(kept) == len(statements):
            return kept
        statements = kept
