"""Accumulate adjoints in place where nothing else can see the array being added to.

A weight read in every iteration of a loop gets one contribution per iteration. Written
out of place (`W_bar = W_bar + e`) each step allocates a new array the size of W; a
hand-written gradient adds in place. This pass turns `N = N + e` into `N += e` (and
`N = N - e` into `N -= e`) for a name N when no other name can hold N's array:

- every assignment to N is `N = 0.0` (or 0), `N = N + e` (or `- e`) with e not reading N,
  or, at the top level of the body, `N = e` for arithmetic e, or `N = M` where M is an
  adjoint nothing else reads, made once at the top level by arithmetic: so N's value is always a Python zero or an array only N holds (the first `N += e` on a
  float rebinds N to a new array, later ones add into it);
- N is read only as an operand of arithmetic (`N * h`, `-N`: a new value), of np.dot /
  np.vdot, or inside the final `return`; never bare (`M = N`), subscripted or sliced (views), as an
  attribute (`N.T`), as a call argument (a helper could keep it), or pushed on the tape.

    W_bar = 0.0                          W_bar = 0.0
    for t in t3_0[::-1]:                 for t in t3_0[::-1]:
        W_bar = W_bar + a.T @ g   ->         W_bar += a.T @ g
    return match_adjoint(W_bar, W)       return match_adjoint(W_bar, W)

Contributions to N all come from the same forward value, which such a name's adjoint
only accumulates while the value keeps its shape, so `+=` never needs to grow N.
"""
import gast

from ..ir import build
from ..ir.walk import walk_tree, with_blocks

_OPERATOR_PARENTS = (gast.BinOp, gast.UnaryOp, gast.Compare, gast.BoolOp)


def accumulate_in_place(body, after=()):
    """Returns (new body, changed); `body` (a backward sweep) is not written into (a loop
    or branch holding a rewritten sum is a shallow copy). `after`: the statements after
    it (the final return), read only to see who else reads its arrays."""
    module = gast.Module(body=body, type_ignores=[])
    candidates = _candidates(module, list(after))
    if not candidates:
        return body, False
    changed = [False]

    def block(stmts):
        out = []
        for stmt in stmts:
            if _accumulated_name(stmt) in candidates:
                new = gast.AugAssign(target=stmt.targets[0], op=type(stmt.value.op)(),
                                     value=stmt.value.right)
                stmt = gast.copy_location(new, stmt)
                changed[0] = True
            out.append(with_blocks(stmt, block))
        return out
    body = block(body)
    return body, changed[0]


def _accumulated_name(stmt):
    """N for `N = N + e` or `N = N - e` (e not reading N; folding writes `N += -e` as the
    latter), else None."""
    name, value = build.assigned_name(stmt), getattr(stmt, "value", None)
    if name is None:
        return None
    if isinstance(value, gast.BinOp) and isinstance(value.op, (gast.Add, gast.Sub)) \
            and isinstance(value.left, gast.Name) and value.left.id == name \
            and not any(isinstance(n, gast.Name) and n.id == name
                        for n in walk_tree(value.right)):
        return name
    return None


def _is_zero_assignment(stmt):
    """`N = 0.0`, or `N = np.zeros_like(x)` (a new array: the facts knew x's shape)."""
    if build.assigned_name(stmt) is None:
        return False
    value = stmt.value
    if isinstance(value, gast.Call):
        return isinstance(value.func, gast.Attribute) and value.func.attr == "zeros_like" \
            and len(value.args) == 1 and not value.keywords
    return isinstance(value, gast.Constant) and type(value.value) in (int, float) \
        and value.value == 0


def _owned_copies(module, after):
    """{id(stmt): N} for each top-level `N = M` where M holds an array only M holds
    (see the module docstring) and is read only there."""
    stores, loads = {}, {}
    for node in walk_tree(gast.Module(body=module.body + after, type_ignores=[])):
        if isinstance(node, gast.Name):
            table = stores if isinstance(node.ctx, gast.Store) else loads
            table[node.id] = table.get(node.id, 0) + 1
    made = {}                     # top-level name -> its defining statement, in order
    owned, top = {}, {id(stmt) for stmt in module.body}
    for stmt in module.body:
        target = build.assigned_name(stmt)
        if target is None:
            continue
        value = stmt.value
        if isinstance(value, gast.Name) and value.id in made and stores[value.id] == 1 \
                and loads.get(value.id) == 1 \
                and isinstance(made[value.id].value, (gast.BinOp, gast.UnaryOp)) \
                or id(stmt) in top and isinstance(value, (gast.BinOp, gast.UnaryOp)):
            owned[id(stmt)] = target
        made[target] = stmt
    return owned


def _candidates(module, after):
    owned = _owned_copies(module, after)
    accumulated, rejected = set(), set()
    allowed_loads = set()          # ids of Name nodes read in an allowed position
    for node in walk_tree(module):
        if isinstance(node, gast.Return):
            allowed_loads.update(id(n) for n in walk_tree(node) if isinstance(n, gast.Name))
        elif isinstance(node, _OPERATOR_PARENTS):
            for child in gast.iter_child_nodes(node):
                if isinstance(child, gast.Name):
                    allowed_loads.add(id(child))
        elif isinstance(node, gast.AugAssign) and isinstance(node.value, gast.Name):
            allowed_loads.add(id(node.value))   # `x -= N` makes a new value or adds into x
        elif _is_product_sum(node):             # np.dot(N, x): a new number, N not kept
            allowed_loads.update(id(a) for a in node.args if isinstance(a, gast.Name))
        if isinstance(node, gast.stmt):
            name = _accumulated_name(node)
            if name is not None:
                accumulated.add(name)
                allowed_loads.add(id(node.value.left))
                continue
            if _is_zero_assignment(node) or id(node) in owned:
                continue
            for target in _stored_names(node):
                rejected.add(target)
    for node in walk_tree(module):
        if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load) \
                and id(node) not in allowed_loads:
            rejected.add(node.id)
    return accumulated - rejected


def _is_product_sum(node):
    """`np.dot(a, b)` / `np.vdot(a, b)` (as the templates write them: numpy's)."""
    return isinstance(node, gast.Call) and not node.keywords and len(node.args) == 2 \
        and isinstance(node.func, gast.Attribute) and node.func.attr in ("dot", "vdot") \
        and isinstance(node.func.value, gast.Name)


def _stored_names(stmt):
    """Names a statement (re)binds, including loop targets and augmented assignments."""
    if isinstance(stmt, gast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, (gast.AugAssign, gast.AnnAssign)):
        targets = [stmt.target]
    elif isinstance(stmt, gast.For):
        targets = [stmt.target]
    else:
        return []
    return [n.id for t in targets for n in walk_tree(t)
            if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)]
