"""Desugaring rules used while normalizing: array methods and attributes -> numpy calls.

    x.sum(axis=0)      ->  np.sum(x, axis=0)
    x.reshape(2, 3)    ->  np.reshape(x, (2, 3))
    x.reshape(*shape)  ->  np.reshape(x, shape)
    x.T                ->  np.transpose(x)
    z.real, z.imag     ->  np.real(z), np.imag(z)
    x.dot(w)           ->  np.dot(x, w)
    x.item()           ->  np.reshape(x, ())[()]   (raises as item() does unless x has
                                                    one element)
    x.item(k)          ->  np.ravel(x)[k];  x.item(i, j) -> x[i, j]
    np.add.reduce(x)   ->  np.sum(x, axis=0)      (ufunc_method: reduce, accumulate, outer)
    np.subtract.outer(a, b)  ->  np.subtract(outer_operand(a, b), b)

Augmented assignment (`s += e` -> `s = s + e`) and tuple unpacking are desugared by
`normalize` itself, which owns statement order.
"""
import gast
import numpy as np

from ..errors import UnsupportedSyntaxError
from ..ir import build
from ..ir.primitives import VALUE_ATTRIBUTES

# methods whose numpy function takes the array first and the same arguments after it
_SAME_NAME_METHODS = frozenset({
    "sum", "mean", "prod", "max", "min", "std", "var", "cumsum", "cumprod", "argmax",
    "argmin", "any", "all", "round", "dot", "trace", "ravel", "squeeze", "copy",
    "swapaxes", "repeat", "diagonal", "conj", "nonzero", "argsort",
})
_RENAMED_METHODS = {"flatten": "ravel", "conjugate": "conj"}


def method_call(receiver, method, args, keywords, node, smap):
    """(numpy function name, args, keywords) for `receiver.method(*args, **keywords)`."""
    if method in _SAME_NAME_METHODS or method in _RENAMED_METHODS:
        return _RENAMED_METHODS.get(method, method), [receiver] + list(args), keywords
    if method == "clip":
        # x.clip(lo) / x.clip(max=hi): the bound not given is None (np.clip needs both)
        renamed = [gast.keyword(arg={"min": "a_min", "max": "a_max"}.get(k.arg, k.arg),
                                value=k.value) for k in keywords]
        missing = [name for name in ("a_min", "a_max")[len(args):]
                   if name not in {k.arg for k in renamed}]
        return "clip", [receiver] + list(args), renamed + [
            gast.keyword(arg=name, value=build.const(None)) for name in missing]
    if method in ("reshape", "transpose"):
        if len(args) == 1 and isinstance(args[0], gast.Starred):
            args = [args[0].value]          # x.reshape(*shape) is np.reshape(x, shape)
        if len(args) > 1:
            args = [build.tuple_(args)]
        if method == "transpose" and not args:
            return "transpose", [receiver], keywords
        return method, [receiver] + list(args), keywords
    if method == "astype":
        # astype's copy=False copies only where the dtype differs: asarray's default (its
        # own copy=False would refuse to copy)
        kept = [k for k in keywords if not (k.arg == "copy" and isinstance(
            k.value, gast.Constant) and k.value.value is False)]
        return "asarray", [receiver], [gast.keyword(arg="dtype", value=args[0])] + kept
    if method in ("append", "extend", "insert", "pop") and not hasattr(np.ndarray, method):
        # a list's method on something not a name (d["h"].append(v)): lists are followed
        # through their names
        raise UnsupportedSyntaxError(
            f"`.{method}()` is supported on a list held in a variable, not on an item or "
            f"attribute", smap.locate(node),
            f"keep the list in a variable (h = []; h.{method}(...)), then store it: "
            f"d['h'] = h")
    if hasattr(np, method):
        hint = f"call the numpy function instead, e.g. np.{method}(x, ...)"
    else:
        hint = "compute it with numpy functions (README: What it differentiates)"
    raise UnsupportedSyntaxError(
        f"the array method `.{method}()` is not supported", smap.locate(node), hint)


def item_read(receiver, method, node, numpy_name):
    """`x.item(...)` as an index read (the same element, a numpy scalar rather than a
    Python one), or None for any other call."""
    if method != "item" or node.keywords or any(isinstance(a, gast.Starred)
                                                for a in node.args):
        return None
    if not node.args:
        index, array = build.tuple_([]), build.call(build.dotted(f"{numpy_name}.reshape"),
                                                    [receiver, build.tuple_([])])
    elif len(node.args) == 1:
        index, array = node.args[0], build.call(build.dotted(f"{numpy_name}.ravel"),
                                                [receiver])
    else:
        index, array = build.tuple_(list(node.args)), receiver
    return gast.copy_location(build.subscript(array, index), node)


OBJECT_ATTRIBUTE = "object attribute"


def attribute_call(receiver, attr, node, smap, of_object=False):
    """`x.T` -> ('transpose', [x]); value attributes return None (kept as reads); an
    attribute of `self` (`of_object`: a method's receiver), a name no array has
    (`params.w`) or one that is an array method (`dist.mean`, read without a call) is an
    object's attribute: OBJECT_ATTRIBUTE."""
    if of_object or not hasattr(np.ndarray, attr) or callable(getattr(np.ndarray, attr)):
        return OBJECT_ATTRIBUTE
    if attr == "T":
        return "transpose", [receiver]
    if attr in ("real", "imag"):
        return attr, [receiver]          # z.real -> np.real(z)
    if attr in VALUE_ATTRIBUTES:
        return None
    raise UnsupportedSyntaxError(f"the attribute `.{attr}` is not supported here",
                                 smap.locate(node), "use a numpy function instead")


# a ufunc's reduce and accumulate that are numpy functions (axis 0 unless given, as the
# methods default); np.maximum.accumulate has its own template
_REDUCED = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min",
            "logical_and": "all", "logical_or": "any"}
_ACCUMULATED = {"add": "cumsum", "multiply": "cumprod"}


# what to write for `initial=` / `where=` of a reduce (the value of an empty reduction,
# a mask): neither is a keyword of the numpy function the method is
_REDUCE_KEYWORDS = {
    "initial": "combine it after reducing: `np.sum(x, axis) + c`, `np.maximum(np.max(x, "
               "axis), c)`",
    "where": "mask the entries out first: `np.sum(np.where(mask, x, 0.0), axis)` (or "
             "-np.inf for a maximum)",
}


def ufunc_method(target, args, keywords, node=None, smap=None):
    """For a numpy ufunc's method `target` called with (args, keywords): ("reduce", numpy
    function name, args, keywords) with axis=0 filled in, ("outer", ufunc name) for a
    binary ufunc's outer, or None (not such a method, or a form not rewritten).
    `initial=` and `where=` of any ufunc's reduce are located errors (at `node`)."""
    ufunc = getattr(target, "__self__", None)
    method = getattr(target, "__name__", None)
    if not isinstance(ufunc, np.ufunc) or getattr(np, ufunc.__name__, None) is not ufunc \
            or any(isinstance(a, gast.Starred) for a in args) \
            or any(k.arg is None for k in keywords):
        return None
    for k in keywords:
        if method == "reduce" and k.arg in _REDUCE_KEYWORDS and smap is not None:
            raise UnsupportedSyntaxError(
                f"`np.{ufunc.__name__}.reduce(..., {k.arg}=...)` is not supported",
                smap.locate(node), _REDUCE_KEYWORDS[k.arg])
    if method == "outer" and ufunc.nin == 2 and ufunc.nout == 1 and len(args) == 2:
        return "outer", ufunc.__name__
    table = {"reduce": _REDUCED, "accumulate": _ACCUMULATED}.get(method, {})
    if ufunc.__name__ not in table or not args or len(args) > 2:
        return None
    given = {k.arg for k in keywords}
    if len(args) == 1 and "axis" not in given:
        keywords = list(keywords) + [gast.keyword(arg="axis", value=build.const(0))]
    elif len(args) == 2:
        keywords = [gast.keyword(arg="axis", value=args[1])] + list(keywords)
    return "reduce", table[ufunc.__name__], [args[0]], keywords
