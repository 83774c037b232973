"""Normalizing calls that stand for a construction of an object whose class is known
while normalizing (made in f, or an argument whose class the signature gives):
`s._replace(...)` of a namedtuple, `dataclasses.replace(p, ...)` of a dataclass, and
`type(self)(...)` / `self.__class__(...)`, lowered as the construction.

    s._replace(vel=v)               ->  t = make_object(State, (s.pos, v))
    dataclasses.replace(p, s=2.0)   ->  t = make_object(Params, (p.w, 2.0))
    type(self)(a * k, b)            ->  t = make_object(Pair, (a * k, b))

An argument whose class is not known (grad()'s checks, the general derivative) gets
`replaced(p, names, values)`, which runs as written and has no derivative: the general
derivative says so at the user's line when it is built. Used by `normalize` through
CallMixin (calls.py).
"""
import dataclasses

import gast

from ..errors import UnsupportedSyntaxError
from ..ir import build
from ..ir.build import dotted_path
from .. import runtime_objects
from ..runtime_objects import constructible, field_names


class ObjectReplaceMixin:
    """Copies of an object with some fields replaced, and its own class called, as
    constructions."""

    def _replace_of(self, expr):
        """(the object, how it is written, (its class, how known) or None) when `expr` is a
        replace (`s._replace(...)` of an object not of a class of yours defining its own
        `_replace`, `dataclasses.replace(p, ...)`), else None."""
        func = expr.func
        if isinstance(func, gast.Attribute) and func.attr == "_replace" and not expr.args:
            obj, what = func.value, "`._replace(...)`"
        else:
            path = dotted_path(func)
            if path is None or self.res.is_value(path.split(".")[0]) \
                    or not self.res.has(path) or len(expr.args) != 1 \
                    or self.res.lookup(path) is not dataclasses.replace:
                return None
            obj, what = expr.args[0], "dataclasses.replace(...)"
        found = self._receiver_class(obj) if isinstance(obj, gast.Name) else \
            self._constructed_class(obj)
        if found and found[1] == "class" or found and what.startswith("`") \
                and not issubclass(found[0], tuple):
            return None                 # a `_replace` method of a class of yours
        return obj, what, found

    def _replaced_class(self, expr):
        """(class, "instance") of the object a replace makes (its argument's), else None."""
        replace = self._replace_of(expr)
        return replace[2] if replace is not None else None

    def _replaced_object(self, expr):
        """The lowered construction `expr` stands for, or None when it is no replace."""
        replace = self._replace_of(expr)
        if replace is None:
            return None
        obj, what, found = replace
        cls = found[0] if found else None
        names = [k.arg for k in expr.keywords]
        if cls is None or not constructible(cls) or None in names \
                or not set(names) <= set(field_names(cls)):
            if isinstance(obj, gast.Name) and obj.id in self.res.parameters \
                    and None not in names and found is None:
                # an argument of a class known only to the specialised derivative
                return self._call(build.with_location(self._runtime_call(
                    runtime_objects.replaced,
                    [obj, build.tuple_([build.const(n) for n in names]),
                     build.tuple_([k.value for k in expr.keywords])]), expr))
            raise UnsupportedSyntaxError(
                f"{what} is differentiated where the object's class is known (made in "
                f"f, or an argument), a namedtuple or dataclass, its fields named",
                self.smap.locate(expr),
                "make the new object from its fields: `State(s.pos, vel)`")
        if not isinstance(obj, gast.Name):
            obj = self._held(obj)
            self.constructed[obj.id] = found
        given = {k.arg: k.value for k in expr.keywords}
        values = [given[n] if n in given else build.with_location(gast.Attribute(
            value=build.clone(obj), attr=n, ctx=gast.Load()), expr)
            for n in field_names(cls)]
        call = self._runtime_call(runtime_objects.make_object,
                                  [self._class_name(cls), build.tuple_(values)])
        return self._call(build.with_location(call, expr))

    def _construction_call(self, expr):
        """A call standing for a construction of a known class, lowered as one, else None:
        `s._replace(vel=v)`, `dataclasses.replace(p, s=2.0)`, `type(self)(a, b)`."""
        return self._replaced_object(expr) or self._own_class_call(expr)

    def _own_class_call(self, expr):
        """`type(self)(a, b)` / `self.__class__(a, b)` of an object whose class is known
        while normalizing (an operator's method making a new object of its class): the
        construction `Pair(a, b)`, lowered as any, else None."""
        func = expr.func
        if isinstance(func, gast.Attribute) and func.attr == "__class__":
            obj = func.value
        elif isinstance(func, gast.Call) and dotted_path(func.func) == "type" \
                and len(func.args) == 1 and not func.keywords \
                and not self.res.is_value("type") and self.res.lookup("type") is type:
            obj = func.args[0]
        else:
            return None
        found = self._receiver_class(obj) if isinstance(obj, gast.Name) else None
        if not found or found[1] == "class" or not constructible(found[0]) \
                or found[1] != "exact" and obj.id not in self.constructed \
                and found[0].__subclasses__():
            return None     # (self of a method of a class with subclasses: which one?)
        names, keywords = field_names(found[0]), [k.arg for k in expr.keywords]
        if any(isinstance(a, gast.Starred) for a in expr.args) \
                or keywords != names[len(expr.args):len(expr.args) + len(keywords)]:
            return None
        call = self._runtime_call(runtime_objects.make_object, [
            self._class_name(found[0]),
            build.tuple_(list(expr.args) + [k.value for k in expr.keywords])])
        return self._call(build.with_location(call, expr))
