"""numpy_shape templates."""
