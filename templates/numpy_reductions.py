"""numpy_reductions templates."""
