"""Functions using constructs s2s_ad rejects; each test checks the reported line."""
import contextlib

import numpy as np


def uses_try(x):
    try:
        return x * 2.0
    except ValueError:  # LINE try
        return x


def uses_with(x):
    with open("f") as fh:  # LINE with
        return x


def suppresses_errors(x):
    with contextlib.suppress(ValueError):  # LINE suppress
        x = x * 2.0
    return np.sum(x)


def falls_back_in_finally(x):
    try:
        y = np.log(x)
    except ValueError:
        raise RuntimeError("bad")
    finally:
        return np.sum(x)  # LINE finally
    return np.sum(y)


def rebinds_after_reading(x):
    n = np.sum(x)
    return n * (n := 2.0 * n)  # LINE walrus


def reduces_from_initial(x):
    return np.sum(np.multiply.reduce(x, initial=2.0))  # LINE initial


def spreads_unknown_keys(x):
    opts = {"axis": 0}
    opts["keepdims"] = True
    return np.sum(np.sum(x, **opts))  # LINE spread


def uses_global(x):
    global COUNTER  # LINE global
    return x


def defines_class(x):
    class Local:  # LINE class
        pass
    return x


def uses_yield(x):
    yield x * 2.0  # LINE yield


class Box:
    value = 0.0


def attribute_write(x):
    box = Box()
    box.value = x       # (alone, a state update: tests/test_object_state_updates.py)
    return box.value  # LINE attribute


def unknown_callee(x):
    return np.nextafter(x, 2.0) * 2.0  # LINE callee


def undefined_helper(x):
    return not_defined_anywhere(x)  # LINE undefined


def bad_keyword(x):
    return np.exp(x, out=None)  # LINE keyword


def copies_into(x):
    y = np.zeros(3)
    np.copyto(y, x, where=x > 0.0)  # LINE copyto
    return np.sum(y * y)


def multiplies_at(x):
    y = np.ones(2)
    np.multiply.at(y, [0, 0, 1], x)  # LINE multiply_at
    return np.sum(y * y)


def writes_out(x):
    y = np.zeros(3)
    s = np.sum(np.multiply(x, 2.0, out=y))  # LINE out
    return np.sum(y * y) + s


def sorts_in_place(x):
    y = x * 1.0
    y.sort()  # LINE sort
    return y[0] * 2.0


def counts_halvings(x):
    n = 0.0
    while np.max(x) > 1.0:  # LINE while_test
        x = x / 2.0
        n = n + 1.0
    return n


def picks_by_sign(x):
    if np.sum(x) > 0:  # LINE if_test
        return 2.0
    return 3.0


def writes_through_alias(x):
    y = x
    y[0] = 5.0  # LINE alias_write
    return np.sum(x * x)


def scales_through_alias(x):
    a = x.copy()
    b = a
    b *= 2.0  # LINE alias_in_place
    return np.sum(a * x)


def updates_argument_read_through_alias(x):
    y = x
    x += 1.0  # LINE argument_in_place
    return np.sum(y * x)


def writes_into_appended_row(x):
    rows = []
    row = np.zeros(3)
    for i in range(2):
        row[0] = x[i] * 2.0  # LINE appended_write
        rows.append(row)
    return np.sum(np.stack(rows) ** 2)


def writes_into_item_of_list_literal(x):
    z = x.copy()
    for r in [z]:
        r[0] = 5.0 * x[1]  # LINE list_item_write
    return np.sum(z ** 2)


def writes_through_row_view(X):
    row = X[0]
    row[1] = 0.0  # LINE view_write
    return np.sum(X ** 2)


def writes_source_of_reshaped(x):
    m = np.reshape(x, (2, 2))
    x[0] = 1.0  # LINE reshape_write
    return np.sum(m * m)


async def is_async(x):  # LINE async
    return x


def uses_nonlocal(x):
    total = 0.0

    def add(v):
        nonlocal total  # LINE nonlocal
        total = total + v
    add(x)
    return total


def counts_positives(x):
    positive = x > 0.0  # LINE nondiff
    return np.sum(positive * 1.0)


def doubles(x):
    return x * 2.0  # LINE doubles-return


def _broken(x):
    return x * x


from s2s_ad import adjoint, d  # noqa: E402


@adjoint(_broken)
def _broken_adjoint(y, x):
    """deliberately wrong (the derivative of x * x is 2 x)"""
    d[x] += d[y] * x


def wrongly_registered(x):
    return np.sum(_broken(x))


def loss_and_aux(x):
    loss = np.sum(x * x)
    return loss, x * 2.0


def complex_loss(x):
    return np.sum(x * 1j)  # LINE complex


def names_its_result(x):
    return "loss"


def steps_with_given_force(x, force=np.sin):
    return np.sum(x + 0.1 * force(x, out=None))  # LINE function_argument
