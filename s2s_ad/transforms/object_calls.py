"""Normalizing calls on objects whose class is known while normalizing: `self` / `cls` of
the method differentiated, an object made in f, an object argument whose class the
signature gives (and the objects it holds).

    self.helper(x)           ->  helper(self, x)               (the class's def, by name)
    model(x)                 ->  __call__(model, x)            (a class with def __call__)
    self.l1(x)               ->  __call__(self.l1, x)          (a callable object it holds)
    self.act(x)              ->  tanh(x)                       (a function it holds)
    layer(x), layer in a list of Dense and Tanh  ->  Dense.__call__(as_instance(layer,
                             Dense), x) if has_class(layer, Dense) else Tanh.__call__(...)
    self.scale               ->  scale(self)                   (a @property's getter)

Used by `normalize` through CallMixin (calls.py).
"""
import inspect
import types

import gast
import numpy

from ..errors import UnsupportedSyntaxError
from ..ir import build
from ..ir.build import dotted_path
from .. import runtime_functions, runtime_objects
from ..frontend.star_params import (fixed_arity, fixed_count, keyword_names, spread_keywords,
                                    takes_variable_arguments)
from ..runtime_objects import constructible, defines_call, field_names, subclasses_of
from ..analyses.argument_writes import parameter_writes
from ..analyses.forwarding import forwards, passes_on
from ..analyses.argument_calls import Known
from ..refusals import write_refusal
from .helper_inline import _LIBRARIES       # (functions taking *args there are primitives)
from .object_paths import ObjectPathMixin
from .object_replace import ObjectReplaceMixin


class ObjectCallMixin(ObjectPathMixin, ObjectReplaceMixin):
    """Calls and property reads on objects of a known class."""

    def _operator_method(self, expr):
        """`a + b`, `-a` where a's class is known while normalizing (a constructor call,
        a name made once in f, self, an argument the signature gives) and defines the
        operator's method with def: the call `a.__add__(b)`, differentiated as its methods
        are (the derivative of `+` adds the objects' fields: a wrong gradient where
        __add__ does anything else). None otherwise."""
        found = self._operator_of(expr)
        if found is None:
            return None
        name, operand, other, found = found
        binary = isinstance(expr, gast.BinOp)
        method = getattr(found[0], name, None)
        if not inspect.isfunction(method) \
                or (method.__module__ or "").split(".")[0] in _LIBRARIES:
            return None
        if not isinstance(operand, gast.Name):
            operand = self._held(operand)       # Vec(a, b) + w: the object in a name
            self.constructed[operand.id] = found
        func = build.with_location(gast.Attribute(value=build.clone(operand), attr=name,
                                                  ctx=gast.Load()), expr)
        call = build.with_location(gast.Call(func=func, args=[other] if binary else [],
                                             keywords=[]), expr)
        return self._method_call(operand, name, call)

    def _iter_method(self, it):
        """`bag.__iter__()` for the iterable `bag` (a name or a constructor call) of a
        class of yours known while normalizing whose __iter__ is a generator (its items
        read as a list), else None (`return iter(self.layers)`: the loop as before)."""
        found = self._receiver_class(it) if isinstance(it, gast.Name) else \
            self._constructed_class(it)
        method = getattr(found[0], "__iter__", None) if found and found[1] != "class" \
            else None
        if not inspect.isgeneratorfunction(method):
            return None
        func = gast.Attribute(value=build.clone(it), attr="__iter__", ctx=gast.Load())
        return build.with_location(gast.Call(func=build.with_location(func, it), args=[],
                                             keywords=[]), it)

    def _item_method(self, expr):
        """`s[i]` of an object whose class (known while normalizing) defines
        `__getitem__`: the call `s.__getitem__(i)`, differentiated as its methods are
        (read as a subscript, the derivative took s for a sequence of numbers: a zero
        gradient). None otherwise (a slice: runtime_flow.scatter_add refuses it)."""
        if not isinstance(expr.value, gast.Name) or isinstance(expr.slice, gast.Slice) \
                or isinstance(expr.slice, gast.Tuple) and any(
                    isinstance(e, gast.Slice) for e in expr.slice.elts):
            return None
        found = self._receiver_class(expr.value)
        method = getattr(found[0], "__getitem__", None) if found and found[1] != "class" \
            else None
        if not inspect.isfunction(method) \
                or (method.__module__ or "").split(".")[0] in _LIBRARIES:
            return None
        func = gast.Attribute(value=build.clone(expr.value), attr="__getitem__",
                              ctx=gast.Load())
        return build.with_location(gast.Call(func=build.with_location(func, expr),
                                             args=[expr.slice], keywords=[]), expr)

    def _call_through_item_class(self, item, classes, attr, expr):
        """`layer(x)` (attr "__call__") or `layer.forward(x)` of an item of a list of
        objects whose classes the signature gives: `Layer.__call__(layer, x)`, and for a
        list mixing classes the method of the item's own class, on the item known as an
        instance of it (so the methods that method calls on self are its class's):
        `Dense.__call__(as_instance(layer, Dense), x) if has_class(layer, Dense) else
        Tanh.__call__(as_instance(layer, Tanh), x)` (the last needs no test: the
        dispatching guard holds the classes)."""
        method = inspect.getattr_static(classes[0], attr)
        if all(inspect.getattr_static(cls, attr) is method for cls in classes) \
                and passes_on(method, classes):
            # each class's method `return self.forward(*args)`: their forward called
            return self._call_through_item_class(item, classes, forwards(method),
                                                 _passed_on(item, expr, method))
        call = None
        for cls in reversed(classes):
            method = inspect.getattr_static(cls, attr)
            writes = self._writes_of_method(method, cls, expr, inline=len(classes) == 1)
            receiver = build.clone(item)
            if len(classes) > 1:
                receiver = self._runtime_call(runtime_objects.as_instance,
                                              [receiver, self._class_name(cls)])
            this = self._function_call(method,
                                       [receiver] + list(expr.args),
                                       [build.clone(k) for k in expr.keywords], expr)
            if not isinstance(this, gast.Call):
                raise UnsupportedSyntaxError(
                    f"`.{attr}(...)` of an item of a list of objects takes a starred "
                    f"argument whose length is known only when the code runs",
                    self.smap.locate(expr), "pass the items one by one: f(xs[0], xs[1])")
            if writes:
                # one class whose method writes into its argument: inlined, so f's
                # derivative follows the write (as for a def called by name)
                return self._inline_method(method, cls, this)
            call = this if call is None else build.with_location(build.if_exp(
                self._runtime_call(runtime_objects.has_class,
                                   [build.clone(item), self._class_name(cls)]),
                this, call), expr)
        if isinstance(call, gast.Call):
            return self._call(call)
        return self._if_expression(call)

    def _writes_of_method(self, function, owner, expr, inline, held=None):
        """Does the method `function` of `owner`, called at `expr` on an object of that
        class, write into an argument it is given (not into the object itself), itself or
        through the methods it calls on the object (`self.forward(*args)`)? Then it is
        inlined where it can be (`inline`: _inline_method), else the located error: a
        derivative of its own would not tell f's derivative that f's value changed
        (analyses/argument_writes.py). One updating the object's own state (`self.calls
        += 1`, a BatchNorm's running mean, there or in what it calls) is inlined too where
        it can be: its state update is then in f's forward sweep, run once by every
        derivative of f (a vjp of its own would run it again under hvp)."""
        if not inspect.isfunction(function):
            return False
        first = next(iter(inspect.signature(function).parameters), None)
        found = parameter_writes(function, owner, held)
        writes = {p: at for p, at in found.items() if p != first}
        if not writes:
            return inline and first in found
        if inline:
            return True
        name = sorted(writes)[0]
        raise write_refusal(function, writes[name], "value", self.smap.locate(expr))

    def _held_by(self, path):
        """{attribute: the function, or the class standing for an object of it} the
        signature says the object at `path` (`m`, `self.block`) holds, for the writes of
        a call it makes (`self.act(x)`): analyses/argument_writes.parameter_writes."""
        prefix, held = f"{path}.", {}
        for key, value in self.known_functions.items():
            rest = key[len(prefix):] if key.startswith(prefix) else ""
            if rest.endswith(".__class__") and rest.count(".") == 1 and "[" not in rest:
                held.setdefault(rest[:-len(".__class__")], value)
            elif rest.endswith("].__class__") and rest.count(".") == 1 \
                    and rest[rest.index("[") + 1:-len("].__class__")].isdigit():
                # a list of layers: the class of each item, in order (`for l in self.layers`)
                held.setdefault(rest[:rest.index("[")], {})[int(
                    rest[rest.index("[") + 1:-len("].__class__")])] = value
        for attr, value in list(held.items()):
            if isinstance(value, dict):
                held[attr] = [Known(value[k], self._held_by(f"{path}.{attr}[{k}]"))
                              for k in sorted(value)]
            elif rest and "." not in rest and "[" not in rest and inspect.isfunction(value):
                held[rest] = value
        return held

    def _inline_method(self, function, owner, call, why="writes into an argument it is given"):
        """The call `call` (the object first) of the method `function` of `owner`, inlined
        (taken at the call's arity when it has *args), the object known as an `owner`
        inside, so the methods it calls on the object are `owner`'s, inlined in turn when
        they write into what they are given."""
        target = self._of_arity(function, len(call.args), [k.arg for k in call.keywords])
        return self._inline_helper(target, call, why, receiver_class=owner)

    def _class_name(self, cls):
        """A name the normalized code reads `cls` under (bound like a runtime helper)."""
        return build.name(self._runtime_call(cls, []).func.id)

    def _function_call(self, function, args, keywords, expr):
        """The call `function(*args, **keywords)` of a def known while normalizing (a
        method of an object's class), not yet lowered: starred arguments spread
        (`self.forward(*args)` of a tuple display) and a `*args` def taken at the arity
        the call gives. Already lowered (an (operation, level) pair) when the arguments
        are concatenated when the code runs."""
        call = self._runtime_call(function, args)
        call.keywords = keywords
        call = build.with_location(call, expr)
        if any(isinstance(a, gast.Starred) for a in call.args):
            call = self._spread_arguments(function, call)
            if not isinstance(call, gast.Call):
                return call
        if any(k.arg is None for k in call.keywords):
            call = self._spread_keywords(call)          # m.fit(x, **opts): opts' keys
        adapted = self._of_arity(function, len(call.args), [k.arg for k in call.keywords])
        if adapted is not function:
            renamed = keyword_names(function, spread_keywords(
                function, [k.arg for k in call.keywords]))
            call = build.with_location(build.call(
                self._runtime_call(adapted, []).func, call.args,
                [(renamed.get(k.arg, k.arg), k.value) for k in call.keywords]), expr)
        return call

    def _of_arity(self, function, count, keywords=()):
        """`function` itself, or for a def of the user's with a `*args` or `**kwargs`
        parameter, the helper taking `count` positional arguments and these keywords
        (frontend/star_params.py)."""
        if takes_variable_arguments(function) and not (getattr(function, "__module__", None)
                                                       or "").startswith(_LIBRARIES):
            return fixed_arity(function, max(0, count - fixed_count(function)),
                               spread_keywords(function, list(keywords)))
        return function

    def _item_methods(self, item, attr):
        """The classes of the list items `item` names (object_calls._item_classes) when each
        defines `attr` with a def (what `item.attr(...)` runs), else None."""
        classes = self._item_classes(item)
        if classes and all(inspect.isfunction(inspect.getattr_static(c, attr, None))
                           for c in classes):
            return classes
        return None

    def _property_getter(self, expr):
        """The getter (a def) of `m.scale` when m's class is known while normalizing
        (_receiver_class) and defines scale as a property no subclass of it redefines
        (for the class of the method differentiated; the exact class of an argument has
        none to choose from), else None."""
        if not isinstance(expr.value, gast.Name) or not self.res.is_value(expr.value.id):
            return None
        owner = self._receiver_class(expr.value)
        if owner is None or owner[1] == "class":
            return None
        raw = inspect.getattr_static(owner[0], expr.attr, None)
        if not isinstance(raw, property) or not inspect.isfunction(raw.fget):
            return None
        if owner[1] != "exact" and any(expr.attr in sub.__dict__
                                       for sub in subclasses_of(owner[0])):
            return None
        return raw.fget

    def _method_call(self, receiver, attr, expr):
        """self.helper(x) -> helper(self, x), cls.create(x) -> create(cls, x), self.scale(x)
        of a static method -> scale(x): the function the class defining the differentiated
        method holds (resolve.py), bound by name and differentiated like any helper."""
        owner, how = self._receiver_class(receiver)
        raw = inspect.getattr_static(owner, attr, None)
        plain = inspect.isfunction(raw)
        if raw is None or isinstance(raw, (numpy.ufunc, types.BuiltinFunctionType)):
            return self._attribute_function_call(expr.func, raw, expr)
        if not (plain or isinstance(raw, (staticmethod, classmethod))):
            raise UnsupportedSyntaxError(
                f"`{receiver.id}.{attr}(...)`: {owner.__qualname__} has no method `{attr}` "
                f"s2s_ad can read", self.smap.locate(expr),
                "call a method defined with def in the class, or a module-level function")
        overriding = [sub.__qualname__ for sub in subclasses_of(owner) if attr in sub.__dict__]
        if how == "exact":        # the object's own class: no subclass to choose from
            how, overriding = "instance", []
        if overriding and not isinstance(raw, staticmethod):
            # which class's method runs is known when the call runs (the general
            # derivative): a method chosen then, differentiated in its arguments (with the
            # object itself differentiated, refusals.held_methods_of_varied_objects)
            return self._attribute_function_call(expr.func, None, expr)
        if isinstance(raw, staticmethod):
            function, first = raw.__func__, []
        elif isinstance(raw, classmethod):
            function = raw.__func__
            first = [receiver] if how == "class" else \
                [build.name(self._runtime_call(owner, []).func.id)]
        else:
            function, first = raw, [receiver] if how == "instance" else []
        if plain and how == "instance" and passes_on(function, [owner]):
            # `return self.forward(*args)`: the method passed on to, called here
            return self._method_call(receiver, forwards(function),
                                     _passed_on(receiver, expr, function))
        call = self._function_call(function, first + list(expr.args), expr.keywords, expr)
        if isinstance(call, gast.Call) and first and how == "instance" and \
                self._writes_of_method(function, owner, expr, True, self._held_by(receiver.id)):
            # s.step(u) whose method writes into u: inlined, so f's derivative sees it
            return self._inline_method(function, owner, call)
        if isinstance(call, gast.Call) and self._writes_into_arguments(function):
            return self._inline_helper(function, call, "writes into an argument it is given")
        return self._call(call) if isinstance(call, gast.Call) else call

    def _attribute_function_call(self, func, raw, expr):
        """self.act(h) where act is no method of the class: a function the object holds
        (`self.act = np.tanh` in __init__, a lambda, a def) or the class holds as a plain
        value (`act = np.tanh` in its body, which Python does not bind to the object); also
        m.act(h) of an object argument. Called by name when the class or the
        specialisation's signature says which function it is, else the call of a function
        chosen when the code runs."""
        path = dotted_path(func)
        function = raw if raw is not None else self.known_functions.get(path)
        held = self.known_functions.get(f"{path}.__class__") if raw is None else None
        if path.split(".")[0] not in self._bindings_in_source()[1]:
            if function is not None:
                name = self._bound_name(function)
                return self._call_target(build.name(name), name, function, expr)
            if defines_call(held):
                # self.l1(x), l1 a callable object the signature gives the class of:
                # Layer.__call__(self.l1, x), differentiated through l1's attributes
                call = self._function_call(held.__call__, [build.clone(func)] + list(expr.args),
                                           expr.keywords, expr)
                if isinstance(call, gast.Call) and self._writes_of_method(
                        held.__call__, held, expr, True, self._held_by(path)):
                    return self._inline_method(held.__call__, held, call)
                return self._call(call) if isinstance(call, gast.Call) else call
            method = self._held_object_method(func, expr) if raw is None else None
            if method is not None:
                return method
        if any(isinstance(a, gast.Starred) for a in expr.args) \
                or any(k.arg is None for k in expr.keywords):
            raise UnsupportedSyntaxError(
                f"`{path or func.attr}` holds a function chosen when the code runs: such a "
                f"call is differentiated with its arguments written out, not spread from a "
                f"value", self.smap.locate(expr), "write the arguments out: f(x, w, scale=s)")
        if expr.keywords:
            return self._keyword_call(build.with_location(build.clone(func), expr), expr)
        held = self._held(build.with_location(build.clone(func), expr))
        return self._call(build.with_location(self._runtime_call(
            runtime_functions.call_function, [held, build.tuple_(expr.args)]), expr))

    def _held_object_method(self, func, expr):
        """`self.bn.forward(h)`, `net.enc.encode(x)`: a method (a def, or a static method)
        of an object the signature gives the exact class of, called like the one on
        `self`: `BatchNorm.forward(self.bn, h)`, differentiated through the object's
        attributes, inlined when it writes into what it is given. None when the facts name
        no class for the object or the class has no such def."""
        owner = self.known_functions.get(f"{dotted_path(func.value)}.__class__")
        raw = inspect.getattr_static(owner, func.attr, None) if isinstance(owner, type) \
            else None
        if isinstance(raw, staticmethod):
            function, first = raw.__func__, []
        elif inspect.isfunction(raw):
            function, first = raw, [build.clone(func.value)]
        else:
            return None
        call = self._function_call(function, first + list(expr.args), expr.keywords, expr)
        if isinstance(call, gast.Call) and first and self._writes_of_method(
                function, owner, expr, True, self._held_by(dotted_path(func.value))):
            return self._inline_method(function, owner, call)
        return self._call(call) if isinstance(call, gast.Call) else call


def _passed_on(receiver, expr, function):
    """The call `expr` on `receiver` of a method that passes its call on
    (analyses/forwarding.py) as the call of the method it passes on to, `receiver.forward(
    *args)`, with the same arguments."""
    method = build.with_location(gast.Attribute(value=build.clone(receiver),
                                                attr=forwards(function), ctx=gast.Load()), expr)
    return build.with_location(gast.Call(func=method, args=list(expr.args),
                                         keywords=list(expr.keywords)), expr)
