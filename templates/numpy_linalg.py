"""numpy_linalg templates."""
