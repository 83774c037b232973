"""runtime_keywords reads a held function's parameters once per def, not at every
backward call, and never gives a stale answer: new defaults, a new code object, the same
def as a bound method, each read afresh."""
import inspect

from s2s_ad import runtime_keywords
from s2s_ad.runtime_keywords import bound_arguments, keyword_part, keyword_positions


def test_the_parameters_are_read_once_per_def(monkeypatch):
    def act(x, alpha=0.1, beta=1.0):
        return x * alpha * beta

    calls = []
    real = inspect.signature
    monkeypatch.setattr(inspect, "signature", lambda f, *a, **k: calls.append(f) or real(f, *a, **k))
    for _ in range(5):
        assert keyword_part([1.0, 2.0, 3.0], act, (1.0,), ("beta",)) == [3.0]
    assert len(calls) == 1


def test_a_lambda_made_again_is_read_once(monkeypatch):
    calls = []
    real = inspect.signature
    monkeypatch.setattr(inspect, "signature", lambda f, *a, **k: calls.append(f) or real(f, *a, **k))
    for _ in range(3):
        act = lambda x, beta=1.0: x * beta          # noqa: E731  (a new function each time)
        assert keyword_positions(act, 1, ("beta",)) == [1]
    assert len(calls) == 1


def test_no_stale_answer():
    def act(x, alpha=0.1, beta=1.0):
        return x * alpha * beta

    def swapped(x, beta=1.0, alpha=0.1):
        return x * alpha * beta

    assert bound_arguments(act, (1.0,), ("beta",), (2.0,), "here") == (1.0, 0.1, 2.0)
    act.__defaults__ = (0.5, 1.0)
    assert bound_arguments(act, (1.0,), ("beta",), (2.0,), "here") == (1.0, 0.5, 2.0)
    act.__code__, act.__defaults__ = swapped.__code__, swapped.__defaults__
    assert keyword_positions(act, 1, ("beta",)) == [1]
    assert keyword_positions(act, 1, ("alpha",)) == [2]


class Layer:
    def scale(self, x, beta=1.0):
        return x * beta


def test_a_bound_method_and_its_def_are_told_apart():
    assert keyword_positions(Layer().scale, 1, ("beta",)) == [1]
    assert keyword_positions(Layer.scale, 2, ("beta",)) == [2]
    assert keyword_positions(Layer().scale, 1, ("beta",)) == [1]
    assert runtime_keywords._read_positional(Layer.scale)[0].name == "self"
