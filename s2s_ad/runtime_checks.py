"""Run-time checks in generated code: grad's output is a real scalar, vjp's cotangent
has the output's structure and shapes. Each failure is an s2s_ad error naming the
differentiated function (read from the generated gradient's docstring):

    check_scalar_output(t1_0, x)      the leaves the output's shape and type come from
    check_cotangent(cotangent, out)   the cotangent, a list made an array
    check_unshared(v, w, message)     f writes into v while w, read later, may view it
    check_not_method(t, message)      t = m.act, called, is a function m holds, not a
                                      method (whose object's part would be lost)
    check_unzipped(rows, 2)           `xs, ys = zip(*rows)` gets 2 columns, else
                                      Python's ValueError
    zip_length(rows)                  how many columns zip(*rows) gives (the trip
                                      count of `for col in zip(*rows)`)
    check_not_sequences(a, b, op, message)   a + b / a * b is numpy's arithmetic, not a
                                      concatenation or repetition of lists; np.copy(a)
                                      is of no list or dict
"""
import numpy as np

try:  # inside the package the error is an s2s_ad.ADError; standalone it is a ValueError
    from .errors import NonDifferentiableError, NonScalarOutputError, UnsupportedSyntaxError
except ImportError:  # pragma: no cover - only in standalone generated files
    class NonScalarOutputError(ValueError):
        pass

    class NonDifferentiableError(ValueError):
        pass

    class UnsupportedSyntaxError(ValueError):
        pass


def check_scalar_output(*values):
    """grad's output is a real scalar exactly when these values (the leaves its shape and
    type come from) all are; otherwise a clear error pointing to what to do instead."""
    for value in values:
        if type(value) is float:
            continue
        if isinstance(value, (tuple, list, dict)):
            _not_a_scalar(f"a {type(value).__name__}", "return the scalar alone (compute the "
                          "other values in another function), or use s2s_ad.vjp(f) for a "
                          "structured output")
        if not isinstance(value, (int, np.number, np.ndarray, np.bool_)) \
                or np.asarray(value).dtype.kind not in "biuf":
            _not_a_scalar(f"a value of type {type(value).__name__}"
                          f"{' with complex numbers' if np.iscomplexobj(value) else ''}",
                          "s2s_ad differentiates real-valued functions")
        if np.ndim(value) != 0:
            shape = np.broadcast_shapes(*(np.shape(v) for v in values))
            _not_a_scalar(f"an array of shape {shape}", "use s2s_ad.vjp(f) (or jacobian) for "
                          "array outputs, or reduce the output to a scalar (e.g. np.sum)")


def _not_a_scalar(what, advice):
    origin = _caller_origin(3)
    if origin.startswith("the gradient of "):       # grad of grad of f of an array
        advice = ("for second derivatives use s2s_ad.hvp(f) (the Hessian times a vector) "
                  "or s2s_ad.hessian(f), or reduce the gradient to a scalar")
    raise NonScalarOutputError(f"grad needs a function with a real scalar output, but "
                               f"{origin} returns {what}; {advice}")


def check_cotangent(cotangent, output):
    """vjp's cotangent, checked to have the output's structure and shapes (a tuple for a
    tuple, ...): otherwise a clear error rather than a gradient of the wrong shape. A
    list given for an array output becomes an array."""
    problem = _cotangent_mismatch(cotangent, output)
    if problem:
        raise NonScalarOutputError(f"the cotangent of {_caller_origin()} {problem}")
    if isinstance(cotangent, list) and isinstance(output, np.ndarray):
        return np.asarray(cotangent, dtype=float)
    return cotangent


def _cotangent_mismatch(cotangent, output):
    if isinstance(output, (tuple, list)):
        if isinstance(cotangent, (tuple, list)) and len(cotangent) == len(output):
            return next(filter(None, map(_cotangent_mismatch, cotangent, output)), None)
        got = f"a {type(cotangent).__name__}" + (
            f" of {len(cotangent)}" if isinstance(cotangent, (tuple, list)) else "")
        return f"must be a {type(output).__name__} of {len(output)} items like its " \
               f"output; got {got}"
    if isinstance(output, dict):
        if isinstance(cotangent, dict) and cotangent.keys() == output.keys():
            return next(filter(None, (_cotangent_mismatch(cotangent[k], output[k])
                                      for k in output)), None)
        got = f"keys {sorted(map(repr, cotangent))}" if isinstance(cotangent, dict) \
            else f"a {type(cotangent).__name__}"
        return f"must be a dict with the keys of its output " \
               f"({', '.join(sorted(map(repr, output)))}); got {got}"
    try:
        shape = None if cotangent is None or isinstance(cotangent, (str, dict)) else \
            np.shape(cotangent)
    except ValueError:                      # a ragged list
        shape = None
    if shape != np.shape(output):
        got = f"shape {shape}" if shape is not None else repr(cotangent)
        return f"must have the output's shape {np.shape(output)}; got {got}"
    return None


def _caller_origin(depth=2):
    """'f (model.py:12)', read from the docstring of the generated gradient calling us
    (`depth` frames up)."""
    import sys
    code = sys._getframe(depth).f_code
    doc = code.co_consts[0] if code.co_consts and isinstance(code.co_consts[0], str) else ""
    start, end = doc.find(" of "), doc.find(")")
    return doc[start + 4:end + 1] if start >= 0 and end > start else "the function"


def check_broadcast(*operands):
    """f computes `a op b` (elementwise; its operands' shapes the broadcast of these
    operands') where the derivative needs none of it: the derivative still raises where
    f would, when the shapes do not broadcast."""
    # (a loop, not a generator: this runs in every call of the derivative; two arrays of
    # one shape, the usual case, return after one comparison)
    if len(operands) == 2 and type(operands[0]) is np.ndarray is type(operands[1]) \
            and operands[0].shape == operands[1].shape:
        return
    shapes = [v.shape if type(v) is np.ndarray else np.shape(v) for v in operands]
    first = shapes[0]
    for shape in shapes:
        if shape != first and shape:
            if not _broadcastable(shapes):
                np.broadcast_shapes(*shapes)        # numpy's own error
            return


def _broadcastable(shapes):
    """Do these shapes broadcast? numpy's rule read from the right: on each axis every
    length other than 1 is one length. A few short tuples in Python cost about half of
    np.broadcast_shapes (~1 us a call of a derivative at small sizes)."""
    lengths = {}
    for shape in shapes:
        for k, n in enumerate(reversed(shape)):
            if n != 1 and lengths.setdefault(k, n) != n:
                return False
    return True


def check_matmul(a, b):
    """As check_broadcast, for `a @ b`: the inner lengths agree and the batch axes
    broadcast (numpy's own error when not, from the product itself)."""
    shape_a, shape_b = np.shape(a), np.shape(b)
    if not shape_a or not shape_b or shape_a[-1] != shape_b[-2 if len(shape_b) > 1 else 0] \
            or (len(shape_a) > 2 or len(shape_b) > 2) and len(shape_a) > 1 \
            and len(shape_b) > 1 and shape_a[:-2] != shape_b[:-2]:
        np.matmul(a, b)


def product_like(a, b):
    """An array of the shape `a @ b` has (a read-only view of one zero, no product
    computed), for check_broadcast of an elementwise step on a product the derivative
    does not need; numpy's own error when `a @ b` raises.

        product_like(np.ones((5, 3)), np.ones((3, 3))).shape  ->  (5, 3)"""
    check_matmul(a, b)
    shape_a, shape_b = np.shape(a), np.shape(b)
    shape = np.broadcast_shapes(shape_a[:-2], shape_b[:-2]) + shape_a[-2:-1] \
        + (shape_b[-1:] if len(shape_b) > 1 else ())
    return np.broadcast_to(np.zeros((), dtype=np.result_type(a, b)), shape)


def check_unshared(written, other, message):
    """f writes into `written` and reads `other` after the write; whether `other` is a
    view of it (`other = written[0]` of a matrix, not of a vector) was not known when the
    derivative was built. When it is, the derivative, which follows values, would read
    the old values: raise `message` (the located error, rendered) instead."""
    if isinstance(written, np.ndarray) and _shares(written, other):
        raise UnsupportedSyntaxError(message)


def check_unzipped(rows, expected, width=None):
    """Raise Python's ValueError for `a, b = zip(*rows)` (`expected` 2) when zip gives
    another number of columns than `expected` (zip_length). `width`, when given, is every
    row's length, known when the derivative was built (then only the number of rows is
    read: no pass over them)."""
    if width is not None:
        width = width if len(rows) else 0
    else:
        width = zip_length(rows)
    if width < expected:
        raise ValueError(f"not enough values to unpack (expected {expected}, got {width})")
    if width > expected:
        raise ValueError(f"too many values to unpack (expected {expected})")


def zip_length(rows):
    """The number of tuples zip(*rows) gives: the shortest row's length, 0 for no rows
    (an array's: its second axis's length, read without a pass over its rows)."""
    if isinstance(rows, np.ndarray) and rows.ndim > 1:
        return rows.shape[1] if len(rows) else 0
    return min(map(len, rows), default=0)


def _shares(array, other):
    """`other` (an array, or a list or tuple holding arrays) shares memory with `array`."""
    if isinstance(other, (list, tuple)):
        return any(_shares(array, item) for item in other)
    return isinstance(other, np.ndarray) and np.shares_memory(array, other)


def check_not_method(function, message, argument=False):
    """`function`, read off an object that carries the derivative (`t = m.act`) and
    called, is a function the object holds (`m.act = np.tanh`), not a method bound to an
    object, nor an object with a `def __call__`: the derivative of a method called as a
    held function would miss the part through its object's attributes. Raise `message`
    (the located error, rendered) for a method. (The object itself is not passed: a read
    of it here would make its adjoint an array's, where it is the dict of its
    attributes'.) `argument`: `function` is f's
    own argument, differentiated: the general derivative follows no call of it, whatever
    it holds (a function, or an object whose class it does not know)."""
    if argument:
        raise NonDifferentiableError(message)
    bound = getattr(function, "__self__", None)
    if bound is not None and not isinstance(bound, (type, type(np))):
        raise UnsupportedSyntaxError(message)
    if not isinstance(function, type) \
            and type(getattr(type(function), "__call__", None)) is type(check_not_method):
        # a callable object it holds (self.l1 of a model of layers): its __call__ reads
        # the object's own attributes, which carry the derivative too
        raise UnsupportedSyntaxError(message)


def check_not_sequences(a, b, operation, message):
    """`a + b` or `a * b` (operation "+" / "*"), differentiated as numpy's elementwise
    arithmetic by a derivative that did not know the operands' kinds, is not a
    concatenation of two lists or tuples, nor a repetition of one by an integer (the
    list `a` differentiated as repeated, "repeat": `b` is an integer); `a`
    copied as an array ("copy") is no dict, nor a list the copy grows (`b`). Raise `message` (the
    located error, rendered) when it is (transforms/sequence_operands.py)."""
    sequences = (list, tuple)
    method = {"+": "__add__", "*": "__mul__"}.get(operation)
    if method and type(getattr(type(a), method, None)).__name__ == "function":
        # an object of a class of yours whose `def __add__` the derivative, not knowing
        # the class, did not follow (it adds the fields: a wrong gradient)
        where = message.split("\n", 1)[1].split("\nWrite instead")[0] if "\n" in message \
            else ""
        raise UnsupportedSyntaxError(
            f"`{operation}` here calls {type(a).__name__}.{method}, which the derivative "
            f"follows only where it knows the class (an object made in f, or an argument)"
            f"\n{where}\nWrite instead: call it by its class: "
            f"{type(a).__name__}.{method}(a, b)")
    if operation == "copy":             # b: is the copy grown or rebound as a list?
        joined = isinstance(a, dict) or isinstance(a, list) and b
    elif operation == "repeat":         # a list a, repeated b times: b is an integer
        joined = not isinstance(b, (int, np.integer))
    elif operation == "+":
        joined = isinstance(a, sequences) and isinstance(b, sequences)
    else:
        joined = isinstance(a, sequences) and isinstance(b, (int, np.integer)) \
            or isinstance(b, sequences) and isinstance(a, (int, np.integer))
    if joined:
        raise UnsupportedSyntaxError(message)
