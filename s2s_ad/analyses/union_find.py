"""The root of a name in a union-find forest kept as a plain dict {name: parent}, with path
halving, so a chain of n straight-line statements costs n steps, not n**2. The analyses
that group names (same shape, same kind, copies of one dict) keep their own dict and join
roots with `parent[root_of(parent, a)] = root_of(parent, b)`.

    parent = {"c": "b", "b": "a"}
    root_of(parent, "c")   ->  "a"      (and parent["c"] is now "a")
"""


def root_of(parent, name):
    while parent.get(name, name) != name:
        parent[name] = parent.get(parent[name], parent[name])
        name = parent[name]
    return name
