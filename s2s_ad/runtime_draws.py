"""Replaying random draws: a helper of f that draws samples is run twice by a gradient
(once in the forward sweep, once again inside its vjp in the backward sweep). The samples
are constants of the derivative, so the second run must draw the very same ones:

    draw_state = random_states(rs, mu)       # forward sweep, before z = sample(mu, rs)
    z = sample(mu, rs)
    ...
    draw_now = rewind_random_states(draw_state)   # backward sweep: back to before the call
    mu_bar = vjp_sample(z_bar, mu, rs)            # draws what the forward call drew
    rewind_random_states(draw_now)                # and on to where f's own run left them

After the gradient returns, every generator is where one call of f leaves it. The states
kept are those of the generators among the call's arguments (RandomState, Generator) and
of numpy's global generator (np.random.randn and the other np.random functions).
"""
import numpy


def random_states(*values):
    """[(generator, its state)] for numpy's global generator and each RandomState or
    Generator among `values` and the tuples and lists they are (other values are
    skipped: they are the call's operands)."""
    states = [(numpy.random, numpy.random.get_state())]
    values = list(values)
    while values:
        value = values.pop(0)
        if isinstance(value, (tuple, list)):     # call_function's arguments, packed
            values[:0] = value
            continue
        if any(value is g for g, _ in states):
            continue
        if isinstance(value, numpy.random.RandomState):
            states.append((value, value.get_state()))
        elif isinstance(value, numpy.random.Generator):
            states.append((value, value.bit_generator.state))
    return states


def rewind_random_states(states):
    """Put every generator of `states` back into its state there; returns the states
    they had just before (to go forward to them again)."""
    now = random_states(*[g for g, _ in states[1:]])
    for generator, state in states:
        if isinstance(generator, numpy.random.Generator):
            generator.bit_generator.state = state
        else:
            generator.set_state(state)
    return now
