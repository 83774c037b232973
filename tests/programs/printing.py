"""A loss that prints progress with an f-string (formatting has no derivative)."""
import numpy as np

def loss(w, x):
    total = 0.0
    for k in range(2):
        total = total + np.sum(np.tanh(x * w) ** 2)
        print(f"step {k}: total={total:.3f} scaled {total * 2.0!r}")
    return total
