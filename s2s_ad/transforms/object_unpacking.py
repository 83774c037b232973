"""Normalizing `a, b = obj` for an object of a class of yours known while normalizing
(made in f, by an operator or method of such a class, or an argument the signature
gives) whose `__iter__` says what its items are:

    class Pair:                                a, b = p  ->  a, b = (p.a, p.b)
        def __iter__(self):
            return iter((self.a, self.b))      (a tuple or list display of attributes)

        def __iter__(self):                    a, b = p  ->  a, b = list(p.__iter__())
            yield self.a                       (a generator: its items as a list)
            yield self.b

Any other `__iter__` of such a class is a located error: the derivative would index
the object. Used by `normalize` through AssignmentMixin (assignments.py).
"""
import ast
import inspect

import gast

from ..errors import UnsupportedSyntaxError
from ..frontend.parse import def_ast
from ..ir import build
from .helper_inline import _LIBRARIES


class ObjectUnpackingMixin:
    """Unpacking objects of a known class by their __iter__."""

    def _unpacked_object(self, value):
        """The expression whose items `a, b = value` unpacks, when value is an object of
        a known class of yours defining __iter__; None otherwise."""
        found = self._receiver_class(value) if isinstance(value, gast.Name) else \
            self._constructed_class(value) if isinstance(
                value, (gast.Call, gast.BinOp, gast.UnaryOp)) else None
        method = inspect.getattr_static(found[0], "__iter__", None) \
            if found and found[1] != "class" else None
        if not inspect.isfunction(method) \
                or (method.__module__ or "").split(".")[0] in _LIBRARIES:
            return None
        if inspect.isgeneratorfunction(method):
            self._check_builtin("list", value)
            return build.with_location(build.call(build.name("list"), [
                self._iter_method(value)]), value)
        attrs = _iterated_attributes(method)
        if attrs is None:
            raise UnsupportedSyntaxError(
                f"unpacking a {found[0].__name__} runs its __iter__, which s2s_ad follows "
                f"when it is a generator or returns iter((self.a, self.b, ...))",
                self.smap.locate(value), "unpack its attributes: `a, b = obj.a, obj.b`")
        if not isinstance(value, gast.Name):
            value = self._held(value)
            self.constructed[value.id] = found
        return build.with_location(build.tuple_([
            build.with_location(gast.Attribute(value=build.clone(value), attr=attr,
                                               ctx=gast.Load()), value) for attr in attrs]),
            value)


def _iterated_attributes(method):
    """["a", "b"] when `method` (an __iter__) is `return iter((self.a, self.b))` (a tuple
    or list display of its own attributes, after a docstring at most), else None."""
    fdef = def_ast(method)
    if fdef is None:
        return None
    body = [s for s in fdef.body if not (isinstance(s, ast.Expr)
                                         and isinstance(s.value, ast.Constant))]
    me = fdef.args.args[0].arg if fdef.args.args else None
    if len(body) != 1 or not isinstance(body[0], ast.Return):
        return None
    call = body[0].value
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
            and call.func.id == "iter" and len(call.args) == 1
            and isinstance(call.args[0], (ast.Tuple, ast.List))):
        return None
    items = call.args[0].elts
    if not all(isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name)
               and e.value.id == me for e in items):
        return None
    return [e.attr for e in items]
