"""What-if edits of the generated gradients, behind the analysis in benchmarks/README.md.

    python benchmarks/whatif.py [word ...]

Each workload's generated source is edited by hand-written text replacements, one group
at a time and cumulatively; every edited gradient is checked against the hand-written one
(np.allclose) and timed against it with run.py's interleaved compare(). The edits were
written against the code s2s_ad generated on 2026-11-22 at 05:06; when the generated text no
longer matches, the remaining variants of that workload are skipped with a note (and
this file needs its edits brought up to date, or retiring).
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import inspect  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import s2s_ad  # noqa: E402
from s2s_ad.derivative_registry import dispatcher_of  # noqa: E402
import run  # noqa: E402
import workloads  # noqa: E402

ROUNDS = 31

PLAIN = ("as generated, but called as a plain function (inspect.unwrap(df))", [])
LOGREG = [
    PLAIN,
    ("A: matmul_adjoint_b(t1_0_bar, X, w) -> t1_0_bar @ X",
     [("matmul_adjoint_b(t1_0_bar, X, w)", "t1_0_bar @ X")]),
]
MLP = [
    PLAIN,
    ("A: drop the max-shift adjoint (t6_0_bar, unreduce_extremum; zero in exact arithmetic)", [
        ("    t6_0_bar = -unbroadcast(shifted_bar, t6_0)\n", ""),
        ("    logits_bar = logits_bar + unreduce_extremum(t6_0_bar, logits, t6_0, 1, True)\n",
         "")]),
    ("B: + unreduce(t9_0_bar, t8_0, 1, True) * t8_0 -> t9_0_bar * t8_0", [
        ("    t8_0_bar = unreduce(t9_0_bar, t8_0, 1, True)\n"
         "    shifted_bar = shifted_bar + t8_0_bar * t8_0\n",
         "    shifted_bar = shifted_bar + t9_0_bar * t8_0\n")]),
    ("C: + unbroadcast / matmul_adjoint_* calls inlined (t1_0, t4_0 then unused)", [
        ("unbroadcast(log_probs_bar, t9_0)", "np.sum(log_probs_bar, axis=1, keepdims=True)"),
        ("unbroadcast(log_probs_bar, shifted)", "log_probs_bar"),
        ("unbroadcast(shifted_bar, logits)", "shifted_bar"),
        ("unbroadcast(logits_bar, t4_0)", "logits_bar"),
        ("unbroadcast(logits_bar, b2)", "np.sum(logits_bar, axis=0)"),
        ("matmul_adjoint_a(t4_0_bar, h, W2)", "t4_0_bar @ W2.T"),
        ("matmul_adjoint_b(t4_0_bar, h, W2)", "h.T @ t4_0_bar"),
        ("unbroadcast(t2_0_bar, t1_0)", "t2_0_bar"),
        ("unbroadcast(t2_0_bar, b1)", "np.sum(t2_0_bar, axis=0)"),
        ("matmul_adjoint_b(t1_0_bar, X, W1)", "X.T @ t1_0_bar")]),
    ("D: + forward temporaries not kept alive (h = np.tanh(X @ W1 + b1), ...)", [
        ("    t1_0 = X @ W1\n    t2_0 = t1_0 + b1\n    h = np.tanh(t2_0)\n",
         "    h = np.tanh(X @ W1 + b1)\n"),
        ("    t4_0 = h @ W2\n    logits = t4_0 + b2\n", "    logits = h @ W2 + b2\n")]),
]
VARIANTS = {
    "logreg NLL N=100 D=10": LOGREG,
    "logreg NLL N=10000 D=100": LOGREG,
    "MLP batch=64 hidden=128": MLP,
    "MLP batch=512 hidden=512": MLP,
    "seed example (floats)": [
        PLAIN,
        ("A: drop the inlined check_scalar_output guard",
         [("    if not (type(x1) is float and type(x2) is float):\n"
           "        check_scalar_output(x1, x2)\n", "")]),
        ("B: + x2_bar = x1 * 2 * x2 - np.sin(x2) (no negated numpy scalar, no +=)",
         [("    x2_bar = -np.sin(x2)\n    x2_bar += x1 * 2 * x2\n",
           "    x2_bar = x1 * 2 * x2 - np.sin(x2)\n")]),
    ],
    "layer-norm loss 256x512": [
        PLAIN,
        ("A: seed unreduce(1.0, t9_0, None, False) -> scalar", [
            ("    t10_0_bar = unreduce(1.0, t9_0, None, False)\n", ""),
            ("t10_0_bar * 2 * t9_0", "2 * t9_0")]),
        ("B: + mean adjoints broadcast instead of unreduce'd to (256, 512)", [
            ("    t3_0_bar = unreduce(t5_0_bar / reduced_count(t3_0, -1), t3_0, -1, True)\n"
             "    t2_0_bar = t2_0_bar + t3_0_bar * 2 * t2_0\n",
             "    t2_0_bar = t2_0_bar + (t5_0_bar * 2 / reduced_count(t3_0, -1)) * t2_0\n"),
            ("x_bar = x_bar + unreduce(mu_bar / reduced_count(x, -1), x, -1, True)",
             "x_bar = x_bar + mu_bar / reduced_count(x, -1)")]),
    ],
}

def build(df, edits, args):
    """The source of the derivative df runs for `args` with `edits` applied, compiled in
    that derivative's namespace."""
    src = s2s_ad.derivative_source(df, *args)
    src = src[src.index("def "):]
    for old, new in edits:
        if old not in src:
            raise LookupError(old)
        src = src.replace(old, new)
    dispatcher = dispatcher_of(inspect.unwrap(df))
    fn = dispatcher.specialisation(dispatcher.signature_for(args, {}))
    ns = dict(fn.__globals__)
    ns.update((n, c.cell_contents) for n, c in zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    exec(compile(src, f"<what-if {fn.__name__}>", "exec"), ns)
    return ns[fn.__name__]


def report(label, fn, wl):
    t, _ = run.compare(fn, wl.hand, wl.args, ROUNDS)
    gen, hand = statistics.median(t["gen"]), statistics.median(t["hand"])
    print(f"  {run.paired_ratio(t):5.2f}  ({run.fmt_time(gen)} vs {run.fmt_time(hand)})  {label}")


def main(words):
    for wl in workloads.all_workloads():
        if wl.name not in VARIANTS or (words and not any(w in wl.name for w in words)):
            continue
        df = s2s_ad.grad(wl.func, wrt=wl.wrt)
        print(f"== {wl.name}: ratio generated / hand-written")
        report("df as returned by grad", df, wl)
        cumulative = []
        for label, edits in VARIANTS[wl.name]:
            cumulative += edits
            try:
                fn = build(df, cumulative, wl.args)
            except LookupError as missing:
                print(f"  skipped from here: the generated code no longer contains {missing}")
                break
            run.check_agree(label, fn(*wl.args), wl.hand(*wl.args))
            report(label, fn, wl)


if __name__ == "__main__":
    main(sys.argv[1:])
