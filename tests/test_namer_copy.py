"""Namer.__deepcopy__ (ir/naming.py): a deep copy without copy.deepcopy's walk."""
import copy

from s2s_ad.ir.naming import Namer


def test_a_namer_deep_copy_is_equal_and_independent():
    """pipeline copies the shared namer per derivation (Namer.__deepcopy__): the copy
    names as the original would, and naming in one leaves the other as it was."""
    namer = Namer(["x", "t1_0"])
    namer.adjoint("x"), namer.level_temp(1), namer.tangent("p", "x")
    copied = copy.deepcopy(namer)
    assert vars(copied) == vars(namer)
    assert copied.fresh("y") == namer.fresh("y") == "y"
    assert copied.adjoint("z") == "z_bar" and not namer.is_adjoint("z_bar")
    assert copied.level_temp(1) == "t1_2" and namer.level_temp(2) == "t2_0"
    assert copied.is_taken("t1_2") and not namer.is_taken("t1_2")
    assert copy.deepcopy([namer, namer])[0] is not namer
    pair = copy.deepcopy([namer, namer])
    assert pair[0] is pair[1]
