"""Which arrays a list, tuple or dict made in f holds, and at which places, for the alias
analysis (analyses/aliases.py): a write into an array one of them holds is seen
through it, and an update of an item (`c[k] op= v`) writes into the array held there.

    parts = [z, z * 2.0]       literal_items -> ['z', 't1_0']
    d = {"W": W}               literal_items -> {'W': 'W'}  (make_mapping, as normalize
                                                             writes the display)
    lst = [z] * 2              repeated_list -> {'z'}       (places not followed)
    d["b"] = b                 put_item: d's places -> {'W': 'W', 'b': 'b'}
"""
import gast

from ..ir.build import dotted_path
from ..runtime_mappings import make_mapping


def literal_items(value, callees, positions):
    """The names a list, tuple or dict literal holds: [name or None] by position, or
    {key: name or None} for a dict (`make_mapping(('W', 'b'), t2_0)`, t2_0 = (W, b), as
    normalize writes `{"W": W, "b": b}`; `positions`: the tuples' items so far); None
    for any other value."""
    if isinstance(value, (gast.List, gast.Tuple)):
        return [e.id if isinstance(e, gast.Name) else None for e in value.elts]
    if not (isinstance(value, gast.Call) and callees.get(dotted_path(value.func))
            is make_mapping and len(value.args) == 2):
        return None
    keys, values = value.args
    if isinstance(keys, gast.Name) and positions.get(keys.id) == [] \
            and isinstance(values, gast.Name) and positions.get(values.id) == []:
        return {}                                   # `d = {}`
    if not isinstance(keys, gast.Tuple):
        return None
    keys = keys.elts
    if isinstance(values, gast.Name) and isinstance(positions.get(values.id), list):
        names = positions[values.id]
    elif isinstance(values, gast.Tuple):
        names = [v.id if isinstance(v, gast.Name) else None for v in values.elts]
    else:
        return None
    if all(isinstance(k, gast.Constant) for k in keys):
        return {k.value: n for k, n in zip(keys, names)}
    return names


def repeated_list(value, members):
    """The arrays a list made from lists holds (`[z] * 2`, `a + b`): those of the lists
    it is made from, when each is known (`members`), else None."""
    if not isinstance(value, gast.BinOp):
        return None
    lists = [s.id for s in (value.left, value.right) if isinstance(s, gast.Name)
             and s.id in members]
    if isinstance(value.op, gast.Mult) and len(lists) == 1 \
            or isinstance(value.op, gast.Add) and len(lists) == 2:
        return set().union(*(members[n] for n in lists))
    return None


def put_item(positions, holder, index, name):
    """`holder[index] = name`: the name at that constant key or position of a literal
    whose places are followed; any other index leaves its places unknown."""
    items = positions.get(holder)
    if isinstance(items, dict) and isinstance(index, gast.Constant):
        items[index.value] = name
    elif isinstance(items, list) and isinstance(index, gast.Constant) \
            and isinstance(index.value, int) and -len(items) <= index.value < len(items):
        items[index.value] = name
    else:
        positions.pop(holder, None)


def item_names(index, items, held):
    """The names an item `index` of a list may be: the one at a constant index of a
    literal (`items`; a constant key of a dict literal), else any it holds."""
    if isinstance(items, dict):
        if isinstance(index, gast.Constant) and index.value in items:
            item = items[index.value]
            return {item} if item is not None else set()
        return held
    if items is not None and isinstance(index, gast.Constant) \
            and isinstance(index.value, int) and -len(items) <= index.value < len(items):
        item = items[index.value]
        return {item} if item is not None else set()
    return held
