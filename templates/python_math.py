"""python_math templates."""
