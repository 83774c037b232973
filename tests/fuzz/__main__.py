"""python -m tests.fuzz --n 20000 --seed S [--mode grad] [--wide] [--minimise DIR]

Generates and checks `n` programs (seeds S, S+1, ...), then prints the outcomes per mode
and the causes, largest first, each with the first seed that showed it. With
`--minimise DIR`, the first program of each wrong, crash or rejected cause is shrunk and
written to DIR as a standalone reproducer. `--wide` draws the programs from
shaped_program.py (arguments of many shapes, dicts, tuples, float32) instead of
generator.py.
"""
import argparse
import collections
import os
import sys
import tempfile
import time
import warnings

from . import generator, shaped_program
from .generator import MODES
from .minimise import minimise, write_reproducer
from .runner import check

STATUSES = ("ok", "wrong", "crash", "rejected", "skipped", "invalid")


def run(n, seed, mode=None, progress=False, generate=generator.generate):
    """Check n programs; returns {(mode, status): count} and {(status, cause): [seeds]}."""
    counts = collections.Counter()
    causes = collections.defaultdict(list)
    start = time.time()
    with tempfile.TemporaryDirectory(prefix="s2s_ad_fuzz_") as directory, \
            warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for s in range(seed, seed + n):
            program = generate(s, mode)
            outcome = check(program, directory)
            counts[program.mode, outcome.status] += 1
            if outcome.status in ("wrong", "crash", "rejected"):
                causes[outcome.status, f"{program.mode}: {outcome.cause}"].append(s)
            if progress and (s - seed + 1) % 500 == 0:
                print(f"... {s - seed + 1} programs, {time.time() - start:.0f} s",
                      file=sys.stderr, flush=True)
    return counts, causes


def summary(counts, causes):
    lines = ["mode      " + "".join(f"{s:>10}" for s in STATUSES)]
    for mode in MODES:
        if any(counts[mode, s] for s in STATUSES):
            lines.append(f"{mode:<10}" + "".join(f"{counts[mode, s]:>10}" for s in STATUSES))
    lines.append("")
    for (status, cause), seeds in sorted(causes.items(), key=lambda kv: -len(kv[1])):
        lines.append(f"{len(seeds):>6}  {status:<8} {cause}  (seed {seeds[0]})")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__)
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--mode", choices=MODES)
    parser.add_argument("--minimise", metavar="DIR")
    parser.add_argument("--wide", action="store_true",
                        help="shape-tracking programs (tests/fuzz/shaped_program.py)")
    options = parser.parse_args(argv)
    generate = shaped_program.generate if options.wide else generator.generate
    counts, causes = run(options.n, options.seed, options.mode, progress=True,
                         generate=generate)
    print(summary(counts, causes))
    if options.minimise:
        os.makedirs(options.minimise, exist_ok=True)
        for (status, cause), seeds in sorted(causes.items(), key=lambda kv: -len(kv[1])):
            program, outcome = minimise(generate(seeds[0], options.mode))
            path = write_reproducer(program, outcome, options.minimise)
            print(f"{status} {cause}: {path}")


if __name__ == "__main__":
    main()
