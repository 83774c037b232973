"""Functions taking dicts, tuples and lists of arrays (gradients keep the structure)."""
import numpy as np

def mlp(params, x):
    h = np.tanh(x @ params["W1"] + params["b1"])
    return np.sum((h @ params["W2"]) ** 2)

def pair_loss(pair, w):
    a, b = pair
    return np.sum(a * w) + np.sum(b ** 2)

def seq_loss(xs):
    total = 0.0
    for x in xs:
        total = total + np.sum(np.sin(x))
    return total

def dict_loop(params):
    total = 0.0
    for name, value in params.items():
        total = total + np.sum(value ** 2)
    return total

def indexed_array(p):
    return p[0] ** 2 + p[1] * p[2]


def nested_params(params, x):
    layer = params["layer"]
    h = np.tanh(x @ layer["W"] + layer["b"])
    return np.sum(h * params["scale"])


def list_of_pairs(pairs):
    total = 0.0
    for a, b in pairs:
        total = total + np.sum(a * b)
    return total


def dict_by_key(params, x):
    """Iterating a dict directly gives its keys: `for name in params: params[name]`."""
    total = 0.0
    for name in params:
        total = total + np.sum(np.tanh(params[name] * x[: params[name].shape[0]]))
    return total


def rows_by_index(xs, order):
    total = 0.0
    for i in order:
        total = total + np.sum(xs[i] ** 2) * (i + 1)
    return total


def builtin_sum_of_vector(x):
    return sum(x) ** 2


def builtin_sum_of_rows(X):
    return np.sum(sum(X) ** 2)


# found in review: writing into a dict or list argument (the copy made on entry was
# np.copy, a 0-d object array for a dict)
def updates_dict_entry(p):
    p["w"] = p["w"] * 2.0
    return np.sum(p["w"] ** 2) + p["b"] * np.sum(p["w"])


def steps_dict_in_loop(p, x):
    for _ in range(3):
        p["w"] = p["w"] - 0.1 * p["b"] * x
    return np.sum(np.tanh(p["w"]) * x)


def updates_list_item(xs):
    xs[0] = xs[0] * xs[1]
    return np.sum(xs[0]) + np.sum(xs[1] ** 2)


def sum_of_squares_of_rows(rows):
    return np.sum(np.asarray(rows) ** 2)
