"""The `s2s-ad` command (also `python -m s2s_ad`): write gradient modules you can commit.

    s2s-ad grad model.py:loss -o grad_model.py          # writes grad_loss(...)
    s2s-ad grad model.py:loss model.py:reg --wrt w -o grads.py
    s2s-ad grad 'model.py:loss[w,b]' 'model.py:reg[0]' -o grads.py
    s2s-ad grad model.py:loss --print                   # to stdout
    s2s-ad grad model.py:loss --normalize               # the levels form
    s2s-ad grad model.py:loss -o grad_model.py --check  # exit 1 when the file is stale

Errors in the user's code print like Python's syntax errors (file:line:col, the line, a
caret, what to write instead) and exit with status 2; --traceback shows the traceback.
"""
import argparse
import os
import shlex
import sys
import tempfile
import traceback

from . import __version__, api
from .derivative_registry import CACHE, dispatcher_of
from .backend.emit import to_source
from .backend.standalone import (MARKER, body, read_hash, seal, sealed, source_hash,
                                 standalone_module)
from .cli_items import items_derivatives, keywords_function, parse_items, takes_keywords
from .cli_targets import CommandError, load_target, parse_wrt, parsed_signature
from .frontend.star_params import takes_star_args
from .errors import ADError, APIUsageError

EXAMPLES = """examples:
  s2s-ad grad model.py:loss -o grad_model.py
      write grad_model.py defining grad_loss, taking the same parameters as loss
  s2s-ad grad model.py:loss model.py:penalty --wrt w,b -o grads.py
      gradients of two functions with respect to their parameters w and b
  s2s-ad grad 'model.py:loss[w,b]' 'model.py:penalty[0]' -o grads.py
      gradients of loss w.r.t. w and b and of penalty w.r.t. its first parameter
  s2s-ad grad src/pkg/model.py:loss -o src/pkg/grad_model.py
      a module of a package (relative imports work): imported as pkg.model
  s2s-ad grad model.py:loss --print
      print the module instead of writing it
  s2s-ad grad model.py:loss --normalize
      print loss in levels form (one operation per line)
  s2s-ad grad model.py:loss -o grad_model.py --check
      exit 1 if grad_model.py is out of date with model.py or was edited (e.g. in CI)
  s2s-ad grad model.py:loss -o grad_model.py --signature "w: float64[D], X: float64[N,D], y: float64[N]"
      also write grad_loss_1 built for those kinds, and grad_loss dispatching to it
      (string annotations such as `w: "float64[D]"` on loss do the same)
  s2s-ad jvp model.py:predict --wrt w -o jvp_model.py
      write jvp_predict(*args, tangent) -> (value, directional derivative)
  s2s-ad hvp model.py:loss --wrt w -o hvp_model.py
      write hvp_loss(*args, v) -> Hessian of loss (w.r.t. w) times v
"""


def build_parser():
    parser = argparse.ArgumentParser(
        prog="s2s-ad", description="Source-to-source automatic differentiation for numpy.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"s2s-ad {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    for command, summary in (("grad", "write gradient functions grad_FUNC(*args)"),
                             ("jvp", "write forward-mode functions jvp_FUNC(*args, tangent) "
                                     "-> (value, derivative)"),
                             ("hvp", "write Hessian-vector products hvp_FUNC(*args, v)")):
        _add_command(commands, command, summary)
    return parser


def _add_command(commands, command, summary):
    grad = commands.add_parser(command, help=summary, description=summary, epilog=EXAMPLES,
                               formatter_class=argparse.RawDescriptionHelpFormatter)
    grad.add_argument("targets", nargs="+", metavar="FILE.py:FUNC[wrt]",
                      help="the function(s) to differentiate, each optionally with its own "
                           "wrt: model.py:loss[w,b] (a file in a package is imported by its "
                           "dotted name, from the package root)")
    grad.add_argument("--wrt", default=None,
                      help="comma-separated parameter names or positions for every function "
                           "without its own [wrt] (default: the first parameter)")
    grad.add_argument("-o", "--output", metavar="OUT.py", help="the module to write")
    grad.add_argument("--print", action="store_true", dest="to_stdout",
                      help="write the module to stdout")
    grad.add_argument("--normalize", action="store_true", help="print the levels form")
    grad.add_argument("--check", action="store_true",
                      help="exit 1 when OUT.py is stale (its source or s2s-ad changed)")
    grad.add_argument("--force", action="store_true",
                      help="overwrite OUT.py even if s2s-ad did not write it")
    grad.add_argument("--signature", action="append", metavar="SIG",
                      help="the arguments' kinds, e.g. \"w: float64[D], x: float\" "
                           "(repeatable; grad only): also write a derivative specialised "
                           "on them, and a function dispatching to it")
    grad.add_argument("--items", metavar="N[,N...]",
                      help="for a function taking *args: the numbers of items to write "
                           "derivatives for (one each, and a function choosing by count)")
    grad.add_argument("--traceback", action="store_true",
                      help="show Python tracebacks for errors")


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        return _grad(args)
    except ADError as exc:
        if args.traceback:
            traceback.print_exc()
        elif isinstance(exc, CommandError):
            print(f"s2s-ad: error: {exc}", file=sys.stderr)
        else:
            print(f"s2s-ad: error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2


def _grad(args):
    targets = [load_target(t) for t in args.targets]
    if args.normalize:
        from .pipeline import front
        for func, _ in targets:
            levels, _ = front(func)
            sys.stdout.write(to_source(levels.tree))
        return 0
    if not args.output and not args.to_stdout:
        raise APIUsageError("give -o OUT.py (or --print)")
    if args.check and not args.output:
        raise APIUsageError("--check compares with a file: give -o OUT.py")
    default_wrt = parse_wrt(args.wrt)
    counts = parse_items(args.items)
    deriveds, extra = [], []
    for func, wrt in targets:
        wrt = wrt if wrt is not None else default_wrt if default_wrt is not None else 0
        if takes_keywords(func):       # for the keywords --signature names (cli_items.py)
            func = keywords_function(func, args.command, args.signature,
                                     lambda text: dict(parsed_signature(func, text)))
        if takes_star_args(func):
            # one derivative per number of items (cli_items.py)
            if args.signature:
                raise APIUsageError(f"--signature is not written for {func.__qualname__}, "
                                    f"which takes *args: its derivatives are per --items")
            written, chooser = items_derivatives(func, args.command, wrt, counts,
                                                 _derive, _general_of(args.command))
            deriveds.extend(written)
            extra.append(chooser)
            continue
        if args.command == "hvp":
            from .higher_order import hvp
            inner = hvp(func, wrt=wrt).__wrapped__
            dispatcher = dispatcher_of(inner)       # the general derivative behind it
            derived = dispatcher.general if dispatcher is not None else CACHE.derived_of(inner)
            extra.append(_hvp_wrapper(func, derived))
        else:
            derived = _general_of(args.command)(func, wrt)
            signatures = _signatures(func, args)
            if signatures:
                specialised, dispatcher = _specialised(func, derived, signatures)
                deriveds.extend(specialised)
                extra.append(dispatcher)
                continue
        deriveds.append(derived)
    header = [f"from {', '.join(args.targets)}. Do not edit.",
              "Regenerate with: " + _command_line(args)]
    text = standalone_module(deriveds, CACHE, __version__, header)
    if extra:
        text = text.rstrip("\n") + "\n\n\n" + "\n\n\n".join(extra) + "\n"
    text = seal(text)
    if args.check:
        return _check(args.output, deriveds, text)
    if args.to_stdout:
        sys.stdout.write(text)
        return 0
    _write(args.output, text, args.force)
    return 0


def _general_of(command):
    """general(func, wrt): the general derivative the command writes for func."""
    def general(func, wrt):
        dispatcher = dispatcher_of(getattr(api, command)(func, wrt=wrt))
        # (grad builds it when something needs it: here)
        return dispatcher.general if dispatcher is not None else \
            CACHE.get(func, _request(func, command, wrt))
    return general


def _derive(func, request):
    from .ad.registry import default_registry
    from .pipeline import derive
    return derive(func, request, default_registry(), CACHE)


def _command_line(args):
    """The command that writes this module again, as a shell would take it."""
    words = ["s2s-ad", args.command] + args.targets
    if args.wrt:
        words += ["--wrt", args.wrt]
    if args.items:
        words += ["--items", args.items]
    for text in args.signature or []:
        words += ["--signature", text]
    words += ["-o", args.output] if args.output else ["--print"]
    return shlex.join(words)


def _signatures(func, args):
    """The signatures to specialise on: --signature, else the function's annotations
    (string kinds such as "float64[N, D]", or float/int/bool) when any gives a fact."""
    import inspect
    from .signature import UNKNOWN, Attributes
    from .signature_text import parse_kind
    params = [p.name for p in inspect.signature(func).parameters.values()]
    if args.signature and args.command != "grad":
        raise APIUsageError("--signature specialises gradients: use it with s2s-ad grad")
    texts = args.signature or []
    found = []
    for text in texts:
        given = dict(parsed_signature(func, text))
        unknown = set(given) - set(params)
        if unknown:
            raise APIUsageError(f"--signature names {', '.join(sorted(unknown))}, which "
                                f"{func.__name__} does not take (it takes {', '.join(params)})")
        found.append(tuple((p, given.get(p, UNKNOWN)) for p in params))
    if found or args.command != "grad":
        return found
    annotations = {}
    for p in inspect.signature(func).parameters.values():
        note = p.annotation
        if isinstance(note, str):
            try:
                annotations[p.name] = parse_kind(note)
            except ValueError:
                pass
        elif note in (float, int, bool):
            annotations[p.name] = parse_kind(note.__name__)
        elif isinstance(note, type) and note is not p.empty \
                and note.__module__ not in ("builtins", "numpy", "typing"):
            # `p: Linear`: the object's class (what a method call on it runs)
            annotations[p.name] = Attributes(note, ())
    if not annotations:
        return []
    return [tuple((p, annotations.get(p, UNKNOWN)) for p in params)]


def _specialised(func, general, signatures):
    """The derivatives to write for `signatures` (the general one renamed, falling back)
    and the text of the dispatching function named like the general derivative."""
    import dataclasses
    import inspect
    import numpy
    from .ad.registry import default_registry
    from .dispatch import guard_source
    from .pipeline import derive
    fallback = derive(func, dataclasses.replace(general.request, variant="general"),
                      default_registry(), CACHE)
    built = [derive(func, dataclasses.replace(general.request, signature=sig, variant=k),
                    default_registry(), CACHE) for k, sig in enumerate(signatures, 1)]
    constants = {}
    params = list(inspect.signature(general.function).parameters.values())

    def bind(obj):
        if isinstance(obj, tuple):          # ("items of", type): no checker in a file
            return None
        if isinstance(obj, numpy.dtype):
            name = f"_{obj.name.upper()}"
            constants[name] = f'_numpy.dtype("{obj.name}")'
            return name
        if obj.__module__ == "builtins":       # a parameter may hide the builtin's name
            taken = obj.__name__ in [p.name for p in params]
            return f'__import__("builtins").{obj.__name__}' if taken else obj.__name__
        if obj.__module__ != "numpy" and isinstance(obj, type):
            # a class of the user's (an object argument's): imported by the module that
            # defines it, as the written module imports f's own names
            name = "_" + obj.__qualname__.replace(".", "_")
            constants[name] = f"_importlib.import_module({obj.__module__!r}).{obj.__qualname__}"
            return name
        return f"_numpy.{obj.__name__}"
    doc = (f"Gradient of {func.__qualname__}: calls the derivative written for its "
           f"arguments' kinds, else the general one. Generated by s2s_ad.")
    text = guard_source(general.function.__name__, doc, params,
                        [(sig, d.function.__name__) for sig, d in zip(signatures, built)],
                        fallback.function.__name__, bind)
    # the parameters as the general derivative writes them: with f's defaults
    first = fallback.source.split("\n", 1)[0]
    text = text.replace(text[text.index("("):text.index(":\n")],
                        first[first.index("("):first.rindex(":")], 1)
    head = ["import numpy as _numpy"]
    if any(v.startswith("_importlib.") for v in constants.values()):
        head.insert(0, "import importlib as _importlib")
    head += [f"{n} = {v}" for n, v in sorted(constants.items())]
    return [fallback] + built, "\n".join(head) + "\n\n\n" + text


def _request(func, mode, wrt):
    from .wrt import wrt_names
    from .pipeline import Request
    names, single = wrt_names(func, wrt)
    return Request(mode, names, False, single)


def _hvp_wrapper(func, derived):
    """hvp_f(*params, v): the Hessian-vector product from the jvp of the gradient, which
    takes the same arguments (f's, then the vector, named `tangent` there)."""
    import inspect
    import re
    from .calling_order import derivative_parameter
    tangent = derivative_parameter(derived.function)
    params = inspect.signature(derived.function).parameters.values()
    vector = "v"
    while vector in [p.name for p in params]:
        vector += "_"
    first = derived.source.split("\n", 1)[0]            # keyword defaults as written
    written = re.sub(rf"\b{tangent}\b", vector, first[first.index("("):first.rindex(":")],
                     count=1)
    passed = [vector if p.name == tangent else p.name if p.kind is not p.KEYWORD_ONLY
              else f"{p.name}={p.name}"
              for p in params]
    return (f"def hvp_{func.__name__}{written}:\n"
            f'    """Hessian of {func.__name__} times {vector} (forward-over-reverse). '
            f'Generated by s2s_ad."""\n'
            f"    return {derived.function.__name__}({', '.join(passed)})")


def _check(output, deriveds, expected):
    """0 when `output` holds exactly what s2s-ad would write now (its header comments
    aside: the command in it may be spelled from another directory), else 1."""
    if not os.path.exists(output):          # (-o is required with --check)
        print(f"s2s-ad: {output} does not exist", file=sys.stderr)
        return 1
    text = _read(output)
    if not _written_by_s2s_ad(text):
        # "stale: regenerate it" would send the user to a run that refuses without --force.
        print(f"s2s-ad: {output} was not written by s2s-ad (to replace it, regenerate "
              f"with --force)", file=sys.stderr)
        return 1
    if not sealed(text):
        print(f"s2s-ad: {output} was edited after s2s-ad wrote it: regenerate it",
              file=sys.stderr)
        return 1
    if read_hash(text) != source_hash(deriveds, CACHE, __version__) \
            or body(text) != body(expected):
        print(f"s2s-ad: {output} is stale: regenerate it", file=sys.stderr)
        return 1
    print(f"s2s-ad: {output} is up to date")
    return 0


def _written_by_s2s_ad(text):
    """Whether `text` starts with the line s2s-ad puts first in every module it writes."""
    return text.startswith(MARKER)


def _read(path):
    """The text of `path`; a file that is not text reads as not written by s2s-ad."""
    try:
        with open(path, errors="replace") as fh:
            return fh.read()
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from exc


def _write(output, text, force):
    """Write atomically; never replace a file s2s-ad did not write (unless forced)."""
    # Checked first: the temporary file would go beside the directory, not in it, and
    # os.replace onto a directory fails with errors that do not say why ("busy" for ".").
    if os.path.isdir(output):
        raise CommandError(f"cannot write {output}: it is a directory")
    if os.path.exists(output) and not force and not _written_by_s2s_ad(_read(output)):
        raise APIUsageError(f"{output} was not written by s2s-ad; use --force to replace it")
    try:
        _replace(output, text)
    except OSError as exc:
        raise CommandError(f"cannot write {output}: {exc.strerror or exc}") from exc


def _replace(output, text):
    """Put `text` in `output` through a temporary file, which never outlives the call."""
    directory = os.path.dirname(os.path.abspath(output))
    handle, temporary = tempfile.mkstemp(prefix=".s2s-ad-", suffix=".py", dir=directory)
    try:
        with os.fdopen(handle, "w") as fh:
            fh.write(text)
        # mkstemp makes the file owner-only; a module people commit follows the umask
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, output)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
