"""nondifferentiable templates."""
