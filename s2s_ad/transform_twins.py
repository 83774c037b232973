"""The differentiable twin of `s2s_ad.hessian(e)` / `s2s_ad.jacobian(e)` (forward mode),
for a function f that calls one and is differentiated itself (JAX users write
`jnp.trace(jax.hessian(e)(x))` in a loss).

The wrappers higher_order.py hands out loop over basis vectors in s2s_ad's own Python,
which is not differentiated. Their twin is the same loop written as a def of generated
source, calling the generated hvp / jvp of e (generated code, differentiable again):

    s2s_ad.hessian(e)   (e(x, a))   ->  def hessian_of_e(x, a):
                                            n = np.size(x)
                                            basis = np.eye(n)
                                            columns = [np.reshape(product(x, a,
                                                np.reshape(basis[k], np.shape(x))), (n,))
                                                for k in range(n)]
                                            return np.reshape(np.stack(columns, axis=-1),
                                                              np.shape(x) + np.shape(x))

jacobian's twin reads the tangent of the jvp (`product(...)[1]`) and shapes the result
out + in. The twin has e's parameters; it exists when e's are plain (no defaults, no
`*args`, `**kwargs` or keyword-only ones) and one argument is differentiated.
helper_derivatives.py differentiates the twin where f calls the wrapper.
"""
import inspect
import types

import numpy as np

from .backend.sources import register

_BODIES = {
    "hessian": "    columns = [np.reshape(product({args}np.reshape(basis[k], np.shape({x}))), "
               "(n,)) for k in range(n)]\n"
               "    return np.reshape(np.stack(columns, axis=-1), np.shape({x}) + np.shape({x}))\n",
    "jacobian": "    columns = [product({args}np.reshape(basis[k], np.shape({x})))[1] "
                "for k in range(n)]\n"
                "    return np.reshape(np.stack(columns, axis=-1), "
                "np.shape(columns[0]) + np.shape({x}))\n",
}


def twin(kind, f, name, product):
    """The twin def (see the module docstring) of `kind` ("hessian" or "jacobian") of f in
    its argument `name`, calling `product` (hvp(f) or jvp(f) in that argument); None when
    f's parameters are not all plain."""
    try:
        params = list(inspect.signature(f).parameters.values())
    except (TypeError, ValueError):
        return None
    if any(p.kind is not p.POSITIONAL_OR_KEYWORD or p.default is not p.empty
           for p in params) or name not in [p.name for p in params] \
            or any(p.name in ("np", "product", "n", "basis", "columns", "k") for p in params):
        return None
    names = [p.name for p in params]
    base = getattr(f, "__name__", "f")
    def_name = f"{kind}_of_{base if base.isidentifier() else 'function'}"
    source = (f"def {def_name}({', '.join(names)}):\n"
              f"    n = np.size({name})\n"
              f"    basis = np.eye(n)\n"
              + _BODIES[kind].format(args="".join(f"{v}, " for v in names), x=name))
    compiled = compile(source, register(def_name, source), "exec")
    code = next(c for c in compiled.co_consts if isinstance(c, types.CodeType))
    made = types.FunctionType(code, {"np": np, "product": product}, def_name)
    made.__qualname__ = def_name
    return made
