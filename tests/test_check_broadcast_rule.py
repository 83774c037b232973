"""runtime_checks.check_broadcast decides broadcasting in Python (numpy's rule from the
right) and calls np.broadcast_shapes only to raise numpy's own error: it raises exactly
where numpy does, over many drawn shapes, and a call whose shapes broadcast never reaches
np.broadcast_shapes."""
import itertools

import numpy as np
import pytest

from s2s_ad import runtime_checks
from s2s_ad.runtime_checks import check_broadcast


def operand(shape):
    return np.zeros(shape) if shape is not None else 2.5          # None: a number


def broadcasts(shapes):
    try:
        np.broadcast_shapes(*[s or () for s in shapes])
        return True
    except ValueError:
        return False


LENGTHS = [(), (1,), (3,), (4,), (0,), (1, 1), (3, 1), (1, 4), (3, 4), (4, 3), (2, 3, 4),
           (2, 1, 4), (1, 3, 1), (5, 3, 4), None]


@pytest.mark.parametrize("count", [2, 3, 4])
def test_raises_where_numpy_does(count):
    for shapes in itertools.islice(itertools.product(LENGTHS, repeat=count), 0, None, 7):
        args = [operand(s) for s in shapes]
        if broadcasts(shapes):
            check_broadcast(*args)
        else:
            with pytest.raises(ValueError):
                check_broadcast(*args)


def test_broadcasting_shapes_skip_numpy(monkeypatch):
    called = []
    monkeypatch.setattr(runtime_checks.np, "broadcast_shapes",
                        lambda *s: called.append(s))
    check_broadcast(np.zeros((512, 10)), np.zeros(10), np.zeros((512, 1)), np.zeros((512, 1)))
    check_broadcast(np.zeros((3, 4)), 1.0, np.zeros((2, 1, 4)))
    assert not called
    check_broadcast(np.zeros((3, 4)), np.zeros(3))               # numpy raises this one
    assert called
