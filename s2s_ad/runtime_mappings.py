"""Dicts built inside a differentiated function: `{"a": x, "b": y}`, `dict(a=x)` and dict
comprehensions become one call whose derivative is the values' (templates in
templates/runtime_mappings.py):

    d = {"a": x, "b": 2 * x}   ->   t1_0 = 2 * x; t2_0 = (x, t1_0)
                                    d = make_mapping(('a', 'b'), t2_0)
    backward:                       t2_0_bar = mapping_values(d_bar, ('a', 'b'))

A dict adjoint holds the keys that received a contribution; the others are zero (0.0).
"""


def make_mapping(keys, values):
    """dict(zip(keys, values)); `values` 0.0 (a zero tangent) gives zeros for every key.
    A key given twice keeps its last value, as in a dict display."""
    if not isinstance(values, (list, tuple)):
        values = [values] * len(keys)
    return dict(zip(keys, values))


def mapping_values(a, keys):
    """The adjoints of the values a dict was built from, in key order: a[key], 0.0 where
    the adjoint dict `a` has no entry (or is still the scalar zero). A key given twice:
    only its last value is in the dict."""
    if not isinstance(a, dict):
        return [0.0] * len(keys)
    last = {key: k for k, key in enumerate(keys)}
    return [a.get(key, 0.0) if last[key] == k else 0.0 for k, key in enumerate(keys)]


class _Absent:
    """What saved_entry records for a key the dict does not have yet."""

    def __repr__(self):
        return "<absent>"


ABSENT = _Absent()


def saved_entry(mapping, key):
    """A copy of mapping[key] before an index write overwrites it (ABSENT: the write
    creates the key)."""
    import numpy as np
    if key not in mapping:
        return ABSENT
    return np.copy(mapping[key])


def restore_entry(mapping, key, saved):
    """Undo the write saved_entry was taken before."""
    if saved is ABSENT:
        del mapping[key]
    else:
        mapping[key] = saved
