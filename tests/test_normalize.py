"""The levels form (ARCHITECTURE §3) as s2s_ad.normalize shows it."""
import gast

import s2s_ad
from s2s_ad.ir.grammar import verify
from s2s_ad.pipeline import front


def quadratic(a, b, c, x):
    y = a * x ** 2 + b * x + c
    return y


def reassigns(x):
    x = x * 2.0
    x = x + 1.0
    s = x
    s += x
    return s


def methods(x, w):
    h = x.dot(w).T
    return h.sum(axis=0).mean() + x.reshape(2, -1).shape[0]


def test_levels_of_the_quadratic():
    text = s2s_ad.normalize(quadratic)
    assert text.splitlines()[1:6] == [
        "    t1_0 = x ** 2",
        "    t1_1 = b * x",
        "    t2_0 = a * t1_0",
        "    t3_0 = t2_0 + t1_1",
        "    y = t3_0 + c",
    ]


def test_reassigned_names_are_versioned_in_straight_line_code():
    text = s2s_ad.normalize(reassigns)
    assert "x_1 = x * 2.0" in text and "x_2 = x_1 + 1.0" in text and "s_1 = s + x_2" in text


def test_methods_and_attributes_become_numpy_calls():
    text = s2s_ad.normalize(methods)
    assert "np.dot(x, w)" in text and "np.transpose(" in text
    assert "np.sum(" in text and "axis=0" in text and "np.reshape(x, (2, -1))" in text


def test_every_statement_is_in_levels_form():
    for f in (quadratic, reassigns, methods):
        levels, _ = front(f)
        verify(levels.tree)
        for stmt in levels.tree.body:
            assert isinstance(stmt, (gast.Assign, gast.Return))


def test_verify_rejects_nested_operations():
    tree = gast.parse("def f(x):\n    y = np.exp(x * 2)\n    return y\n").body[0]
    try:
        verify(tree)
    except AssertionError:
        return
    raise AssertionError("verify accepted a nested operation")
