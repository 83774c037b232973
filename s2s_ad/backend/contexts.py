"""The derivative's `with` blocks, written from the markers normalize leaves where a
user's `with` block of a value-preserving manager was (transforms/contexts.py), and its
`try` blocks whose handler raises (the same way, in forward sweeps only).

    context_enter(np.errstate, divide="ignore")      with np.errstate(divide="ignore"):
    y = np.log(x)                               ->       y = np.log(x)
    context_exit(np.errstate, divide="ignore")

Forward sweeps keep the markers where the block was; the backward walk swaps them
(ad/backward_walk.py), so a block's backward sweep gets its own `with`. Markers pair up
within one statement list, innermost first; a statement list holding an unpaired marker
is a bug of s2s_ad's (an AssertionError, never a silently dropped manager). Returns new
lists: the statements given are not changed.
"""
import gast

from ..ir import build
from .fallbacks import fallback_try, is_fallback_head


def with_blocks(body, enter, exit_, guard_enter=None, guard_exit=None, finally_enter=None,
                finally_exit=None, completes=None, bound=None, tape=None):
    """`body` with each marker pair made a `with` block (callee names `enter`, `exit_`),
    a `try` whose handler raises (`guard_enter`, `guard_exit`) or that `try`'s `finally`
    block (`finally_enter`, `finally_exit`, right after the `try`'s end), and each
    `if` on `completes(...)` a `try` with a fallback (backend/fallbacks.py; `tape`: the
    tape's name, None when there is none). `w = bound()` right after a `with`'s start
    marker is its `as w`."""
    if enter is None and guard_enter is None and completes is None:
        return body
    roles = {name: role for name, role in ((enter, "open"), (exit_, "close"),
                                            (guard_enter, "open"), (guard_exit, "close"),
                                            (finally_enter, "open"), (finally_exit, "close"))
             if name is not None}
    return _rebuilt(body, roles, (guard_enter, finally_enter, completes, tape, bound))


def _rebuilt(stmts, roles, guards):
    out = []
    stack = []                   # (head call, the list collecting the block's statements)
    _, _, completes, tape, bound = guards
    heads = {k + 1 for k in range(len(stmts)) if is_fallback_head(stmts, k, completes)}
    targets = {}       # id(start marker's call): the name its `with` binds
    for k, stmt in enumerate(stmts):
        if k + 1 in heads:
            continue                     # written with its `if` below
        if _bound_by(stmt, bound) is not None:
            assert k and roles.get(_marker_name(stmts[k - 1])) == "open", \
                "a `with`'s `as` target not right after its start marker"
            targets[id(stmts[k - 1].value)] = _bound_by(stmt, bound)
            continue
        if k in heads:
            out.extend(fallback_try(stmts[k - 1], stmt, _rebuilt(stmt.body, roles, guards),
                                    _rebuilt(stmt.orelse, roles, guards), tape))
            continue
        role = roles.get(_marker_name(stmt))
        if role == "open":
            stack.append((stmt.value, out))
            out = []
            continue
        if role == "close":
            assert stack, "a block's end marker without its start"
            head, outer = stack.pop()
            guard_enter, finally_enter = guards[:2]
            if head.func.id == finally_enter:
                assert outer and isinstance(outer[-1], gast.Try), \
                    "a `finally` block not right after its `try`"
                outer[-1].finalbody = out or [gast.Pass()]
                out = outer
                continue
            block = _try_block(head, out) if head.func.id == guard_enter \
                else _with_block(head, out, targets.get(id(head)))
            outer.append(build.with_location(block, head) if hasattr(head, "lineno")
                         else block)
            out = outer
            continue
        out.append(_with_nested(stmt, roles, guards))
    assert not stack, "a block's start marker without its end"
    return out


def _with_block(head, body, target=None):
    factory, *args = head.args
    call = build.call(build.clone(factory), [build.clone(a) for a in args],
                      [(k.arg, build.clone(k.value)) for k in head.keywords])
    return build.with_block(call, body, target)


def _bound_by(stmt, bound):
    """w of `w = bound()`, else None."""
    if bound is not None and isinstance(stmt, gast.Assign) \
            and isinstance(stmt.targets[0], gast.Name) and isinstance(stmt.value, gast.Call) \
            and isinstance(stmt.value.func, gast.Name) and stmt.value.func.id == bound:
        return stmt.targets[0].id
    return None


def _try_block(head, body):
    """try: body / except caught: raise raised(*args)   (no handler: its finally follows)"""
    if not head.args:
        return build.try_raising(body, None, None)
    count, *rest = head.args
    classes, (raised, *args) = rest[:count.value], rest[count.value:]
    caught = classes[0] if len(classes) == 1 else build.tuple_(classes)
    exc = build.call(build.clone(raised), [build.clone(a) for a in args]) if args \
        else build.clone(raised)
    return build.try_raising(body, build.clone(caught), exc)  # caught: a tuple for several


def _with_nested(stmt, roles, guards):
    fields = [f for f in ("body", "orelse") if isinstance(getattr(stmt, f, None), list)
              and any(isinstance(s, gast.stmt) for s in getattr(stmt, f))]
    if not fields:
        return stmt
    copied = type(stmt)(**{f: getattr(stmt, f) for f in stmt._fields})
    gast.copy_location(copied, stmt)
    for f in fields:
        setattr(copied, f, _rebuilt(getattr(stmt, f), roles, guards))
    return copied


def _marker_name(stmt):
    if isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call) \
            and isinstance(stmt.value.func, gast.Name):
        return stmt.value.func.id
    return None
