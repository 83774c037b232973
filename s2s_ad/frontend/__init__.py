"""Stages 1-3: parse a function, resolve its names, fence off unsupported syntax."""
