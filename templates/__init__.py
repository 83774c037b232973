"""Built-in derivative templates, one module per family (shipped as s2s_ad.templates).

Reverse (`@adjoint`) and forward (`@tangent`) templates of one primitive sit side by
side. Adding a primitive touches its template here and one row of the primitive spec
table in tests/primitive_specs.py.
"""
import numpy as _np

MODULES = (
    "operators",
    "numpy_math",
    "numpy_arithmetic",
    "numpy_reductions",
    "numpy_shape",
    "numpy_linalg",
    "numpy_decompositions",
    "numpy_least_squares",
    "numpy_signal",
    "numpy_creation",
    "python_math",
    "nondifferentiable",
    "runtime_functions",
    "runtime_mappings",
    "runtime_adjoints",
    "runtime_adjoints_linalg",
    "runtime_helpers",
    "runtime_helpers_arrays",
)
# numpy 2's array-API names (np.vecdot, np.linalg.svdvals, ...) where numpy has them
if hasattr(_np.linalg, "svdvals") and hasattr(_np, "matvec"):
    MODULES += ("numpy2_linalg",)
