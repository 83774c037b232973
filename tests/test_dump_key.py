"""ir/walk.py dump_key: two trees share a key exactly when gast.dump shows them alike
(what common subexpressions and repeated calls are recognised by)."""
import glob
import os

import gast

from s2s_ad.ir.walk import dump_key, walk_tree

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

TRICKY = """
a = f(1, 1.0, True, None, -0.0, 0.0, 'x', b'x', ..., 1j)
b = g(x)(y)[1:2, ::-1]
c = {**d}, {1: 2}, [*e], (x := 1), lambda: 0
d = x if y else z
"""


def _partition(nodes, key):
    groups = {}
    for k, node in enumerate(nodes):
        groups.setdefault(key(node), []).append(k)
    return sorted(groups.values())


def test_keys_part_nodes_as_gast_dump_does():
    texts = [TRICKY] + [open(p, encoding="utf-8").read() for p in sorted(
        glob.glob(os.path.join(ROOT, "templates", "*.py")))[:12]]
    nodes = [n for text in texts for n in walk_tree(gast.parse(text))
             if isinstance(n, (gast.expr, gast.keyword, gast.comprehension))]
    assert len(nodes) > 5000
    assert _partition(nodes, dump_key) == _partition(nodes, gast.dump)


def test_literals_of_equal_value_and_other_type_differ():
    one, one_f, true = (gast.parse(s).body[0].value for s in ("1", "1.0", "True"))
    assert len({dump_key(one), dump_key(one_f), dump_key(true)}) == 3
    empty = gast.Call(func=gast.Name("f", gast.Load(), None, None), args=[], keywords=[])
    assert dump_key(empty) == dump_key(gast.parse("f()").body[0].value)
