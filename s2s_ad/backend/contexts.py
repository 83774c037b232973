"""The derivative's `with` blocks, written from the markers normalize leaves where a
user's `with` block of a value-preserving manager was (transforms/contexts.py).

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


def with_blocks(body, enter, exit_):
    """`body` with each marker pair (callee names `enter` and `exit_`) made a `with`."""
    if enter is None:
        return body
    return _rebuilt(body, enter, exit_)


def _rebuilt(stmts, enter, exit_):
    out = []
    stack = []                   # (head call, the list collecting the block's statements)
    for stmt in stmts:
        name = _marker_name(stmt)
        if name == enter:
            stack.append((stmt.value, out))
            out = []
            continue
        if name == exit_:
            assert stack, "a `with` block's end marker without its start"
            head, outer = stack.pop()
            factory, *args = head.args
            call = build.call(build.clone(factory), [build.clone(a) for a in args])
            call.keywords = [gast.keyword(arg=k.arg, value=build.clone(k.value))
                             for k in head.keywords]
            block = gast.With(items=[gast.withitem(context_expr=call, optional_vars=None)],
                              body=out or [gast.Pass()], type_comment=None)
            outer.append(build.with_location(block, head) if hasattr(head, "lineno")
                         else block)
            out = outer
            continue
        out.append(_with_nested(stmt, enter, exit_))
    assert not stack, "a `with` block's start marker without its end"
    return out


def _with_nested(stmt, enter, exit_):
    fields = [f for f in ("body", "orelse") if isinstance(getattr(stmt, f, None), list)
              and any(isinstance(s, gast.stmt) for s in getattr(stmt, f))]
    if not fields:
        return stmt
    copied = type(stmt)(**{f: getattr(stmt, f) for f in stmt._fields})
    gast.copy_location(copied, stmt)
    for f in fields:
        setattr(copied, f, _rebuilt(getattr(stmt, f), enter, exit_))
    return copied


def _marker_name(stmt):
    if isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call) \
            and isinstance(stmt.value.func, gast.Name):
        return stmt.value.func.id
    return None
