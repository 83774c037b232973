"""ad/context.py's forward_value: the generator reads a value the forward sweep holds
instead of writing its operation again (np.var's adjoint centres x on the user's mean),
and refuses wherever the holder may not hold that value in the backward sweep."""
import textwrap
from types import SimpleNamespace

import gast
import numpy as np
import pytest

import s2s_ad
from s2s_ad.ad.context import ExpansionContext
from s2s_ad.backend.emit import to_source


def _read(forward, expression):
    body = gast.parse(textwrap.dedent(forward)).body
    tree = gast.FunctionDef(name="f", args=gast.arguments(
        args=[], posonlyargs=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
        defaults=[]), body=body, decorator_list=[], returns=None, type_comment=None,
        type_params=[])
    inputs = SimpleNamespace(levels=SimpleNamespace(tree=tree))
    expr = gast.parse(expression).body[0].value
    return to_source(ExpansionContext(inputs).forward_value(expr)).strip()


@pytest.mark.parametrize("forward, expression, holder", [
    ("t4_0 = 0.5 * z\n", "z * 0.5", "t4_0"),                    # * commutes exactly
    ("mu = np.mean(x, axis=-1, keepdims=True)\n",
     "np.mean(x, keepdims=True, axis=-1)", "mu"),                # keyword order
    ("mu = np.mean(x, axis=0)\nt2_0 = x - mu\n", "x - mu", "t2_0"),
])
def test_a_held_value_is_read(forward, expression, holder):
    assert _read(forward, expression) == holder


@pytest.mark.parametrize("forward, expression", [
    ("t4_0 = 0.5 * z\nz = z + 1.0\n", "z * 0.5"),               # z bound again
    ("t4_0 = 0.5 * z\nt4_0[0] = 1.0\n", "0.5 * z"),              # the holder written into
    ("t4_0 = a - b\n", "b - a"),                                  # - does not commute
    ("for i in r:\n    t4_0 = 0.5 * z\n", "0.5 * z"),             # a new value each iteration
    ("mu = np.mean(x, axis=-1, keepdims=True)\n", "np.mean(x, axis=-1)"),
    ("mu = np.mean(x, axis=k)\n", "np.mean(x, axis=k)"),          # not a literal keyword
    ("mu = np.mean(x, axis=0)\nx.sort()\n", "np.mean(x, axis=0)"),  # a method may change x
])
def test_left_alone(forward, expression):
    assert _read(forward, expression) == to_source(gast.parse(expression).body[0].value).strip()


def doubled_square_and_max(x):
    return np.sum(2.0 * x * x) + np.max(x)


def test_a_contribution_added_to_a_sum_reads_the_forward_value():
    """x's adjoint from `2.0 * x * x` adds `x * 2.0`, which the forward sweep holds in t1_0
    (ad/adjoints.py asks forward_value), and the gradient is right."""
    x = np.array([0.5, -1.0, 2.0])
    df = s2s_ad.grad(doubled_square_and_max)
    source = s2s_ad.derivative_source(df, x)
    assert "x * 2.0" not in source and source.count("t1_0") == 3, source
    assert np.allclose(df(x), 4.0 * x + np.array([0.0, 0.0, 1.0]))
