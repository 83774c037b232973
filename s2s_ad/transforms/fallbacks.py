"""Normalizing `try` blocks whose handler computes a fallback (used by `normalize`, mixed
into its normalizer through GuardMixin):

    try:                                        completed = body_completes(LinAlgError)
        L = np.linalg.cholesky(K)          ->   if completed:
    except np.linalg.LinAlgError:                   L = np.linalg.cholesky(K)
        L = np.linalg.cholesky(K + 1e-6 * I)    else:
                                                    t1_0 = 1e-06 * I; ...; L = np.linalg.cholesky(t2_0)

An `if` whose test is "the body ran to its end": every analysis and both sweeps see a plain
`if`, so the backward sweep differentiates the path the forward run took and only that
one. The derivative's def runs the `if`'s first branch inside a `try` and sets the test
from it, putting back what the body saved on the tape when it raised
(backend/fallbacks.py). An `else:` block becomes a second `if completed:`.

What keeps this exact: the body holds only assignments to names (no index writes, calls
for their effect or nested blocks, whose partial effects could not be taken back); the
handler reads none of the names the body binds before binding them itself, and binds
every one of them read outside the body or before the body binds it (after a body cut
short they would hold a partial result; a name the body binds and then reads, and nothing
else reads, needs no binding in the handler). One handler
(it may catch a tuple of classes, and bind `as e` when it does not read e); no `finally`.
"""
import gast

from ..errors import UnsupportedSyntaxError
from ..ir import build
from ..ir.build import dotted_path
from ..ir.walk import walk_tree
from .. import runtime_blocks


def is_fallback(stmt):
    """A `try` whose one handler does something other than raise."""
    return len(stmt.handlers) == 1 and not (
        len(stmt.handlers[0].body) == 1 and isinstance(stmt.handlers[0].body[0], gast.Raise))


def caught_classes(handler, smap, separate=False):
    """The `except` clause's class(es) as an expression: a dotted name, a tuple of them,
    or BaseException for a bare `except:` (separate: a list of the names instead), and
    their dotted paths."""
    if handler.type is None:
        return ([build.name("BaseException")] if separate else build.name("BaseException")), []
    types = handler.type.elts if isinstance(handler.type, gast.Tuple) else [handler.type]
    paths = [dotted_path(t) for t in types]
    if None in paths:
        raise UnsupportedSyntaxError(
            "an `except` clause is supported naming exception classes by name",
            smap.locate(handler.type), "write `except (np.linalg.LinAlgError, ValueError):`")
    dotted = [build.dotted(p) for p in paths]
    if separate:
        return dotted, paths
    return (dotted[0] if len(dotted) == 1 and not isinstance(handler.type, gast.Tuple)
            else build.tuple_(dotted)), paths


class FallbackMixin:
    """`try` blocks whose handler computes a fallback."""

    def _fallback_block(self, stmt):
        """False: a `return` inside the block is a flag by now (exits.py)."""
        handler = stmt.handlers[0]
        caught, paths = caught_classes(handler, self.smap, separate=True)
        for path in paths:
            self._check_bound(path, handler)
        self._check_fallback(stmt, handler)
        name = self.namer.fresh("completed")
        self.multi_def.add(name)
        self.levels[name] = 0
        self.current[name] = name
        self._flush(stmt, [])
        self._flush(stmt, [build.assign(name, self._runtime_call(
            runtime_blocks.body_completes, caught))])
        body = self._block(stmt.body)
        fallback = self._block(handler.body)
        self._flush(stmt, [gast.If(test=build.name(name), body=body or [gast.Pass()],
                                   orelse=fallback)])
        if stmt.orelse:
            after = self._block(stmt.orelse)
            self._flush(stmt, [gast.If(test=build.name(name), body=after or [gast.Pass()],
                                       orelse=[])])
        return False

    def _check_fallback(self, stmt, handler):
        hint = "compute the fallback from the values the `try` started with"
        if stmt.finalbody:
            raise UnsupportedSyntaxError(
                "a `try` whose handler computes a fallback cannot have a `finally` block",
                self.smap.locate(stmt.finalbody[0]), "move the `finally` code after the `try`")
        if handler.name is not None and any(
                isinstance(n, gast.Name) and n.id == handler.name.id
                and isinstance(n.ctx, gast.Load) for s in handler.body for n in walk_tree(s)):
            raise UnsupportedSyntaxError(
                f"a handler computing a fallback reads the exception `{handler.name.id}`, "
                f"which a derivative cannot follow", self.smap.locate(handler.name),
                "read it only in a handler that raises")
        bound = []
        for inner in stmt.body:
            targets = _assigned_names(inner)
            if targets is None:
                raise UnsupportedSyntaxError(
                    f"`{type(inner).__name__}` in a `try` body whose handler computes a "
                    f"fallback: the body may hold only assignments to names (a body cut "
                    f"short by the exception leaves no partial effects to take back then)",
                    self.smap.locate(inner), "compute into names in the `try` and do the "
                    "rest after it")
            bound += [t for t in targets if t not in bound]
        rebound = set()
        for inner in handler.body:
            for node in walk_tree(inner):
                if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load) \
                        and node.id in bound and node.id not in rebound:
                    raise UnsupportedSyntaxError(
                        f"the handler reads `{node.id}`, which the `try` body binds: after a "
                        f"body cut short it holds a partial result", self.smap.locate(node),
                        hint)
            rebound |= {n.id for n in walk_tree(inner)
                        if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)}
        tree = getattr(getattr(self, "parsed", None), "tree", None)
        missing = [n for n in bound if n not in rebound
                   and not _read_only_in_body_after_binding(tree, stmt, n)]
        if missing:
            raise UnsupportedSyntaxError(
                f"the handler does not bind `{missing[0]}`, which the `try` body binds: "
                f"after a body cut short it would hold a partial result",
                self.smap.locate(handler), f"assign `{missing[0]}` in the handler too")


def _read_only_in_body_after_binding(tree, stmt, name):
    """Is `name` read nowhere in the function `tree` but in the `try` body `stmt`, and there
    only after the body binds it? Then what a body cut short left in it is never read, and
    the handler need not bind it:

        try:                                  L is read only after `L = ...` in the body:
            L = np.linalg.cholesky(K)         the handler need not bind L
            s = np.sum(L)
        except np.linalg.LinAlgError:
            s = 0.0

    False when `stmt` is not in `tree` (a helper's `try` inlined into f)."""
    if tree is None:
        return False
    inside = {id(n) for s in stmt.body for n in walk_tree(s)}
    if id(stmt) not in {id(n) for n in walk_tree(tree)}:
        return False
    for node in walk_tree(tree):
        if isinstance(node, gast.Name) and node.id == name and id(node) not in inside \
                and not isinstance(node.ctx, gast.Store):
            return False
    for inner in stmt.body:
        names = [n for n in walk_tree(inner) if isinstance(n, gast.Name) and n.id == name]
        if any(isinstance(n.ctx, gast.Load) for n in names) or isinstance(inner, gast.AugAssign):
            return False            # read before this body binds it (`L = g(L)`, AugAssign)
        if names:
            return True
    return True


def _assigned_names(stmt):
    """The names an assignment binds; None for any other statement or an index write."""
    if isinstance(stmt, gast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, (gast.AugAssign, gast.AnnAssign)):
        targets = [stmt.target]
    else:
        return None
    names = []
    for target in targets:
        for node in walk_tree(target):
            if isinstance(node, (gast.Subscript, gast.Attribute, gast.Starred)):
                return None
            if isinstance(node, gast.Name):
                names.append(node.id)
    return names
