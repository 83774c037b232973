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


def with_blocks(body, enter, exit_, guard_enter=None, guard_exit=None):
    """`body` with each marker pair made a `with` block (callee names `enter`, `exit_`)
    or a `try` whose handler raises (`guard_enter`, `guard_exit`)."""
    if enter is None and guard_enter is None:
        return body
    roles = {name: role for name, role in ((enter, "open"), (exit_, "close"),
                                            (guard_enter, "open"), (guard_exit, "close"))
             if name is not None}
    return _rebuilt(body, roles, guard_enter)


def _rebuilt(stmts, roles, guard_enter):
    out = []
    stack = []                   # (head call, the list collecting the block's statements)
    for stmt in stmts:
        role = roles.get(_marker_name(stmt))
        if role == "open":
            stack.append((stmt.value, out))
            out = []
            continue
        if role == "close":
            assert stack, "a block's end marker without its start"
            head, outer = stack.pop()
            block = _try_block(head, out) if head.func.id == guard_enter \
                else _with_block(head, out)
            outer.append(build.with_location(block, head) if hasattr(head, "lineno")
                         else block)
            out = outer
            continue
        out.append(_with_nested(stmt, roles, guard_enter))
    assert not stack, "a block's start marker without its end"
    return out


def _with_block(head, body):
    factory, *args = head.args
    call = build.call(build.clone(factory), [build.clone(a) for a in args],
                      [(k.arg, build.clone(k.value)) for k in head.keywords])
    return build.with_block(call, body)


def _try_block(head, body):
    """try: body / except caught: raise raised(*args)"""
    caught, raised, *args = head.args
    exc = build.call(build.clone(raised), [build.clone(a) for a in args]) if args \
        else build.clone(raised)
    return build.try_raising(body, build.clone(caught), exc)


def _with_nested(stmt, roles, guard_enter):
    fields = [f for f in ("body", "orelse") if isinstance(getattr(stmt, f, None), list)
              and any(isinstance(s, gast.stmt) for s in getattr(stmt, f))]
    if not fields:
        return stmt
    copied = type(stmt)(**{f: getattr(stmt, f) for f in stmt._fields})
    gast.copy_location(copied, stmt)
    for f in fields:
        setattr(copied, f, _rebuilt(getattr(stmt, f), roles, guard_enter))
    return copied


def _marker_name(stmt):
    if isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call) \
            and isinstance(stmt.value.func, gast.Name):
        return stmt.value.func.id
    return None
