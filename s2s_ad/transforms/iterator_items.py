"""When a loop may take a one-pass iterator's items as a list (transforms/control.py).

The normalized loop indexes what it iterates, so `for i, j in itertools.combinations(...)`
runs over `list(itertools.combinations(...))`. That is the loop's meaning only when the
list is read as the iterator would be: once, by one loop, the iterator made afresh each
time the loop starts. An iterator read twice (a second loop takes up where a `break` left
the first, `zip(it, it)` pairs consecutive items) or made once outside a loop that reads
it on every pass (exhausted after the first) would see every item again from a list: a
wrong value and gradient without an error. An endless iterator (`itertools.count()`,
`cycle`, `repeat(x)`) has no list at all. Both are located errors:

    it = iter(range(n))                 UnsupportedSyntaxError at `iter(range(n))`:
    for i in it: ... break              the iterator is read in 2 places ...
    for i in it: ...

And when `for k in d` iterates a dict's keys: when what the loop reads subscripts d by k
(`d[k]`, `d.get(k)`: subscripts_by), or d is made as a dict in f (made_as_dict), as
`for k in d.keys()` would.
"""
import itertools

import gast

from ..errors import UnsupportedSyntaxError
from ..ir.walk import walk_tree

_LOOPS = (gast.For, gast.While, gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)


def check_endless(function, call, locate):
    """`for i in itertools.count()`: the items are never all there to list."""
    endless = function in (itertools.count, itertools.cycle) or (
        function is itertools.repeat and len(call.args) < 2
        and not any(k.arg == "times" for k in call.keywords))
    if endless:
        raise UnsupportedSyntaxError(
            f"a loop over the endless iterator `itertools.{function.__name__}(...)` is not "
            f"supported (the loop runs over its items as a list)", locate(call),
            hint="loop over `range(n)` (or itertools.islice(..., n)) and compute the item "
                 "from the index")


def check_read_once(tree, name, value, makes_an_iterator, locate):
    """`name = value` (an iterator) is listed: every read of `name` must be the only one
    the binding reaches, in no loop the binding is outside of."""
    binds = [n for n in walk_tree(tree) if isinstance(n, gast.Assign)
             and any(isinstance(t, gast.Name) and t.id == name for t in n.targets)]
    reads = [n for n in walk_tree(tree) if isinstance(n, gast.Name) and n.id == name
             and isinstance(n.ctx, gast.Load)]
    iterators = [b for b in binds if makes_an_iterator(b.value)]
    problem = None
    if len(reads) > len(iterators):
        problem = f"is read in {len(reads)} places"
    else:
        made = {_at(b.value) for b in iterators if _at(b.value) == _at(value)}
        for loop in (n for n in walk_tree(tree) if isinstance(n, _LOOPS)):
            # what a loop iterates is read once, where it starts
            start = loop.iter if isinstance(loop, gast.For) else \
                loop.generators[0].iter if not isinstance(loop, gast.While) else None
            once = {id(n) for n in walk_tree(start)} if start is not None else set()
            inside = [n for n in walk_tree(loop) if id(n) not in once]
            if not made & {_at(n) for n in inside} \
                    and any(r is n for r in reads for n in inside):
                problem = "is made outside a loop that reads it on every pass"
                break
    if problem:
        raise UnsupportedSyntaxError(
            f"the one-pass iterator `{name}` {problem}: the derivative takes its items as a "
            f"list, which would give every item again where the iterator is exhausted",
            locate(value),
            hint=f"write `{name} = list(...)` and read the items you mean by index, or make "
                 f"the iterator where the one loop reading it starts")


def _at(node):
    """Where a node stands in the source (the tree normalized may be a copy of f's)."""
    return (getattr(node, "lineno", None), getattr(node, "col_offset", None))


def subscripts_by(body, container, key):
    """Does `body` read `container[key]` or `container.get(key, ...)` (plain names)?"""
    return any(_reads_by(node, container, key) for stmt in body for node in walk_tree(stmt))


def _reads_by(node, container, key):
    if isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) \
            and node.func.attr == "get" and node.args and not node.keywords:
        node, index = node.func, node.args[0]       # d.get(k): d's value at the key k
    elif isinstance(node, gast.Subscript):
        index = node.slice
    else:
        return False
    return isinstance(node.value, gast.Name) and node.value.id == container \
        and isinstance(index, gast.Name) and index.id == key


def made_as_dict(values, stores):
    """Is a name of f, assigned these `values` (its plain assignments) and stored `stores`
    times, a dict wherever it is read: each a dict display, comprehension or dict(...)?
    (`for k in d` over it iterates its keys, as `for k in d.keys()`, also where the loop
    never reads d[k]: `names = [k for k in d]`.)"""
    return bool(values) and len(values) == stores and all(
        isinstance(v, (gast.Dict, gast.DictComp)) or isinstance(v, gast.Call)
        and isinstance(v.func, gast.Name) and v.func.id == "dict" for v in values)
