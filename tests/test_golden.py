"""Golden sources: the generated code of the acceptance examples, held byte for byte.

Regenerate after an intended change with
    S2S_AD_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py
and read the diff of tests/golden/ before committing it.
"""
import os
import subprocess
import sys

import pytest

import s2s_ad
from golden_files import assert_matches_golden

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "golden")
EXAMPLES = os.path.join(os.path.dirname(HERE), "examples")
sys.path.insert(0, EXAMPLES)

import heat_and_smoothing  # noqa: E402
import logistic_growth  # noqa: E402
import logistic_regression  # noqa: E402
import mlp  # noqa: E402
import piecewise  # noqa: E402
import polynomial  # noqa: E402
import quadratic  # noqa: E402
import rnn  # noqa: E402
import seed_example  # noqa: E402
import tutorial_xy  # noqa: E402

def general(df):
    """The general derivative's source (whatever df has been called with elsewhere)."""
    return s2s_ad.derivative_source(s2s_ad.api.general_derivative(df))


CASES = {
    "seed_example_grad": lambda: general(s2s_ad.grad(seed_example.f, wrt=(0, 1))),
    "tutorial_xy_grad": lambda: general(s2s_ad.grad(tutorial_xy.z, wrt=(0, 1))),
    "quadratic_levels": lambda: s2s_ad.normalize(quadratic.quadratic),
    "quadratic_grad": lambda: general(
        s2s_ad.grad(quadratic.quadratic, wrt=(0, 1, 2, 3))),
    "logistic_regression_grad": lambda: general(
        s2s_ad.grad(logistic_regression.negative_log_likelihood)),
    "mlp_grad": lambda: general(s2s_ad.grad(mlp.mlp_loss, wrt=(0, 1, 2, 3))),
    # control flow: a loop over time steps (tape pushes and pops) and a branch
    "rnn_loop_grad": lambda: general(
        s2s_ad.grad(rnn.rnn_loss, wrt=(0, 1, 2, 3, 4))),
    "soft_clip_branch_grad": lambda: general(s2s_ad.grad(piecewise.soft_clip)),
    # specialised on the arguments' kinds: floats, broadcasting arrays, a loop over a
    # tuple of floats, a loop over arrays
    "seed_example_floats": lambda: s2s_ad.derivative_source(
        s2s_ad.grad(seed_example.f, wrt=(0, 1)), 1.0, 2.0),
    "mlp_broadcasting": lambda: s2s_ad.derivative_source(
        s2s_ad.grad(mlp.mlp_loss, wrt=(0, 1, 2, 3)), *mlp.make_problem()),
    "polynomial_float_loop": lambda: s2s_ad.derivative_source(
        s2s_ad.grad(polynomial.horner, wrt=(0, 1)), 0.7, 1.5, polynomial.COEFFS),
    # a loop saving several floats per step: one tuple per iteration on the tape
    "logistic_growth_float_loop": lambda: s2s_ad.derivative_source(
        s2s_ad.grad(logistic_growth.misfit, wrt=(0, 1, 2)), *logistic_growth.PROBLEM),
    "rnn_array_loop": lambda: s2s_ad.derivative_source(
        s2s_ad.grad(rnn.rnn_loss, wrt=(0, 1, 2, 3, 4)), *rnn.make_problem()),
    # a stencil loop with number rates (in-place sums, no rolled array taped) and
    # a float loop started from a list's first items (plain float code)
    "rod_stencil_loop": lambda: s2s_ad.derivative_source(
        s2s_ad.grad(heat_and_smoothing.rod_misfit, wrt=(0, 1, 2)), *heat_and_smoothing.ROD),
    "smoothing_float_loop": lambda: s2s_ad.derivative_source(
        s2s_ad.grad(heat_and_smoothing.forecast_errors, wrt=(0, 1)),
        *heat_and_smoothing.SERIES),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_generated_source_matches_golden(name):
    assert_matches_golden(name, CASES[name]())


PRINT_ALL = """
import sys
sys.path.insert(0, {examples!r})
sys.path.insert(0, {tests!r})
import test_golden
for name in sorted(test_golden.CASES):
    print(test_golden.CASES[name]())
"""


@pytest.mark.slow
def test_generated_source_is_identical_across_processes():
    code = PRINT_ALL.format(examples=EXAMPLES, tests=HERE)
    outputs = []
    for hash_seed in ("1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=env, check=True)
        outputs.append(run.stdout)
    assert outputs[0] == outputs[1] and outputs[0].strip()


def test_readme_tour_shows_the_generated_source():
    """The README's tour prints the seed example's gradient: it must be what runs."""
    with open(os.path.join(os.path.dirname(HERE), "README.md")) as fh:
        readme = fh.read()
    start = readme.index("def grad_f(x1, x2):")
    shown = readme[start:readme.index("```", start)]
    assert shown.strip() == CASES["seed_example_grad"]().strip()
