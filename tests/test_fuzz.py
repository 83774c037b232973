"""The differential fuzzer (tests/fuzz) in the normal suite: a few hundred seeded random
programs, and the minimised programs it found (tests/fuzz/found/), each checked in every
mode its output allows, on the specialised and the general path, against central
differences. `python -m tests.fuzz --n 20000` runs the long version."""
import glob
import importlib.util
import os
import tempfile
import warnings

import numpy as np
import pytest

import s2s_ad

from fuzz.generator import MODES, SCALAR_OUTPUT_MODES, Program, generate
from fuzz.runner import check, check_loaded

FOUND = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "fuzz", "found", "*.py")))
SEEDED = 80             # programs per chunk below (three chunks: 240 programs, ~30 s)


def _load_found(path):
    name = "fuzz_found_" + os.path.basename(path)[:-3]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("path", FOUND, ids=[os.path.basename(p)[:-3] for p in FOUND])
def test_found_programs_are_differentiated_right(path):
    module = _load_found(path)
    with open(path) as source:
        text = source.read()
    scalar = np.ndim(module.f(*module.ARGS)) == 0
    for mode in MODES:
        if mode in SCALAR_OUTPUT_MODES and not scalar:
            continue
        for wrt in range(len(module.ARGS)):
            if mode == "gradgrad" and (wrt != 0 or np.ndim(module.ARGS[0]) != 0):
                continue   # grad of grad: in a float first argument
            program = Program(0, mode, text, module.ARGS, wrt)
            outcome = check_loaded(module.f, program)
            assert outcome.status in ("ok", "skipped"), \
                f"{mode} w.r.t. argument {wrt}: {outcome.status} {outcome.cause}\n{outcome.detail}"


@pytest.mark.parametrize("chunk", range(3))
def test_seeded_random_programs(chunk):
    failures = []
    with tempfile.TemporaryDirectory(prefix="s2s_ad_fuzz_") as directory, \
            warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for seed in range(chunk * SEEDED, (chunk + 1) * SEEDED):
            outcome = check(generate(seed), directory)
            if outcome.status in ("wrong", "crash", "rejected"):
                failures.append(f"seed {seed}: {outcome.status} {outcome.cause}")
    assert not failures, "\n".join(failures)


def test_an_output_reached_only_through_a_helpers_test_is_still_refused():
    module = _load_found(os.path.join(os.path.dirname(__file__), "fuzz", "found",
                                      "helper_parameter_read_only_in_a_test.py"))

    def f(a):
        return module.scaled(1.0, a)

    with pytest.raises(s2s_ad.NonDifferentiableError, match="zero everywhere"):
        s2s_ad.grad(f)(0.5)
