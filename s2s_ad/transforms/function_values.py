"""Normalizing calls whose function is a value: known while normalizing, or only when
the call runs, and calls spreading a sequence into arguments.

    apply(f, x) specialised on f = np.tanh  ->  t1_0 = f(x)             (np.tanh's template)
    ACTIVATIONS["relu"](x)                  ->  t1_0 = relu(x)          (relu bound by name)
    s2s_ad.grad(h)(x)                        ->  t1_0 = grad_h(x)        (evaluated once)
    acts[name](x)                            ->  t1_0 = acts[name]; t2_0 = (x,)
                                                 t3_0 = call_function(t1_0, t2_0)
    h(*xs) for def h(a, b)                   ->  assert len(xs) == 2; h(xs[0], xs[1])

Used by `normalize` through CallMixin.
"""
import builtins
import inspect
import types

import gast

from ..errors import UnsupportedSyntaxError
from ..ir import build
from ..ir.build import dotted_path
from ..ir.walk import walk_tree
from ..frontend.star_params import takes_star_args

_NOT_STATIC = object()
# the modules of s2s_ad's derivative makers (grad, jvp, hvp, ...), evaluated while
# normalizing when their arguments are named functions
_DERIVATIVE_MAKERS = ("s2s_ad.api", "s2s_ad.higher_order")


class FunctionValueMixin:
    """Which function a call reaches when its callee is a value."""

    def _function_value(self, func):
        """(callee node, path, function) when the function a call expression names is
        known while normalizing: a parameter whose function the signature gives, an item of
        a module-level dict under a constant key (`ACTIVATIONS["relu"]`), s2s_ad's own
        derivative of a named function (`s2s_ad.grad(h)`), or a local name assigned one of
        those once. None otherwise."""
        if isinstance(func, gast.Name) and func.id in self.known_functions \
                and func.id not in self._bindings_in_source()[1]:
            return build.name(func.id), func.id, self.known_functions[func.id]
        found = self._static_function(func)
        if found is _NOT_STATIC:
            return None
        name = self._bound_name(found)
        return build.name(name), name, found

    def _bound_name(self, obj):
        """The name generated code calls `obj` by (bound like a runtime helper)."""
        name = self.runtime_names.get(obj)
        if name is None:
            base = getattr(obj, "__name__", "")
            name = self.namer.fresh(base if base.isidentifier() else "function")
            self.runtime_names[obj] = name
        return name

    def _static_function(self, node, depth=0):
        if isinstance(node, gast.Name) and node.id in self.nested \
                and node.id not in self.current and depth:
            used = getattr(node, "lineno", None)
            if used is not None and getattr(self.nested[node.id], "lineno", 0) >= used:
                return _NOT_STATIC      # read before its def runs: Python raises there
            found = self._closed_nested(node.id)
            return found if found is not None else _NOT_STATIC
        if isinstance(node, gast.Name) and self.res.is_value(node.id) and depth < 4:
            values, stores = self._bindings_in_source()
            values = values.get(node.id, [])
            if len(values) != 1 or stores.get(node.id) != 1:
                return _NOT_STATIC
            return self._static_function(values[0], depth + 1)
        path = dotted_path(node)
        if path is not None:
            if self.res.is_value(path.split(".")[0]) or not self.res.has(path):
                return _NOT_STATIC
            found = self.res.lookup(path)
            return found if callable(found) and depth else _NOT_STATIC
        if isinstance(node, gast.Subscript) and isinstance(node.slice, gast.Constant):
            table = dotted_path(node.value)
            if table is None or self.res.is_value(table.split(".")[0]) \
                    or not isinstance(self.res.lookup(table), (dict, list, tuple)):
                return _NOT_STATIC
            try:
                found = self.res.lookup(table)[node.slice.value]
            except (KeyError, IndexError, TypeError):
                return _NOT_STATIC
            return found if callable(found) else _NOT_STATIC
        if isinstance(node, gast.Call) and all(isinstance(k.value, gast.Constant)
                                               for k in node.keywords):
            maker = dotted_path(node.func)
            if maker is None or self.res.is_value(maker.split(".")[0]) or getattr(
                    self.res.lookup(maker), "__module__", None) not in _DERIVATIVE_MAKERS:
                return _NOT_STATIC
            args = [self._static_function(a, depth + 1) if not isinstance(a, gast.Constant)
                    else a.value for a in node.args]
            if any(a is _NOT_STATIC for a in args):
                return _NOT_STATIC
            return self.res.lookup(maker)(*args, **{k.arg: k.value.value
                                                    for k in node.keywords})
        return _NOT_STATIC

    def _gradient_of_closure(self, expr):
        """`s2s_ad.grad(inner)(x)` (any derivative maker, its options literals) with inner
        a nested def reading f's variables: the derivative of inner lifted to take them
        as parameters after its own (transforms/lifted.py), called with their values
        here. The derivative is evaluated once, as for a module-level function. None for
        another call."""
        from .lifted import given_def, lifted
        maker = expr.func
        if not (isinstance(maker, gast.Call) and len(maker.args) == 1
                and all(isinstance(k.value, gast.Constant) for k in maker.keywords)
                and not any(isinstance(a, gast.Starred) for a in expr.args)):
            return None
        fdef = given_def(maker.args[0], self.nested, self.current)
        path = dotted_path(maker.func)
        if fdef is None or path is None or self.res.is_value(path.split(".")[0]) or getattr(
                self.res.lookup(path), "__module__", None) not in _DERIVATIVE_MAKERS:
            return None
        found = lifted(self.parsed.func, fdef, self.res.is_value,
                       self.smap.first_line + fdef.lineno - 1)
        if found is None:
            return None
        function, extra = found
        derivative = self.res.lookup(path)(function, **{k.arg: k.value.value
                                                        for k in maker.keywords})
        name = self._bound_name(derivative)
        call = build.with_location(build.call(
            build.name(name), list(expr.args) + [build.name(v) for v in extra],
            [(k.arg, k.value) for k in expr.keywords]), expr)
        return self._call_target(build.name(name), name, derivative, call)

    def _gradient_of_partial(self, expr):
        """`s2s_ad.grad(h)(x)` (or value_and_grad) with h a functools.partial made in f,
        `h = partial(loss, a, X=X)`, as `s2s_ad.grad(loss, wrt=1)(a, x, X=X)`: the held
        values are f's, so the gradient is taken of the function itself, `wrt` counting
        past the values the partial holds in front (a name stays a name). None for any
        other call."""
        maker = expr.func
        if not (isinstance(maker, gast.Call) and maker.args and len(maker.args) == 1):
            return None
        path = dotted_path(maker.func)
        if path is None or self.res.is_value(path.split(".")[0]) or not self.res.has(path):
            return None
        from .. import api
        if self.res.lookup(path) not in (api.grad, api.value_and_grad):
            return None
        made = self._partial_made_here(maker.args[0])
        if made is None:
            return None
        held = len(made.args) - 1
        keywords = []
        for k in maker.keywords:
            value = k.value
            if k.arg in ("wrt", "argnums"):
                shift = _shifted(value, held)
                if shift is None:
                    return None
                value = shift
            keywords.append((k.arg, value))
        if not any(k in ("wrt", "argnums") for k, _ in keywords) and held:
            keywords.append(("wrt", build.const(held)))
        derivative = build.call(build.clone(maker.func), [build.clone(made.args[0])], keywords)
        call = build.call(derivative, [build.clone(a) for a in made.args[1:]] + list(expr.args),
                          [(k.arg, build.clone(k.value)) for k in made.keywords]
                          + [(k.arg, k.value) for k in expr.keywords])
        return build.with_location(call, expr)

    def _closed_nested(self, name):
        """The function object the nested def `name` makes when f runs, when it reads
        none of f's variables and has no defaults (so every call of f makes the same
        one): built from its code object, which f's code holds (`s2s_ad.grad(inner)(y)`
        in f then differentiates it as a module-level function). None otherwise."""
        fdef = self.nested[name]
        if not isinstance(fdef, gast.FunctionDef) or fdef.args.defaults \
                or any(d is not None for d in fdef.args.kw_defaults):
            return None
        from .lifted import code_of
        func = getattr(self.parsed.func, "__code__", None)
        code = None if func is None else code_of(func, name,
                                                 self.smap.first_line + fdef.lineno - 1)
        if code is None or code.co_freevars:
            return None
        made = types.FunctionType(code, self.parsed.func.__globals__, name)
        made.__qualname__ = code.co_qualname if hasattr(code, "co_qualname") else name
        return made

    def _bindings_in_source(self):
        """({name: [values of its plain assignments]}, {name: how often it is stored}) of
        the user's function, worked out once."""
        found = getattr(self, "_source_bindings", None)
        if found is None:
            found = self._source_bindings = _bindings(self.parsed.tree)
        return found

    def _binding_of(self, name):
        """(values of its plain assignments, how often it is stored, the def binding it)
        for a name of f's source or of a def of yours inlined into f (whose names are
        fresh: `kwargs_1 = {}` of `Module.__call__(self, *args, **kwargs)` inlined)."""
        values, stores = self._bindings_in_source()
        if name in stores:
            return values.get(name, []), stores[name], self.parsed.tree
        read = self.__dict__.setdefault("_inlined_bindings", {})   # id(def) -> bindings
        for tree in reversed(getattr(self, "_inlined_defs", ())):
            if id(tree) not in read:
                read[id(tree)] = _bindings(tree)
            values, stores = read[id(tree)]
            if name in stores:
                return values.get(name, []), stores[name], tree
        return [], 0, self.parsed.tree

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


def _shifted(wrt, held):
    """A `wrt` literal with its positions moved past `held` values (names unchanged), or
    None when it is not a literal."""
    if isinstance(wrt, gast.Constant) and isinstance(wrt.value, (int, str)) \
            and not isinstance(wrt.value, bool):
        return build.const(wrt.value + held if isinstance(wrt.value, int) else wrt.value)
    if isinstance(wrt, gast.Tuple) and all(isinstance(e, gast.Constant) for e in wrt.elts):
        return build.tuple_([_shifted(e, held) for e in wrt.elts])
    return None


def _takes(target, count, keywords):
    """Does `target` take `count` positional arguments and these keywords?"""
    try:
        inspect.signature(target).bind(*range(count), **{k.arg: None for k in keywords})
    except (TypeError, ValueError):
        return False
    return True


def _bindings(tree):
    """({name: [values of its plain assignments]}, {name: how often it is stored})."""
    values, stores = {}, {}
    for node in walk_tree(tree):
        if isinstance(node, gast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], gast.Name):
            values.setdefault(node.targets[0].id, []).append(node.value)
        elif isinstance(node, gast.Name) and isinstance(node.ctx, gast.Store):
            stores[node.id] = stores.get(node.id, 0) + 1
    return values, stores


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
