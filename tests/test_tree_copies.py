"""build.clone copies a tree as copy.deepcopy does (it replaced deepcopy where stages copy
trees, for speed): same nodes, fields and positions, nothing shared with the original,
and a node reached twice copied once."""
import copy

import gast
import numpy as np

import s2s_ad
from s2s_ad.derivative_registry import CACHE, dispatcher_of
from s2s_ad.ir import build
from s2s_ad.ir.walk import walk_tree


def _shape(node):
    """Every node's class and non-node attributes (positions included), in walk order,
    with the pattern of which nodes are the same object."""
    first_seen, out = {}, []
    for n in walk_tree(node):
        out.append((type(n).__name__, first_seen.setdefault(id(n), len(first_seen)),
                    sorted((k, repr(v)) for k, v in vars(n).items()
                           if not isinstance(v, (gast.AST, list)))))
    return out


def _loss(w, x, y):
    h = np.tanh(x @ w)
    total = 0.0
    for k in range(3):
        total = total + np.sum((h * k - y) ** 2)
    return total / 3.0


def test_a_copy_matches_deepcopy_node_for_node_and_shares_nothing_with_the_original():
    df = s2s_ad.grad(_loss)
    args = (np.ones(3) * 0.1, np.ones((4, 3)), np.ones(4))
    df(*args)
    built = dispatcher_of(df).built[-1].function
    tree = CACHE.derived_of(built).levels_tree
    for node in [tree, tree.body, tuple(tree.body), tree.body[2]]:
        mine, theirs = build.clone(node), copy.deepcopy(node)
        assert gast.dump(mine, include_attributes=True) == \
            gast.dump(theirs, include_attributes=True) if not isinstance(node, (list, tuple)) \
            else [gast.dump(s, include_attributes=True) for s in mine] == \
            [gast.dump(s, include_attributes=True) for s in theirs]
        originals = {id(n) for s in ([node] if not isinstance(node, (list, tuple)) else node)
                     for n in walk_tree(s)}
        for s in ([mine] if not isinstance(node, (list, tuple)) else mine):
            assert all(id(n) not in originals for n in walk_tree(s))
            assert _shape(s) == _shape(copy.deepcopy(s))


def test_a_node_reached_twice_is_copied_once_and_atoms_are_kept():
    shared = build.name("x")
    tree = gast.BinOp(left=shared, op=gast.Add(), right=shared)
    tree.lineno = 3
    copied = build.clone(tree)
    assert copied.left is copied.right and copied.left is not shared
    assert copied.lineno == 3 and not hasattr(copied, "col_offset")
    atoms = (1, "a", None)
    assert build.clone(atoms) is atoms
    pair = build.clone((shared, shared))
    assert pair[0] is pair[1] and pair[0] is not shared
