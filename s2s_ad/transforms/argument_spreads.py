"""Normalizing calls that spread a sequence or a dict into arguments, where f's source
or its callee's signature says how many items or which keys there are.

    h(*xs) for def h(a, b)          ->  assert len(xs) == 2; h(xs[0], xs[1])
    h(*xs) for def h(*args), xs = [x, y] in f      ->  h(xs[0], xs[1])   (checked too)
    h(*xs) for def h(*args), xs unknown            ->  call_function(h, tuple(xs))
    f(x, **opts), opts = {"a": 1.0} in f           ->  f(x, a=opts["a"])

Anything else is a located error. Used by `normalize` through CallMixin; reads
FunctionValueMixin's bindings of f's names (`_binding_of`).
"""
import builtins
import inspect

import gast

from ..errors import UnsupportedSyntaxError
from ..ir import build
from ..ir.build import dotted_path
from ..ir.walk import walk_tree
from ..frontend.star_params import takes_star_args


class ArgumentSpreadMixin:
    """`f(*xs)` and `f(**opts)` as calls with their items or keys."""

    def _spread_arguments(self, target, expr):
        """f(a, *xs): for an f taking a fixed number n of positional arguments, f(a, xs[0],
        ..., xs[n-2]) after checking that xs holds that many items; for a def of yours
        taking `*args`, each starred sequence spread by the length its display in f's
        source gives (`xs = [x, y]`, checked too), else the call made when the code runs
        with the arguments concatenated (call_function(f, (a,) + tuple(xs)): then the
        call already lowered, an (operation, level) pair)."""
        try:
            params = list(inspect.signature(target).parameters.values())
        except (TypeError, ValueError):
            params = None
        if any(k.arg is None for k in expr.keywords):
            # `self.forward(*args, **kwargs)`: the keywords kwargs holds first, so the
            # positional count left for args is known (an empty kwargs fills nothing)
            expr = self._spread_keywords(expr)
        stars = [k for k, a in enumerate(expr.args) if isinstance(a, gast.Starred)]
        counts = {k: self._display_length(expr.args[k].value) for k in stars}
        if None not in counts.values() and _takes(target, len(expr.args) - len(stars)
                                                  + sum(counts.values()), expr.keywords):
            # each starred value a tuple or list display of known length (`args =
            # (args_0,)` of a *args def taken at an arity) that f takes: its items
            return self._spread(expr, counts)
        positional = None if params is None or any(
            p.kind in (p.VAR_POSITIONAL, p.KEYWORD_ONLY, p.VAR_KEYWORD) or
            p.default is not p.empty for p in params) else len(params)
        if positional is not None and len(stars) == 1:
            count = positional - (len(expr.args) - 1) - len(expr.keywords)
            return self._spread(expr, {stars[0]: count})
        if takes_star_args(target) and not expr.keywords and not any(
                p.kind in (p.KEYWORD_ONLY, p.VAR_KEYWORD) and p.default is p.empty
                for p in params):
            counts = {k: self._display_length(expr.args[k].value) for k in stars}
            if None not in counts.values():
                return self._spread(expr, counts)
            return self._call_concatenated(expr)
        if target is builtins.zip and len(stars) == len(expr.args) == 1:
            raise UnsupportedSyntaxError(
                "`zip(*m)` (m's columns) is differentiated where a loop or a comprehension "
                "iterates it (`for col in zip(*m)`) or names unpack it (`a, b = zip(*m)`)",
                self.smap.locate(expr), "for an array's columns write `m.T` (`list(m.T)`), else "
                "make the list by iterating: `[col for col in zip(*m)]`")
        raise UnsupportedSyntaxError(
            "a starred argument `f(*xs)` is differentiated when f takes a fixed number "
            "of positional parameters (no defaults) or is a def of yours taking *args, "
            "and one argument is starred", self.smap.locate(expr),
            "pass the items one by one: f(xs[0], xs[1])")

    def _spread(self, expr, counts):
        """expr with each starred argument k replaced by counts[k] items of it, after
        checking the sequence holds that many."""
        args = []
        for k, arg in enumerate(expr.args):
            if k not in counts:
                args.append(arg)
                continue
            count = counts[k]
            items = self._held(arg.value)
            self._check_bound("len", expr)
            check = gast.Compare(left=build.call(build.name("len"), [build.clone(items)]),
                                 ops=[gast.Eq()], comparators=[build.const(count)])
            build.with_location(check, expr)
            holds, _ = self._atom(check)
            self._flush(expr, [gast.Assert(test=holds, msg=build.const(
                f"the starred argument holds {count} items for this call"))])
            args += [build.subscript(build.clone(items), build.const(j)) for j in range(count)]
        return build.with_location(build.call(expr.func, args, [
            (k.arg, k.value) for k in expr.keywords]), expr)

    def _spread_keywords(self, expr):
        """f(x, **opts) as f(x, a=opts["a"], b=opts["b"]) when f's source shows opts' keys:
        a dict display with string keys (`**{"a": 1}`), or a name bound once to one (or
        to dict(a=..., b=...)) and never written through. Else a located error."""
        keywords = []
        for k in expr.keywords:
            if k.arg is not None:
                keywords.append((k.arg, k.value))
                continue
            keys = self._mapping_keys(k.value)
            if keys is None:
                raise UnsupportedSyntaxError(
                    "`**` spreads a dict whose keys s2s_ad reads from f's source: a dict "
                    "display with string keys, or a name bound once to one (or to "
                    "dict(a=...)) and not written into", self.smap.locate(k.value),
                    "pass the keywords by name: f(x, scale=opts[\"scale\"])")
            display = k.value if isinstance(k.value, gast.Dict) else None
            for position, key in enumerate(keys):
                keywords.append((key, display.values[position] if display is not None
                                 else build.with_location(build.subscript(
                                     build.name(k.value.id), build.const(key)), k.value)))
        return build.with_location(build.call(expr.func, expr.args, keywords), expr)

    def _mapping_keys(self, node):
        """The string keys of the dict `node` (see _spread_keywords), or None."""
        if isinstance(node, gast.Name) and self.res.is_value(node.id):
            values, stores, tree = self._binding_of(node.id)
            if len(values) != 1 or stores != 1 or _written_through(tree, node.id):
                return None
            node = values[0]
        if isinstance(node, gast.Dict) and all(
                isinstance(k, gast.Constant) and isinstance(k.value, str) for k in node.keys):
            return [k.value for k in node.keys]
        if isinstance(node, gast.Call) and dotted_path(node.func) == "dict" \
                and not self.res.is_value("dict") and self.res.lookup("dict") is dict \
                and not node.args and all(k.arg is not None for k in node.keywords):
            return [k.arg for k in node.keywords]
        return None

    def _display_length(self, node):
        """How many items the list or tuple display `node` (or the name bound once to
        one in f's source) holds; None when the source does not say."""
        if isinstance(node, gast.Name) and self.res.is_value(node.id):
            values, stores, _ = self._binding_of(node.id)
            if len(values) != 1 or stores != 1:
                return None
            node = values[0]
        if isinstance(node, (gast.List, gast.Tuple)) \
                and not any(isinstance(e, gast.Starred) for e in node.elts):
            return len(node.elts)
        return None

    def _call_concatenated(self, expr):
        """f(a, *xs) as call_function(f, (a,) + tuple(xs)): f's derivative is derived for
        as many items as the call gives when it runs (runtime_functions.py)."""
        from .. import runtime_functions
        parts = []
        for arg in expr.args:
            if isinstance(arg, gast.Starred):
                self._check_bound("tuple", expr)
                parts.append(build.call(build.name("tuple"), [arg.value]))
            else:
                parts.append(build.tuple_([arg]))
        together = parts[0]
        for part in parts[1:]:
            together = gast.BinOp(left=together, op=gast.Add(), right=part)
        build.with_location(together, expr)
        call = self._runtime_call(runtime_functions.call_function,
                                  [build.clone(expr.func), together])
        return self._call(build.with_location(call, expr))


def _takes(target, count, keywords):
    """Does `target` take `count` positional arguments and these keywords?"""
    try:
        inspect.signature(target).bind(*range(count), **{k.arg: None for k in keywords})
    except (TypeError, ValueError):
        return False
    return True


def _written_through(tree, name):
    """Is the dict `name` written into anywhere in `tree` (an item stored or deleted, a
    method that changes it, `|=`)?"""
    for node in walk_tree(tree):
        if isinstance(node, gast.Subscript) and isinstance(node.ctx, (gast.Store, gast.Del)) \
                and isinstance(node.value, gast.Name) and node.value.id == name:
            return True
        if isinstance(node, gast.Attribute) and isinstance(node.value, gast.Name) \
                and node.value.id == name and node.attr in (
                    "update", "pop", "popitem", "setdefault", "clear"):
            return True
        if isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name) \
                and node.target.id == name:
            return True
    return False
