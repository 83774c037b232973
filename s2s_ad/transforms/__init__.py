"""Stage 4: desugar and flatten the user's function into levels form."""
