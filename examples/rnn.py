"""A vanilla (tanh) recurrent network, unrolled with a Python for-loop over time, learns
to predict a sine wave one step ahead. s2s_ad differentiates through the loop (backprop
through time) w.r.t. all five weight arrays; training is plain gradient descent.

    python examples/rnn.py
"""
import numpy as np

import s2s_ad


def rnn_loss(Wxh, Whh, bh, Why, by, h0, xs, ys):
    """Mean squared one-step-ahead error over a batch of sequences.

    xs, ys: (time, batch, 1) inputs and targets; h0: (batch, hidden) initial state.
    """
    h = h0
    loss = 0.0
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ Wxh + h @ Whh + bh)
        prediction = h @ Why + by
        loss = loss + np.mean((prediction - ys[t]) ** 2)
    return loss / xs.shape[0]


def predict(Wxh, Whh, bh, Why, by, h0, xs):
    """The network's predictions for every step, shape (time, batch, 1)."""
    h = h0
    predictions = []
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ Wxh + h @ Whh + bh)
        predictions.append(h @ Why + by)
    return np.stack(predictions)


def make_data(steps=24, batch=16, seed=0):
    """Sine waves with random phases and frequencies; targets are the next sample."""
    rng = np.random.default_rng(seed)
    phase = rng.uniform(0.0, 2.0 * np.pi, size=batch)
    frequency = rng.uniform(0.3, 0.6, size=batch)
    t = np.arange(steps + 1)[:, None]
    wave = np.sin(frequency * t + phase)[:, :, None]          # (steps + 1, batch, 1)
    return wave[:-1], wave[1:]


def make_problem(hidden=16, steps=24, batch=16, seed=0):
    """(Wxh, Whh, bh, Why, by, h0, xs, ys): small random weights and a batch of waves."""
    rng = np.random.default_rng(seed)
    Wxh = rng.standard_normal((1, hidden)) * 0.5
    Whh = rng.standard_normal((hidden, hidden)) / np.sqrt(hidden) * 0.5
    bh = np.zeros(hidden)
    Why = rng.standard_normal((hidden, 1)) / np.sqrt(hidden)
    by = np.zeros(1)
    xs, ys = make_data(steps, batch, seed + 1)
    h0 = np.zeros((batch, hidden))
    return Wxh, Whh, bh, Why, by, h0, xs, ys


def train(steps=400, learning_rate=0.3, verbose=True, **problem):
    """Gradient descent on all weights; returns the final parameters and the loss history."""
    *params, h0, xs, ys = make_problem(**problem)
    grad_loss = s2s_ad.grad(rnn_loss, wrt=(0, 1, 2, 3, 4))
    losses = []
    for step in range(steps + 1):
        losses.append(rnn_loss(*params, h0, xs, ys))
        if verbose and step % 50 == 0:
            print(f"step {step:4d}  loss {losses[-1]:.5f}")
        if step < steps:
            grads = grad_loss(*params, h0, xs, ys)
            params = [p - learning_rate * g for p, g in zip(params, grads)]
    return params, losses


def main():
    print(s2s_ad.derivative_source(s2s_ad.grad(rnn_loss, wrt=(0, 1, 2, 3, 4))))
    params, losses = train()
    _, _, _, _, _, h0, xs, ys = make_problem()
    print(f"loss fell from {losses[0]:.4f} to {losses[-1]:.4f} "
          f"(predicting 'no change' scores {np.mean((xs - ys) ** 2):.4f})")
    predictions = predict(*params, h0, xs)
    print("sequence 0, last steps:   target  predicted")
    for t in range(xs.shape[0] - 5, xs.shape[0]):
        print(f"  t={t:2d}                  {ys[t, 0, 0]:+.3f}   {predictions[t, 0, 0]:+.3f}")


if __name__ == "__main__":
    main()
