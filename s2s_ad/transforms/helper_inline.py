"""Helpers given a nested function or a lambda of f: inlined into f, during normalization.

A nested function reads f's variables (an array computed from x, say), so it exists only
inside f and cannot be handed to a helper's own derivative. A def of yours called with
one (`apply(act, x)`, `apply(lambda z: z * c, x)`) has its body inlined where it is called,
its parameter standing for the function, so the function is inlined in turn where the
helper calls it (inline.py), reading f's variables as Python would at that moment:

    def apply(g, v):                 def f(x):
        return np.sum(g(v))              c = np.cos(x)
                                         v = x                   (apply's v, fresh)
    def f(x):                  ->        z = v                   (the lambda's z, fresh)
        c = np.cos(x)                    t1_0 = np.sin(z)
        return apply(lambda z:           t2_0 = t1_0 * c
                     np.sin(z) * c, x)   t3_0 = np.sum(t2_0)
                                         return t3_0

The helper's statements take the call's location (its errors and provenance comments
point at the call in f). Its free names must mean in f what they mean in the helper's
module (f's own variables and nested functions must not shadow them); the check is a
located error. Used by `normalize` through CallMixin.
"""
import inspect

import gast

from ..errors import UnsupportedSyntaxError
from ..ir.walk import walk_tree
from ..frontend.fence import fence
from ..frontend.parse import parse
from ..frontend.resolve import resolve
from ..analyses.argument_writes import parameters_written, parsed_tree, writes_outside
# (modules whose functions are primitives or s2s_ad's own, never inlined: users_defs.py)
from ..users_defs import LIBRARIES as _LIBRARIES, is_users_def


class HelperInlineMixin:
    """`_passes_local_function(expr)` and `_inline_helper(target, expr)`."""

    def _passes_local_function(self, expr):
        """Does the call give a nested function of f, a lambda or a functools.partial made
        in f (`apply(partial(loss, X=X), w)`, whose held values are f's) as an argument?"""
        return any(isinstance(a, gast.Lambda) or (
            isinstance(a, gast.Name) and a.id in self.nested and a.id not in self.current)
            or isinstance(a, (gast.Name, gast.Call)) and self._partial_made_here(a) is not None
            for a in list(expr.args) + [k.value for k in expr.keywords])

    def _writes_into_arguments(self, target):
        """Is `target` a def of yours that writes into an array, list, dict or object it
        is given, or into an array of its module (analyses/argument_writes.py)?"""
        return is_users_def(target) and writes_outside(target)

    def _inline_helper(self, target, expr, why="is given a function made inside f",
                       receiver_class=None):
        """The call `expr` of the def `target`, inlined (its value as an atom); with
        `receiver_class`, its first parameter holds an object of exactly that class."""
        if not inspect.isfunction(target) or getattr(target, "__s2s_generated__", None) \
                or (getattr(target, "__module__", None) or "").startswith(_LIBRARIES):
            raise UnsupportedSyntaxError(
                "a nested function or lambda is passed here to a function that is not a "
                "def of yours: only your own defs are given functions made inside f",
                self.smap.locate(expr),
                "call the nested function yourself, or define it at module level")
        keys = self.__dict__.setdefault("_helper_keys", {})
        # a method inlined for each class of the object it runs on: Module.__call__ of a
        # block calling Module.__call__ of the layer it holds is no recursion
        key = keys.get((target, receiver_class))
        if key is None:
            parsed = parse(target)
            resolution = resolve(parsed)
            fence(parsed, resolution=resolution)
            self._check_free_names(parsed.tree, resolution, target, expr, why=why)
            fdef = parsed.tree
            for node in walk_tree(fdef):
                if hasattr(node, "lineno"):
                    gast.copy_location(node, expr)
            key = keys[target, receiver_class] = self.namer.fresh(target.__name__)
            self.nested[key] = fdef
            self.__dict__.setdefault("helper_defs", {})[key] = target
        if key in self._inlining:
            raise UnsupportedSyntaxError(
                f"`{target.__name__}` {why}, so it is inlined into f, and it calls itself "
                "(recursion cannot be inlined)", self.smap.locate(expr),
                "copy the argument in the function before writing into it "
                "(`q = q.copy()`) and return what it computes")
        return self._inline(key, expr, shared=_written_in_place(target),
                            receiver_class=receiver_class)

    def _check_free_names(self, tree, resolution, target, expr, held=None,
                          why="is given a function made inside f"):
        """Every name the helper (and the nested defs `held` taken out of it, by name)
        reads from outside names the same object in f, and is no variable or nested
        function of f."""
        trees = [tree] + list((held or {}).values())
        inner = {n.id for t in trees for n in walk_tree(t) if isinstance(n, gast.Name)
                 and isinstance(n.ctx, (gast.Store, gast.Param))} | set(held or ())
        for node in (n for t in trees for n in walk_tree(t)):
            if not isinstance(node, gast.Name) or not isinstance(node.ctx, gast.Load) \
                    or node.id in inner or resolution.is_value(node.id):
                continue
            name = node.id
            if self.res.is_value(name) or name in self.nested or name in self.current \
                    or resolution.lookup(name) is not self.res.lookup(name):
                raise UnsupportedSyntaxError(
                    f"`{target.__name__}` {why}, so it is "
                    f"inlined into f, but the `{name}` it reads means something else "
                    f"in f", self.smap.locate(expr),
                    f"rename f's `{name}`, or define the function passed at module level")


def _written_in_place(target):
    """The parameters `target` writes into and never binds anew (no `q = ...`, no `q op= e`,
    which for a number is a new binding): inlined, each names the caller's variable."""
    written = parameters_written(target)
    if not written:
        return frozenset()
    tree = parsed_tree(target)
    bound = {n.id for n in walk_tree(tree) if isinstance(n, gast.Name)
             and isinstance(n.ctx, gast.Store)}
    bound |= {n.target.id for n in walk_tree(tree) if isinstance(n, gast.AugAssign)
              and isinstance(n.target, gast.Name)}
    return frozenset(written - bound)
