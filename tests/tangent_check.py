"""Check one tangent (forward) template numerically, without the forward-mode engine.

    check_tangent(np.tanh, [x])                      # d[y] from the template vs (f(x+ev)-f(x-ev))/2e
    check_tangent(np.sum, [x], {"axis": 0}, wrt=(0,))

The template's body is run with `d[p]` replaced by a concrete random direction for each
differentiated operand (zeros for the others), and the result compared with central
differences of the primitive along the same directions.
"""
import ast
import copy

import gast
import numpy as np

from s2s_ad.ad.registry import default_registry, derivative_target

EPS = 1e-6


class _Tangents(gast.NodeTransformer):
    def visit_Subscript(self, node):
        target = derivative_target(node)
        if target is not None and target[1] is None:
            return gast.Name(id=f"__d_{target[0]}", ctx=node.ctx, annotation=None,
                             type_comment=None)
        return self.generic_visit(node)


def _zero_direction(value):
    """Zeros shaped like value; a list (sum's iterable) gets a list of zeros."""
    if isinstance(value, (list, tuple)):
        return [_zero_direction(item) for item in value]
    return np.zeros(np.shape(value)) if isinstance(value, (float, np.ndarray)) else 0.0


def tangent_of(primitive, args, kwargs, directions):
    """What the tangent template computes for `primitive(*args, **kwargs)`."""
    template = default_registry().tangent(primitive)
    assert template is not None, f"no tangent template for {primitive!r}"
    bound = dict(zip(template.params, args))
    bound.update(kwargs or {})
    for p in template.params:
        bound.setdefault(p, template.defaults.get(p))
    namespace = dict(template.namespace)
    # the operands here are values, never literals: template_dsl.is_one is decided as
    # False (its True branch, `1.0 / u`, is checked through jvp in test_unit_numerator.py)
    namespace["is_one"] = lambda operand: False
    namespace.update(bound)
    namespace[template.result] = primitive(*args, **(kwargs or {}))
    for p in template.params:
        direction = directions.get(p)
        if direction is None:
            direction = _zero_direction(bound[p])
        namespace[f"__d_{p}"] = direction
    body = [_Tangents().visit(copy.deepcopy(stmt)) for stmt in template.body]
    module = gast.gast_to_ast(gast.Module(body=body, type_ignores=[]))
    ast.fix_missing_locations(module)
    exec(compile(module, "<tangent template>", "exec"), namespace)
    return namespace[f"__d_{template.result}"], namespace[template.result]


def check_tangent(primitive, args, kwargs=None, wrt=None, seed=0, rtol=1e-5, atol=1e-7):
    """Assert the tangent template agrees with central differences; returns the tangent."""
    kwargs = kwargs or {}
    template = default_registry().tangent(primitive)
    rng = np.random.default_rng(seed)
    positions = wrt if wrt is not None else [k for k, a in enumerate(args)
                                             if isinstance(a, (float, np.ndarray))]
    directions, moved_plus, moved_minus = {}, list(args), list(args)
    for k in positions:
        v = rng.standard_normal(np.shape(args[k]))
        v = float(v) if np.ndim(args[k]) == 0 and not isinstance(args[k], np.ndarray) else v
        directions[template.params[k]] = v
        moved_plus[k] = args[k] + EPS * v
        moved_minus[k] = args[k] - EPS * v
    tangent, y = tangent_of(primitive, args, kwargs, directions)
    numeric = (np.asarray(primitive(*moved_plus, **kwargs), dtype=float)
               - np.asarray(primitive(*moved_minus, **kwargs), dtype=float)) / (2 * EPS)
    assert np.shape(tangent) == np.shape(y), \
        f"tangent has shape {np.shape(tangent)}, the result {np.shape(y)}"
    np.testing.assert_allclose(tangent, numeric, rtol=rtol, atol=atol)
    return tangent
