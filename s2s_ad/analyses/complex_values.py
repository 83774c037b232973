"""Which values of a levels form may be complex, and which primitives may see them.

Arguments are real (complex ones are refused at the call) and so are literals (the
fence); complex values come from numpy.fft's transforms, from a complex global or closure
value, and from the derivatives of those (runtime_complex.py). The analysis is
flow-insensitive (a fixed point over every assignment, loops and branches included):

    t1_0 = np.fft.fft(x)        t1_0 complex            (a complex-producing primitive)
    t2_0 = t1_0 * h             t2_0 complex            (an operand is complex)
    t3_0 = np.abs(t2_0)         t3_0 real               (a real-valued primitive)

The expander uses the table three ways (ad/statements.py, ad/forward.py):
- a real operand of a statement that involves complex values gets the real part of its
  contribution: x_bar = Re(w_bar dw/dx) (JAX's convention, runtime_complex.py);
- np.abs, np.real, np.imag, np.conj, np.angle of a complex operand use the templates of
  their complex forms (COMPLEX_FORMS, templates/numpy_complex.py);
- any other primitive given a complex operand must be one whose templates hold for
  complex values (holomorphic ones, linear maps, the FFTs): else a located error, never
  a real formula silently applied to a complex number.
"""
import builtins
import operator

import gast
import numpy as np

from ..ir.primitives import appended_list, attribute_read, identity, operation_of
from ..errors import MissingDerivativeError, function_location
from ..ir.walk import walk_tree
from .. import runtime_complex as rc

_FFT = np.fft
PRODUCERS = frozenset({
    _FFT.fft, _FFT.ifft, _FFT.fft2, _FFT.ifft2, _FFT.fftn, _FFT.ifftn, _FFT.rfft,
    _FFT.rfft2, _FFT.rfftn, _FFT.ihfft, rc.unirfft, rc.unhfft, rc.rfft_axes})
REAL_RESULTS = frozenset({
    np.abs, builtins.abs, np.real, np.imag, np.angle, _FFT.irfft, _FFT.irfft2, _FFT.irfftn,
    _FFT.hfft, rc.unrfft, rc.unihfft, rc.irfft_axes, rc.abs_of_complex, rc.real_of_complex,
    rc.imag_of_complex, rc.angle_of_complex, rc.nonzero_or_one, attribute_read, len})
# their adjoints are real whatever y_bar is (no real part needed for a real operand)
REAL_CONTRIBUTIONS = frozenset({_FFT.rfft, _FFT.rfft2, _FFT.rfftn, _FFT.ihfft,
                                rc.rfft_axes})
# real-valued from real operands, but with a complex adjoint (they read a spectrum)
COMPLEX_CONTRIBUTIONS = frozenset({_FFT.irfft, _FFT.irfft2, _FFT.irfftn, _FFT.hfft,
                                   rc.irfft_axes, rc.unrfft, rc.unihfft})
COMPLEX_FORMS = {np.abs: rc.abs_of_complex, builtins.abs: rc.abs_of_complex,
                 np.real: rc.real_of_complex, np.imag: rc.imag_of_complex,
                 np.conj: rc.conj_of_complex, np.angle: rc.angle_of_complex}
# primitives whose templates hold for complex operands under JAX's convention: linear
# maps (their transposes, no conjugates), holomorphic functions (w_bar h'(z)), the FFTs
_SAFE = frozenset({
    operator.add, operator.sub, operator.mul, operator.truediv, operator.neg, operator.pos,
    operator.pow, operator.matmul, operator.getitem, identity, tuple, list,
    np.add, np.subtract, np.multiply, np.divide, np.negative, np.square, np.matmul,
    np.exp, np.log, np.sqrt, np.sin, np.cos, np.sinh, np.cosh, np.tanh, np.expm1, np.log1p,
    np.sum, np.mean, np.cumsum, np.reshape, np.ravel, np.transpose, np.swapaxes,
    np.moveaxis, np.expand_dims, np.squeeze, np.concatenate, np.stack, np.hstack,
    np.vstack, np.flip, np.roll, np.where, np.dot, np.outer, np.tensordot, np.einsum,
    np.broadcast_to, np.tile, np.repeat, np.diff, np.trace, np.conj,
    _FFT.fftshift, _FFT.ifftshift, rc.fit_to, rc.conj_of_complex,
}) | PRODUCERS | REAL_RESULTS


def is_safe_for_complex(primitive, registry):
    """May `primitive` take a complex operand (its templates then still hold)?"""
    if primitive is None:
        return False
    if primitive in _SAFE or registry.is_nondifferentiable(primitive):
        return True
    # the runtime helpers generated code calls are linear in the adjoint they carry
    module = getattr(primitive, "__module__", "") or ""
    return module.startswith("s2s_ad.runtime")


def complex_values_of(levels, helper=False, out_atom=None):
    """complex_values of a function's levels form, its globals and closure values looked
    up. A helper (a function the differentiated one calls) returning a complex value is
    refused: complex values are differentiated inside the function that computes them."""
    resolution = levels.resolution
    names = complex_values(levels, lambda name: None if resolution.is_value(name)
                           else resolution.lookup(name))
    if helper and isinstance(out_atom, gast.Name) and out_atom.id in names:
        raise MissingDerivativeError(
            f"{levels.parsed.func.__qualname__} returns a complex value to the function "
            f"being differentiated: s2s_ad differentiates complex values only inside the "
            f"function that computes them", function_location(levels.parsed.func),
            "return np.real / np.imag / np.abs of it, or inline the helper")
    return names


def complex_values(levels, lookup):
    """The names of `levels` that may hold complex values; `lookup(name)` gives a global
    or closure value (or None)."""
    statements = _assignments(levels.tree.body)
    names = {target for target, _ in statements}
    complex_names = set()
    for stmt_target, value in statements:
        for node in _names_read(value):
            if node not in names and _is_complex_value(lookup(node)):
                complex_names.add(node)
    changed = True
    while changed:
        changed = False
        for target, value in statements:
            if target in complex_names:
                continue
            if _makes_complex(value, levels.callees, complex_names):
                complex_names.add(target)
                changed = True
    return frozenset(complex_names)


def _makes_complex(value, callees, complex_names):
    if not hasattr(value, "_fields"):       # a read of several names (index write, append)
        return any(n in complex_names for n in value)
    op = operation_of(value, callees)
    if op.primitive in PRODUCERS:
        return True
    if op.primitive in REAL_RESULTS:
        return False
    return any(n in complex_names for n in _names_read(value))


def _is_complex_value(value):
    try:
        return isinstance(value, (complex, np.complexfloating)) or (
            isinstance(value, np.ndarray) and np.iscomplexobj(value))
    except Exception:           # noqa: BLE001 (an object numpy cannot inspect: not complex)
        return False


def _names_read(node):
    if not hasattr(node, "_fields"):
        return list(node)
    return [n.id for n in walk_tree(node) if isinstance(n, gast.Name)
            and isinstance(n.ctx, gast.Load)]


def _assignments(body):
    """(target, value node or names read) for every assignment, appended item and item
    write, in every block."""
    out = []
    for stmt in body:
        if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Subscript) \
                and isinstance(stmt.targets[0].value, gast.Name):
            out.append((stmt.targets[0].value.id, tuple(_names_read(stmt.value))))
        elif isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name):
            out.append((stmt.targets[0].id, stmt.value))
        elif isinstance(stmt, gast.Assign):
            for target in stmt.targets[0].elts if hasattr(stmt.targets[0], "elts") else []:
                if isinstance(target, gast.Name):
                    out.append((target.id, tuple(_names_read(stmt.value))))
        elif isinstance(stmt, gast.For) and isinstance(stmt.target, gast.Name):
            out.append((stmt.target.id, tuple(_names_read(stmt.iter))))
        listed = appended_list(stmt)
        if listed is not None:
            out.append((listed, tuple(_names_read(stmt.value))))
        for field in ("body", "orelse"):
            out.extend(_assignments(getattr(stmt, field, []) or []))
    return out


def reads_complex(op, complex_names):
    return any(n in complex_names for a in list(op.args) + list(op.keywords.values())
               for n in _names_read(a))


def template_primitive(op, complex_names, registry):
    """The primitive whose templates serve `op`: its complex form (COMPLEX_FORMS) where an
    operand may be complex; None when an operand may be complex and the primitive's
    templates are those of a real function."""
    if not complex_names or not reads_complex(op, complex_names):
        return op.primitive
    primitive = COMPLEX_FORMS.get(op.primitive, op.primitive)
    return primitive if is_safe_for_complex(primitive, registry) else None


def takes_real_part(op, target, operand, complex_names):
    """Does the contribution of statement `target = op` to the real `operand` need its
    real part taken (the statement involves complex values)?"""
    if operand in complex_names or op.primitive in REAL_CONTRIBUTIONS:
        return False
    return op.primitive in COMPLEX_CONTRIBUTIONS or bool(complex_names) and (
        target in complex_names or reads_complex(op, complex_names))


def raise_not_for_complex(op, described, location):
    """The located error for a complex operand where s2s_ad has no complex derivative."""
    import inspect
    if inspect.isfunction(op.primitive) and not (op.primitive.__module__ or "").startswith(
            ("numpy", "s2s_ad")):
        raise MissingDerivativeError(
            f"`{described}` is given a complex value: s2s_ad differentiates complex values "
            f"only inside the function that computes them", location,
            "pass the function real values (np.real, np.imag, np.abs of the complex "
            "one), or compute the complex value inside it")
    raise MissingDerivativeError(
        f"`{described}` of a complex value has no derivative here: its templates are "
        f"those of a real function", location,
        "take np.real, np.imag or np.abs of the complex value first (README: numpy.fft "
        "and complex intermediates lists what takes complex values)")
