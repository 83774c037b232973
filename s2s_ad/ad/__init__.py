"""Stage 6: differentiation by template expansion (reverse mode) and the template registry."""
