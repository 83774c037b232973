"""The derivative's `try` blocks whose handler computes a fallback: normalize leaves

    completed = body_completes(LinAlgError)      (transforms/fallbacks.py)
    if completed:
        body
    else:
        fallback

and the sweeps treat it as an `if`. In the derivative's def the body runs inside the
`try`, which sets the test; when the body raises, what it saved on the tape is taken off
and the values it saved are put back, so the backward sweep sees the tape and the values
as if the body had never started:

    completed = len(_tape), L, t1_0        # the tape's length, the values the body saves
    try:
        _tape.append(L)
        L = np.linalg.cholesky(K)
    except np.linalg.LinAlgError:
        L, t1_0 = completed[1:]
        del _tape[completed[0]:]
        completed = False
    else:
        completed = True
    if not completed:
        fallback

Without saves in the body (forward mode, or nothing overwritten) the first line and the
two undoing ones are left out. Returns new statements: the ones given are not changed.
"""
import gast

from ..ir import build
from ..ir.walk import walk_tree


def is_fallback_head(stmts, k, completes):
    """stmts[k] is `completed = body_completes(...)` and stmts[k + 1] its `if`."""
    stmt = stmts[k]
    if completes is None or not (isinstance(stmt, gast.Assign)
                                 and isinstance(stmt.value, gast.Call)
                                 and isinstance(stmt.value.func, gast.Name)
                                 and stmt.value.func.id == completes):
        return False
    following = stmts[k + 1] if k + 1 < len(stmts) else None
    assert isinstance(following, gast.If) and isinstance(following.test, gast.Name) \
        and following.test.id == stmt.targets[0].id, \
        "a fallback `try`'s test not right before its `if`"
    return True


def fallback_try(head, branch, body, fallback, tape):
    """The statements standing for `head` (`completed = body_completes(caught)`) and
    `branch` (its `if`), whose branches, rebuilt, are `body` and `fallback`."""
    test = head.targets[0].id
    classes = [build.clone(a) for a in head.value.args]
    caught = classes[0] if len(classes) == 1 else build.tuple_(classes)
    saved = _first_saved(body, tape) if tape is not None else []
    undo, before = [], []
    if saved:
        before = [build.assign(test, build.tuple_(
            [build.call(build.name("len"), [build.name(tape)])]
            + [build.name(n) for n in saved]))]
        undo = [build.assign(build.tuple_target(saved), build.subscript(
                    build.name(test), build.slice_(build.const(1)))),
                build.delete_tail(tape, build.subscript(build.name(test), build.const(0)))]
    attempt = build.try_setting_flag(body, caught, test, undo)
    out = before + [build.with_location(attempt, branch) if hasattr(branch, "lineno")
                    else attempt]
    if fallback and not all(isinstance(s, gast.Pass) for s in fallback):
        out.append(build.if_stmt(build.unaryop("Not", build.name(test)), fallback))
    return out


def _first_saved(body, tape):
    """Names the body pushes on the tape before binding them, in order: the values to put
    back when it raises (a push reads its name, so each is bound before the `try`)."""
    saved, bound = [], set()
    for stmt in body:
        assert not isinstance(stmt, (gast.If, gast.For, gast.While, gast.Try, gast.With)), \
            "a nested block in a fallback `try` body (transforms/fallbacks.py keeps it flat)"
        if _is_push(stmt, tape):
            # the value pushed (`_tape.append(h)`, `_tape.append(shape_of(h))`): h, never
            # the helper or module a call reads (putting those back would make them locals)
            pushed = stmt.value.args[0]
            callees = {id(n.func) for n in walk_tree(pushed) if isinstance(n, gast.Call)}
            callees |= {id(n.value) for n in walk_tree(pushed) if isinstance(n, gast.Attribute)}
            for node in walk_tree(pushed):
                if isinstance(node, gast.Name) and id(node) not in callees \
                        and node.id not in bound and node.id not in saved:
                    saved.append(node.id)
        for node in walk_tree(stmt):
            if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Store):
                bound.add(node.id)
    return saved


def _is_push(stmt, tape):
    return isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call) \
        and isinstance(stmt.value.func, gast.Attribute) and stmt.value.func.attr == "append" \
        and isinstance(stmt.value.func.value, gast.Name) and stmt.value.func.value.id == tape
