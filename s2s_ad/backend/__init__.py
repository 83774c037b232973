"""Stages 8-9: emit source text with astor and load it as a live Python function."""
