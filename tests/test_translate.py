"""ir/translate.py makes the trees gast's own translators make: the same node classes,
the same fields and positions, written in the same order (a clone copies a node's
attributes in that order), on every kind of source s2s_ad reads or writes."""
import ast
import glob
import math
import os

import gast
import numpy as np
import pytest

import s2s_ad
from s2s_ad.ir.translate import parse_gast, to_ast, to_gast

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def assert_same_tree(got, want, path="tree"):
    assert type(got) is type(want), f"{path}: {type(got).__name__} != {type(want).__name__}"
    if isinstance(want, ast.AST):
        assert list(vars(got)) == list(vars(want)), f"{path}: {list(vars(got))}"
        for key, value in vars(want).items():
            assert_same_tree(vars(got)[key], value, f"{path}.{key}")
    elif isinstance(want, list):
        assert len(got) == len(want), f"{path}: {len(got)} items, not {len(want)}"
        for k, (a, b) in enumerate(zip(got, want)):
            assert_same_tree(a, b, f"{path}[{k}]")
    else:
        assert got == want or (got != got and want != want), f"{path}: {got!r} != {want!r}"


def _sources():
    patterns = ("templates/*.py", "s2s_ad/ir/*.py", "benchmarks/user_*.py", "examples/*.py")
    return sorted(p for pattern in patterns
                  for p in glob.glob(os.path.join(ROOT, pattern), recursive=True))


@pytest.mark.parametrize("path", _sources(), ids=lambda p: os.path.relpath(p, ROOT))
def test_both_ways_as_gast_translates(path):
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    want = gast.parse(text)
    assert_same_tree(parse_gast(text), want)
    assert_same_tree(to_gast(ast.parse(text)), want)
    assert_same_tree(to_ast(want), gast.gast_to_ast(want))


SYNTAX = '''
async def f(x: int, /, y=1, *args: float, z, w=2, **kw) -> None:
    """doc"""
    global g
    a = b = [i * j for i in x if i for j in y]
    c: float = {k: v for k, v in kw.items()}
    d = {*x, *y}, (lambda q, *r: q)(1), x[1:2, ::3, ...], f"{x!r:>{y}}"
    del a[0], b
    async with open(x) as (h, e), open(y):
        pass
    async for t in z:
        continue
    try:
        raise ValueError from None
    except (TypeError, ValueError) as err:
        print(err)
    except Exception:
        pass
    else:
        return
    finally:
        assert x, "m"
    while (n := len(x)) > 0:
        break
    match x:
        case [1, *rest] | {"k": 2, **other} if rest:
            pass
        case Point(x=0, y=_) as p:
            pass
    yield from x
    await z
    return -x if not x else ~x
'''


def test_every_statement_and_expression_as_gast_translates():
    want = gast.parse(SYNTAX)
    assert_same_tree(parse_gast(SYNTAX), want)
    assert_same_tree(to_ast(want), gast.gast_to_ast(want))


def test_generated_derivatives_read_back_as_gast_reads_them():
    def f(x, w):
        h = np.tanh(x @ w)
        return np.sum(h * h) + math.exp(0.5)
    df = s2s_ad.grad(f, wrt=(1,))
    x, w = np.ones((3, 2)), np.ones((2, 4))
    df(x, w)
    for source in (s2s_ad.derivative_source(df), s2s_ad.derivative_source(df, x, w)):
        want = gast.parse(source)
        assert_same_tree(parse_gast(source), want)
        assert_same_tree(to_ast(want), gast.gast_to_ast(want))

