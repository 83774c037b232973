"""The coverage table users read (python -m tests.coverage) checks what it claims."""
import coverage as coverage_table


def test_the_table_checks_each_function_in_all_three_columns():
    names = {"numpy.tanh", "numpy.linalg.cholesky", "operator.mul"}
    rows = coverage_table.table(quick=True, names=names)
    assert {name for name, *_ in rows} == names
    assert all(failure is None for _, *failures in rows for failure in failures)
    text = coverage_table.render(rows)
    assert text.splitlines()[0].split() == ["function", "reverse", "forward", "second", "order"]
    assert "| `numpy.tanh` | yes | yes | yes |" in coverage_table.render(rows, markdown=True)


def test_a_wrong_second_derivative_is_reported_not_hidden(monkeypatch):
    import numpy as np
    from primitive_specs import Spec

    def tanh_of(x):
        return np.tanh(x)
    spec = Spec(np.tanh, tanh_of, [((4,),)])
    assert coverage_table.second_order(spec, ((4,),)) is None
    right = coverage_table.s2s_ad.hvp
    monkeypatch.setattr(coverage_table.s2s_ad, "hvp",
                        lambda f, wrt: lambda *a: 2.0 * right(f, wrt=wrt)(*a))
    assert "differs" in coverage_table.second_order(spec, ((4,),))


def test_function_names_are_where_users_find_them():
    import operator
    import numpy as np
    assert coverage_table.function_name(np.linalg.cholesky) == "numpy.linalg.cholesky"
    assert coverage_table.function_name(np.add) == "numpy.add"
    assert coverage_table.function_name(operator.mul) == "operator.mul"


def test_np_piecewise_is_listed_under_its_own_name():
    """normalize writes np.piecewise with a runtime helper; the table names what users call"""
    rows = coverage_table.table(quick=True, names={"numpy.piecewise"})
    assert [(name, *failures) for name, *failures in rows] == \
        [("numpy.piecewise", None, None, None)]


def test_peer_functions_exist_and_aliases_share_a_row(monkeypatch):
    """tests/peer_functions.py names numpy functions (checked by --peers); an alias works
    through its function's row, a function without a template is named as such (every
    peer function has one now: np.busday_count, which has none, is added for the test)"""
    import numpy as np
    from peer_functions import PEER_FUNCTIONS
    assert len(PEER_FUNCTIONS) == len(set(PEER_FUNCTIONS)) > 240
    assert all(callable(coverage_table._numpy_function(n)) for n in PEER_FUNCTIONS)
    assert np.acos is np.arccos
    monkeypatch.setattr(coverage_table, "PEER_FUNCTIONS", list(PEER_FUNCTIONS) + ["busday_count"])
    works, missing = coverage_table.peer_coverage(
        names={"acos", "arccos", "poly", "linalg.multi_dot", "busday_count"})
    assert sorted(works) == ["acos", "arccos", "linalg.multi_dot", "poly"]
    assert missing == {"busday_count": "no template"}
