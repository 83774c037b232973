"""What the facts (analyses.kinds) say about adjoints before the backward sweep starts.

    fixed_float_arrays(levels, kinds)       {"W"}: float arrays of one shape throughout,
                                            whose adjoints start as np.zeros_like(W)
    float_arrays(kinds)                     {"W", "z"}: float arrays whatever their shape
    containers(forward, inputs, helpers)    {"params"}: may be lists/dicts, whose
                                            adjoints add item by item (add_adjoints)
    repeated_list(op, lists, kinds, active) xs of `n * xs` (not of `xs * x`, an array)
    distinct_index_test(levels, kinds)      index -> True for `(rows, labels)` with
                                            rows = np.arange(n): no element picked twice
    narrow_dtype(kinds, "x")                "float32" for a float32 x of a function that
                                            also holds wider floats (its gradient is cast)
"""
import operator
import sys

import gast
import numpy

from .. import runtime_flow, runtime_keywords
from ..analyses.dataflow import is_list_or_tuple
from ..analyses.union_find import root_of
from ..ir.primitives import operation_of
from ..ir.walk import all_statements, names_stored, walk_tree
from ..runtime_objects import as_instance, copied
from ..signature import Attributes, Items, Mapping, Num, Opaque, SequenceOf


def containers(forward, inputs, helpers):
    """Variables whose adjoint may be a list, tuple or dict of adjoints: those the facts
    say are containers, and those passed whole to a user's helper that the facts do not
    prove to be a number or an array (the helper's adjoint of a list is a list). `+`
    would concatenate their contributions, `np.zeros(np.shape(x))` would make an array
    of a list of floats (or fail on arrays of different shapes)."""
    if inputs.kinds is None:
        found = set()
    else:
        found = {name for name, kind in inputs.kinds.facts.items() if _is_container(kind)}
    for stmt in all_statements(forward):
        if id(stmt) not in helpers:
            found |= _written_into_unknown(stmt, inputs.kinds)
            if isinstance(stmt, gast.Assign):
                op = operation_of(stmt.value, inputs.levels.callees)
                if op.primitive is as_instance and isinstance(op.args[0], gast.Name):
                    # an object (an item of a list mixing classes): its adjoint a dict
                    found.add(op.args[0].id)
                found |= _joined_sequence(op, inputs.kinds)
                found |= _shaped_by_structure(op, inputs.kinds)
                if _returns_sequence(op) and isinstance(stmt.targets[0], gast.Name) and (
                        inputs.kinds is None
                        or not isinstance(inputs.kinds.of(stmt.targets[0]), Num)):
                    found.add(stmt.targets[0].id)
            continue
        op = operation_of(stmt.value, inputs.levels.callees)
        for arg in list(op.args) + list(op.keywords.values()):
            if isinstance(arg, gast.Name) and (
                    inputs.kinds is None or not isinstance(inputs.kinds.of(arg), Num)):
                found.add(arg.id)
    found |= {name for name in _read_by_key(forward) if inputs.kinds is None
              or not isinstance(inputs.kinds.facts.get(name), Num)}
    return frozenset(found | _copies_of_indexed(forward, inputs.kinds, found,
                                                inputs.levels.callees))


def _copies_of_indexed(forward, kinds, found, callees):
    """Without facts about them, `a = b` where a's items are read (`a[k]`, a branch taking
    the list it sorts): a may be a list, whose adjoint scatter_add builds as a list, and
    that adjoint is b's contribution; so both may be containers (`+` would fail on 0.0
    plus a list)."""
    def unknown(name):
        return kinds is None or not isinstance(kinds.of(name), Num)
    indexed = {node.value.id for stmt in all_statements(forward) for node in walk_tree(stmt)
               if isinstance(node, gast.Subscript) and isinstance(node.value, gast.Name)} \
        | set(found)
    copies = [(stmt.targets[0].id, _copy_source(stmt.value, callees).id)
              for stmt in all_statements(forward)
              if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1
              and isinstance(stmt.targets[0], gast.Name) and _copy_source(stmt.value, callees)]
    more, changed = set(), True
    while changed:
        changed = False
        for target, source in copies:
            if (target in indexed or target in more) and unknown(target) and unknown(source) \
                    and not {target, source} <= more:
                more |= {target, source}
                changed = True
    return more


def _copy_source(value, callees):
    """b for `a = b` and for `a = copied(b, deep)` (copy.copy(b); `A[i][j] = v`'s row,
    transforms/mutation.py), else None."""
    if isinstance(value, gast.Name):
        return value
    if isinstance(value, gast.Call) and value.args and isinstance(value.args[0], gast.Name) \
            and operation_of(value, callees).primitive is copied:
        return value.args[0]
    return None


def _written_into_unknown(stmt, kinds):
    """{v} for `y[i] = v`, neither of a known kind: y may be a list of lists (a row put
    back: `A[i] = row`), so v's adjoint, taken off y's, may be a list (`+` would
    concatenate two, or fail on 0.0 plus a list)."""
    if not (isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Subscript)
            and isinstance(stmt.targets[0].value, gast.Name)
            and isinstance(stmt.value, gast.Name)):
        return set()
    if kinds is not None and (isinstance(kinds.of(stmt.targets[0].value), Num)
                              or isinstance(kinds.of(stmt.value), Num)):
        return set()
    return {stmt.value.id}


# runtime helpers of derivatives -> the position of an argument that may be a list, tuple
# or dict as much as an array: the value an adjoint mirrors, an adjoint items are taken of
_MIRRORED = ((runtime_flow.scatter_add, 1), (runtime_flow.match_adjoint, 1),
             (runtime_flow.take_adjoint, 0))


def _shaped_by_structure(op, kinds):
    """{x} for scatter_add(a, x, ...), match_adjoint(a, x), take_adjoint(x, k) in a
    derivative differentiated again, x of no known kind: the first derivative read x as a
    list, tuple or dict as much as an array, so x's own adjoint may be one (float_zeros(x)
    would fail on a list, `+` would concatenate two)."""
    for helper, position in _MIRRORED:
        if op.primitive is helper and len(op.args) > position \
                and isinstance(op.args[position], gast.Name) \
                and (kinds is None or not isinstance(kinds.of(op.args[position]), Num)):
            return {op.args[position].id}
    return set()


def _read_by_key(forward):
    """Names read with a string key
    (`p["w"]`, a dict), and every name a plain copy joins to one (`p = params` where a
    helper taking `params` was inlined): their adjoints are dicts, which `+` cannot add
    (the facts of the general derivative do not say so).
    Copies are grouped in one pass (union-find), not followed recursively."""
    parent = {}

    def root(name):
        return root_of(parent, name)
    keyed = set()
    for stmt in all_statements(forward):
        if not isinstance(stmt, gast.Assign) or not isinstance(stmt.targets[0], gast.Name):
            continue
        value = stmt.value
        if isinstance(value, gast.Name):
            parent[root(stmt.targets[0].id)] = root(value.id)
        elif isinstance(value, gast.Subscript) and isinstance(value.value, gast.Name) \
                and isinstance(value.slice, gast.Constant) and isinstance(value.slice.value, str):
            keyed.add(value.value.id)
    keyed_roots = {root(name) for name in keyed}
    copied = set(parent) | set(parent.values())
    return keyed | {name for name in copied if root(name) in keyed_roots}


# numpy functions that join a sequence of arrays: the adjoint of that sequence is one
# piece per item (runtime.split_concatenated, unstack, ...), a list for a list
_JOINS = (numpy.concatenate, numpy.stack, numpy.hstack, numpy.vstack)


def _joined_sequence(op, kinds):
    """{name} when `op` joins the sequence held in a variable (np.concatenate(pair)) that
    the facts do not prove an array (the general derivative knows nothing of it): it may
    be a list or tuple, whose adjoints from several joins add item by item (`+` would
    concatenate them)."""
    if any(op.primitive is join for join in _JOINS) and op.args \
            and isinstance(op.args[0], gast.Name) \
            and (kinds is None or not isinstance(kinds.of(op.args[0]), Num)):
        return {op.args[0].id}
    return set()


# numpy functions whose result is a tuple or list of arrays (`q, r = np.linalg.qr(A)` in
# levels form reads items of one variable): the adjoint of that variable is one per item
_SEQUENCE_RESULTS = (numpy.split, numpy.array_split, numpy.hsplit, numpy.vsplit,
                     numpy.dsplit, numpy.linalg.eigh, numpy.linalg.eig, numpy.linalg.qr,
                     numpy.linalg.lstsq, numpy.linalg.slogdet, numpy.meshgrid,
                     numpy.broadcast_arrays, numpy.polydiv,
                     runtime_keywords.bound_arguments) \
    + ((numpy.unstack,) if hasattr(numpy, "unstack") else ())


def _returns_sequence(op):
    """Does `op` return a tuple or list of arrays (svd unless compute_uv=False, qr unless
    mode="r")?"""
    if op.primitive is numpy.linalg.svd:
        flag = op.keywords.get("compute_uv")
        return not (isinstance(flag, gast.Constant) and flag.value is False)
    if op.primitive is numpy.linalg.qr:
        mode = op.keywords.get("mode")
        return not (isinstance(mode, gast.Constant) and mode.value in ("r", "raw"))
    return any(op.primitive is f for f in _SEQUENCE_RESULTS + _scipy_sequence_results())


def _scipy_sequence_results():
    """scipy's functions with templates that return tuples (cho_factor's (c, lower)), once
    the user's code has imported scipy.linalg (never imported here: scipy is optional)."""
    linalg = sys.modules.get("scipy.linalg")
    return () if linalg is None else (linalg.cho_factor,)


def _is_container(kind):
    if isinstance(kind, (Items, SequenceOf, Mapping, Attributes)):
        return True
    return isinstance(kind, Opaque) and kind.type in (list, tuple, dict)


def fixed_float_arrays(levels, kinds):
    """Variables the facts prove to be float arrays of one shape throughout: parameters
    never rebound and values bound once at the top level (of a shape the facts may not
    know, as a slice's). Their adjoints can start as `np.zeros_like(x)`
    (what a hand-written gradient does) rather than a 0.0 of no shape, so no
    `match_adjoint` at the end and no shape left to discover."""
    if kinds is None:
        return frozenset()
    stores = {}
    for name in names_stored(levels.tree):
        stores[name] = stores.get(name, 0) + 1
    top_level = {stmt.targets[0].id for stmt in levels.tree.body
                 if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)}
    fixed = set()
    for name, kind in kinds.facts.items():
        once = stores.get(name, 0) == 0 if name in levels.resolution.parameters else \
            stores.get(name, 0) == 1 and name in top_level       # not a loop's new values
        # (its axes need not be facts: one value has one shape, `u[1:]` too)
        if once and getattr(kind, "type", None) is numpy.ndarray \
                and kind.dtype in ("float64", "float32"):
            fixed.add(name)
    return frozenset(fixed)


def fixed_float_lists(levels, kinds, dataflow):
    """Parameters the facts prove to be lists or tuples of Python floats, never rebound,
    written or read other than by index or length (`for c in coeffs:` reads
    `coeffs[k]`). Their adjoint is a list of floats from the start, `[0.0] * len(x)`,
    added into by item, `x_bar[k] += g`, as by hand, where scatter_add would test and
    call for each item and match_adjoint rebuild the list at the end."""
    if kinds is None:
        return frozenset()
    stored = set(names_stored(levels.tree))
    fixed = set()
    for name in levels.resolution.parameters:
        kind = kinds.of(name)
        items = (kind.item,) if isinstance(kind, SequenceOf) else \
            kind.items if isinstance(kind, Items) else None
        if items and kind.container in (list, tuple) and name not in stored \
                and name in dataflow.indexed_only and name not in dataflow.written_through \
                and all(isinstance(k, Num) and k.type is float and k.axes == () for k in items):
            fixed.add(name)
    return frozenset(fixed)


def float_arrays(kinds):
    """Variables every value of which the facts prove a float array (of whatever shape:
    a loop's `z = x_t @ W + b`, a slice `u[1:]`). Their adjoint, once zeroed, is built
    as `np.zeros_like(z)` and added into by index, as by hand, where scatter_add would
    test and call for each item."""
    if kinds is None:
        return frozenset()
    return frozenset(name for name, kind in kinds.facts.items()
                     if getattr(kind, "type", None) is numpy.ndarray
                     and kind.dtype in ("float64", "float32"))


def integer_test(kinds):
    """atom -> does it hold a Python or numpy integer (not a bool, not an array), by the
    facts? Such an index picks one element: `x_bar[k] += g` adds nothing twice."""
    def is_integer(atom):
        kind = kinds.of(atom) if kinds is not None else None
        return isinstance(kind, Num) and kind.axes == () and kind.dtype is not None \
            and kind.type is not numpy.ndarray and numpy.dtype(kind.dtype).kind in "iu"
    return is_integer


def repeated_list(op, user_lists, kinds, is_active):
    """The list operand of `n * xs` / `xs * n` (a list the user built, repeated), else
    None. numpy reads a list times an array or a float (`[1.0, 2.0] * x`) as an
    elementwise product of the list made an array: that is a repetition only when the
    other operand is an integer (a literal, or a number the facts prove integral), or,
    without facts about it, when no derivative flows through it (a differentiated value
    is a float or an array, never a count)."""
    if op.primitive is not operator.mul:
        return None
    for operand, other in (op.args, op.args[::-1]):
        if isinstance(operand, gast.Name) and (
                operand.id in user_lists or kinds is not None
                and is_list_or_tuple(kinds.of(operand))) \
                and _is_count(other, kinds, is_active):
            return operand
    return None


def _is_count(atom, kinds, is_active):
    if isinstance(atom, gast.Constant):
        return type(atom.value) in (int, bool)
    kind = kinds.of(atom) if kinds is not None else None
    if isinstance(kind, Num) and kind.dtype is not None:
        return kind.axes == () and numpy.dtype(kind.dtype).kind in "iub"
    return not is_active(atom)


def distinct_index_test(levels, kinds):
    """index -> does it provably pick no element twice? Then the adjoint of `z[index]` is
    added by `z_bar[index] += g` (np.add.at's accumulation of repeats is not needed:
    about three times faster). True for a tuple of integer index arrays where one of them
    is `np.arange(n)`, bound once (distinct, non-negative: no two positions wrap onto one
    element), of one axis of length other than 1, and the others have at most one axis:
    their broadcast is then arange's own shape, and every position differs from the
    others in arange's coordinate. The softmax cross-entropy read `logp[np.arange(N),
    labels]` is such an index. No facts: False (add_at decides at runtime)."""
    if kinds is None:
        return lambda index: False
    counts = names_stored(levels.tree)
    ranges = set()
    for stmt in all_statements(levels.tree.body):
        if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name):
            op = operation_of(stmt.value, levels.callees)
            if op.primitive is numpy.arange and len(op.args) == 1 and not op.keywords \
                    and counts.count(stmt.targets[0].id) == 1:
                ranges.add(stmt.targets[0].id)

    def integer_kind(part):
        kind = kinds.of(part) if isinstance(part, gast.Name) else None
        return kind if isinstance(kind, Num) and kind.dtype is not None \
            and kind.axes is not None and numpy.dtype(kind.dtype).kind in "iu" else None

    def distinct(index):
        parts = index.elts if isinstance(index, gast.Tuple) else [index]
        found = False
        for part in parts:
            kind = integer_kind(part)
            if kind is None or len(kind.axes) > 1:
                return False
            found = found or part.id in ranges and kind.axes == (None,)
        return found
    return distinct


_NARROW = ("float32", "float16")


def narrow_dtype(kinds, name):
    """The dtype ("float32", "float16") the gradient of argument `name` must be cast back
    to, as a JAX cotangent keeps its primal's dtype: `name` holds narrow floats and some
    value of the function may hold wider ones (numpy promoted `x * w` to float64 for a
    float64 w, a global of unknown kind, np.float64(3.0)). None otherwise: a function of
    float32 values and Python numbers computes float32 adjoints throughout."""
    kind = kinds.of(name) if kinds is not None else None
    if not isinstance(kind, Num) or kind.dtype not in _NARROW or kind.type is None:
        return None
    return kind.dtype if any(_may_widen(k) for k in kinds.facts.values()) else None


def _may_widen(kind):
    if isinstance(kind, Num):
        return not kind.is_python and (kind.dtype is None or numpy.dtype(kind.dtype).kind
                                       in "fc" and kind.dtype not in _NARROW)
    if isinstance(kind, Items):
        return any(_may_widen(k) for k in kind.items)
    if isinstance(kind, SequenceOf):
        return _may_widen(kind.item)
    if isinstance(kind, (Mapping, Attributes)):
        return any(_may_widen(k) for _, k in kind.entries)
    # an object of no known kind may hold float64 values; a range, a dtype, a module not
    return isinstance(kind, Opaque) and (kind.type is None or not issubclass(
        kind.type, (range, numpy.dtype, type(numpy), str, bool, int)))
