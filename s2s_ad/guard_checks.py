"""The checkers a dispatcher's guard calls on every call, where a test of each item would
cost a loop in Python: signature.guard writes the calls, dispatch.py binds the objects.

    type(xs) is list and sums_to_float(xs)                    a list of floats (and ints)
    type(cs) is tuple and (cs is float_items.last or float_items(cs))
    type(ps) is tuple and (ps is float_int_records.last or float_int_records(ps))

Each runs in C over the items (map, operator.countOf, sum); a tuple that passed is
remembered, since a tuple of numbers (or of tuples of numbers) cannot change.
"""
import operator


class ItemTypeCheck:
    """`check(t)`: are all items of tuple t numbers of one type? A tuple that passed is
    remembered (`check.last`), so a guard called again with it tests identity only (a
    tuple cannot change; a list can, so its items are tested on every call)."""

    def __init__(self, item_type):
        self.item_type = item_type
        self.last = None
        self.__name__ = f"{item_type.__name__}_items"

    def __call__(self, value):
        if set(map(type, value)) <= {self.item_type}:
            self.last = value
            return True
        return False


def sums_to_float(value):
    """May the list `value` take the derivative built for a list of Python floats that f
    does not differentiate? One pass of `sum` in C (~3 ns an item, against ~15 for
    testing each item's type): the sum starting from 0.0 is a Python float exactly when
    every item is a float, an int or a bool (or another number whose sum with a float is a
    float, such as a Fraction); an np.float64 or np.float32 item makes it a numpy scalar,
    an array item an array, and a complex, None or string item makes it complex or raises
    (then: no). Ints and bools may go there because that derivative does to the items
    what f does (the same operations on the same objects) and uses them only as numbers
    beside float derivatives; a returned gradient the derivative cannot prove a float
    is made one (optimize/float_gradients.py), so the results are those of the
    derivative built for the ints, types included."""
    # a plain function, not an instance with __call__: the guard calls it on every call
    try:
        return type(sum(value, 0.0)) is float
    except Exception:       # an item sum cannot add (its own error): not this kind
        return False


class RecordCheck:
    """`check(t)`: is t a tuple of tuples whose position j holds a number of `types[j]`
    (exactly that type), each of len(types) positions? Passes over t in C; a tuple that
    passed is remembered (`check.last`): tuples of tuples of numbers cannot change."""

    def __init__(self, types):
        self.types = tuple(types)
        self.getters = [operator.itemgetter(j) for j in range(len(self.types))]
        self.last = None
        self.__name__ = "_".join(t.__name__ for t in self.types) + "_records"

    def __call__(self, value):
        n, count = len(value), operator.countOf
        if count(map(type, value), tuple) == n and count(map(len, value), len(self.types)) \
                == n and all(count(map(type, map(get, value)), t) == n
                             for get, t in zip(self.getters, self.types)):
            self.last = value
            return True
        return False


class RecordsDiffer(Exception):
    """Raised by a derivative that tests the records of a list where its loop unpacks
    them (ad/unpacked_records.py) on meeting one of another kind, before reading it: its
    dispatcher takes the call on to the next guard. Never reaches the user: a derivative
    whose signature matches the arguments finds no such record."""
