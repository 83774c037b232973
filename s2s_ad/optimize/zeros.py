"""Zero propagation: an adjoint reset to zero and then added to is simply assigned.

    loss_bar = 0.0                      (nothing reads loss_bar in between)
    loss_bar = loss_bar + loss_bar_1    ->    loss_bar = loss_bar_1   (- e: -e)

Skipped for adjoints the generated code updates in place (`scatter_add(x_bar, ...)`,
`x_bar[i] += g`, `clear_adjoint(y_bar, i)`): there the assigned value could alias another
array. Also drops `b = a` right after `a = b`, and provenance comments whose block turned
out empty.
"""
import gast

from ..ir.walk import walk_tree
from ..ir import build

_IN_PLACE = ("scatter_add", "clear_adjoint", "add_at")


def propagate_zeros(body):
    """Returns (new body, changed)."""
    mutated = _updated_in_place(body)
    changed = [False]

    def block(stmts):
        stmts = list(stmts)
        k = 0
        while k < len(stmts):
            stmt = stmts[k]
            for field in ("body", "orelse"):
                inner = getattr(stmt, field, None)
                if inner:
                    setattr(stmt, field, block(inner))
            if k and _undoes(stmts[k - 1], stmt):      # a = b; b = a  ->  a = b
                del stmts[k]
                changed[0] = True
                continue
            name = _zero_assignment(stmt)
            if name and name not in mutated:
                j = _next_mention(stmts, k + 1, name)
                if j is not None:
                    value = _added_to(stmts[j], name)
                    if value is not None:
                        stmts[j] = build.with_location(build.assign(name, value), stmts[j])
                        del stmts[k]
                        changed[0] = True
                        continue
            k += 1
        return stmts

    body = block(body)
    return body, changed[0]


def drop_empty_comments(body):
    """Remove `# grad of:` comments followed by nothing of their own."""
    changed = [False]

    def block(stmts):
        out = []
        for k, stmt in enumerate(stmts):
            for field in ("body", "orelse"):
                inner = getattr(stmt, field, None)
                if inner:
                    setattr(stmt, field, block(inner) or [gast.Pass()])
            if isinstance(stmt, gast.If) and all(isinstance(s, gast.Pass)
                                                 for s in stmt.body + stmt.orelse):
                changed[0] = True       # `if t: pass` left by an emptied backward branch
                continue
            if _is_comment(stmt):
                following = stmts[k + 1] if k + 1 < len(stmts) else None
                if following is None or _is_comment(following) or build.is_blank_line(following) \
                        or isinstance(following, gast.Return):
                    changed[0] = True
                    continue
            out.append(stmt)
        return out

    return block(body), changed[0]


def _undoes(first, second):
    """`b = a` right after `a = b` changes nothing."""
    pair = []
    for stmt in (first, second):
        if not (isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)
                and isinstance(stmt.value, gast.Name)):
            return False
        pair.append((stmt.targets[0].id, stmt.value.id))
    return pair[0] == pair[1][::-1]


def _zero_assignment(stmt):
    if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name) \
            and isinstance(stmt.value, gast.Constant) and stmt.value.value == 0.0 \
            and type(stmt.value.value) is float:
        return stmt.targets[0].id
    return None


def _mentions(node, name):
    return any(isinstance(n, gast.Name) and n.id == name for n in walk_tree(node))


def _next_mention(stmts, start, name):
    for j in range(start, len(stmts)):
        if _mentions(stmts[j], name):
            return j
    return None


def _added_to(stmt, name):
    """e for `name = name + e`, -e for `name = name - e` (e not reading name), else None."""
    if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name) \
            and stmt.targets[0].id == name and isinstance(stmt.value, gast.BinOp) \
            and isinstance(stmt.value.op, (gast.Add, gast.Sub)) \
            and isinstance(stmt.value.left, gast.Name) \
            and stmt.value.left.id == name and not _mentions(stmt.value.right, name):
        if isinstance(stmt.value.op, gast.Sub):
            return gast.UnaryOp(op=gast.USub(), operand=stmt.value.right)
        return stmt.value.right
    return None


def _updated_in_place(body):
    found = set()
    for stmt in body:
        for node in walk_tree(stmt):
            if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) \
                    and node.func.id in _IN_PLACE and node.args \
                    and isinstance(node.args[0], gast.Name):
                found.add(node.args[0].id)
            elif isinstance(node, gast.AugAssign):
                target = node.target
                base = target.value if isinstance(target, gast.Subscript) else target
                if isinstance(base, gast.Name):
                    found.add(base.id)
            elif isinstance(node, gast.Subscript) and isinstance(node.ctx, gast.Store) \
                    and isinstance(node.value, gast.Name):
                found.add(node.value.id)
    return found


def _is_comment(stmt):
    return isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call) \
        and isinstance(stmt.value.func, gast.Name) and stmt.value.func.id == "__s2s_comment__"
