"""ir/walk.py's walks against plain definitions: all_statements is the pre-order of
nested blocks (body before orelse, read when reached), walk_tree is gast.walk."""
import gast

from s2s_ad.ir.walk import all_statements, walk_tree

SOURCE = """
def f(x):
    a = 1
    if x:
        b = 2
        for i in x:
            c = 3
            while c:
                d = 4
            else:
                e = 5
        else:
            g = 6
    elif x > 1:
        h = 7
    else:
        k = 8
    try:
        m = 9
    except Exception:
        n = 10
    else:
        o = 11
    with open(x) as fh:
        p = 12
    return a
"""


def _pre_order(body):
    for stmt in body:
        yield stmt
        for field in ("body", "orelse"):
            block = getattr(stmt, field, None)
            if isinstance(block, list):
                yield from _pre_order(block)


def test_all_statements_is_the_pre_order_of_blocks():
    body = gast.parse(SOURCE).body[0].body
    got = list(all_statements(body))
    assert [id(s) for s in got] == [id(s) for s in _pre_order(body)]
    assert len(got) == 18          # (an except handler's body is not a block here)


def test_all_statements_reads_a_block_when_it_reaches_it():
    body = gast.parse(SOURCE).body[0].body
    seen = []
    for stmt in all_statements(body):
        seen.append(stmt)
        if isinstance(stmt, gast.If) and stmt.body:
            stmt.body = stmt.body[:1]            # the caller drops the rest: not visited
    assert sum(isinstance(s, gast.For) for s in seen) == 0
    assert len(seen) == 12         # the for loop, its body and its else: not visited


def test_walk_tree_is_gast_walk():
    tree = gast.parse(SOURCE + "\ny = [v * w for v in range(3) if v] + {**z}\n")
    assert [id(n) for n in walk_tree(tree)] == [id(n) for n in gast.walk(tree)]


def test_tree_depth_counts_levels_and_names_the_innermost_located_node():
    import ast
    from s2s_ad.ir.depth import tree_depth
    tree = ast.parse("x = 1\ny = -(-(a + (b * c[0])))\n")
    depth, deepest = tree_depth(tree)
    # Module > Assign > UnaryOp > UnaryOp > BinOp > BinOp > Subscript > Name > Load
    assert depth == 9
    assert isinstance(deepest, ast.Name) and deepest.id == "c"


def test_name_queries_are_the_walk_filtered():
    from s2s_ad.ir.walk import name_counts, names_loaded, names_stored
    tree = gast.parse(SOURCE + "\ndef g(a: List[T], *b: int) -> T:\n    del a\n"
                      "    c = [v for v in b if (w := v)]\n    return c[w]\n")
    walked = [n for n in walk_tree(tree) if isinstance(n, gast.Name)]
    assert names_loaded(tree) == [n.id for n in walked if isinstance(n.ctx, gast.Load)]
    assert names_stored(tree) == [n.id for n in walked if isinstance(n.ctx, gast.Store)]
    assert "T" in names_loaded(tree) and "w" in names_stored(tree)
    loads, stores = name_counts(tree.body)
    assert sum(loads.values()) == sum(isinstance(n.ctx, gast.Load) for n in walked)
    assert sum(stores.values()) == len(walked) - sum(loads.values())
    assert stores["a"] == 3 and loads["List"] == 1   # f's `a = 1`, g's parameter, `del a`
