"""Tree plumbing made faster without changing what it gives: build.clone copies a tree as
copy.deepcopy does (it replaced deepcopy where stages copy trees): same nodes, fields and
positions, nothing shared with the original, a node reached twice copied once; emit
writes a tree's source without touching the tree; the stages' ways to build new nodes
(CopyingTransformer, with_blocks, without_statements) leave the nodes given as they were."""
import copy

import gast
import numpy as np

import s2s_ad
from s2s_ad.derivative_registry import CACHE, dispatcher_of
from s2s_ad.backend.emit import to_source
from s2s_ad.ir import build
from s2s_ad.ir.walk import (CopyingTransformer, same_nodes, walk_tree, with_blocks,
                            without_statements)


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


def test_emitting_a_tree_leaves_it_as_it_was_comments_and_emptied_blocks_included():
    body = [build.comment("grad of: y = np.tanh(x)"),
            gast.For(target=build.name("i", store=True), iter=build.name("xs"),
                     body=[build.comment("a loop the optimiser emptied")], orelse=[],
                     type_comment=None),
            build.assign("y", build.name("x"))]
    tree = gast.Module(body=body, type_ignores=[])
    before = gast.dump(tree, include_attributes=True)
    text = to_source(tree)
    assert text == ("# grad of: y = np.tanh(x)\nfor i in xs:\n"
                    "    # a loop the optimiser emptied\n    pass\ny = x\n")
    assert gast.dump(tree, include_attributes=True) == before


# ---- building new nodes instead of editing the given ones (ir/walk) ---------------------
def _dumps(body):
    return [gast.dump(s) for s in body]


class _Ones(CopyingTransformer):
    """`e * 1.0` -> e: a rewrite written the way optimize/fold.py is."""
    def visit_BinOp(self, node):
        node = self.generic_visit(node)
        if isinstance(node.op, gast.Mult) and build.number_literal(node.right) == 1.0:
            return node.left
        return node


def test_a_copying_transformer_leaves_the_tree_and_shares_what_did_not_change():
    body = gast.parse("y = (a * 1.0 + b) * c\nz = d\n").body
    before = _dumps(body)
    out = [_Ones().visit(s) for s in body]
    assert to_source(build.function_def("f", [], out)).count("* 1.0") == 0
    assert _dumps(body) == before                       # the input as it was
    assert out[1] is body[1]                            # nothing changed: the same node
    assert out[0].value.right is body[0].value.right    # `c`: shared, not copied


def test_with_blocks_copies_a_loop_only_where_a_block_changed():
    loop = gast.parse("for i in r:\n    x = 1\n    y = 2\nelse:\n    z = 3\n").body[0]
    before = gast.dump(loop)

    def drop_y(block):
        return [s for s in block if not (isinstance(s, gast.Assign)
                                         and s.targets[0].id == "y")]
    new = with_blocks(loop, drop_y)
    assert new is not loop and [s.targets[0].id for s in new.body] == ["x"]
    assert same_nodes(new.orelse, loop.orelse) and gast.dump(loop) == before
    assert with_blocks(loop, lambda block: block) is loop
    assert same_nodes(new.body, loop.body[:1]) and not same_nodes(new.body, loop.body)


def test_without_statements_leaves_the_compound_statements_given():
    body = gast.parse("if c:\n    x = 1\n    y = 2\nz = 3\n").body
    before = _dumps(body)
    out = without_statements(body, lambda s: isinstance(s, gast.Assign)
                             and s.targets[0].id in ("x", "y"))
    assert isinstance(out[0].body[0], gast.Pass) and _dumps(body) == before
