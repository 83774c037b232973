"""Normalizing calls whose function is a value: known while normalizing, or only when
the call runs (calls spreading a sequence into arguments: argument_spreads.py).

    apply(f, x) specialised on f = np.tanh  ->  t1_0 = f(x)             (np.tanh's template)
    ACTIVATIONS["relu"](x)                  ->  t1_0 = relu(x)          (relu bound by name)
    s2s_ad.grad(h)(x)                        ->  t1_0 = grad_h(x)        (evaluated once)
    acts[name](x)                            ->  t1_0 = acts[name]; t2_0 = (x,)
                                                 t3_0 = call_function(t1_0, t2_0)
    acts[name](x, beta=2.0)                  ->  (the keywords put at their positions then:
                                                 bound_arguments, runtime_keywords.py)

Used by `normalize` through CallMixin.
"""
import types

import gast
import numpy as np

from .. import runtime_functions, runtime_keywords
from ..errors import MissingDerivativeError
from ..ir import build
from ..ir.build import dotted_path
from ..ir.walk import walk_tree

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
        self._refuse_elementwise_wrapper(func)
        found = self._static_function(func)
        if found is _NOT_STATIC:
            return None
        name = self._bound_name(found)
        return build.name(name), name, found

    def _refuse_elementwise_wrapper(self, func):
        """`np.vectorize(g)(x)` (or a name bound once to np.vectorize / np.frompyfunc of g)
        runs g one item at a time inside numpy, where no derivative reaches: refused here,
        at the user's line, rather than from the call's vjp built when the code runs."""
        node = func
        for _ in range(4):
            if not (isinstance(node, gast.Name) and self.res.is_value(node.id)):
                break
            values, stores = self._bindings_in_source()
            if len(values.get(node.id, [])) != 1 or stores.get(node.id) != 1:
                return
            node = values[node.id][0]
        maker = dotted_path(node.func) if isinstance(node, gast.Call) else None
        if maker is None or self.res.is_value(maker.split(".")[0]) or not self.res.has(maker) \
                or self.res.lookup(maker) not in (np.vectorize, np.frompyfunc):
            return
        raise MissingDerivativeError(
            f"`{maker}(...)` makes a function that numpy calls one item at a time: no "
            f"derivative reaches through it", self.smap.locate(node),
            "call the function on the whole array (numpy's elementwise operations take "
            "arrays), or write a Python loop over the items")

    def _keyword_call(self, func, expr):
        """`act(x, beta=2.0)` of a function or object known only when the code runs: the
        keywords put at their parameters' positions then, and the call made by position,
        call_function(act, bound_arguments(act, (x,), ("beta",), (2.0,), "f.py:3")) (a
        derivative built for the arguments' kinds, which knows act, calls it by name)."""
        held = self._held(func)
        location = self.smap.locate(expr).portable()
        bound = self._runtime_call(runtime_keywords.bound_arguments, [
            held, build.tuple_(list(expr.args)),
            build.tuple_([build.const(k.arg) for k in expr.keywords]),
            build.tuple_([k.value for k in expr.keywords]),
            build.const(f"{location.filename}:{location.lineno}")])
        return self._call(build.with_location(self._runtime_call(
            runtime_functions.call_function, [held, bound]), expr))

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


def _shifted(wrt, held):
    """A `wrt` literal with its positions moved past `held` values (names unchanged), or
    None when it is not a literal."""
    if isinstance(wrt, gast.Constant) and isinstance(wrt.value, (int, str)) \
            and not isinstance(wrt.value, bool):
        return build.const(wrt.value + held if isinstance(wrt.value, int) else wrt.value)
    if isinstance(wrt, gast.Tuple) and all(isinstance(e, gast.Constant) for e in wrt.elts):
        return build.tuple_([_shifted(e, held) for e in wrt.elts])
    return None


def _bindings(tree):
    """({name: [values of its plain assignments]}, {name: how often it is stored})."""
    values, stores = {}, {}
    for node in walk_tree(tree):
        if isinstance(node, gast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], gast.Name):
            values.setdefault(node.targets[0].id, []).append(node.value)
        elif isinstance(node, gast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], gast.Tuple) \
                and isinstance(node.value, gast.Tuple) \
                and len(node.targets[0].elts) == len(node.value.elts) \
                and not any(isinstance(e, gast.Starred) for e in node.value.elts):
            # `p, q = Pair(a, b), Pair(c, d)`: each name is given its own value
            for target, value in zip(node.targets[0].elts, node.value.elts):
                if isinstance(target, gast.Name):
                    values.setdefault(target.id, []).append(value)
        elif isinstance(node, gast.Name) and isinstance(node.ctx, gast.Store):
            stores[node.id] = stores.get(node.id, 0) + 1
    return values, stores
