"""Reverse mode, before f's activity and tape: calls of helpers through their split vjps.

A helper's vjp called whole in f's backward sweep runs the helper's forward sweep again
(a model's layers, called in a loop, would compute each forward twice or more). Split
(backend/split_pair.py), f's forward sweep calls fwd_h, which returns the value and what
h's backward sweep needs; the backward sweep hands that to bwd_h:

    u = h(x, w)          ->     u_pair = fwd_h(x, w)        (reversed: x_bar, w_bar =
                                u = u_pair[0]                 bwd_h(u_pair[1], u_bar))
    a = h2(x)            ->     a_pair = fwd_h2(x)          (h2 returns 2-tuples: fwd_h2
                                a_0 = a_pair[0]              returns (v0, v1, saved),
                                a_1 = a_pair[1]              bwd_h2(a_pair[2], (a_0_bar,
                                a = (a_0, a_1)               a_1_bar)))

`u_pair` is an ordinary variable of the levels form: in a loop it is overwritten, so the
tape saves it like any other value the backward sweep reads (and restores the earlier
iterations' in reverse order); the facts know it as a pair of h's value and an opaque
tuple. The statements not rewritten are kept as the same nodes (the analyses' tables are
keyed by them); the blocks holding a rewritten call are new.
"""
import copy
import dataclasses
import inspect
import warnings

import gast
import numpy

from ..ir import build
from ..analyses.call_kinds import differentiated_helper
from ..ir.primitives import operation_of
from ..ir.walk import walk_tree
from ..runtime_objects import set_attribute
from ..signature import UNKNOWN, Items, Opaque


def split_helper_calls(levels, kinds, activity, registry, namer, bind, pair_of):
    """-> (levels, kinds, {fwd_h: (bwd_h, wrt, n for a helper returning n-tuples)}). `bind(name, obj)` names an object for
    the generated code; `pair_of(helper, wrt, stmt)` a HelperDerivative or None."""
    pairs, facts = {}, dict(kinds.facts) if kinds is not None else None
    moved = {}                # id(a loop or branch) -> id(its copy holding a split call)
    callees, levels_of = dict(levels.callees), dict(levels.levels)

    def rewrite(stmts):
        out, changed = [], False
        for stmt in stmts:
            if isinstance(stmt, (gast.If, gast.For, gast.While)):
                body, body_changed = rewrite(stmt.body)
                orelse, orelse_changed = rewrite(stmt.orelse)
                if body_changed or orelse_changed:
                    copied = copy.copy(stmt)
                    moved[id(stmt)] = id(copied)
                    stmt = copied
                    stmt.body, stmt.orelse = body, orelse
                    changed = True
                out.append(stmt)
                continue
            split = _split(stmt)
            if split is None:
                out.append(stmt)
                continue
            out.extend(split)
            changed = True
        return out, changed

    def _split(stmt):
        helper, wrt = _helper_call(stmt, levels, activity, registry)
        if helper is None:
            return None
        derivative = pair_of(helper, wrt, stmt)
        if derivative is None:
            return None
        target, arity = stmt.targets[0].id, derivative.result_arity
        name = bind(derivative.name, derivative.function)
        callees[name] = derivative.function
        pairs[derivative.function] = (derivative.backward, wrt, arity)
        pair = namer.fresh(f"{target}_pair")
        # the value's items, then what bwd_h reads: (value, saved) or (v0, ..., saved)
        items = [namer.fresh(f"{target}_{k}") for k in range(arity)] if arity else [target]
        value_kinds = [kinds.of(target)] if kinds is not None else []
        if kinds is not None and arity:
            whole = kinds.of(target)
            value_kinds = list(whole.items) if isinstance(whole, Items) \
                and len(whole.items) == arity else [UNKNOWN] * arity
        for item, kind in zip(items, value_kinds):
            facts[item] = kind
        if facts is not None:
            facts[pair] = Items(tuple, tuple(value_kinds) + (Opaque(tuple),))
        for item in [pair] + items:
            levels_of[item] = levels_of.get(target)
        call = stmt.value
        made = [build.assign(pair, build.call(build.name(name), list(call.args),
                                              [(k.arg, k.value) for k in call.keywords]))]
        made += [build.assign(item, build.subscript(build.name(pair), build.const(k)))
                 for k, item in enumerate(items)]
        if arity:
            made.append(build.assign(target, build.tuple_([build.name(i) for i in items])))
        return [gast.copy_location(m, stmt) for m in made]

    body, changed = rewrite(levels.tree.body)
    if not changed:
        return levels, kinds, {}
    tree = copy.copy(levels.tree)
    tree.body = body
    levels = dataclasses.replace(levels, tree=tree, callees=callees, levels=levels_of)
    if kinds is not None:
        # the facts within one iteration of a loop are keyed by the loop (its copy here)
        iterations = {moved.get(key, key): edges
                      for key, edges in (kinds.iteration_classes or {}).items()}
        kinds = dataclasses.replace(kinds, facts=facts, iteration_classes=iterations
                                    if kinds.iteration_classes is not None else None)
    return levels, kinds, pairs


_EFFECTS = {print, warnings.warn, set_attribute}
_COSTLY = {numpy.dot, numpy.matmul, numpy.einsum, numpy.tensordot, numpy.inner,
           numpy.convolve, numpy.correlate}
# ufuncs as cheap to run again as to read back (_transcendental)
_ARITHMETIC = {numpy.add, numpy.subtract, numpy.multiply, numpy.divide, numpy.true_divide,
               numpy.floor_divide, numpy.negative, numpy.positive, numpy.absolute,
               numpy.fabs, numpy.square, numpy.reciprocal, numpy.maximum, numpy.minimum,
               numpy.fmax, numpy.fmin, numpy.sign, numpy.copysign, numpy.greater, numpy.greater_equal, numpy.less, numpy.less_equal,
               numpy.equal, numpy.not_equal, numpy.logical_and, numpy.logical_or,
               numpy.logical_not, numpy.floor, numpy.ceil, numpy.rint, numpy.trunc,
               numpy.conjugate, numpy.remainder, numpy.fmod}


def worth_splitting(helper_levels, draws):
    """Is a helper's forward sweep worth keeping rather than running again in its vjp?
    Yes when it loops, calls another function of the user's, multiplies matrices or
    calls np.linalg, evaluates a transcendental ufunc (np.exp, np.tanh, np.log, ...),
    or draws random samples (kept, nothing to replay). A straight run of arithmetic
    (+, *, np.maximum, ...) costs about what reading the values it would save costs: its
    vjp stays whole. A transcendental costs tens of additions an element, and running it
    again costs the call: an LSTM's `sigmoid(z) = 1 / (1 + np.exp(-z))` gates (B=16, H=32)
    kept by fwd/bwd read 1.28x hand-written against 1.47x run again (session 24, paired;
    the whole vjp also repeats the negation, the sum and the quotient). One with an
    effect (a state update `self.calls += 1`, a print or a warning) is split too: its
    whole vjp would run the effect a second time after the call ran it.

        def sigmoid(z): return 1.0 / (1.0 + np.exp(-z))   ->  fwd_sigmoid / bwd_sigmoid
        def affine(x, w, b): return x * w + b              ->  vjp_affine, called whole
    """
    if draws:
        return True
    for node in walk_tree(helper_levels.tree):
        if isinstance(node, (gast.For, gast.While)) or \
                isinstance(node, gast.BinOp) and isinstance(node.op, gast.MatMult):
            return True
        if isinstance(node, gast.Call):
            function = operation_of(node, helper_levels.callees).primitive
            home = getattr(function, "__module__", None) or ""
            if function in _COSTLY or function in _EFFECTS or _transcendental(function) \
                    or home.startswith("numpy.linalg") or (
                    inspect.isfunction(function) and home.split(".")[0] not in ("numpy",
                                                                                  "s2s_ad")):
                return True
    return False


def _transcendental(function):
    """A ufunc that is not arithmetic, a comparison or a sign: numpy's np.exp, np.tanh,
    np.log1p, np.sqrt, ... (and scipy.special's ufuncs)."""
    return isinstance(function, numpy.ufunc) and function not in _ARITHMETIC


def _helper_call(stmt, levels, activity, registry):
    """(helper, its active parameters) for `t = helper(...)` reversed by the helper's
    vjp (as ad/reverse.py's _prepare_helpers decides), else (None, None)."""
    if not (isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)
            and isinstance(stmt.value, gast.Call)):
        return None, None
    op = operation_of(stmt.value, levels.callees)
    if not activity.is_active(stmt.targets[0].id) or not differentiated_helper(op, registry):
        return None, None
    params = list(inspect.signature(op.primitive).parameters)
    wrt = []
    for position, atom in enumerate(op.args):
        if isinstance(atom, gast.Name) and activity.is_active(atom.id) \
                and position < len(params):
            wrt.append(params[position])
    wrt += [key for key, atom in op.keywords.items()
            if isinstance(atom, gast.Name) and activity.is_active(atom.id)]
    return (op.primitive, tuple(wrt)) if wrt else (None, None)
