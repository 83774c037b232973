"""An optimizer class in a module of its own, for tests/test_local_objects.py (a class
imported by f's module: its methods' names are read in this module)."""
import numpy as np


class Nesterov:
    def __init__(self, w0, lr=0.1, mu=0.8):
        self.lr, self.mu = lr, mu
        self.v = np.zeros_like(w0)

    def step(self, w, grad_at):
        ahead = w + self.mu * self.v
        self.v = self.mu * self.v - self.lr * grad_at(ahead)
        return w + self.v
