"""s2s_ad: source-to-source automatic differentiation for Python and numpy.

Public API only; see README.md for a tour and ARCHITECTURE (shared) for the design.
"""
from .api import derivative_source, grad, jvp, normalize, value_and_grad, vjp
from .ad.template_dsl import adjoint, d, nondifferentiable, tangent
from .checking import GradientCheckError, check_grads
from .higher_order import hessian, hvp, jacobian
from .runtime_flow import insert_grad_of, stop_gradient
from .errors import (ADError, APIUsageError, MissingDerivativeError, NonDifferentiableError,
                     NonScalarOutputError, TemplateError, UnsupportedSyntaxError)

__version__ = "0.1.0"

__all__ = [
    "grad", "value_and_grad", "vjp", "jvp", "jacobian", "hvp", "hessian", "normalize", "derivative_source", "check_grads",
    "adjoint", "tangent", "nondifferentiable", "d", "stop_gradient", "insert_grad_of",
    "ADError", "APIUsageError", "MissingDerivativeError", "NonDifferentiableError",
    "NonScalarOutputError", "TemplateError", "UnsupportedSyntaxError", "GradientCheckError",
]
