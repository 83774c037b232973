"""Multiply by the adjoint of a reduction as it is, not spread out to an array.

`np.sum(v)` over all axes gives v the adjoint `unreduce(g, v)`: an array of v's shape
filled with the number g (with keepdims=True, g is spread along the reduced axes).
When that array's only use is as a factor of a product that already has a factor of
v's shape, the product has that shape without it and g can be multiplied in directly,
where broadcasting spreads it, saving an allocation and a pass over the data:

    t10_0_bar = unreduce(1.0, t9_0, None, False)
    t9_0_bar = t10_0_bar * 2 * t9_0               ->    t9_0_bar = 1.0 * 2 * t9_0

v's shape is known to be the factor's when the factor is v itself or v is an
elementwise function of the factor alone (`v = f ** 2`, `v = np.exp(f)`): the backward
sweep reads every value as it was when its statement ran, so the two shapes agree.
"""
import gast

from ..ir import build
from ..ir.walk import all_statements, walk_tree

_ELEMENTWISE_BINOPS = (gast.Add, gast.Sub, gast.Mult, gast.Div, gast.Pow, gast.Mod)


def make_seed_folding_pass(unreduce_name, restore_names, is_elementwise_call):
    """A pass (body -> (body, changed)). unreduce_name(): the generated name of
    runtime.unreduce; restore_names(): names of calls that restore a value from the tape
    (the placeholder helper) besides `_tape.pop()`."""
    def run(body):
        unreduce = unreduce_name()
        if unreduce is None or not any(_full_unreduce(stmt, unreduce) is not None
                                       for stmt in all_statements(body)):
            return body, False           # the usual case after the first round: no walk
        module = gast.Module(body=body, type_ignores=[])
        definitions, loads, parents = _survey(module)
        restores = set(restore_names())
        changed = False
        for block in _blocks(module):
            for k, stmt in enumerate(list(block)):
                seed = _full_unreduce(stmt, unreduce)
                if seed is None:
                    continue
                target, g, shaped = stmt.targets[0].id, seed[0], seed[1]
                if len(definitions.get(target, ())) != 1 or len(loads.get(target, ())) != 1:
                    continue
                use = loads[target][0]
                factors = _product_factors(use, parents)
                if factors is None or not any(
                        _same_shape(f, shaped, definitions, restores, is_elementwise_call)
                        for f in factors):
                    continue
                if not _unchanged_between(block, stmt, use, g, shaped, parents):
                    continue
                _replace(use, build.clone(g), parents)
                block.remove(stmt)
                changed = True
        return module.body, changed

    return run


def _survey(module):
    definitions, loads, parents = {}, {}, {}
    for node in walk_tree(module):
        for child in gast.iter_child_nodes(node):
            parents[id(child)] = node
        if isinstance(node, gast.Name):
            if isinstance(node.ctx, gast.Load):
                loads.setdefault(node.id, []).append(node)
            else:
                parent = parents.get(id(node))
                plain = isinstance(parent, gast.Assign) and parent.targets == [node]
                definitions.setdefault(node.id, []).append(parent.value if plain else None)
    return definitions, loads, parents


def _blocks(module):
    for node in walk_tree(module):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], gast.stmt):
                yield block


def _full_unreduce(stmt, unreduce):
    """(g, v) for `x = unreduce(g, v, None, False)` or `unreduce(g, v, axis, True)` (v a
    name: g broadcasts against v's shape as it is), else None."""
    if not (isinstance(stmt, gast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], gast.Name) and isinstance(stmt.value, gast.Call)):
        return None
    call = stmt.value
    if not (isinstance(call.func, gast.Name) and call.func.id == unreduce) or call.keywords \
            or not 2 <= len(call.args) <= 4 or not isinstance(call.args[1], gast.Name):
        return None
    axis, keepdims = (list(call.args[2:]) + [build.const(None), build.const(False)][
        len(call.args) - 2:])[:2]
    kept = isinstance(keepdims, gast.Constant) and keepdims.value is True
    whole = isinstance(axis, gast.Constant) and axis.value is None \
        and isinstance(keepdims, gast.Constant) and keepdims.value is False
    return (call.args[0], call.args[1].id) if kept or whole else None


def _product_factors(use, parents):
    """The factors of the largest product `use` is a factor of (through *, the
    numerator of /, unary minus), or None when `use` is not in a product."""
    top, node = None, use
    while True:
        parent = parents.get(id(node))
        if isinstance(parent, gast.BinOp) and (isinstance(parent.op, gast.Mult) or (
                isinstance(parent.op, gast.Div) and parent.left is node)):
            top = node = parent
        elif isinstance(parent, gast.UnaryOp) and isinstance(parent.op, gast.USub):
            node = parent
        else:
            break
    if top is None:
        return None
    factors, pending = [], [top]
    while pending:
        node = pending.pop()
        if isinstance(node, gast.BinOp) and isinstance(node.op, gast.Mult):
            pending += [node.left, node.right]
        elif isinstance(node, gast.BinOp) and isinstance(node.op, gast.Div):
            pending.append(node.left)
        elif isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub):
            pending.append(node.operand)
        elif isinstance(node, gast.Name) and node is not use:
            factors.append(node.id)
    return factors


def _same_shape(factor, shaped, definitions, restores, is_elementwise_call):
    if factor == shaped:
        return True
    values = [v for v in definitions.get(shaped, ()) if not _restore(v, restores)]
    return bool(values) and all(
        v is not None and _only_operand(v, is_elementwise_call) == factor for v in values)


def _restore(value, restores):
    """A tape restore, or the `v = None` a loop's taped value starts from."""
    if isinstance(value, gast.Constant) and value.value is None:
        return True
    if not isinstance(value, gast.Call):
        return False
    func = value.func
    return (isinstance(func, gast.Name) and func.id in restores) or (
        isinstance(func, gast.Attribute) and func.attr == "pop")


def _only_operand(value, is_elementwise_call):
    """f for an elementwise operation whose only non-literal operand is the name f."""
    names = set(elementwise_operands(value, is_elementwise_call) or ())
    return names.pop() if len(names) == 1 else None


def _unchanged_between(block, stmt, use, g, shaped, parents):
    """The use is in a later statement of the same block, and nothing in between rebinds
    a name g reads, or the value whose shape the seed had."""
    user = use
    while id(user) in parents and user not in block:
        user = parents[id(user)]
    if user not in block or block.index(user) <= block.index(stmt):
        return False
    read = {n.id for n in walk_tree(g) if isinstance(n, gast.Name)} | {shaped}
    for between in block[block.index(stmt) + 1:block.index(user)]:
        for node in walk_tree(between):
            if isinstance(node, gast.Name) and not isinstance(node.ctx, gast.Load) \
                    and node.id in read:
                return False
    return True


def _replace(old, new, parents):
    parent = parents[id(old)]
    for field, value in gast.iter_fields(parent):
        if value is old:
            setattr(parent, field, new)
        elif isinstance(value, list):
            for k, item in enumerate(value):
                if item is old:
                    value[k] = new


def elementwise_operands(value, is_elementwise_call):
    """The Name operands of an elementwise operation (literals dropped), else None."""
    if isinstance(value, gast.BinOp) and isinstance(value.op, _ELEMENTWISE_BINOPS):
        atoms = [value.left, value.right]
    elif isinstance(value, gast.UnaryOp) and isinstance(value.op, (gast.USub, gast.UAdd)):
        atoms = [value.operand]
    elif isinstance(value, gast.Call) and is_elementwise_call(value):
        atoms = list(value.args)
    else:
        return None
    names = [a.id for a in atoms if isinstance(a, gast.Name)]
    if len(names) + sum(isinstance(a, gast.Constant) for a in atoms) != len(atoms):
        return None
    return names or None
