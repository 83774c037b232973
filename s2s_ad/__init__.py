"""s2s_ad: source-to-source automatic differentiation for Python and numpy.

Public API only; see README.md for a tour and ARCHITECTURE (shared) for the design.
"""
from .api import derivative_source, grad, jvp, normalize, value_and_grad, vjp
from .ad.template_dsl import adjoint, d, nondifferentiable, tangent
from .runtime_flow import insert_grad_of, stop_gradient
from .errors import (ADError, APIUsageError, MissingDerivativeError, NonDifferentiableError,
                     NonScalarOutputError, SharedMemoryWriteError, TemplateError,
                     UnsupportedSyntaxError)

__version__ = "0.1.0"

# imported when first asked for (`s2s_ad.hessian`, `from s2s_ad import check_grads`): a
# first grad() needs neither module, and where Python compiles s2s_ad from source
# (PYTHONDONTWRITEBYTECODE) each costs milliseconds of `import s2s_ad`
_LAZY = {"check_grads": "checking", "GradientCheckError": "checking",
         "hessian": "higher_order", "hvp": "higher_order", "jacobian": "higher_order"}


def __getattr__(name):
    if name in _LAZY:
        import importlib
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))

__all__ = [
    "grad", "value_and_grad", "vjp", "jvp", "jacobian", "hvp", "hessian", "normalize", "derivative_source", "check_grads",
    "adjoint", "tangent", "nondifferentiable", "d", "stop_gradient", "insert_grad_of",
    "ADError", "APIUsageError", "MissingDerivativeError", "NonDifferentiableError",
    "NonScalarOutputError", "SharedMemoryWriteError", "TemplateError", "UnsupportedSyntaxError",
    "GradientCheckError",
]
