"""Normalizing `with` blocks whose context manager does not change values (used by
`normalize`, mixed into its normalizer).

Allowed managers (called with literal arguments): np.errstate (how
floating-point errors are reported: ignored, warned, raised), np.printoptions, and
warnings.catch_warnings (with warnings.simplefilter / filterwarnings inside). They change
what is reported or printed, never a value, so the derivative runs the same statements
under the same manager: the block's statements stay in place between two marker calls,

    with np.errstate(divide="ignore"):      context_enter(np.errstate, divide="ignore")
        y = np.log(x)                  ->   y = np.log(x)
                                            context_exit(np.errstate, divide="ignore")

and every analysis sees plain statements. An `as w` target is bound right after the
first marker, `w = context_bound()` (the derivative's `with` binds it: the list of
warnings catch_warnings(record=True) records, say; only the forward sweep's `with` binds
it). The backward walk swaps the markers (the backward sweep of the block runs under the same manager: log's adjoint divides by x),
and the derivative's def is written with real `with` blocks again (backend/contexts.py).
Any other manager (open, contextlib.suppress, which skips the rest of the block, a
lock, your own) is a located error naming it.

`try` blocks whose one handler raises (input validation around a factorisation) are
kept the same way, in the forward sweep only (the backward sweep runs only when the
body did not raise):

    try:                                      guard_enter(1, LinAlgError, ValueError, "...")
        L = np.linalg.cholesky(A)        ->   L = np.linalg.cholesky(A)
    except np.linalg.LinAlgError:             guard_exit()
        raise ValueError("not SPD")

so the derivative raises what f raises. The rule: one `except` clause naming exception
classes (or none), whose body is `raise E(literal, ...)` or `raise E` (a bare `raise` alone
lets the exception leave: the body is kept as if there were no `try`); an `else:`
block runs after the `try` (the handler never falls through); a `finally:` block (logging,
or any code without return / break / continue, which frontend/fence.py rejects there: they
would swallow the exception) runs after the body, as its own statements, and is kept as
the `try`'s `finally` in the forward sweep, so it also runs when the body raises; not both
`else` and `finally`. A handler computing a fallback value is an `if` on whether the body completed
(fallbacks.py); several handlers are a located error saying what to write.
"""
import contextlib
import warnings

import gast
import numpy

from ..errors import UnsupportedSyntaxError
from ..ir import build
from ..ir.build import dotted_path
from .. import runtime_blocks
from .fallbacks import FallbackMixin, caught_classes, is_fallback

# the managers that change what is reported, never a value
_VALUE_PRESERVING = {numpy.errstate: "np.errstate", numpy.printoptions: "np.printoptions",
                     warnings.catch_warnings: "warnings.catch_warnings"}
_WHY_NOT = {contextlib.suppress: "contextlib.suppress skips the rest of the block when the "
                                 "exception is raised, which a derivative cannot follow"}


def is_grad_of_block(node):
    """`with s2s_ad.insert_grad_of(x) as g:` (mutation.py checks what the name denotes)."""
    if len(node.items) != 1 or not isinstance(node.items[0].context_expr, gast.Call):
        return False
    func = node.items[0].context_expr.func
    name = func.attr if isinstance(func, gast.Attribute) else getattr(func, "id", None)
    return name == "insert_grad_of"


class ContextMixin:
    """`with` blocks of the managers above."""

    def _context_block(self, stmt):
        """False: a `return` inside the block is a flag by now (exits.py)."""
        heads = [self._context_head(item, stmt) for item in stmt.items]
        self._flush(stmt, [])
        for head, item in zip(heads, stmt.items):
            self._flush(stmt, [self._context_marker(runtime_blocks.context_enter, head)])
            if item.optional_vars is not None:
                bound = self._runtime_call(runtime_blocks.context_bound, [])
                self._flush(stmt, [self._bind(item.optional_vars.id, bound, 1)])
        self._block_statements(stmt.body)
        self._flush(stmt, [self._context_marker(runtime_blocks.context_exit, head)
                           for head in reversed(heads)])
        return False

    def _block_statements(self, stmts):
        for inner in stmts:
            assert not self._statement(inner), "a return inside a block left by exits.py"

    def _context_head(self, item, stmt):
        call = item.context_expr
        path = dotted_path(call.func) if isinstance(call, gast.Call) else None
        target = self.res.lookup(path) if path and not self.res.is_value(
            path.split(".")[0]) and self.res.has(path) else None
        what = path or type(call).__name__
        if target not in _VALUE_PRESERVING:
            reason = _WHY_NOT.get(target, "it may change values or control flow, which a "
                                          "derivative cannot follow")
            raise UnsupportedSyntaxError(
                f"`with {what}(...)` cannot be differentiated: {reason}; the managers "
                f"allowed are np.errstate, np.printoptions and warnings.catch_warnings",
                self.smap.locate(item.context_expr),
                "move the `with` outside the differentiated function")
        if item.optional_vars is not None and not isinstance(item.optional_vars, gast.Name):
            raise UnsupportedSyntaxError(
                f"`with {what}(...) as ...` is supported binding one name",
                self.smap.locate(item.optional_vars), "write `as w` and unpack w after")
        arguments = list(call.args) + [k.value for k in call.keywords]
        if any(isinstance(a, gast.Starred) for a in call.args) \
                or any(k.arg is None for k in call.keywords) \
                or not all(_is_literal(a) for a in arguments):
            raise UnsupportedSyntaxError(
                f"`with {what}(...)` is supported with literal arguments",
                self.smap.locate(call), 'write the values out: np.errstate(divide="ignore")')
        self._check_bound(path, call)
        return build.dotted(path), [build.clone(a) for a in call.args], \
            [(k.arg, build.clone(k.value)) for k in call.keywords]

    def _context_marker(self, marker, head):
        factory, args, keywords = head
        call = self._runtime_call(marker, [build.clone(factory)] + [build.clone(a) for a in args])
        return build.expr_stmt(build.call(call.func, call.args,
                                          [(k, build.clone(v)) for k, v in keywords]))


class GuardMixin(FallbackMixin):
    """`try` blocks whose handler raises (or computes a fallback: fallbacks.py)."""

    def _guarded_block(self, stmt):
        """False: a `return` inside the block is a flag by now (exits.py)."""
        if is_fallback(stmt):
            return self._fallback_block(stmt)
        enter = self._guard_head(stmt)
        self._flush(stmt, [])
        if not enter and not stmt.finalbody:     # `except E: raise`: as if no `try`
            self._block_statements(stmt.body + stmt.orelse)
            return False
        self._flush(stmt, [build.expr_stmt(self._runtime_call(runtime_blocks.guard_enter, enter))])
        self._block_statements(stmt.body)
        self._flush(stmt, [build.expr_stmt(self._runtime_call(runtime_blocks.guard_exit, []))])
        self._block_statements(stmt.orelse)
        if stmt.finalbody:
            # run after the body as here, and before the exception leaves when it raises
            self._flush(stmt, [build.expr_stmt(self._runtime_call(runtime_blocks.finally_enter,
                                                                  []))])
            self._block_statements(stmt.finalbody)
            self._flush(stmt, [build.expr_stmt(self._runtime_call(runtime_blocks.finally_exit,
                                                                  []))])
        return False

    def _guard_head(self, stmt):
        """[how many classes are caught, the caught classes..., raised class, literal
        arguments...] of the marker."""
        hint = ("raise with literal arguments (`except LinAlgError: raise ValueError(\"...\")`)"
                ", or compute a fallback value in the handler")
        if stmt.finalbody and stmt.orelse:
            raise UnsupportedSyntaxError(
                "`try` with both `else` and `finally` cannot be differentiated",
                self.smap.locate(stmt.orelse[0]), "move the `else` code after the `try`")
        if not stmt.handlers:
            return []                         # try / finally
        if len(stmt.handlers) != 1:
            raise UnsupportedSyntaxError(
                "`try` with several `except` clauses cannot be differentiated",
                self.smap.locate(stmt.handlers[1]), "catch one exception class and raise")
        handler = stmt.handlers[0]
        caught, paths = caught_classes(handler, self.smap, separate=True)
        raised = handler.body[0] if len(handler.body) == 1 else None
        if isinstance(raised, gast.Raise) and raised.exc is None:
            return []     # `except E: raise` lets the exception leave as no `try` would
        exc = raised.exc if isinstance(raised, gast.Raise) else None
        call = exc if isinstance(exc, gast.Call) else None
        cls = call.func if call is not None else exc
        if cls is None or dotted_path(cls) is None or (call is not None and (
                call.keywords or not all(_is_literal(a) for a in call.args))):
            raise UnsupportedSyntaxError(
                "an `except` clause is supported when its body is one `raise E(\"...\")` "
                "with literal arguments: a handler that carries on computes from a run of "
                "the `try` body cut short, which a derivative cannot follow",
                self.smap.locate(handler), hint)
        for path in [dotted_path(cls)] + paths:
            self._check_bound(path, handler)
        return [build.const(len(caught))] + caught + [build.dotted(dotted_path(cls))] + (
            [build.clone(a) for a in call.args] if call is not None else [])


def _is_literal(node):
    return isinstance(node, gast.Constant) or (
        isinstance(node, gast.UnaryOp) and isinstance(node.operand, gast.Constant))
