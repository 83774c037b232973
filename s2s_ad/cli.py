"""The `s2s-ad` command (also `python -m s2s_ad`): write gradient modules you can commit.

    s2s-ad grad model.py:loss -o grad_model.py          # writes grad_loss(...)
    s2s-ad grad model.py:loss model.py:reg --wrt w -o grads.py
    s2s-ad grad model.py:loss --print                   # to stdout
    s2s-ad grad model.py:loss --normalize               # the levels form
    s2s-ad grad model.py:loss -o grad_model.py --check  # exit 1 when the file is stale

Errors in the user's code print like Python's syntax errors (file:line:col, the line, a
caret, what to write instead) and exit with status 2; --traceback shows the traceback.
"""
import argparse
import importlib.util
import os
import sys
import tempfile
import traceback

from . import __version__
from .api import _CACHE, _public
from .backend.emit import to_source
from .backend.standalone import MARKER, read_hash, source_hash, standalone_module
from .errors import ADError, APIUsageError

EXAMPLES = """examples:
  s2s-ad grad model.py:loss -o grad_model.py
      write grad_model.py defining grad_loss, taking the same parameters as loss
  s2s-ad grad model.py:loss model.py:penalty --wrt w,b -o grads.py
      gradients of two functions with respect to their parameters w and b
  s2s-ad grad model.py:loss --print
      print the module instead of writing it
  s2s-ad grad model.py:loss --normalize
      print loss in levels form (one operation per line)
  s2s-ad grad model.py:loss -o grad_model.py --check
      exit 1 if grad_model.py is out of date with model.py (e.g. in CI)
  s2s-ad jvp model.py:predict --wrt w -o jvp_model.py
      write jvp_predict(tangent, *args) -> (value, directional derivative)
  s2s-ad hvp model.py:loss --wrt w -o hvp_model.py
      write hvp_loss(v, *args) -> Hessian of loss (w.r.t. w) times v
"""


def build_parser():
    parser = argparse.ArgumentParser(
        prog="s2s-ad", description="Source-to-source automatic differentiation for numpy.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"s2s-ad {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    for command, summary in (("grad", "write gradient functions grad_FUNC(*args)"),
                             ("jvp", "write forward-mode functions jvp_FUNC(tangent, *args) "
                                     "-> (value, derivative)"),
                             ("hvp", "write Hessian-vector products hvp_FUNC(v, *args)")):
        _add_command(commands, command, summary)
    return parser


def _add_command(commands, command, summary):
    grad = commands.add_parser(command, help=summary, description=summary, epilog=EXAMPLES,
                               formatter_class=argparse.RawDescriptionHelpFormatter)
    grad.add_argument("targets", nargs="+", metavar="FILE.py:FUNC",
                      help="the function(s) to differentiate")
    grad.add_argument("--wrt", default=None,
                      help="comma-separated parameter names (default: the first parameter)")
    grad.add_argument("-o", "--output", metavar="OUT.py", help="the module to write")
    grad.add_argument("--print", action="store_true", dest="to_stdout",
                      help="write the module to stdout")
    grad.add_argument("--normalize", action="store_true", help="print the levels form")
    grad.add_argument("--check", action="store_true",
                      help="exit 1 when OUT.py is stale (its source or s2s-ad changed)")
    grad.add_argument("--force", action="store_true",
                      help="overwrite OUT.py even if s2s-ad did not write it")
    grad.add_argument("--traceback", action="store_true",
                      help="show Python tracebacks for errors")


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        return _grad(args)
    except ADError as exc:
        if args.traceback:
            traceback.print_exc()
        else:
            print(f"s2s-ad: error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2


def _grad(args):
    functions = [_load_target(t) for t in args.targets]
    if args.normalize:
        from .pipeline import front
        for func in functions:
            levels, _ = front(func)
            sys.stdout.write(to_source(levels.tree))
        return 0
    if not args.output and not args.to_stdout:
        raise APIUsageError("give -o OUT.py (or --print)")
    wrt = tuple(w.strip() for w in args.wrt.split(",")) if args.wrt else 0
    wrt = wrt if isinstance(wrt, int) or len(wrt) > 1 else wrt[0]
    deriveds, extra = [], []
    for func in functions:
        if args.command == "hvp":
            from .higher_order import hvp
            derived = _CACHE.derived_of(hvp(func, wrt=wrt).__wrapped__)
            extra.append(_hvp_wrapper(func, derived))
        else:
            _public(func, args.command, wrt, False)
            derived = _CACHE.get(func, _request(func, args.command, wrt))
        deriveds.append(derived)
    if args.check:
        return _check(args.output, deriveds)
    header = [f"from {', '.join(args.targets)}. Do not edit.",
              f"Regenerate with: s2s-ad {args.command} " + " ".join(args.targets)
              + (f" --wrt {args.wrt}" if args.wrt else "")
              + (f" -o {os.path.basename(args.output)}" if args.output else " --print")]
    text = standalone_module(deriveds, _CACHE, __version__, header)
    if extra:
        text = text.rstrip("\n") + "\n\n\n" + "\n\n\n".join(extra) + "\n"
    if args.to_stdout:
        sys.stdout.write(text)
        return 0
    _write(args.output, text, args.force)
    return 0


def _request(func, mode, wrt):
    from .api import _wrt_names
    from .pipeline import Request
    names, single = _wrt_names(func, wrt)
    return Request(mode, names, False, single)


def _hvp_wrapper(func, derived):
    """hvp_f(v, *params): the Hessian-vector product from the jvp of the gradient."""
    import inspect
    params = list(inspect.signature(derived.function).parameters.values())
    signature = str(inspect.signature(derived.function)).replace(params[0].name, "v", 1)
    passed = ["v"] + [p.name if p.kind is not p.KEYWORD_ONLY else f"{p.name}={p.name}"
                      for p in params[1:]]
    name = f"hvp_{func.__name__}"
    defaults = _default_text(derived.source)
    return (f"def {name}{defaults or signature}:\n"
            f'    """Hessian of {func.__name__} times v (forward-over-reverse). '
            f'Generated by s2s_ad."""\n'
            f"    return {derived.function.__name__}({', '.join(passed)})")


def _default_text(source):
    """The parameter list as written in the generated source (defaults as source text)."""
    first = source.split("\n", 1)[0]
    start = first.index("(")
    head = first[start:first.rindex(":")]
    inner = head[1:-1].split(",", 1)
    return "(v" + ("," + inner[1] if len(inner) > 1 else "") + ")"


def _load_target(target):
    path, sep, name = target.rpartition(":")
    if not sep or not path.endswith(".py"):
        raise APIUsageError(f"expected FILE.py:FUNC, got {target!r}")
    if not os.path.exists(path):
        raise APIUsageError(f"no such file: {path}")
    module_name = os.path.splitext(os.path.basename(path))[0]
    directory = os.path.dirname(os.path.abspath(path))
    if directory not in sys.path:
        sys.path.insert(0, directory)
    module = sys.modules.get(module_name)
    if module is None or os.path.abspath(getattr(module, "__file__", "")) != os.path.abspath(path):
        spec = importlib.util.spec_from_file_location(module_name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    func = getattr(module, name, None)
    if func is None:
        raise APIUsageError(f"{path} defines no function {name!r}")
    return func


def _check(output, deriveds):
    if not output or not os.path.exists(output):
        print(f"s2s-ad: {output} does not exist", file=sys.stderr)
        return 1
    with open(output) as fh:
        recorded = read_hash(fh.read())
    if recorded != source_hash(deriveds, _CACHE, __version__):
        print(f"s2s-ad: {output} is stale: regenerate it", file=sys.stderr)
        return 1
    print(f"s2s-ad: {output} is up to date")
    return 0


def _write(output, text, force):
    """Write atomically; never replace a file s2s-ad did not write (unless forced)."""
    if os.path.exists(output) and not force:
        with open(output) as fh:
            first = fh.readline()
        if not first.startswith(MARKER):
            raise APIUsageError(f"{output} was not written by s2s-ad; use --force to replace it")
    directory = os.path.dirname(os.path.abspath(output))
    handle, temporary = tempfile.mkstemp(prefix=".s2s-ad-", suffix=".py", dir=directory)
    try:
        with os.fdopen(handle, "w") as fh:
            fh.write(text)
        os.replace(temporary, output)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
