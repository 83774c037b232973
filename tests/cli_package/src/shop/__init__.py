"""A package the CLI tests differentiate a module of (tests/test_cli_projects.py)."""
