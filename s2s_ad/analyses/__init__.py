"""Stage 5: read-only analyses of the levels form, returned as frozen side tables."""
