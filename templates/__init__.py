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
    "numpy_parts",
    "numpy_reductions",
    "numpy_log_scans",
    "numpy_nan_reductions",
    "numpy_statistics",
    "numpy_calculus",
    "numpy_polynomials",
    "numpy_polynomial_roots",
    "numpy_bessel",
    "numpy_sinc",
    "numpy_shape",
    "numpy_pieces",
    "numpy_rearrange",
    "numpy_select",
    "numpy_linalg",
    "numpy_decompositions",
    "numpy_least_squares",
    "numpy_signal",
    "numpy_fft",
    "numpy_complex",
    "numpy_creation",
    "python_math",
    "nondifferentiable",
    "runtime_functions",
    "runtime_mappings",
    "runtime_adjoints",
    "runtime_adjoints_linalg",
    "runtime_banded",
    "runtime_simplex",
    "runtime_triangular",
    "runtime_helpers",
    "runtime_helpers_arrays",
    "runtime_helpers_pieces",
    "runtime_statistics",
    "runtime_calculus",
    "runtime_polynomials",
    "runtime_products",
    "objects",
)
# numpy 2's array-API names (np.vecdot, np.linalg.svdvals, ...) where numpy has them
if hasattr(_np.linalg, "svdvals") and hasattr(_np, "matvec"):
    MODULES += ("numpy2_linalg",)
# numpy 2's np.cumulative_sum, np.cumulative_prod and np.unstack
if hasattr(_np, "cumulative_sum") and hasattr(_np, "unstack"):
    MODULES += ("numpy2_arrays",)

# Templates for optional dependencies: (module, the module it needs). The registry imports
# one only once the user's code has imported what it needs (never scipy itself).
OPTIONAL_MODULES = (
    ("scipy_special", "scipy.special"),
    ("scipy_special_bessel_gamma", "scipy.special"),
    ("scipy_special_multivariate", "scipy.special"),
    ("scipy_stats", "scipy.stats"),
    ("scipy_stats_gamma_beta", "scipy.stats"),
    ("scipy_stats_t_poisson", "scipy.stats"),
    ("scipy_stats_dirichlet", "scipy.stats"),
    ("scipy_signal", "scipy.signal"),
    ("scipy_linalg", "scipy.linalg"),
    ("scipy_cholesky", "scipy.linalg"),
    ("scipy_linalg_basics", "scipy.linalg"),
)
