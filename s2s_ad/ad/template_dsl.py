"""The template language: `adjoint`, `tangent`, `nondifferentiable` and the `d[...]` marker.

A template is a small Python function whose first parameter is the primitive's result
and whose other parameters mirror the primitive's (numpy's keyword defaults included):

    @adjoint(np.tanh)
    def tanh_adjoint(y, x):
        d[x] += d[y] * (1.0 - y * y)

`d[v]` names the derivative of `v`. A reverse template's statements are
`d[p] += expr` (a contribution to p's adjoint), `d[p][index] += expr` (a contribution to
the elements `p[index]`) or `_tmp = expr` (a temporary, renamed fresh on expansion).
Templates are never run: the decorators only record metadata on the function, and the
registry parses the source once.
"""

_REGISTRATIONS = []   # (kind, primitives, function) in definition order


class _DerivativeMarker:
    """`d` in template source. Templates are parsed, never executed."""

    def __getitem__(self, item):
        raise RuntimeError("templates are expanded by s2s_ad, not called")


d = _DerivativeMarker()


def _recorder(kind):
    def decorator_factory(*primitives):
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
    decorator_factory.__name__ = kind
    return decorator_factory


adjoint = _recorder("adjoint")
tangent = _recorder("tangent")


def nondifferentiable(*primitives):
    """Declare primitives whose outputs carry no derivative (argmax, floor, shape, ...)."""
    _REGISTRATIONS.append(("nondifferentiable", primitives, None))
    return primitives


def registrations_since(start):
    return _REGISTRATIONS[start:]


def registration_count():
    return len(_REGISTRATIONS)
