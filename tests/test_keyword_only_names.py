"""Template binding refuses positional arguments that would land on a primitive's
keyword-only parameters (ad/binding._keyword_only_names); for builtins and ufuncs those
names are read once per process, from the text signature by Python's parser
(`($module, x, /)` has no keyword-only parameter without any parsing) rather than by
inspect's tokenizing reader, which is left only what Python's parser cannot read. Either
way: inspect's answer."""
import builtins
import inspect
import math
import operator

import numpy as np

from s2s_ad.ad import binding


def test_keyword_only_names_of_builtins_and_ufuncs_are_inspects():
    checked = 0
    for module in (math, operator, builtins, np, np.linalg, np.fft, np.random):
        for name in dir(module):
            function = getattr(module, name)
            if not binding._fixed_signature(function):
                continue
            binding._KEYWORD_ONLY.pop(function, None)
            try:
                want = frozenset(p.name for p in inspect.signature(function).parameters.values()
                                 if p.kind == p.KEYWORD_ONLY)
            except (TypeError, ValueError):
                want = frozenset()
            assert binding._keyword_only_names(function) == want, name
            checked += 1
    assert checked > 200
    assert binding._fixed_signature(float) and not binding._fixed_signature(np.ndarray)


def test_text_signatures_are_read_without_inspect(monkeypatch):
    binding._KEYWORD_ONLY.pop(math.exp, None)
    binding._KEYWORD_ONLY.pop(np.zeros, None)

    def refuse(*args, **kwargs):
        raise AssertionError("read by inspect")
    monkeypatch.setattr(inspect, "signature", refuse)
    assert binding._keyword_only_names(math.exp) == frozenset()
    assert "like" in binding._keyword_only_names(np.zeros)


def test_a_text_signature_beyond_python_syntax_is_left_to_inspect():
    assert binding._text_keyword_only("($self, a, *, b=<unrepresentable>)") is None
    assert binding._text_keyword_only("(a[, b], *, c=1)") is None
    assert binding._text_keyword_only("($module, a, /, *, c=1)") == {"c"}
