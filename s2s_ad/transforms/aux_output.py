"""has_aux: f returns (loss, aux); the derivative differentiates loss and returns aux.

On the levels form, every assignment to the returned variable becomes two, so that the
function returns the loss alone and the aux value sits in a variable of its own:

    t5_0 = loss, h              t5_0 = loss
    return t5_0         ->      t5_0_aux = h
                                return t5_0

(`result = None`, the start of a function with several returns, gets `..._aux = None`
beside it.) Anything else assigned to the returned variable is a located error: f must
return a pair. Returns a new LevelsForm and the aux variable's name; the input is not
changed.
"""
import dataclasses

import gast

from ..errors import APIUsageError
from ..ir import build


def split_aux(levels, namer):
    tree = build.clone(levels.tree)
    returned = tree.body[-1].value
    where = levels.parsed.source_map
    if not isinstance(returned, gast.Name):
        raise APIUsageError("with has_aux=True the function returns a pair (loss, aux)",
                            where.locate(tree.body[-1]), "return loss, aux")
    aux = namer.fresh(f"{returned.id}_aux")
    _split_block(tree.body, returned.id, aux, where)
    levels_of = dict(levels.levels)
    levels_of[aux] = levels_of.get(returned.id, 0)
    return dataclasses.replace(levels, tree=tree, levels=levels_of), aux


def _split_block(body, result, aux, where):
    k = 0
    while k < len(body):
        stmt = body[k]
        for field in ("body", "orelse"):
            inner = getattr(stmt, field, None)
            if inner and isinstance(inner[0], gast.stmt):
                _split_block(inner, result, aux, where)
        if isinstance(stmt, gast.Assign) and any(
                isinstance(t, gast.Name) and t.id == result for t in stmt.targets):
            value = stmt.value
            if isinstance(value, gast.Tuple) and len(value.elts) == 2:
                stmt.value, second = value.elts
                body.insert(k + 1, build.assign(aux, second))
                k += 1
            elif isinstance(value, gast.Constant) and value.value is None:
                body.insert(k + 1, build.assign(aux, build.const(None)))
                k += 1
            else:
                raise APIUsageError(
                    "with has_aux=True the function returns a pair (loss, aux); this "
                    "value is what it returns", where.locate(stmt), "return loss, aux")
        k += 1
