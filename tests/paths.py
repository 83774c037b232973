"""Both derivatives of a function: the one specialised on its arguments' kinds and the
general one (S2S_AD_GENERAL=1), for tests that must hold on both paths.

    def test_x(both_paths):            # (the fixture, from tests/conftest.py)
        f = fresh(model)               # a new function object: nothing cached for it
"""
import types

import pytest


@pytest.fixture(params=["specialised", "general"])
def both_paths(request, monkeypatch):
    if request.param == "general":
        monkeypatch.setenv("S2S_AD_GENERAL", "1")
    else:
        monkeypatch.delenv("S2S_AD_GENERAL", raising=False)
    return request.param


def fresh(fn):
    """A copy of `fn` that s2s_ad has never seen (its caches are per function object)."""
    copy = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__,
                              fn.__closure__)
    copy.__kwdefaults__ = fn.__kwdefaults__
    return copy
