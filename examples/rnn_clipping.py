"""Gradient clipping inside backprop-through-time with s2s_ad.insert_grad_of.

The block under `with s2s_ad.insert_grad_of(h) as g:` runs in the backward sweep on the
hidden state's gradient at every time step, so each step's gradient is clipped before it
flows into the previous step: the usual remedy for exploding gradients. The same RNN as
examples/rnn.py, with a deliberately large recurrent matrix.

    python examples/rnn_clipping.py
"""
import numpy as np

import s2s_ad
from rnn import make_problem, rnn_loss

CLIP = 0.05


def clipped_rnn_loss(Wxh, Whh, bh, Why, by, h0, xs, ys):
    """rnn_loss, with the hidden state's gradient clipped to [-CLIP, CLIP] at each step."""
    h = h0
    loss = 0.0
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ Wxh + h @ Whh + bh)
        with s2s_ad.insert_grad_of(h) as dh:
            dh = np.clip(dh, -CLIP, CLIP)
        prediction = h @ Why + by
        loss = loss + np.mean((prediction - ys[t]) ** 2)
    return loss / xs.shape[0]


def main():
    Wxh, Whh, bh, Why, by, h0, xs, ys = make_problem(hidden=16, steps=40)
    Whh = Whh * 6.0                      # an unstable recurrence: gradients blow up
    args = (Wxh, Whh, bh, Why, by, h0, xs, ys)
    grad_plain = s2s_ad.grad(rnn_loss, wrt=1)
    grad_clipped = s2s_ad.grad(clipped_rnn_loss, wrt=1)
    print(s2s_ad.derivative_source(grad_clipped))
    print(f"|dL/dWhh| without clipping: {np.linalg.norm(grad_plain(*args)):.4f}")
    print(f"|dL/dWhh| with clipping:    {np.linalg.norm(grad_clipped(*args)):.4f}")
    print(f"loss (same either way):     {rnn_loss(*args):.4f} / {clipped_rnn_loss(*args):.4f}")


if __name__ == "__main__":
    main()
