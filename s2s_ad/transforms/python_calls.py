"""Normalizing Python's own builtins and container methods into what s2s_ad differentiates.

Each rule rewrites the call into indexing, slicing, comprehensions and conditionals that
normalize lowers as usual, so the derivative follows the value that was chosen:

    max(a, b)              ->  b if b > a else a
    max(a, b, c)           ->  t = [a, b, c]; t[extremum_index(t, True)]
    min(xs, key=k)         ->  xs[extremum_index([k(v) for v in xs], False)]
    sorted(xs, key=k)      ->  [xs[i] for i in sorted_order([k(v) for v in xs], False)]
    reversed(xs)           ->  xs[::-1]
    divmod(a, b)           ->  (a // b, a % b)
    map(f, xs, ys)         ->  [f(v, w) for v, w in zip(xs, ys)]
    functools.reduce(f, xs)  ->  total = xs[0]; total = f(total, v) for v in xs[1:]
    zip(xs, ys, zs)        ->  [(u, v, w) for u, v, w in zip(xs, ys, zs)]
    enumerate(xs, 1)       ->  [(k, v) for k, v in enumerate(xs, 1)]
    {"a": x}, dict(a=x)    ->  make_mapping(("a",), (x,))      (runtime_mappings.py)
    {k: v for ...}         ->  make_mapping([k for ...], [v for ...])
    d.get(k, e)            ->  d[k] if k in d else e
    d.keys() / d.values() / d.items()  ->  lists built from mapping_keys(d)
    ys.extend(xs)          ->  ys = ys + list(xs)
    ys.insert(i, v)        ->  ys = ys[:i] + [v] + ys[i:]
    ys.pop(i)              ->  ys[i], then ys = ys[:i] + ys[i:][1:]
    rng.standard_normal(n) ->  kept as the call: its samples are constants of the derivative
    rs.randn(*shape)       ->  rs.standard_normal(shape)        (the same draw)

A lambda given as `key=` or mapped is substituted into the comprehension's element (its
parameters renamed to the comprehension's variables). Used by `normalize` (mixed into its
normalizer).
"""
import builtins
import dataclasses
import functools
import operator

import gast
import numpy

from ..errors import UnsupportedSyntaxError
from ..ir import build
from ..ir.build import dotted_path
from ..ir.primitives import RANDOM_METHODS
from ..ir.walk import walk_tree
from .. import runtime_flow
from .container_updates import ContainerUpdateMixin, located as _located
from .mapping_displays import MappingDisplayMixin


class PythonCallMixin(ContainerUpdateMixin, MappingDisplayMixin):
    """Builtins (max, min, sorted, reversed, divmod, map, zip) and methods of dicts, lists
    and random generators, lowered to operations normalize already knows."""

    def _builtin_call(self, target, expr):
        """(op, level) for a call of one of Python's builtins rewritten here, else None."""
        if not hasattr(expr, "lineno"):
            return None      # a call normalize writes itself (min of lengths for zip)
        if target is functools.reduce:
            return self._reduce(expr)
        rule = _BUILTIN_RULES.get(id(target)) if target is getattr(
            builtins, getattr(target, "__name__", ""), None) else None
        if rule is None:
            return None
        return rule(self, expr)

    def _value_method(self, expr):
        """(op, level) for `value.method(...)` of a dict, list or random generator, else
        None (array methods: desugar.py)."""
        func = expr.func
        receiver, method, args = func.value, func.attr, expr.args
        if isinstance(receiver, gast.Constant) and isinstance(receiver.value, str) \
                and callable(getattr(str, method, None)):
            # "W{}".format(i), "_".join(names): a string (a dict key) made from the
            # arguments, by str's own method (no array has it)
            call = self._runtime_call(getattr(str, method), [receiver] + list(args))
            call.keywords = expr.keywords
            return self._call(_located(call, expr))
        if method in RANDOM_METHODS:
            # a generator's draw, kept in place and in order: dead-code removal and
            # common-subexpression merging keep calls they do not know to be pure
            if method in _SHAPED_BY_ITEMS and len(args) == 1 \
                    and isinstance(args[0], gast.Starred) and not expr.keywords:
                # rs.randn(*shape) draws what rs.standard_normal(shape) draws
                method, args = _SHAPED_BY_ITEMS[method], [args[0].value]
            atom, level = self._atom(receiver)
            return self._call_with(build.attribute(atom, method), args, expr.keywords, level)
        if method == "shuffle":
            raise UnsupportedSyntaxError(
                "`shuffle` writes into the array it is given, which s2s_ad does not follow",
                self.smap.locate(expr), "index with drawn positions instead: "
                "x = x[rng.permutation(len(x))]")
        if method == "get" and 1 <= len(args) <= 2 and not expr.keywords:
            default = args[1] if len(args) == 2 else build.const(None)
            mapping = self._held(receiver)
            key = self._held(args[0])
            chosen = build.if_exp(build.compare(key, "In", build.clone(mapping)),
                                  build.subscript(build.clone(mapping), build.clone(key)),
                                  default)
            return self._lower(_located(chosen, expr))
        if method in ("keys", "values", "items") and not args and not expr.keywords:
            mapping = self._held(receiver)
            keys = self._runtime_call(runtime_flow.mapping_keys, [mapping])
            if method == "keys":
                return self._lower(_located(keys, expr))
            key = self.namer.fresh("key")
            item = build.subscript(build.clone(mapping), build.name(key))
            elt = item if method == "values" else build.tuple_([build.name(key), item])
            return self._lower(_located(build.list_comp(elt, key, keys), expr))
        if method == "pop" and len(args) == 1 and not expr.keywords \
                and isinstance(receiver, gast.Name) and self.res.is_value(receiver.id):
            return self._pop_at(receiver, args[0], expr)
        if method in ("extend", "insert"):
            raise UnsupportedSyntaxError(
                f"`.{method}(...)` is supported as a statement of its own",
                self.smap.locate(expr), f"write `{method}` on its own line, then use the list")
        if isinstance(receiver, gast.Name) and (
                method in _IN_PLACE_METHODS and self.res.is_value(receiver.id)
                and (method != "sort" or self._made_container(receiver.id))
                or method == "update" and self._made_container(receiver.id)):
            # the list or dict is changed where s2s_ad follows no value (it follows
            # assignments and index writes): a wrong derivative, without this error
            raise UnsupportedSyntaxError(
                f"`.{method}()` changes a list or dict in place, which s2s_ad does not "
                f"follow", self.smap.locate(expr), _IN_PLACE_METHODS.get(
                    method, "write the entries as index writes: d[k] = v"))
        return None

    def _shape_given_as_items(self, func, path, target, expr):
        """np.random.randn(*shape) -> np.random.standard_normal(shape) (the same draw from
        the same generator): the arguments of _call_target for it, else None."""
        owner = getattr(target, "__self__", None)
        name = getattr(target, "__name__", None)
        if not isinstance(owner, (numpy.random.RandomState, numpy.random.Generator)) \
                or name not in _SHAPED_BY_ITEMS or len(expr.args) != 1 or expr.keywords \
                or not isinstance(func, gast.Attribute):
            return None
        renamed = _SHAPED_BY_ITEMS[name]
        call = _located(build.call(build.attribute(build.clone(func.value), renamed),
                                   [expr.args[0].value]), expr)
        return call.func, f"{path.rsplit('.', 1)[0]}.{renamed}", getattr(owner, renamed), call

    # ---- builtins ---------------------------------------------------------------------
    def _extremum(self, expr, largest):
        keywords = {k.arg: k.value for k in expr.keywords}
        if not expr.args or set(keywords) - {"key"} or any(
                isinstance(a, gast.Starred) for a in expr.args):
            return None
        if len(expr.args) == 2 and not keywords:
            # max(a, b) -> b if b > a else a: Python's choice (the first on ties), as a
            # branch the backward sweep replays
            a, b = self._held(expr.args[0]), self._held(expr.args[1])
            chosen = build.if_exp(build.compare(b, "Gt" if largest else "Lt", a),
                                  build.clone(b), build.clone(a))
            return self._lower(_located(chosen, expr))
        seq = self._held(self._keys_if_mapping(expr.args[0], expr) if len(expr.args) == 1
                         else build.list_(expr.args))
        keys = seq if "key" not in keywords else self._held(
            self._mapped(keywords["key"], [seq], expr))
        index = self._runtime_call(runtime_flow.extremum_index,
                                   [keys, build.const(largest)])
        return self._lower(_located(build.subscript(build.clone(seq), index), expr))

    def _sorted(self, expr):
        keywords = {k.arg: k.value for k in expr.keywords}
        if len(expr.args) != 1 or set(keywords) - {"key", "reverse"}:
            return None
        seq = self._held(self._keys_if_mapping(expr.args[0], expr))
        keys = seq if "key" not in keywords else self._held(
            self._mapped(keywords["key"], [seq], expr))
        order = self._runtime_call(runtime_flow.sorted_order,
                                   [keys, keywords.get("reverse", build.const(False))])
        k = self.namer.fresh("k")
        chosen = build.list_comp(build.subscript(build.clone(seq), build.name(k)), k, order)
        return self._lower(_located(chosen, expr))

    def _keys_if_mapping(self, arg, expr):
        """sorted(d), max(d), min(d) of a dict go over its keys, as iterating over it does:
        `mapping_keys(d) if isinstance(d, dict) else d`, for any value that may be a dict
        (a parameter, a local `d = {...}`, an attribute); a list, tuple or comprehension
        written out is one already. (Indexing d with the positions of the sorted keys read
        its values instead, and then indexed d with them: a KeyError, or another value.)"""
        if isinstance(arg, (gast.List, gast.Tuple, gast.ListComp, gast.GeneratorExp)):
            return arg
        for name in ("isinstance", "dict"):
            self._check_builtin(name, expr)
        held = self._held(arg)
        return _located(build.if_exp(
            build.call(build.name("isinstance"), [build.clone(held), build.name("dict")]),
            self._runtime_call(runtime_flow.mapping_keys, [build.clone(held)]),
            build.clone(held)), expr)

    def _reversed(self, expr):
        if len(expr.args) != 1 or expr.keywords:
            return None
        value = build.subscript(expr.args[0], build.slice_(step=build.literal(-1)))
        return self._lower(_located(value, expr))

    def _divmod(self, expr):
        if len(expr.args) != 2 or expr.keywords:
            return None
        a, b = self._held(expr.args[0]), self._held(expr.args[1])
        pair = build.tuple_([gast.BinOp(left=a, op=gast.FloorDiv(), right=b),
                             gast.BinOp(left=build.clone(a), op=gast.Mod(),
                                        right=build.clone(b))])
        return self._lower(_located(pair, expr))

    def _map(self, expr):
        if len(expr.args) < 2 or expr.keywords:
            return None
        return self._lower(_located(
            self._mapped(expr.args[0], expr.args[1:], expr), expr))

    def _reduce(self, expr):
        """functools.reduce(f, xs[, initial]) as a running fold: total = xs[0] (or
        initial), then total = f(total, v) for v in xs[1:] (xs)."""
        if not 2 <= len(expr.args) <= 3 or expr.keywords \
                or any(isinstance(a, gast.Starred) for a in expr.args):
            return None
        function, seq = expr.args[0], self._held(expr.args[1])
        items = seq
        if len(expr.args) == 3:
            start = expr.args[2]
        else:
            start = _located(build.subscript(build.clone(seq), build.const(0)), expr)
            items = build.subscript(build.clone(seq), build.slice_(lower=build.const(1)))
        item = self.namer.fresh("item")
        self.res = dataclasses.replace(self.res, locals=self.res.locals | {item})
        loop = gast.GeneratorExp(elt=_located(build.name(item), expr), generators=[
            gast.comprehension(target=build.name(item, store=True), iter=items, ifs=[],
                               is_async=0)])
        return self._comprehension(_located(loop, expr), start=start, accumulate=lambda
                                   total, elt: self._applied(function, [total, elt], expr))

    def _enumerate(self, expr):
        """enumerate(xs, start) as a value: [(k, v) for k, v in enumerate(xs, start)]."""
        if not 1 <= len(expr.args) <= 2 or any(k.arg != "start" for k in expr.keywords):
            return None
        names = [self.namer.fresh("position"), self.namer.fresh("item")]
        pairs = build.list_comp(build.tuple_([build.name(n) for n in names]), names,
                                build.clone(expr))
        return self._lower(_located(pairs, expr))

    def _zip(self, expr):
        if not expr.args or expr.keywords or any(isinstance(a, gast.Starred)
                                                 for a in expr.args):
            return None         # (`zip(*rows)`: its iterables are not known here)
        names = [self.namer.fresh("item") for _ in expr.args]
        self._check_builtin("zip", expr)
        pairs = build.list_comp(build.tuple_([build.name(n) for n in names]), names,
                                build.call(build.name("zip"), expr.args))
        return self._lower(_located(pairs, expr))

    def _names_builtin(self, func, name):
        return isinstance(func, gast.Name) and func.id == name \
            and not self.res.is_value(name) and self.res.lookup(name) is getattr(builtins, name)

    # ---- helpers ----------------------------------------------------------------------
    def _mapped(self, function, iterables, node):
        """[function(v, w, ...) for v, w, ... in zip(*iterables)] as a comprehension; a
        lambda's body is substituted with its parameters renamed."""
        names = [self.namer.fresh("item") for _ in iterables]
        # values of f from here on (a lambda's `p.sum()` is a method of the item, not a
        # global named `item.sum`)
        self.res = dataclasses.replace(self.res, locals=self.res.locals | set(names))
        if isinstance(function, gast.Lambda):
            elt = self._applied(function, [build.name(n) for n in names], node)
        elif self._item_getter(function) is not None and len(iterables) == 1:
            # operator.itemgetter(0) (a key of sorted / max / min): v[0]
            picked = [build.subscript(build.name(names[0]), build.clone(i))
                      for i in self._item_getter(function)]
            elt = _located(picked[0] if len(picked) == 1 else build.tuple_(picked), node)
        else:
            elt = build.call(build.clone(function), [build.name(n) for n in names])
            _located(elt, node)
        if len(iterables) == 1:
            return _located(build.list_comp(elt, names[0], iterables[0]), node)
        self._check_builtin("zip", node)
        return _located(build.list_comp(elt, names, build.call(build.name("zip"),
                                                                list(iterables))), node)

    def _applied(self, function, args, node):
        """`function(*args)` as an expression; a lambda's body with its parameters
        replaced by the arguments (names or literals)."""
        if not isinstance(function, gast.Lambda):
            return _located(build.call(build.clone(function), list(args)), node)
        params = [a.id for a in function.args.args]
        if len(params) != len(args) or function.args.vararg or function.args.kwarg:
            raise UnsupportedSyntaxError(
                f"this lambda takes {len(params)} argument(s) but is given "
                f"{len(args)} at a time", self.smap.locate(function),
                "give the lambda one parameter per value it is given")
        body = build.clone(function.body)
        given = dict(zip(params, args))
        for n in walk_tree(body):
            for field, value in gast.iter_fields(n):
                if isinstance(value, gast.Name) and value.id in given:
                    setattr(n, field, build.clone(given[value.id]))
                elif isinstance(value, list):
                    value[:] = [build.clone(given[v.id]) if isinstance(v, gast.Name)
                                and v.id in given else v for v in value]
        if isinstance(body, gast.Name) and body.id in given:
            body = build.clone(given[body.id])
        return body

    def _item_getter(self, function):
        """The index literals of `operator.itemgetter(i, ...)` written in place, else None."""
        if not isinstance(function, gast.Call) or function.keywords or not function.args \
                or not all(isinstance(a, gast.Constant) for a in function.args):
            return None
        path = dotted_path(function.func)
        if path is None or self.res.is_value(path.split(".")[0]) \
                or self.res.lookup(path) is not operator.itemgetter:
            return None
        return function.args

    def _held(self, expr):
        """A name (or literal) holding `expr`'s value, usable in a rewritten expression."""
        atom, _ = self._atom(expr)
        if isinstance(atom, gast.Name):
            self.current.setdefault(atom.id, atom.id)
            self.levels.setdefault(atom.id, 0)
        return atom

    def _check_builtin(self, name, node):
        if self.res.is_value(name) or self.res.lookup(name) is not getattr(builtins, name):
            raise UnsupportedSyntaxError(
                f"this call is rewritten with the builtin `{name}`, which the function's "
                f"module redefines", self.smap.locate(node),
                f"write the loop out, or rename the module's `{name}`")


# RandomState's methods taking the shape as separate numbers, and the same draw taking it
# as one tuple
_SHAPED_BY_ITEMS = {"randn": "standard_normal", "rand": "random_sample"}

# list and dict methods that change the container in place -> what to write instead
_IN_PLACE_METHODS = {
    "reverse": "rebind it reversed: ys = ys[::-1]",
    "sort": "rebind it sorted: ys = sorted(ys) (np.sort(x) for an array)",
    "remove": "rebuild it without the item: ys = [y for y in ys if ...]",
    "clear": "rebind it empty: ys = [] (d = {})",
    "setdefault": "write `if k not in d: d[k] = v`, then read d[k]",
    "popitem": "read the entry, then rebuild the dict without it",
}


def updated_lists(tree):
    """Names of lists that `.extend`, `.insert` or `.pop(i)` update (and so rebind)."""
    return {node.func.value.id for node in walk_tree(tree)
            if isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute)
            and isinstance(node.func.value, gast.Name) and node.args
            and node.func.attr in ("extend", "insert", "pop")}


_BUILTIN_RULES = {
    id(builtins.max): lambda self, expr: self._extremum(expr, True),
    id(builtins.min): lambda self, expr: self._extremum(expr, False),
    id(builtins.sorted): PythonCallMixin._sorted,
    id(builtins.reversed): PythonCallMixin._reversed,
    id(builtins.divmod): PythonCallMixin._divmod,
    id(builtins.map): PythonCallMixin._map,
    id(builtins.zip): PythonCallMixin._zip,
    id(builtins.dict): lambda self, expr: self._dict(expr),
    id(builtins.enumerate): PythonCallMixin._enumerate,
}
