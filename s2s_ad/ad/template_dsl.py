"""The template language: `adjoint`, `tangent`, `nondifferentiable` and the `d[...]` marker.

A template is a small Python function whose first parameter is the primitive's result
and whose other parameters mirror the primitive's (numpy's keyword defaults included):

    @adjoint(np.tanh)
    def tanh_adjoint(y, x):
        d[x] += d[y] * (1.0 - y * y)

`d[v]` names the derivative of `v` (a template of yours may write `s2s_ad.d[v]`: spell_d). A reverse template's statements are
`d[p] += expr` (a contribution to p's adjoint), `d[p][index] += expr` (a contribution to
the elements `p[index]`), `d[p] += undifferentiated(p)` (p has no derivative here: an
error if it carries one) or `_tmp = expr` (a temporary, renamed fresh on expansion).
Templates are never run: the decorators only record metadata on the function, and the
registry parses the source once.
"""

from typing import Callable

import gast

from ..ir.build import dotted_path
from ..ir.walk import walk_tree

_REGISTRATIONS = []   # (kind, primitives, function) in definition order


class _DerivativeMarker:
    """`d` in template source. Templates are parsed, never executed."""

    def __getitem__(self, item):
        raise RuntimeError("templates are expanded by s2s_ad, not called")


d = _DerivativeMarker()


def undifferentiated(param):
    """`d[v] += undifferentiated(v)` in a reverse template: the primitive depends on `v`
    but the template gives no derivative in it (scipy.special.iv's order). Differentiating
    through `v` is then a located error (reverse and forward mode), never a zero."""
    raise RuntimeError("templates are expanded by s2s_ad, not called")


def _recorder(kind, doc):
    def decorator_factory(*primitives: Callable) -> Callable[[Callable], Callable]:
        if not primitives:
            raise TypeError(f"@{kind}(...) needs the primitive(s) it differentiates")
        for primitive in primitives:
            if not callable(primitive):
                raise TypeError(f"@{kind}(...) takes the function it differentiates itself "
                                f"(e.g. @{kind}(np.sin)), not {primitive!r}")

        def decorator(function):
            if not callable(function) or getattr(function, "__name__", "") == "<lambda>":
                raise TypeError(f"@{kind}(...) decorates a template written with `def` "
                                f"(got {function!r})")
            function.__s2s_template__ = (kind, primitives)
            _REGISTRATIONS.append((kind, primitives, function))
            return function
        return decorator
    decorator_factory.__name__ = decorator_factory.__qualname__ = kind
    decorator_factory.__doc__ = doc
    return decorator_factory


adjoint = _recorder("adjoint", """Register a reverse-mode template for the primitive(s) given.

    The decorated function is parsed, never called: its first parameter is the
    primitive's result, the others mirror the primitive's parameters (its keyword
    defaults included), and its body adds each argument's contribution to its adjoint:

        @adjoint(my_softplus)
        def my_softplus_adjoint(y, x):
            d[x] += d[y] / (1.0 + np.exp(-x))

    `d[v]` is v's derivative; a name starting with `_` is a temporary.""")
tangent = _recorder("tangent", """Register a forward-mode template for the primitive(s) given.

    Written like an @adjoint template, but it assigns the result's tangent from the
    arguments' tangents (used by jvp, hvp, hessian and forward-mode jacobian):

        @tangent(my_softplus)
        def my_softplus_tangent(y, x):
            d[y] = d[x] / (1.0 + np.exp(-x))""")


def active(operand) -> bool:
    """In a template, `a if active(x) else b`: decided when the template is expanded, by
    whether operand x carries a derivative in the statement being differentiated (a
    constant operand, ReLU's 0 in np.maximum(0, z), does not). Lets one contribution reuse
    a temporary that another operand's contribution computes, but only when that one is
    there at all. Templates are parsed, never executed."""
    raise RuntimeError("templates are expanded by s2s_ad, not called")


def is_one(operand) -> bool:
    """In a template, `a if is_one(x) else b`: decided when the template is expanded, by
    whether operand x is written as the number 1 (or 1.0) in the statement being
    differentiated. A fact of the source, known before the code runs: the adjoint of
    `1.0 / u` (the sigmoid's `1.0 / (1.0 + np.exp(-z))`) can then read the result alone,
    `-g * y * y` for `-g * y / u`, so u is not kept for the backward sweep and a
    multiplication replaces a division. Templates are parsed, never executed."""
    raise RuntimeError("templates are expanded by s2s_ad, not called")


def nondifferentiable(*primitives: Callable) -> tuple:
    """Declare primitives whose outputs carry no derivative (argmax, floor, shape, ...)."""
    _REGISTRATIONS.append(("nondifferentiable", primitives, None))
    return primitives


def registrations_since(start):
    return _REGISTRATIONS[start:]


def registration_count():
    return len(_REGISTRATIONS)


def spell_d(tree, namespace):
    """A template of yours writing `s2s_ad.d[x]` (or d under a name of its own) is read
    as `d[x]`, in the tree just parsed for it."""
    for node in walk_tree(tree):
        path = dotted_path(node.value) if isinstance(node, gast.Subscript) else None
        if path and path != "d":
            head, *rest = path.split(".")
            held = namespace.get(head)
            for attr in rest:
                held = getattr(held, attr, None)
            if held is d:
                node.value = gast.Name(id="d", ctx=gast.Load(), annotation=None,
                                       type_comment=None)
