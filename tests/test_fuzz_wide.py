"""The wide fuzzer (tests/fuzz/shaped_program.py) in the normal suite: seeded random
programs over arguments of many shapes (broadcasting ones, 0-d, dicts and tuples of
arrays, float32), each checked in its mode on the specialised and the general path
against central differences. `python -m tests.fuzz --wide --n 2000` runs the long
version."""
import tempfile
import warnings

import numpy as np
import pytest

from fuzz.runner import check
from fuzz.shaped_program import generate

SEEDED = 12             # programs per chunk (two chunks: ~8 s of CPU)


@pytest.mark.parametrize("chunk", range(2))
def test_seeded_wide_random_programs(chunk):
    failures = []
    with tempfile.TemporaryDirectory(prefix="s2s_ad_fuzz_wide_") as directory, \
            warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for seed in range(chunk * SEEDED, (chunk + 1) * SEEDED):
            outcome = check(generate(seed), directory)
            if outcome.status in ("wrong", "crash", "rejected"):
                failures.append(f"seed {seed}: {outcome.status} {outcome.cause}\n{outcome.detail}")
    assert not failures, "\n".join(failures)


def test_wide_programs_cover_the_constructs_they_are_written_for():
    features = set()
    for seed in range(60):
        features |= generate(seed).features
    expected = {"broadcast", "reduce_axis", "keepdims", "axis_tuple", "negative_axis",
                "slice", "empty_slice", "int_array_index", "bool_mask_read",
                "data_mask_write", "slice_write", "int_array_write", "matmul_einsum",
                "shape_ops", "concatenate_stack", "cumsum", "sort", "where",
                "max_min_clip_abs", "math", "comprehension", "number_loop", "row_loop",
                "while", "branch_on_sign", "helper_tuple", "dict_parameter",
                "tuple_parameter", "float32", "layer_norm", "logaddexp", "stable_softplus",
                "norm_axis", "take_along_axis", "einsum_ellipsis", "transposed_batch_matmul"}
    assert expected <= features, sorted(expected - features)


def test_a_float32_program_is_checked_for_float32_gradients():
    program = next(p for p in map(generate, range(100)) if "float32" in p.features)
    assert all(np.asarray(a).dtype == np.float32 for a in program.args
               if not isinstance(a, (dict, tuple)))
