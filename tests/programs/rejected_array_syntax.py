"""numpy spellings s2s_ad cannot rewrite to calls: each is a located error (never the
zero gradient a subscript of np.r_ or an einsum with its operand in the subscripts'
place would give). The marker comments name the lines the errors point at."""
import numpy as np


def directive_string(x):
    return np.sum(np.r_["0,2", x, x])  # LINE directive


def sublists_in_variables(x):
    rows, cols = [0, 1], [1, 0]
    return np.sum(np.einsum(x, [0, 1], x, cols))  # LINE sublist_variable
