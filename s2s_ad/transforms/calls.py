"""Normalizing calls: functions, array methods, s2s_ad's own helpers and derivatives.

    np.exp(x * 2)      ->  t1_0 = x * 2; t2_0 = np.exp(t1_0)
    x.sum(axis=0)      ->  t1_0 = np.sum(x, axis=0)
    act(h)             ->  (the nested function's body, inlined)
    apply(act, x)      ->  (apply's body, inlined, act inlined where it calls it)
    jf(x, v)           ->  t1_0 = jvp_f(x, v)     (the generated function a jvp wraps)
    np.linalg.multi_dot([a, b, c])  ->  t1_0 = a @ b; t2_0 = t1_0 @ c
    partial(g, w)(x), h(x) for h = partial(g, w)  ->  g(w, x)

Used by `normalize` (mixed into its normalizer).
"""
import copy
import functools
import inspect
import types

import gast
import numpy

from ..calling_order import resolve_generated
from ..errors import UnsupportedSyntaxError
from ..ir.build import dotted_path
from ..ir import build
from ..runtime import RUNTIME_MODULES
from .. import (runtime_creation, runtime_flow, runtime_functions, runtime_objects,
               runtime_pieces, runtime_shape)
from ..frontend.star_params import (fixed_arity, fixed_count, keyword_names, spread_keywords,
                                    takes_variable_arguments)
from ..runtime_objects import constructible, defines_call, field_names, make_object
from . import desugar
from .argument_spreads import ArgumentSpreadMixin
from .function_values import FunctionValueMixin
from .generators import listed_generator
from .helper_inline import _LIBRARIES, HelperInlineMixin
from ..users_defs import is_users_def
from .object_calls import ObjectCallMixin
from .array_syntax import (AXIS_CONCATENATORS, axis_concatenation, einsum_subscripts,
                           piecewise_parts, piecewise_terms)


class CallMixin(FunctionValueMixin, ArgumentSpreadMixin, HelperInlineMixin, ObjectCallMixin):
    """Lowering of call expressions to one primitive operation over atoms."""

    def _call(self, expr):
        func = expr.func
        partial = self._partial_made_here(func)
        if partial is not None:
            # partial(g, a, k=v)(x) -> g(a, x, k=v): the values partial holds are f's, and
            # their derivatives flow through g's arguments
            merged = build.call(partial.args[0], list(partial.args[1:]) + list(expr.args),
                                [(k.arg, k.value) for k in partial.keywords + expr.keywords])
            return self._call(build.with_location(merged, expr))
        of_partial = self._gradient_of_partial(expr)
        if of_partial is not None:
            return self._call(of_partial)
        of_closure = self._gradient_of_closure(expr) or self._construction_call(expr)
        if of_closure is not None:
            return of_closure
        path = dotted_path(func)
        if isinstance(func, gast.Name) and func.id in self.nested:
            return self._inline(func.id, expr)
        if path in self.runtime_names.values():
            return self._call_with(build.dotted(path), expr.args, expr.keywords, 0)
        if path is None or self.res.is_value(path.split(".")[0]):
            if not isinstance(func, gast.Attribute):
                owner = self._receiver_class(func) if isinstance(func, gast.Name) else \
                    self._constructed_class(func) if isinstance(func, gast.Call) else None
                if owner is not None and isinstance(func, gast.Call) and defines_call(owner[0]):
                    # Poly(c)(t): the object held in a name, as on `p = Poly(c); p(t)`
                    func = self._held(func)
                    self.constructed[func.id] = owner
                    expr = build.with_location(build.call(func, expr.args, [
                        (k.arg, k.value) for k in expr.keywords]), expr)
                if owner is not None and owner[1] != "class" and defines_call(owner[0]):
                    # model(x) of an object whose class says what calling it runs:
                    # Model.__call__(model, x), differentiated through model's attributes
                    return self._method_call(func, "__call__", expr)
                held_classes = self._item_methods(func, "__call__")
                if held_classes:
                    # self.layers[k](x), `for layer in self.layers: x = layer(x)`: each item
                    # a Layer, Layer.__call__(item, x) through its attributes
                    return self._call_through_item_class(func, held_classes, "__call__", expr)
                known = self._function_value(func)
                if known is not None:
                    return self._call_target(*known, expr)
                if not expr.keywords and not any(isinstance(a, gast.Starred)
                                                 for a in expr.args):
                    # which function is known when the call runs (`acts[name](x)`, a
                    # helper's result): its vjp / jvp are derived then
                    held = self._held(func)
                    return self._call(build.with_location(self._runtime_call(
                        runtime_functions.call_function,
                        [held, build.tuple_(expr.args)]), expr))
                if any(isinstance(a, gast.Starred) for a in expr.args) \
                        or any(k.arg is None for k in expr.keywords):
                    what = f"`{func.id}` holds a function chosen when the code runs" \
                        if isinstance(func, gast.Name) else \
                        "this call's function is chosen when the code runs"
                    raise UnsupportedSyntaxError(
                        f"{what}: such a call is differentiated with its arguments written "
                        f"out, not spread from a value", self.smap.locate(expr),
                        "write the arguments out: f(x, w, scale=s)")
                return self._keyword_call(func, expr)
            receiver = func.value
            held_classes = self._item_methods(receiver, func.attr) \
                if isinstance(receiver, (gast.Name, gast.Subscript)) else None
            if held_classes:
                # `for layer in self.layers: x = layer.forward(x)`: Layer.forward(layer, x)
                return self._call_through_item_class(receiver, held_classes, func.attr, expr)
            if isinstance(receiver, gast.Name) and _own_method(
                    self._receiver_class(receiver), func.attr):
                return self._method_call(receiver, func.attr, expr)
            made = self._constructed_class(receiver)
            if _own_method(made, func.attr):
                # Adder(k).apply(x): the object held in a name, then its method called as
                # on `a = Adder(k); a.apply(x)`
                held = self._held(receiver)
                self.constructed[held.id] = made
                return self._method_call(held, func.attr, expr)
            lowered = self._value_method(expr)
            if lowered is not None:
                return lowered
            if func.attr == "pop" and not expr.args and not expr.keywords \
                    and isinstance(receiver, gast.Name) and receiver.id in self.current:
                # a list's pop (generated code pops its tape): kept as a method call
                name = self.current[receiver.id]
                self.multi_def.add(name)
                return build.call(build.attribute(build.name(name), "pop")), \
                    self.levels.get(name, 0) + 1
            if not hasattr(numpy.ndarray, func.attr) and path is not None:
                # m.act(x), self.layer.act(x): a function an object holds (no array has
                # such a method; a method of a value made here, `norm(0, 1).logpdf(x)`,
                # stays the located error below)
                return self._attribute_function_call(func, None, expr)
            item = desugar.item_read(receiver, func.attr, expr, self.np)
            if item is not None:
                self.callees.setdefault(f"{self.np}.reshape", numpy.reshape)
                self.callees.setdefault(f"{self.np}.ravel", numpy.ravel)
                return self._operation(item)
            if func.attr == "tolist" and not expr.args and not expr.keywords:
                # x.tolist(): nested lists of Python numbers; its adjoint is x's shape
                call = self._runtime_call(runtime_shape.array_tolist, [receiver])
                return self._call(build.with_location(call, expr))
            fname, args, keywords = desugar.method_call(receiver, func.attr, expr.args,
                                                        expr.keywords, expr, self.smap)
            return self._numpy_call(fname, args, keywords, 0, expr)
        self._check_bound(path, func)
        return self._call_target(func, path, self.res.lookup(path), expr)

    def _partial_made_here(self, func):
        """The `functools.partial(g, ...)` call a callee is, written in place or bound once
        to a local name (`h = partial(g, w)`), else None."""
        if isinstance(func, gast.Name) and self.res.is_value(func.id):
            values, stores = self._bindings_in_source()
            if len(values.get(func.id, [])) != 1 or stores.get(func.id) != 1:
                return None
            func = values[func.id][0]
        if not isinstance(func, gast.Call) or not func.args \
                or any(isinstance(a, gast.Starred) for a in func.args) \
                or any(k.arg is None for k in func.keywords):
            return None
        path = dotted_path(func.func)
        if path is None or self.res.is_value(path.split(".")[0]) or not self.res.has(path) \
                or self.res.lookup(path) is not functools.partial:
            return None
        return func

    def _call_target(self, func, path, target, expr):
        """The call `expr` of `target`, which the code names `path` (`func`)."""
        lowered = self._builtin_call(target, expr)
        if lowered is not None:
            return lowered
        listed = self.__dict__.setdefault("_listed_calls", set())
        if id(expr) not in listed and not self.res.is_value("list") \
                and self.res.lookup("list") is list and listed_generator(target):
            # a generator of yours read as the list of its items (transforms/generators.py)
            listed.add(id(expr))
            return self._call(build.with_location(build.call(build.name("list"), [expr]), expr))
        if self._passes_local_function(expr):
            # apply(act, x), apply(lambda z: ..., x): the def is inlined into f
            return self._inline_helper(target, expr)
        held = not inspect.isclass(target) and defines_call(type(target)) \
            and is_users_def(type(target).__call__)
        if held or inspect.ismethod(target) and isinstance(expr.func, gast.Attribute) \
                and is_users_def(target.__func__):
            # model.loss(x) of a module-level object of your own class (or Cls.make(x)
            # of a classmethod; never log.debug(...) of a logging.Logger), act(x) of a
            # module-level callable object: Model.loss(model, x), Act.__call__(act, x),
            # the def differentiated like any helper (the bound method itself has no
            # derivative); S.step(u) writing into u is inlined so
            function = type(target).__call__ if held else target.__func__
            name = self._bound_name(function)
            receiver = expr.func if held else expr.func.value
            method = build.with_location(build.call(
                build.name(name), [build.clone(receiver)] + list(expr.args),
                [(k.arg, k.value) for k in expr.keywords]), expr)
            obj = target if held else target.__self__
            # a module-level callable object is inlined, its class known inside (a helper
            # of its own would not know the class of the global it is given)
            if held or not inspect.isclass(obj) and self._writes_of_method(
                    function, type(obj), expr, True, getattr(obj, "__dict__", None)):
                call = self._function_call(function, method.args, method.keywords, expr)
                if isinstance(call, gast.Call):
                    return self._inline_method(function, type(obj), call, "is called on a "
                                               "module-level object" if held else
                                               "writes into an argument it is given")
            return self._call_target(build.name(name), name, function, method)
        if self._writes_into_arguments(target) and not takes_variable_arguments(target):
            # scale_(t) with `q *= 2.0` inside: the write changes f's t, which only f's
            # own derivative can follow, so the def is inlined into f (one taking *args or
            # **kwargs once the call has fixed them, below: its adapter is inlined)
            return self._inline_helper(target, expr, "writes into an argument it is given")
        if any(isinstance(a, gast.Starred) for a in expr.args):
            shaped = self._shape_given_as_items(func, path, target, expr)
            if shaped is not None:
                return self._call_target(*shaped)
            expr = self._spread_arguments(target, expr)
            if not isinstance(expr, gast.Call):         # made when the code runs: lowered
                return expr
        if any(k.arg is None for k in expr.keywords):
            expr = self._spread_keywords(expr)          # f(x, **opts): opts' keys, known
        if takes_variable_arguments(target) and not (getattr(target, "__module__", None)
                                                     or "").startswith(_LIBRARIES):
            # f(a, b, c) of `def f(x, *rest)`: the helper f with two items in rest;
            # f(x, scale=s) of `def f(x, **opts)`: with the keyword `scale` in opts
            spread = spread_keywords(target, [k.arg for k in expr.keywords])
            adapter = fixed_arity(target, max(0, len(expr.args) - fixed_count(target)), spread)
            renamed = keyword_names(target, spread)
            expr = build.with_location(build.call(expr.func, expr.args, [
                (renamed.get(k.arg, k.arg), k.value) for k in expr.keywords]), expr)
            name = self._bound_name(adapter)
            return self._call_target(build.name(name), name, adapter, expr)
        if target is list and len(expr.args) == 1 and self._made_as_dict(expr.args[0]):
            return self._call(build.with_location(self._runtime_call(   # list(d): its keys
                runtime_flow.mapping_keys, expr.args), expr))
        if target in (list, tuple) and len(expr.args) == 1 and not expr.keywords \
                and isinstance(expr.args[0], (gast.List, gast.Tuple)) \
                and not any(isinstance(e, gast.Starred) for e in expr.args[0].elts):
            # list((a, b)) is the display [a, b] (a call would be read as [(a, b)])
            display = gast.List if target is list else gast.Tuple
            return self._lower(build.with_location(
                display(elts=expr.args[0].elts, ctx=gast.Load()), expr))
        if target in (copy.copy, copy.deepcopy) and len(expr.args) == 1 and not expr.keywords:
            # copy.deepcopy(params) in f: a copy, differentiated as the identity
            call = self._runtime_call(runtime_objects.copied,
                                      [expr.args[0], build.const(target is copy.deepcopy)])
            return self._call(build.with_location(call, expr))
        if target is numpy.piecewise:
            return self._piecewise(expr)
        if target is numpy.linalg.multi_dot and len(expr.args) == 1 and not expr.keywords \
                and isinstance(expr.args[0], (gast.List, gast.Tuple)) \
                and len(expr.args[0].elts) >= 2 \
                and not any(isinstance(e, gast.Starred) for e in expr.args[0].elts):
            # multi_dot([A, B, C]) is A @ B @ C (1-D ends read as a row and a column, as
            # matmul reads them); only the rounding of its chosen order differs
            chain = expr.args[0].elts[0]
            for factor in expr.args[0].elts[1:]:
                chain = gast.BinOp(left=chain, op=gast.MatMult(), right=factor)
            return self._lower(build.with_location(chain, expr))
        if constructible(target) and not any(
                isinstance(a, gast.Starred) for a in expr.args) and _fills_in_order(
                target, len(expr.args), [k.arg for k in expr.keywords]):
            # P(w, b=b) of a dataclass or namedtuple: make_object(P, (w, b))
            values = list(expr.args) + list(k.value for k in expr.keywords)
            call = self._runtime_call(make_object, [build.dotted(path), build.tuple_(values)])
            return self._call(build.with_location(call, expr))
        rewritten = desugar.ufunc_method(target, expr.args, expr.keywords, expr, self.smap)
        if rewritten is not None and rewritten[0] == "reduce":
            return self._numpy_call(*rewritten[1:], 0, expr)
        if rewritten is not None:
            # np.F.outer(a, b): F of a with b's axes appended, and b
            a, _ = self._atom(expr.args[0])
            b, _ = self._atom(expr.args[1])
            left = self._runtime_call(runtime_shape.outer_operand, [a, build.clone(b)])
            return self._numpy_call(rewritten[1], [build.with_location(left, expr), b],
                                    expr.keywords, 0, expr)
        if target is numpy.einsum:
            sublists = einsum_subscripts(expr, self.smap)
            expr = sublists if sublists is not None else expr
        if getattr(target, "__module__", None) in RUNTIME_MODULES:
            # s2s_ad.stop_gradient and friends: bound by name, never `s2s_ad.` in the code
            call = self._runtime_call(target, expr.args)
            call.keywords = expr.keywords
            return self._call(call)
        generated = resolve_generated(target)
        if generated is not None:
            # jf(x, w, tangent) -> jvp_f(x, w, tangent): the generated function, bound by
            # name; it takes every argument (f's defaults are filled in by jf only)
            self._check_every_argument(generated, expr)
            call = self._runtime_call(generated, list(expr.args))
            call.keywords = expr.keywords
            return self._call(call)
        callee = target
        for _ in range(3):       # a dispatcher -> its general derivative, built on demand
            callee = getattr(callee, "__s2s_callee__", None) or callee
        self.callees[path] = callee
        args = expr.args
        if isinstance(target, numpy.ufunc):
            args = [self._as_array(a) for a in args]
        return self._call_with(build.dotted(path), args, expr.keywords, 0)

    def _as_array(self, arg):
        """A ufunc's list or tuple display operand as the array numpy makes of it
        (np.maximum([x, 2 * x], 0.5) compares arrays, not a list with a number)."""
        if not isinstance(arg, (gast.List, gast.Tuple)) \
                or any(isinstance(e, gast.Starred) for e in arg.elts):
            return arg
        op, level = self._numpy_call("asarray", [arg], [], 0, arg)
        return self._bound_to_temp(build.with_location(op, arg), level)[0]

    def _check_every_argument(self, generated, expr):
        params = inspect.signature(generated).parameters.values()
        given = len(expr.args) + len([k for k in expr.keywords if k.arg is not None])
        if given < len(params) or any(isinstance(a, gast.Starred) for a in expr.args):
            raise UnsupportedSyntaxError(
                f"a call of a derivative inside differentiated code passes every argument "
                f"of `{generated.__name__}` ({', '.join(p.name for p in params)})",
                self.smap.locate(expr), "pass the arguments left to their defaults too, "
                "then the (co)tangent")

    def _piecewise(self, expr):
        """np.piecewise as a sum of one term per function (array_syntax.piecewise_terms),
        x and the masks computed once."""
        x, condlist, items = piecewise_parts(expr, self.smap)
        array = self._bound_to_temp(*self._numpy_call("asarray", [x], [], 0, expr))[0]
        masks_call = self._runtime_call(runtime_pieces.piecewise_masks,
                                        [array, condlist, build.const(len(items))])
        masks = self._bound_to_temp(*self._call(build.with_location(masks_call, expr)))[0]

        def spread(value, mask):
            return self._runtime_call(runtime_pieces.spread_masked, [value, mask])
        total = piecewise_terms(items, array, masks, self._names_function, spread, self.smap)
        for node in gast.walk(total):           # errors inside point at the call
            if getattr(node, "lineno", None) is None:
                build.with_location(node, expr)
        return self._lower(total)

    def _names_function(self, node):
        """Does a funclist item name a function (a nested def or lambda, or a global)?"""
        if isinstance(node, gast.Name) and node.id in self.nested:
            return True
        path = dotted_path(node)
        return path is not None and not self.res.is_value(path.split(".")[0]) \
            and self.res.has(path) and callable(self.res.lookup(path))

    def _axis_concatenation(self, expr):
        """np.r_[...] / np.c_[...] (array_syntax.py) as a call, lowered; None for other
        subscripts."""
        path = dotted_path(expr.value)
        if path is None or self.res.is_value(path.split(".")[0]) or not self.res.has(path) \
                or id(self.res.lookup(path)) not in AXIS_CONCATENATORS:
            return None
        np_name = path.rsplit(".", 1)[0] if "." in path else self.np
        if not self.res.has(np_name) or self.res.lookup(np_name) is not numpy:
            raise UnsupportedSyntaxError(
                f"`{path}[...]` is differentiated when numpy is imported as a module",
                self.smap.locate(expr), "import numpy as np, then np.r_[...] / np.c_[...]")
        call = axis_concatenation(
            expr, np_name, AXIS_CONCATENATORS[id(self.res.lookup(path))],
            lambda item: self._runtime_call(runtime_creation.column_item, [item]), self.smap)
        return self._call(build.with_location(call, expr))

    def _numpy_call(self, fname, args, keywords, level, node):
        path = f"{self.np}.{fname}"
        self.callees[path] = getattr(numpy, fname)
        return self._call_with(build.dotted(path), args, keywords, level)

    def _call_with(self, func, args, keywords, level):
        atoms = []
        for a in args:
            if isinstance(a, gast.Starred):
                raise UnsupportedSyntaxError(
                    "a starred argument is differentiated in calls of functions taking a "
                    "fixed number of positional parameters", self.smap.locate(a),
                    "pass the items one by one: f(xs[0], xs[1]) (a shape as one tuple: "
                    "rng.standard_normal(shape))")
            atom, lvl = self._atom(a)
            atoms.append(atom)
            level = max(level, lvl + 1)
        kws = []
        for kw in keywords:
            atom, lvl = self._atom(kw.value)
            kws.append((kw.arg, atom))
            level = max(level, lvl + 1)
        return build.call(func, atoms, kws), max(level, 1)


def _fills_in_order(cls, positional, keywords):
    """Do `positional` values then these keywords fill cls's first fields, in order?"""
    names = field_names(cls)
    return None not in keywords and keywords == names[positional:positional + len(keywords)]


def _own_method(found, attr):
    """Is `attr` a method of `found`'s class: a name no array has, or a def of its own?"""
    return bool(found) and (not hasattr(numpy.ndarray, attr) or isinstance(
        inspect.getattr_static(found[0], attr, None), (types.FunctionType, staticmethod,
                                                       classmethod)))
