"""python -m tests.coverage [--quick] [--markdown FILE] [--peers]

The coverage table: for every numpy (and scipy) function in the primitive spec table
(tests/primitive_specs.py and tests/specs_*.py), whether its reverse-mode template, its
forward-mode template and its second derivative work, each checked now, numerically, on
the spec rows' shapes:

    function                  reverse  forward  second order
    numpy.tanh                yes      yes      yes
    numpy.linalg.cholesky     yes      yes      yes

reverse: the inner-product test of grad's adjoint against central differences, on every
row and shape; forward: jvp against central differences; second order: hvp of
sum(f(x) * u) in the first differentiated argument against central differences of its
gradient (first row, first shape). `--quick` checks one shape per row. A function missing
from the table has no template (README: Supported functions). `--peers` checks the
functions of tests/peer_functions.py (those autograd, Tangent or JAX differentiate) and
prints how many work in grad and jvp (reverse and forward), naming the others.
"""
import argparse
import importlib
import os
import sys
import warnings
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import s2s_ad  # noqa: E402
from gradcheck import forward_check, inner_product_check  # noqa: E402
from primitive_specs import all_specs, sample  # noqa: E402
from peer_functions import PEER_FUNCTIONS  # noqa: E402


def function_name(primitive):
    """numpy.linalg.svd, operator.mul, scipy.special.expit: where users find it."""
    owner = getattr(primitive, "__self__", None)
    if owner is not None and type(owner).__module__.startswith("scipy.stats"):
        # a method of a distribution object: scipy.stats.norm.logpdf
        return f"scipy.stats.{type(owner).__name__[:-4]}.{primitive.__name__}"
    if isinstance(owner, np.ufunc):         # numpy.maximum.accumulate
        return f"numpy.{owner.__name__}.{primitive.__name__}"
    module = getattr(primitive, "__module__", None) or "numpy"
    if module.startswith("scipy.special") or (isinstance(primitive, np.ufunc) and getattr(
            sys.modules.get("scipy.special"), primitive.__name__, None) is primitive):
        return f"scipy.special.{primitive.__name__}"
    module = {"_operator": "operator"}.get(module, module)
    name = getattr(primitive, "__name__", repr(primitive))
    if isinstance(primitive, np.ufunc) or module.startswith("numpy."):
        for public in ("numpy.linalg", "numpy.fft", "numpy"):
            space = importlib.import_module(public)
            if getattr(space, name, None) is primitive:
                return f"{public}.{name}"
    return f"{module}.{name}"


def is_user_facing(primitive):
    """Rows of s2s_ad's own runtime helpers are internal (their templates serve grad of
    grad); the table lists what a user calls."""
    return not (getattr(primitive, "__module__", "") or "").startswith("s2s_ad")


def _args(spec, shapes, seed_text):
    rng = np.random.default_rng(zlib.crc32(seed_text.encode()))
    return [sample(rng, shape, spec.domain(k)) for k, shape in enumerate(shapes)]


def _wrt(spec, args):
    return spec.wrt if spec.wrt is not None else tuple(range(len(args)))


def _passes(check, spec, shapes):
    args = _args(spec, shapes, f"{spec.fn.__name__}{shapes}")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check(spec.fn, args, _wrt(spec, args))
        return None
    except Exception as error:                  # noqa: BLE001 (reported, not raised)
        return f"{type(error).__name__}: {str(error).splitlines()[0][:80]}" if str(error) \
            else type(error).__name__


def second_order(spec, shapes, eps=1e-5):
    """None when hvp of <u, f(x)> in the first differentiated argument, and the same
    product by reverse over reverse (vjp of its gradient), match central differences of
    its gradient, else what went wrong."""
    args = _args(spec, shapes, f"{spec.fn.__name__}{shapes}")
    k = _wrt(spec, args)[0]
    rng = np.random.default_rng(1)
    u = rng.standard_normal(np.shape(spec.fn(*args)))
    weighted = _WEIGHTED[len(args)](spec.fn, u)
    x = args[k]
    v = rng.standard_normal(np.shape(x))
    v = float(v) if np.ndim(x) == 0 and not isinstance(x, np.ndarray) else v
    shifted = list(args)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            hv = s2s_ad.hvp(weighted, wrt=k)(*args, v)
            grad = s2s_ad.grad(weighted, wrt=k)
            shifted[k] = x + eps * v
            plus = np.asarray(grad(*shifted))
            shifted[k] = x - eps * v
            numeric = (plus - np.asarray(grad(*shifted))) / (2 * eps)
            if not np.allclose(hv, numeric, rtol=1e-4, atol=1e-5):
                return "differs from central differences of the gradient"
            # the Hessian is symmetric: v^T H, by reverse mode through the gradient
            reverse = s2s_ad.vjp(s2s_ad.grad(weighted, wrt=k), wrt=k)(*args, v)
    except Exception as error:                  # noqa: BLE001
        return f"{type(error).__name__}: {str(error).splitlines()[0][:80]}"
    if not np.allclose(reverse, numeric, rtol=1e-4, atol=1e-5):
        return "reverse over reverse differs from central differences of the gradient"
    return None


def _weighted_1(fn, u):
    def weighted(a):
        return np.sum(fn(a) * u)
    return weighted


def _weighted_2(fn, u):
    def weighted(a, b):
        return np.sum(fn(a, b) * u)
    return weighted


def _weighted_3(fn, u):
    def weighted(a, b, c):
        return np.sum(fn(a, b, c) * u)
    return weighted


def _weighted_4(fn, u):
    def weighted(a, b, c, e):
        return np.sum(fn(a, b, c, e) * u)
    return weighted


# <u, f(args)> for f of 1 to 4 arguments (written out: s2s_ad reads each def's source)
_WEIGHTED = {1: _weighted_1, 2: _weighted_2, 3: _weighted_3, 4: _weighted_4}


def table(quick=False, names=None):
    """[(function, reverse, forward, second order)], each None (works) or the failure."""
    rows = {}
    for spec in all_specs():
        # a function normalize rewrites (np.piecewise) is listed under its own name
        listed = spec.extra.get("listed_as")
        if listed is None and not is_user_facing(spec.primitive):
            continue
        name = listed or function_name(spec.primitive)
        if names and name not in names:
            continue
        entry = rows.setdefault(name, [None, None, None, False])
        for shapes in (spec.shapes[:1] if quick else spec.shapes):
            entry[0] = entry[0] or _passes(inner_product_check, spec, shapes)
            entry[1] = entry[1] or _passes(forward_check, spec, shapes)
        if not entry[3]:                        # one second-order check per function
            entry[2] = second_order(spec, spec.shapes[0])
            entry[3] = True
    return [(name, *entry[:3]) for name, entry in sorted(rows.items())]


def peer_coverage(quick=True, names=None):
    """(names of PEER_FUNCTIONS (or of `names` among them) that work in grad and jvp,
    {name: why not} for the others).
    A name works when the table has a row for its function (an alias, np.acos for
    np.arccos, shares it) with reverse and forward both passing."""
    listed, listed_as = {}, set()
    for spec in all_specs():
        if "listed_as" in spec.extra:           # rows of what normalize rewrites
            listed_as.add(spec.extra["listed_as"])
        elif is_user_facing(spec.primitive):
            listed.setdefault(id(spec.primitive), function_name(spec.primitive))
    wanted = {}
    for name in PEER_FUNCTIONS if names is None else [n for n in PEER_FUNCTIONS if n in names]:
        wanted[name] = f"numpy.{name}" if f"numpy.{name}" in listed_as else \
            listed.get(id(_numpy_function(name)))
    rows = {row[0]: row[1:] for row in table(quick, {n for n in wanted.values() if n})}
    works, missing = [], {}
    for name, row_name in wanted.items():
        failures = rows.get(row_name)
        if failures is None:
            missing[name] = "no template"
        elif failures[0] is not None or failures[1] is not None:
            missing[name] = failures[0] or failures[1]
        else:
            works.append(name)
    return works, missing


def _numpy_function(name):
    found = np
    for part in name.split("."):
        found = getattr(found, part)
    return found


def render(rows, markdown=False):
    def cell(failure):
        return "yes" if failure is None else f"no ({failure})"
    header = ("function", "reverse", "forward", "second order")
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|---|---|---|---|"]
        lines += ["| `" + name + "` | " + " | ".join(cell(f) for f in fails) + " |"
                  for name, *fails in rows]
        return "\n".join(lines)
    width = max(len(name) for name, *_ in rows) + 2
    lines = [header[0].ljust(width) + "  ".join(h.ljust(8) for h in header[1:])]
    lines += [name.ljust(width) + "  ".join(cell(f).ljust(8) for f in fails)
              for name, *fails in rows]
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tests.coverage",
                                     description=__doc__.splitlines()[2])
    parser.add_argument("--quick", action="store_true", help="one shape per spec row")
    parser.add_argument("--markdown", metavar="FILE", help="also write the table as markdown")
    parser.add_argument("names", nargs="*", help="only these functions (numpy.tanh ...)")
    parser.add_argument("--peers", action="store_true",
                        help="only the functions autograd, Tangent or JAX differentiate")
    options = parser.parse_args(argv)
    if options.peers:
        works, missing = peer_coverage(options.quick)
        print(f"{len(works)} of {len(PEER_FUNCTIONS)} work in grad and jvp")
        for name, why in sorted(missing.items()):
            print(f"  numpy.{name}: {why}")
        return 0
    rows = table(options.quick, set(options.names))
    print(render(rows))
    works = sum(all(f is None for f in fails[:2]) for _, *fails in rows)
    print(f"\n{len(rows)} functions; reverse and forward both work for {works}, "
          f"second order for {sum(fails[2] is None for _, *fails in rows)}")
    if options.markdown:
        with open(options.markdown, "w") as out:
            out.write(render(rows, markdown=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
