"""A dict of functions made in f and called by constant keys, `acts = {"tanh": lambda z:
np.tanh(z) * c, "relu": relu}` then `acts["tanh"](x)`: each lambda becomes a function
of its own name, as if the user had written `acts_tanh = lambda z: ...`, and each read
`acts["tanh"]` that name (a def or a global function under a key: its own name), so the
lambdas are differentiated like any named lambda, through what they read of f.

    acts = {"tanh": lambda z: np.tanh(z) * c}     acts_tanh = lambda z: np.tanh(z) * c
    return acts["tanh"](x)                    ->  return acts_tanh(x)

Runs on the parsed function, before resolve (stage 2) and fence (stage 3), on a copy:
the input is not changed. Only a dict assigned once, whose keys are strings and whose
every read is `acts[<one of its keys>]`: another dict (a key chosen when the code runs,
the dict passed on or changed) is left as it is, and its lambdas are then the fence's
located error.
"""
import dataclasses

import gast

from ..ir import build
from ..ir.walk import walk_tree


def inline_function_tables(parsed, taken):
    """`parsed` (parse.ParsedFunction) with every such dict replaced; `taken`: names the
    new ones must not be (f's globals and builtins)."""
    tables = _tables(parsed.tree)
    if not tables:
        return parsed
    tree = build.clone(parsed.tree)
    tables = _tables(tree)
    used = {n.id for n in walk_tree(tree) if isinstance(n, gast.Name)} | set(taken)
    renamed = {}                      # (table, key) -> the name that holds its function
    made = {}                         # id(the dict's assignment) -> the assignments
    for table, stmt in tables.items():
        made[id(stmt)] = []
        for key, value in zip(stmt.value.keys, stmt.value.values):
            if isinstance(value, gast.Name):
                renamed[table, key.value] = value.id
                continue
            name = _fresh(f"{table}_{key.value}" if key.value.isidentifier()
                          else f"{table}_item", used)
            renamed[table, key.value] = name
            made[id(stmt)].append(build.with_location(build.assign(name, value), value))
    for node in walk_tree(tree):
        for field, old in gast.iter_fields(node):
            if isinstance(old, list):
                setattr(node, field, _replaced_list(old, made, renamed))
            elif _is_read(old, renamed):
                setattr(node, field, _read_name(old, renamed))
    return dataclasses.replace(parsed, tree=tree)


def _replaced_list(items, made, renamed):
    out = []
    for item in items:
        if id(item) in made:
            out.extend(made[id(item)])
        elif _is_read(item, renamed):
            out.append(_read_name(item, renamed))
        else:
            out.append(item)
    return out


def _is_read(node, renamed):
    return isinstance(node, gast.Subscript) and isinstance(node.value, gast.Name) \
        and isinstance(node.slice, gast.Constant) \
        and (node.value.id, node.slice.value) in renamed


def _read_name(node, renamed):
    return build.with_location(build.name(renamed[node.value.id, node.slice.value]), node)


def _tables(tree):
    """{name: its assignment} of the dicts of functions f makes and reads by constant
    keys only."""
    stores, assigned = {}, {}
    for node in walk_tree(tree):
        if isinstance(node, gast.Name) and isinstance(node.ctx, (gast.Store, gast.Del)):
            stores[node.id] = stores.get(node.id, 0) + 1
        if isinstance(node, gast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], gast.Name) \
                and isinstance(node.value, gast.Dict) and node.value.keys \
                and all(isinstance(k, gast.Constant) and isinstance(k.value, str)
                        for k in node.value.keys) \
                and any(isinstance(v, gast.Lambda) for v in node.value.values) \
                and all(isinstance(v, (gast.Lambda, gast.Name)) for v in node.value.values):
            assigned[node.targets[0].id] = node
    tables = {name: stmt for name, stmt in assigned.items() if stores.get(name) == 1
              and len({k.value for k in stmt.value.keys}) == len(stmt.value.keys)}
    reads = {id(n.value) for n in walk_tree(tree) if isinstance(n, gast.Subscript)
             and isinstance(n.value, gast.Name) and n.value.id in tables
             and isinstance(n.slice, gast.Constant)
             and n.slice.value in {k.value for k in tables[n.value.id].value.keys}}
    for node in walk_tree(tree):
        if isinstance(node, gast.Name) and node.id in tables \
                and isinstance(node.ctx, gast.Load) and id(node) not in reads:
            tables.pop(node.id)
    return tables


def _fresh(base, used):
    name = base
    while name in used:
        name += "_"
    used.add(name)
    return name
