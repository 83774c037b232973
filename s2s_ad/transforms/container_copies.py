"""Specialisation on facts: `x.copy()` of a dict, list or tuple is that container's copy.

normalize lowers `x.copy()` to `np.copy(x)` before x's kind is known: an array's copy is
the common case, and the analyses know np.copy makes a fresh array. Where the facts
(analyses/kinds.py) say x is a dict, list or tuple (`e = d.copy()` of a dict argument, as
JAX and autograd users write), np.copy would make it a 0-d object array or an array of its
items; the statement becomes the container's own copy, as `copy.copy(x)` in f is written
(runtime_objects.copied, differentiated as the identity: the copy's adjoint is x's):

    e = np.copy(d)        ->      e = copied(d, False)        d: dict[a: float, b: float64[n]]

The general derivative, which does not know x's kind, keeps np.copy and the run-time
check that refuses it for a container (transforms/sequence_operands.py).

`container_copies(levels, kinds, namer, analyse)` returns `(levels, kinds)`: the input
pair when no copy is of a container, else a new LevelsForm (the input is not modified)
and the kinds `analyse(new_levels)` finds for it.
"""
import dataclasses

import gast
import numpy as np

from ..analyses.dataflow import is_list_or_tuple
from ..ir import build
from ..ir.primitives import operation_of
from ..ir.walk import all_statements
from ..runtime_objects import copied
from ..signature import Mapping, Opaque


def container_copies(levels, kinds, namer, analyse):
    found = [stmt for stmt in all_statements(levels.tree.body)
             if _copies_a_container(stmt, levels, kinds)]
    if not found:
        return levels, kinds
    marked = {id(stmt) for stmt in found}
    tree = build.clone(levels.tree)
    name = levels.runtime_names.get(copied) or namer.fresh("copied")
    for old, new in zip(all_statements(levels.tree.body), all_statements(tree.body)):
        if id(old) in marked:      # (a clone: the input's statements stay as they are)
            new.value = gast.copy_location(build.call(build.name(name), [
                build.clone(new.value.args[0]), build.const(False)]), new.value)
    candidate = dataclasses.replace(levels, tree=tree,
                                    callees={**levels.callees, name: copied},
                                    runtime_names={**levels.runtime_names, copied: name})
    # a copy of an item of a copied container (`q = p.copy(); e = q["enc"].copy()`) is
    # known a container only by the kinds of the new form: again until none is left
    return container_copies(candidate, analyse(candidate), namer, analyse)


def _copies_a_container(stmt, levels, kinds):
    """Is `stmt` `t = np.copy(x)` of an x the facts prove a dict, list or tuple?"""
    if not (isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)
            and isinstance(stmt.value, gast.Call) and len(stmt.value.args) == 1
            and not stmt.value.keywords and isinstance(stmt.value.args[0], gast.Name)
            and operation_of(stmt.value, levels.callees).primitive is np.copy):
        return False
    kind = kinds.of(stmt.value.args[0])
    return isinstance(kind, Mapping) or is_list_or_tuple(kind) \
        or isinstance(kind, Opaque) and kind.type is dict
