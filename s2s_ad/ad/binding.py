"""Binding a levels-form call's operands to a template's parameters, by position and by
keyword, with the primitive's own defaults for what the call leaves out.

    template  np.sum(a, axis=None, dtype=None, keepdims=False)
    call      np.sum(t1_0, axis=1)         ->  {a: t1_0, axis: 1, dtype: None, keepdims: False}

Builtins' and ufuncs' keyword-only names are read off their text signatures once per
process (no inspect tokenizer on a first call).
"""
import ast
import inspect
import types

import gast
import numpy

from ..ir import build
from .literal_arguments import literal_problem


class BindingError(Exception):
    """An operand does not fit the template's parameters (message for the user)."""


def bind_operands(template, args, keywords, primitive=None):
    """Map template parameters to operand nodes (defaults filled in as literals). The
    positional arguments are named by the primitive's own signature where it has one:
    np.var(x, 0, None, None, 1) passes `ddof` fifth, where the template (without `out`)
    has keepdims; an argument the template lacks is refused unless it is None (or, as a
    keyword, the primitive's own default: logsumexp(a, return_sign=False))."""
    params = template.params
    if len(args) > len(params):
        raise BindingError(f"takes at most {len(params)} positional arguments here")
    names = _positional_names(primitive)
    if names is not None and len(args) <= len(names) and names[:len(args)] != \
            list(params[:len(args)]):
        bound = {}
        for name, arg in zip(names, args):
            if name in params:
                bound[name] = arg
            elif not (isinstance(arg, gast.Constant) and arg.value is None):
                raise BindingError(f"the argument `{name}` is not supported")
    else:
        bound = dict(zip(params, args))
        keyword_only = _keyword_only_names(primitive)
        if any(name in keyword_only for name in bound):
            # np.meshgrid(*xi, copy, ...): the template names a few arrays, then keywords
            raise BindingError(f"takes at most {sum(p not in keyword_only for p in params)} "
                               f"positional arguments here")
    for key, value in keywords.items():
        if key not in params and _is_default(primitive, key, value):
            continue        # logsumexp(a, return_sign=False): what the call means anyway
        if key not in params:
            raise BindingError(f"the keyword argument `{key}=` is not supported")
        if key in bound:
            raise BindingError(f"got `{key}` twice")
        bound[key] = value
    for p in params:
        if p not in bound:
            if p not in template.defaults:
                raise BindingError(f"the argument `{p}` is required")
            bound[p] = build.literal(template.defaults[p])
    problem = literal_problem(primitive, bound)
    if problem:
        raise BindingError(problem)
    return bound


def _keyword_only_names(primitive):
    """The keyword-only parameters of a Python-level primitive (those after its *args)."""
    fixed = _fixed_signature(primitive)
    if fixed and primitive in _KEYWORD_ONLY:
        return _KEYWORD_ONLY[primitive]
    text = getattr(primitive, "__text_signature__", None) if fixed else None
    names = _text_keyword_only(text) if isinstance(text, str) else None
    if names is not None:
        _KEYWORD_ONLY[primitive] = names
        return names
    try:
        parameters = inspect.signature(primitive).parameters.values()
    except (TypeError, ValueError):
        names = frozenset()
    else:
        names = frozenset(p.name for p in parameters if p.kind == p.KEYWORD_ONLY)
    if fixed:
        _KEYWORD_ONLY[primitive] = names
    return names


def _fixed_signature(primitive):
    """Is `primitive`'s signature one nothing can change (so it is read once)? A ufunc or
    builtin function without attributes of its own, or a type of builtins (float(x)):
    those are immutable."""
    if type(primitive) in _FIXED_SIGNATURES:
        return not getattr(primitive, "__dict__", None)
    return isinstance(primitive, type) and primitive.__module__ == "builtins" \
        and bool(primitive.__flags__ & _IMMUTABLE_TYPE)


_IMMUTABLE_TYPE = 1 << 8        # Py_TPFLAGS_IMMUTABLETYPE: no attribute can be set on it


def _text_keyword_only(text):
    """The keyword-only names a builtin's text signature gives, read by Python's own
    parser: `($module, x, /)` (math.exp) has none without parsing, `(shape, dtype=None,
    *, like=None)` (np.zeros) has `like`. inspect reads them through the tokenize module,
    whose first use costs ~2 ms a process. None where the text is more than a Python
    parameter list (optional groups `[...]`, `$self`, defaults Python cannot parse):
    inspect reads those."""
    if "*" not in text:
        return frozenset()
    if text.startswith("($module, ") or text.startswith("($module)"):
        text = "(" + text[len("($module"):].lstrip(", ")
    if "$" in text or "[" in text:
        return None
    try:
        tree = ast.parse(f"def _{text}: pass")
    except SyntaxError:
        return None
    return frozenset(a.arg for a in tree.body[0].args.kwonlyargs)


# a ufunc's or a builtin's signature is read from its text signature, which nothing can
# change while it has no attributes of its own (a __signature__ or __wrapped__ someone
# gave it would be read first); parsing it is most of what expanding a template for
# np.exp costs, so each is read once per process
_FIXED_SIGNATURES = (numpy.ufunc, types.BuiltinFunctionType)
_KEYWORD_ONLY = {}          # primitive of a _FIXED_SIGNATURES type -> its keyword-only names


def _is_default(primitive, key, value):
    """Does the keyword argument `key=value` (a literal) repeat the Python-level
    primitive's own default for it?"""
    if not (isinstance(value, gast.Constant)
            and inspect.isfunction(getattr(primitive, "__wrapped__", primitive))):
        return False            # ufuncs: `out=None` stays refused like any `out=`
    try:
        parameter = inspect.signature(primitive).parameters.get(key)
    except (TypeError, ValueError):     # a builtin without a signature
        return False
    return parameter is not None and parameter.default is not parameter.empty \
        and type(parameter.default) is type(value.value) and parameter.default == value.value


def _positional_names(primitive):
    """The names of a Python-level primitive's positional parameters, else None (ufuncs,
    builtins, runtime helpers bound by their template's own parameter list)."""
    if not inspect.isfunction(getattr(primitive, "__wrapped__", primitive)):
        return None
    try:
        parameters = inspect.signature(primitive).parameters.values()
    except (TypeError, ValueError):
        return None
    return [p.name for p in parameters if p.kind in (p.POSITIONAL_ONLY,
                                                     p.POSITIONAL_OR_KEYWORD)]


def reject_undifferentiated(template, bound, is_active):
    """A parameter the reverse template declares without a derivative
    (`d[v] += undifferentiated(v)`) whose operand carries one here: a BindingError (the
    caller locates it), in reverse and forward mode, never a silent zero."""
    from .registry import undifferentiated_parameters
    for param in sorted(undifferentiated_parameters(template)):
        if param in bound and is_active(bound[param]):
            raise BindingError(f"s2s_ad has no derivative in its argument `{param}`, which "
                               f"carries one here; differentiate with respect to the others")
