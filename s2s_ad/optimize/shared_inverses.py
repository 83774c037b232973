"""Stage 7 (specialised reverse mode): solves against a matrix whose inverse the derivative
computes anyway are products with that inverse, computed once.

numpy has no triangular solve and no reusable LU: each np.linalg.solve factorises its matrix
afresh (about n^3 flops), and the adjoints of np.linalg.det, slogdet and cholesky compute an
inverse (n^3 more). When the derivative holds both for one matrix M (or its transpose), the
inverse is computed once, before its first use, and every solve against M or M^T becomes a
product with it; a forward solve against a general M that comes first computes the inverse
with it, from the same factorisation (runtime_linalg.inverse_and_solve), so the value the
user's code sees is still that solve's answer:

    alpha = np.linalg.solve(K, y)                     K_inv, alpha = inverse_and_solve(K, y)
    ...                                               ...
    s = np.linalg.solve(np.swapaxes(K, -1, -2), g)    s = np.swapaxes(K_inv, -1, -2) @ g
    K_bar = ... np.linalg.inv(K) ...                  K_bar = ... K_inv ...

Accuracy: the products replace the backward sweep's solves, where the gradient already
reads the explicit inverse (its accuracy bounds the gradient's); in the forward sweep a
general matrix's solves stay solves (the first one fused as above), so the values the
user's code computes are not changed. Solves against a cholesky factor become products in
both sweeps: its inverse is a triangular inverse (runtime_triangular.lower_inverse), whose
products are as accurate as substitution.

Only statements at the top level of the body are looked at; M (and a name holding its
transpose) is a two-axis array (the facts say so), assigned once at the top level or a
parameter, and never written into, so every read sees the one value. The inverse of a
cholesky factor L (the adjoint's lower_inverse(L)) serves solves against L only when L is
assigned `L = np.linalg.cholesky(...)`: lower_inverse reads the lower triangle alone.
"""
import gast
import numpy

from ..ir import build
from ..ir.walk import CopyingTransformer, walk_tree
from ..runtime_linalg import inverse_and_solve
from ..runtime_triangular import lower_inverse
from ..signature import Num

_COMPOUND = (gast.If, gast.For, gast.While)


def share_inverses(statements, callee, kinds, numpy_name, bound, fresh):
    """(statements, changed) for a flattened body (forward, blank line, backward, return).
    callee(call): the object a call names; kinds: the specialisation's facts (the matrices
    must be two-axis float arrays); bound(suggested, helper): the name generated code calls
    a runtime helper by; fresh(hint): a new name. One matrix at a time: a rewrite moves
    statements, so the next matrix's sites are looked for again."""
    def is_matrix(name):
        kind = kinds.of(name)
        return isinstance(kind, Num) and kind.type is numpy.ndarray \
            and kind.axes is not None and len(kind.axes) == 2 \
            and kind.dtype in ("float64", "float32")

    statements, done = list(statements), set()
    while True:
        rewritten = _share_one(statements, callee, is_matrix, numpy_name, bound, fresh, done)
        if rewritten is None:
            return statements, bool(done)
        statements, matrix = rewritten
        done.add(matrix)


def _share_one(statements, callee, is_matrix, numpy_name, bound, fresh, done):
    """(statements, M) with the first matrix M not in `done` whose inverse can be shared
    rewritten; None when there is none."""
    counted = []            # the names' store counts, walked for once a site is met

    def stores_of():
        if not counted:
            counted.append(_store_counts(statements))
        return counted[0]
    top = {s.targets[0].id: s for s in statements
           if isinstance(s, gast.Assign) and isinstance(s.targets[0], gast.Name)}

    def single(name):
        stores = stores_of()
        return stores.get(name, 0) == 0 or stores.get(name) == 1 and name in top

    def matrix_of(node):
        """(M, transposed) for an expression naming M or its transpose; None otherwise."""
        flipped = False
        if isinstance(node, gast.Call) and _is_transpose(node, callee):
            node, flipped = node.args[0], True
        if not isinstance(node, gast.Name) or not single(node.id):
            return None
        stmt = top.get(node.id)
        if stmt is not None and isinstance(stmt.value, gast.Call) \
                and _is_transpose(stmt.value, callee) \
                and isinstance(stmt.value.args[0], gast.Name) \
                and single(stmt.value.args[0].id):
            return stmt.value.args[0].id, not flipped
        return node.id, flipped

    groups = {}
    for k, stmt in enumerate(statements):
        if isinstance(stmt, _COMPOUND):
            continue
        for node in walk_tree(stmt):
            site = _site(node, callee, matrix_of) if isinstance(node, gast.Call) else None
            if site is not None and site[1][0] not in done and is_matrix(site[1][0]):
                groups.setdefault(site[1][0], []).append((k, node) + site)
    for matrix, sites in sorted(groups.items()):
        found = {what for _, _, what, _ in sites}
        if found == {"solve"} or len(sites) < 2:
            continue            # nothing computes an inverse, or only one site reads it
        if "lower" in found and not _is_cholesky(top.get(matrix), callee):
            sites = [s for s in sites if s[2] != "lower"]
            if not any(what == "inv" for _, _, what, _ in sites):
                continue
        return _rewrite(statements, matrix, sites, numpy_name, bound, fresh, stores_of(),
                        _backward_start(statements)), matrix
    return None


def _site(call, callee, matrix_of):
    """("inv" | "lower" | "solve", (M, transposed)) for a call inverting or solving against
    M, None otherwise."""
    if call.keywords:
        return None
    fn = callee(call)
    if fn is numpy.linalg.inv and len(call.args) == 1:
        what = "inv"
    elif fn is lower_inverse and len(call.args) == 1:
        what = "lower"
    elif fn is numpy.linalg.solve and len(call.args) == 2:
        what = "solve"
    else:
        return None
    matrix = matrix_of(call.args[0])
    if matrix is None or what == "lower" and matrix[1]:
        return None
    return what, matrix


def _rewrite(statements, matrix, sites, numpy_name, bound, fresh, stores, backward):
    """The statements with one inverse of `matrix` computed before its first use and read
    by every site. An inverse a statement `P = inv(M)` already names keeps its name P (no
    second name for one array): that statement moves up to the first use. A forward solve
    against a general matrix (statement index below `backward`) stays a solve, but for the
    first one, which computes the inverse: the user's values stay a solve's answers."""
    general = any(what == "inv" for _, _, what, _ in sites)
    first = min(k for k, _, _, _ in sites)
    stmt = statements[first]
    replaced = {}
    named = next((k for k, node, what, (_, flipped) in sites
                  if what != "solve" and not flipped and _whole(statements[k], node, stores)
                  and (what == "inv") == general), None)
    inverse = statements[named].targets[0].id if named is not None else fresh(f"{matrix}_inv")
    fused = general and _plain_solve(stmt, sites, first)
    if named is not None:
        replaced[id(statements[named].value)] = None
    if fused:
        call = stmt.value
        define = build.assign_tuple(
            [inverse, stmt.targets[0].id],
            build.call(bound("inverse_and_solve", inverse_and_solve), call.args))
        replaced[id(call)] = None
    elif named is not None:
        define = statements[named]
    elif general:
        define = build.assign(inverse, build.call(f"{numpy_name}.linalg.inv",
                                                  [build.name(matrix)]))
    else:
        define = build.assign(inverse, build.call(bound("lower_inverse", lower_inverse),
                                                  [build.name(matrix)]))
    for k, node, what, (_, flipped) in sites:
        if id(node) in replaced or general and what == "solve" and k < backward:
            continue
        held = build.name(inverse)
        if flipped:
            held = build.call(f"{numpy_name}.swapaxes",
                              [held, build.literal(-1), build.literal(-2)])
        replaced[id(node)] = held if what != "solve" else gast.BinOp(
            left=held, op=gast.MatMult(), right=node.args[1])
    out = []
    for k, stmt in enumerate(statements):
        if k == first:
            out.append(define)
            if fused or k == named:
                continue
        if k == named:
            continue
        out.append(_Replace(replaced).visit(stmt) if not isinstance(stmt, _COMPOUND) else stmt)
    return out


def _backward_start(statements):
    """The index of the backward sweep's first statement (after the blank line)."""
    return next((k for k, s in enumerate(statements) if build.is_blank_line(s)),
                len(statements))


def _whole(stmt, node, stores):
    """Is `stmt` the assignment `P = node` of a name P written nowhere else?"""
    return build.assigned_name(stmt) is not None and stmt.value is node \
        and stores.get(stmt.targets[0].id) == 1


def _plain_solve(stmt, sites, k):
    """Is statement k `x = np.linalg.solve(M, b)`, M itself (not its transpose)?"""
    return build.assigned_name(stmt) is not None \
        and any(j == k and node is stmt.value and what == "solve" and not flipped
                for j, node, what, (_, flipped) in sites)


class _Replace(CopyingTransformer):
    """The sites replaced in new nodes (the statements given stay as they were)."""
    def __init__(self, replaced):
        self.replaced = replaced

    def generic_visit(self, node):
        if id(node) in self.replaced:     # and a site inside its right-hand side, too
            return super().generic_visit(self.replaced[id(node)])
        return super().generic_visit(node)


def _is_transpose(call, callee):
    """np.transpose(X) or np.swapaxes(X, -1, -2) (the matrices here have two axes)."""
    fn = callee(call)
    if call.keywords:
        return False
    if fn is numpy.transpose:
        return len(call.args) == 1
    return fn is numpy.swapaxes and len(call.args) == 3 \
        and {build.number_literal(a) for a in call.args[1:]} == {-2, -1}


def _is_cholesky(stmt, callee):
    return stmt is not None and isinstance(stmt.value, gast.Call) \
        and callee(stmt.value) is numpy.linalg.cholesky


def _store_counts(statements):
    """How often each name is written, anywhere (a write into it, x[i] = ..., counts
    twice, so it is never single)."""
    counts = {}
    for stmt in statements:
        for node in walk_tree(stmt):
            if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Store):
                counts[node.id] = counts.get(node.id, 0) + 1
            elif isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name):
                counts[node.target.id] = counts.get(node.target.id, 0) + 2
            elif isinstance(node, (gast.Subscript, gast.Attribute)) \
                    and isinstance(node.ctx, gast.Store):
                base = node.value
                while isinstance(base, (gast.Subscript, gast.Attribute)):
                    base = base.value
                if isinstance(base, gast.Name):
                    counts[base.id] = counts.get(base.id, 0) + 2
    return counts
