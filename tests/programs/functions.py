"""Nested functions, lambdas reading enclosing variables, and recursive helpers."""
import numpy as np


def with_nested(x, scale):
    def act(z, shift=0.0):
        y = np.tanh(z * scale) + shift
        return y * y
    square = lambda v: v * v  # noqa: E731
    total = 0.0
    for row in x:
        total = total + np.sum(act(row, shift=1.0)) + square(np.sum(row))
    return total + np.sum([act(r) for r in x])


def nested_with_branch(x):
    def clipped(v):
        if v > 1.0:
            return 1.0
        return v
    return clipped(x * 2.0) + clipped(x * x)


def power_sum(x, n):
    if n == 0:
        return 1.0
    return x * power_sum(x, n - 1) + 1.0


def tree(x, depth):
    if depth <= 0:
        return np.sin(x)
    left = tree(x * 0.5, depth - 1)
    right = tree(x + 1.0, depth - 1)
    return left * right


def uses_recursion(x):
    return power_sum(x, 4) + tree(x, 3)
