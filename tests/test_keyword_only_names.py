"""Template binding refuses positional arguments that would land on a primitive's
keyword-only parameters (ad/expand._keyword_only_names); for builtins and ufuncs those
names are read once per process, and a text signature without `*` is not parsed at all
(`($module, x, /)` has no keyword-only parameter). Either way: inspect's answer."""
import builtins
import inspect
import math
import operator

import numpy as np

from s2s_ad.ad import expand


def test_keyword_only_names_of_builtins_and_ufuncs_are_inspects():
    checked = 0
    for module in (math, operator, builtins, np, np.linalg, np.fft):
        for name in dir(module):
            function = getattr(module, name)
            if type(function) not in expand._FIXED_SIGNATURES:
                continue
            expand._KEYWORD_ONLY.pop(function, None)
            try:
                want = frozenset(p.name for p in inspect.signature(function).parameters.values()
                                 if p.kind == p.KEYWORD_ONLY)
            except (TypeError, ValueError):
                want = frozenset()
            assert expand._keyword_only_names(function) == want, name
            checked += 1
    assert checked > 200


def test_a_text_signature_without_a_star_is_not_parsed(monkeypatch):
    expand._KEYWORD_ONLY.pop(math.exp, None)

    def refuse(*args, **kwargs):
        raise AssertionError("parsed")
    monkeypatch.setattr(inspect, "signature", refuse)
    assert expand._keyword_only_names(math.exp) == frozenset()
